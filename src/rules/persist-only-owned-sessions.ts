import { AST_NODE_TYPES, ESLintUtils, type TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { createBindingResolver } from '../recognition/bindings.js';
import {
  type QuerySourceComparison,
  exitsUnconditionally,
  isNotOwnedSessionTest,
  isOwnedSessionTest,
  isPersistenceCall,
  isQuerySourceExpression,
  isQuerySourceName,
  matchQuerySourceComparison,
} from '../recognition/guards.js';
import {
  getCalleeLastName,
  getCalleeName,
  getRecognitionSettings,
  isFunctionNode,
  mayPersistForQuerySourceInText,
  skipTypeWrappers,
  walk,
} from '../recognition/index.js';
import { createPathFacts, withCodePathListeners } from '../util/code-path.js';
import { createRule } from '../util/create-rule.js';

export type Options = [];
export type MessageIds = 'unguardedPersist' | 'denyListGuard' | 'prefixEquality' | 'useStartsWith';

const OWNED_CHECK_PASSED = 'owned-session-check-passed';
const QUERY_SOURCE_TYPE = /QuerySource/;

type Scope = TSESLint.Scope.Scope;

export default createRule<Options, MessageIds>({
  name: 'persist-only-owned-sessions',
  meta: {
    type: 'problem',
    hasSuggestions: true,
    docs: {
      description:
        'Require tool-result persistence to be guarded by an owned-session check (`shouldPersistForSession`, ' +
        '`startsWith` an owned prefix), never a deny list or an exact match',
      recommended: 'recommended',
    },
    messages: {
      unguardedPersist:
        '`{{call}}` persists a tool result without an owned-session check on every path. ' +
        'Guard it with `if (!shouldPersistForSession({{querySource}})) return;`: ephemeral forked agents (compact, ' +
        'session_memory, …) share the session id but not its storage root.',
      denyListGuard:
        "`{{guard}}` is a deny list: every ephemeral agent not listed ('session_memory', 'agent_summary', the next one) " +
        'still persists. Allow only owned sessions: `shouldPersistForSession({{querySource}})`.',
      prefixEquality:
        "`{{guard}}` compares a query source exactly with the owned prefix '{{prefix}}', " +
        "which misses '{{prefix}}:outputStyle:…' and every other variant. " +
        'Use `{{replacement}}` or `shouldPersistForSession({{querySource}})`.',
      useStartsWith: 'Replace with `{{replacement}}`.',
    },
    schema: [],
  },
  // Everything this rule checks hangs on a query source, found by name: a
  // file that never spells one has nothing to check (most files). With type
  // information a query source may be inferred, so any file that persists is checked.
  mayReport: mayPersistForQuerySourceInText,
  create(context) {
    const services = ESLintUtils.getParserServices(context, true);
    const settings = getRecognitionSettings(context);
    const sourceCode = context.sourceCode;
    const resolve = createBindingResolver(sourceCode);
    const facts = createPathFacts();
    // Functions holding a persistence call: only there are deny lists reported.
    const functionsThatPersist = new WeakMap<TSESTree.Node, boolean>();

    const isOwned = (test: TSESTree.Node): boolean => isOwnedSessionTest(test, settings, resolve);
    const isNotOwned = (test: TSESTree.Node): boolean => isNotOwnedSessionTest(test, settings, resolve);

    /** An exact comparison with an owned prefix is a wrong owned check: reported once, at the comparison. */
    function isPrefixEqualityTest(test: TSESTree.Node, whenTrue: boolean): boolean {
      const target = skipTypeWrappers(test);
      if (target.type === AST_NODE_TYPES.UnaryExpression && target.operator === '!') {
        return isPrefixEqualityTest(target.argument, !whenTrue);
      }
      if (target.type === AST_NODE_TYPES.LogicalExpression) {
        return isPrefixEqualityTest(target.left, whenTrue) || isPrefixEqualityTest(target.right, whenTrue);
      }
      if (target.type !== AST_NODE_TYPES.BinaryExpression) return false;
      const comparison = matchQuerySourceComparison(target, settings);
      return comparison?.ownedPrefix !== undefined && comparison.equality === whenTrue;
    }
    const provesOwned = (test: TSESTree.Node): boolean => isOwned(test) || isPrefixEqualityTest(test, true);
    const provesNotOwned = (test: TSESTree.Node): boolean => isNotOwned(test) || isPrefixEqualityTest(test, false);

    function isInsideOwnedBranch(node: TSESTree.Node): boolean {
      let child: TSESTree.Node = node;
      let parent = node.parent;
      while (parent && !isFunctionNode(parent)) {
        if (parent.type === AST_NODE_TYPES.IfStatement || parent.type === AST_NODE_TYPES.ConditionalExpression) {
          if (parent.consequent === child && provesOwned(parent.test)) return true;
          if (parent.alternate === child && provesNotOwned(parent.test)) return true;
        }
        if (parent.type === AST_NODE_TYPES.LogicalExpression && parent.right === child) {
          if (parent.operator === '&&' && provesOwned(parent.left)) return true;
          if (parent.operator === '||' && provesNotOwned(parent.left)) return true;
        }
        child = parent;
        parent = parent.parent;
      }
      return false;
    }

    function typeNameOf(annotation: TSESTree.TypeNode | undefined): string | undefined {
      if (annotation?.type !== AST_NODE_TYPES.TSTypeReference) return undefined;
      const name = annotation.typeName;
      return name.type === AST_NODE_TYPES.Identifier
        ? name.name
        : name.type === AST_NODE_TYPES.TSQualifiedName
          ? name.right.name
          : undefined;
    }

    /** With type information: the alias or symbol name of a binding's type (`QuerySource`, `OwnedQuerySource`). */
    function checkedTypeName(identifier: TSESTree.Identifier): string | undefined {
      if (!services?.program) return undefined;
      const type = services.getTypeAtLocation(identifier);
      return type.aliasSymbol?.name ?? type.getSymbol()?.name;
    }

    /** The query source in scope at `node`: a variable or parameter named …querySource or typed as one. */
    function querySourceInScope(node: TSESTree.Node): string | undefined {
      for (let scope: Scope | null = sourceCode.getScope(node); scope; scope = scope.upper) {
        for (const variable of scope.variables) {
          if (isQuerySourceName(variable.name)) return variable.name;
          const identifier = variable.defs[0]?.name;
          if (identifier?.type === AST_NODE_TYPES.Identifier) {
            const typeName = typeNameOf(identifier.typeAnnotation?.typeAnnotation) ?? checkedTypeName(identifier);
            if (typeName !== undefined && QUERY_SOURCE_TYPE.test(typeName)) return variable.name;
          }
        }
      }
      // `options.querySource` read in the enclosing function.
      const fn = facts.currentCodePathNode();
      if (fn && isFunctionNode(fn)) {
        let found: string | undefined;
        walk(fn.body, (inner) => {
          if (found) return false;
          if (inner.type === AST_NODE_TYPES.MemberExpression && isQuerySourceExpression(inner)) {
            found = sourceCode.getText(inner);
            return false;
          }
          return undefined;
        });
        return found;
      }
      return undefined;
    }

    function persistsIn(fn: TSESTree.Node): boolean {
      const known = functionsThatPersist.get(fn);
      if (known !== undefined) return known;
      let persists = false;
      if (isFunctionNode(fn)) {
        walk(fn.body, (node) => {
          if (persists) return false;
          if (node.type === AST_NODE_TYPES.CallExpression && isPersistenceCall(node, settings)) persists = true;
          return undefined;
        });
      }
      functionsThatPersist.set(fn, persists);
      return persists;
    }

    function enclosingFunction(node: TSESTree.Node): TSESTree.Node | undefined {
      for (let current = node.parent; current; current = current.parent) if (isFunctionNode(current)) return current;
      return undefined;
    }

    function reportComparison(comparison: QuerySourceComparison): void {
      const querySource = sourceCode.getText(comparison.querySource);
      const guard = sourceCode.getText(comparison.node);
      if (comparison.ownedPrefix !== undefined) {
        const prefix = comparison.node.left === comparison.querySource ? comparison.node.right : comparison.node.left;
        const startsWith = `${querySource}.startsWith(${sourceCode.getText(skipTypeWrappers(prefix))})`;
        const replacement = comparison.equality ? startsWith : `!${startsWith}`;
        context.report({
          node: comparison.node,
          messageId: 'prefixEquality',
          data: { guard, prefix: comparison.ownedPrefix, replacement, querySource },
          suggest: [
            {
              messageId: 'useStartsWith',
              data: { replacement },
              fix: (fixer) => fixer.replaceText(comparison.node, replacement),
            },
          ],
        });
        return;
      }
      if (comparison.equality) return;
      const fn = enclosingFunction(comparison.node);
      if (!fn || !persistsIn(fn)) return;
      context.report({ node: comparison.node, messageId: 'denyListGuard', data: { guard, querySource } });
    }

    return withCodePathListeners(facts.listeners, {
      // After `if (!shouldPersistForSession(qs)) return;` only owned sessions go on.
      'IfStatement:exit'(node: TSESTree.IfStatement) {
        const exitsWhenNotOwned =
          (provesNotOwned(node.test) && exitsUnconditionally(node.consequent)) ||
          (provesOwned(node.test) && exitsUnconditionally(node.alternate));
        if (exitsWhenNotOwned) facts.establish(OWNED_CHECK_PASSED);
      },
      BinaryExpression(node) {
        const comparison = matchQuerySourceComparison(node, settings);
        if (comparison) reportComparison(comparison);
      },
      // `!['compact', 'session_memory'].includes(querySource)`: a deny list too.
      'UnaryExpression[operator="!"] > CallExpression'(node: TSESTree.CallExpression) {
        const method = getCalleeLastName(node);
        if (method !== 'includes' && method !== 'has') return;
        const [argument] = node.arguments;
        if (!argument || !isQuerySourceExpression(argument)) return;
        const fn = enclosingFunction(node);
        if (!fn || !persistsIn(fn)) return;
        context.report({
          node: node.parent!,
          messageId: 'denyListGuard',
          data: { guard: sourceCode.getText(node.parent!), querySource: sourceCode.getText(argument) },
        });
      },
      CallExpression(node) {
        if (!isPersistenceCall(node, settings)) return;
        const querySource = querySourceInScope(node);
        if (querySource === undefined) return;
        if (facts.holdsOnEveryPath(OWNED_CHECK_PASSED) || isInsideOwnedBranch(node)) return;
        context.report({
          node,
          messageId: 'unguardedPersist',
          data: { call: getCalleeName(node) ?? sourceCode.getText(node.callee), querySource },
        });
      },
    });
  },
});
