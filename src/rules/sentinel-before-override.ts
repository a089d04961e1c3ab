import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { createBindingResolver } from '../recognition/bindings.js';
import { exitsUnconditionally, finiteSubject, isDeclaredThreshold, isOverrideLookup, notFiniteSubject } from '../recognition/guards.js';
import { getRecognitionSettings, isFunctionNode, mayResolveThresholdInText, walk } from '../recognition/index.js';
import { createPathFacts, withCodePathListeners } from '../util/code-path.js';
import { createRule } from '../util/create-rule.js';

export type Options = [];
/** `data` per report message id (the codemods read it typed, `codemods/rule-protocol.ts`). */
export interface ReportData {
  /** The lookup's text, shortened. */
  lookupBeforeSentinel: { lookup: string; threshold: string };
}
export type MessageIds = keyof ReportData;

const SENTINEL_PASSED = 'sentinel-exit-passed';
const MAX_LOOKUP_TEXT = 60;

type FunctionLike = TSESTree.FunctionDeclaration | TSESTree.FunctionExpression | TSESTree.ArrowFunctionExpression;

export default createRule<Options, MessageIds>({
  name: 'sentinel-before-override',
  meta: {
    type: 'problem',
    docs: {
      description:
        'Require the `!Number.isFinite(declared)` sentinel exit before any override or feature-flag lookup on every code path ' +
        'of a threshold resolver',
      recommended: 'recommended',
    },
    messages: {
      lookupBeforeSentinel:
        'Override lookup `{{lookup}}` can run before the sentinel exit for `{{threshold}}`. ' +
        'Put `if (!Number.isFinite({{threshold}})) return {{threshold}};` before every override lookup: ' +
        'otherwise a remote override re-enables persistence for a self-reading tool declared `Infinity`.',
    },
    schema: [],
  },
  // A resolver reads `…maxResultSizeChars` or a `declared…` parameter by name:
  // a file that never spells either has nothing to check (most files).
  mayReport: mayResolveThresholdInText,
  create(context) {
    const settings = getRecognitionSettings(context);
    const sourceCode = context.sourceCode;
    const resolve = createBindingResolver(sourceCode);
    const facts = createPathFacts();
    // Per function: the first declared-threshold expression it reads, or null.
    const thresholdOfFunction = new WeakMap<TSESTree.Node, TSESTree.Node | null>();

    const isThreshold = (node: TSESTree.Node): boolean => isDeclaredThreshold(node, resolve);
    const guardsThreshold = (subject: TSESTree.Node | undefined): boolean => subject !== undefined && isThreshold(subject);

    function thresholdReadIn(fn: TSESTree.Node): TSESTree.Node | null {
      if (thresholdOfFunction.has(fn)) return thresholdOfFunction.get(fn)!;
      let found: TSESTree.Node | null = null;
      if (isFunctionNode(fn)) {
        for (const parameter of fn.params) {
          if (parameter.type === AST_NODE_TYPES.Identifier && isThreshold(parameter)) found = parameter;
        }
        walk(fn.body, (node) => {
          if (found) return false;
          if (node !== fn.body && isFunctionNode(node)) return false;
          if ((node.type === AST_NODE_TYPES.MemberExpression || node.type === AST_NODE_TYPES.Identifier) && isThreshold(node)) {
            found = node;
            return false;
          }
          return undefined;
        });
      }
      thresholdOfFunction.set(fn, found);
      return found;
    }

    /**
     * Is `node` inside a branch that only runs once the threshold is known finite
     * (`if (Number.isFinite(d)) {…}`, `d !== Infinity && …`)?
     */
    function isInsideFiniteBranch(node: TSESTree.Node, fn: TSESTree.Node): boolean {
      let child: TSESTree.Node = node;
      let parent = node.parent;
      while (parent && parent !== fn) {
        if (parent.type === AST_NODE_TYPES.IfStatement || parent.type === AST_NODE_TYPES.ConditionalExpression) {
          if (parent.consequent === child && guardsThreshold(finiteSubject(parent.test))) return true;
          if (parent.alternate === child && guardsThreshold(notFiniteSubject(parent.test))) return true;
        }
        if (parent.type === AST_NODE_TYPES.LogicalExpression && parent.right === child) {
          if (parent.operator === '&&' && guardsThreshold(finiteSubject(parent.left))) return true;
          if (parent.operator === '||' && guardsThreshold(notFiniteSubject(parent.left))) return true;
        }
        child = parent;
        parent = parent.parent;
      }
      return false;
    }

    function checkLookup(node: TSESTree.MemberExpression | TSESTree.CallExpression): void {
      if (!isOverrideLookup(node, settings)) return;
      const fn = facts.currentCodePathNode();
      if (!fn || !isFunctionNode(fn)) return;
      const threshold = thresholdReadIn(fn as FunctionLike);
      if (!threshold) return;
      if (facts.holdsOnEveryPath(SENTINEL_PASSED) || isInsideFiniteBranch(node, fn)) return;
      const text = sourceCode.getText(node).replace(/\s+/g, ' ');
      context.report({
        node,
        messageId: 'lookupBeforeSentinel',
        data: {
          lookup: text.length > MAX_LOOKUP_TEXT ? `${text.slice(0, MAX_LOOKUP_TEXT - 1)}…` : text,
          threshold: sourceCode.getText(threshold),
        } satisfies ReportData['lookupBeforeSentinel'],
      });
    }

    return withCodePathListeners(facts.listeners, {
      // After `if (!Number.isFinite(declared)) return …;` the only way on is the finite one.
      'IfStatement:exit'(node: TSESTree.IfStatement) {
        const exitsWhenInfinite =
          (guardsThreshold(notFiniteSubject(node.test)) && exitsUnconditionally(node.consequent)) ||
          (guardsThreshold(finiteSubject(node.test)) && exitsUnconditionally(node.alternate));
        if (exitsWhenInfinite) facts.establish(SENTINEL_PASSED);
      },
      MemberExpression: checkLookup,
      CallExpression: checkLookup,
    });
  },
});
