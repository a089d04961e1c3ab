/**
 * Balanced take and give-back on collections: an entry put into a map and
 * deleted again, or a slot taken from a pool and given back, in a `finally`
 * before the invocation returns. Such a change is undone within the same call,
 * on every path, so it cannot leak into the next tool invocation and is not
 * reported.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import {
  type FunctionNode,
  containsNode,
  getMemberPath,
  getStaticKeyName,
  isFunctionNode,
  skipChainAndTypeWrappers,
  walk,
} from '../ast.js';
import type { RecognitionSettings } from '../settings.js';
import { outermostMember } from './expressions.js';

/** A stable text for a receiver or a key (`grepSlots`, `this.items`, `key`, `'id'`); `undefined` for anything else. */
function expressionKey(node: TSESTree.Node | undefined): string | undefined {
  if (!node) return undefined;
  const target = skipChainAndTypeWrappers(node);
  if (target.type === AST_NODE_TYPES.Identifier) return target.name;
  if (target.type === AST_NODE_TYPES.ThisExpression) return 'this';
  if (target.type === AST_NODE_TYPES.Literal) return JSON.stringify(target.value);
  if (target.type === AST_NODE_TYPES.MemberExpression) {
    const object = expressionKey(target.object);
    const property = target.computed ? expressionKey(target.property) : getStaticKeyName(target.property, false);
    return object === undefined || property === undefined ? undefined : `${object}${target.computed ? `[${property}]` : `.${property}`}`;
  }
  return undefined;
}

/** Methods that put an entry in and take it out again, and methods that take a slot out of a pool and give it back. */
const PUT_METHODS = new Set(['set', 'add', 'push', 'unshift']);
const TAKE_METHODS = new Set(['next', 'acquire', 'take', 'pop', 'shift']);
const GIVE_BACK_METHODS = new Set(['push', 'unshift', 'release', 'add']);
const REMOVE_METHODS = new Set(['delete', 'pop', 'shift', 'splice']);

interface ReceiverCall {
  receiver: string;
  method: string;
  key: string | undefined;
  node: TSESTree.CallExpression;
}

/** Calls `receiver.method(…)` directly in `fn` (not in the functions it defines). */
function receiverCalls(fn: FunctionNode, within: TSESTree.Node): ReceiverCall[] {
  const calls: ReceiverCall[] = [];
  walk(within, (node) => {
    if (node !== fn && isFunctionNode(node)) return false;
    if (node.type !== AST_NODE_TYPES.CallExpression) return undefined;
    const callee = skipChainAndTypeWrappers(node.callee);
    if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
    const method = getStaticKeyName(callee.property, callee.computed);
    const receiver = expressionKey(callee.object);
    if (method !== undefined && receiver !== undefined) calls.push({ receiver, method, key: expressionKey(node.arguments[0]), node });
    return undefined;
  });
  return calls;
}

const balancedCache = new WeakMap<FunctionNode, Set<string>>();

/**
 * Receivers whose change `fn` undoes in a `finally` before it returns: an entry set and then
 * deleted under the same key (a per-path queue, an in-flight map), a slot taken from a pool
 * and given back (a semaphore). Principle: a change undone within the same call, on every
 * path, does not outlive it.
 */
function balancedReceivers(fn: FunctionNode, settings: RecognitionSettings): Set<string> {
  const cached = balancedCache.get(fn);
  if (cached) return cached;
  const balanced = new Set<string>();
  balancedCache.set(fn, balanced);
  if (!fn.body) return balanced;
  const finalizers: TSESTree.BlockStatement[] = [];
  walk(fn.body, (node) => {
    if (isFunctionNode(node)) return false;
    if (node.type === AST_NODE_TYPES.TryStatement && node.finalizer) finalizers.push(node.finalizer);
    return undefined;
  });
  if (finalizers.length === 0) return balanced;
  const all = receiverCalls(fn, fn.body);
  const inFinally = (call: ReceiverCall) => finalizers.find((finalizer) => containsNode(finalizer, call.node));
  const undoes = (undo: ReceiverCall, change: ReceiverCall) =>
    undo.receiver === change.receiver &&
    ((PUT_METHODS.has(change.method) &&
      REMOVE_METHODS.has(undo.method) &&
      (undo.method !== 'delete' || (change.key !== undefined && undo.key === change.key))) ||
      (TAKE_METHODS.has(change.method) && GIVE_BACK_METHODS.has(undo.method)));
  const receivers = new Set(all.filter((call) => inFinally(call)).map((call) => call.receiver));
  for (const receiver of receivers) {
    const calls = all.filter((call) => call.receiver === receiver);
    let matched = false;
    const ok = calls.every((call) => {
      const finalizer = inFinally(call);
      if (finalizer)
        return calls.some((change) => !inFinally(change) && undoes(call, change)) || !settings.stateMutationMethods.includes(call.method);
      const changes = PUT_METHODS.has(call.method) || TAKE_METHODS.has(call.method) || settings.stateMutationMethods.includes(call.method);
      if (!changes) return true;
      const undone = calls.some((undo) => {
        const undoFinalizer = inFinally(undo);
        return undoFinalizer !== undefined && undoFinalizer.range[0] > call.node.range[0] && undoes(undo, call);
      });
      matched ||= undone;
      return undone;
    });
    if (ok && matched) balanced.add(receiver);
  }
  return balanced;
}

/**
 * Does `fn` undo, before it returns, the change made through the member chain that starts at `root`: the
 * receiver of a call (`grepSlots` in `grepSlots.next(…)`) given back, or a property it assigns put back in a
 * `finally`?
 */
export function undoneBeforeReturn(root: TSESTree.Node, fn: FunctionNode, settings: RecognitionSettings): boolean {
  const chain = outermostMember(root);
  const call = chain.parent;
  const member = skipChainAndTypeWrappers(chain);
  // `process.stdout.write = capture; try { … } finally { process.stdout.write = original; }`: put back on every path.
  if (call?.type === AST_NODE_TYPES.AssignmentExpression && call.left === chain && member.type === AST_NODE_TYPES.MemberExpression) {
    const key = expressionKey(member);
    return key !== undefined && reassignedInFinally(fn, key, call);
  }
  if (call?.type !== AST_NODE_TYPES.CallExpression || call.callee !== chain || member.type !== AST_NODE_TYPES.MemberExpression)
    return false;
  const receiver = expressionKey(member.object);
  return receiver !== undefined && balancedReceivers(fn, settings).has(receiver);
}

/**
 * Is `key` (`process.stdout.write`) assigned both outside and inside a `finally` of `fn`: the change put back
 * on every path? Asked of either write: the change, or the putting back.
 */
function reassignedInFinally(fn: FunctionNode, key: string, write: TSESTree.AssignmentExpression): boolean {
  if (!fn.body) return false;
  const writes: TSESTree.AssignmentExpression[] = [];
  const finalizers: TSESTree.BlockStatement[] = [];
  walk(fn.body, (node) => {
    if (node !== fn && isFunctionNode(node)) return false;
    if (node.type === AST_NODE_TYPES.TryStatement && node.finalizer) finalizers.push(node.finalizer);
    if (node.type === AST_NODE_TYPES.AssignmentExpression && node.operator === '=' && expressionKey(node.left) === key) writes.push(node);
    return undefined;
  });
  if (!writes.includes(write)) return false;
  const inFinally = (node: TSESTree.Node): boolean => finalizers.some((finalizer) => containsNode(finalizer, node));
  return writes.some((other) => inFinally(other)) && writes.some((other) => !inFinally(other));
}

/** Does a `finally` of `fn` call `path` (`process.chdir`) again: the change undone before the call returns? */
export function undoneInFinally(fn: FunctionNode, path: string): boolean {
  let restored = false;
  if (!fn.body) return false;
  walk(fn.body, (node) => {
    if (restored) return false;
    if (node.type !== AST_NODE_TYPES.TryStatement || !node.finalizer) return undefined;
    walk(node.finalizer, (inner) => {
      if (inner.type === AST_NODE_TYPES.CallExpression && getMemberPath(inner.callee)?.join('.') === path) restored = true;
      return restored ? false : undefined;
    });
    return undefined;
  });
  return restored;
}
