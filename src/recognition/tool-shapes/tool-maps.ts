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
import { type ToolDefinition, hasInvocationMember, objectLiteralDefinition } from './vocabulary.js';

const TOOLS_MAP_NAME = /tools$/i;
const INPUT_SCHEMA_KEYS = ['inputSchema', 'parameters'];

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
