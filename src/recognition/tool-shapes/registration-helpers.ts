/**
 * A package's own registration helper: a function that hands its parameters
 * to an MCP registration, called once per tool.
 *
 *   function registerToolConditional(toolName, schema, handler) {
 *     if (isToolEnabled(toolName)) server.registerTool(toolName, schema, handler);
 *   }
 *   registerToolConditional('ssh_execute', { description, inputSchema }, async (args) => …);
 *
 *   export function registerDatabaseTool(server, name, config, handler) {
 *     server.registerTool(name, { description: config.description, … }, async (args) => handler(args, client()));
 *   }
 *
 * The model sees one tool per call of the helper, named by the argument the
 * helper passes on as the registration's name. So each call is the tool:
 * its name argument, its config object (the one the helper spreads or reads
 * the description and schema from) and its handler argument. The
 * registration inside the helper names no tool of its own (its name is a
 * parameter); `recogniseMcpRegistration` leaves it to the calls. The helper
 * may live in the same module or be imported from one (named, namespace or
 * tsc's `(0, helpers_1.register)(…)`).
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type FunctionNode, getCalleeLastName, getStaticKeyName, isFunctionNode, programOf, skipTypeWrappers, walk } from '../ast.js';
import { type FileIndex, programFileIndex, programPath } from '../file-index.js';
import { type ResolvedFunction, moduleText, resolveImportedName, resolveLocalName } from '../module-graph.js';
import { statesContract } from '../tool-contract.js';
import { mayHoldToolName } from '../tool-name.js';
import { type ToolDefinition, isFunctionLikeArgument, mcpRegistrationDefinition } from './vocabulary.js';

/** Which of the helper's parameters become the registration's name, config, description and handler. */
export interface RegistrationHelper {
  nameIndex: number;
  configIndex: number | undefined;
  handlerIndex: number;
  /**
   * Does a `_meta` written into the call's config reach the server: the helper hands that parameter
   * to `registerTool` whole, and declares no type for it that a new member would contradict?
   */
  metaReachesServer: boolean;
  /**
   * The function the helper registers around the handler (`async (args) => handler(args, client())`),
   * with its file: it runs on every call of every tool the helper registers.
   */
  wrapper: { fn: FunctionNode; file: FileIndex; helper: string } | undefined;
}

const REGISTRATION_METHODS = new Set(['tool', 'registerTool']);

/** `server.tool(…)` / `server.registerTool(…)`: the SDK registration a helper hands its parameters to. */
function isRegistrationCall(call: TSESTree.CallExpression): boolean {
  const callee = call.callee;
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return false;
  const method = getStaticKeyName(callee.property, callee.computed);
  return method !== undefined && REGISTRATION_METHODS.has(method) && call.arguments.length >= 2;
}

function parameterNames(fn: FunctionNode): (string | undefined)[] {
  return fn.params.map((parameter) => {
    const target = parameter.type === AST_NODE_TYPES.AssignmentPattern ? parameter.left : parameter;
    return target.type === AST_NODE_TYPES.Identifier ? target.name : undefined;
  });
}

/** The parameter `node` names, if it is one of `names` (a plain identifier). */
function parameterIndex(node: TSESTree.Node | undefined, names: (string | undefined)[]): number {
  const target = node ? skipTypeWrappers(node) : undefined;
  return target?.type === AST_NODE_TYPES.Identifier ? names.indexOf(target.name) : -1;
}

/** The parameter a config argument is built from: itself, spread (`{ ...config }`) or read (`config.description`). */
function configParameter(node: TSESTree.Node | undefined, names: (string | undefined)[]): number {
  if (!node) return -1;
  const direct = parameterIndex(node, names);
  if (direct >= 0) return direct;
  const target = skipTypeWrappers(node);
  if (target.type !== AST_NODE_TYPES.ObjectExpression) return -1;
  let found = -1;
  walk(target, (inner) => {
    if (found >= 0) return false;
    if (isFunctionNode(inner)) return false;
    if (inner.type === AST_NODE_TYPES.SpreadElement) found = parameterIndex(inner.argument, names);
    else if (inner.type === AST_NODE_TYPES.MemberExpression) found = parameterIndex(inner.object, names);
    return undefined;
  });
  return found;
}

/** The parameter a handler argument runs: itself, or the one a function registered around it calls. */
function handlerParameter(node: TSESTree.Node, names: (string | undefined)[]): { index: number; wrapper: FunctionNode | undefined } {
  const direct = parameterIndex(node, names);
  if (direct >= 0) return { index: direct, wrapper: undefined };
  const target = skipTypeWrappers(node);
  if (!isFunctionNode(target)) return { index: -1, wrapper: undefined };
  let index = -1;
  walk(target.body, (inner) => {
    if (index >= 0) return false;
    if (inner.type === AST_NODE_TYPES.CallExpression) index = parameterIndex(inner.callee, names);
    return undefined;
  });
  return { index, wrapper: index >= 0 ? target : undefined };
}

const helpers = new WeakMap<FunctionNode, RegistrationHelper | null>();

/** What a function does with its parameters when it is a registration helper; undefined when it is none. */
export function registrationHelperOf(resolved: ResolvedFunction): RegistrationHelper | undefined {
  const cached = helpers.get(resolved.fn);
  if (cached !== undefined) return cached ?? undefined;
  const names = parameterNames(resolved.fn);
  let helper: RegistrationHelper | undefined;
  walk(resolved.fn.body, (node) => {
    if (helper) return false;
    if (node !== resolved.fn.body && isFunctionNode(node)) return false;
    if (node.type !== AST_NODE_TYPES.CallExpression || !isRegistrationCall(node)) return undefined;
    const nameIndex = parameterIndex(node.arguments[0], names);
    const last = node.arguments[node.arguments.length - 1]!;
    const handler = handlerParameter(last, names);
    if (nameIndex < 0 || handler.index < 0) return undefined;
    const configs = node.arguments.slice(1, -1).map((argument) => configParameter(argument, names));
    const configIndex = configs.find((index) => index >= 0);
    const method =
      node.callee.type === AST_NODE_TYPES.MemberExpression ? getStaticKeyName(node.callee.property, node.callee.computed) : undefined;
    const configParam = configIndex === undefined ? undefined : resolved.fn.params[configIndex];
    const metaReachesServer =
      method === 'registerTool' &&
      configIndex !== undefined &&
      parameterIndex(node.arguments[1], names) === configIndex &&
      configParam?.type === AST_NODE_TYPES.Identifier &&
      configParam.typeAnnotation === undefined;
    helper = {
      nameIndex,
      configIndex,
      metaReachesServer,
      handlerIndex: handler.index,
      wrapper: handler.wrapper ? { fn: handler.wrapper, file: resolved.file, helper: resolved.name } : undefined,
    };
    return false;
  });
  helpers.set(resolved.fn, helper ?? null);
  return helper;
}

/** The function a call's callee names, in this module or one it imports. */
function calledFunction(call: TSESTree.CallExpression): ResolvedFunction | undefined {
  let callee = skipTypeWrappers(call.callee);
  // tsc's CommonJS: `(0, helpers_1.register)(…)`.
  if (callee.type === AST_NODE_TYPES.SequenceExpression) callee = callee.expressions[callee.expressions.length - 1]!;
  const local =
    callee.type === AST_NODE_TYPES.Identifier
      ? callee
      : callee.type === AST_NODE_TYPES.MemberExpression && callee.object.type === AST_NODE_TYPES.Identifier
        ? callee.object
        : undefined;
  if (!local) return undefined;
  const program = programOf(call);
  const filePath = program ? programPath(program) : undefined;
  if (!program || filePath === undefined || !declaredInText(moduleText(program), local.name)) return undefined;
  const file = programFileIndex(program, filePath);
  if (callee.type === AST_NODE_TYPES.Identifier) return resolveLocalName(file, callee.name);
  const binding = file.imports.get(local.name);
  const member = callee.type === AST_NODE_TYPES.MemberExpression ? getStaticKeyName(callee.property, callee.computed) : undefined;
  return binding?.imported === '*' && member !== undefined ? resolveImportedName(file, binding.module, member) : undefined;
}

/**
 * Can the file declare or import `name`? The call spells it once; a function
 * of the file or an import binding spells it again. Spelled once, it is a
 * global or a parameter's member, and the file's index (one walk of the whole
 * file) is not built for it. Without the text, the answer is yes.
 */
function declaredInText(text: string | undefined, name: string): boolean {
  if (text === undefined) return true;
  const first = text.indexOf(name);
  return first >= 0 && text.indexOf(name, first + name.length) >= 0;
}

/**
 * Cheap test before any lookup (most calls of a file are no registration): the call hands over a
 * name (a string or a constant) and a handler written inline, and beside the name a config: an
 * object written out, or one the code names (`registerTool(server, 'get_context', contextResource.inputSchema, async (…) => …)`).
 */
function mayBeHelperCall(call: TSESTree.CallExpression): boolean {
  if (call.arguments.length < 3 || isRegistrationCall(call)) return false;
  const callee = skipTypeWrappers(call.callee);
  if (callee.type !== AST_NODE_TYPES.Identifier && callee.type !== AST_NODE_TYPES.MemberExpression) return false;
  let inlineHandler = false;
  let config = false;
  let name = false;
  let others = 0;
  for (const argument of call.arguments) {
    const target = skipTypeWrappers(argument);
    if (isFunctionNode(target)) inlineHandler = true;
    else if (target.type === AST_NODE_TYPES.ObjectExpression) config = true;
    else {
      if (mayHoldToolName(target)) name = true;
      others += 1;
    }
  }
  return inlineHandler && name && (config || others >= 2);
}

const recognised = new WeakMap<TSESTree.CallExpression, ToolDefinition | null>();
/** Calls that passed the cheap test and whose helper is not in this package (`recogniseForeignHelperRegistration`). */
const unresolvedHelperCalls = new WeakSet<TSESTree.CallExpression>();

export function recogniseHelperRegistration(call: TSESTree.CallExpression): ToolDefinition | undefined {
  // Most calls fail the cheap test: nothing is kept for them.
  if (!mayBeHelperCall(call)) return undefined;
  const cached = recognised.get(call);
  if (cached !== undefined) return cached ?? undefined;
  let definition: ToolDefinition | undefined;
  const resolved = calledFunction(call);
  if (!resolved) unresolvedHelperCalls.add(call);
  const helper = resolved ? registrationHelperOf(resolved) : undefined;
  const nameArgument = helper ? call.arguments[helper.nameIndex] : undefined;
  const handler = helper ? call.arguments[helper.handlerIndex] : undefined;
  if (helper && nameArgument && handler && isFunctionLikeArgument(handler) && mayHoldToolName(skipTypeWrappers(nameArgument))) {
    const config = helper.configIndex === undefined ? undefined : call.arguments[helper.configIndex];
    const configTarget = config ? skipTypeWrappers(config) : undefined;
    const host = configTarget?.type === AST_NODE_TYPES.ObjectExpression ? configTarget : undefined;
    definition = {
      ...mcpRegistrationDefinition(call, skipTypeWrappers(nameArgument), host, handler),
      registeredThrough: { helper: resolved!.name, metaReachesServer: helper.metaReachesServer },
      ...(helper.wrapper ? { registrationWrapper: helper.wrapper } : {}),
    };
  }
  recognised.set(call, definition ?? null);
  return definition;
}

/**
 * A call of a helper this package does not define (`registerAppTool` of the MCP apps extension,
 * a framework's own wrapper) that hands over a tool name, right after it a config object stating
 * the whole contract (a description and an input schema), and last an inline handler: the call
 * is the tool, as a call of the package's own helper is. Asked last, after every shape the
 * call may have: a factory or registration we know by name keeps its own reading.
 */
export function recogniseForeignHelperRegistration(call: TSESTree.CallExpression): ToolDefinition | undefined {
  // Only a call that passed the cheap test and names no helper of this package (asked once, then kept).
  if (!unresolvedHelperCalls.has(call)) {
    recogniseHelperRegistration(call);
    if (!unresolvedHelperCalls.has(call)) return undefined;
  }
  const handler = call.arguments[call.arguments.length - 1];
  if (!handler || !isFunctionNode(skipTypeWrappers(handler))) return undefined;
  for (let index = 0; index + 2 < call.arguments.length; index += 1) {
    const nameArgument = skipTypeWrappers(call.arguments[index]!);
    const config = skipTypeWrappers(call.arguments[index + 1]!);
    if (
      nameArgument.type === AST_NODE_TYPES.Literal &&
      typeof nameArgument.value === 'string' &&
      config.type === AST_NODE_TYPES.ObjectExpression &&
      statesContract(config)
    ) {
      const helper = getCalleeLastName(call) ?? 'helper';
      return {
        ...mcpRegistrationDefinition(call, nameArgument, config, handler),
        registeredThrough: { helper, metaReachesServer: false },
      };
    }
  }
  return undefined;
}

/**
 * Is this registration the one inside a helper, named by the helper's parameter (`server.registerTool(toolName, …)`
 * in `function registerToolConditional(toolName, schema, handler)`)? Its calls are the tools.
 */
export function isHelperInnerRegistration(call: TSESTree.CallExpression): boolean {
  const name = call.arguments[0] ? skipTypeWrappers(call.arguments[0]) : undefined;
  if (name?.type !== AST_NODE_TYPES.Identifier) return false;
  for (let current: TSESTree.Node | undefined = call.parent; current; current = current.parent) {
    if (!isFunctionNode(current)) continue;
    const names = parameterNames(current);
    if (!names.includes(name.name)) return false;
    return handlerParameter(call.arguments[call.arguments.length - 1]!, names).index >= 0;
  }
  return false;
}
