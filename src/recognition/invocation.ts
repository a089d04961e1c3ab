/**
 * Where a tool's invocation is — the code that runs when the model calls the
 * tool — and which of its values are the model's input.
 *
 * - Members named `call`, `execute`, `invoke`, `run`, `handler`, `_call`,
 *   `func` (settings add more): the first parameter is the input; later ones
 *   (a context, options, a signal) are not.
 * - The MCP handler argument, LangChain's `tool(fn, config)` function.
 * - gemini-cli's pattern: `createInvocation(params)` returns `new
 *   XInvocation(config, params, …)` for a class X in the same file; X's
 *   `execute` is the invocation and its input is what X was constructed with:
 *   the constructor parameter that received `params`, `this.params` (set by
 *   `super(params)`), and every `this.field` the constructor derives from it.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import {
  type ClassNode,
  type FunctionNode,
  classOfThis,
  collectBindingNames,
  containsNode,
  getStaticKeyName,
  isAwaiterBody,
  isClassNode,
  isFunctionNode,
  skipTypeWrappers,
  soleReturnedExpression,
  walk,
} from './ast.js';
import type { FileIndex } from './file-index.js';
import { type ResolvedFunction, resolveImportedName, resolveLocalName } from './module-graph.js';
import type { RecognitionSettings } from './settings.js';
import { type ToolDefinition, classMethods, isHandlerFactoryMember, returnedFunction, wrappedFunction } from './tool-shapes/vocabulary.js';

/** One function that runs on invocation, with what holds the model's input in it. */
export interface InvocationEntry {
  fn: FunctionNode;
  /** Parameters that are the model's input (by position). */
  inputParameters: number[];
  /** `this.<member>` values that are the model's input (invocation classes). */
  inputThisMembers: string[];
  /** The class the function is a method of, so `this.helper()` resolves. */
  classNode: ClassNode | undefined;
  /** For invocation classes, the class `createInvocation` builds. */
  invocationClass: ClassNode | undefined;
  /** Dispatcher tools: only reads and changes inside this node are this tool's (see `ToolDefinition.invocationRegion`). */
  region?: TSESTree.Node | undefined;
  /** The file the function lives in, when it is not the linted one (a tool joined by name across files). */
  file?: FileIndex | undefined;
  /**
   * A confirmation method (`shouldConfirmExecute`, `getConfirmationDetails`): it runs on
   * every call before the invocation, and the approval callback it returns ("proceed
   * always") records what later calls skip. Part of the call for state; its reads only
   * show the user what the call will do, so self-reading leaves it out.
   */
  confirmation?: boolean;
}

export interface Invocation {
  entries: InvocationEntry[];
}

/** Resolves `handler` / `execute: runRead` to a function of the same file. */
function resolveFunctionValue(value: TSESTree.Node | undefined, file: FileIndex | undefined): FunctionNode | undefined {
  if (!value) return undefined;
  const target = skipTypeWrappers(value);
  if (isFunctionNode(target)) return target;
  if (target.type === AST_NODE_TYPES.Identifier) return file?.functions.get(target.name);
  // `execute: withProjectRoot(async (args) => …)`: the wrapped function runs with the model's input.
  const wrapped = wrappedFunction(target);
  if (wrapped) {
    if (isFunctionNode(wrapped)) return wrapped;
    return wrapped.type === AST_NODE_TYPES.Identifier ? file?.functions.get(wrapped.name) : undefined;
  }
  // `handler: helpers.read.bind(helpers)` and the like are left unknown.
  return undefined;
}

/**
 * A handler another module exports: `server.tool(name, description, shape,
 * scrape_webpage_1.scrapeWebpageTool)` (tsc's CommonJS), `import * as tools`
 * then `tools.scrape`, or a named import `scrape`. What runs on a call is that
 * function, in its own file; without it the invocation would look empty and
 * the verdict would read "nothing it reads is chosen by the model".
 */
function resolveImportedHandler(value: TSESTree.Node | undefined, file: FileIndex | undefined): ResolvedFunction | undefined {
  if (!value || !file) return undefined;
  const target = skipTypeWrappers(value);
  if (target.type === AST_NODE_TYPES.Identifier) return resolveLocalName(file, target.name);
  // `wrapHandler(schema, handleCreateTask, service)`: the handler the wrapper is handed, imported.
  if (target.type === AST_NODE_TYPES.CallExpression) {
    const wrapped = wrappedFunction(target);
    if (wrapped?.type === AST_NODE_TYPES.MemberExpression) return resolveImportedHandler(wrapped, file);
    return wrapped?.type === AST_NODE_TYPES.Identifier ? resolveLocalName(file, wrapped.name) : undefined;
  }
  if (target.type !== AST_NODE_TYPES.MemberExpression || target.object.type !== AST_NODE_TYPES.Identifier) return undefined;
  const binding = file.imports.get(target.object.name);
  const member = getStaticKeyName(target.property, target.computed);
  if (binding?.imported !== '*' || member === undefined) return undefined;
  return resolveImportedName(file, binding.module, member);
}

/** Does a method's name say it asks for or records approval (`shouldConfirmExecute`, `getConfirmationDetails`, `requestApproval`)? */
function isConfirmationMethod(name: string): boolean {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_$-]+/)
    .some((word) => /^(?:confirm|approv)/i.test(word));
}

/** The confirmation methods of a class: they run as part of each call (see `InvocationEntry.confirmation`). */
function confirmationMethods(methods: Map<string, FunctionNode>, settings: RecognitionSettings): FunctionNode[] {
  return [...methods].filter(([name]) => !settings.invocationNames.includes(name) && isConfirmationMethod(name)).map(([, fn]) => fn);
}

/** Where a class's methods find the model's input: the same for its invocation and confirmation methods. */
type MethodInputs = Pick<InvocationEntry, 'inputParameters' | 'inputThisMembers' | 'classNode' | 'invocationClass'>;

/** The entries of a class: its invocation methods named `names` (in that order), then its confirmation methods. */
function classMethodEntries(
  methods: Map<string, FunctionNode>,
  names: readonly string[],
  settings: RecognitionSettings,
  inputs: MethodInputs,
): InvocationEntry[] {
  const invocationMethods = names.flatMap((name) => methods.get(name) ?? []);
  return [
    ...invocationMethods.map((fn) => ({ fn, ...inputs })),
    ...confirmationMethods(methods, settings).map((fn) => ({ fn, ...inputs, confirmation: true })),
  ];
}

export function getConstructor(classNode: ClassNode): FunctionNode | undefined {
  const constructor = classNode.body.body.find(
    (member): member is TSESTree.MethodDefinition => member.type === AST_NODE_TYPES.MethodDefinition && member.kind === 'constructor',
  );
  return isFunctionNode(constructor?.value) ? constructor.value : undefined;
}

/** `return new X(…)` in `createInvocation`: X and the argument positions that carry its input. */
function findBuiltInvocationClass(
  createInvocation: FunctionNode,
  file: FileIndex | undefined,
): { classNode: ClassNode; constructorInputs: number[] } | undefined {
  const inputNames = new Set(collectBindingNames(createInvocation.params[0]));
  let found: { classNode: ClassNode; constructorInputs: number[] } | undefined;
  walk(createInvocation.body, (node) => {
    if (found) return false;
    if (node !== createInvocation.body && isFunctionNode(node)) return false;
    if (node.type !== AST_NODE_TYPES.NewExpression || node.callee.type !== AST_NODE_TYPES.Identifier) return;
    const classNode = file?.classes.get(node.callee.name);
    if (!classNode) return;
    const constructorInputs = node.arguments.flatMap((argument, index) => {
      const target = skipTypeWrappers(argument);
      return target.type === AST_NODE_TYPES.Identifier && inputNames.has(target.name) ? [index] : [];
    });
    found = { classNode, constructorInputs: constructorInputs.length > 0 ? constructorInputs : [0] };
    return false;
  });
  return found;
}

/**
 * The invocation of a tool definition. `file` is the index of the file the
 * tool is in (named handlers and invocation classes are looked up there).
 */
/**
 * The name of a parameter that holds the call's context or its id, not the model's input: `context`, `_ctx`,
 * `toolContext`, `toolCallId`, `_toolCallId`, `callId`, `toolUseId`.
 */
const CONTEXT_PARAMETER = /^_*(?:ctx|context|[a-z]+(?:Context|Ctx)|(?:tool(?:Call|Use)?|call)Id)$/;

/**
 * Where a handler takes the model's input: the first parameter, unless the
 * shape says otherwise, or the function takes a context or the call's id first
 * (`execute(_context, params)`, `handle(ctx, args)`, `execute(toolCallId, args, signal)`): then the one after it,
 * or it takes something else first and names a later parameter for the model's arguments
 * (`handler(ollama, args, format)`): then that one.
 */
function inputPositions(fn: FunctionNode, definition: ToolDefinition): number[] {
  const positions = namedInputPositions(fn, definition);
  const carriers = parametersCarriers(fn).filter((index) => !positions.includes(index));
  return carriers.length === 0 ? positions : [...positions, ...carriers];
}

/**
 * A later parameter whose `parameters` the handler reads (`handler(runtime, message, state, options)` with
 * `options?.parameters?.url`: elizaOS hands an action the arguments the model filled in there) carries
 * the model's input too. Asked only of handlers of three parameters or more, where such an options bag sits.
 */
function parametersCarriers(fn: FunctionNode): number[] {
  if (fn.params.length < 3) return [];
  const names = new Map<string, number>();
  fn.params.forEach((parameter, index) => {
    const target = parameter.type === AST_NODE_TYPES.AssignmentPattern ? parameter.left : parameter;
    if (index > 0 && target.type === AST_NODE_TYPES.Identifier) names.set(target.name, index);
  });
  const found = new Set<number>();
  walk(fn.body, (node) => {
    if (node.type !== AST_NODE_TYPES.MemberExpression || node.object.type !== AST_NODE_TYPES.Identifier) return undefined;
    const index = names.get(node.object.name);
    if (index !== undefined && getStaticKeyName(node.property, node.computed) === 'parameters') found.add(index);
    return undefined;
  });
  return [...found];
}

function namedInputPositions(fn: FunctionNode, definition: ToolDefinition): number[] {
  if (definition.inputParameter !== undefined) return [definition.inputParameter];
  const first = fn.params[0];
  const name = first?.type === AST_NODE_TYPES.Identifier ? first.name : undefined;
  if (fn.params.length >= 2 && name !== undefined && CONTEXT_PARAMETER.test(name)) return [1];
  // `handler: async (ollama, args, format)`: a client handed first, the model's arguments after it, named so.
  if (name !== undefined && !INPUT_PARAMETER.test(name)) {
    const named = fn.params.findIndex(
      (parameter, index) => index > 0 && parameter.type === AST_NODE_TYPES.Identifier && INPUT_PARAMETER.test(parameter.name),
    );
    if (named > 0) return [named];
  }
  return [0];
}

/** The name of a parameter that holds the model's arguments: `args`, `input`, `params`, `toolArgs`. */
const INPUT_PARAMETER = /^_*(?:args|arguments|input|inputs|params|parameters|tool(?:Args|Input|Params))$/;

export function getInvocation(definition: ToolDefinition, settings: RecognitionSettings, file?: FileIndex): Invocation {
  const entries: InvocationEntry[] = [];
  const input = [definition.inputParameter ?? 0];
  const handler = resolveFunctionValue(definition.handlerArgument, file);
  const imported = handler ? undefined : resolveImportedHandler(definition.handlerArgument, file);
  if (imported) {
    entries.push({
      fn: imported.fn,
      inputParameters: inputPositions(imported.fn, definition),
      inputThisMembers: [],
      classNode: imported.classNode,
      invocationClass: undefined,
      file: imported.file,
    });
  }
  if (handler) {
    entries.push({
      fn: handler,
      inputParameters: inputPositions(handler, definition),
      inputThisMembers: [],
      // A method handed over as the handler (a decorated method, `this.m.bind(this)`), or an arrow written
      // in a method of the class that registers it: its `this.helper()` calls resolve in that class.
      classNode: classOfThis(handler),
      invocationClass: undefined,
      region: definition.invocationRegion,
    });
  }
  for (const joined of definition.joinedInvocation?.() ?? []) {
    entries.push({ ...joined, inputThisMembers: [], invocationClass: undefined });
  }
  const host = definition.host;
  if (host && isClassNode(host)) {
    const methods = classMethods(host);
    const names = definition.invocationMembers ?? settings.invocationNames;
    const invoked = names.map((name) => methods.get(name)).find((fn) => fn !== undefined);
    const own = {
      inputParameters: invoked ? inputPositions(invoked, definition) : input,
      inputThisMembers: [],
      classNode: host,
      invocationClass: undefined,
    };
    entries.push(...classMethodEntries(methods, names, settings, own));
    const createInvocation = methods.get('createInvocation');
    const built = createInvocation ? findBuiltInvocationClass(createInvocation, file) : undefined;
    if (built) {
      const inputs = {
        inputParameters: [],
        // Filled by the flow analysis from the constructor (see `invocationClassInputs`).
        inputThisMembers: ['params'],
        classNode: built.classNode,
        invocationClass: built.classNode,
      };
      entries.push(...classMethodEntries(classMethods(built.classNode), settings.invocationNames, settings, inputs));
      constructorInputsByClass.set(built.classNode, built.constructorInputs);
    }
  } else if (host) {
    const names = definition.invocationMembers ?? settings.invocationNames;
    for (const property of host.properties) {
      if (property.type !== AST_NODE_TYPES.Property) continue;
      const name = getStaticKeyName(property.key, property.computed);
      if (name === undefined) continue;
      // `factory: (context) => async (input) => …`: what runs on a call is the function the factory returns.
      const built = isHandlerFactoryMember(name, property.value) ? returnedFunction(property.value) : undefined;
      if (!built && !names.includes(name)) continue;
      const fn = built ?? resolveFunctionValue(property.value, file);
      if (fn)
        entries.push({
          fn,
          inputParameters: inputPositions(fn, definition),
          inputThisMembers: [],
          // An arrow written in a method of a class (`defineAction({ call: async (p) => this.clearInput(p) })` in
          // the device's own method): its `this.helper()` calls resolve in that class, as a handler's do.
          classNode: classOfThis(fn),
          invocationClass: undefined,
        });
    }
  }
  return { entries: entries.map(throughArgumentsAwaiter) };
}

/**
 * `run: (_a) => __awaiter(void 0, [_a], void 0, function* ({ configValue }) { … })`: tsc's downlevel
 * `async` of a function that destructures its parameters hands them to the generator as an array, and
 * the generator, whose statements are the call's, names them. The entry is the generator, with each
 * input parameter where the array puts it.
 */
function throughArgumentsAwaiter(entry: InvocationEntry): InvocationEntry {
  const call = soleReturnedExpression(entry.fn);
  if (call?.type !== AST_NODE_TYPES.CallExpression) return entry;
  const generator = call.arguments.at(-1);
  const handed = call.arguments[1];
  if (
    generator?.type !== AST_NODE_TYPES.FunctionExpression ||
    !isAwaiterBody(generator) ||
    handed?.type !== AST_NODE_TYPES.ArrayExpression
  ) {
    return entry;
  }
  const inputParameters = entry.inputParameters.flatMap((index) => {
    const parameter = entry.fn.params[index];
    const position =
      parameter?.type === AST_NODE_TYPES.Identifier
        ? handed.elements.findIndex((element) => element?.type === AST_NODE_TYPES.Identifier && element.name === parameter.name)
        : -1;
    return position >= 0 ? [position] : [];
  });
  return inputParameters.length > 0 ? { ...entry, fn: generator, inputParameters } : entry;
}

const constructorInputsByClass = new WeakMap<ClassNode, number[]>();

/** Which constructor parameters of an invocation class receive the model's input. */
export function getConstructorInputs(classNode: ClassNode): number[] {
  return constructorInputsByClass.get(classNode) ?? [0];
}

/** A function a tool factory puts around the tool's own invocation (see `findWrappingInvocations`). */
export interface WrappingInvocation {
  fn: FunctionNode;
  /** The factory's name, for messages. */
  factory: string;
  /** Which parameters of `fn` are the model's input: the same positions as in the tool's own invocation. */
  inputParameters: number[];
  /** The file `fn` lives in, when it is not the linted one (a registration helper imported from another module). */
  file?: FileIndex;
}

/** The config member names that hold the tool's invocation: the handler's key, and invocation names. */
function invocationMemberNames(config: TSESTree.ObjectExpression, definition: ToolDefinition, settings: RecognitionSettings): Set<string> {
  const names = new Set<string>();
  for (const property of config.properties) {
    if (property.type !== AST_NODE_TYPES.Property) continue;
    const name = getStaticKeyName(property.key, property.computed);
    if (name === undefined) continue;
    const holdsHandler = definition.handlerArgument !== undefined && property.value === definition.handlerArgument;
    if (holdsHandler || (settings.invocationNames.includes(name) && isFunctionNode(skipTypeWrappers(property.value)))) names.add(name);
  }
  return names;
}

/** The object literals a function returns itself (`return { … }`, `=> ({ … })`), not those of functions nested in it. */
function returnedObjects(fn: FunctionNode): TSESTree.ObjectExpression[] {
  const body = fn.body;
  if (!body) return [];
  if (body.type !== AST_NODE_TYPES.BlockStatement) {
    const value = skipTypeWrappers(body);
    return value.type === AST_NODE_TYPES.ObjectExpression ? [value] : [];
  }
  const objects: TSESTree.ObjectExpression[] = [];
  walk(body, (node) => {
    if (isFunctionNode(node) || isClassNode(node)) return false;
    if (node.type !== AST_NODE_TYPES.ReturnStatement || !node.argument) return undefined;
    const value = skipTypeWrappers(node.argument);
    if (value.type === AST_NODE_TYPES.ObjectExpression) objects.push(value);
    return false;
  });
  return objects;
}

/**
 * A tool factory of the same file that hands back a new config whose invocation member is
 * a function of its own: `defineTabTool(tool)` returning `{ ...tool, handle: async (context,
 * params) => { const tab = await context.ensureTab(); return tool.handle(tab, params); } }`.
 * Principle: that function is what the harness calls, around the tool's own invocation, so
 * what it does on a call, every tool the factory defines does on every call. A factory
 * that returns its argument unchanged (`defineTool(tool) { return tool; }`) wraps nothing.
 */
export function findWrappingInvocations(
  definition: ToolDefinition,
  settings: RecognitionSettings,
  file: FileIndex | undefined,
): WrappingInvocation[] {
  // A registration helper's function around the handler (`tool-shapes/registration-helpers.ts`).
  const registered = definition.registrationWrapper;
  if (registered) return [{ fn: registered.fn, factory: registered.helper, inputParameters: [0], file: registered.file }];
  const config = definition.node;
  if (!file || definition.shape !== 'factory' || config.type !== AST_NODE_TYPES.ObjectExpression) return [];
  const call = config.parent;
  if (call?.type !== AST_NODE_TYPES.CallExpression || call.callee.type !== AST_NODE_TYPES.Identifier) return [];
  const factory = file.functions.get(call.callee.name);
  if (!factory || containsNode(factory, config)) return [];
  const members = invocationMemberNames(config, definition, settings);
  if (members.size === 0) return [];
  const inputParameters = [definition.inputParameter ?? 0];
  const wrappers: WrappingInvocation[] = [];
  for (const returned of returnedObjects(factory)) {
    for (const property of returned.properties) {
      if (property.type !== AST_NODE_TYPES.Property) continue;
      const name = getStaticKeyName(property.key, property.computed);
      const value = skipTypeWrappers(property.value);
      if (name !== undefined && members.has(name) && isFunctionNode(value))
        wrappers.push({ fn: value, factory: call.callee.name, inputParameters });
    }
  }
  return wrappers;
}
