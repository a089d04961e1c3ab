/**
 * The low-level MCP server: one `server.setRequestHandler(CallToolRequestSchema,
 * handler)` serves every tool, and the handler picks the tool with a `switch`
 * (or `if (name === 'x')`, or a guard `if (name !== 'x') throw …` before the
 * one tool's code) on the requested name. Each branch is a tool, named
 * by its case, whose input is the request's arguments object. Without this,
 * the whole server (often dozens of file, URL and process tools) is invisible
 * to the rules: circular persistence and state leakage go unchecked in
 * exactly the servers that have the most tools.
 *
 * The ways the branch sees the request, all from the SDK's own API
 * (`request.params.name`, `request.params.arguments`):
 * - `switch (request.params.name)` in the handler (or in a callback inside it);
 * - `const { name, arguments: args } = request.params; switch (name)`;
 * - the handler passes the request on (`return handleCallToolRequest(request)`)
 *   and that function does either of the above;
 * - the handler delegates: `handleToolCall(request.params.name,
 *   request.params.arguments)`, and `handleToolCall(name, args)` switches.
 *
 * The classification lives in the matching entry of the `ListToolsRequestSchema`
 * response, `{ name: 'x', inputSchema, … }` (its `_meta`), when the file has it.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type FunctionNode, getStaticKeyName, programOf, skipTypeWrappers, soleReturnedExpression } from '../ast.js';
import { findDispatcher, listEntryNamed, mayDispatchIn } from '../call-tool-handlers.js';
import { programFileIndex, programPath } from '../file-index.js';
import { definitionObjectOf, resolveToolName } from '../tool-name.js';
import type { ToolDefinition } from './vocabulary.js';

function dispatchDefinition(
  reportNode: TSESTree.SwitchCase | TSESTree.IfStatement,
  name: string,
  dispatcher: { fn: FunctionNode; inputParameter: number },
  region: TSESTree.Node,
): ToolDefinition {
  const host = listEntryNamed(reportNode, name);
  const test = reportNode.test;
  const contractSource = host === undefined && test ? namedObject(test) : undefined;
  return {
    ...(contractSource ? { contractSource } : {}),
    shape: 'mcp-dispatch',
    node: reportNode,
    reportNode: reportNode.type === AST_NODE_TYPES.SwitchCase ? (reportNode.test ?? reportNode) : reportNode.test,
    name,
    host,
    isMcpRegistration: true,
    handlerArgument: dispatcher.fn,
    inputParameter: dispatcher.inputParameter,
    invocationRegion: region,
  };
}

/**
 * `case tools.PdfTool.name:`: the definition object the name is read from
 * (`export const PdfTool = ToolSchema.parse({ name, description, inputSchema })`
 * in another module), which states the tool's contract.
 */
function namedObject(test: TSESTree.Expression): TSESTree.ObjectExpression | undefined {
  const target = skipTypeWrappers(test);
  if (target.type !== AST_NODE_TYPES.MemberExpression || getStaticKeyName(target.property, target.computed) !== 'name') return undefined;
  return definitionObjectOf(target.object);
}

/** `case 'read_file':` of a switch on the requested name: the tool, with the case body as its region. */
export function recogniseDispatchCase(node: TSESTree.SwitchCase, filePath?: string): ToolDefinition | undefined {
  if (!node.test || !mayDispatchIn(node, filePath)) return undefined;
  const name = resolveToolName(node.test);
  if (name === undefined) return undefined;
  const switchStatement = node.parent;
  if (switchStatement?.type !== AST_NODE_TYPES.SwitchStatement) return undefined;
  const dispatcher = findDispatcher(switchStatement.discriminant, filePath);
  if (!dispatcher) return undefined;
  // `case 'a': case 'b': …`: both run the next body.
  const cases = switchStatement.cases;
  const region = cases.slice(cases.indexOf(node)).find((switchCase) => switchCase.consequent.length > 0) ?? node;
  return dispatchDefinition(node, name, dispatcher, region);
}

/**
 * The comparison an `if` on the requested name makes: the test itself, or (a tool answering to
 * several names, `name === 'memory_store' || name === 'memory.store'`) the first of an `||` of
 * comparisons, which names the tool; the other names are its aliases.
 */
function nameComparison(test: TSESTree.Expression): TSESTree.BinaryExpression | undefined {
  let target = test;
  while (target.type === AST_NODE_TYPES.LogicalExpression && target.operator === '||') target = target.left;
  if (target.type !== AST_NODE_TYPES.BinaryExpression) return undefined;
  if (target !== test && target.operator !== '===' && target.operator !== '==') return undefined;
  return target;
}

/**
 * `if (!isSupportedToolName(toolName)) { writeError(…); return; }`: a guard that asks a function of the
 * module whether the requested name is the tool's, the function comparing its parameter with one name
 * (`return name === TOOL_NAME || TOOL_ALIASES.includes(name)`). The name it compares with, and the
 * name the guard hands it; undefined for any other test.
 */
function predicateGuard(test: TSESTree.Expression): { name: string; discriminant: TSESTree.Node } | undefined {
  const target = skipTypeWrappers(test);
  if (target.type !== AST_NODE_TYPES.UnaryExpression || target.operator !== '!') return undefined;
  const call = skipTypeWrappers(target.argument);
  if (call.type !== AST_NODE_TYPES.CallExpression || call.callee.type !== AST_NODE_TYPES.Identifier || call.arguments.length !== 1) {
    return undefined;
  }
  const program = programOf(call);
  const path = program ? programPath(program) : undefined;
  const predicate = program && path !== undefined ? programFileIndex(program, path).functions.get(call.callee.name) : undefined;
  const parameter = predicate?.params[0];
  if (!predicate || parameter?.type !== AST_NODE_TYPES.Identifier) return undefined;
  const returned = soleReturnedExpression(predicate);
  const comparison = returned ? nameComparison(returned) : undefined;
  if (!comparison || (comparison.operator !== '===' && comparison.operator !== '==')) return undefined;
  const isParameter = (side: TSESTree.Node): boolean => side.type === AST_NODE_TYPES.Identifier && side.name === parameter.name;
  const named = isParameter(comparison.left) ? comparison.right : isParameter(comparison.right) ? comparison.left : undefined;
  const name = named ? resolveToolName(named) : undefined;
  return name === undefined ? undefined : { name, discriminant: call.arguments[0]! };
}

/** `if (name === 'read_file') { … }` on the requested name: the tool, with the branch as its region. */
export function recogniseDispatchBranch(node: TSESTree.IfStatement, filePath?: string): ToolDefinition | undefined {
  const test = nameComparison(node.test);
  if (!test) return recognisePredicateGuard(node, filePath);
  const equal = test.operator === '===' || test.operator === '==';
  const guard = (test.operator === '!==' || test.operator === '!=') && !node.alternate && exits(node.consequent);
  // A guard is the tool only as a statement of the handler's block: the rest of that block is its branch.
  const block = node.parent;
  if (!equal && (!guard || block?.type !== AST_NODE_TYPES.BlockStatement)) return undefined;
  if (!mayDispatchIn(node, filePath)) return undefined;
  const leftName = resolveToolName(test.left);
  const name = leftName ?? resolveToolName(test.right);
  if (name === undefined) return undefined;
  const discriminant = leftName === undefined ? test.left : test.right;
  const dispatcher = findDispatcher(discriminant, filePath);
  if (!dispatcher) return undefined;
  return dispatchDefinition(node, name, dispatcher, equal ? node.consequent : block!);
}

/** A guard through the module's predicate (`predicateGuard`): the rest of the handler's block is the one tool's branch. */
function recognisePredicateGuard(node: TSESTree.IfStatement, filePath?: string): ToolDefinition | undefined {
  const block = node.parent;
  if (node.alternate || block?.type !== AST_NODE_TYPES.BlockStatement || !exits(node.consequent)) return undefined;
  // Cheap before the module's index: the test must be `!f(x)`.
  if (node.test.type !== AST_NODE_TYPES.UnaryExpression || !mayDispatchIn(node, filePath)) return undefined;
  const guard = predicateGuard(node.test);
  if (!guard) return undefined;
  const dispatcher = findDispatcher(guard.discriminant, filePath);
  return dispatcher ? dispatchDefinition(node, guard.name, dispatcher, block) : undefined;
}

/**
 * `if (name !== 'imageFetch') throw new Error(…)` (@kazuph/mcp-fetch): a
 * guard that rejects every name but one makes the rest of the handler that
 * one tool's branch. The guard's body must leave (throw or return).
 */
function exits(statement: TSESTree.Statement): boolean {
  if (statement.type === AST_NODE_TYPES.ThrowStatement || statement.type === AST_NODE_TYPES.ReturnStatement) return true;
  if (statement.type !== AST_NODE_TYPES.BlockStatement) return false;
  const last = statement.body[statement.body.length - 1];
  return last !== undefined && exits(last);
}
