/**
 * Is a declared `maxResultSizeChars` the "never persist" sentinel? `Infinity`,
 * `Number.POSITIVE_INFINITY`, `UNBOUNDED` (ours, or anyone's constant of that
 * name), or a `const` bound to one of them. Anything else — a number, a
 * computed value, a `let` — is not: breaking circular persistence needs a hard, visible opt-out.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { findProperty, getCalleeLastName, getMemberPath, getStaticKeyName, skipTypeWrappers } from './ast.js';
import type { FileIndex } from './file-index.js';
import { findToolMember } from './tool-members.js';
import type { ToolDefinition, ToolMember } from './tool-shapes/vocabulary.js';

export const UNBOUNDED_NAMES = ['Infinity', 'UNBOUNDED'] as const;

export function isUnboundedValue(
  value: TSESTree.Node | null | undefined,
  file: Pick<FileIndex, 'constants'> | undefined,
  depth = 0,
): boolean {
  if (!value || depth > 4) return false;
  const target = skipTypeWrappers(value);
  if (target.type === AST_NODE_TYPES.UnaryExpression && target.operator === '+') {
    return isUnboundedValue(target.argument, file, depth + 1);
  }
  const path = getMemberPath(target);
  if (!path) return false;
  const joined = path.join('.');
  if (joined === 'Number.POSITIVE_INFINITY' || joined === 'globalThis.Infinity') return true;
  const last = path[path.length - 1]!;
  if (path.length > 1) return last === 'UNBOUNDED';
  const constant = file?.constants.get(last);
  // A local `const UNBOUNDED = 5` is judged by its value, an imported one by its name.
  if (last === 'UNBOUNDED' && constant === undefined) return true;
  if (last === 'Infinity') return true;
  return constant !== undefined && isUnboundedValue(constant, file, depth + 1);
}

/**
 * `classifyTool(tool, { reads, maxResultSizeChars, stateScope })`: the
 * classification home for tools whose framework type has no field for it
 * (writing the member into an AI SDK `tool({...})` is a type error; into an
 * MCP `server.tool` input shape, a crash at registration). A tool wrapped in
 * it is classified by the wrapper's second argument.
 */
export const CLASSIFY_TOOL_NAME = 'classifyTool';

/** The module the wrapper comes from: a tool imported from it (`defineTool`) has its own members. */
const OWN_PACKAGE = 'tool-result-guard';

function isBarePackage(module: string): boolean {
  return !module.startsWith('.') && !module.startsWith('/') && !module.startsWith('node:') && !module.startsWith('#');
}

/** The expression that evaluates to the tool object: the factory or registration call, the `new` expression. */
export function toolExpressionOf(definition: ToolDefinition): TSESTree.Expression | undefined {
  if (definition.shape === 'mcp-registration') {
    return definition.reportNode.type === AST_NODE_TYPES.CallExpression ? definition.reportNode : undefined;
  }
  if (definition.shape !== 'factory' && definition.shape !== 'constructor') return undefined;
  let current: TSESTree.Node = definition.node;
  for (let parent: TSESTree.Node | undefined = current.parent; parent; current = parent, parent = parent.parent) {
    if (parent.type === AST_NODE_TYPES.CallExpression || parent.type === AST_NODE_TYPES.NewExpression) {
      return parent.arguments.includes(current as TSESTree.CallExpressionArgument) ? parent : undefined;
    }
    if (skipTypeWrappers(parent) !== current) return undefined;
  }
  return undefined;
}

/** The `classifyTool(<expression>, …)` calls around `expression`, innermost first. */
function classifyToolWrappersAround(expression: TSESTree.Node): TSESTree.CallExpression[] {
  const wrappers: TSESTree.CallExpression[] = [];
  let current: TSESTree.Node = expression;
  for (let parent: TSESTree.Node | undefined = current.parent; parent; current = parent, parent = parent.parent) {
    if (
      parent.type === AST_NODE_TYPES.CallExpression &&
      parent.arguments[0] === current &&
      getCalleeLastName(parent) === CLASSIFY_TOOL_NAME
    ) {
      wrappers.push(parent);
      continue;
    }
    if (skipTypeWrappers(parent) !== current) break;
  }
  return wrappers;
}

/** The classification object literals of the `classifyTool` wrappers around the tool, innermost first. */
export function findClassifyToolObjects(definition: ToolDefinition): TSESTree.ObjectExpression[] {
  const expression = toolExpressionOf(definition);
  if (!expression) return [];
  return classifyToolWrappersAround(expression).flatMap((call) => {
    const classification = call.arguments[1] ? skipTypeWrappers(call.arguments[1]) : undefined;
    return classification?.type === AST_NODE_TYPES.ObjectExpression ? [classification] : [];
  });
}

/**
 * Where a tool declares `memberName`: on the tool itself (`findToolMember`),
 * else in a `classifyTool` wrapper's classification (the outermost wins, as
 * at run time a later classification replaces an earlier one).
 */
export function findDeclaredClassification(definition: ToolDefinition, memberName: string): ToolMember | undefined {
  const own = findToolMember(definition, memberName);
  if (own) return own;
  for (const classification of findClassifyToolObjects(definition).reverse()) {
    const property = findProperty(classification, memberName);
    if (property && property.value.type !== AST_NODE_TYPES.AssignmentPattern) {
      return { node: property, value: property.value as TSESTree.Expression, location: 'property' };
    }
  }
  return undefined;
}

/**
 * Where a classification member goes: `'member'` on the tool (classes, a
 * harness's own typed objects and factories, our `defineTool`), `'mcp-meta'`
 * for `registerTool`'s `_meta` (also FastMCP's `addTool` and a low-level
 * dispatcher's `ListTools` entry), `'wrapper'` (a `classifyTool` call) for a
 * tool made by a package's factory or constructor (`tool` from `ai`,
 * `@langchain/core/tools`, `@openai/agents`, Mastra's `createTool`,
 * `new DynamicStructuredTool`) and for MCP `server.tool`, whose types have
 * no such field: a member there does not compile, or lands in the input shape.
 */
export function classificationHomeOf(
  definition: ToolDefinition,
  file: Pick<FileIndex, 'imports'> | undefined,
): 'member' | 'mcp-meta' | 'wrapper' {
  if (definition.isMcpRegistration) {
    // FastMCP `addTool({...})`, single-object `registerTool({...})` and a low-level
    // dispatcher's `ListTools` entry carry `_meta` through to the client.
    if (definition.shape === 'object-registration' || definition.shape === 'mcp-dispatch') return 'mcp-meta';
    const call = definition.reportNode;
    const method =
      call.type === AST_NODE_TYPES.CallExpression && call.callee.type === AST_NODE_TYPES.MemberExpression
        ? getStaticKeyName(call.callee.property, call.callee.computed)
        : undefined;
    return method === 'registerTool' ? 'mcp-meta' : 'wrapper';
  }
  if (definition.shape !== 'factory' && definition.shape !== 'constructor') return 'member';
  if (findClassifyToolObjects(definition).length > 0) return 'wrapper';
  const expression = toolExpressionOf(definition);
  const callee =
    expression && (expression.type === AST_NODE_TYPES.CallExpression || expression.type === AST_NODE_TYPES.NewExpression)
      ? getMemberPath(expression.callee)?.[0]
      : undefined;
  const binding = callee === undefined ? undefined : file?.imports.get(callee);
  return binding && binding.module !== OWN_PACKAGE && isBarePackage(binding.module) ? 'wrapper' : 'member';
}
