/**
 * The vocabulary every tool shape speaks: what a recognised tool definition
 * is (`ToolDefinition`: the node, where rules report, the name the model
 * sees, where the classification members live, the invocation), and the
 * small questions every shape asks of the code (does this object literal
 * carry an invocation, which class member has this name, what is the first
 * object argument). It imports no shape: the families in `tool-shapes/`
 * import it, and `tool-definitions.ts`, the registry, asks the families in
 * order. That keeps each family a leaf that can be read, tested and changed
 * alone.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import {
  type ClassNode,
  type FunctionNode,
  findProperty,
  getMemberPath,
  getStaticKeyName,
  isFunctionNode,
  programOf,
  skipTypeWrappers,
} from '../ast.js';
import type { FileIndex } from '../file-index.js';
import type { RecognitionSettings } from '../settings.js';
import { loopedToolNames, resolveToolName, toolMapKey } from '../tool-name.js';

export type ToolShape =
  | 'class'
  | 'factory'
  | 'constructor'
  | 'typed-object'
  | 'mcp-registration'
  | 'object-registration'
  | 'mcp-dispatch'
  | 'decorator'
  | 'builder'
  | 'plain-object'
  | 'module';

export interface ToolDefinition {
  shape: ToolShape;
  /**
   * The class, the object literal, (MCP without a config object) the
   * registration call, or (a low-level MCP dispatcher) the `case` / `if` branch.
   */
  node: ClassNode | TSESTree.ObjectExpression | TSESTree.CallExpression | TSESTree.SwitchCase | TSESTree.IfStatement;
  /** Where rules report: the class name, the object literal, the registration call. */
  reportNode: TSESTree.Node;
  /** The tool's name as the model sees it when it is static, else the class/variable name. */
  name: string | undefined;
  /**
   * The other names the same code is registered under (a loop over a list of names: `for (const toolName of
   * ['nexus_recall', 'agent_memory_recall']) server.tool(toolName, …)`): one tool each, with one verdict.
   */
  alsoNamed?: readonly string[];
  /**
   * Where classification members (`maxResultSizeChars`, `stateScope`) live and
   * where a fix inserts them: the class, or the object literal / MCP config.
   */
  host: ClassNode | TSESTree.ObjectExpression | undefined;
  /**
   * The object that states the tool's contract when it is not the host, read
   * for the verdict and never edited: the `tools.PdfTool` a dispatcher's
   * `case tools.PdfTool.name:` names, possibly in another module.
   */
  contractSource?: TSESTree.ObjectExpression;
  /** MCP registrations: the classification may also sit in `_meta['anthropic/<member>']`. */
  isMcpRegistration: boolean;
  /**
   * The invocation when it is not a member of the host: the MCP handler
   * argument, LangChain's `tool(fn, config)` function.
   */
  handlerArgument: TSESTree.Node | undefined;
  /**
   * Which parameter of the invocation functions holds the model's input, when
   * it is not the first (playwright's `handle(context, params, response)`).
   */
  inputParameter?: number;
  /**
   * Dispatcher tools (a `switch` on the requested name inside one handler):
   * only what runs inside this node belongs to this tool. The dispatcher is
   * `handlerArgument`.
   */
  invocationRegion?: TSESTree.Node;
  /**
   * Class tools whose invocation is several methods rather than one named
   * `call`/`execute`/…: a `…ToolHandlers` class has one method per command.
   */
  invocationMembers?: readonly string[];
  /**
   * A tool list entry joined by name to a dispatcher (`tool-shapes/name-dispatch.ts`):
   * the functions that run on a call, possibly in other files, each with its file.
   */
  joinedInvocation?: () => readonly JoinedInvocationEntry[];
  /**
   * The function a package's registration helper registers around this tool's handler
   * (`tool-shapes/registration-helpers.ts`): it runs on every call, in the helper's file.
   */
  registrationWrapper?: { fn: FunctionNode; file: FileIndex; helper: string };
  /**
   * Registered by a call of a package's own helper (`registerToolConditional('x', config, handler)`):
   * its classification goes in the config's `_meta` only when that reaches the server unchanged
   * (`metaReachesServer`); otherwise no fix can place it, and the rules report without one.
   */
  registeredThrough?: { helper: string; metaReachesServer: boolean };
  /**
   * The contract when no object of the code states it: a tool module's manifest description and its
   * exported schema (`tool-shapes/tool-modules.ts`).
   */
  statedContract?: { description: string | undefined; inputSchema: TSESTree.Node | undefined };
}

/** One function of a joined tool's invocation, with the file it lives in. */
export interface JoinedInvocationEntry {
  fn: FunctionNode;
  inputParameters: number[];
  classNode: ClassNode | undefined;
  file: FileIndex;
  /** Only what runs inside this node belongs to the tool (a dispatcher's branch). */
  region?: TSESTree.Node;
}

/** How a classification member is written. */
export interface ToolMember {
  /** The property, class member, or `this.x = …` assignment that declares it. */
  node: TSESTree.Node;
  /** The declared value (getter: its single returned expression), when there is one. */
  value: TSESTree.Expression | undefined;
  location: 'class-member' | 'constructor-assignment' | 'property' | 'mcp-meta';
}

const TOOL_TYPE_PATTERN = /Tool(?:Def|Definition)?$/;

export const MCP_META_PREFIX = 'anthropic/';

export function isToolTypeName(name: string | undefined, settings: RecognitionSettings): boolean {
  if (name === undefined) return false;
  return settings.toolTypeNames.includes(name) || TOOL_TYPE_PATTERN.test(name);
}

/**
 * A call that wraps the invocation: `execute: withProjectRoot(async (args) => …)`,
 * `logic: withAuth(scopes, createHandler(async (input) => …))`. What runs on a
 * call is the function handed in (the innermost, last one); the wrapper adds
 * checks or logging around it.
 */
export function wrappedFunction(
  node: TSESTree.Node,
  depth = 0,
): FunctionNode | TSESTree.Identifier | TSESTree.MemberExpression | undefined {
  const target = skipTypeWrappers(node);
  if (depth > 3 || target.type !== AST_NODE_TYPES.CallExpression) return undefined;
  for (let index = target.arguments.length - 1; index >= 0; index -= 1) {
    const argument = skipTypeWrappers(target.arguments[index]!);
    if (isFunctionNode(argument)) return argument;
    if (argument.type === AST_NODE_TYPES.CallExpression) {
      const inner = wrappedFunction(argument, depth + 1);
      if (inner) return inner;
    }
  }
  const last = target.arguments[target.arguments.length - 1];
  const named = last ? skipTypeWrappers(last) : undefined;
  if (named?.type === AST_NODE_TYPES.Identifier && depth > 0) return named;
  // `wrapHandler(CreateTaskArgsSchema, handleCreateTask, service)`: the argument named as a handler is what runs;
  // so does a module's member named for it (`withUpgradeNudge(dumpDatabaseTool.handler)`).
  for (const argument of target.arguments) {
    const candidate = skipTypeWrappers(argument);
    if (candidate.type === AST_NODE_TYPES.Identifier && HANDLER_NAME.test(candidate.name)) return candidate;
    if (
      candidate.type === AST_NODE_TYPES.MemberExpression &&
      WRAPPED_LOGIC_MEMBER.test(getStaticKeyName(candidate.property, candidate.computed) ?? '')
    ) {
      return candidate;
    }
  }
  // `createSessionAwareTool({ internalSchema, logicFunction: bootSimLogic, getExecutor })`: the options name the logic.
  for (const argument of target.arguments) {
    const options = skipTypeWrappers(argument);
    if (options.type !== AST_NODE_TYPES.ObjectExpression) continue;
    for (const property of options.properties) {
      if (property.type !== AST_NODE_TYPES.Property || !WRAPPED_LOGIC_MEMBER.test(getStaticKeyName(property.key, property.computed) ?? ''))
        continue;
      const value = skipTypeWrappers(property.value);
      if (isFunctionNode(value) || value.type === AST_NODE_TYPES.Identifier) return value;
    }
  }
  return undefined;
}

/** A name that says it is a tool's handler: `handleCreateTask`, `createTaskHandler`, `runQuery`, `executeSearch`. */
const HANDLER_NAME = /^(?:handle|run|execute|exec|perform|invoke)[A-Z_]|[a-z](?:Handler|Impl|Logic|Implementation)$/;

/** An option of a wrapper call that holds the function it wraps: `logicFunction`, `handler`, `execute`, `fn`. */
const WRAPPED_LOGIC_MEMBER = /^(?:logic|handler|handle|execute|run|fn|impl|implementation|callback)$|(?:Logic|Function|Handler|Fn)$/;

/** Can this member value be an invocation: a function, a named one, or a wrapper call around an inline function? */
export function isInvocationValue(value: TSESTree.Node): boolean {
  const target = skipTypeWrappers(value);
  if (isFunctionNode(target) || target.type === AST_NODE_TYPES.Identifier) return true;
  const wrapped = wrappedFunction(target);
  return wrapped !== undefined && isFunctionNode(wrapped);
}

/**
 * Members that build the invocation rather than being it: `factory: (context) => async (input) => …`
 * (Angular CLI's `declareTool`), `createHandler`. The harness calls the member once, when it
 * registers the tool, and the function it returns runs on every call.
 */
export const HANDLER_FACTORY_MEMBERS: readonly string[] = ['factory', 'handlerFactory', 'createHandler', 'makeHandler', 'buildHandler'];

/** The function a handler factory returns: an arrow's function body, or the function of its own `return`. */
export function returnedFunction(value: TSESTree.Node): FunctionNode | undefined {
  const target = skipTypeWrappers(value);
  const factory = target.type === AST_NODE_TYPES.Identifier ? moduleFunctionNamed(target) : target;
  if (!isFunctionNode(factory)) return undefined;
  if (factory.body.type !== AST_NODE_TYPES.BlockStatement) {
    const body = skipTypeWrappers(factory.body);
    return isFunctionNode(body) ? body : undefined;
  }
  for (const statement of factory.body.body) {
    if (statement.type !== AST_NODE_TYPES.ReturnStatement || !statement.argument) continue;
    const returned = skipTypeWrappers(statement.argument);
    if (isFunctionNode(returned)) return returned;
  }
  return undefined;
}

/** The module-level function `name` names (`factory: createDocSearchHandler`), declared or bound to a `const`. */
function moduleFunctionNamed(name: TSESTree.Identifier): FunctionNode | undefined {
  const program = programOf(name);
  for (const statement of program?.body ?? []) {
    const declaration = statement.type === AST_NODE_TYPES.ExportNamedDeclaration ? statement.declaration : statement;
    if (declaration?.type === AST_NODE_TYPES.FunctionDeclaration && declaration.id?.name === name.name) return declaration;
    if (declaration?.type !== AST_NODE_TYPES.VariableDeclaration) continue;
    for (const declarator of declaration.declarations) {
      if (declarator.id.type !== AST_NODE_TYPES.Identifier || declarator.id.name !== name.name || !declarator.init) continue;
      const init = skipTypeWrappers(declarator.init);
      return isFunctionNode(init) ? init : undefined;
    }
  }
  return undefined;
}

/** Is this member a handler factory: named as one, and returning the function that runs on a call? */
export function isHandlerFactoryMember(name: string | undefined, value: TSESTree.Node): boolean {
  return name !== undefined && HANDLER_FACTORY_MEMBERS.includes(name) && returnedFunction(value) !== undefined;
}

/** Does the object literal have a function-valued invocation member? */
export function hasInvocationMember(object: TSESTree.ObjectExpression, settings: RecognitionSettings): boolean {
  return object.properties.some(
    (property) =>
      property.type === AST_NODE_TYPES.Property &&
      ((settings.invocationNames.includes(getStaticKeyName(property.key, property.computed) ?? '') && isInvocationValue(property.value)) ||
        isHandlerFactoryMember(getStaticKeyName(property.key, property.computed), property.value)),
  );
}

export function classMemberByName(classNode: ClassNode, name: string): TSESTree.ClassElement | undefined {
  return classNode.body.body.find(
    (member) =>
      (member.type === AST_NODE_TYPES.PropertyDefinition ||
        member.type === AST_NODE_TYPES.MethodDefinition ||
        member.type === AST_NODE_TYPES.AccessorProperty) &&
      getStaticKeyName(member.key, member.computed) === name,
  );
}

/**
 * The name the code keeps a tool under, for a tool that states none the
 * model sees: the variable it initialises, or the member it is assigned to
 * (`exports.readTool = tool({…})`, `module.exports.readTool = …`, `this.readTool = …`).
 */
export function nameBoundTo(node: TSESTree.Node): string | undefined {
  const parent = node.parent;
  if (parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.id.type === AST_NODE_TYPES.Identifier) {
    return parent.id.name;
  }
  if (parent?.type === AST_NODE_TYPES.AssignmentExpression && parent.left.type === AST_NODE_TYPES.MemberExpression) {
    return getStaticKeyName(parent.left.property, parent.left.computed);
  }
  return undefined;
}

/** `name`, or Mastra's `id`: what the model calls the tool. */
const NAME_PROPERTIES = ['name', 'id'];

export function nameOfObject(object: TSESTree.ObjectExpression): string | undefined {
  for (const key of NAME_PROPERTIES) {
    const property = findProperty(object, key);
    const value = property ? resolveToolName(property.value) : undefined;
    if (value !== undefined) return value;
  }
  // The object as written, or the factory call or type assertion around it (`const readTool = tool({…})`).
  let held: TSESTree.Node = object;
  while (
    held.parent &&
    (held.parent.type === AST_NODE_TYPES.TSAsExpression ||
      held.parent.type === AST_NODE_TYPES.TSSatisfiesExpression ||
      held.parent.type === AST_NODE_TYPES.CallExpression ||
      held.parent.type === AST_NODE_TYPES.NewExpression)
  ) {
    held = held.parent;
  }
  return nameBoundTo(held);
}

export function isAmbient(node: ClassNode): boolean {
  if (node.type === AST_NODE_TYPES.ClassDeclaration && node.declare) return true;
  for (let current: TSESTree.Node | undefined = node.parent; current; current = current.parent) {
    if (current.type === AST_NODE_TYPES.TSModuleDeclaration && current.declare) return true;
  }
  return false;
}

/** Parameter names that hold the model's input; a first parameter named like a context comes before it. */
export const INPUT_PARAMETER = /^(?:args|input|inputs|params|parameters|arguments|options|opts|request|req|payload|data|props|action)$/i;
/**
 * The harness's context handed first: `context`, `server`, an SDK's `client` (Speakeasy's `tool: async (client, args, ctx)`),
 * and compounds of them (`mcpServer`, `toolContext`, `apiClient`).
 */
const CONTEXT_PARAMETER =
  /^(?:context|ctx|agent|session|page|browser|tab|server|client|runtime|env|deps|services|harness|tools?)$|[a-z](?:Server|Context|Session|Runtime|Client)$/i;

/**
 * Which parameter of a handler holds the model's input: the first, unless the first is named as
 * the harness's context and a later one as the input (`handle(context, params)`,
 * `executeUrlRead(mcpServer, args, signal)`); undefined when the first is a context and no later
 * one is named as input.
 */
export function handlerInputParameter(fn: FunctionNode): number | undefined {
  const names = fn.params.map((parameter) => {
    const target = parameter.type === AST_NODE_TYPES.AssignmentPattern ? parameter.left : parameter;
    return target.type === AST_NODE_TYPES.Identifier ? target.name : undefined;
  });
  if (names[0] === undefined || !CONTEXT_PARAMETER.test(names[0])) return 0;
  const input = names.findIndex((parameter, index) => index > 0 && parameter !== undefined && INPUT_PARAMETER.test(parameter));
  return input > 0 ? input : undefined;
}

/**
 * Every parameter of a handler that holds the model's input: the one `handlerInputParameter` names, and a
 * later one named as input too (`handleScenes(action, args, config)`, called `handler(args.action, args, config)`).
 */
export function handlerInputParameters(fn: FunctionNode): number[] {
  const first = handlerInputParameter(fn) ?? 0;
  const later = fn.params.flatMap((parameter, index) => {
    const target = parameter.type === AST_NODE_TYPES.AssignmentPattern ? parameter.left : parameter;
    return index > first && target.type === AST_NODE_TYPES.Identifier && INPUT_PARAMETER.test(target.name) ? [index] : [];
  });
  return [first, ...later];
}

export function firstObjectArgument(call: TSESTree.CallExpression | TSESTree.NewExpression): TSESTree.ObjectExpression | undefined {
  for (const argument of call.arguments) {
    const target = skipTypeWrappers(argument);
    if (target.type === AST_NODE_TYPES.ObjectExpression) return target;
  }
  return undefined;
}

export function isFunctionLikeArgument(node: TSESTree.Node | undefined): boolean {
  if (!node) return false;
  const target = skipTypeWrappers(node);
  if (isFunctionNode(target) || target.type === AST_NODE_TYPES.Identifier || target.type === AST_NODE_TYPES.MemberExpression) return true;
  // `registerTool('get', config, track(async (args) => …))`: the wrapped function is the handler (see `wrappedFunction`).
  if (target.type !== AST_NODE_TYPES.CallExpression) return false;
  const wrapped = wrappedFunction(target);
  // An inline function, or one the wrapper is handed by a handler's name (`wrapHandler(schema, handleCreateTask, service)`).
  return (
    wrapped !== undefined &&
    (isFunctionNode(wrapped) || wrapped.type === AST_NODE_TYPES.MemberExpression || HANDLER_NAME.test(wrapped.name))
  );
}

/** A tool whose definition and classification live in one object literal. */
export function objectLiteralDefinition(
  shape: ToolShape,
  object: TSESTree.ObjectExpression,
  name: string | undefined = nameOfObject(object),
  handlerArgument?: ToolDefinition['handlerArgument'],
): ToolDefinition {
  return { shape, node: object, reportNode: object, name, host: object, isMcpRegistration: false, handlerArgument };
}

/**
 * An MCP registration call (`server.registerTool(name, config, handler)`, or a package's helper
 * that hands its arguments on): reported at the call, its config the host when it is an object.
 */
export function mcpRegistrationDefinition(
  call: TSESTree.CallExpression,
  nameTarget: TSESTree.Node,
  host: TSESTree.ObjectExpression | undefined,
  handlerArgument: TSESTree.Node | undefined,
): ToolDefinition {
  const resolved = resolveToolName(nameTarget);
  const looped = resolved === undefined ? loopedToolNames(nameTarget) : undefined;
  return {
    shape: 'mcp-registration',
    node: host ?? call,
    reportNode: call,
    name: resolved ?? looped?.[0] ?? getMemberPath(nameTarget)?.join('.'),
    ...(looped && looped.length > 1 ? { alsoNamed: looped.slice(1) } : {}),
    host,
    isMcpRegistration: true,
    handlerArgument,
  };
}

/** The map key of a tool that states no name of its own. */
export function withToolMapKeyName(definition: ToolDefinition | undefined): ToolDefinition | undefined {
  if (!definition || definition.name !== undefined) return definition;
  const key = toolMapKey(definition.node);
  return key === undefined ? definition : { ...definition, name: key };
}

/** `this.<name> = value` as a statement of the class's constructor: a field as tsc compiles it (no class fields). */
export function constructorAssignment(classNode: ClassNode, name: string): TSESTree.AssignmentExpression | undefined {
  const constructor = classNode.body.body.find(
    (member): member is TSESTree.MethodDefinition => member.type === AST_NODE_TYPES.MethodDefinition && member.kind === 'constructor',
  );
  for (const statement of constructor?.value.body?.body ?? []) {
    if (statement.type !== AST_NODE_TYPES.ExpressionStatement) continue;
    const expression = statement.expression;
    if (expression.type !== AST_NODE_TYPES.AssignmentExpression) continue;
    const path = getMemberPath(expression.left);
    if (path?.length === 2 && path[0] === 'this' && path[1] === name) return expression;
  }
  return undefined;
}

export function classMethods(classNode: ClassNode): Map<string, FunctionNode> {
  const methods = new Map<string, FunctionNode>();
  for (const member of classNode.body.body) {
    if (
      member.type === AST_NODE_TYPES.MethodDefinition &&
      member.kind !== 'constructor' &&
      member.kind !== 'set' &&
      isFunctionNode(member.value)
    ) {
      const name = getStaticKeyName(member.key, member.computed);
      if (name !== undefined && !methods.has(name)) methods.set(name, member.value);
    } else if (member.type === AST_NODE_TYPES.PropertyDefinition && member.value && isFunctionNode(member.value)) {
      const name = getStaticKeyName(member.key, member.computed);
      if (name !== undefined && !methods.has(name)) methods.set(name, member.value);
    }
  }
  return methods;
}

export function getClassMethod(classNode: ClassNode, name: string): FunctionNode | undefined {
  return classMethods(classNode).get(name);
}
