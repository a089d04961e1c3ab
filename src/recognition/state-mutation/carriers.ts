/**
 * Carriers: objects that keep state between calls although the tool only calls
 * them, such as cookie jars, rate limiters whose counter a later call spends
 * from, and the class fields that hold one (or that the long-lived tool handed
 * to a per-call invocation object). A tool using a carrier behaves differently
 * on call N than on call 1 without ever assigning anything itself.
 */
import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';

import {
  type ClassNode,
  collectBindingNames,
  getCalleeLastName,
  getCalleeName,
  getStaticKeyName,
  isFunctionNode,
  matchesDottedName,
  skipTypeWrappers,
  walk,
} from '../ast.js';
import { getConstructor, getConstructorInputs } from '../invocation.js';
import type { RecognitionSettings } from '../settings.js';
import { type ScopeVariable, enclosingName, nameWords } from './expressions.js';

const COOKIE_PATTERN = /cookie/i;

/**
 * Resolves a name that a carrier's creating expression mentions to the expression it was
 * initialised with (`const throttledKy = throttleKy(ky, limit); this.ky = throttledKy.extend(…)`).
 */
type InitResolver = (name: string) => TSESTree.Node | null | undefined;

/** How many local names deep a carrier's creation is traced (`a = limiter(x); b = a.extend(); this.c = b.extend()`). */
const MAX_CARRIER_TRACE = 4;

/**
 * Does the name of a call say it creates or applies a rate limiter (`pThrottle(…)`,
 * `throttleKy(ky, limit)`, `new RateLimiter(…)`, `new Bottleneck(…)`)? Matched on its camelCase words.
 */
function namesRateLimiter(name: string, settings: RecognitionSettings): boolean {
  const words = nameWords(name);
  if (words.some((word) => settings.rateLimiterWords.some((wanted) => wanted.toLowerCase() === word))) return true;
  // `RateLimit`, `rateLimited`: two words that mean one thing.
  return words.some((word, index) => word === 'rate' && words[index + 1]?.startsWith('limit') === true);
}

/**
 * `new CookieJar()`, `fetchCookie(fetch, jar)`, `throttleKy(ky, pThrottle(…))` …: the kind of
 * carrier it creates, if any. Principle: a client created once and only called carries its
 * configuration, not state — its requests change nothing a later call sees. It is a carrier
 * only when what it is built from keeps something between calls: a cookie jar, or a rate
 * limiter whose counter a later call spends from (traced through the locals it was built from).
 */
export function carrierKind(
  expression: TSESTree.Node | null | undefined,
  settings: RecognitionSettings,
  resolveInit: InitResolver = () => undefined,
  depth = 0,
): string | undefined {
  if (!expression || depth > MAX_CARRIER_TRACE) return undefined;
  let kind: string | undefined;
  walk(expression, (node) => {
    if (kind !== undefined) return false;
    // What a function created here does runs later, not when the carrier is built.
    if (node !== expression && isFunctionNode(node)) return false;
    if (node.type === AST_NODE_TYPES.NewExpression) {
      const name = getCalleeLastName(node);
      if (
        name !== undefined &&
        (settings.stateCarrierConstructors.includes(name) || matchesDottedName(getCalleeName(node), settings.stateCarrierConstructors))
      ) {
        kind = COOKIE_PATTERN.test(name) ? 'cookie jar' : 'state carrier';
        return false;
      }
      if (name !== undefined && namesRateLimiter(name, settings)) kind = 'rate limiter';
      return undefined;
    }
    if (node.type === AST_NODE_TYPES.CallExpression) {
      const name = getCalleeName(node);
      if (matchesDottedName(name, settings.stateCarrierFactories)) {
        kind = COOKIE_PATTERN.test(name ?? '') ? 'cookie jar' : 'state carrier';
        return false;
      }
      const last = getCalleeLastName(node);
      if (last !== undefined && namesRateLimiter(last, settings)) kind = 'rate limiter';
      return undefined;
    }
    if (node.type === AST_NODE_TYPES.Identifier) {
      const parent = node.parent;
      // Only a name read as a value: not a property key or a member's property.
      if (parent?.type === AST_NODE_TYPES.MemberExpression && parent.property === node && !parent.computed) return undefined;
      if (parent?.type === AST_NODE_TYPES.Property && parent.key === node && !parent.computed) return undefined;
      const init = resolveInit(node.name);
      if (init && init !== expression) kind = carrierKind(init, settings, resolveInit, depth + 1);
    }
    return undefined;
  });
  return kind;
}

/** The initialisers of the `const` / `let` names a function body declares (not in nested functions), for tracing a carrier's creation. */
function localInits(body: TSESTree.Node): InitResolver {
  const inits = new Map<string, TSESTree.Node>();
  walk(body, (node) => {
    if (node !== body && isFunctionNode(node)) return false;
    if (
      node.type === AST_NODE_TYPES.VariableDeclarator &&
      node.id.type === AST_NODE_TYPES.Identifier &&
      node.init &&
      !inits.has(node.id.name)
    ) {
      inits.set(node.id.name, node.init);
    }
    return undefined;
  });
  return (name) => inits.get(name);
}

/** Class fields that hold a carrier created by the class itself (field initialiser or `this.x = …` in the constructor). */
export function carrierFieldsOf(classNode: ClassNode, settings: RecognitionSettings): Map<string, string> {
  const fields = new Map<string, string>();
  for (const member of classNode.body.body) {
    if (member.type === AST_NODE_TYPES.PropertyDefinition && !member.static) {
      const name = getStaticKeyName(member.key, member.computed);
      const kind = carrierKind(member.value, settings);
      if (name !== undefined && kind !== undefined) fields.set(name, kind);
    }
    if (member.type === AST_NODE_TYPES.MethodDefinition && member.kind === 'constructor' && member.value.body) {
      const resolveInit = localInits(member.value.body);
      walk(member.value.body, (node) => {
        if (node !== member.value.body && isFunctionNode(node)) return false;
        if (node.type !== AST_NODE_TYPES.AssignmentExpression) return undefined;
        const left = node.left;
        if (left.type !== AST_NODE_TYPES.MemberExpression || left.object.type !== AST_NODE_TYPES.ThisExpression) return undefined;
        const name = getStaticKeyName(left.property, left.computed);
        const kind = carrierKind(node.right, settings, resolveInit);
        if (name !== undefined && kind !== undefined) fields.set(name, kind);
        return undefined;
      });
    }
  }
  return fields;
}

/**
 * Fields an invocation class's constructor takes from a parameter that is not the model's
 * input (`this.allowlist = allowlist`, with `new XInvocation(this.config, params, this.allowlist)`):
 * objects the long-lived tool handed over, so changing them changes the tool, unlike the
 * invocation's own fields, which die with it.
 */
export function handedFieldsOf(classNode: ClassNode): Set<string> {
  const fields = new Set<string>();
  const constructor = getConstructor(classNode);
  if (!constructor?.body) return fields;
  const inputs = getConstructorInputs(classNode);
  const handed = new Set<string>();
  constructor.params.forEach((parameter, index) => {
    if (inputs.includes(index)) return;
    // `constructor(private readonly allowlist: Set<string>)` is a field too.
    if (parameter.type === AST_NODE_TYPES.TSParameterProperty) {
      collectBindingNames(parameter.parameter).forEach((name) => fields.add(name));
      return;
    }
    collectBindingNames(parameter).forEach((name) => handed.add(name));
  });
  walk(constructor.body, (node) => {
    if (node !== constructor.body && isFunctionNode(node)) return false;
    if (node.type !== AST_NODE_TYPES.AssignmentExpression || node.left.type !== AST_NODE_TYPES.MemberExpression) return undefined;
    if (node.left.object.type !== AST_NODE_TYPES.ThisExpression) return undefined;
    const name = getStaticKeyName(node.left.property, node.left.computed);
    const value = skipTypeWrappers(node.right);
    if (name !== undefined && value.type === AST_NODE_TYPES.Identifier && handed.has(value.name)) fields.add(name);
    return undefined;
  });
  return fields;
}

export function carrierOfVariable(variable: ScopeVariable, settings: RecognitionSettings): string | undefined {
  // Names in the initialiser resolve from the variable's own scope outwards.
  const resolveInit: InitResolver = (name) => {
    for (let scope: TSESLint.Scope.Scope | null = variable.scope; scope; scope = scope.upper) {
      const found = scope.set.get(name);
      if (!found) continue;
      const definition = found.defs[0];
      return definition?.type === 'Variable' && definition.node.type === AST_NODE_TYPES.VariableDeclarator
        ? definition.node.init
        : undefined;
    }
    return undefined;
  };
  for (const definition of variable.defs) {
    if (definition.type === 'Variable' && definition.node.type === AST_NODE_TYPES.VariableDeclarator) {
      const kind = carrierKind(definition.node.init, settings, resolveInit);
      if (kind !== undefined) return kind;
    }
  }
  return undefined;
}

export function whereCreated(variable: ScopeVariable): string {
  const scopeType = variable.scope.type;
  if (scopeType === 'module' || scopeType === 'global') return 'at module level';
  return `in ${enclosingName(variable.scope.variableScope.block)}`;
}
