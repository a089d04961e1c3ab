import { AST_NODE_TYPES, ASTUtils, type TSESTree } from '@typescript-eslint/utils';

import { getCalleeLastName, isFunctionNode } from '../recognition/ast.js';
import { getRecognitionContext } from '../recognition/context.js';
import { mayWriteReplacementAndPersistInText } from '../recognition/findings-prefilter.js';
import { type PersistenceCall, type StateCollectionCall } from '../recognition/replacement-state.js';
import { createPathFacts, withCodePathListeners } from '../util/code-path.js';
import { createRule } from '../util/create-rule.js';

export type Options = [];
export type MessageIds = 'replacementBeforePersist' | 'persistNotAwaited' | 'replacementAfterFailedPersist';

const persistedFact = (idKey: string): string => `awaited-persist:${idKey}`;

/** `Promise.all([persist(a), persist(b)])` waits for each element. */
const PROMISE_COMBINATORS = new Set(['all', 'allSettled', 'race', 'any']);
/** Promise methods whose result still settles after the persistence. */
const PROMISE_CHAIN_METHODS = new Set(['then', 'catch', 'finally']);

export default createRule<Options, MessageIds>({
  name: 'replace-only-after-persist',
  meta: {
    type: 'problem',
    docs: {
      description:
        'Require a replacement preview to be stored only after the persistence of that id was awaited and succeeded, on every path',
      recommended: 'recommended',
    },
    messages: {
      replacementBeforePersist:
        '`{{write}}` can run before `{{callee}}(…)` has persisted {{id}}. ' +
        'Store the preview only after awaiting the persistence on every path: if the write fails, the model is shown a path to nothing.',
      persistNotAwaited:
        '`{{write}}` stores a preview while `{{callee}}(…)` is never awaited. ' +
        'Await the persistence and store the preview after it succeeded.',
      replacementAfterFailedPersist:
        '`{{write}}` runs after `{{callee}}(…)` failed. Leave a result whose persistence failed inline (it stays seen); ' +
        'never store a preview of a file that was not written.',
    },
    schema: [],
  },
  // Reports need a replacement write (by name unless typed) and a persistence call: most files spell neither.
  mayReport: mayWriteReplacementAndPersistInText,
  create(context) {
    const sourceCode = context.sourceCode;
    const recognizer = getRecognitionContext(context).replacementState;
    const facts = createPathFacts();

    function persistsOf(root: TSESTree.Node, idKey: string): PersistenceCall[] {
      return recognizer.persistenceCallsIn(root).filter((persisted) => persisted.idKeys.has(idKey));
    }

    function unwrapValue(node: TSESTree.Node): TSESTree.Node {
      let current = node;
      while (
        current.parent &&
        (current.parent.type === AST_NODE_TYPES.ChainExpression ||
          current.parent.type === AST_NODE_TYPES.TSAsExpression ||
          current.parent.type === AST_NODE_TYPES.TSNonNullExpression ||
          current.parent.type === AST_NODE_TYPES.TSSatisfiesExpression)
      ) {
        current = current.parent;
      }
      return current;
    }

    /** Whether the promise of a persistence call is awaited (directly, through `.then` chains, `Promise.all` or a variable). */
    function isAwaited(call: TSESTree.Node): boolean {
      let current = unwrapValue(call);
      for (;;) {
        const parent = current.parent;
        if (!parent) return false;
        if (parent.type === AST_NODE_TYPES.AwaitExpression) return true;
        // persist(id).then(…): the chain's result settles after the persistence.
        if (parent.type === AST_NODE_TYPES.MemberExpression && parent.object === current) {
          const method = parent.property.type === AST_NODE_TYPES.Identifier ? parent.property.name : undefined;
          const chainCall = parent.parent;
          if (
            method !== undefined &&
            PROMISE_CHAIN_METHODS.has(method) &&
            chainCall?.type === AST_NODE_TYPES.CallExpression &&
            chainCall.callee === parent
          ) {
            current = unwrapValue(chainCall);
            continue;
          }
          return false;
        }
        // Promise.all([persist(a), …])
        if (parent.type === AST_NODE_TYPES.ArrayExpression) {
          const combinator = parent.parent;
          if (combinator?.type === AST_NODE_TYPES.CallExpression && PROMISE_COMBINATORS.has(getCalleeLastName(combinator) ?? '')) {
            current = unwrapValue(combinator);
            continue;
          }
          return false;
        }
        // const pending = persist(id); … await pending
        if (parent.type === AST_NODE_TYPES.VariableDeclarator && parent.init === current && parent.id.type === AST_NODE_TYPES.Identifier) {
          const variable = ASTUtils.findVariable(sourceCode.getScope(parent), parent.id);
          return (
            variable?.references.some((reference) => {
              const use = unwrapValue(reference.identifier).parent;
              return use?.type === AST_NODE_TYPES.AwaitExpression;
            }) ?? false
          );
        }
        return false;
      }
    }

    /**
     * The persistence that failed if `write` runs: a `catch` whose `try`
     * persists the id, or a rejection handler (`.catch(() => …)`,
     * `.then(_, () => …)`) chained on a persistence of the id.
     */
    function failedPersistenceAround(write: StateCollectionCall): PersistenceCall | undefined {
      let current: TSESTree.Node = write.call;
      while (current.parent) {
        const parent: TSESTree.Node = current.parent;
        if (parent.type === AST_NODE_TYPES.CatchClause && parent.body === current && parent.parent.type === AST_NODE_TYPES.TryStatement) {
          const [persisted] = persistsOf(parent.parent.block, write.idKey);
          if (persisted) return persisted;
        }
        if (isFunctionNode(current)) {
          const handlerCall = parent;
          if (handlerCall.type !== AST_NODE_TYPES.CallExpression) return undefined;
          const method = getCalleeLastName(handlerCall);
          const isRejectionHandler =
            (method === 'catch' && handlerCall.arguments[0] === current) || (method === 'then' && handlerCall.arguments[1] === current);
          if (!isRejectionHandler || handlerCall.callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
          const [persisted] = persistsOf(handlerCall.callee.object, write.idKey);
          return persisted;
        }
        current = parent;
      }
      return undefined;
    }

    function checkReplacementWrite(write: StateCollectionCall): void {
      const map = sourceCode.getText(write.collection);
      const id = sourceCode.getText(write.id);
      const writeText = write.form === 'method' ? `${map}.set(${id}, …)` : `recordReplacement(${map}, ${id}, …)`;
      // `map`, `id` and `stateName` are structured data for the codemods that read the reports.
      const dataFor = (callee: string): Record<string, string> => ({ write: writeText, map, id, callee, stateName: write.base });
      const failed = failedPersistenceAround(write);
      if (failed) {
        context.report({ node: write.call, messageId: 'replacementAfterFailedPersist', data: dataFor(failed.calleeName) });
        return;
      }
      const owner = facts.currentCodePathNode();
      if (!owner) return;
      // A function that only re-applies stored previews persists nothing itself.
      const persists = persistsOf(owner, write.idKey);
      const [firstPersist] = persists;
      if (!firstPersist) return;
      if (facts.holdsOnEveryPath(persistedFact(write.idKey))) return;
      const awaited = persists.find((persisted) => isAwaited(persisted.call));
      context.report({
        node: write.call,
        messageId: awaited ? 'replacementBeforePersist' : 'persistNotAwaited',
        data: dataFor((awaited ?? firstPersist).calleeName),
      });
    }

    return withCodePathListeners(facts.listeners, {
      'AwaitExpression:exit'(node: TSESTree.AwaitExpression) {
        for (const persisted of recognizer.awaitedPersistenceCalls(node)) {
          for (const idKey of persisted.idKeys) facts.establish(persistedFact(idKey));
        }
      },
      'CallExpression:exit'(node: TSESTree.CallExpression) {
        const write = recognizer.replacementWrite(node);
        if (write) checkReplacementWrite(write);
      },
    });
  },
});
