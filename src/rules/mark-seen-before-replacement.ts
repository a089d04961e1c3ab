import { AST_NODE_TYPES, ASTUtils, type TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { containsNode, isFunctionNode, walk } from '../recognition/ast.js';
import { getRecognitionContext } from '../recognition/context.js';
import { mayTouchReplacementStateInText } from '../recognition/findings-prefilter.js';
import { indentationOf, packageImportFix } from '../recognition/member-fix.js';
import { RUNTIME_MARK_SEEN, type StateCollectionCall } from '../recognition/replacement-state.js';
import { createPathFacts, withCodePathListeners } from '../util/code-path.js';
import { createRule } from '../util/create-rule.js';

export type Options = [];
/** A replacement write without the seen mark: the write, the mark it needs, and the state's parts. */
type ReplacementWithoutSeenMarkData = {
  write: string;
  mark: string;
  map: string;
  seen: string;
  id: string;
  stateName: string;
};

/** `data` per report message id (the codemods read it typed, `codemods/rule-protocol.ts`). */
export interface ReportData {
  replacementWithoutSeenMark: ReplacementWithoutSeenMarkData;
  replacementWithoutSeenMarkOnSomePaths: ReplacementWithoutSeenMarkData;
  seenMarkAfterPersist: { mark: string; seen: string; id: string; callee: string; stateName: string };
}
export type SuggestionIds = 'insertSeenMark' | 'moveSeenMarkBeforePersist';
export type MessageIds = keyof ReportData | SuggestionIds;

const seenFact = (base: string, idKey: string): string => `seen:${base}:${idKey}`;
/**
 * The id marked seen on any state: a persistence awaited while it is not yet
 * marked is the frozen-fates anti-pattern (a fate decided after the persist started).
 */
const seenOnAnyStateFact = (idKey: string): string => `seen-any:${idKey}`;
/** Kept only on paths where the id was not yet marked when the persistence was awaited. */
const persistedUnseenFact = (idKey: string): string => `awaited-persist-unseen:${idKey}`;

const STATEMENT_LIST_PARENTS = new Set<AST_NODE_TYPES>([
  AST_NODE_TYPES.BlockStatement,
  AST_NODE_TYPES.Program,
  AST_NODE_TYPES.SwitchCase,
  AST_NODE_TYPES.StaticBlock,
  AST_NODE_TYPES.TSModuleBlock,
]);

/**
 * Parents through which a call still runs unconditionally when its statement
 * runs: inserting a statement before that statement is then "before the call
 * on every path". `a && map.set(…)` or `for (…) map.set(…)` do not qualify.
 */
const UNCONDITIONAL_PARENTS = new Set<AST_NODE_TYPES>([
  AST_NODE_TYPES.ChainExpression,
  AST_NODE_TYPES.AwaitExpression,
  AST_NODE_TYPES.VariableDeclarator,
  AST_NODE_TYPES.ReturnStatement,
  AST_NODE_TYPES.ExpressionStatement,
  AST_NODE_TYPES.TSAsExpression,
  AST_NODE_TYPES.TSNonNullExpression,
]);

function isStatementInList(statement: TSESTree.Node): boolean {
  return statement.parent !== undefined && STATEMENT_LIST_PARENTS.has(statement.parent.type);
}

/** The statement that runs `node` unconditionally, or undefined when something conditional is in between. */
function unconditionalStatementOf(node: TSESTree.Node): TSESTree.Statement | undefined {
  let current: TSESTree.Node = node;
  for (;;) {
    const parent: TSESTree.Node | undefined = current.parent;
    if (!parent) return undefined;
    if (parent.type === AST_NODE_TYPES.VariableDeclaration) return parent;
    if (!UNCONDITIONAL_PARENTS.has(parent.type)) {
      // `map.set(a, x).set(b, y)`: the outer call runs after the inner one.
      const isCalleeObject =
        (parent.type === AST_NODE_TYPES.MemberExpression && parent.object === current) ||
        (parent.type === AST_NODE_TYPES.CallExpression && parent.callee === current);
      if (!isCalleeObject) return undefined;
    }
    if (parent.type === AST_NODE_TYPES.ExpressionStatement || parent.type === AST_NODE_TYPES.ReturnStatement) {
      return parent;
    }
    current = parent;
  }
}

/** Inserts `text;` as a statement right before `statement`, bracing a lone `if`/loop body. */
function insertStatementBefore(
  fixer: TSESLint.RuleFixer,
  sourceCode: Readonly<TSESLint.SourceCode>,
  statement: TSESTree.Statement,
  text: string,
): TSESLint.RuleFix {
  if (isStatementInList(statement)) {
    return fixer.insertTextBefore(statement, `${text};\n${indentationOf(sourceCode, statement)}`);
  }
  return fixer.replaceText(statement, `{ ${text}; ${sourceCode.getText(statement)} }`);
}

export default createRule<Options, MessageIds>({
  name: 'mark-seen-before-replacement',
  meta: {
    type: 'problem',
    docs: {
      description:
        'Require `seenIds.add(id)` on every path before `replacements.set(id, …)`, and before awaiting the persistence of that id',
      recommended: 'recommended',
    },
    hasSuggestions: true,
    messages: {
      replacementWithoutSeenMark:
        '`{{write}}` stores a replacement for an id never marked seen. Call `{{mark}}` first: ' +
        'the next turn would treat the id as fresh and may persist the same content again.',
      replacementWithoutSeenMarkOnSomePaths:
        '`{{write}}` is not preceded by `{{mark}}` on every path. ' +
        'Mark the id seen on every path before storing its replacement, or the next turn may judge it again.',
      seenMarkAfterPersist:
        '`{{mark}}` first runs after awaiting `{{callee}}(…)`. Mark the id seen before the await: ' +
        'meanwhile a concurrent pass sees the id as fresh and persists it again.',
      insertSeenMark: 'Insert `{{mark}}` before this write.',
      moveSeenMarkBeforePersist: 'Mark `{{id}}` seen before awaiting `{{callee}}(…)`.',
    },
    schema: [],
  },
  // Writes and marks are recognised by the map's and set's names: a file that spells none has nothing to check.
  mayReport: mayTouchReplacementStateInText,
  create(context) {
    const sourceCode = context.sourceCode;
    const recognizer = getRecognitionContext(context).replacementState;
    const facts = createPathFacts();

    /** The last awaited persistence of each id, per function, for the "move the mark" suggestion. */
    const awaitedPersistence = new WeakMap<TSESTree.Node, Map<string, { awaitNode: TSESTree.AwaitExpression; calleeName: string }>>();

    /** Loops that mark every element of their array seen, with the fact their entry establishes. */
    const markingLoops: { loop: TSESTree.ForOfStatement; fact: string; seenKey: string }[] = [];

    /** Seen checks (`seenIds.has(id)`) that must be true for `test` to be truthy. */
    function establishSeenChecksOf(test: TSESTree.Node): void {
      const target = test.type === AST_NODE_TYPES.ChainExpression ? test.expression : test;
      if (target.type === AST_NODE_TYPES.LogicalExpression && target.operator === '&&') {
        establishSeenChecksOf(target.left);
        establishSeenChecksOf(target.right);
        return;
      }
      if (target.type !== AST_NODE_TYPES.CallExpression) return;
      const check = recognizer.seenCheck(target);
      if (check) facts.establish(seenFact(check.base, check.idKey));
    }

    /**
     * A `for…of` whose body marks each element seen before anything can
     * jump marks the whole array seen: afterwards `blocks[i]` and a later
     * loop's `block` are seen, even though the loop may run zero times.
     */
    function registerMarkingLoop(loop: TSESTree.ForOfStatement): void {
      const statements = loop.body.type === AST_NODE_TYPES.BlockStatement ? loop.body.body : [loop.body];
      for (const statement of statements) {
        if (statement.type === AST_NODE_TYPES.ExpressionStatement) {
          const expression =
            statement.expression.type === AST_NODE_TYPES.ChainExpression ? statement.expression.expression : statement.expression;
          const mark = expression.type === AST_NODE_TYPES.CallExpression ? recognizer.seenMark(expression) : undefined;
          // Only a mark of the loop's own element (`block.id`, not a fixed `id`) covers the array.
          if (mark && mark.idKey.startsWith(`${recognizer.idKeyOf(loop.right)}[*]`)) {
            const seenKey = seenFact(mark.base, mark.idKey);
            const fact = `seen-each@${loop.range[0]}:${seenKey}`;
            facts.establish(fact);
            markingLoops.push({ loop, fact, seenKey });
            continue;
          }
        }
        if (mayLeaveIteration(statement)) return;
      }
    }

    function mayLeaveIteration(root: TSESTree.Node): boolean {
      let found = false;
      const stack: TSESTree.Node[] = [root];
      while (stack.length > 0 && !found) {
        const node = stack.pop()!;
        if (isFunctionNode(node)) continue;
        if (
          node.type === AST_NODE_TYPES.ContinueStatement ||
          node.type === AST_NODE_TYPES.BreakStatement ||
          node.type === AST_NODE_TYPES.ReturnStatement ||
          node.type === AST_NODE_TYPES.ThrowStatement
        ) {
          found = true;
        }
        for (const key of sourceCode.visitorKeys[node.type] ?? []) {
          const value = (node as unknown as Record<string, unknown>)[key];
          const children = Array.isArray(value) ? value : [value];
          for (const child of children) {
            if (child && typeof child === 'object' && 'type' in child) stack.push(child as TSESTree.Node);
          }
        }
      }
      return found;
    }

    function isSeenOnEveryPath(write: StateCollectionCall): { everyPath: boolean; somePath: boolean } {
      const key = seenFact(write.base, write.idKey);
      const loops = markingLoops.filter((entry) => entry.seenKey === key && !containsNode(entry.loop, write.call));
      const seenHere = (pathFacts: { holdsOnEveryPath(fact: string): boolean }): boolean =>
        pathFacts.holdsOnEveryPath(key) || loops.some((entry) => pathFacts.holdsOnEveryPath(entry.fact));
      return {
        everyPath: !facts.someCurrentPath((pathFacts) => !seenHere(pathFacts)),
        somePath: facts.holdsOnSomePath(key) || loops.some((entry) => facts.holdsOnSomePath(entry.fact)),
      };
    }

    /**
     * A name for the `SeenId` that `markSeen` returns, free where the mark goes:
     * `recordReplacement` only accepts that branded id, so a mark that throws it
     * away leaves the type error (and at run time the frozen fate unproven).
     */
    function seenIdNameAt(node: TSESTree.Node): string {
      const scope = sourceCode.getScope(node);
      const candidates = ['seen', 'seenId', 'seenToolUseId'];
      return candidates.find((name) => !ASTUtils.findVariable(scope, name)) ?? `seen${node.range[0]}`;
    }

    /** The `recordReplacement(state, id, …)` calls of `owner` for the same id, whose id argument becomes the SeenId. */
    function runtimeWritesFor(owner: TSESTree.Node, idKey: string, after: number): StateCollectionCall[] {
      const writes: StateCollectionCall[] = [];
      walk(owner, (node) => {
        if (node !== owner && isFunctionNode(node)) return false;
        if (node.type !== AST_NODE_TYPES.CallExpression || node.range[0] < after) return;
        const write = recognizer.replacementWrite(node);
        if (write?.form === 'runtime' && write.idKey === idKey) writes.push(write);
      });
      return writes;
    }

    /** `const seen = markSeen(state, id);` before `statement`, and `seen` passed to each write instead of the raw id. */
    function runtimeMarkFix(
      fixer: TSESLint.RuleFixer,
      statement: TSESTree.Statement,
      stateText: string,
      idText: string,
      writes: readonly StateCollectionCall[],
    ): TSESLint.RuleFix[] {
      const name = seenIdNameAt(statement);
      const { references, fix: importFix } = packageImportFix(sourceCode, [RUNTIME_MARK_SEEN]);
      return [
        ...(importFix ? [importFix(fixer)] : []),
        insertStatementBefore(fixer, sourceCode, statement, `const ${name} = ${references[RUNTIME_MARK_SEEN]!}(${stateText}, ${idText})`),
        ...writes.map((write) => fixer.replaceText(write.id, name)),
      ];
    }

    /**
     * Where a missing mark goes: before the write's statement, or, when the
     * function awaited the persistence of the same id earlier in the same
     * statement list, before that persist. A mark placed only after the
     * awaited persist is a finding of its own (`seenMarkAfterPersist`), so a
     * suggestion that put it there would trade one report for another.
     */
    function markStatementFor(write: StateCollectionCall, owner: TSESTree.Node | undefined): TSESTree.Statement | undefined {
      const writeStatement = unconditionalStatementOf(write.call);
      const persisted = owner ? awaitedPersistence.get(owner)?.get(write.idKey) : undefined;
      const persistStatement = persisted ? unconditionalStatementOf(persisted.awaitNode) : undefined;
      if (
        writeStatement &&
        persistStatement &&
        persistStatement.parent === writeStatement.parent &&
        persistStatement.range[1] <= writeStatement.range[0] &&
        isStatementInList(persistStatement) &&
        declaredBefore(write.collection, persistStatement) &&
        declaredBefore(write.id, persistStatement)
      ) {
        return persistStatement;
      }
      return writeStatement;
    }

    function checkReplacementWrite(write: StateCollectionCall): void {
      const { everyPath, somePath } = isSeenOnEveryPath(write);
      if (everyPath) return;
      const owner = facts.currentCodePathNode();
      // Clones and reconstructions copy decisions frozen elsewhere.
      if (owner && recognizer.isCloneOrReconstructFunction(owner)) return;
      const seenText = recognizer.seenSetTextFor(write);
      const idText = sourceCode.getText(write.id);
      const stateText = sourceCode.getText(write.collection);
      // `map`, `seen` and `stateName` are structured data for the codemods that read the reports.
      const data: ReportData['replacementWithoutSeenMark'] = {
        write: write.form === 'method' ? `${stateText}.set(${idText}, …)` : `recordReplacement(${stateText}, ${idText}, …)`,
        mark: write.form === 'method' ? `${seenText ?? 'seenIds'}.add(${idText})` : `markSeen(${stateText}, ${idText})`,
        map: stateText,
        seen: seenText ?? '',
        id: idText,
        stateName: write.base,
      };
      const statement = markStatementFor(write, owner);
      context.report({
        node: write.call,
        messageId: somePath ? 'replacementWithoutSeenMarkOnSomePaths' : 'replacementWithoutSeenMark',
        data,
        suggest:
          seenText !== undefined && statement
            ? [
                {
                  messageId: 'insertSeenMark',
                  data,
                  fix: (fixer) => insertStatementBefore(fixer, sourceCode, statement, `${seenText}.add(${idText})`),
                },
              ]
            : write.form === 'runtime' && statement && isStatementInList(statement)
              ? [{ messageId: 'insertSeenMark', data, fix: (fixer) => runtimeMarkFix(fixer, statement, stateText, idText, [write]) }]
              : [],
      });
    }

    /** True when every variable `expression` uses is declared before `statement`, so it can be written there. */
    function declaredBefore(expression: TSESTree.Node, statement: TSESTree.Node): boolean {
      const scope = sourceCode.getScope(expression);
      let movable = true;
      const stack: TSESTree.Node[] = [expression];
      while (stack.length > 0 && movable) {
        const node = stack.pop()!;
        if (node.type === AST_NODE_TYPES.Identifier) {
          const variable = ASTUtils.findVariable(scope, node);
          const definition = variable?.defs[0];
          if (definition && definition.name.range[0] > statement.range[0]) movable = false;
        }
        if (node.type === AST_NODE_TYPES.MemberExpression) {
          stack.push(node.object);
          if (node.computed) stack.push(node.property);
          continue;
        }
        for (const key of sourceCode.visitorKeys[node.type] ?? []) {
          const value = (node as unknown as Record<string, unknown>)[key];
          for (const child of Array.isArray(value) ? value : [value]) {
            if (child && typeof child === 'object' && 'type' in child) stack.push(child as TSESTree.Node);
          }
        }
      }
      return movable;
    }

    function checkSeenMark(mark: StateCollectionCall): void {
      const seenKey = seenOnAnyStateFact(mark.idKey);
      const persistedKey = persistedUnseenFact(mark.idKey);
      const lateOnSomePath = facts.someCurrentPath(
        (pathFacts) => pathFacts.holdsOnSomePath(persistedKey) && !pathFacts.holdsOnEveryPath(seenKey),
      );
      if (!lateOnSomePath) return;
      const owner = facts.currentCodePathNode();
      const persisted = owner ? awaitedPersistence.get(owner)?.get(mark.idKey) : undefined;
      const collectionText = sourceCode.getText(mark.collection);
      const idText = sourceCode.getText(mark.id);
      const data: ReportData['seenMarkAfterPersist'] = {
        mark: mark.form === 'method' ? `${collectionText}.add(${idText})` : `markSeen(${collectionText}, ${idText})`,
        seen: mark.form === 'method' ? collectionText : '',
        id: idText,
        callee: persisted?.calleeName ?? 'persist',
        stateName: mark.base,
      };
      const awaitStatement = persisted ? unconditionalStatementOf(persisted.awaitNode) : undefined;
      const markStatement = mark.call.parent;
      const suggest: TSESLint.SuggestionReportDescriptor<MessageIds>[] = [];
      if (awaitStatement && declaredBefore(mark.call, awaitStatement)) {
        const removeLateMark =
          markStatement.type === AST_NODE_TYPES.ExpressionStatement &&
          isStatementInList(markStatement) &&
          markStatement.parent === awaitStatement.parent;
        // A bare `markSeen(state, id);` throws its SeenId away: the moved mark keeps it for the writes.
        const laterWrites = mark.form === 'runtime' && owner ? runtimeWritesFor(owner, mark.idKey, mark.call.range[1]) : [];
        const keepsSeenId = markStatement.type === AST_NODE_TYPES.ExpressionStatement && removeLateMark && laterWrites.length > 0;
        const declaresSeenId =
          mark.form === 'runtime' &&
          markStatement.type === AST_NODE_TYPES.VariableDeclarator &&
          isStatementInList(markStatement.parent) &&
          markStatement.parent.parent === awaitStatement.parent;
        suggest.push({
          messageId: 'moveSeenMarkBeforePersist',
          data,
          fix: (fixer) => {
            if (keepsSeenId) {
              const previousToken = sourceCode.getTokenBefore(markStatement);
              const start = previousToken ? previousToken.range[1] : markStatement.range[0];
              return [
                ...runtimeMarkFix(fixer, awaitStatement, collectionText, idText, laterWrites),
                fixer.removeRange([start, markStatement.range[1]]),
              ];
            }
            if (declaresSeenId) {
              const declaration = markStatement.parent;
              const previousToken = sourceCode.getTokenBefore(declaration);
              const start = previousToken ? previousToken.range[1] : declaration.range[0];
              return [
                insertStatementBefore(fixer, sourceCode, awaitStatement, sourceCode.getText(declaration).replace(/;$/, '')),
                fixer.removeRange([start, declaration.range[1]]),
              ];
            }
            const fixes = [insertStatementBefore(fixer, sourceCode, awaitStatement, sourceCode.getText(mark.call))];
            if (removeLateMark) {
              const previousToken = sourceCode.getTokenBefore(markStatement);
              const start = previousToken ? previousToken.range[1] : markStatement.range[0];
              fixes.push(fixer.removeRange([start, markStatement.range[1]]));
            }
            return fixes;
          },
        });
      }
      context.report({ node: mark.call, messageId: 'seenMarkAfterPersist', data, suggest });
    }

    return withCodePathListeners(facts.listeners, {
      ForOfStatement: registerMarkingLoop,
      'IfStatement > .consequent'(node: TSESTree.Node) {
        if (node.parent?.type === AST_NODE_TYPES.IfStatement) establishSeenChecksOf(node.parent.test);
      },
      'ConditionalExpression > .consequent'(node: TSESTree.Node) {
        if (node.parent?.type === AST_NODE_TYPES.ConditionalExpression) establishSeenChecksOf(node.parent.test);
      },
      'LogicalExpression[operator="&&"] > .right'(node: TSESTree.Node) {
        if (node.parent?.type === AST_NODE_TYPES.LogicalExpression) establishSeenChecksOf(node.parent.left);
      },
      'AwaitExpression:exit'(node: TSESTree.AwaitExpression) {
        const owner = facts.currentCodePathNode();
        for (const persisted of recognizer.awaitedPersistenceCalls(node)) {
          for (const idKey of persisted.idKeys) {
            const seenKey = seenOnAnyStateFact(idKey);
            facts.establishWhere(persistedUnseenFact(idKey), (pathFacts) => !pathFacts.holdsOnEveryPath(seenKey));
            if (!owner) continue;
            let byId = awaitedPersistence.get(owner);
            if (!byId) awaitedPersistence.set(owner, (byId = new Map()));
            byId.set(idKey, { awaitNode: node, calleeName: persisted.calleeName });
          }
        }
      },
      'CallExpression:exit'(node: TSESTree.CallExpression) {
        const mark = recognizer.seenMark(node);
        if (mark) {
          checkSeenMark(mark);
          facts.establish(seenFact(mark.base, mark.idKey));
          facts.establish(seenOnAnyStateFact(mark.idKey));
          return;
        }
        const write = recognizer.replacementWrite(node);
        if (write) checkReplacementWrite(write);
      },
    });
  },
});
