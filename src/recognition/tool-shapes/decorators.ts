/**
 * Agentic's `@aiFunction({ name, description, inputSchema })` on a method of
 * an `AIFunctionsProvider` class: the method is the tool, named by the
 * decorator. Published packages ship it compiled, so three spellings lead
 * from the decorator to its method:
 * - TypeScript source: `@aiFunction({…}) async search(input) {…}`;
 * - esbuild (stage-3 decorators): `_search_dec = [aiFunction({…})]` in the
 *   class heritage, then `__decorateElement(_init, 1, "search", _search_dec, Client)`;
 * - tsc / esbuild legacy decorators: `__decorate([aiFunction({…})], Client.prototype, "search", null)`
 *   (`__decorateClass` in esbuild).
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import {
  type ClassNode,
  type FunctionNode,
  getCalleeLastName,
  getMemberPath,
  getStringValue,
  isClassNode,
  isFunctionNode,
  programOf,
  walk,
} from '../ast.js';

import { enclosingClass } from '../module-graph.js';
import { type ToolDefinition, getClassMethod } from './vocabulary.js';
import { asObjectLiteral, configName } from '../tool-name.js';

/** The decorator factory of @agentic/core. */
const AI_FUNCTION_DECORATOR = 'aiFunction';
/** tsc's, esbuild's and tsup's legacy-decorator helpers: `(decorators, target, key, descriptor)`. */
const LEGACY_DECORATE_HELPERS = new Set(['__decorate', '__decorateClass', '_ts_decorate']);
/** esbuild's stage-3 helper: `(initializers, flags, key, decorators, target)`. */
const DECORATE_ELEMENT_HELPER = '__decorateElement';

/** Spellings a file must contain to hold this shape (the text filter's part). */
export const DECORATOR_SHAPE_SPELLINGS = [AI_FUNCTION_DECORATOR];

function classNamed(program: TSESTree.Program, name: string): ClassNode | undefined {
  let found: ClassNode | undefined;
  walk(program, (node) => {
    if (found) return false;
    if (node.type === AST_NODE_TYPES.ClassDeclaration && node.id?.name === name) found = node;
    else if (
      node.type === AST_NODE_TYPES.VariableDeclarator &&
      node.id.type === AST_NODE_TYPES.Identifier &&
      node.id.name === name &&
      isClassNode(node.init)
    ) {
      found = node.init;
    }
    return undefined;
  });
  return found;
}

/** `__decorateElement(_init, 1, "search", _search_dec, Client)` for the decorator list `_search_dec`. */
function decoratedElementName(program: TSESTree.Program, decoratorList: string): string | undefined {
  let found: string | undefined;
  // The helper calls sit at the module's top level, right after the class.
  for (const statement of program.body) {
    if (found !== undefined) break;
    if (statement.type !== AST_NODE_TYPES.ExpressionStatement) continue;
    const call = statement.expression;
    if (call.type !== AST_NODE_TYPES.CallExpression || getCalleeLastName(call) !== DECORATE_ELEMENT_HELPER) continue;
    const list = call.arguments[3];
    if (list?.type === AST_NODE_TYPES.Identifier && list.name === decoratorList) found = getStringValue(call.arguments[2]);
  }
  return found;
}

/** The method a decorator call (`aiFunction(…)`, `Cache()`) decorates, in any of the three spellings. */
export function decoratedMethod(call: TSESTree.CallExpression): FunctionNode | undefined {
  const parent = call.parent;
  if (parent?.type === AST_NODE_TYPES.Decorator) {
    const member = parent.parent;
    return member?.type === AST_NODE_TYPES.MethodDefinition && isFunctionNode(member.value) ? member.value : undefined;
  }
  if (parent?.type !== AST_NODE_TYPES.ArrayExpression) return undefined;
  const holder = parent.parent;
  if (holder?.type === AST_NODE_TYPES.CallExpression && LEGACY_DECORATE_HELPERS.has(getCalleeLastName(holder) ?? '')) {
    const target = holder.arguments[1] ? getMemberPath(holder.arguments[1]) : undefined;
    const methodName = getStringValue(holder.arguments[2]);
    const program = programOf(call);
    if (target?.length !== 2 || target[1] !== 'prototype' || methodName === undefined || !program) return undefined;
    const classNode = classNamed(program, target[0]!);
    return classNode ? getClassMethod(classNode, methodName) : undefined;
  }
  if (holder?.type === AST_NODE_TYPES.AssignmentExpression && holder.left.type === AST_NODE_TYPES.Identifier) {
    const classNode = enclosingClass(call);
    const program = programOf(call);
    const methodName = program ? decoratedElementName(program, holder.left.name) : undefined;
    return classNode && methodName !== undefined ? getClassMethod(classNode, methodName) : undefined;
  }
  return undefined;
}

export function recogniseDecoratedMethodTool(call: TSESTree.CallExpression): ToolDefinition | undefined {
  if (getCalleeLastName(call) !== AI_FUNCTION_DECORATOR) return undefined;
  const config = asObjectLiteral(call.arguments[0]);
  if (!config) return undefined;
  const method = decoratedMethod(call);
  if (!method) return undefined;
  return {
    shape: 'decorator',
    node: config,
    reportNode: config,
    name: configName(config),
    host: config,
    isMcpRegistration: false,
    handlerArgument: method,
  };
}
