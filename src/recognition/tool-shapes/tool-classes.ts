/**
 * Tools written as classes. The general shape: a class that declares
 * `maxResultSizeChars`, extends a `…Tool` base (`BaseTool`, LangChain's
 * `StructuredTool`, a configured base) or implements a `…Tool` interface.
 * Then the classes that do none of that, recognised by their real APIs:
 * - a class implementing the Anthropic SDK's `…ToolHandlers` interface
 *   (`MemoryToolHandlers`): one method per command of ONE tool, named after
 *   the interface (`memory`), the name the SDK gives the model;
 * - a class named `…Tool` that has an invocation method (`_call`, `run`, …),
 *   as LangChain toolkits write them over a shared non-tool base
 *   (`class CalendarViewTool extends CalendarBase`). The invocation method
 *   is required: a name alone says nothing about what runs on a call;
 * - a class, whatever it is named, whose constructor hands its base the
 *   whole contract the model is shown (`super({ name: 'afs_read',
 *   description, inputSchema })`) and that has an invocation method: an
 *   agent framework's skill (`class AFSReadAgent extends AFSSkillBase { …
 *   process(input) }`). The base is the framework's; the contract says the
 *   class is something the model calls.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type ClassNode, constructorSuperCalls, findProperty, getMemberPath, getStaticKeyName, skipTypeWrappers } from '../ast.js';
import type { RecognitionSettings } from '../settings.js';
import { declaredObject, statesContract } from '../tool-contract.js';
import { resolveToolName } from '../tool-name.js';
import { type ToolDefinition, classMemberByName, constructorAssignment, isAmbient, isToolTypeName, nameBoundTo } from './vocabulary.js';

const TOOL_HANDLERS_INTERFACE = /^(\w+)ToolHandlers$/;
const TOOL_CLASS_NAME = /Tool$/;

function classNameOf(node: ClassNode): string | undefined {
  if (node.id) return node.id.name;
  const parent = node.parent;
  if (parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.id.type === AST_NODE_TYPES.Identifier) return parent.id.name;
  return undefined;
}

/** `MemoryToolHandlers` → `memory`. */
function handlersToolName(node: ClassNode): string | undefined {
  for (const clause of node.implements ?? []) {
    const path = getMemberPath(clause.expression);
    const match = TOOL_HANDLERS_INTERFACE.exec(path?.[path.length - 1] ?? '');
    if (match) return match[1]!.replace(/^./, (first) => first.toLowerCase());
  }
  return undefined;
}

/** The public instance methods: each is a command the SDK dispatches to. */
function commandMethods(node: ClassNode): string[] {
  const names: string[] = [];
  for (const member of node.body.body) {
    if (member.type !== AST_NODE_TYPES.MethodDefinition || member.kind !== 'method' || member.static) continue;
    if (member.accessibility === 'private' || member.accessibility === 'protected') continue;
    if (member.key.type === AST_NODE_TYPES.PrivateIdentifier) continue;
    const name = getStaticKeyName(member.key, member.computed);
    if (name !== undefined) names.push(name);
  }
  return names;
}

function classDefinition(node: ClassNode, name: string | undefined, invocationMembers?: string[]): ToolDefinition {
  return {
    shape: 'class',
    node,
    reportNode: node.id ?? node,
    name,
    host: node,
    isMcpRegistration: false,
    handlerArgument: undefined,
    ...(invocationMembers ? { invocationMembers } : {}),
  };
}

/** Invocation methods of a class whose base was handed the contract, besides the configured ones (AIGNE's `process`). */
const CONTRACT_CLASS_INVOCATIONS = ['process', 'handle', 'perform'];

/** The options object a constructor hands to `super(…)` when it states the contract (a description and an input schema). */
function superContract(node: ClassNode): TSESTree.ObjectExpression | undefined {
  if (!node.superClass) return undefined;
  const call = constructorSuperCalls(node).find((candidate) => candidate.arguments.length === 1);
  if (!call) return undefined;
  const options = skipTypeWrappers(call.arguments[0]!);
  return options.type === AST_NODE_TYPES.ObjectExpression && statesContract(options) ? options : undefined;
}

/** The object a declaration method of the class hands back, when it states the contract. */
function declarationContract(node: ClassNode): TSESTree.ObjectExpression | undefined {
  const declared = declaredObject(node);
  return declared && statesContract(declared) ? declared : undefined;
}

/**
 * A class that states the whole contract and has an invocation method: the name the contract states. It
 * hands the contract to its base (`super({ name, description, inputSchema })`) or a declaration method of
 * its own hands it back (`static get_definition() { return { name, description, parameters } }`).
 */
function contractClass(node: ClassNode, methods: ReadonlySet<string>, settings: RecognitionSettings): ToolDefinition | undefined {
  const invocations = [...settings.invocationNames, ...CONTRACT_CLASS_INVOCATIONS].filter((name) => methods.has(name));
  if (invocations.length === 0) return undefined;
  const options = superContract(node) ?? declarationContract(node);
  const name = options ? resolveToolName(findProperty(options, 'name')?.value) : undefined;
  return name === undefined ? undefined : classDefinition(node, name, invocations);
}

export function recogniseToolClass(node: ClassNode, settings: RecognitionSettings): ToolDefinition | undefined {
  if (node.abstract || isAmbient(node)) return undefined;
  const handlersName = handlersToolName(node);
  if (handlersName !== undefined) return classDefinition(node, handlersName, commandMethods(node));
  const className = classNameOf(node);
  const methods = new Set(commandMethods(node));
  if (className === undefined || !TOOL_CLASS_NAME.test(className)) return contractClass(node, methods, settings);
  if (!settings.invocationNames.some((name) => methods.has(name))) return undefined;
  return classDefinition(node, declaredToolName(node) ?? className);
}

const TOOL_BASE_CLASS_PATTERN = /Tool$/;

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

/** The name a class states for its tool: its `name` field, or (tsc's output without class fields) the constructor's `this.name = …`. */
function declaredToolName(classNode: ClassNode): string | undefined {
  const nameMember = classMemberByName(classNode, 'name');
  if (nameMember?.type === AST_NODE_TYPES.PropertyDefinition) return resolveToolName(nameMember.value);
  return nameMember === undefined ? resolveToolName(constructorAssignment(classNode, 'name')?.right) : undefined;
}

function staticNameOfClass(classNode: ClassNode): string | undefined {
  return declaredToolName(classNode) ?? classNode.id?.name ?? nameBoundTo(classNode);
}

export function recogniseClass(node: ClassNode, settings: RecognitionSettings): ToolDefinition | undefined {
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
