/**
 * State leakage: does a tool's invocation change state that outlives the
 * call (module-level variables and collections, instance fields, factory
 * closures, cookie jars and clients kept between calls)? Such a tool behaves
 * differently on call N than on call 1, and the session can only plan for it
 * when the tool declares `stateScope: 'isolated' | 'session' | 'agent'`.
 *
 * `findOutlivingStateUses(definition, recognition, sourceCode)` answers for
 * one tool definition; `findDeclaredStateScope` finds its declaration, own
 * or inherited. The rule `declare-tool-state-scope` and the tool inventory
 * both ask here.
 */
import path from 'node:path';

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';

import {
  type ClassNode,
  type FunctionNode,
  collectBindingNames,
  containsNode,
  getCalleeLastName,
  getCalleeName,
  getStaticKeyName,
  isClassNode,
  isFunctionNode,
  matchesDottedName,
  skipTypeWrappers,
  walk,
} from './ast.js';
import { findDeclaredClassification, resolvedToolName } from './classification.js';
import type { RecognitionContext } from './context.js';
import type { FileIndex } from './file-index.js';
import { type InvocationEntry, findWrappingInvocations, getClassMethod, getInvocation } from './invocation.js';
import { loadModule, resolveLocalName, resolveRelativeModule } from './module-graph.js';
import { findInheritedToolMember } from './self-reading.js';
import type { RecognitionSettings } from './settings.js';
import type { ToolDefinition, ToolMember } from './tool-definitions.js';

/** How a tool's invocation touches state that outlives the call. */
export type StateUseKind = 'mutatesOutlivingState' | 'usesSharedCarrier' | 'drivesSharedObject';

const MEMBER = 'stateScope';
/** The declarable scopes (the runtime's `StateScope`). */
export const STATE_SCOPE_VALUES = ['isolated', 'session', 'agent'] as const;
/** Globals whose properties are process-wide: writing them outlives any call. */
const PROCESS_WIDE_GLOBALS = new Set(['globalThis', 'global', 'window', 'self', 'process']);
const CLIENT_CLASS_PATTERN = /Client$/;
const COOKIE_PATTERN = /cookie/i;

type ScopeVariable = TSESLint.Scope.Variable;

export interface StateUse {
  node: TSESTree.Node;
  messageId: StateUseKind;
  data: Record<string, string>;
  /** What state it is about, so a carrier that is also mutated is reported once, at the mutation. */
  stateKey: string;
  /** The invocation or helper it was found in. */
  function: FunctionNode;
}

/** `new CookieJar()`, `new S3Client(…)`, `axios.create(…)` …: the kind of carrier it creates, if any. */
function carrierKind(expression: TSESTree.Node | null | undefined, settings: RecognitionSettings): string | undefined {
  if (!expression) return undefined;
  let target = skipTypeWrappers(expression);
  if (target.type === AST_NODE_TYPES.AwaitExpression) target = skipTypeWrappers(target.argument);
  if (target.type === AST_NODE_TYPES.NewExpression) {
    const name = getCalleeLastName(target);
    if (name === undefined) return undefined;
    if (settings.stateCarrierConstructors.includes(name) || matchesDottedName(getCalleeName(target), settings.stateCarrierConstructors)) {
      return COOKIE_PATTERN.test(name) ? 'cookie jar' : 'state carrier';
    }
    return CLIENT_CLASS_PATTERN.test(name) ? 'client' : undefined;
  }
  if (target.type === AST_NODE_TYPES.CallExpression) {
    const name = getCalleeName(target);
    if (!matchesDottedName(name, settings.stateCarrierFactories)) return undefined;
    return COOKIE_PATTERN.test(name ?? '') ? 'cookie jar' : 'client';
  }
  return undefined;
}

function functionName(fn: TSESTree.Node): string | undefined {
  if ((fn.type === AST_NODE_TYPES.FunctionDeclaration || fn.type === AST_NODE_TYPES.FunctionExpression) && fn.id) return fn.id.name;
  const parent = fn.parent;
  if (parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.id.type === AST_NODE_TYPES.Identifier) return parent.id.name;
  if ((parent?.type === AST_NODE_TYPES.Property || parent?.type === AST_NODE_TYPES.MethodDefinition) && !parent.computed) {
    return getStaticKeyName(parent.key, false);
  }
  return undefined;
}

function enclosingName(block: TSESTree.Node): string {
  const name = isFunctionNode(block) ? functionName(block) : undefined;
  return name === undefined ? 'the enclosing function' : `the enclosing function \`${name}\``;
}

/**
 * Where a variable that the invocation reaches lives, in words; `undefined`
 * when it is not state that outlives the call (declared inside the invocation).
 */
function describeOuterVariable(variable: ScopeVariable, fn: FunctionNode): { words: string; imported: boolean } | undefined {
  const definition = variable.defs[0];
  if (!definition || containsNode(fn, definition.name)) return undefined;
  const name = variable.name;
  switch (definition.type) {
    case 'ImportBinding':
      return { words: `imported \`${name}\``, imported: true };
    case 'Parameter':
      return { words: `\`${name}\`, a parameter of ${enclosingName(definition.node)}`, imported: false };
    default: {
      const scopeType = variable.scope.type;
      if (scopeType === 'module' || scopeType === 'global') return { words: `module-level \`${name}\``, imported: false };
      const block = variable.scope.variableScope.block;
      return { words: `\`${name}\`, a variable of ${enclosingName(block)}`, imported: false };
    }
  }
}

/**
 * Climbs `x.a.b` / `x?.a` / `(x as T).a` from its root to the outermost member expression.
 * A collection lookup is climbed too: `tasks.get(id).status = …` changes an element the
 * collection keeps, so it changes the collection's state.
 */
function outermostMember(root: TSESTree.Node): TSESTree.Node {
  let current: TSESTree.Node = root;
  for (;;) {
    const parent: TSESTree.Node | undefined = current.parent;
    if (!parent) return current;
    if (parent.type === AST_NODE_TYPES.MemberExpression && parent.object === current) current = parent;
    else if (parent.type === AST_NODE_TYPES.CallExpression && parent.callee === current && isLookup(current) && parent.parent?.type === AST_NODE_TYPES.MemberExpression) {
      current = parent;
    } else if (
      parent.type === AST_NODE_TYPES.ChainExpression ||
      parent.type === AST_NODE_TYPES.TSNonNullExpression ||
      parent.type === AST_NODE_TYPES.TSAsExpression ||
      parent.type === AST_NODE_TYPES.TSSatisfiesExpression ||
      parent.type === AST_NODE_TYPES.TSTypeAssertion
    ) {
      current = parent;
    } else return current;
  }
}

function unwrapChain(node: TSESTree.Node): TSESTree.Node {
  return node.type === AST_NODE_TYPES.ChainExpression ? node.expression : skipTypeWrappers(node);
}

/**
 * Receivers that carry output or bookkeeping of this one call (a stream writer, a logger, a
 * span, the response, an abort signal): `writer.write(…)` or `span.setAttribute(…)` on them
 * changes nothing a later call sees. Matched on the last word of the receiver's name.
 */
const OUTPUT_CHANNEL_WORDS = new Set([
  'writer', 'stream', 'logger', 'log', 'console', 'span', 'tracer', 'telemetry', 'res', 'response', 'reply', 'headers',
  'params', 'progress', 'emitter', 'signal', 'controller', 'buffer', 'chunks', 'output', 'result', 'results', 'url',
  'parts', 'lines', 'errors', 'warnings',
  // Wrappers of a disk or a remote API: what they change lives there, not in the process,
  // and is what the tool is for (a tracker saving a task file, a client updating an issue).
  'service', 'client', 'api', 'sdk', 'filesystem', 'fs', 'disk',
]);
/** Methods of strings and arrays whose words look like a driving verb (`index`). */
const VALUE_METHODS = new Set(['indexOf', 'lastIndexOf', 'findIndex', 'findLastIndex']);
/** Method words that say the change lands in a file. */
const DISK_WORDS = new Set(['file', 'files', 'dir', 'directory', 'disk']);
/** Collection lookups: what they return is the element itself, so changing it changes the collection's content. */
const LOOKUP_METHODS = new Set(['get', 'find', 'findLast', 'at']);

function isLookup(callee: TSESTree.Node): boolean {
  const member = unwrapChain(callee);
  if (member.type !== AST_NODE_TYPES.MemberExpression) return false;
  const method = getStaticKeyName(member.property, member.computed);
  return method !== undefined && LOOKUP_METHODS.has(method);
}

/** The lower-cased camelCase / snake_case words of a name: `recordAgentReplayStep` → record, agent, replay, step. */
function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_$-]+/)
    .filter((word) => word.length > 0)
    .map((word) => word.toLowerCase());
}

/** Does a receiver segment name one of the shared objects (`page`, `activePage`, `browserContext`, `v3`)? */
function namesSharedObject(segment: string, settings: RecognitionSettings): boolean {
  const lower = segment.toLowerCase();
  const words = nameWords(segment);
  const last = words[words.length - 1];
  // A bundler's rename (`tab` → `tab2`) names the same object; `v3` itself is a name.
  const unsuffixed = last?.replace(/(?<=[a-z])\d+$/, '');
  return settings.sharedObjectNames.some((name) => {
    const wanted = name.toLowerCase();
    return lower === wanted || last === wanted || unsuffixed === wanted;
  });
}

/** The names along a receiver chain, root first: `v3.context.page` → v3, context, page (`this` is left out). */
function receiverSegments(receiver: TSESTree.Node): string[] {
  const segments: string[] = [];
  let current = unwrapChain(receiver);
  for (;;) {
    if (current.type === AST_NODE_TYPES.Identifier) {
      segments.unshift(current.name);
      return segments;
    }
    if (current.type === AST_NODE_TYPES.MemberExpression) {
      const name = getStaticKeyName(current.property, current.computed);
      if (name !== undefined) segments.unshift(name);
      current = unwrapChain(current.object);
      continue;
    }
    if (current.type === AST_NODE_TYPES.CallExpression) {
      current = unwrapChain(current.callee);
      continue;
    }
    if (current.type === AST_NODE_TYPES.AwaitExpression) {
      current = unwrapChain(current.argument);
      continue;
    }
    return segments;
  }
}

/**
 * A call that changes a long-lived object rooted at `root`: a state-changing method
 * (`v3.recordAgentReplayStep(…)`, `this.config.setApprovalMode(…)`) on any such receiver, or
 * a driving verb (`page.goto`, `computer.leftClick`) on a receiver named like a shared object.
 * `aliasName` is the local name the object was taken under (`const page = await v3.context.awaitActivePage()`),
 * `sourceNames` the names it was taken through (see `SharedSource.names`).
 */
function drivingCallOf(
  root: TSESTree.Node,
  settings: RecognitionSettings,
  aliasName?: string,
  sourceNames: readonly string[] = [],
): { node: TSESTree.Node; method: string; receiver: TSESTree.Node } | undefined {
  const chain = outermostMember(root);
  const call = chain.parent;
  if (call?.type !== AST_NODE_TYPES.CallExpression || call.callee !== chain) return undefined;
  const member = unwrapChain(chain);
  if (member.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const method = getStaticKeyName(member.property, member.computed);
  if (method === undefined) return undefined;
  const segments = receiverSegments(member.object);
  if (aliasName !== undefined && segments.length === 0) segments.push(aliasName);
  const last = segments[segments.length - 1] ?? aliasName;
  // A bundler's rename (`response` → `response2`) names the same channel.
  if (last !== undefined && OUTPUT_CHANNEL_WORDS.has((nameWords(last).pop() ?? '').replace(/\d+$/, ''))) return undefined;
  // `text.indexOf(…)`: a string's or array's own method, whose words only look like a verb.
  if (VALUE_METHODS.has(method)) return undefined;
  const words = nameWords(method);
  const first = words[0];
  // `agent.writeTextFile(…)`, `store.deleteFile(…)`: a file lives on disk, not in the process
  // (a shared sandbox's files are still caught below, by the receiver's name).
  const onDisk = words.some((word) => DISK_WORDS.has(word));
  if (first !== undefined && words.length > 1 && !onDisk && settings.stateChangingMethodPrefixes.includes(first)) {
    return { node: call, method, receiver: member.object };
  }
  const names = [...(aliasName === undefined ? [] : [aliasName]), ...segments, ...sourceNames];
  if (words.some((word) => settings.sharedObjectMethods.includes(word)) && names.some((name) => namesSharedObject(name, settings))) {
    return { node: call, method, receiver: member.object };
  }
  return undefined;
}

/** An import from a package (`fs`, `axios`): a module of functions, not an object the tool drives. */
function isPackageImport(variable: ScopeVariable): boolean {
  const definition = variable.defs[0];
  if (definition?.type !== 'ImportBinding') return false;
  const declaration = definition.parent;
  return declaration.type === AST_NODE_TYPES.ImportDeclaration && !declaration.source.value.startsWith('.');
}

/** Where an expression's value comes from: its root (`v3` in `await v3.context.awaitActivePage()`), and whether it is that object's own part. */
function expressionRoot(expression: TSESTree.Node): { root: TSESTree.Node; part: boolean } | undefined {
  let current = unwrapChain(expression);
  let part = true;
  for (;;) {
    if (current.type === AST_NODE_TYPES.AwaitExpression) current = unwrapChain(current.argument);
    else if (current.type === AST_NODE_TYPES.MemberExpression) current = unwrapChain(current.object);
    else if (current.type === AST_NODE_TYPES.CallExpression && current.callee.type === AST_NODE_TYPES.MemberExpression) {
      const method = getStaticKeyName(current.callee.property, current.callee.computed);
      if (method === undefined || !LOOKUP_METHODS.has(method)) part = false;
      current = unwrapChain(current.callee.object);
    } else if (current.type === AST_NODE_TYPES.Identifier || current.type === AST_NODE_TYPES.ThisExpression) {
      return { root: current, part };
    } else return undefined;
  }
}

/** The variable an identifier in `fn` refers to. */
function resolveIdentifier(identifier: TSESTree.Identifier, sourceCode: Readonly<TSESLint.SourceCode>): ScopeVariable | undefined {
  for (let scope: TSESLint.Scope.Scope | null = sourceCode.getScope(identifier); scope; scope = scope.upper) {
    const variable = scope.set.get(identifier.name);
    if (variable) return variable;
  }
  return undefined;
}

/** Is the target of this write pattern (or one of its leaves) `node`? Covers `[a, b] = …` and `({ a } = …)`. */
function isWriteTarget(pattern: TSESTree.Node, node: TSESTree.Node): boolean {
  let found = false;
  walk(pattern, (child) => {
    if (found) return false;
    if (child === node) found = true;
    // A computed key or default value inside a pattern is read, not written.
    if (child.type === AST_NODE_TYPES.AssignmentPattern) {
      if (containsNode(child.left, node)) return;
      return false;
    }
    if (child.type === AST_NODE_TYPES.MemberExpression && child !== node) return false;
    return undefined;
  });
  return found;
}

/**
 * If the member chain rooted at `root` is mutated here, the mutating node and
 * a verb: `x.a = 1`, `x[i]++`, `delete x.k`, `x.set(k, v)`, `Object.assign(x, …)`.
 */
function mutationOf(root: TSESTree.Node, settings: RecognitionSettings): { node: TSESTree.Node; verb: string; path: TSESTree.Node } | undefined {
  const chain = outermostMember(root);
  const parent = chain.parent;
  if (!parent) return undefined;
  const isMember = unwrapChain(chain).type === AST_NODE_TYPES.MemberExpression;
  if (isMember && parent.type === AST_NODE_TYPES.AssignmentExpression && isWriteTarget(parent.left, chain)) {
    return { node: parent, verb: 'assigns a property of', path: chain };
  }
  if (isMember && (parent.type === AST_NODE_TYPES.ArrayPattern || parent.type === AST_NODE_TYPES.Property || parent.type === AST_NODE_TYPES.RestElement)) {
    // `[x.a] = …` or `({ k: x.a } = …)`: find the assignment that owns the pattern.
    let owner: TSESTree.Node | undefined = parent;
    while (owner && owner.type !== AST_NODE_TYPES.AssignmentExpression && owner.type !== AST_NODE_TYPES.ForOfStatement && owner.type !== AST_NODE_TYPES.ForInStatement) {
      if (owner.type !== AST_NODE_TYPES.ArrayPattern && owner.type !== AST_NODE_TYPES.ObjectPattern && owner.type !== AST_NODE_TYPES.Property && owner.type !== AST_NODE_TYPES.RestElement && owner.type !== AST_NODE_TYPES.AssignmentPattern) return undefined;
      owner = owner.parent;
    }
    if (owner) return { node: owner, verb: 'assigns a property of', path: chain };
    return undefined;
  }
  if (isMember && parent.type === AST_NODE_TYPES.UpdateExpression) return { node: parent, verb: 'updates a property of', path: chain };
  if (isMember && parent.type === AST_NODE_TYPES.UnaryExpression && parent.operator === 'delete') {
    return { node: parent, verb: 'deletes a property of', path: chain };
  }
  if (isMember && (parent.type === AST_NODE_TYPES.ForOfStatement || parent.type === AST_NODE_TYPES.ForInStatement) && parent.left === chain) {
    return { node: parent, verb: 'assigns a property of', path: chain };
  }
  if (isMember && parent.type === AST_NODE_TYPES.CallExpression && parent.callee === chain) {
    const member = unwrapChain(chain) as TSESTree.MemberExpression;
    const method = getStaticKeyName(member.property, member.computed);
    if (method !== undefined && settings.stateMutationMethods.includes(method)) {
      return { node: parent, verb: `calls \`.${method}()\` on`, path: member.object };
    }
    return undefined;
  }
  if (parent.type === AST_NODE_TYPES.CallExpression && parent.arguments[0] === chain) {
    const callee = getCalleeName(parent);
    if (callee === 'Object.assign' || callee === 'Object.defineProperty' || callee === 'Reflect.set' || callee === 'Reflect.deleteProperty') {
      return { node: parent, verb: `passes to \`${callee}\``, path: chain };
    }
  }
  return undefined;
}

/** The statement-level node that performs a direct write to a binding (`x = …`, `x++`, `for (x of …)`). */
function writingNode(identifier: TSESTree.Node): TSESTree.Node {
  let current: TSESTree.Node = identifier;
  while (current.parent) {
    const parent: TSESTree.Node = current.parent;
    if (
      parent.type === AST_NODE_TYPES.AssignmentExpression ||
      parent.type === AST_NODE_TYPES.UpdateExpression ||
      parent.type === AST_NODE_TYPES.ForOfStatement ||
      parent.type === AST_NODE_TYPES.ForInStatement
    ) {
      return parent;
    }
    if (
      parent.type !== AST_NODE_TYPES.ArrayPattern &&
      parent.type !== AST_NODE_TYPES.ObjectPattern &&
      parent.type !== AST_NODE_TYPES.Property &&
      parent.type !== AST_NODE_TYPES.RestElement &&
      parent.type !== AST_NODE_TYPES.AssignmentPattern
    ) {
      return identifier;
    }
    current = parent;
  }
  return identifier;
}

/** Does `this` at `node` mean the same object as `this` in `fn` (arrows inherit it; other functions do not)? */
function thisBelongsTo(node: TSESTree.Node, fn: FunctionNode): boolean {
  let current = node.parent;
  while (current && current !== fn) {
    if (current.type === AST_NODE_TYPES.FunctionExpression || current.type === AST_NODE_TYPES.FunctionDeclaration) return false;
    if (isClassNode(current)) return false;
    current = current.parent;
  }
  return current === fn;
}

/** What `this` is in an invocation entry, in words; `undefined` when it is not an object that outlives the call. */
function thisTarget(entry: InvocationEntry, definition: ToolDefinition): 'instance' | 'tool-object' | undefined {
  // An invocation class (gemini's createInvocation) is built anew for every call: its fields die with it.
  if (entry.invocationClass) return undefined;
  if (entry.classNode) return 'instance';
  const host = definition.host;
  if (host && !isClassNode(host) && entry.fn.type === AST_NODE_TYPES.FunctionExpression && entry.fn.parent?.type === AST_NODE_TYPES.Property) {
    return 'tool-object';
  }
  return undefined;
}

/** Class fields that hold a carrier created by the class itself (field initialiser or `this.x = new …` in the constructor). */
function carrierFieldsOf(classNode: ClassNode, settings: RecognitionSettings): Map<string, string> {
  const fields = new Map<string, string>();
  for (const member of classNode.body.body) {
    if (member.type === AST_NODE_TYPES.PropertyDefinition && !member.static) {
      const name = getStaticKeyName(member.key, member.computed);
      const kind = carrierKind(member.value, settings);
      if (name !== undefined && kind !== undefined) fields.set(name, kind);
    }
    if (member.type === AST_NODE_TYPES.MethodDefinition && member.kind === 'constructor' && member.value.body) {
      walk(member.value.body, (node) => {
        if (node !== member.value.body && isFunctionNode(node)) return false;
        if (node.type !== AST_NODE_TYPES.AssignmentExpression) return undefined;
        const left = node.left;
        if (left.type !== AST_NODE_TYPES.MemberExpression || left.object.type !== AST_NODE_TYPES.ThisExpression) return undefined;
        const name = getStaticKeyName(left.property, left.computed);
        const kind = carrierKind(node.right, settings);
        if (name !== undefined && kind !== undefined) fields.set(name, kind);
        return undefined;
      });
    }
  }
  return fields;
}

function carrierOfVariable(variable: ScopeVariable, settings: RecognitionSettings): string | undefined {
  for (const definition of variable.defs) {
    if (definition.type === 'Variable' && definition.node.type === AST_NODE_TYPES.VariableDeclarator) {
      const kind = carrierKind(definition.node.init, settings);
      if (kind !== undefined) return kind;
    }
  }
  return undefined;
}

function whereCreated(variable: ScopeVariable): string {
  const scopeType = variable.scope.type;
  if (scopeType === 'module' || scopeType === 'global') return 'at module level';
  return `in ${enclosingName(variable.scope.variableScope.block)}`;
}

/** How far the rule follows same-file helpers the invocation calls (`remember(url)` → `cache.set(…)`). */
const MAX_HELPER_DEPTH = 3;

interface FunctionToAnalyse {
  fn: FunctionNode;
  /** The helper's name when it is not the invocation itself, for the message. */
  via: string | undefined;
  depth: number;
  /**
   * For a helper: the call in the invocation that leads to it. Its findings are
   * reported there, so each tool sharing a helper gets its own report, inside its own invocation.
   */
  callSite: TSESTree.Node | undefined;
  /** For a helper: the direct call to it, and how the caller resolves its arguments to long-lived objects. */
  call?: TSESTree.Node;
  caller?: FunctionToAnalyse;
  /** Set once the function is analysed, for the helpers it calls. */
  resolver?: SourceResolver;
  /** Words for where it runs, when not the invocation or a helper it calls (a factory's wrapper). */
  where?: string;
}

/** A factory's function around the tool's invocation: reported at the tool, named after the factory. */
interface WrapperContext {
  reportAt: TSESTree.Node;
  factory: string;
}

/** What long-lived object an expression's root stands for in one function, if any. */
type SourceResolver = (root: TSESTree.Node) => SharedSource | undefined;

/** The function a call's callee names in this file: `helper(…)` for a function declaration or a `const helper = () => …`. */
function calledFunction(variable: ScopeVariable): FunctionNode | undefined {
  for (const definition of variable.defs) {
    if (definition.type === 'FunctionName' && isFunctionNode(definition.node)) return definition.node;
    if (definition.type === 'Variable' && definition.node.type === AST_NODE_TYPES.VariableDeclarator && definition.parent?.type === AST_NODE_TYPES.VariableDeclaration && definition.parent.kind === 'const') {
      const init = definition.node.init ? skipTypeWrappers(definition.node.init) : undefined;
      if (isFunctionNode(init)) return init;
    }
  }
  return undefined;
}

/** Names a module declares at its top level (`let history = []`, `export const cache = new Map()`). */
function moduleLevelNames(program: TSESTree.Program): Set<string> {
  const names = new Set<string>();
  for (const statement of program.body) {
    const declaration = statement.type === AST_NODE_TYPES.ExportNamedDeclaration ? statement.declaration : statement;
    if (declaration?.type === AST_NODE_TYPES.VariableDeclaration) {
      for (const declarator of declaration.declarations) collectBindingNames(declarator.id).forEach((name) => names.add(name));
    }
  }
  return names;
}

/** Names `fn` declares itself (parameters, variables, nested functions): they shadow the module's. */
function ownNames(fn: FunctionNode): Set<string> {
  const names = new Set<string>();
  for (const parameter of fn.params) collectBindingNames(parameter).forEach((name) => names.add(name));
  walk(fn.body ?? fn, (node) => {
    if (node.type === AST_NODE_TYPES.VariableDeclarator) collectBindingNames(node.id).forEach((name) => names.add(name));
    if (node.type === AST_NODE_TYPES.FunctionDeclaration && node.id) names.add(node.id.name);
    return undefined;
  });
  return names;
}

/**
 * Without scope analysis (a followed module is parsed bare): the first module-level
 * binding a function of another module changes, or, for a method, the first `this`
 * field it changes. Enough to tell that a helper keeps state in its own module.
 */
function changedStateIn(fn: FunctionNode, program: TSESTree.Program, settings: RecognitionSettings, method: boolean): string | undefined {
  if (!fn.body) return undefined;
  const moduleNames = method ? new Set<string>() : moduleLevelNames(program);
  if (!method && moduleNames.size === 0) return undefined;
  const shadowed = method ? new Set<string>() : ownNames(fn);
  let changed: string | undefined;
  walk(fn.body, (node) => {
    if (changed !== undefined) return false;
    if (method && isFunctionNode(node) && node.type !== AST_NODE_TYPES.ArrowFunctionExpression) return false;
    if (method && node.type === AST_NODE_TYPES.ThisExpression) {
      const member = node.parent;
      if (member?.type !== AST_NODE_TYPES.MemberExpression || member.object !== node) return undefined;
      const field = getStaticKeyName(member.property, member.computed);
      const parent = member.parent;
      const write = (parent?.type === AST_NODE_TYPES.AssignmentExpression && parent.left === member) || parent?.type === AST_NODE_TYPES.UpdateExpression;
      const mutation = write ? undefined : mutationOf(node, settings);
      if (field !== undefined && (write || (mutation && unwrapChain(mutation.path) !== node))) changed = `this.${field}`;
      return undefined;
    }
    if (method || node.type !== AST_NODE_TYPES.Identifier || !moduleNames.has(node.name) || shadowed.has(node.name)) return undefined;
    const parent = node.parent;
    if (parent?.type === AST_NODE_TYPES.MemberExpression && parent.property === node && !parent.computed) return undefined;
    if (parent?.type === AST_NODE_TYPES.Property && parent.key === node && !parent.computed) return undefined;
    const write = (parent?.type === AST_NODE_TYPES.AssignmentExpression && parent.left === node) || parent?.type === AST_NODE_TYPES.UpdateExpression;
    if (write || mutationOf(node, settings)) changed = node.name;
    return undefined;
  });
  return changed;
}

/**
 * `new Command({ update: { files, … } })` with LangGraph's `Command`: the graph applies the
 * update to the agent's state, which every later call sees (a files channel, a task list).
 * An update of `messages` alone is only the tool's own result message.
 */
function graphStateUpdate(identifier: TSESTree.Identifier, variable: ScopeVariable, file: FileIndex | undefined): TSESTree.Node | undefined {
  const created = identifier.parent;
  if (created?.type !== AST_NODE_TYPES.NewExpression || created.callee !== identifier || variable.defs[0]?.type !== 'ImportBinding') return undefined;
  const binding = file?.imports.get(identifier.name);
  if (!binding || binding.imported !== 'Command' || !binding.module.startsWith('@langchain/langgraph')) return undefined;
  const options = created.arguments[0] ? skipTypeWrappers(created.arguments[0]) : undefined;
  if (options?.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
  const update = options.properties.find(
    (property): property is TSESTree.Property => property.type === AST_NODE_TYPES.Property && getStaticKeyName(property.key, property.computed) === 'update',
  );
  const value = update ? skipTypeWrappers(update.value) : undefined;
  if (value?.type !== AST_NODE_TYPES.ObjectExpression) return value === undefined ? undefined : created;
  const changesState = value.properties.some(
    (property) => property.type === AST_NODE_TYPES.SpreadElement || getStaticKeyName(property.key, property.computed) !== 'messages',
  );
  return changesState ? created : undefined;
}

/** A class named in `file`: its own, or a relatively imported one (`import { Base } from './base.js'`). */
function resolveClass(name: string, file: FileIndex): { classNode: ClassNode; file: FileIndex } | undefined {
  const own = file.classes.get(name);
  if (own) return { classNode: own, file };
  const binding = file.imports.get(name);
  if (!binding || binding.imported === '*' || binding.imported === 'default') return undefined;
  return exportedClass(binding.module, binding.imported, file);
}

/** The class a relative module exports under `exportedName`. */
function exportedClass(module: string, exportedName: string, file: FileIndex): { classNode: ClassNode; file: FileIndex } | undefined {
  if (!module.startsWith('.')) return undefined;
  const modulePath = resolveRelativeModule(module, file.filePath);
  const imported = modulePath ? loadModule(modulePath) : undefined;
  const exported = imported?.exports.get(exportedName);
  const classNode = imported && exported?.kind === 'local' ? imported.classes.get(exported.local) : undefined;
  return imported && classNode ? { classNode, file: imported } : undefined;
}

/**
 * The class an `extends` clause names: `Base`, or a member of a required or
 * namespace-imported module (`require_base.GmailBaseTool`, CommonJS builds).
 */
function resolveSuperClass(superClass: TSESTree.Node | null, file: FileIndex): { classNode: ClassNode; file: FileIndex; name: string } | undefined {
  if (superClass?.type === AST_NODE_TYPES.Identifier) {
    const found = resolveClass(superClass.name, file);
    return found ? { ...found, name: superClass.name } : undefined;
  }
  if (superClass?.type !== AST_NODE_TYPES.MemberExpression || superClass.object.type !== AST_NODE_TYPES.Identifier) return undefined;
  const exportedName = getStaticKeyName(superClass.property, superClass.computed);
  const binding = file.imports.get(superClass.object.name);
  if (exportedName === undefined || binding?.imported !== '*') return undefined;
  const found = exportedClass(binding.module, exportedName, file);
  return found ? { ...found, name: exportedName } : undefined;
}

/** The class `new C(…)` builds, in this file or a relatively imported one. */
function classOf(expression: TSESTree.Node | null | undefined, file: FileIndex): { classNode: ClassNode; file: FileIndex } | undefined {
  if (!expression) return undefined;
  const target = skipTypeWrappers(expression);
  if (target.type !== AST_NODE_TYPES.NewExpression || target.callee.type !== AST_NODE_TYPES.Identifier) return undefined;
  return resolveClass(target.callee.name, file);
}

/** How many base classes up `this.method()` is looked for. */
const MAX_BASE_CLASS_DEPTH = 3;

/** A method a class inherits from a base class, in this file or another one, with the file it lives in. */
function inheritedMethod(classNode: ClassNode, name: string, file: FileIndex): { fn: FunctionNode; file: FileIndex; className: string } | undefined {
  let current: { classNode: ClassNode; file: FileIndex } | undefined = { classNode, file };
  for (let depth = 0; current && depth < MAX_BASE_CLASS_DEPTH; depth++) {
    const base = resolveSuperClass(current.classNode.superClass, current.file);
    current = base;
    const fn = base ? getClassMethod(base.classNode, name) : undefined;
    if (fn && base) return { fn, file: base.file, className: base.name };
  }
  return undefined;
}

/**
 * State kept where the invocation cannot see it, in words: a relatively imported
 * helper that changes its own module's bindings (`remember(url)` → `history.push(url)`
 * in `./history.js`), or a method of an outer object built from a class whose method
 * changes its fields (`thinking.processThought(x)` → `this.thoughtHistory.push(x)`).
 */
function hiddenStateChange(identifier: TSESTree.Identifier, variable: ScopeVariable, file: FileIndex | undefined, settings: RecognitionSettings): { node: TSESTree.Node; action: string; state: string } | undefined {
  if (!file) return undefined;
  const parent = identifier.parent;
  const definition = variable.defs[0];
  if (parent?.type === AST_NODE_TYPES.CallExpression && parent.callee === identifier) {
    if (definition?.type !== 'ImportBinding' || isPackageImport(variable)) return undefined;
    const resolved = resolveLocalName(file, identifier.name);
    if (!resolved || resolved.file === file) return undefined;
    const changed = changedStateIn(resolved.fn, resolved.file.program, settings, false);
    if (changed === undefined) return undefined;
    return { node: parent, action: `calls imported \`${identifier.name}\`, which changes`, state: `\`${changed}\`, module state of ${path.basename(resolved.file.filePath)}` };
  }
  if (parent?.type !== AST_NODE_TYPES.MemberExpression || parent.object !== identifier) return undefined;
  const call = parent.parent;
  if (call?.type !== AST_NODE_TYPES.CallExpression || call.callee !== parent) return undefined;
  const methodName = getStaticKeyName(parent.property, parent.computed);
  if (methodName === undefined || definition?.type !== 'Variable' || definition.node.type !== AST_NODE_TYPES.VariableDeclarator) return undefined;
  const built = classOf(definition.node.init, file);
  const method = built ? getClassMethod(built.classNode, methodName) : undefined;
  const changed = method && built ? changedStateIn(method, built.file.program, settings, true) : undefined;
  if (changed === undefined) return undefined;
  return { node: call, action: `calls \`.${methodName}()\`, which changes \`${changed}\` of`, state: `\`${variable.name}\`` };
}

/**
 * Is `node` inside a function that `fn` only defines for later (`adapted.execute = (cmd) =>
 * sandbox.execute(cmd)`), rather than one it hands to a call that runs it now (`items.map(…)`)?
 * What a deferred function does is not this call's change.
 */
function inDeferredFunction(node: TSESTree.Node, fn: FunctionNode): boolean {
  for (let current = node.parent; current && current !== fn; current = current.parent) {
    if (!isFunctionNode(current)) continue;
    const parent = current.parent;
    const runsNow = parent?.type === AST_NODE_TYPES.CallExpression && (parent.arguments.includes(current as TSESTree.Expression) || parent.callee === current);
    if (!runsNow) return true;
  }
  return false;
}

/**
 * `const page = await ensureBrowser(args)` where the same-file helper ends in `return page`
 * of a variable declared outside it and outside the invocation (module level, a factory's
 * closure). Principle: a helper that hands back an object it keeps between calls gives its
 * caller that long-lived object, so driving the local drives what every later call gets.
 */
function keptObjectReturnedBy(callee: TSESTree.Identifier, fn: FunctionNode, sourceCode: Readonly<TSESLint.SourceCode>): SharedSource | undefined {
  const calleeVariable = resolveIdentifier(callee, sourceCode);
  const helper = calleeVariable ? calledFunction(calleeVariable) : undefined;
  if (!helper?.body || containsNode(helper, fn) || containsNode(fn, helper)) return undefined;
  const returned: TSESTree.Node[] = [];
  if (helper.body.type !== AST_NODE_TYPES.BlockStatement) returned.push(helper.body);
  else {
    walk(helper.body, (node) => {
      if (isFunctionNode(node) || isClassNode(node)) return false;
      if (node.type === AST_NODE_TYPES.ReturnStatement && node.argument) returned.push(node.argument);
      return undefined;
    });
  }
  for (const value of returned) {
    let target = skipTypeWrappers(value);
    if (target.type === AST_NODE_TYPES.AwaitExpression) target = skipTypeWrappers(target.argument);
    if (target.type !== AST_NODE_TYPES.Identifier) continue;
    const variable = resolveIdentifier(target, sourceCode);
    const definition = variable?.defs[0];
    if (!variable || !definition || definition.type === 'ImportBinding' || definition.type === 'Parameter' || definition.type === 'FunctionName') continue;
    if (containsNode(helper, definition.name) || containsNode(fn, definition.name)) continue;
    const outer = describeOuterVariable(variable, fn);
    if (!outer) continue;
    return { words: `${outer.words}, which \`${callee.name}\` returns`, stateKey: `variable:${variable.name}:${definition.name.range[0]}`, part: true, names: [variable.name] };
  }
  return undefined;
}

/** A long-lived object the invocation reaches under a local name, and whether that name is the object's own part. */
interface SharedSource {
  words: string;
  stateKey: string;
  /** `tasks.get(id)` or `ctx.page` is part of it (changing it changes the object); what a method returns may be anything. */
  part: boolean;
  /**
   * The names it was reached through, root first (`tab`, `targetLocator` for `tab.targetLocator(…)`).
   * Principle: a handle taken from a shared object drives it, whatever the local is called
   * (`const el = await tab.targetLocator(p); await el.click()` clicks in the shared tab).
   */
  names: readonly string[];
}

/**
 * Long-lived objects the invocation drives without creating them: the invocation's
 * parameters that are not the model's input (a framework context), and locals taken from
 * an outer object (`const page = await v3.context.awaitActivePage()`,
 * `const task = tasks.get(id)`, `const { computer } = requireComputer(context)`).
 * A change through such a local changes the object a later call sees.
 */
function sharedObjectUses(
  entry: InvocationEntry,
  item: FunctionToAnalyse,
  target: 'instance' | 'tool-object' | undefined,
  toolName: string,
  where: string,
  at: (node: TSESTree.Node) => TSESTree.Node,
  sourceCode: Readonly<TSESLint.SourceCode>,
  settings: RecognitionSettings,
): StateUse[] {
  const { fn } = item;
  if (!fn.body) return [];
  const sources = new Map<ScopeVariable, SharedSource>();
  if (item.depth === 0) {
    fn.params.forEach((parameter, index) => {
      if (entry.inputParameters.includes(index)) return;
      for (const variable of sourceCode.scopeManager?.getDeclaredVariables(fn) ?? []) {
        if (variable.defs.some((definition) => definition.type === 'Parameter' && containsNode(parameter, definition.name))) {
          sources.set(variable, { words: `\`${variable.name}\`, the invocation's context argument`, stateKey: `param:${variable.name}`, part: true, names: [variable.name] });
        }
      }
    });
  }
  // A helper handed a long-lived object (`applyTaskMutation(context, …)`): its parameter is that object.
  const call = item.call;
  const callerSource = item.caller?.resolver;
  if (call?.type === AST_NODE_TYPES.CallExpression && callerSource) {
    call.arguments.forEach((argument, index) => {
      const parameter = fn.params[index];
      const argumentRoot = expressionRoot(argument);
      const source = argumentRoot && parameter?.type === AST_NODE_TYPES.Identifier ? callerSource(argumentRoot.root) : undefined;
      if (!source || !argumentRoot?.part) return;
      for (const variable of sourceCode.scopeManager?.getDeclaredVariables(fn) ?? []) {
        if (variable.defs.some((definition) => definition.type === 'Parameter' && definition.name === parameter)) {
          sources.set(variable, { words: source.words, stateKey: source.stateKey, part: source.part, names: source.names });
        }
      }
    });
  }
  const sourceOfRoot = (root: TSESTree.Node): SharedSource | undefined => {
    if (root.type === AST_NODE_TYPES.ThisExpression) {
      if ((target === undefined && !entry.invocationClass) || !thisBelongsTo(root, fn)) return undefined;
      const member = root.parent;
      if (member?.type !== AST_NODE_TYPES.MemberExpression || member.object !== root) return undefined;
      const field = getStaticKeyName(member.property, member.computed);
      if (field === undefined || (entry.invocationClass && entry.inputThisMembers.includes(field))) return undefined;
      return { words: `instance field \`this.${field}\``, stateKey: `this:${field}`, part: true, names: [field] };
    }
    if (root.type !== AST_NODE_TYPES.Identifier) return undefined;
    const variable = resolveIdentifier(root, sourceCode);
    if (!variable) return undefined;
    const known = sources.get(variable);
    if (known) return known;
    if (isPackageImport(variable)) return undefined;
    const outer = describeOuterVariable(variable, fn);
    if (!outer) return undefined;
    return { words: outer.words, stateKey: `variable:${variable.name}:${variable.defs[0]?.name.range[0] ?? 0}`, part: true, names: [variable.name] };
  };
  item.resolver = sourceOfRoot;
  walk(fn.body, (node) => {
    if (isClassNode(node)) return false;
    if (node.type !== AST_NODE_TYPES.VariableDeclarator || !node.init) return undefined;
    let source: SharedSource | undefined;
    let part = false;
    const rooted = expressionRoot(node.init);
    if (rooted) {
      source = sourceOfRoot(rooted.root);
      part = rooted.part && (source?.part ?? false);
    } else {
      let call = skipTypeWrappers(node.init);
      if (call.type === AST_NODE_TYPES.AwaitExpression) call = skipTypeWrappers(call.argument);
      // A helper handed a long-lived object returns it or its parts: `requireComputer(context)`.
      if (call.type === AST_NODE_TYPES.CallExpression && call.callee.type === AST_NODE_TYPES.Identifier) {
        for (const argument of call.arguments) {
          const argumentRoot = expressionRoot(argument);
          source = argumentRoot ? sourceOfRoot(argumentRoot.root) : undefined;
          if (source) break;
        }
        if (!source) {
          // …or a helper that hands back an object it keeps: the local is that object itself.
          source = keptObjectReturnedBy(call.callee, fn, sourceCode);
          part = source !== undefined;
        }
      }
    }
    if (!source) return undefined;
    for (const variable of sourceCode.scopeManager?.getDeclaredVariables(node) ?? []) {
      // The names it was taken through (`tab.targetLocator(…)`, a kept `page`) still say what it
      // is a handle of; only this step's names, or `context.filesystem.readFile(…)`'s text would
      // count as a handle of the context.
      const names = rooted ? receiverSegments(node.init) : part ? source.names : [];
      sources.set(variable, { words: `\`${variable.name}\`, taken from ${source.words}`, stateKey: source.stateKey, part, names });
    }
    return undefined;
  });
  const uses: StateUse[] = [];
  for (const [variable, source] of sources) {
    for (const reference of variable.references) {
      if (reference.isWrite() || !containsNode(fn, reference.identifier) || inDeferredFunction(reference.identifier, fn)) continue;
      const identifier = reference.identifier as TSESTree.Node;
      const mutation = source.part ? mutationOf(identifier, settings) : undefined;
      if (mutation) {
        uses.push({ node: at(mutation.node), messageId: 'mutatesOutlivingState', data: { tool: toolName, action: mutation.verb, state: `${source.words}${where}` }, stateKey: source.stateKey, function: fn });
        continue;
      }
      const drive = drivingCallOf(identifier, settings, variable.name, source.names);
      if (drive) {
        uses.push({ node: at(drive.node), messageId: 'drivesSharedObject', data: { tool: toolName, method: drive.method, object: `${source.words}${where}` }, stateKey: source.stateKey, function: fn });
      }
    }
  }
  return uses;
}

function analyseEntry(
  entry: InvocationEntry,
  definition: ToolDefinition,
  toolName: string,
  sourceCode: Readonly<TSESLint.SourceCode>,
  settings: RecognitionSettings,
  file: FileIndex | undefined,
  wrapper?: WrapperContext,
): StateUse[] {
  const findings: StateUse[] = [];
  const target = wrapper ? undefined : thisTarget(entry, definition);
  const carrierFields = target === 'instance' && entry.classNode ? carrierFieldsOf(entry.classNode, settings) : new Map<string, string>();
  const visited = new Set<FunctionNode>([entry.fn]);
  const queue: FunctionToAnalyse[] = [
    wrapper
      ? { fn: entry.fn, via: wrapper.factory, depth: 0, callSite: wrapper.reportAt, where: ` (in \`${wrapper.factory}\`, which wraps the invocation)` }
      : { fn: entry.fn, via: undefined, depth: 0, callSite: undefined },
  ];
  const follow = (fn: FunctionNode | undefined, via: string, from: FunctionToAnalyse, call: TSESTree.Node) => {
    if (!fn || visited.has(fn) || from.depth >= MAX_HELPER_DEPTH || containsNode(fn, entry.fn)) return;
    visited.add(fn);
    queue.push({ fn, via, depth: from.depth + 1, callSite: from.callSite ?? call, call, caller: from });
  };

  for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
    const { fn, via, callSite } = item;
    const current = item;
    const where = item.where ?? (via === undefined ? '' : ` (in \`${via}\`, which the invocation calls)`);
    const at = (node: TSESTree.Node): TSESTree.Node => callSite ?? node;
    const scope = sourceCode.scopeManager?.acquire(fn);
    // A dispatcher serves many tools: only what runs in this tool's branch is its state,
    // or every tool of a low-level server would be blamed for the dispatcher's bookkeeping.
    const region = fn === entry.fn ? entry.region : undefined;
    // Free references of the function: everything it reaches that is declared outside it.
    for (const reference of scope?.through ?? []) {
      const identifier = reference.identifier as TSESTree.Node;
      if (identifier.type !== AST_NODE_TYPES.Identifier) continue;
      if (region && !containsNode(region, identifier)) continue;
      const variable = reference.resolved;
      if (variable === null) {
        if (!PROCESS_WIDE_GLOBALS.has(identifier.name)) continue;
        const mutation = mutationOf(identifier, settings);
        if (mutation) {
          findings.push({
            node: at(mutation.node),
            messageId: 'mutatesOutlivingState',
            data: { tool: toolName, action: mutation.verb, state: `the process-wide global \`${sourceCode.getText(mutation.path)}\`${where}` },
            stateKey: `global:${identifier.name}`,
            function: fn,
          });
        }
        continue;
      }
      const graphUpdate = graphStateUpdate(identifier, variable, file);
      if (graphUpdate) {
        findings.push({
          node: at(graphUpdate),
          messageId: 'mutatesOutlivingState',
          data: { tool: toolName, action: 'returns a LangGraph `Command` whose `update` changes', state: `the agent's graph state${where}` },
          stateKey: 'graph-state',
          function: fn,
        });
        continue;
      }
      const hidden = hiddenStateChange(identifier, variable, file, settings);
      if (hidden) {
        findings.push({
          node: at(hidden.node),
          messageId: 'mutatesOutlivingState',
          data: { tool: toolName, action: hidden.action, state: `${hidden.state}${where}` },
          stateKey: `hidden:${variable.name}:${variable.defs[0]?.name.range[0] ?? 0}`,
          function: fn,
        });
        continue;
      }
      const callParent = identifier.parent;
      if (callParent?.type === AST_NODE_TYPES.CallExpression && callParent.callee === identifier) {
        follow(calledFunction(variable), variable.name, current, callParent);
        continue;
      }
      const outer = describeOuterVariable(variable, fn);
      if (!outer) continue;
      const stateKey = `variable:${variable.name}:${variable.defs[0]?.name.range[0] ?? 0}`;
      if (reference.isWrite()) {
        if (outer.imported) continue;
        findings.push({
          node: at(writingNode(identifier)),
          messageId: 'mutatesOutlivingState',
          data: { tool: toolName, action: 'assigns', state: `${outer.words}${where}` },
          stateKey,
          function: fn,
        });
        continue;
      }
      const mutation = mutationOf(identifier, settings);
      if (mutation) {
        findings.push({
          node: at(mutation.node),
          messageId: 'mutatesOutlivingState',
          data: { tool: toolName, action: mutation.verb, state: `${outer.words}${where}` },
          stateKey,
          function: fn,
        });
        continue;
      }
      const drive = isPackageImport(variable) ? undefined : drivingCallOf(identifier, settings);
      if (drive) {
        findings.push({
          node: at(drive.node),
          messageId: 'drivesSharedObject',
          data: { tool: toolName, method: drive.method, object: `${outer.words}${where}` },
          stateKey,
          function: fn,
        });
        continue;
      }
      const kind = carrierOfVariable(variable, settings);
      if (kind !== undefined) {
        findings.push({
          node: at(identifier),
          messageId: 'usesSharedCarrier',
          data: { tool: toolName, carrier: kind, name: variable.name, where: `${whereCreated(variable)}${where}` },
          stateKey,
          function: fn,
        });
      }
    }

    findings.push(...sharedObjectUses(entry, item, target, toolName, where, at, sourceCode, settings));

    // An invocation class is built per call, but what its fields hold (the tool's config) is not.
    const thisKind = target ?? (entry.invocationClass ? 'invocation' : undefined);
    if (thisKind === undefined || !fn.body) continue;
    walk(region ?? fn.body, (node) => {
      if (isClassNode(node)) return false;
      if (node.type !== AST_NODE_TYPES.ThisExpression || !thisBelongsTo(node, fn)) return undefined;
      const member = node.parent;
      if (member?.type !== AST_NODE_TYPES.MemberExpression || member.object !== node) return undefined;
      const field = getStaticKeyName(member.property, member.computed) ?? '[computed]';
      // `this.helper(…)` in a class tool: follow the method, it runs on the same instance.
      if (member.parent?.type === AST_NODE_TYPES.CallExpression && member.parent.callee === member) {
        if (!entry.classNode || field === '[computed]') return undefined;
        const own = getClassMethod(entry.classNode, field);
        if (own) {
          follow(own, `this.${field}`, current, member.parent);
          return undefined;
        }
        // A base class (often in another file) that caches a client in `this.gmail` on first use.
        const inherited = thisKind === 'instance' && file ? inheritedMethod(entry.classNode, field, file) : undefined;
        const changed = inherited ? changedStateIn(inherited.fn, inherited.file.program, settings, true) : undefined;
        if (inherited && changed !== undefined) {
          findings.push({
            node: at(member.parent),
            messageId: 'mutatesOutlivingState',
            data: { tool: toolName, action: `calls \`this.${field}()\` (inherited from \`${inherited.className}\`), which changes`, state: `instance field \`${changed}\`${where}` },
            stateKey: `this:${changed.slice('this.'.length)}`,
            function: fn,
          });
        }
        return undefined;
      }
      const words = `${thisKind === 'tool-object' ? `property \`${field}\` of the tool object` : `instance field \`this.${field}\``}${where}`;
      const stateKey = `this:${field}`;
      if (thisKind === 'invocation') {
        const drive = entry.inputThisMembers.includes(field) ? undefined : drivingCallOf(node, settings);
        if (drive) findings.push({ node: at(drive.node), messageId: 'drivesSharedObject', data: { tool: toolName, method: drive.method, object: words }, stateKey, function: fn });
        return undefined;
      }
      const chain = outermostMember(node);
      const parent = chain.parent;
      const directWrite =
        unwrapChain(chain) === member &&
        ((parent?.type === AST_NODE_TYPES.AssignmentExpression && isWriteTarget(parent.left, chain)) ||
          parent?.type === AST_NODE_TYPES.UpdateExpression);
      if (directWrite && parent) {
        findings.push({ node: at(parent), messageId: 'mutatesOutlivingState', data: { tool: toolName, action: 'assigns', state: words }, stateKey, function: fn });
        return undefined;
      }
      const mutation = mutationOf(node, settings);
      if (mutation && unwrapChain(mutation.path) !== node) {
        findings.push({ node: at(mutation.node), messageId: 'mutatesOutlivingState', data: { tool: toolName, action: mutation.verb, state: words }, stateKey, function: fn });
        return undefined;
      }
      const drive = drivingCallOf(node, settings);
      if (drive) {
        findings.push({ node: at(drive.node), messageId: 'drivesSharedObject', data: { tool: toolName, method: drive.method, object: words }, stateKey, function: fn });
        return undefined;
      }
      const kind = carrierFields.get(field);
      if (kind !== undefined) {
        findings.push({
          node: at(member),
          messageId: 'usesSharedCarrier',
          data: { tool: toolName, carrier: kind, name: `this.${field}`, where: `in an instance field${where}` },
          stateKey,
          function: fn,
        });
      }
      return undefined;
    });
  }
  // A dispatcher serves many tools: only what happens in this tool's branch is this tool's.
  const region = entry.region;
  return region ? findings.filter((finding) => containsNode(region, finding.node)) : findings;
}

/** `stateScope` as the tool declares it; a base class of the same file counts for its subclasses. */
export function findDeclaredStateScope(definition: ToolDefinition, recognition: RecognitionContext): ToolMember | undefined {
  // A `classifyTool` wrapper declares it for tools whose framework type has no stateScope field.
  return findDeclaredClassification(definition, MEMBER) ?? findInheritedToolMember(definition, MEMBER, recognition);
}

/**
 * The outliving state one tool's invocation touches, one use per state and
 * function (a helper that touches `active` ten times counts once; a carrier
 * that is also mutated counts at the mutation only).
 */
export function findOutlivingStateUses(
  definition: ToolDefinition,
  recognition: RecognitionContext,
  sourceCode: Readonly<TSESLint.SourceCode>,
): StateUse[] {
  const toolName = resolvedToolName(definition, recognition.file) ?? definition.name ?? 'anonymous tool';
  const invocation = getInvocation(definition, recognition.settings, recognition.file);
  const seenFunctions = new Set<FunctionNode>();
  const uses: StateUse[] = [];
  // A factory's function around the invocation runs on every call too (see `findWrappingInvocations`).
  const wrappers = findWrappingInvocations(definition, recognition.settings, recognition.file).map((wrapping) => ({
    entry: { fn: wrapping.fn, inputParameters: wrapping.inputParameters, inputThisMembers: [], classNode: undefined, invocationClass: undefined } satisfies InvocationEntry,
    wrapper: { reportAt: definition.reportNode, factory: wrapping.factory } satisfies WrapperContext,
  }));
  const analysed = [...invocation.entries.map((entry) => ({ entry, wrapper: undefined })), ...wrappers];
  for (const { entry, wrapper } of analysed) {
    if (seenFunctions.has(entry.fn)) continue;
    seenFunctions.add(entry.fn);
    const found = analyseEntry(entry, definition, toolName, sourceCode, recognition.settings, recognition.file, wrapper);
    const mutatedState = new Set(found.filter((use) => use.messageId === 'mutatesOutlivingState').map((use) => use.stateKey));
    const statesSeen = new Set<string>();
    for (const use of found) {
      if (use.messageId !== 'mutatesOutlivingState' && mutatedState.has(use.stateKey)) continue;
      const stateInFunction = `${use.messageId}:${use.function.range[0]}:${use.stateKey}`;
      if (statesSeen.has(stateInFunction)) continue;
      statesSeen.add(stateInFunction);
      uses.push(use);
    }
  }
  return uses;
}
