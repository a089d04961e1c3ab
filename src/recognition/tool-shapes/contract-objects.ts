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

import {
  findProperty,
  getMemberPath,
  getStaticKeyName,
  type FunctionNode,
  isFunctionNode,
  moduleLevelDeclaration,
  namedDeclaratorOf,
  programOf,
  skipTypeWrappers,
  walk,
} from '../ast.js';
import { moduleLevelFunctions } from '../file-index.js';
import { moduleText } from '../module-graph.js';
import type { RecognitionSettings } from '../settings.js';
import { nameWords } from '../state-mutation/expressions.js';
import { statesContract, toolContract } from '../tool-contract.js';
import { resolveToolName } from '../tool-name.js';
import {
  type ToolDefinition,
  handlerInputParameter,
  isHandlerFactoryMember,
  isInvocationValue,
  objectLiteralDefinition,
} from './vocabulary.js';

/**
 * Invocation members harnesses write besides the configured ones (`settings.invocationNames`); `function` is the
 * OpenAI SDK's runnable tool (`{ function: async (args) => …, name, description, parse, parameters }` for `runTools`);
 * `tool` is the member of the tools Speakeasy generates.
 */
const HARNESS_INVOCATION_NAMES = [
  'handle',
  'resolver',
  'logic',
  'callback',
  'implementation',
  'impl',
  'fn',
  'exec',
  'action',
  'perform',
  'function',
  // Speakeasy's generated MCP servers: `{ name, description, args, tool: async (client, args, ctx) => … }`.
  'tool',
];

/** The invocation members the object carries, by name. */
function invocationMembers(object: TSESTree.ObjectExpression, settings: RecognitionSettings): string[] {
  const names: string[] = [];
  for (const property of object.properties) {
    if (property.type !== AST_NODE_TYPES.Property) continue;
    const name = getStaticKeyName(property.key, property.computed);
    if (name !== undefined && isHandlerFactoryMember(name, property.value)) {
      names.push(name);
      continue;
    }
    if (name === undefined || (!settings.invocationNames.includes(name) && !HARNESS_INVOCATION_NAMES.includes(name))) continue;
    const value = skipTypeWrappers(property.value);
    if (isInvocationValue(value) || value.type === AST_NODE_TYPES.CallExpression) names.push(name);
  }
  return names;
}

/** Members by which an action tells the model when to use it (see `recogniseContractObject`). */
const USE_MEMBERS = ['similes', 'examples', 'validate'];

/**
 * Which parameter of the invocation holds the model's input: the first, unless the first is
 * named as the harness's context and a later one as the input (`handle(context, params)`).
 */
function inputParameterOf(object: TSESTree.ObjectExpression, members: readonly string[]): number | undefined {
  for (const property of object.properties) {
    if (property.type !== AST_NODE_TYPES.Property) continue;
    const name = getStaticKeyName(property.key, property.computed);
    if (name === undefined || !members.includes(name)) continue;
    const value = skipTypeWrappers(property.value);
    if (!isFunctionNode(value)) continue;
    const input = handlerInputParameter(value);
    return input === 0 ? undefined : input;
  }
  return undefined;
}

/**
 * Is the object what a factory of the module hands back (`var tool = () => ({ … })`, `function tool() {
 * return { … } }`)? Not when the function is handed to a call (`defineTool((args) => ({ … }))`): that
 * call is the registration, recognised as such.
 */
function isReturnedByFunction(object: TSESTree.ObjectExpression): boolean {
  const parent = object.parent;
  let fn: TSESTree.Node | undefined;
  if (parent?.type === AST_NODE_TYPES.ArrowFunctionExpression && parent.body === object) fn = parent;
  else if (parent?.type === AST_NODE_TYPES.ReturnStatement && parent.argument === object) {
    for (fn = parent.parent; fn && !isFunctionNode(fn); fn = fn.parent);
  }
  return fn !== undefined && fn.parent?.type !== AST_NODE_TYPES.CallExpression && fn.parent?.type !== AST_NODE_TYPES.NewExpression;
}

/**
 * `const toolDefinition = { type: 'function', function: { name, description, parameters } };
 * return Object.assign(toolDefinition, { execute: async (input) => … })`: a definition that carries
 * no invocation of its own, given one in the block that declares it. The function assigned is its invocation.
 */
function assignedInvocation(object: TSESTree.ObjectExpression, settings: RecognitionSettings): TSESTree.Node | undefined {
  const declarator = namedDeclaratorOf(object);
  if (!declarator) return undefined;
  const name = declarator.id.name;
  const block = declarator.parent?.parent;
  if (block?.type !== AST_NODE_TYPES.BlockStatement) return undefined;
  // Cheap tests first: a definition (a description, or a nested `function` one) in a module that spells the assignment.
  if (!findProperty(object, 'description') && !findProperty(object, 'function')) return undefined;
  const program = programOf(object);
  const text = program ? moduleText(program) : undefined;
  if (text !== undefined && !text.includes('Object.assign(')) return undefined;
  let invocation: TSESTree.Node | undefined;
  walk(block, (node) => {
    if (invocation) return false;
    if (node.type !== AST_NODE_TYPES.CallExpression || getMemberPath(node.callee)?.join('.') !== 'Object.assign') return undefined;
    const [target, ...sources] = node.arguments;
    if (target?.type !== AST_NODE_TYPES.Identifier || target.name !== name) return undefined;
    for (const source of sources) {
      const assigned = source.type === AST_NODE_TYPES.ObjectExpression ? source : undefined;
      const member = assigned ? invocationMembers(assigned, settings)[0] : undefined;
      const value = member === undefined ? undefined : skipTypeWrappers(findProperty(assigned!, member)!.value);
      if (value && isFunctionNode(value)) invocation = value;
    }
    return undefined;
  });
  return invocation;
}

/** Words before a tool's name in the function that runs it: `handleReadFile`, `executeReadFile`, `runReadFile`. */
const RUNNER_PREFIXES = ['', 'handle', 'execute', 'run'];

/**
 * `export const memoryGetToolDefinition = { name: 'memory_get', description, parameters }` beside
 * `export async function memoryGet(memory, params)`: a definition at the top of a module, with no
 * invocation of its own, and a function of that module named for the tool (its name in camelCase,
 * alone, with `Tool` after it, or after `handle`, `execute` or `run`). The module pairs them by the
 * name the model calls, and that function is the invocation.
 */
function nameSakeFunction(object: TSESTree.ObjectExpression): FunctionNode | undefined {
  // Cheap tests first (most object literals are none of this): a module-level constant with a name and a description.
  const declarator = namedDeclaratorOf(object);
  const level = declarator ? moduleLevelDeclaration(declarator) : undefined;
  const nameProperty = level && findProperty(object, 'description') ? findProperty(object, 'name') : undefined;
  if (!level || !nameProperty) return undefined;
  const toolName = resolveToolName(nameProperty.value);
  const words = toolName === undefined ? [] : nameWords(toolName);
  if (words.length === 0) return undefined;
  const pascal = words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');
  const camel = pascal[0]!.toLowerCase() + pascal.slice(1);
  const functions = moduleLevelFunctions(level.program);
  const wanted = [camel, `${camel}Tool`, ...RUNNER_PREFIXES.slice(1).map((prefix) => prefix + pascal)];
  for (const name of wanted) {
    const fn = functions.get(name);
    if (fn) return fn;
  }
  return undefined;
}

export function recogniseContractObject(object: TSESTree.ObjectExpression, settings: RecognitionSettings): ToolDefinition | undefined {
  const members = invocationMembers(object, settings);
  if (members.length === 0) {
    const assigned = assignedInvocation(object, settings) ?? nameSakeFunction(object);
    if (!assigned || !statesContract(object)) return undefined;
    const definition = objectLiteralDefinition('plain-object', object, undefined, assigned);
    return { ...definition, name: toolContract(definition).name };
  }
  const definition = objectLiteralDefinition('plain-object', object);
  // Read once (cached per node): the verdict asks for the same contract later.
  const contract = toolContract(definition);
  // A tool with no input states no schema: handed to a helper call (`createAction({ name, description,
  // resolver })`), its name and description are its contract.
  const handedToCall = object.parent?.type === AST_NODE_TYPES.CallExpression && object.parent.arguments.includes(object);
  // An action that takes no schema tells the model when to use it instead (ElizaOS's `{ name, similes,
  // description, validate, handler, examples }`): examples of use, other names, or an availability check.
  const statesUse = contract.name !== undefined && USE_MEMBERS.some((member) => findProperty(object, member) !== undefined);
  // A factory's `{ name: 'dashboard-create', schema, handler }` (PostHog's toolkit): a name of its own, a
  // schema and an invocation, the description kept elsewhere (a manifest keyed by the name).
  const namedFactoryResult =
    contract.hasInputSchema && isReturnedByFunction(object) && resolveToolName(findProperty(object, 'name')?.value) !== undefined;
  if (
    !namedFactoryResult &&
    (!contract.statesDescription || (!contract.hasInputSchema && !((handedToCall || statesUse) && contract.name !== undefined)))
  ) {
    return undefined;
  }
  // The name the contract states (`schema: { name, … }`, `function: { name }`, a spread) before the
  // variable it is bound to (the contract falls back to that).
  const name = contract.name;
  const inputParameter = inputParameterOf(object, members);
  return {
    ...definition,
    name,
    invocationMembers: [...new Set([...settings.invocationNames, ...members])],
    ...(inputParameter === undefined ? {} : { inputParameter }),
  };
}
