/**
 * The guards of the persistence decision (circular persistence), as the rules and codemods
 * see them:
 * - the **sentinel exit**: `if (!Number.isFinite(declared)) return …` (or
 *   `!isFinite(x)`, `x === Infinity`, `x === Number.POSITIVE_INFINITY`),
 *   where `declared` is the tool's declared threshold;
 * - **override lookups**: indexing or `.get` on an `…overrides` object, and
 *   calls to feature-flag readers (`getFeatureValue…`, `getDynamicConfig`,
 *   `getFlag`, `variation`, `isEnabled`, settings);
 * - **persistence calls** and **owned-session checks** (`shouldPersistForSession`,
 *   `startsWith('repl_main_thread')` / `startsWith('agent:')`), and the wrong
 *   guards people write instead: deny lists and equality against a prefix.
 *
 * Identifiers are resolved through a caller-supplied `resolveConst` (ESLint's
 * scope manager in rules), so the same questions work wherever a resolver exists.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { getCalleeLastName, getCalleeName, getMemberPath, getStaticKeyName, getStringValue, skipTypeWrappers } from './ast.js';
import type { RecognitionSettings } from './settings.js';
import { anyWordPattern } from './text-patterns.js';

/** What an identifier is bound to: a `const` initialiser, a parameter, a destructured property. */
export type Binding =
  | { kind: 'const'; init: TSESTree.Expression }
  | { kind: 'parameter'; name: string }
  | { kind: 'destructured'; property: string; init: TSESTree.Expression | null }
  | { kind: 'other' };

export type ResolveBinding = (identifier: TSESTree.Identifier) => Binding | undefined;

const THRESHOLD_MEMBER = 'maxResultSizeChars';
const DECLARED_PARAMETER = /^declared/i;
const MAX_BINDING_DEPTH = 4;

/** Is `node` the declared threshold: `x.maxResultSizeChars`, a `declared…` parameter, or a const bound to one? */
export function isDeclaredThreshold(node: TSESTree.Node, resolve: ResolveBinding, depth = 0): boolean {
  if (depth > MAX_BINDING_DEPTH) return false;
  const target = skipTypeWrappers(node);
  if (target.type === AST_NODE_TYPES.ChainExpression) return isDeclaredThreshold(target.expression, resolve, depth);
  if (target.type === AST_NODE_TYPES.MemberExpression) {
    return getStaticKeyName(target.property, target.computed) === THRESHOLD_MEMBER;
  }
  if (target.type !== AST_NODE_TYPES.Identifier) return false;
  const binding = resolve(target);
  if (!binding) return DECLARED_PARAMETER.test(target.name) || target.name === THRESHOLD_MEMBER;
  switch (binding.kind) {
    case 'parameter':
      return DECLARED_PARAMETER.test(binding.name) || binding.name === THRESHOLD_MEMBER;
    case 'const':
      return isDeclaredThreshold(binding.init, resolve, depth + 1);
    case 'destructured':
      return binding.property === THRESHOLD_MEMBER;
    default:
      return false;
  }
}

function isInfinityLiteral(node: TSESTree.Node): boolean {
  const path = getMemberPath(node)?.join('.');
  return path === 'Infinity' || path === 'Number.POSITIVE_INFINITY' || path === 'UNBOUNDED' || path?.endsWith('.UNBOUNDED') === true;
}

function isFiniteCall(node: TSESTree.Node): TSESTree.Node | undefined {
  const target = skipTypeWrappers(node);
  if (target.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const callee = getCalleeName(target);
  if (callee !== 'Number.isFinite' && callee !== 'isFinite') return undefined;
  return target.arguments[0];
}

/**
 * The value a test proves NOT finite when it is true: `!Number.isFinite(x)`,
 * `x === Infinity`, or an `||` with one such operand (falling through means every operand was false).
 */
export function notFiniteSubject(test: TSESTree.Node): TSESTree.Node | undefined {
  const target = skipTypeWrappers(test);
  if (target.type === AST_NODE_TYPES.UnaryExpression && target.operator === '!') return isFiniteCall(target.argument);
  if (target.type === AST_NODE_TYPES.BinaryExpression && (target.operator === '===' || target.operator === '==')) {
    if (isInfinityLiteral(target.right)) return target.left;
    if (isInfinityLiteral(target.left)) return target.right;
  }
  if (target.type === AST_NODE_TYPES.BinaryExpression && target.operator === '>=' && isInfinityLiteral(target.right)) {
    return target.left;
  }
  if (target.type === AST_NODE_TYPES.LogicalExpression && target.operator === '||') {
    return notFiniteSubject(target.left) ?? notFiniteSubject(target.right);
  }
  return undefined;
}

/** The value a test proves finite when it is true: `Number.isFinite(x)`, `x !== Infinity`, `x < Infinity`, `&&` chains. */
export function finiteSubject(test: TSESTree.Node): TSESTree.Node | undefined {
  const target = skipTypeWrappers(test);
  const called = isFiniteCall(target);
  if (called) return called;
  if (target.type === AST_NODE_TYPES.UnaryExpression && target.operator === '!') {
    return notFiniteSubject(target.argument);
  }
  if (target.type === AST_NODE_TYPES.BinaryExpression && (target.operator === '!==' || target.operator === '!=')) {
    if (isInfinityLiteral(target.right)) return target.left;
    if (isInfinityLiteral(target.left)) return target.right;
  }
  if (target.type === AST_NODE_TYPES.BinaryExpression && target.operator === '<' && isInfinityLiteral(target.right)) {
    return target.left;
  }
  if (target.type === AST_NODE_TYPES.LogicalExpression && target.operator === '&&') {
    return finiteSubject(target.left) ?? finiteSubject(target.right);
  }
  return undefined;
}

/** Does this statement always leave the function (or throw) — the body of an early exit? */
export function exitsUnconditionally(statement: TSESTree.Statement | null | undefined): boolean {
  if (!statement) return false;
  switch (statement.type) {
    case AST_NODE_TYPES.ReturnStatement:
    case AST_NODE_TYPES.ThrowStatement:
      return true;
    case AST_NODE_TYPES.BlockStatement:
      return statement.body.some((inner) => exitsUnconditionally(inner));
    case AST_NODE_TYPES.IfStatement:
      return exitsUnconditionally(statement.consequent) && exitsUnconditionally(statement.alternate);
    default:
      return false;
  }
}

const OVERRIDES_OBJECT = /overrides?$/i;

const lookupPatterns = new WeakMap<readonly string[], RegExp>();

function overrideCallPattern(settings: RecognitionSettings): RegExp {
  let pattern = lookupPatterns.get(settings.overrideLookups);
  if (!pattern) {
    pattern = anyWordPattern(settings.overrideLookups);
    lookupPatterns.set(settings.overrideLookups, pattern);
  }
  return pattern;
}

function objectNameOf(node: TSESTree.Node): string | undefined {
  const path = getMemberPath(node);
  return path?.[path.length - 1];
}

/**
 * Is `node` an override lookup: `overrides[name]`, `toolOverrides?.[name]`,
 * `overrides.get(name)`, a call to a flag reader, or an indexed table named in
 * the settings (`limits[tool.name]` with `overrideLookups: ['limits']`)?
 * Dotted settings entries (`config.remote.get`, `remote.limits`) match the
 * callee's or the table's tail.
 */
export function isOverrideLookup(node: TSESTree.Node, settings: RecognitionSettings): boolean {
  if (node.type === AST_NODE_TYPES.MemberExpression) {
    if (!node.computed) return false;
    const objectName = objectNameOf(node.object);
    if (objectName === undefined) return false;
    return OVERRIDES_OBJECT.test(objectName) || isSettingsLookupName(getMemberPath(node.object)?.join('.'), settings);
  }
  if (node.type !== AST_NODE_TYPES.CallExpression) return false;
  const lastName = getCalleeLastName(node);
  if (lastName === 'get') {
    const callee = skipTypeWrappers(node.callee);
    const member = callee.type === AST_NODE_TYPES.ChainExpression ? callee.expression : callee;
    if (member.type === AST_NODE_TYPES.MemberExpression) {
      const objectName = objectNameOf(member.object);
      if (objectName !== undefined && OVERRIDES_OBJECT.test(objectName)) return true;
    }
  }
  if (isSettingsLookupName(getCalleeName(node), settings, { dottedOnly: true })) return true;
  return lastName !== undefined && overrideCallPattern(settings).test(lastName);
}

/**
 * Does the dotted `name` (a callee or an indexed table) match an entry of
 * `overrideLookups`: the entry itself, or the tail of a longer path? With
 * `dottedOnly`, plain entries are left to the callee-name pattern.
 */
function isSettingsLookupName(name: string | undefined, settings: RecognitionSettings, { dottedOnly = false } = {}): boolean {
  if (name === undefined) return false;
  return settings.overrideLookups.some((entry) => (!dottedOnly || entry.includes('.')) && (name === entry || name.endsWith(`.${entry}`)));
}

// ---------------------------------------------------------------------------
// Session scope (persist-only-owned-sessions)

const QUERY_SOURCE_NAME = /querySource$/i;

/** Is `node` a query source value: `querySource`, `options.querySource`, `ctx.agentQuerySource`? */
export function isQuerySourceExpression(node: TSESTree.Node): boolean {
  const name = objectNameOf(skipTypeWrappers(node));
  return name !== undefined && QUERY_SOURCE_NAME.test(name);
}

export function isQuerySourceName(name: string): boolean {
  return QUERY_SOURCE_NAME.test(name);
}

/** Is `call` a persistence call (`persistToolResult`, `store.persist`, any `…Store.persist`, settings)? */
export function isPersistenceCall(call: TSESTree.CallExpression, settings: RecognitionSettings): boolean {
  const calleeName = getCalleeName(call);
  const lastName = getCalleeLastName(call);
  if (lastName === undefined) return false;
  // An owned-session check is never a persistence call, whatever its name says.
  if (settings.ownedSessionChecks.includes(lastName)) return false;
  for (const entry of settings.persistenceCalls) {
    if (!entry.includes('.')) {
      if (lastName === entry) return true;
      continue;
    }
    if (calleeName !== undefined && (calleeName === entry || calleeName.endsWith(`.${entry}`))) return true;
    // `store.persist` stands for a `persist` method on any `…store` receiver.
    const [receiver, method] = [entry.slice(0, entry.lastIndexOf('.')), entry.slice(entry.lastIndexOf('.') + 1)];
    if (method === lastName && !receiver.includes('.') && calleeName !== undefined) {
      const path = calleeName.split('.');
      const actualReceiver = path[path.length - 2];
      if (actualReceiver !== undefined && actualReceiver.toLowerCase().endsWith(receiver.toLowerCase())) return true;
    }
  }
  return false;
}

function ownedPrefixOf(value: string | undefined, settings: RecognitionSettings): string | undefined {
  if (value === undefined) return undefined;
  return settings.ownedQuerySourcePrefixes.find((prefix) => value.startsWith(prefix));
}

/**
 * Is `test` an owned-session check when true: `shouldPersistForSession(x)`,
 * `x.startsWith('repl_main_thread')`, `x.startsWith('agent:')`, an `||` of
 * such, an `&&` containing one, or a `const` bound to one.
 */
export function isOwnedSessionTest(test: TSESTree.Node, settings: RecognitionSettings, resolve: ResolveBinding, depth = 0): boolean {
  if (depth > MAX_BINDING_DEPTH) return false;
  const target = skipTypeWrappers(test);
  switch (target.type) {
    case AST_NODE_TYPES.CallExpression: {
      const lastName = getCalleeLastName(target);
      if (lastName !== undefined && settings.ownedSessionChecks.includes(lastName)) return true;
      if (lastName === 'startsWith') return ownedPrefixOf(getStringValue(target.arguments[0]), settings) !== undefined;
      return false;
    }
    case AST_NODE_TYPES.LogicalExpression:
      if (target.operator === '||') {
        return isOwnedSessionTest(target.left, settings, resolve, depth) && isOwnedSessionTest(target.right, settings, resolve, depth);
      }
      if (target.operator === '&&') {
        return isOwnedSessionTest(target.left, settings, resolve, depth) || isOwnedSessionTest(target.right, settings, resolve, depth);
      }
      return false;
    case AST_NODE_TYPES.Identifier: {
      const binding = resolve(target);
      return binding?.kind === 'const' && isOwnedSessionTest(binding.init, settings, resolve, depth + 1);
    }
    case AST_NODE_TYPES.ChainExpression:
      return isOwnedSessionTest(target.expression, settings, resolve, depth);
    default:
      return false;
  }
}

/** `!ownedTest`, `ownedTest === false`: true when the session is NOT owned. */
export function isNotOwnedSessionTest(test: TSESTree.Node, settings: RecognitionSettings, resolve: ResolveBinding): boolean {
  const target = skipTypeWrappers(test);
  if (target.type === AST_NODE_TYPES.UnaryExpression && target.operator === '!') {
    return isOwnedSessionTest(target.argument, settings, resolve);
  }
  if (
    target.type === AST_NODE_TYPES.BinaryExpression &&
    (target.operator === '===' || target.operator === '==') &&
    target.right.type === AST_NODE_TYPES.Literal &&
    target.right.value === false
  ) {
    return isOwnedSessionTest(target.left, settings, resolve);
  }
  if (target.type === AST_NODE_TYPES.LogicalExpression && target.operator === '||') {
    return isNotOwnedSessionTest(target.left, settings, resolve) || isNotOwnedSessionTest(target.right, settings, resolve);
  }
  return false;
}

export interface QuerySourceComparison {
  node: TSESTree.BinaryExpression;
  querySource: TSESTree.Node;
  literal: string;
  /** `===` / `==` (true) or `!==` / `!=` (false). */
  equality: boolean;
  /** The owned prefix the literal starts with, when it does. */
  ownedPrefix: string | undefined;
}

/** `querySource === 'repl_main_thread'`, `options.querySource !== 'compact'`: a comparison of a query source with a literal. */
export function matchQuerySourceComparison(
  node: TSESTree.BinaryExpression,
  settings: RecognitionSettings,
): QuerySourceComparison | undefined {
  const equality = node.operator === '===' || node.operator === '==';
  if (!equality && node.operator !== '!==' && node.operator !== '!=') return undefined;
  const [querySource, literalNode] = isQuerySourceExpression(node.left)
    ? [node.left, node.right]
    : isQuerySourceExpression(node.right)
      ? [node.right, node.left]
      : [undefined, undefined];
  if (!querySource || !literalNode) return undefined;
  const literal = getStringValue(literalNode);
  if (literal === undefined) return undefined;
  return { node, querySource, literal, equality, ownedPrefix: ownedPrefixOf(literal, settings) };
}
