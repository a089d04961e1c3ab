/**
 * The MCP SDK's high-level registrations: `server.tool(name, …, handler)` and
 * `server.registerTool(name, config, handler)`. The classification lives in
 * the config object (`registerTool`) or the last object before the handler
 * (`server.tool`'s annotations), or in its `_meta['anthropic/<member>']`.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { getStaticKeyName, skipTypeWrappers } from '../ast.js';
import { mayHoldToolName } from '../tool-name.js';
import { type ToolDefinition, isFunctionLikeArgument, mcpRegistrationDefinition } from './vocabulary.js';

export function recogniseMcpRegistration(call: TSESTree.CallExpression): ToolDefinition | undefined {
  const callee = call.callee;
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const method = getStaticKeyName(callee.property, callee.computed);
  if (method !== 'tool' && method !== 'registerTool') return undefined;
  const [nameArgument] = call.arguments;
  const handler = call.arguments[call.arguments.length - 1];
  if (!nameArgument || call.arguments.length < 2 || !isFunctionLikeArgument(handler)) return undefined;
  const nameTarget = skipTypeWrappers(nameArgument);
  if (!mayHoldToolName(nameTarget)) return undefined;
  // registerTool(name, config, handler): the config. server.tool(name, …, handler):
  // the last object literal before the handler (annotations), if any.
  let host: TSESTree.ObjectExpression | undefined;
  for (const argument of call.arguments.slice(1, -1)) {
    const target = skipTypeWrappers(argument);
    if (target.type === AST_NODE_TYPES.ObjectExpression) host = target;
    if (method === 'registerTool') break;
  }
  return mcpRegistrationDefinition(call, nameTarget, host, handler);
}
