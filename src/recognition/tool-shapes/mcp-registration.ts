/**
 * The MCP SDK's high-level registrations: `server.tool(name, …, handler)` and
 * `server.registerTool(name, config, handler)`. The classification lives in
 * the config object (`registerTool`) or the last object before the handler
 * (`server.tool`'s annotations), or in its `_meta['anthropic/<member>']`.
 *
 * Other harnesses spell the same positional contract with their own function
 * (GenAIScript's `defTool(name, description, parameters, fn)`, a package's
 * `addTool('read', 'Read a file', schema, handler)`): a call named for defining
 * a tool, handed the name, then the description as text, then the handler last,
 * is the same registration whatever its callee.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { getCalleeLastName, getStaticKeyName, skipTypeWrappers } from '../ast.js';
import { staticText, statesContract } from '../tool-contract.js';
import { mayHoldToolName, resolveToolName } from '../tool-name.js';
import { type ToolDefinition, isFunctionLikeArgument, mcpRegistrationDefinition } from './vocabulary.js';

/** A function named for defining a tool (`defTool`, `defineTool`, `addTool`, `registerTool`, `createTool`). */
const DEFINING_TOOL_CALLEE = /^(?:def|define|add|register|create|make|declare)_?tool$/i;

/**
 * `server.tool`, `server.registerTool`, or a call named for defining a tool that states its description
 * positionally; with the number of arguments up to the handler (`defTool(…, fn, { maxTokens })` ends in options)
 * and, for another harness's function, its name (`defTool`).
 */
function positionalRegistration(
  call: TSESTree.CallExpression,
): { registerTool: boolean; upToHandler: number; otherHarness?: string } | undefined {
  const count = call.arguments.length;
  const callee = skipTypeWrappers(call.callee);
  if (callee.type === AST_NODE_TYPES.MemberExpression) {
    const method = getStaticKeyName(callee.property, callee.computed);
    if (method === 'tool' || method === 'registerTool') return { registerTool: method === 'registerTool', upToHandler: count };
  }
  const name = getCalleeLastName(call);
  // Named otherwise, the call must spell the contract itself: the tool's name, then its description as prose
  // (a package's `registerTool(server, 'read_note', schema, handler)` hands the name second, and is its own helper).
  if (name === undefined || !DEFINING_TOOL_CALLEE.test(name) || count < 3) return undefined;
  const [toolName, description] = call.arguments;
  if (!toolName || resolveToolName(skipTypeWrappers(toolName)) === undefined || !description) return undefined;
  if (!/\s/.test(staticText(description)?.trim() ?? '')) return undefined;
  const last = skipTypeWrappers(call.arguments[count - 1]!);
  return { registerTool: false, upToHandler: last.type === AST_NODE_TYPES.ObjectExpression ? count - 1 : count, otherHarness: name };
}

export function recogniseMcpRegistration(call: TSESTree.CallExpression): ToolDefinition | undefined {
  const positional = positionalRegistration(call);
  if (!positional) return undefined;
  const method = positional.registerTool ? 'registerTool' : 'tool';
  const [nameArgument] = call.arguments;
  const handler = call.arguments[positional.upToHandler - 1];
  if (!nameArgument || positional.upToHandler < 2 || !isFunctionLikeArgument(handler)) return undefined;
  const nameTarget = skipTypeWrappers(nameArgument);
  if (!mayHoldToolName(nameTarget)) return undefined;
  // registerTool(name, config, handler): the config. server.tool(name, …, handler):
  // the last object literal before the handler (annotations), if any.
  let host: TSESTree.ObjectExpression | undefined;
  for (const argument of call.arguments.slice(1, positional.upToHandler - 1)) {
    const target = skipTypeWrappers(argument);
    if (target.type === AST_NODE_TYPES.ObjectExpression) host = target;
    if (method === 'registerTool') break;
  }
  const definition = mcpRegistrationDefinition(call, nameTarget, host, handler);
  // Another harness's own function (`defTool`): where it would take a classification is its own business, so the
  // rules report without a fix (no `_meta` of an MCP server reaches it).
  return positional.otherHarness === undefined
    ? definition
    : { ...definition, registeredThrough: { helper: positional.otherHarness, metaReachesServer: false } };
}

/**
 * `[name, { description, inputSchema }, handler]`: `registerTool`'s three arguments kept together, for a loop or a
 * spread to hand to it later (`for (const [name, config, fn] of tools) server.registerTool(name, config, fn)`).
 * The config is the tool when it states the contract (a description and an input schema) between a name and a handler.
 */
export function recogniseRegistrationTuple(object: TSESTree.ObjectExpression): ToolDefinition | undefined {
  const tuple = object.parent;
  if (tuple?.type !== AST_NODE_TYPES.ArrayExpression || tuple.elements.length !== 3 || tuple.elements[1] !== object) return undefined;
  const [nameElement, , handler] = tuple.elements;
  if (!nameElement || nameElement.type === AST_NODE_TYPES.SpreadElement || !handler || handler.type === AST_NODE_TYPES.SpreadElement) {
    return undefined;
  }
  const name = resolveToolName(skipTypeWrappers(nameElement));
  if (name === undefined || !isFunctionLikeArgument(handler) || !statesContract(object)) return undefined;
  return {
    shape: 'mcp-registration',
    node: object,
    reportNode: object,
    name,
    host: object,
    isMcpRegistration: true,
    handlerArgument: handler,
    // Handed to `registerTool` as they are: the config's `_meta` reaches the server.
    registeredThrough: { helper: 'registerTool', metaReachesServer: true },
  };
}
