/**
 * What a tool definition is, in every shape agent codebases write one:
 * classes (with the classification member, or extending a `…Tool` base),
 * object literals passed to factories (`buildTool`, `defineTool`, `tool`,
 * `createTool`, `Tool.define`), `new DynamicStructuredTool({...})`-style
 * constructors, MCP `server.tool(...)` / `server.registerTool(name, config,
 * handler)`, and object literals typed `: Tool` or `satisfies Tool`.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import {
  type ClassNode,
  type FunctionNode,
  findProperty,
  getCalleeLastName,
  getCalleeName,
  getMemberPath,
  getStaticKeyName,
  isClassNode,
  isFunctionNode,
  matchesDottedName,
  skipTypeWrappers,
  walk,
} from './ast.js';
import type { FileIndex } from './file-index.js';
import type { RecognitionSettings } from './settings.js';
import { anyWordPattern } from './text-patterns.js';
import { declaredTypeNameOfObject } from './tool-object-type.js';
import { factoryLastNamesOf, namedFunctionArgument, withoutBundlerSuffix } from './tool-shapes/factory-variants.js';
import {
  SDK_SHAPE_SPELLINGS,
  recogniseSdkToolCall,
  recogniseSdkToolClass,
  recogniseSdkToolObject,
  withToolMapKeyName,
} from './tool-shapes/index.js';
import { recogniseDispatchBranch, recogniseDispatchCase } from './tool-shapes/mcp-low-level.js';
import { isJoinedImplementation, recogniseJoinedListEntry, recogniseMapJoinedDefinition } from './tool-shapes/name-dispatch.js';
import { recogniseTaskRegistration } from './tool-shapes/mcp-task.js';
import { recogniseObjectRegistration } from './tool-shapes/object-registration.js';
import { mayHoldToolName, resolveToolName } from './tool-shapes/tool-name.js';

export type ToolShape =
  | 'class'
  | 'factory'
  | 'constructor'
  | 'typed-object'
  | 'mcp-registration'
  | 'object-registration'
  | 'mcp-dispatch'
  | 'decorator'
  | 'plain-object';

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
   * Where classification members (`maxResultSizeChars`, `stateScope`) live and
   * where a fix inserts them: the class, or the object literal / MCP config.
   */
  host: ClassNode | TSESTree.ObjectExpression | undefined;
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

const TOOL_BASE_CLASS_PATTERN = /Tool$/;
const TOOL_TYPE_PATTERN = /Tool(?:Def|Definition)?$/;
const TOOL_CONSTRUCTOR_PATTERN = /Tool$/;
export const MCP_META_PREFIX = 'anthropic/';

export function isToolTypeName(name: string | undefined, settings: RecognitionSettings): boolean {
  if (name === undefined) return false;
  return settings.toolTypeNames.includes(name) || TOOL_TYPE_PATTERN.test(name);
}

function isToolBaseClass(superClass: TSESTree.Node | null, settings: RecognitionSettings): boolean {
  if (!superClass) return false;
  const path = getMemberPath(superClass);
  const name = path?.[path.length - 1];
  if (name === undefined) {
    // `class X extends mixin(BaseTool)`: look at the innermost argument.
    const target = skipTypeWrappers(superClass);
    if (target.type === AST_NODE_TYPES.CallExpression) {
      return target.arguments.some((argument) => isToolBaseClass(argument, settings));
    }
    return false;
  }
  return settings.toolBaseClasses.includes(name) || TOOL_BASE_CLASS_PATTERN.test(name);
}

/** Does the object literal have a function-valued invocation member? */
export function hasInvocationMember(object: TSESTree.ObjectExpression, settings: RecognitionSettings): boolean {
  return object.properties.some(
    (property) =>
      property.type === AST_NODE_TYPES.Property &&
      settings.invocationNames.includes(getStaticKeyName(property.key, property.computed) ?? '') &&
      (isFunctionNode(skipTypeWrappers(property.value)) || property.value.type === AST_NODE_TYPES.Identifier),
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

function staticNameOfClass(classNode: ClassNode): string | undefined {
  const nameMember = classMemberByName(classNode, 'name');
  if (nameMember?.type === AST_NODE_TYPES.PropertyDefinition) {
    const value = resolveToolName(nameMember.value);
    if (value !== undefined) return value;
  }
  return classNode.id?.name ?? nameBoundTo(classNode);
}

/**
 * The name the code keeps a tool under, for a tool that states none the
 * model sees: the variable it initialises, or the member it is assigned to
 * (`exports.readTool = tool({…})`, `module.exports.readTool = …`, `this.readTool = …`).
 */
function nameBoundTo(node: TSESTree.Node): string | undefined {
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

function recogniseClass(node: ClassNode, settings: RecognitionSettings): ToolDefinition | undefined {
  // An abstract class is a base for tools, not a tool the model can call; an
  // ambient one (`declare class`, a .d.ts) has no code to classify.
  if (node.abstract || isAmbient(node)) return undefined;
  // `class Read implements Tool<Input>`: the interface names it a tool.
  const implementsToolType = (node.implements ?? []).some((clause) => {
    const path = getMemberPath(clause.expression);
    return isToolTypeName(path?.[path.length - 1], settings);
  });
  if (!classMemberByName(node, 'maxResultSizeChars') && !isToolBaseClass(node.superClass, settings) && !implementsToolType) {
    return undefined;
  }
  return {
    shape: 'class',
    node,
    reportNode: node.id ?? node,
    name: staticNameOfClass(node),
    host: node,
    isMcpRegistration: false,
    handlerArgument: undefined,
  };
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
  return isFunctionNode(target) || target.type === AST_NODE_TYPES.Identifier || target.type === AST_NODE_TYPES.MemberExpression;
}

function recogniseMcpRegistration(call: TSESTree.CallExpression): ToolDefinition | undefined {
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
  return {
    shape: 'mcp-registration',
    node: host ?? call,
    reportNode: call,
    name: resolveToolName(nameTarget) ?? getMemberPath(nameTarget)?.join('.'),
    host,
    isMcpRegistration: true,
    handlerArgument: handler,
  };
}

function recogniseFactoryCall(call: TSESTree.CallExpression, settings: RecognitionSettings): ToolDefinition | undefined {
  // Every call of a file passes here: compare the callee's last name before building its dotted name.
  const lastNames = factoryLastNamesOf(settings);
  const lastName = withoutBundlerSuffix(getCalleeLastName(call), call);
  // (A computed key may itself hold dots: `x['a.tool']()`, so such names go the long way.)
  if (lastName === undefined || (!lastNames.has(lastName) && !lastName.includes('.'))) return undefined;
  if (!matchesDottedName(withoutBundlerSuffix(getCalleeName(call), call), settings.toolFactories)) return undefined;
  const object = firstObjectArgument(call);
  if (!object) return undefined;
  const functionArgument =
    call.arguments.find((argument) => isFunctionNode(skipTypeWrappers(argument))) ??
    (hasInvocationMember(object, settings) ? undefined : namedFunctionArgument(call, object));
  // LangChain's `tool(fn, { name, schema })`: the function is the invocation.
  if (!functionArgument && !hasInvocationMember(object, settings)) return undefined;
  const firstArgumentName = resolveToolName(call.arguments[0]);
  return objectLiteralDefinition('factory', object, firstArgumentName ?? nameOfObject(object), functionArgument);
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

function recogniseConstructorCall(call: TSESTree.NewExpression, settings: RecognitionSettings): ToolDefinition | undefined {
  const calleeName = getCalleeLastName(call);
  if (calleeName === undefined) return undefined;
  if (!TOOL_CONSTRUCTOR_PATTERN.test(calleeName) && !settings.toolFactories.includes(calleeName)) return undefined;
  const object = firstObjectArgument(call);
  if (!object || !hasInvocationMember(object, settings)) return undefined;
  return objectLiteralDefinition('constructor', object);
}

/**
 * Is this object literal a tool by its type? Syntactic annotation first;
 * `contextualTypeName` (type-aware mode) is asked only when that fails.
 */
function recogniseTypedObject(
  object: TSESTree.ObjectExpression,
  settings: RecognitionSettings,
  contextualTypeName: ((node: TSESTree.ObjectExpression) => string | undefined) | undefined,
): ToolDefinition | undefined {
  if (!hasInvocationMember(object, settings)) return undefined;
  const parent = object.parent;
  // Objects handed to a factory or constructor are recognised there.
  if (parent?.type === AST_NODE_TYPES.CallExpression && parent.arguments.includes(object)) {
    if (recogniseMcpRegistration(parent) ?? recogniseObjectRegistration(parent, settings) ?? recogniseFactoryCall(parent, settings))
      return undefined;
  }
  if (parent?.type === AST_NODE_TYPES.NewExpression && recogniseConstructorCall(parent, settings)) return undefined;
  const typeName = declaredTypeNameOfObject(object) ?? contextualTypeName?.(object);
  if (!isToolTypeName(typeName, settings)) return undefined;
  return objectLiteralDefinition('typed-object', object);
}

export interface RecogniseOptions {
  /** Type-aware mode: the name of the contextual type of an object literal. */
  contextualTypeName?: (node: TSESTree.ObjectExpression) => string | undefined;
  /** The linted file's absolute path: tools joined across the package's files need it. */
  filePath?: string | undefined;
}

/**
 * Per-node recognition, for rules that listen to `ClassDeclaration`,
 * `ClassExpression`, `CallExpression`, `NewExpression` and `ObjectExpression`.
 */
export function recogniseToolDefinition(
  node: TSESTree.Node,
  settings: RecognitionSettings,
  options: RecogniseOptions = {},
): ToolDefinition | undefined {
  switch (node.type) {
    case AST_NODE_TYPES.ClassDeclaration:
    case AST_NODE_TYPES.ClassExpression: {
      const definition = recogniseClass(node, settings) ?? recogniseSdkToolClass(node, settings);
      // The implementation a tool list entry is joined to by name: the entry is the tool.
      return definition && isJoinedImplementation(node, options.filePath) ? undefined : definition;
    }
    case AST_NODE_TYPES.CallExpression:
      return withToolMapKeyName(
        recogniseMcpRegistration(node) ??
          recogniseObjectRegistration(node, settings) ??
          recogniseTaskRegistration(node) ??
          recogniseFactoryCall(node, settings) ??
          recogniseSdkToolCall(node, settings),
      );
    case AST_NODE_TYPES.NewExpression:
      return withToolMapKeyName(recogniseConstructorCall(node, settings));
    case AST_NODE_TYPES.ObjectExpression:
      return (
        withToolMapKeyName(recogniseTypedObject(node, settings, options.contextualTypeName)) ??
        recogniseSdkToolObject(node, settings) ??
        recogniseJoinedListEntry(node, options.filePath) ??
        recogniseMapJoinedDefinition(node, options.filePath)
      );
    case AST_NODE_TYPES.SwitchCase:
      return recogniseDispatchCase(node);
    case AST_NODE_TYPES.IfStatement:
      return recogniseDispatchBranch(node);
    default:
      return undefined;
  }
}

const toolSpellings = new WeakMap<RecognitionSettings, RegExp>();

/**
 * Can this source text define a tool at all? Every shape spells `tool`
 * (`buildTool`, `server.tool`, `…Tool` bases and types), the classification
 * member, or a name from settings. Rules skip files that do not — most files
 * of a codebase — before building anything. Object literals recognised only
 * by their contextual type (type-aware mode) may spell none of these, so
 * callers with type information do not use this filter.
 */
export function mayDefineTools(text: string, settings: RecognitionSettings): boolean {
  let spelling = toolSpellings.get(settings);
  if (!spelling) {
    const names = [...settings.toolFactories, ...settings.toolBaseClasses, ...settings.toolTypeNames].map((name) => name.split('.').pop()!);
    spelling = anyWordPattern(['tool', 'maxResultSizeChars', ...SDK_SHAPE_SPELLINGS, ...names], 'i');
    toolSpellings.set(settings, spelling);
  }
  return spelling.test(text);
}

/** Every tool definition in a tree (needs `parent` links: ESLint's tree has them). */
export function findToolDefinitions(root: TSESTree.Node, settings: RecognitionSettings, options: RecogniseOptions = {}): ToolDefinition[] {
  const found: ToolDefinition[] = [];
  walk(root, (node) => {
    const definition = recogniseToolDefinition(node, settings, options);
    if (definition) found.push(definition);
  });
  return found;
}

function singleReturnedExpression(method: TSESTree.MethodDefinition): TSESTree.Expression | undefined {
  const body = method.value.body?.body;
  if (body?.length !== 1) return undefined;
  const [statement] = body;
  return statement?.type === AST_NODE_TYPES.ReturnStatement ? (statement.argument ?? undefined) : undefined;
}

function constructorAssignment(classNode: ClassNode, name: string): TSESTree.AssignmentExpression | undefined {
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

/**
 * Where a tool declares `memberName` (`maxResultSizeChars`, `stateScope`):
 * the class member (field, getter, `this.x =` in the constructor), the object
 * property, or for MCP registrations `_meta['anthropic/<memberName>']`.
 */
export function findToolMember(definition: ToolDefinition, memberName: string): ToolMember | undefined {
  const host = definition.host;
  if (!host) return undefined;
  if (isClassNode(host)) {
    const member = classMemberByName(host, memberName);
    if (member?.type === AST_NODE_TYPES.PropertyDefinition || member?.type === AST_NODE_TYPES.AccessorProperty) {
      return { node: member, value: member.value ?? undefined, location: 'class-member' };
    }
    if (member?.type === AST_NODE_TYPES.MethodDefinition) {
      return { node: member, value: singleReturnedExpression(member), location: 'class-member' };
    }
    const assignment = constructorAssignment(host, memberName);
    if (assignment) return { node: assignment, value: assignment.right, location: 'constructor-assignment' };
    return undefined;
  }
  const property = findProperty(host, memberName);
  if (property) {
    const value = property.value;
    if (property.kind === 'get' && value.type === AST_NODE_TYPES.FunctionExpression) {
      const body = value.body.body;
      const onlyStatement = body.length === 1 ? body[0] : undefined;
      return {
        node: property,
        value: onlyStatement?.type === AST_NODE_TYPES.ReturnStatement ? (onlyStatement.argument ?? undefined) : undefined,
        location: 'property',
      };
    }
    const isValue =
      value.type !== AST_NODE_TYPES.AssignmentPattern &&
      value.type !== AST_NODE_TYPES.TSEmptyBodyFunctionExpression &&
      value.type !== AST_NODE_TYPES.ObjectPattern &&
      value.type !== AST_NODE_TYPES.ArrayPattern;
    return { node: property, value: isValue ? (value as TSESTree.Expression) : undefined, location: 'property' };
  }
  const meta = findProperty(host, '_meta');
  const metaObject = meta ? skipTypeWrappers(meta.value) : undefined;
  if (metaObject?.type === AST_NODE_TYPES.ObjectExpression) {
    const metaProperty = findProperty(metaObject, `${MCP_META_PREFIX}${memberName}`);
    if (metaProperty) {
      return { node: metaProperty, value: metaProperty.value as TSESTree.Expression, location: 'mcp-meta' };
    }
  }
  return undefined;
}

/** The `_meta` object literal of an MCP config, for fixes that add a key to it. */
export function findMcpMetaObject(definition: ToolDefinition): TSESTree.ObjectExpression | undefined {
  if (!definition.host || isClassNode(definition.host)) return undefined;
  const meta = findProperty(definition.host, '_meta');
  const metaObject = meta ? skipTypeWrappers(meta.value) : undefined;
  return metaObject?.type === AST_NODE_TYPES.ObjectExpression ? metaObject : undefined;
}

/**
 * The last node recognised per recognition context (one per linted file and
 * settings), with what it was recognised as. ESLint calls every rule's
 * listener for a node one after the other, so the second rule that checks
 * tools takes the first one's answer instead of recognising the node again;
 * one slot is enough, and costs nothing to keep.
 */
const lastRecognised = new WeakMap<object, { node: TSESTree.Node; definition: ToolDefinition | undefined }>();

/**
 * Rule listeners that call `onDefinition` for every tool definition in the
 * file, whatever its shape: the node types a definition can start at are
 * listed here once, so every rule that checks tools visits the same ones.
 */
export function toolDefinitionListeners(
  getRecognition: () => { settings: RecognitionSettings; contextualTypeName?: RecogniseOptions['contextualTypeName']; filePath?: string },
  onDefinition: (definition: ToolDefinition) => void,
): Record<
  'ClassDeclaration' | 'ClassExpression' | 'CallExpression' | 'NewExpression' | 'ObjectExpression' | 'SwitchCase' | 'IfStatement',
  (node: TSESTree.Node) => void
> {
  const check = (node: TSESTree.Node): void => {
    const recognition = getRecognition();
    const last = lastRecognised.get(recognition);
    let definition: ToolDefinition | undefined;
    if (last?.node === node) definition = last.definition;
    else {
      definition = recogniseToolDefinition(node, recognition.settings, {
        contextualTypeName: recognition.contextualTypeName,
        filePath: recognition.filePath,
      });
      if (last) {
        last.node = node;
        last.definition = definition;
      } else lastRecognised.set(recognition, { node, definition });
    }
    if (definition) onDefinition(definition);
  };
  return {
    ClassDeclaration: check,
    ClassExpression: check,
    CallExpression: check,
    NewExpression: check,
    ObjectExpression: check,
    SwitchCase: check,
    IfStatement: check,
  };
}
