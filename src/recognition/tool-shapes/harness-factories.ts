/**
 * Harness tools built by a factory that receives the working directory and
 * an executor or service (`createReadToolDefinition(cwd, { operations })`,
 * `createLsTool(cwd, ops)`) and returns the tool as a plain
 * `{ name, parameters, execute }` object. The factory's name says it makes a
 * tool (`create…Tool`, `create…ToolDefinition`); the object must name itself
 * and carry an invocation, so a factory returning anything else is left alone.
 *
 * pi's agent tools are invoked as `execute(toolCallId, params, signal, …)`:
 * when the first parameter is the call id, the model's input is the second.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type FunctionNode, boundFunctionName, findProperty, isFunctionNode, skipTypeWrappers } from '../ast.js';
import type { RecognitionSettings } from '../settings.js';
import { type ToolDefinition, hasInvocationMember, objectLiteralDefinition } from './vocabulary.js';
import { configName } from '../tool-name.js';

const TOOL_FACTORY_NAME = /^(?:create|make|build)\w*Tool(?:Definition)?$/;
const CALL_ID_PARAMETER = /^_*(?:tool_?)?call_?id$/i;

/** The function whose result `object` is: `return {…}` in its body, or an arrow's expression body. */
function returningFunction(object: TSESTree.ObjectExpression): FunctionNode | undefined {
  const parent = object.parent;
  if (parent?.type === AST_NODE_TYPES.ArrowFunctionExpression && parent.body === object) return parent;
  if (parent?.type !== AST_NODE_TYPES.ReturnStatement) return undefined;
  for (let current: TSESTree.Node | undefined = parent.parent; current; current = current.parent) {
    if (isFunctionNode(current)) return current;
  }
  return undefined;
}

/** Which parameter of an invocation holds the model's input: the one after a leading call id. */
export function inputParameterAfterCallId(fn: TSESTree.Node | undefined): number | undefined {
  const target = fn ? skipTypeWrappers(fn) : undefined;
  if (!isFunctionNode(target) || target.params.length < 2) return undefined;
  const [first] = target.params;
  return first?.type === AST_NODE_TYPES.Identifier && CALL_ID_PARAMETER.test(first.name) ? 1 : undefined;
}

export function recogniseFactoryReturnedTool(object: TSESTree.ObjectExpression, settings: RecognitionSettings): ToolDefinition | undefined {
  const factory = returningFunction(object);
  const factoryName = factory ? boundFunctionName(factory) : undefined;
  if (factoryName === undefined || !TOOL_FACTORY_NAME.test(factoryName)) return undefined;
  const name = configName(object);
  if (name === undefined || !hasInvocationMember(object, settings)) return undefined;
  const definition = objectLiteralDefinition('plain-object', object, name);
  const invocation = settings.invocationNames.map((member) => findProperty(object, member)?.value).find(Boolean);
  const inputParameter = inputParameterAfterCallId(invocation);
  return inputParameter === undefined ? definition : { ...definition, inputParameter };
}
