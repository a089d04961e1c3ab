/**
 * OpenAI Agents SDK shapes beyond `tool({ name, execute })` (a generic factory):
 * - a `FunctionTool` written as a plain object, `{ type: 'function', name,
 *   parameters, invoke(runContext, input) }`: the model's input is `invoke`'s
 *   SECOND parameter (the first is the run context the harness passes);
 * - built-in tools run by a local executor the code hands over:
 *   `applyPatchTool({ editor })`, `shellTool({ shell })`, `computerTool({ computer })`.
 *   The SDK names them (`apply_patch`, `shell`, `computer_use_preview`)
 *   unless the config does; the executor is an object the SDK drives, so
 *   their invocation is not a function of the config.
 */
import type { TSESTree } from '@typescript-eslint/utils';

import { findProperty, getCalleeLastName, getStringValue, isFunctionNode, skipTypeWrappers } from '../ast.js';
import { type ToolDefinition, objectLiteralDefinition } from './vocabulary.js';
import { asObjectLiteral, configName } from '../tool-name.js';

const INVOKE_INPUT_PARAMETER = 1;

/** Built-in tool factory → [the executor property it needs, the name the SDK gives the tool]. */
const LOCAL_EXECUTOR_TOOLS: ReadonlyMap<string, readonly [string, string]> = new Map([
  ['applyPatchTool', ['editor', 'apply_patch']],
  ['shellTool', ['shell', 'shell']],
  ['computerTool', ['computer', 'computer_use_preview']],
]);

export function recogniseFunctionToolObject(object: TSESTree.ObjectExpression): ToolDefinition | undefined {
  if (getStringValue(findProperty(object, 'type')?.value) !== 'function') return undefined;
  const invoke = findProperty(object, 'invoke')?.value;
  if (!invoke || !isFunctionNode(skipTypeWrappers(invoke))) return undefined;
  const name = configName(object);
  if (name === undefined) return undefined;
  // The host's `invoke` member is the invocation; only its input position differs.
  return { ...objectLiteralDefinition('plain-object', object, name), inputParameter: INVOKE_INPUT_PARAMETER };
}

export function recogniseLocalExecutorTool(call: TSESTree.CallExpression): ToolDefinition | undefined {
  const known = LOCAL_EXECUTOR_TOOLS.get(getCalleeLastName(call) ?? '');
  if (!known) return undefined;
  const config = asObjectLiteral(call.arguments[0]);
  const [executor, defaultName] = known;
  if (!config || !findProperty(config, executor)) return undefined;
  const explicitName = findProperty(config, 'name');
  // A name the code computes is unknown here; the SDK's default holds only when none is given.
  const name = explicitName ? configName(config) : defaultName;
  return objectLiteralDefinition('factory', config, name);
}
