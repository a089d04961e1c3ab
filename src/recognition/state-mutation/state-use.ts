/**
 * What the state analysis hands on: a `StateUse` (one state a tool's invocation
 * changes, drives or carries between calls, which the rule and the inventory
 * report), and the records it passes between the functions of one invocation
 * (`FunctionToAnalyse`, `SharedSource`). Each use names the state it is about,
 * so one leak between tool invocations is reported once, however often the
 * code touches it.
 */
import type { TSESTree } from '@typescript-eslint/utils';

import type { ClassNode, FunctionNode } from '../ast.js';
import type { FileIndex } from '../file-index.js';
import type { ScopeSource } from '../foreign-scope.js';

/** How a tool's invocation touches state that outlives the call. */
export type StateUseKind =
  'mutatesOutlivingState' | 'usesSharedCarrier' | 'drivesSharedObject' | 'sendsChangingCommand' | 'drivesByContract';

export interface StateUse {
  node: TSESTree.Node;
  messageId: StateUseKind;
  data: Record<string, string>;
  /** What state it is about, so a carrier that is also mutated is reported once, at the mutation. */
  stateKey: string;
  /** The invocation or helper it was found in. */
  function: FunctionNode;
}

export interface FunctionToAnalyse {
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
  /** For a helper of another module: that module's scopes and index (the invocation's own otherwise). */
  module?: { source: ScopeSource; file: FileIndex };
}

/** What long-lived object an expression's root stands for in one function, if any. */
type SourceResolver = (root: TSESTree.Node) => SharedSource | undefined;

/** A long-lived object the invocation reaches under a local name, and whether that name is the object's own part. */
export interface SharedSource {
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
  /** Handed to the invocation (its context argument, or taken from it): driving verbs count by name (`drivingCallOf`). */
  handedIn?: boolean;
  /**
   * The one instance of a class of the package that another module keeps (`keptObjectOfImportedHelper`): a
   * method called on it is looked at in that class, not counted by its name.
   */
  keptClass?: { classNode: ClassNode; program: TSESTree.Program };
}

/** Makes the state uses one function of an invocation yields: at `at(node)`, in `fn`, about the tool `toolName`. */
export function stateUseMaker(toolName: string, fn: FunctionNode, at: (node: TSESTree.Node) => TSESTree.Node) {
  const use = (node: TSESTree.Node, messageId: StateUseKind, data: Record<string, string>, stateKey: string): StateUse => ({
    node: at(node),
    messageId,
    data: { tool: toolName, ...data },
    stateKey,
    function: fn,
  });
  return {
    mutates: (node: TSESTree.Node, action: string, state: string, stateKey: string) =>
      use(node, 'mutatesOutlivingState', { action, state }, stateKey),
    /** `command`: the change is named by the command the method hands the object (`node.sendWithParams('set_fill')`). */
    drives: (node: TSESTree.Node, method: string, object: string, stateKey: string, command?: string) =>
      command === undefined
        ? use(node, 'drivesSharedObject', { method, object }, stateKey)
        : use(node, 'sendsChangingCommand', { method, command, object }, stateKey),
    /** Unknown in the code, decided by the tool's name: `object` goes into `callee`, which is not followed. */
    drivesByContract: (node: TSESTree.Node, verb: string, object: string, callee: string, stateKey: string) =>
      use(node, 'drivesByContract', { verb, object, callee }, stateKey),
    usesCarrier: (node: TSESTree.Node, carrier: string, name: string, where: string, stateKey: string) =>
      use(node, 'usesSharedCarrier', { carrier, name, where }, stateKey),
  };
}
