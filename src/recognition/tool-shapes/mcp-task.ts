/**
 * MCP task tools: `server.experimental.tasks.registerToolTask(name, config,
 * { createTask, getTask, getTaskResult })`. The model calls the tool by
 * `name`; `createTask` runs on that call with the model's arguments first
 * (the other two answer the client's polls). Task tools are where
 * long-running work keeps state between calls, so leaving them unrecognised
 * hides exactly the state leakage the state rule is for.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { findProperty, getCalleeLastName, getMemberPath, skipTypeWrappers } from '../ast.js';
import type { ToolDefinition } from './vocabulary.js';
import { mayHoldToolName, resolveToolName } from '../tool-name.js';

export function recogniseTaskRegistration(call: TSESTree.CallExpression): ToolDefinition | undefined {
  if (call.callee.type !== AST_NODE_TYPES.MemberExpression || getCalleeLastName(call) !== 'registerToolTask') return undefined;
  const [nameArgument, configArgument, handlersArgument] = call.arguments;
  if (!nameArgument || !configArgument || !handlersArgument || !mayHoldToolName(nameArgument)) return undefined;
  const config = skipTypeWrappers(configArgument);
  const handlers = skipTypeWrappers(handlersArgument);
  if (config.type !== AST_NODE_TYPES.ObjectExpression || handlers.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
  const createTask = findProperty(handlers, 'createTask');
  if (!createTask) return undefined;
  return {
    shape: 'mcp-registration',
    node: call,
    reportNode: call,
    name: resolveToolName(nameArgument) ?? getMemberPath(nameArgument)?.join('.'),
    host: config,
    isMcpRegistration: true,
    handlerArgument: createTask.value,
  };
}
