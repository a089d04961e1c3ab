/**
 * Is a declared `maxResultSizeChars` the "never persist" sentinel? `Infinity`,
 * `Number.POSITIVE_INFINITY`, `UNBOUNDED` (ours, or anyone's constant of that
 * name), or a `const` bound to one of them. Anything else — a number, a
 * computed value, a `let` — is not: breaking circular persistence needs a hard, visible opt-out.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { findProperty, getMemberPath, getStaticKeyName, skipTypeWrappers } from './ast.js';
import type { FileIndex } from './file-index.js';
import type { ProgramTypes } from './program-types.js';
import { classifyToolWrappersAround, declaredTypeMemberOf, typedToolExpressionOf } from './tool-object-type.js';
import { findToolMember } from './tool-members.js';
import type { ToolDefinition, ToolMember } from './tool-shapes/vocabulary.js';
import { isPackageSpecifier } from './type-declarations.js';

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

/** The module the wrapper comes from: a tool imported from it (`defineTool`) has its own members. */
const OWN_PACKAGE = 'tool-result-guard';

/**
 * The expression that evaluates to the tool object: the factory or
 * registration call, the `new` expression, a typed object literal (with the
 * `satisfies` / `as` around it).
 */
export function toolExpressionOf(definition: ToolDefinition): TSESTree.Expression | undefined {
  if (definition.shape === 'mcp-registration') {
    return definition.reportNode.type === AST_NODE_TYPES.CallExpression ? definition.reportNode : undefined;
  }
  if (definition.shape === 'typed-object' && definition.node.type === AST_NODE_TYPES.ObjectExpression) {
    return typedToolExpressionOf(definition.node);
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

/** The member a fix is about to write, and what can tell whether the tool's declared type has room for it. */
export interface ClassificationMemberQuery {
  name: string;
  types?: ProgramTypes | undefined;
}

/**
 * Where a classification member goes: `'member'` on the tool (classes, a
 * harness's own typed objects and factories whose type declares the member,
 * our `defineTool`), `'mcp-meta'` for `registerTool`'s `_meta` (also
 * FastMCP's `addTool` and a low-level dispatcher's `ListTools` entry),
 * `'wrapper'` (a `classifyTool` call) for a tool made by a package's
 * factory or constructor (`tool` from `ai`, `@langchain/core/tools`,
 * `@openai/agents`, Mastra's `createTool`, `new DynamicStructuredTool`), for
 * MCP `server.tool`, and for a harness's own tool object whose declared
 * type (`const t: Tool<Input> = {…}`, the parameter of its own factory)
 * lacks `member`: a member there does not compile (TS2353), or lands in the
 * input shape. A class takes any member, whatever it implements.
 */
export function classificationHomeOf(
  definition: ToolDefinition,
  file: FileIndex | undefined,
  member?: ClassificationMemberQuery,
): 'member' | 'mcp-meta' | 'wrapper' {
  // A package's registration helper hands the config to `registerTool`: `_meta` is the only home (see `registeredThrough`).
  if (definition.registeredThrough !== undefined) return 'mcp-meta';
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
  const typedObject = definition.shape === 'typed-object';
  if (definition.shape !== 'factory' && definition.shape !== 'constructor' && !typedObject) return 'member';
  if (findClassifyToolObjects(definition).length > 0) return 'wrapper';
  if (!typedObject) {
    const expression = toolExpressionOf(definition);
    const callee =
      expression && (expression.type === AST_NODE_TYPES.CallExpression || expression.type === AST_NODE_TYPES.NewExpression)
        ? getMemberPath(expression.callee)?.[0]
        : undefined;
    const binding = callee === undefined ? undefined : file?.imports.get(callee);
    if (binding && binding.module !== OWN_PACKAGE && isPackageSpecifier(binding.module)) return 'wrapper';
  }
  if (!member || !file || definition.node.type !== AST_NODE_TYPES.ObjectExpression) return 'member';
  // Never a member the declared type lacks; a type declared nowhere the lint can see has nothing to contradict it.
  const presence = declaredTypeMemberOf(definition.node, member.name, file, member.types);
  return presence === 'present' || presence === 'undeclared' ? 'member' : 'wrapper';
}
