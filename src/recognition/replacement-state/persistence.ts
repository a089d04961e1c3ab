/**
 * Persistence calls, for the frozen-fates rules: the settings' list
 * (`persist-only-owned-sessions`' own), widened to any callee naming
 * `persist`, and the ids each one persists.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { getCalleeLastName, getCalleeName, isFunctionNode, matchesDottedName, skipChainAndTypeWrappers, skipTypeWrappers } from '../ast.js';
import { isPersistenceCall } from '../guards.js';
import type { StateIds } from './ids.js';
import { PERSIST_NAME_PATTERN, PERSIST_QUESTION_PATTERN } from './names.js';
import type { StateFile } from './state-file.js';

export type CallLike = TSESTree.CallExpression | TSESTree.NewExpression;

export interface PersistenceCall {
  call: CallLike;
  /** Dotted callee name for messages: `store.persist`. */
  calleeName: string;
  /** Canonical keys of the ids it persists (its arguments, and values of object-literal arguments). */
  idKeys: Set<string>;
}

export class PersistenceCalls {
  private readonly byFunction = new WeakMap<TSESTree.Node, PersistenceCall[]>();

  constructor(
    private readonly file: StateFile,
    private readonly ids: StateIds,
  ) {}

  persistenceCall(call: CallLike): PersistenceCall | undefined {
    const { settings } = this.file;
    const calleeName = getCalleeName(call) ?? getCalleeLastName(call);
    const lastName = getCalleeLastName(call);
    if (calleeName === undefined || lastName === undefined) return undefined;
    if (matchesDottedName(calleeName, settings.ownedSessionChecks)) return undefined;
    // persist-only-owned-sessions' own list, widened here (only) to any callee naming `persist`.
    const listed = call.type === AST_NODE_TYPES.CallExpression && isPersistenceCall(call, settings);
    const named = PERSIST_NAME_PATTERN.test(calleeName) && !PERSIST_QUESTION_PATTERN.test(lastName);
    if (!listed && !named) return undefined;
    const idKeys = new Set<string>();
    for (const argument of call.arguments) {
      const value = skipTypeWrappers(argument);
      if (value.type === AST_NODE_TYPES.SpreadElement) continue;
      if (value.type === AST_NODE_TYPES.ObjectExpression) {
        for (const property of value.properties) {
          if (property.type === AST_NODE_TYPES.Property) idKeys.add(this.ids.idKeyOf(property.value));
        }
      } else {
        idKeys.add(this.ids.idKeyOf(value));
      }
    }
    return { call, calleeName, idKeys };
  }

  /** Persistence calls an awaited expression waits for (`await persist(id)`, `await pending` of `const pending = persist(id)`). */
  awaitedPersistenceCalls(awaitExpression: TSESTree.AwaitExpression): PersistenceCall[] {
    const argument = skipChainAndTypeWrappers(awaitExpression.argument);
    if (argument.type === AST_NODE_TYPES.Identifier) {
      const initializer = this.file.constInitializerOf(argument);
      return initializer ? this.persistenceCallsUnder(initializer, true) : [];
    }
    return this.persistenceCallsUnder(argument, true);
  }

  /** Every persistence call in a function body (not in nested functions). */
  persistenceCallsIn(functionNode: TSESTree.Node): PersistenceCall[] {
    let calls = this.byFunction.get(functionNode);
    if (!calls) {
      calls = this.persistenceCallsUnder(functionNode, false);
      this.byFunction.set(functionNode, calls);
    }
    return calls;
  }

  /** Persistence calls inside `root`, nested functions included (`Promise.all(ids.map(id => persist(id)))`) or not. */
  private persistenceCallsUnder(root: TSESTree.Node, includeNestedFunctions: boolean): PersistenceCall[] {
    const found: PersistenceCall[] = [];
    const stack: TSESTree.Node[] = [root];
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (node !== root && !includeNestedFunctions && isFunctionNode(node)) continue;
      if (node.type === AST_NODE_TYPES.CallExpression || node.type === AST_NODE_TYPES.NewExpression) {
        const persisted = this.persistenceCall(node);
        if (persisted) found.push(persisted);
      }
      for (const child of this.childrenOf(node)) stack.push(child);
    }
    return found;
  }

  /** Children by ESLint's visitor keys (type annotations included: the parser's own idea of the tree). */
  private childrenOf(node: TSESTree.Node): TSESTree.Node[] {
    const keys = this.file.sourceCode.visitorKeys[node.type] ?? [];
    const children: TSESTree.Node[] = [];
    for (const key of keys) {
      const value = (node as unknown as Record<string, unknown>)[key];
      if (Array.isArray(value)) {
        for (const item of value) if (item && typeof item === 'object' && 'type' in item) children.push(item as TSESTree.Node);
      } else if (value && typeof value === 'object' && 'type' in value) {
        children.push(value as TSESTree.Node);
      }
    }
    return children;
  }
}
