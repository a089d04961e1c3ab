/**
 * Tools written as an object that states its whole contract — a description
 * and an input schema, its own or through what it spreads or nests — and
 * carries the code that runs on a call, wherever the object sits and
 * whatever helper it is handed to: `createAction({ name, description,
 * schema, resolver })`, `defineTool({ name, config: { description,
 * inputSchema }, handle })`, `{ capability, schema: navigateSchema, handle }`,
 * `{ name, description, inputSchema, logic: withAuth(…, handler) }`,
 * `tool({ ...Definitions.get_project, execute })` under a key of a returned
 * map. Every harness names its own helper and its own invocation member;
 * what they share is the contract the model is shown, so that is what this
 * family recognises, not the helper's name. An object that only describes a
 * tool (no invocation) is a definition its dispatcher joins by name
 * (`name-dispatch.ts`).
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { getStaticKeyName, skipTypeWrappers } from '../ast.js';
import type { RecognitionSettings } from '../settings.js';
import { statesContract, toolContract } from '../tool-contract.js';
import { type ToolDefinition, isInvocationValue, nameOfObject, objectLiteralDefinition } from './vocabulary.js';

/** Invocation members harnesses write besides the configured ones (`settings.invocationNames`). */
const HARNESS_INVOCATION_NAMES = ['handle', 'resolver', 'logic', 'callback', 'implementation', 'fn', 'exec', 'action', 'perform'];

/** The invocation members the object carries, by name. */
function invocationMembers(object: TSESTree.ObjectExpression, settings: RecognitionSettings): string[] {
  const names: string[] = [];
  for (const property of object.properties) {
    if (property.type !== AST_NODE_TYPES.Property) continue;
    const name = getStaticKeyName(property.key, property.computed);
    if (name === undefined || (!settings.invocationNames.includes(name) && !HARNESS_INVOCATION_NAMES.includes(name))) continue;
    const value = skipTypeWrappers(property.value);
    if (isInvocationValue(value) || value.type === AST_NODE_TYPES.CallExpression) names.push(name);
  }
  return names;
}

export function recogniseContractObject(object: TSESTree.ObjectExpression, settings: RecognitionSettings): ToolDefinition | undefined {
  const members = invocationMembers(object, settings);
  if (members.length === 0 || !statesContract(object)) return undefined;
  const definition = objectLiteralDefinition('plain-object', object);
  const name = definition.name ?? toolContract(definition).name ?? nameOfObject(object);
  return { ...definition, name, invocationMembers: [...new Set([...settings.invocationNames, ...members])] };
}
