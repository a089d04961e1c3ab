/**
 * Tools written as properties of a tools map (the AI SDK's `tools: { submit:
 * tool({...}) }`, Mastra's and VoltAgent's agents alike): the key is the
 * name the model calls, so messages use it. A plain object in such a map
 * (`{ description, inputSchema | parameters, execute }`, no factory) is a
 * tool too; outside a map the same object is just data, so it is not taken.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { findProperty, getStaticKeyName } from '../ast.js';
import type { RecognitionSettings } from '../settings.js';
import { type ToolDefinition, hasInvocationMember, objectLiteralDefinition } from '../tool-definitions.js';

const TOOLS_MAP_NAME = /tools$/i;
const INPUT_SCHEMA_KEYS = ['inputSchema', 'parameters'];

/** The property `node` is the value of, through type wrappers and the call it configures. */
function enclosingProperty(node: TSESTree.Node): TSESTree.Property | undefined {
  let child: TSESTree.Node = node;
  let parent = node.parent;
  while (
    parent &&
    (parent.type === AST_NODE_TYPES.TSAsExpression ||
      parent.type === AST_NODE_TYPES.TSSatisfiesExpression ||
      parent.type === AST_NODE_TYPES.TSNonNullExpression ||
      (parent.type === AST_NODE_TYPES.CallExpression && parent.arguments.includes(child as TSESTree.CallExpressionArgument)))
  ) {
    child = parent;
    parent = parent.parent;
  }
  return parent?.type === AST_NODE_TYPES.Property && parent.value === child ? parent : undefined;
}

/** The key of the tools-map property whose value `node` is (or configures). */
export function toolMapKey(node: TSESTree.Node): string | undefined {
  const property = enclosingProperty(node);
  return property ? getStaticKeyName(property.key, property.computed) : undefined;
}

/** The map key of a tool that states no name of its own. */
export function withToolMapKeyName(definition: ToolDefinition | undefined): ToolDefinition | undefined {
  if (!definition || definition.name !== undefined) return definition;
  const key = toolMapKey(definition.node);
  return key === undefined ? definition : { ...definition, name: key };
}

/** Is `map` a tools map: the value of a `tools` property or of a variable named `…tools`? */
function isToolsMap(map: TSESTree.Node | undefined): boolean {
  const holder = map?.parent;
  if (holder?.type === AST_NODE_TYPES.Property && holder.value === map) {
    return TOOLS_MAP_NAME.test(getStaticKeyName(holder.key, holder.computed) ?? '');
  }
  if (holder?.type === AST_NODE_TYPES.VariableDeclarator && holder.init === map && holder.id.type === AST_NODE_TYPES.Identifier) {
    return TOOLS_MAP_NAME.test(holder.id.name);
  }
  return false;
}

export function recogniseToolMapObject(object: TSESTree.ObjectExpression, settings: RecognitionSettings): ToolDefinition | undefined {
  const property = object.parent;
  if (property?.type !== AST_NODE_TYPES.Property || property.value !== object || !isToolsMap(property.parent)) return undefined;
  if (!findProperty(object, 'description') || !INPUT_SCHEMA_KEYS.some((key) => findProperty(object, key))) return undefined;
  if (!hasInvocationMember(object, settings)) return undefined;
  const key = getStaticKeyName(property.key, property.computed);
  return objectLiteralDefinition('plain-object', object, key);
}
