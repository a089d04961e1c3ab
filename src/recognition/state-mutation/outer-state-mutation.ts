/**
 * Mutating module and outer state: writes and mutating calls on state declared
 * outside the invocation (`history.push(x)`, `cache.set(k, v)`, `count++`,
 * `Object.assign(config, …)`), the most direct way one tool invocation leaks
 * state into the next. Also what only looks like it: a warn-once latch that
 * guards a log line, and a value made lazily once on first use.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import {
  type FunctionNode,
  collectBindingNames,
  containsNode,
  enclosingInitialiser,
  getCalleeName,
  getStaticKeyName,
  isFunctionNode,
  mentionsName,
  skipChainAndTypeWrappers,
  walk,
} from '../ast.js';
import { moduleText } from '../module-graph.js';
import { COLLECTION_METHODS, type RecognitionSettings } from '../settings.js';
import { type ScopeVariable, expressionRoot, nameWords, outermostMember } from './expressions.js';
import { isRemoteWrapperName, receiverSegments } from './driving-calls.js';
import { undoneBeforeReturn } from './balanced-changes.js';
import { carrierKind } from './carriers.js';

/** Globals whose properties are process-wide: writing them outlives any call. */
export const PROCESS_WIDE_GLOBALS = new Set(['globalThis', 'global', 'window', 'self', 'process']);

/** Is the target of this write pattern (or one of its leaves) `node`? Covers `[a, b] = …` and `({ a } = …)`. */
export function isWriteTarget(pattern: TSESTree.Node, node: TSESTree.Node): boolean {
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

/** `pattern.lastIndex`: where a global regular expression's next `exec` starts; matching machinery, not state. */
function isRegExpCursor(chain: TSESTree.Node): boolean {
  const member = skipChainAndTypeWrappers(chain);
  return member.type === AST_NODE_TYPES.MemberExpression && getStaticKeyName(member.property, member.computed) === 'lastIndex';
}

/**
 * If the member chain rooted at `root` is mutated here, the mutating node and
 * a verb: `x.a = 1`, `x[i]++`, `delete x.k`, `x.set(k, v)`, `Object.assign(x, …)`.
 */
export function mutationOf(
  root: TSESTree.Node,
  settings: RecognitionSettings,
): { node: TSESTree.Node; verb: string; path: TSESTree.Node } | undefined {
  const chain = outermostMember(root);
  const parent = chain.parent;
  if (!parent) return undefined;
  const isMember = skipChainAndTypeWrappers(chain).type === AST_NODE_TYPES.MemberExpression;
  if (isMember && parent.type === AST_NODE_TYPES.AssignmentExpression && isWriteTarget(parent.left, chain)) {
    // `CSS_URL_PATTERN.lastIndex = 0`: a global regular expression's cursor, put back for the next match.
    if (isRegExpCursor(chain)) return undefined;
    return { node: parent, verb: 'assigns a property of', path: chain };
  }
  if (
    isMember &&
    (parent.type === AST_NODE_TYPES.ArrayPattern || parent.type === AST_NODE_TYPES.Property || parent.type === AST_NODE_TYPES.RestElement)
  ) {
    // `[x.a] = …` or `({ k: x.a } = …)`: find the assignment that owns the pattern.
    let owner: TSESTree.Node | undefined = parent;
    while (
      owner &&
      owner.type !== AST_NODE_TYPES.AssignmentExpression &&
      owner.type !== AST_NODE_TYPES.ForOfStatement &&
      owner.type !== AST_NODE_TYPES.ForInStatement
    ) {
      if (!isPatternPart(owner)) return undefined;
      owner = owner.parent;
    }
    if (owner) return { node: owner, verb: 'assigns a property of', path: chain };
    return undefined;
  }
  if (isMember && parent.type === AST_NODE_TYPES.UpdateExpression) return { node: parent, verb: 'updates a property of', path: chain };
  if (isMember && parent.type === AST_NODE_TYPES.UnaryExpression && parent.operator === 'delete') {
    return { node: parent, verb: 'deletes a property of', path: chain };
  }
  if (
    isMember &&
    (parent.type === AST_NODE_TYPES.ForOfStatement || parent.type === AST_NODE_TYPES.ForInStatement) &&
    parent.left === chain
  ) {
    return { node: parent, verb: 'assigns a property of', path: chain };
  }
  if (isMember && parent.type === AST_NODE_TYPES.CallExpression && parent.callee === chain) {
    const member = skipChainAndTypeWrappers(chain) as TSESTree.MemberExpression;
    const method = getStaticKeyName(member.property, member.computed);
    if (method === undefined || !settings.stateMutationMethods.includes(method)) return undefined;
    // `redisClient.set(key, value)`, `cacheService.delete(key)`: a request to the store a client or service
    // wraps, which lives there like a file on disk, not a collection of the process.
    const receiver = receiverSegments(member.object).at(-1);
    if (receiver !== undefined && isRemoteWrapperName(receiver)) return undefined;
    // `await ollama.delete({ model })`, `await registry.push(image)` on an object the function is handed: a collection's
    // own methods answer at once; one whose answer is awaited is a client's request to the store it talks to, whatever
    // the client is called. A collection the code builds itself (`const values = new Map()`) is one, awaited or not.
    if (COLLECTION_METHOD_NAMES.has(method) && isAwaited(parent) && !builtByTheCode(member.object)) return undefined;
    return { node: parent, verb: `calls \`.${method}()\` on`, path: member.object };
  }
  if (parent.type === AST_NODE_TYPES.CallExpression && parent.arguments[0] === chain) {
    const callee = getCalleeName(parent);
    if (
      callee === 'Object.assign' ||
      callee === 'Object.defineProperty' ||
      callee === 'Reflect.set' ||
      callee === 'Reflect.deleteProperty'
    ) {
      return { node: parent, verb: `passes to \`${callee}\``, path: chain };
    }
  }
  return undefined;
}

const COLLECTION_METHOD_NAMES = new Set(COLLECTION_METHODS);

/** Is the receiver's root a name the code gives a value it writes (`const values = new Map()`), not one it is handed? */
function builtByTheCode(receiver: TSESTree.Node): boolean {
  const root = expressionRoot(receiver)?.root;
  return root?.type === AST_NODE_TYPES.Identifier && enclosingInitialiser(root) !== undefined;
}

/** Is the call's answer awaited where it is made (`await x.delete(…)`, `await x?.push(…)`)? */
function isAwaited(call: TSESTree.CallExpression): boolean {
  let node: TSESTree.Node = call;
  while (node.parent?.type === AST_NODE_TYPES.ChainExpression || node.parent?.type === AST_NODE_TYPES.TSNonNullExpression)
    node = node.parent;
  return node.parent?.type === AST_NODE_TYPES.AwaitExpression;
}

/** Receivers of logging calls (last word of the name): what they are handed is a log line. */
const LOG_RECEIVER_WORDS = new Set(['console', 'logger', 'log']);

/** `console.warn(…)`, `logger.info(…)`, `process.emitWarning(…)` as a statement. */
function isLogStatement(statement: TSESTree.Node): boolean {
  if (statement.type !== AST_NODE_TYPES.ExpressionStatement) return false;
  let expression = skipChainAndTypeWrappers(statement.expression);
  if (
    expression.type === AST_NODE_TYPES.AwaitExpression ||
    (expression.type === AST_NODE_TYPES.UnaryExpression && expression.operator === 'void')
  ) {
    expression = skipChainAndTypeWrappers(expression.argument);
  }
  if (expression.type !== AST_NODE_TYPES.CallExpression) return false;
  if (getCalleeName(expression) === 'process.emitWarning') return true;
  const callee = skipChainAndTypeWrappers(expression.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return false;
  const last = receiverSegments(callee.object).pop();
  return last !== undefined && LOG_RECEIVER_WORDS.has((nameWords(last).pop() ?? '').replace(/\d+$/, ''));
}

/**
 * `const versionInfo = \`claude_code v${SERVER_VERSION} started at ${startedAt}\``: a line built for the log
 * beside it, from values only (no call, no assignment, no update: it changes nothing).
 */
function isMessageDeclaration(statement: TSESTree.Node): boolean {
  if (statement.type !== AST_NODE_TYPES.VariableDeclaration) return false;
  let pure = true;
  for (const declarator of statement.declarations) {
    if (!declarator.init) continue;
    walk(declarator.init, (node) => {
      if (!pure) return false;
      if (
        node.type === AST_NODE_TYPES.CallExpression ||
        node.type === AST_NODE_TYPES.NewExpression ||
        node.type === AST_NODE_TYPES.AssignmentExpression ||
        node.type === AST_NODE_TYPES.UpdateExpression ||
        node.type === AST_NODE_TYPES.AwaitExpression ||
        isFunctionNode(node)
      )
        pure = false;
      return undefined;
    });
  }
  return pure;
}

/** The `if` whose test `node` is in (directly, not inside a nested function). */
function guardingIf(node: TSESTree.Node): TSESTree.IfStatement | undefined {
  for (let current: TSESTree.Node = node; current.parent; current = current.parent) {
    const parent: TSESTree.Node = current.parent;
    if (isFunctionNode(parent)) return undefined;
    if (parent.type === AST_NODE_TYPES.IfStatement) return parent.test === current ? parent : undefined;
  }
  return undefined;
}

/**
 * A warn-once latch (`if (!warned) { warned = true; console.warn(…) }`): every read of the
 * flag is the test of an `if` with no `else`, whose branch only sets the flag to a constant
 * and logs (building the line it logs from values on the way). Principle: a flag that only guards a log line changes whether a line is
 * printed, not what a later call does or returns.
 */
export function isLogOnlyLatch(variable: ScopeVariable): boolean {
  const guards = new Set<TSESTree.IfStatement>();
  let writes = 0;
  for (const reference of variable.references) {
    if (reference.init) continue;
    const identifier = reference.identifier as TSESTree.Node;
    if (reference.isReadWrite()) return false;
    if (reference.isRead()) {
      const guard = guardingIf(identifier);
      if (!guard || guard.alternate) return false;
      guards.add(guard);
      continue;
    }
    const assignment = identifier.parent;
    if (
      assignment?.type !== AST_NODE_TYPES.AssignmentExpression ||
      assignment.left !== identifier ||
      assignment.right.type !== AST_NODE_TYPES.Literal
    )
      return false;
    if (assignment.parent?.type !== AST_NODE_TYPES.ExpressionStatement) return false;
    const block = assignment.parent.parent;
    if (
      block?.type !== AST_NODE_TYPES.BlockStatement ||
      block.parent?.type !== AST_NODE_TYPES.IfStatement ||
      block.parent.consequent !== block
    )
      return false;
    writes += 1;
  }
  if (guards.size === 0 || writes === 0) return false;
  const isLatchWrite = (statement: TSESTree.Node) =>
    statement.type === AST_NODE_TYPES.ExpressionStatement &&
    statement.expression.type === AST_NODE_TYPES.AssignmentExpression &&
    statement.expression.left.type === AST_NODE_TYPES.Identifier &&
    statement.expression.left.name === variable.name &&
    statement.expression.right.type === AST_NODE_TYPES.Literal;
  for (const guard of guards) {
    const body = guard.consequent.type === AST_NODE_TYPES.BlockStatement ? guard.consequent.body : [guard.consequent];
    if (!body.every((statement) => isLatchWrite(statement) || isLogStatement(statement) || isMessageDeclaration(statement))) return false;
  }
  // Every write sits in one of those branches.
  return variable.references.every(
    (reference) =>
      reference.init || reference.isRead() || [...guards].some((guard) => containsNode(guard.consequent, reference.identifier)),
  );
}

/** A piece of a destructuring target (`[a, b]`, `{ k: v }`, `...rest`, `x = 1`): the write is made by what holds it. */
function isPatternPart(node: TSESTree.Node): boolean {
  return (
    node.type === AST_NODE_TYPES.ArrayPattern ||
    node.type === AST_NODE_TYPES.ObjectPattern ||
    node.type === AST_NODE_TYPES.Property ||
    node.type === AST_NODE_TYPES.RestElement ||
    node.type === AST_NODE_TYPES.AssignmentPattern
  );
}

/** The statement-level node that performs a direct write to a binding (`x = …`, `x++`, `for (x of …)`). */
export function writingNode(identifier: TSESTree.Node): TSESTree.Node {
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
    if (!isPatternPart(parent)) return identifier;
    current = parent;
  }
  return identifier;
}

/** Names a module declares at its top level (`let history = []`, `export const cache = new Map()`). */
export function moduleLevelNames(program: TSESTree.Program): Set<string> {
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
export function ownNames(fn: FunctionNode): Set<string> {
  const names = new Set<string>();
  for (const parameter of fn.params) collectBindingNames(parameter).forEach((name) => names.add(name));
  walk(fn.body ?? fn, (node) => {
    if (node.type === AST_NODE_TYPES.VariableDeclarator) collectBindingNames(node.id).forEach((name) => names.add(name));
    if (node.type === AST_NODE_TYPES.FunctionDeclaration && node.id) names.add(node.id.name);
    return undefined;
  });
  return names;
}

/** `x` or `this.x` as a key, to compare a write's target with what a test reads. */
function bindingKey(node: TSESTree.Node): string | undefined {
  const target = skipChainAndTypeWrappers(node);
  if (target.type === AST_NODE_TYPES.Identifier) return target.name;
  if (target.type === AST_NODE_TYPES.MemberExpression && target.object.type === AST_NODE_TYPES.ThisExpression) {
    const field = getStaticKeyName(target.property, target.computed);
    return field === undefined ? undefined : `this.${field}`;
  }
  return undefined;
}

function mentions(root: TSESTree.Node, key: string): boolean {
  let found = false;
  walk(root, (node) => {
    if (found) return false;
    if (
      bindingKey(node) === key &&
      (node.type !== AST_NODE_TYPES.Identifier || node.parent?.type !== AST_NODE_TYPES.MemberExpression || node.parent.object === node)
    )
      found = true;
    return undefined;
  });
  return found;
}

/**
 * Names of a counter that numbers messages: `reqId`, `nextId`, `seq`, `requestCounter`, `messageSeq` — not a
 * count of calls (`count`, `callCount`), which a later call may read.
 */
const MESSAGE_COUNTER =
  /^(?:(?:[a-z]+_?)?(?:id|seq|sequence)|(?:req|request|msg|message|rpc|packet|command|cmd)_?(?:counter|count|num|number))$/i;

/**
 * A counter that only numbers the messages a tool sends (`const id = ++reqId`): every write adds to it,
 * every read takes the next number. Principle: a later call differs only in the id it puts on its
 * message, which the other side echoes back; nothing it returns depends on it.
 */
export function isMessageCounter(variable: ScopeVariable): boolean {
  if (!MESSAGE_COUNTER.test(variable.name)) return false;
  // Asked at every write of the variable: its references are read once.
  const known = messageCounters.get(variable);
  if (known !== undefined) return known;
  const answer = onlyIncremented(variable);
  messageCounters.set(variable, answer);
  return answer;
}

const messageCounters = new WeakMap<ScopeVariable, boolean>();
const pendingCallTables = new WeakMap<ScopeVariable, boolean>();

function onlyIncremented(variable: ScopeVariable): boolean {
  let writes = 0;
  for (const reference of variable.references) {
    if (reference.init) continue;
    const parent = (reference.identifier as TSESTree.Node).parent;
    const increments =
      parent?.type === AST_NODE_TYPES.UpdateExpression ||
      (parent?.type === AST_NODE_TYPES.AssignmentExpression && parent.operator === '+=' && parent.right.type === AST_NODE_TYPES.Literal);
    if (!increments) return false;
    writes += 1;
  }
  return writes > 0;
}

/**
 * An entry a call keeps only while it waits for its answer: `pending.set(id, { resolve, reject })` inside
 * `new Promise((resolve, reject) => …)`. Principle: the answer's handler takes the entry out again, so it
 * holds the call's own promise, never something a later call reads.
 */
export function isPendingCallEntry(mutation: TSESTree.Node): boolean {
  if (mutation.type !== AST_NODE_TYPES.CallExpression || mutation.callee.type !== AST_NODE_TYPES.MemberExpression) return false;
  if (getStaticKeyName(mutation.callee.property, mutation.callee.computed) !== 'set') return false;
  const value = mutation.arguments[1];
  if (!value) return false;
  for (let node: TSESTree.Node | undefined = mutation.parent; node; node = node.parent) {
    if (!isFunctionNode(node)) continue;
    const promise: TSESTree.Node | undefined = node.parent;
    if (promise?.type !== AST_NODE_TYPES.NewExpression || promise.arguments[0] !== node) continue;
    if (promise.callee.type !== AST_NODE_TYPES.Identifier || promise.callee.name !== 'Promise') continue;
    const settlers = new Set(node.params.flatMap((param) => (param.type === AST_NODE_TYPES.Identifier ? [param.name] : [])));
    return settlers.size > 0 && mentionsName(value, settlers);
  }
  return false;
}

/**
 * A table of waiting calls: every `.set` on it stores a waiting call's promise (`isPendingCallEntry`), so
 * what else touches it (`pending.delete(id)` when the answer or the timeout comes) is the same plumbing.
 */
export function isPendingCallTable(variable: ScopeVariable): boolean {
  // Asked at every change of the variable: its references are read once.
  const known = pendingCallTables.get(variable);
  if (known !== undefined) return known;
  const answer = everySetHoldsAWaitingCall(variable);
  pendingCallTables.set(variable, answer);
  return answer;
}

function everySetHoldsAWaitingCall(variable: ScopeVariable): boolean {
  let entries = 0;
  for (const reference of variable.references) {
    const member = (reference.identifier as TSESTree.Node).parent;
    if (member?.type !== AST_NODE_TYPES.MemberExpression || member.object !== reference.identifier) continue;
    if (getStaticKeyName(member.property, member.computed) !== 'set') continue;
    const call = member.parent;
    if (call?.type !== AST_NODE_TYPES.CallExpression || call.callee !== member || !isPendingCallEntry(call)) return false;
    entries += 1;
  }
  return entries > 0;
}

/**
 * `let release; const next = new Promise((resolve) => { release = resolve; }); const wait = lock; lock = next;
 * return wait.then(fn).finally(() => release());`: a lock each call takes from the one before and hands to
 * the next. What a later call finds there is only when it may start, as for a queue.
 */
function isHandedOnLock(write: TSESTree.AssignmentExpression, key: string): boolean {
  const value = skipChainAndTypeWrappers(write.right);
  const made = value.type === AST_NODE_TYPES.Identifier ? enclosingInitialiser(value) : value;
  if (made?.type !== AST_NODE_TYPES.NewExpression || made.callee.type !== AST_NODE_TYPES.Identifier || made.callee.name !== 'Promise') {
    return false;
  }
  // The previous holder, kept before the write and waited for: `const wait = lock; … wait.then(fn)`, `await wait`.
  const block = write.parent?.parent;
  if (block?.type !== AST_NODE_TYPES.BlockStatement) return false;
  let kept: string | undefined;
  for (const statement of block.body) {
    if (statement.type !== AST_NODE_TYPES.VariableDeclaration) continue;
    for (const declarator of statement.declarations) {
      if (declarator.id.type === AST_NODE_TYPES.Identifier && declarator.init && bindingKey(declarator.init) === key)
        kept = declarator.id.name;
    }
  }
  if (kept === undefined) return false;
  let waited = false;
  walk(block, (node) => {
    if (waited) return false;
    const awaited =
      node.type === AST_NODE_TYPES.AwaitExpression && node.argument.type === AST_NODE_TYPES.Identifier && node.argument.name === kept;
    const chained =
      node.type === AST_NODE_TYPES.MemberExpression &&
      node.object.type === AST_NODE_TYPES.Identifier &&
      node.object.name === kept &&
      CHAIN_METHODS.has(getStaticKeyName(node.property, node.computed) ?? '');
    waited = awaited || chained;
    return undefined;
  });
  return waited;
}

/** What a promise chain is extended with: the next link waits for the last. */
const CHAIN_METHODS = new Set(['then', 'catch', 'finally']);

/**
 * `this.execQueue = this.execQueue.then(() => run(args))`: a queue that makes each call wait for
 * the one before (a CLI or a file that must not be used twice at once). Principle: what a later
 * call finds there is only when it may start, never a value this call left behind.
 */
export function isSerialisingChain(write: TSESTree.Node | undefined): boolean {
  if (write?.type !== AST_NODE_TYPES.AssignmentExpression || write.operator !== '=') return false;
  const key = bindingKey(write.left);
  if (key === undefined) return false;
  if (isHandedOnLock(write, key)) return true;
  let link: TSESTree.Node = skipChainAndTypeWrappers(write.right);
  let links = 0;
  for (let locals = 0; ;) {
    if (link.type === AST_NODE_TYPES.CallExpression) {
      const callee = skipChainAndTypeWrappers(link.callee);
      if (callee.type !== AST_NODE_TYPES.MemberExpression || !CHAIN_METHODS.has(getStaticKeyName(callee.property, callee.computed) ?? '')) {
        return false;
      }
      links += 1;
      link = skipChainAndTypeWrappers(callee.object);
      continue;
    }
    if (bindingKey(link) === key) return links > 0;
    // `const result = this.queue.then(…); this.queue = result.catch(…)`: the chain through a local.
    const init = link.type === AST_NODE_TYPES.Identifier && locals < 2 ? enclosingInitialiser(link) : undefined;
    if (!init) return false;
    locals += 1;
    link = skipChainAndTypeWrappers(init);
  }
}

/** `x = null`, `x = undefined`, `x = void 0`: a reset, which makes the next use start over. */
function assignsNothing(write: TSESTree.Node | undefined): boolean {
  if (write?.type !== AST_NODE_TYPES.AssignmentExpression || write.operator !== '=') return false;
  const value = write.right;
  return (
    (value.type === AST_NODE_TYPES.Literal && value.value === null) ||
    (value.type === AST_NODE_TYPES.Identifier && value.name === 'undefined') ||
    (value.type === AST_NODE_TYPES.UnaryExpression && value.operator === 'void')
  );
}

/**
 * Does `root` ask the clock: `Date.now()`, `new Date()`, `performance.now()`, or a local of `fn`
 * that holds what one answered (`const now = Date.now(); if (!cached || now >= cacheExpiry) …`)?
 */
function readsClock(root: TSESTree.Node, fn: FunctionNode): boolean {
  const isClockRead = (node: TSESTree.Node): boolean =>
    (node.type === AST_NODE_TYPES.NewExpression && node.callee.type === AST_NODE_TYPES.Identifier && node.callee.name === 'Date') ||
    (node.type === AST_NODE_TYPES.CallExpression && ['Date.now', 'performance.now', 'process.hrtime'].includes(getCalleeName(node) ?? ''));
  const found = (matches: (node: TSESTree.Node) => boolean): boolean => {
    let hit = false;
    walk(root, (node) => {
      if (hit) return false;
      hit = matches(node);
      return undefined;
    });
    return hit;
  };
  if (found(isClockRead)) return true;
  // The function's locals are looked at only when the guard itself asks no clock.
  const clockLocals = new Set<string>();
  if (fn.body) {
    walk(fn.body, (node) => {
      if (node !== fn && isFunctionNode(node)) return false;
      if (
        node.type === AST_NODE_TYPES.VariableDeclarator &&
        node.id.type === AST_NODE_TYPES.Identifier &&
        node.init &&
        isClockRead(node.init)
      ) {
        clockLocals.add(node.id.name);
      }
      return undefined;
    });
  }
  return clockLocals.size > 0 && found((node) => node.type === AST_NODE_TYPES.Identifier && clockLocals.has(node.name));
}

/** Globals whose calls make a value from their arguments alone (`new RegExp(…)`, `String(…)`). */
const PURE_GLOBALS = new Set(['RegExp', 'String', 'Number', 'Boolean', 'BigInt', 'Symbol', 'Math', 'JSON', 'Intl']);

/**
 * Is `value` made from `key` alone: the key, literals, templates and operators over them, and calls of
 * pure globals or of the key's own methods (`new RegExp(`${name}="([^"]*)"`, 'i')`, `name.toLowerCase()`)?
 * Nothing it asks can answer differently on a later call with the same key, and it is a value, not an
 * object or a collection the caller could change (`clients.set(key, {})` hands every caller one object).
 */
function madeFromKeyAlone(value: TSESTree.Node, key: string): boolean {
  let pure = true;
  walk(value, (node) => {
    if (!pure) return false;
    // An object or an array a later call is handed is one it can change, and the next finds changed.
    switch (node.type) {
      case AST_NODE_TYPES.AwaitExpression:
      case AST_NODE_TYPES.YieldExpression:
      case AST_NODE_TYPES.ThisExpression:
      case AST_NODE_TYPES.ObjectExpression:
      case AST_NODE_TYPES.ArrayExpression:
      case AST_NODE_TYPES.AssignmentExpression:
      case AST_NODE_TYPES.UpdateExpression:
        pure = false;
        return false;
      case AST_NODE_TYPES.Identifier: {
        const parent = node.parent;
        const isMemberName = parent?.type === AST_NODE_TYPES.MemberExpression && parent.property === node && !parent.computed;
        if (!isMemberName && node.name !== key && !PURE_GLOBALS.has(node.name)) pure = false;
        return undefined;
      }
      case AST_NODE_TYPES.NewExpression:
        // `new RegExp(…)` makes a value; `new Map()`, `new Client()` make something a later call may change.
        if (node.callee.type !== AST_NODE_TYPES.Identifier || node.callee.name !== 'RegExp') pure = false;
        return undefined;
      default:
        if (isFunctionNode(node)) pure = false;
        return undefined;
    }
  });
  return pure;
}

/**
 * `let regex = cache.get(name); if (!regex) { regex = new RegExp(`${name}=…`); cache.set(name, regex); }`:
 * a map filled on a miss with a value made from the key alone. Every later call with that key gets
 * what the first made, the same as it would have made: keyed memoisation, not state a later call is
 * changed by. A value that asks anything else (a file, the network, the clock, the instance) may be
 * stale when the next call finds it, and still counts.
 */
function isKeyedMemoisation(call: TSESTree.CallExpression, fn: FunctionNode): boolean {
  const callee = skipChainAndTypeWrappers(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression || getStaticKeyName(callee.property, callee.computed) !== 'set') return false;
  const cache = bindingKey(callee.object);
  const [keyArgument, valueArgument] = call.arguments;
  if (cache === undefined || keyArgument?.type !== AST_NODE_TYPES.Identifier || !valueArgument) return false;
  const key = keyArgument.name;
  const isLookup = (node: TSESTree.Node | null | undefined, method: string): boolean => {
    const target = node ? skipChainAndTypeWrappers(node) : undefined;
    if (target?.type !== AST_NODE_TYPES.CallExpression) return false;
    const lookup = skipChainAndTypeWrappers(target.callee);
    const [looked] = target.arguments;
    return (
      lookup.type === AST_NODE_TYPES.MemberExpression &&
      getStaticKeyName(lookup.property, lookup.computed) === method &&
      bindingKey(lookup.object) === cache &&
      looked?.type === AST_NODE_TYPES.Identifier &&
      looked.name === key
    );
  };
  // The value set: made here from the key alone, or a local that was looked up under the key and made so on the miss.
  let made: TSESTree.Node | undefined = valueArgument;
  let lookedUp: string | undefined;
  if (valueArgument.type === AST_NODE_TYPES.Identifier) {
    lookedUp = valueArgument.name;
    if (!isLookup(enclosingInitialiser(valueArgument), 'get')) return false;
    made = undefined;
  }
  for (
    let child: TSESTree.Node = call, parent: TSESTree.Node | undefined = call.parent;
    parent && child !== fn;
    child = parent, parent = parent.parent
  ) {
    if (parent.type !== AST_NODE_TYPES.IfStatement || parent.consequent !== child) continue;
    // The miss: `if (!regex)`, `if (regex === undefined)`, `if (!cache.has(name))`.
    let missed = false;
    walk(parent.test, (node) => {
      if (missed) return false;
      missed = isLookup(node, 'has') || (lookedUp !== undefined && node.type === AST_NODE_TYPES.Identifier && node.name === lookedUp);
      return undefined;
    });
    if (!missed) return false;
    if (lookedUp !== undefined) {
      walk(parent.consequent, (node) => {
        if (
          node.type === AST_NODE_TYPES.AssignmentExpression &&
          node.left.type === AST_NODE_TYPES.Identifier &&
          node.left.name === lookedUp
        ) {
          made = node.right;
        }
        return undefined;
      });
    }
    return made !== undefined && madeFromKeyAlone(made, key);
  }
  return false;
}

/**
 * A value made once on first use (`loadPromise ??= load()`, `if (!handler) handler = new
 * Handler()`, `if (cached) return cached; cached = …`): every later call gets what the first
 * made, so it is memoisation, not state a later call is changed by. A carrier made that way
 * (a client, a cookie jar) still carries state. So does a value made again when a time kept
 * beside it runs out (`if (token && Date.now() < tokenExpiry) return token; … token = …`):
 * a cache with an expiry, which a later call finds filled, stale or renewed.
 */
export function isLazyInitialisation(write: TSESTree.Node, fn: FunctionNode, settings: RecognitionSettings): boolean {
  if (write.type === AST_NODE_TYPES.CallExpression) return isKeyedMemoisation(write, fn);
  if (write.type !== AST_NODE_TYPES.AssignmentExpression) return false;
  const key = bindingKey(write.left);
  if (key === undefined || carrierKind(write.right, settings) !== undefined) return false;
  if (write.operator === '??=' || write.operator === '||=') return true;
  for (
    let child: TSESTree.Node = write, parent: TSESTree.Node | undefined = write.parent;
    parent && child !== fn;
    child = parent, parent = parent.parent
  ) {
    // `if (x === 'unknown') x = …`, `if (!x) { x = … }`
    if (parent.type === AST_NODE_TYPES.IfStatement && parent.consequent === child && mentions(parent.test, key)) {
      return !readsClock(parent.test, fn);
    }
    // `if (x) return x;` earlier in the same block, or `if (done) return cached;` where the block latches `done = true`
    if ((parent.type === AST_NODE_TYPES.BlockStatement || parent.type === AST_NODE_TYPES.Program) && 'body' in parent) {
      const index = parent.body.indexOf(child as TSESTree.Statement);
      // Asked only of an early return that does not test the written value itself.
      let latches: string[] | undefined;
      const guarded = parent.body
        .slice(0, Math.max(index, 0))
        .some(
          (statement) =>
            statement.type === AST_NODE_TYPES.IfStatement &&
            (mentions(statement.test, key) || (latches ??= latchesSetIn(parent.body)).some((latch) => mentions(statement.test, latch))) &&
            !readsClock(statement.test, fn) &&
            (statement.consequent.type === AST_NODE_TYPES.ReturnStatement ||
              (statement.consequent.type === AST_NODE_TYPES.BlockStatement &&
                statement.consequent.body.at(-1)?.type === AST_NODE_TYPES.ReturnStatement)),
        );
      if (guarded) return true;
    }
  }
  return false;
}

/**
 * The flags a block sets to `true` in its own statements (`validated = true`, `this.loaded = true`): a
 * latch an early return tests (`if (validated) return { errors: validationErrors }`), so what the block
 * writes beside it is made once, as a value guarded by its own test is.
 */
function latchesSetIn(statements: readonly TSESTree.Node[]): string[] {
  const latches: string[] = [];
  for (const statement of statements) {
    if (statement.type !== AST_NODE_TYPES.ExpressionStatement) continue;
    const write = statement.expression;
    if (write.type !== AST_NODE_TYPES.AssignmentExpression || write.operator !== '=') continue;
    if (write.right.type !== AST_NODE_TYPES.Literal || write.right.value !== true) continue;
    const key = bindingKey(write.left);
    if (key !== undefined) latches.push(key);
  }
  return latches;
}

/**
 * Without scope analysis (a followed module is parsed bare): the first module-level
 * binding a function of another module changes, or, for a method, the first `this`
 * field it changes. Enough to tell that a helper keeps state in its own module.
 */
export function changedStateIn(
  fn: FunctionNode,
  program: TSESTree.Program,
  settings: RecognitionSettings,
  method: boolean,
  skipLazy = false,
): string | undefined {
  if (!fn.body) return undefined;
  const moduleNames = method ? new Set<string>() : moduleLevelNames(program);
  if (!method && moduleNames.size === 0) return undefined;
  const shadowed = method ? new Set<string>() : ownNames(fn);
  let changed: string | undefined;
  walk(fn.body, (node) => {
    if (changed !== undefined) return false;
    // What a one-time initialiser does runs once, not on each call.
    if (skipLazy && isLazyInitialisation(node, fn, settings)) return false;
    if (method && isFunctionNode(node) && node.type !== AST_NODE_TYPES.ArrowFunctionExpression) return false;
    if (method && node.type === AST_NODE_TYPES.ThisExpression) {
      const member = node.parent;
      if (member?.type !== AST_NODE_TYPES.MemberExpression || member.object !== node) return undefined;
      const field = getStaticKeyName(member.property, member.computed);
      const parent = member.parent;
      if (isSerialisingChain(parent)) return undefined;
      const write =
        (parent?.type === AST_NODE_TYPES.AssignmentExpression && parent.left === member) ||
        parent?.type === AST_NODE_TYPES.UpdateExpression;
      const mutation = write ? undefined : mutationOf(node, settings);
      if (
        field !== undefined &&
        (write || (mutation && skipChainAndTypeWrappers(mutation.path) !== node && !undoneBeforeReturn(node, fn, settings)))
      )
        changed = `this.${field}`;
      return undefined;
    }
    if (method || node.type !== AST_NODE_TYPES.Identifier || !moduleNames.has(node.name) || shadowed.has(node.name)) return undefined;
    const parent = node.parent;
    if (parent?.type === AST_NODE_TYPES.MemberExpression && parent.property === node && !parent.computed) return undefined;
    if (parent?.type === AST_NODE_TYPES.Property && parent.key === node && !parent.computed) return undefined;
    if (isSerialisingChain(parent)) return undefined;
    const write =
      (parent?.type === AST_NODE_TYPES.AssignmentExpression && parent.left === node) || parent?.type === AST_NODE_TYPES.UpdateExpression;
    if (write || (mutationOf(node, settings) && !undoneBeforeReturn(node, fn, settings))) changed = node.name;
    return undefined;
  });
  return changed;
}

/**
 * A module variable no code reads, only assigns (`lastLookup = result`, never looked at again), and
 * not exported: what a call leaves in it cannot change a later call.
 */
export function isNeverRead(variable: ScopeVariable): boolean {
  const exported = variable.defs.some((definition) => {
    const declaration = definition.parent as TSESTree.Node | null | undefined;
    return declaration?.parent?.type === AST_NODE_TYPES.ExportNamedDeclaration;
  });
  return !exported && variable.references.every((reference) => !reference.isRead());
}

const fieldsReadByClass = new WeakMap<TSESTree.Node, Set<string>>();

/**
 * An instance field that no code of its class reads, only assigns (`this.ipLookupPending = lookup()`),
 * and that the module's text names nowhere else (`server.ipLookupPending`): what a call leaves in it
 * cannot change a later call. `x.f += 1` and `this.f++` read it.
 */
export function isFieldNeverRead(classNode: TSESTree.Node, field: string, program: TSESTree.Program | undefined): boolean {
  let read = fieldsReadByClass.get(classNode);
  if (!read) {
    const found = new Set<string>();
    const assigned = new Map<string, number>();
    walk(classNode, (node) => {
      if (node.type !== AST_NODE_TYPES.MemberExpression || node.object.type !== AST_NODE_TYPES.ThisExpression) return undefined;
      const name = getStaticKeyName(node.property, node.computed);
      if (name === undefined) return undefined;
      const parent = node.parent;
      if (parent?.type === AST_NODE_TYPES.AssignmentExpression && parent.left === node && parent.operator === '=') {
        assigned.set(name, (assigned.get(name) ?? 0) + 1);
      } else found.add(name);
      return undefined;
    });
    // Written only in the class: whether some other code of the module names it is asked of the text.
    const text = program ? moduleText(program) : undefined;
    for (const [name, count] of assigned) {
      if (found.has(name)) continue;
      const mentions = text === undefined ? Infinity : (text.match(new RegExp(`\\.${name.replace(/\$/g, '\\$')}\\b`, 'g'))?.length ?? 0);
      if (mentions > count) found.add(name);
    }
    read = found;
    fieldsReadByClass.set(classNode, read);
  }
  return !read.has(field);
}

/**
 * Names of a memo that keeps a connection open (`clientPromise`, `sessionPromise`, `socket`): a client
 * created on first use and cached stays reported, as in the invocation itself.
 */
const KEPT_CONNECTION_WORDS = ['client', 'connection', 'conn', 'session', 'socket', 'transport'];

/**
 * A value a helper that takes nothing makes once (`if (cached) return cached; cached = load()`), written
 * at `identifier`: every later call gets what the first made, as for the helpers of other modules. Not
 * when other code sets the variable too, but to drop it (a session another tool switches: the first value
 * is only the default), nor when its name says it keeps a connection open.
 */
export function isHelperMemo(
  identifier: TSESTree.Identifier,
  variable: ScopeVariable,
  fn: FunctionNode,
  settings: RecognitionSettings,
): boolean {
  return (
    fn.params.length === 0 &&
    !KEPT_CONNECTION_WORDS.some((word) => nameWords(variable.name).includes(word)) &&
    identifier.parent !== undefined &&
    isLazyInitialisation(identifier.parent, fn, settings) &&
    variable.references.every(
      (other) =>
        other.init ||
        !other.isWrite() ||
        containsNode(fn, other.identifier as TSESTree.Node) ||
        assignsNothing((other.identifier as TSESTree.Node).parent),
    )
  );
}

/** Words of a variable that holds a login's credential: a token, a JWT, a bearer string. */
const CREDENTIAL_WORDS = new Set(['token', 'tokens', 'jwt', 'bearer', 'credential', 'credentials']);
/** Words of a tool whose purpose is the login itself (`login`, `set_token`, `authenticate`). */
const AUTHENTICATING_TOOL_WORDS = new Set([
  'login',
  'logon',
  'logout',
  'signin',
  'auth',
  'authenticate',
  'token',
  'credential',
  'credentials',
]);

/**
 * `adminJwtToken = response.data.token` in the `loginToStrapiAdmin()` that the request helper every tool calls
 * runs when the token is missing, and `adminJwtToken = null` when the server rejects it: the client's login,
 * renewed on demand. Whatever one call leaves there, the next behaves the same (it logs in again when it must):
 * the credential is the connection's, not state a call of the tool leaves for the next. Only where a helper
 * the invocation calls writes it; not for a tool whose name says the login is what it does, nor for a credential kept
 * with the time it runs out.
 */
export function isRenewedCredential(variable: ScopeVariable, toolName: string, fn: FunctionNode): boolean {
  if (!nameWords(variable.name).some((word) => CREDENTIAL_WORDS.has(word))) return false;
  if (nameWords(toolName).some((word) => AUTHENTICATING_TOOL_WORDS.has(word))) return false;
  // Kept with the time it runs out (`domainJwt = token; domainJwtExpiry = Date.now() + 50 * 60 * 1000`): a cache with
  // an expiry, which a later call finds filled, stale or renewed (as `isLazyInitialisation` says).
  return fn.body === null || fn.body === undefined || !readsClock(fn.body, fn);
}

/** Calls that change what the whole process works with, and what each changes. */
const PROCESS_STATE_CALLS: Readonly<Record<string, string>> = { chdir: 'working directory', umask: 'file mode mask' };

/** `process.chdir(dir)`, `process.umask(mask)`: a change of the process itself, which every later call runs in. */
export function processStateCall(
  identifier: TSESTree.Identifier,
): { call: TSESTree.CallExpression; method: string; what: string } | undefined {
  if (identifier.name !== 'process') return undefined;
  const member = identifier.parent;
  if (member?.type !== AST_NODE_TYPES.MemberExpression || member.object !== identifier) return undefined;
  const method = getStaticKeyName(member.property, member.computed);
  const what = method === undefined ? undefined : PROCESS_STATE_CALLS[method];
  const call = member.parent;
  if (what === undefined || call?.type !== AST_NODE_TYPES.CallExpression || call.callee !== member || call.arguments.length === 0)
    return undefined;
  return { call, method: method!, what };
}
