/**
 * Where a tool declares its classification members (`maxResultSizeChars`,
 * `stateScope`): a class field, getter or constructor assignment, an object
 * property, or an MCP registration's `_meta['anthropic/<member>']`. The
 * verdicts read a declared member from here, and fixes insert one next to
 * where the others live.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { findProperty, isClassNode, skipTypeWrappers, soleReturnedExpression } from './ast.js';
import {
  MCP_META_PREFIX,
  type ToolDefinition,
  type ToolMember,
  classMemberByName,
  constructorAssignment,
} from './tool-shapes/vocabulary.js';

/**
 * Where a tool declares `memberName` (`maxResultSizeChars`, `stateScope`):
 * the class member (field, getter, `this.x =` in the constructor), the object
 * property, or for MCP registrations `_meta['anthropic/<memberName>']`.
 */
export function findToolMember(definition: ToolDefinition, memberName: string): ToolMember | undefined {
  const host = definition.host;
  if (!host) return undefined;
  if (isClassNode(host)) {
    const member = classMemberByName(host, memberName);
    if (member?.type === AST_NODE_TYPES.PropertyDefinition || member?.type === AST_NODE_TYPES.AccessorProperty) {
      return { node: member, value: member.value ?? undefined, location: 'class-member' };
    }
    if (member?.type === AST_NODE_TYPES.MethodDefinition) {
      return { node: member, value: soleReturnedExpression(member.value), location: 'class-member' };
    }
    const assignment = constructorAssignment(host, memberName);
    if (assignment) return { node: assignment, value: assignment.right, location: 'constructor-assignment' };
    return undefined;
  }
  const property = findProperty(host, memberName);
  if (property) {
    const value = property.value;
    if (property.kind === 'get' && value.type === AST_NODE_TYPES.FunctionExpression) {
      return { node: property, value: soleReturnedExpression(value), location: 'property' };
    }
    const isValue =
      value.type !== AST_NODE_TYPES.AssignmentPattern &&
      value.type !== AST_NODE_TYPES.TSEmptyBodyFunctionExpression &&
      value.type !== AST_NODE_TYPES.ObjectPattern &&
      value.type !== AST_NODE_TYPES.ArrayPattern;
    return { node: property, value: isValue ? (value as TSESTree.Expression) : undefined, location: 'property' };
  }
  const meta = findProperty(host, '_meta');
  const metaObject = meta ? skipTypeWrappers(meta.value) : undefined;
  if (metaObject?.type === AST_NODE_TYPES.ObjectExpression) {
    const metaProperty = findProperty(metaObject, `${MCP_META_PREFIX}${memberName}`);
    if (metaProperty) {
      return { node: metaProperty, value: metaProperty.value as TSESTree.Expression, location: 'mcp-meta' };
    }
  }
  return undefined;
}

/** The `_meta` object literal of an MCP config, for fixes that add a key to it. */
export function findMcpMetaObject(definition: ToolDefinition): TSESTree.ObjectExpression | undefined {
  if (!definition.host || isClassNode(definition.host)) return undefined;
  const meta = findProperty(definition.host, '_meta');
  const metaObject = meta ? skipTypeWrappers(meta.value) : undefined;
  return metaObject?.type === AST_NODE_TYPES.ObjectExpression ? metaObject : undefined;
}
