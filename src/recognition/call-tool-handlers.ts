/**
 * Which functions of a low-level MCP server handle `CallToolRequestSchema`
 * requests and pick the tool by the requested name: the handler given to
 * `server.setRequestHandler(CallToolRequestSchema, …)`, the functions it
 * passes the request on to, and the functions it calls with the name and the
 * arguments. Two shapes need it: the dispatcher's own branches
 * (`tool-shapes/mcp-low-level.ts`) and tool list entries joined to a
 * dispatcher by name (`tool-shapes/name-dispatch.ts`). Without it, a server
 * that serves every tool from one handler hides all of them from the checks
 * for circular persistence and state leakage.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import {
  type FunctionNode,
  boundFunctionName,
  findProperty,
  getCalleeLastName,
  getMemberPath,
  getStringValue,
  isAwaiterBody,
  isFunctionNode,
  programOf,
  skipTypeWrappers,
  walk,
} from './ast.js';
import { moduleText } from './module-graph.js';
import { configName } from './tool-name.js';

const CALL_TOOL_SCHEMA = 'CallToolRequestSchema';
/** The protocol method the schema stands for: MCP SDK 2's `setRequestHandler('tools/call', …)` names it directly. */
const CALL_TOOL_METHOD = 'tools/call';

/** Does a `setRequestHandler` call's first argument name the call-tool request, by its schema or its method? */
function namesCallToolRequest(argument: TSESTree.Node | undefined): boolean {
  if (!argument) return false;
  if (getStringValue(argument) === CALL_TOOL_METHOD) return true;
  const schema = getMemberPath(argument);
  return schema?.[schema.length - 1] === CALL_TOOL_SCHEMA;
}
/** How many functions out from a branch the dispatcher may be (`(async () => { if (name === 'x') … })()` in the handler). */
const MAX_CALLBACK_DEPTH = 3;

/** What one program holds of the low-level server, found in one walk. */
interface DispatchFacts {
  /**
   * Functions that receive the whole request, by which parameter: handlers
   * given to `setRequestHandler(CallToolRequestSchema, …)` (through any
   * wrapper calls), and functions a handler passes its request on to, by name.
   */
  handlers: Map<FunctionNode, number>;
  requestDelegates: Map<string, number>;
  /** Functions a handler calls with the requested name and arguments: where each goes. */
  delegates: Map<string, { nameIndex: number; inputIndex: number }>;
  /** Entries of a tool list (`{ name: 'x', inputSchema }` in an array), by name. */
  listEntries: Map<string, TSESTree.ObjectExpression>;
}

const factsByProgram = new WeakMap<TSESTree.Program, DispatchFacts>();
/** The facts of a file with no `CallToolRequestSchema` handler: nothing to dispatch (never written to). */
const NO_DISPATCH_FACTS: DispatchFacts = { handlers: new Map(), requestDelegates: new Map(), delegates: new Map(), listEntries: new Map() };

/** `request.params.<field>` (also `request.params.arguments ?? {}`): the path's root, else undefined. */
function requestParamsRoot(node: TSESTree.Node | null | undefined, field: string): string | undefined {
  if (!node) return undefined;
  let target = skipTypeWrappers(node);
  if (target.type === AST_NODE_TYPES.LogicalExpression) target = skipTypeWrappers(target.left);
  const path = getMemberPath(target);
  return path?.length === 3 && path[1] === 'params' && path[2] === field ? path[0] : undefined;
}

/** The functions among a call's arguments, also inside wrapper calls (`wrap('CallTool', async (request) => …)`). */
function functionArguments(call: TSESTree.CallExpression, into: FunctionNode[] = []): FunctionNode[] {
  for (const argument of call.arguments) {
    const target = skipTypeWrappers(argument);
    if (isFunctionNode(target)) into.push(target);
    else if (target.type === AST_NODE_TYPES.CallExpression) functionArguments(target, into);
  }
  return into;
}

function collectDelegates(handler: FunctionNode, requestIndex: number, facts: DispatchFacts): void {
  const request = handler.params[requestIndex];
  const requestName = request?.type === AST_NODE_TYPES.Identifier ? request.name : undefined;
  walk(handler.body, (node) => {
    if (node.type !== AST_NODE_TYPES.CallExpression || node.callee.type !== AST_NODE_TYPES.Identifier) return;
    const nameIndex = node.arguments.findIndex((argument) => requestParamsRoot(argument, 'name') !== undefined);
    const inputIndex = node.arguments.findIndex((argument) => requestParamsRoot(argument, 'arguments') !== undefined);
    if (nameIndex >= 0 && inputIndex >= 0) facts.delegates.set(node.callee.name, { nameIndex, inputIndex });
    const passed = node.arguments.findIndex((argument) => argument.type === AST_NODE_TYPES.Identifier && argument.name === requestName);
    if (requestName !== undefined && passed >= 0) facts.requestDelegates.set(node.callee.name, passed);
  });
}

function collectFacts(program: TSESTree.Program): DispatchFacts {
  const facts: DispatchFacts = { handlers: new Map(), requestDelegates: new Map(), delegates: new Map(), listEntries: new Map() };
  walk(program, (node) => {
    if (node.type === AST_NODE_TYPES.CallExpression && getCalleeLastName(node) === 'setRequestHandler') {
      if (namesCallToolRequest(node.arguments[0])) {
        for (const handler of functionArguments(node)) {
          facts.handlers.set(handler, 0);
          collectDelegates(handler, 0, facts);
        }
      }
    } else if (node.type === AST_NODE_TYPES.ObjectExpression && node.parent?.type === AST_NODE_TYPES.ArrayExpression) {
      const name = configName(node);
      if (name !== undefined && findProperty(node, 'inputSchema') && !facts.listEntries.has(name)) facts.listEntries.set(name, node);
    }
  });
  return facts;
}

function dispatchFacts(node: TSESTree.Node): DispatchFacts | undefined {
  const program = programOf(node);
  if (!program) return undefined;
  let facts = factsByProgram.get(program);
  if (!facts) {
    // Every handler, and so every delegate, hangs on a `setRequestHandler(CallToolRequestSchema, …)`
    // the text spells: a file that spells none (most of a bundle's chunks) is not walked.
    const text = moduleText(program);
    facts =
      text !== undefined && !text.includes(CALL_TOOL_SCHEMA) && !text.includes(CALL_TOOL_METHOD)
        ? NO_DISPATCH_FACTS
        : collectFacts(program);
    factsByProgram.set(program, facts);
  }
  return facts;
}

/** The functions around `node`, innermost first (a branch may sit in a callback inside the handler). */
function enclosingFunctions(node: TSESTree.Node, limit: number): FunctionNode[] {
  const found: FunctionNode[] = [];
  for (let current = node.parent; current && found.length < limit; current = current.parent) {
    if (isFunctionNode(current)) found.push(current);
  }
  return found;
}

function parameterIndex(fn: FunctionNode, name: string): number {
  return fn.params.findIndex((parameter) => parameter.type === AST_NODE_TYPES.Identifier && parameter.name === name);
}

const nameBindings = new WeakMap<FunctionNode, Map<string, string | undefined>>();

/** `const { name } = request.params` / `const name = request.params.name` in `fn`: the request's root name. */
function requestOfNameBinding(fn: FunctionNode, name: string): string | undefined {
  let byName = nameBindings.get(fn);
  if (!byName) nameBindings.set(fn, (byName = new Map()));
  if (byName.has(name)) return byName.get(name);
  const root = findRequestOfNameBinding(fn, name);
  byName.set(name, root);
  return root;
}

function findRequestOfNameBinding(fn: FunctionNode, name: string): string | undefined {
  let root: string | undefined;
  walk(fn.body, (node) => {
    if (root !== undefined) return false;
    if (node !== fn.body && isFunctionNode(node) && !isAwaiterBody(node)) return false;
    if (node.type !== AST_NODE_TYPES.VariableDeclarator || !node.init) return undefined;
    if (node.id.type === AST_NODE_TYPES.Identifier && node.id.name === name) {
      root = requestParamsRoot(node.init, 'name');
    } else if (node.id.type === AST_NODE_TYPES.ObjectPattern) {
      const binds = node.id.properties.some(
        (property) =>
          property.type === AST_NODE_TYPES.Property &&
          property.key.type === AST_NODE_TYPES.Identifier &&
          property.key.name === 'name' &&
          property.value.type === AST_NODE_TYPES.Identifier &&
          property.value.name === name,
      );
      const path = binds ? getMemberPath(skipTypeWrappers(node.init)) : undefined;
      if (path?.length === 2 && path[1] === 'params') root = path[0];
    }
    return undefined;
  });
  return root;
}

/**
 * Can a branch in `node`'s file dispatch tool calls? Every handler and
 * delegate hangs on a `setRequestHandler(CallToolRequestSchema, …)` of the
 * file: in a file that spells none (nearly every file with a `switch` or an
 * `if` on a string), nothing can, whatever it compares, so the case's name is
 * not even resolved.
 */
export function mayDispatchIn(node: TSESTree.Node): boolean {
  return dispatchFacts(node) !== NO_DISPATCH_FACTS;
}

const dispatchers = new WeakMap<TSESTree.Node, { fn: FunctionNode; inputParameter: number } | null>();

/**
 * Is `discriminant` the requested tool name in a dispatcher? Then the
 * dispatcher and which of its parameters is the model's input: the
 * arguments object (or the whole request), never the name.
 */
export function findDispatcher(discriminant: TSESTree.Node): { fn: FunctionNode; inputParameter: number } | undefined {
  const cached = dispatchers.get(discriminant);
  if (cached !== undefined) return cached ?? undefined;
  let found: { fn: FunctionNode; inputParameter: number } | undefined;
  const target = skipTypeWrappers(discriminant);
  const functions = enclosingFunctions(discriminant, MAX_CALLBACK_DEPTH);
  // Cheap local evidence first: most `switch`/`if` on a string compare something
  // else, and only a requested name is worth the one walk that finds the handlers.
  const looksRequested =
    requestParamsRoot(target, 'name') !== undefined ||
    (target.type === AST_NODE_TYPES.Identifier &&
      functions.some(
        (fn) => requestOfNameBinding(fn, target.name) !== undefined || (fn.params.length >= 2 && parameterIndex(fn, target.name) >= 0),
      ));
  const facts = looksRequested ? dispatchFacts(discriminant) : undefined;
  for (const fn of facts ? functions : []) {
    const name = boundFunctionName(fn);
    const requestIndex = facts!.handlers.get(fn) ?? (name === undefined ? undefined : facts!.requestDelegates.get(name));
    if (requestIndex !== undefined) {
      const request = fn.params[requestIndex];
      const requestName = request?.type === AST_NODE_TYPES.Identifier ? request.name : undefined;
      const root =
        requestParamsRoot(target, 'name') ??
        (target.type === AST_NODE_TYPES.Identifier ? requestOfNameBinding(fn, target.name) : undefined);
      if (requestName !== undefined && root === requestName) found = { fn, inputParameter: requestIndex };
    } else if (target.type === AST_NODE_TYPES.Identifier) {
      const delegate = name === undefined ? undefined : facts!.delegates.get(name);
      if (delegate && parameterIndex(fn, target.name) === delegate.nameIndex) found = { fn, inputParameter: delegate.inputIndex };
    }
    if (found) break;
  }
  dispatchers.set(discriminant, found ?? null);
  return found;
}

/** The tool list entry (`{ name, inputSchema, … }`) of the file that names `name`, where its classification lives. */
export function listEntryNamed(node: TSESTree.Node, name: string): TSESTree.ObjectExpression | undefined {
  return dispatchFacts(node)?.listEntries.get(name);
}
