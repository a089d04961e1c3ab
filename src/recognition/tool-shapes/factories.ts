/**
 * Tools made by a factory or a constructor handed the tool's config:
 * `buildTool({...})`, `defineTool`, the AI SDK's `tool`, `createTool`,
 * `Tool.define` (the configured factories), and `new DynamicStructuredTool({...})`-style
 * constructors of a `…Tool` class. Published code spells the factory calls
 * differently from source, and `recogniseFactoryCall` still sees them:
 * - bundlers rename an import that collides with another (`import { tool }`
 *   twice in one bundle becomes `tool2`, `createTool3`), and a minifier renames
 *   every import (`import { tool as b } from '@langchain/core/tools'`): the name
 *   the factory was exported by is the one compared;
 * - LangChain's `tool(runTask, { name, schema })` passes a named function,
 *   not a function literal, and `tool(toolImpl, toolDefinition)` names a
 *   config the module keeps in a `const` (the tool is that object);
 * - chrome-devtools-mcp hands `defineTool` a function that returns the config.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { getCalleeLastName, getCalleeName, isFunctionNode, matchesDottedName, programOf, skipTypeWrappers } from '../ast.js';
import { mayBindRenamedImport, programFileIndex, programPath } from '../file-index.js';
import { moduleText } from '../module-graph.js';
import type { RecognitionSettings } from '../settings.js';
import { statesContract } from '../tool-contract.js';
import { asObjectLiteral, configName, resolveToolName } from '../tool-name.js';
import { type ToolDefinition, firstObjectArgument, hasInvocationMember, nameOfObject, objectLiteralDefinition } from './vocabulary.js';

const BUNDLER_SUFFIX = /^([A-Za-z_$][\w$]*?[A-Za-z_$])\d+$/;

/**
 * `tool2` → `tool` when the callee is a plain identifier (a renamed import);
 * any other name unchanged. The caller still requires the stripped name to
 * be a configured factory and the call to carry a tool's config.
 */
export function withoutBundlerSuffix(name: string | undefined, call: TSESTree.CallExpression): string | undefined {
  if (name === undefined || skipTypeWrappers(call.callee).type !== AST_NODE_TYPES.Identifier) return name;
  return BUNDLER_SUFFIX.exec(name)?.[1] ?? name;
}

/** LangChain's `tool(namedFunction, { name })`: the identifier that is the invocation. */
export function namedFunctionArgument(call: TSESTree.CallExpression, config: TSESTree.ObjectExpression): TSESTree.Identifier | undefined {
  const [first, second] = call.arguments;
  if (!first || !second || skipTypeWrappers(second) !== config) return undefined;
  const target = skipTypeWrappers(first);
  if (target.type !== AST_NODE_TYPES.Identifier || configName(config) === undefined) return undefined;
  return target;
}

/**
 * LangChain's `tool(toolImpl, toolDefinition)` where both are the module's own: the config a
 * `const` of this module holds (`const toolDefinition = { name, description, schema }`), handed
 * after the function that runs it. The tool is that object, where its contract is written.
 */
function constantConfigArgument(call: TSESTree.CallExpression): TSESTree.ObjectExpression | undefined {
  const [first, second] = call.arguments;
  if (call.arguments.length !== 2 || !first || !second) return undefined;
  const fn = skipTypeWrappers(first);
  const config = skipTypeWrappers(second);
  if ((!isFunctionNode(fn) && fn.type !== AST_NODE_TYPES.Identifier) || config.type !== AST_NODE_TYPES.Identifier) return undefined;
  const program = programOf(call);
  const filePath = program ? programPath(program) : undefined;
  if (!program || filePath === undefined) return undefined;
  const object = asObjectLiteral(programFileIndex(program, filePath).constants.get(config.name));
  return object && configName(object) !== undefined && statesContract(object) ? object : undefined;
}

/** `define…Tool` (`defineTool`, `definePageTool`): a name that says the call defines a tool. */
const DEFINE_TOOL_CALLEE = /^define\w*Tool$/;

const factoryLastNames = new WeakMap<RecognitionSettings, ReadonlySet<string>>();

/** The last names of the configured tool factories (`Tools.create` → `create`), worked out once per settings. */
export function factoryLastNamesOf(settings: RecognitionSettings): ReadonlySet<string> {
  let names = factoryLastNames.get(settings);
  if (!names) {
    names = new Set(settings.toolFactories.map((factory) => factory.slice(factory.lastIndexOf('.') + 1)));
    factoryLastNames.set(settings, names);
  }
  return names;
}

/** The object literal a function returns: an arrow's expression body, or the one `return {…}` of its own block. */
function returnedObjectLiteral(node: TSESTree.Node | undefined): TSESTree.ObjectExpression | undefined {
  const fn = node ? skipTypeWrappers(node) : undefined;
  if (!isFunctionNode(fn)) return undefined;
  if (fn.body.type !== AST_NODE_TYPES.BlockStatement) return asObjectLiteral(fn.body);
  const returns = fn.body.body.filter((statement) => statement.type === AST_NODE_TYPES.ReturnStatement);
  const [only] = returns;
  return returns.length === 1 && only?.type === AST_NODE_TYPES.ReturnStatement ? asObjectLiteral(only.argument ?? undefined) : undefined;
}

/**
 * chrome-devtools-mcp's `defineTool((args) => ({ name, schema, handler }))`,
 * `definePageTool(() => { return {…} })`: a tool factory (configured, or
 * named `define…Tool`) handed a function that returns the tool's config
 * defines the tool that config describes, as if the config were handed
 * directly. The config must name itself and carry an invocation; the tool is
 * reported at the factory call.
 */
export function recogniseConfigReturningFactoryCall(
  call: TSESTree.CallExpression,
  settings: RecognitionSettings,
): ToolDefinition | undefined {
  const lastName = withoutBundlerSuffix(getCalleeLastName(call), call);
  if (lastName === undefined) return undefined;
  // Every call of a file passes here: the argument count first, then the name.
  if (call.arguments.length !== 1) return undefined;
  if (!factoryLastNamesOf(settings).has(lastName) && !DEFINE_TOOL_CALLEE.test(lastName)) return undefined;
  const config = returnedObjectLiteral(call.arguments[0]);
  const name = configName(config);
  if (!config || name === undefined || !hasInvocationMember(config, settings)) return undefined;
  return { ...objectLiteralDefinition('factory', config, name), reportNode: call };
}

const TOOL_CONSTRUCTOR_PATTERN = /Tool$/;
/** A package's own wrapper of a tool factory, named for what it makes: `createGthTool`, `makeTool`, `buildFsTool`. */
const TOOL_WRAPPER_CALLEE = /^(?:create|make|build|define|new|wrap)\w*Tool$/;

/**
 * LangChain's `tool(fn, { name, description, schema })` through a wrapper of the package's own
 * (`createGthTool(async (args) => …, { name: 'read_file', description, schema }, 'read')`, whose
 * body calls `tool(fn, config)`): a call named for making a tool, handed an inline function and
 * right after it a config that names the tool and states its contract, makes that tool, the
 * function its invocation. Asked after every known shape.
 */
export function recogniseToolWrapperCall(call: TSESTree.CallExpression, settings: RecognitionSettings): ToolDefinition | undefined {
  if (call.arguments.length < 2) return undefined;
  const lastName = withoutBundlerSuffix(getCalleeLastName(call), call);
  if (lastName === undefined || !TOOL_WRAPPER_CALLEE.test(lastName) || factoryLastNamesOf(settings).has(lastName)) return undefined;
  const [first, second] = call.arguments;
  const fn = first ? skipTypeWrappers(first) : undefined;
  const config = second ? skipTypeWrappers(second) : undefined;
  if (!fn || !isFunctionNode(fn) || config?.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
  const name = configName(config);
  if (name === undefined || !statesContract(config)) return undefined;
  return objectLiteralDefinition('factory', config, name, first);
}

const renamingPrograms = new WeakMap<TSESTree.Program, boolean>();

/** `mayBindRenamedImport`, once per program: most files have no renamed import, and then no call needs their index. */
function renamesImports(program: TSESTree.Program): boolean {
  let renames = renamingPrograms.get(program);
  if (renames === undefined) renamingPrograms.set(program, (renames = mayBindRenamedImport(program, moduleText(program))));
  return renames;
}

/**
 * The name a factory was exported by, when the module imports it under another
 * (`import { tool as b } from '@langchain/core/tools'`: a minifier's rename, or an
 * author's `tool as lcTool`): a call of that local is a call of the factory. Asked
 * only of a plain callee handed a config (an object, or a module's constant after
 * a function), so the import is looked up for few calls.
 */
function renamedImportName(call: TSESTree.CallExpression | TSESTree.NewExpression): string | undefined {
  const callee = skipTypeWrappers(call.callee);
  if (callee.type !== AST_NODE_TYPES.Identifier || call.arguments.length === 0 || call.arguments.length > 3) return undefined;
  const handsConfig = call.arguments.some((argument, index) => {
    const target = skipTypeWrappers(argument);
    return target.type === AST_NODE_TYPES.ObjectExpression || (index === 1 && target.type === AST_NODE_TYPES.Identifier);
  });
  if (!handsConfig) return undefined;
  const program = programOf(call);
  const filePath = program ? programPath(program) : undefined;
  if (!program || filePath === undefined || !renamesImports(program)) return undefined;
  const binding = programFileIndex(program, filePath).imports.get(callee.name);
  if (!binding || binding.imported === 'default' || binding.imported === '*' || binding.imported === callee.name) return undefined;
  return BUNDLER_SUFFIX.exec(binding.imported)?.[1] ?? binding.imported;
}

export function recogniseFactoryCall(call: TSESTree.CallExpression, settings: RecognitionSettings): ToolDefinition | undefined {
  // Every call of a file passes here: compare the callee's last name before building its dotted name.
  const lastNames = factoryLastNamesOf(settings);
  const lastName = withoutBundlerSuffix(getCalleeLastName(call), call);
  if (lastName === undefined) return undefined;
  // (A computed key may itself hold dots: `x['a.tool']()`, so such names go the long way.)
  if (!lastNames.has(lastName) && !lastName.includes('.')) {
    const imported = renamedImportName(call);
    if (imported === undefined || !settings.toolFactories.includes(imported)) return undefined;
  } else if (!matchesDottedName(withoutBundlerSuffix(getCalleeName(call), call), settings.toolFactories)) return undefined;
  const object = firstObjectArgument(call);
  if (!object) {
    const constantConfig = constantConfigArgument(call);
    return constantConfig ? objectLiteralDefinition('factory', constantConfig, configName(constantConfig), call.arguments[0]) : undefined;
  }
  const functionArgument =
    call.arguments.find((argument) => isFunctionNode(skipTypeWrappers(argument))) ??
    (hasInvocationMember(object, settings) ? undefined : namedFunctionArgument(call, object));
  // LangChain's `tool(fn, { name, schema })`: the function is the invocation.
  if (!functionArgument && !hasInvocationMember(object, settings)) return undefined;
  const firstArgumentName = resolveToolName(call.arguments[0]);
  return objectLiteralDefinition('factory', object, firstArgumentName ?? nameOfObject(object), functionArgument);
}

export function recogniseConstructorCall(call: TSESTree.NewExpression, settings: RecognitionSettings): ToolDefinition | undefined {
  const calleeName = getCalleeLastName(call);
  if (calleeName === undefined) return undefined;
  const isToolConstructor = (name: string) => TOOL_CONSTRUCTOR_PATTERN.test(name) || settings.toolFactories.includes(name);
  if (!isToolConstructor(calleeName)) {
    // `import { DynamicStructuredTool as c } from '@langchain/core/tools'`, then `new c({…})`.
    const imported = renamedImportName(call);
    if (imported === undefined || !isToolConstructor(imported)) return undefined;
  }
  const object = firstObjectArgument(call);
  if (!object || !hasInvocationMember(object, settings)) return undefined;
  return objectLiteralDefinition('constructor', object);
}
