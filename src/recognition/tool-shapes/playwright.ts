/**
 * @playwright/mcp's tools (bundled into playwright-core's lib): a config
 * handed to `defineTool` or `defineTabTool`, its name in `schema.name`, its
 * invocation `handle(context | tab, params, response)`. The model's input is
 * `params`, the second parameter: taking the first (the browser context)
 * would make every tool look like it reads what the harness chose.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { findProperty, getCalleeLastName, isFunctionNode, skipTypeWrappers } from '../ast.js';
import type { ToolDefinition } from './vocabulary.js';
import { asObjectLiteral, configName } from '../tool-name.js';

/** `defineTool`, `defineTabTool`, and the like of other tool families in the same code base. */
const DEFINE_TOOL_CALLEE = /^define\w*Tool$/;
const HANDLE_INPUT_PARAMETER = 1;

export function recogniseSchemaHandleTool(call: TSESTree.CallExpression): ToolDefinition | undefined {
  const lastName = getCalleeLastName(call);
  if (lastName === undefined || !DEFINE_TOOL_CALLEE.test(lastName)) return undefined;
  const config = asObjectLiteral(call.arguments[0]);
  if (!config) return undefined;
  const schema = asObjectLiteral(findProperty(config, 'schema')?.value);
  const handle = findProperty(config, 'handle')?.value;
  if (!schema || !handle) return undefined;
  const handler = skipTypeWrappers(handle);
  if (!isFunctionNode(handler) && handler.type !== AST_NODE_TYPES.Identifier) return undefined;
  const name = configName(schema);
  if (name === undefined) return undefined;
  return {
    shape: 'factory',
    node: config,
    reportNode: config,
    name,
    host: config,
    isMcpRegistration: false,
    handlerArgument: handler,
    inputParameter: HANDLE_INPUT_PARAMETER,
  };
}
