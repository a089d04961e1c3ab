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
 *   class is something the model calls;
 * - a class handed its definition (`WebsiteScrapeTool.openaiToolDefinition =
 *   SCRAPE_TOOL_OPENAI`, tsc's output of a static field, or `static
 *   definition = { name, description, parameters }`) whose methods run it
 *   (`static async runnable(client, params)`): the definition is what the
 *   model is shown, the class's own methods are what a call runs, and the
 *   input is the parameter named for it.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import {
  type ClassNode,
  type FunctionNode,
  constructorSuperCalls,
  findProperty,
  getMemberPath,
  getStaticKeyName,
  programOf,
  skipTypeWrappers,
} from '../ast.js';
import type { RecognitionSettings } from '../settings.js';
import { declaredObject, statesContract } from '../tool-contract.js';
import { definitionObjectOf, resolveToolName } from '../tool-name.js';
import {
  INPUT_PARAMETER,
  type ToolDefinition,
  classMemberByName,
  classMethods,
  constructorAssignment,
  isAmbient,
  isToolTypeName,
  nameBoundTo,
} from './vocabulary.js';

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

function classDefinition(
  node: ClassNode,
  name: string | undefined,
  invocationMembers?: string[],
  inputParameter?: number,
  contractSource?: TSESTree.ObjectExpression,
): ToolDefinition {
  return {
    shape: 'class',
    node,
    reportNode: node.id ?? node,
    name,
    host: node,
    isMcpRegistration: false,
    handlerArgument: undefined,
    ...(invocationMembers ? { invocationMembers } : {}),
    ...(inputParameter === undefined ? {} : { inputParameter }),
    ...(contractSource ? { contractSource } : {}),
  };
}

/** The member a class is handed its definition under: `definition`, `toolDefinition`, `openaiToolDefinition`. */
const ATTACHED_DEFINITION_KEY = /^(?:[a-z]+)?(?:[Tt]ool)?[Dd]efinition$/;

const assignedDefinitions = new WeakMap<TSESTree.Program, Map<string, TSESTree.Node[]>>();

/** `X.openaiToolDefinition = …` statements at the top of a module, by the name of `X`; collected once per module. */
function definitionsAssignedIn(program: TSESTree.Program): Map<string, TSESTree.Node[]> {
  let found = assignedDefinitions.get(program);
  if (found) return found;
  found = new Map();
  for (const statement of program.body) {
    if (statement.type !== AST_NODE_TYPES.ExpressionStatement) continue;
    const assignment = statement.expression;
    if (assignment.type !== AST_NODE_TYPES.AssignmentExpression || assignment.left.type !== AST_NODE_TYPES.MemberExpression) continue;
    const target = assignment.left;
    if (target.object.type !== AST_NODE_TYPES.Identifier) continue;
    const key = getStaticKeyName(target.property, target.computed);
    if (key === undefined || !ATTACHED_DEFINITION_KEY.test(key)) continue;
    found.set(target.object.name, [...(found.get(target.object.name) ?? []), assignment.right]);
  }
  assignedDefinitions.set(program, found);
  return found;
}

/**
 * The definition object a class is handed as a static member: `static definition = {…}` in its body, or
 * (tsc's output of a static field) `ClassName.openaiToolDefinition = SCRAPE_TOOL_OPENAI;` at the top of its
 * module, followed through constants and the modules they come from. Only one that states a name.
 */
function attachedDefinition(node: ClassNode, className: string): { definition: TSESTree.ObjectExpression; name: string } | undefined {
  const values: TSESTree.Node[] = [];
  for (const member of node.body.body) {
    if (member.type !== AST_NODE_TYPES.PropertyDefinition || !member.static || !member.value) continue;
    const key = getStaticKeyName(member.key, member.computed);
    if (key !== undefined && ATTACHED_DEFINITION_KEY.test(key)) values.push(member.value);
  }
  const program = programOf(node);
  if (program) values.push(...(definitionsAssignedIn(program).get(className) ?? []));
  for (const value of values) {
    const definition = definitionObjectOf(value);
    if (!definition) continue;
    // `{ name, description, input_schema }`, or OpenAI's `{ type: 'function', function: { name, … } }`.
    const nested = findProperty(definition, 'function');
    const nestedObject = nested ? skipTypeWrappers(nested.value) : undefined;
    const contract = nestedObject?.type === AST_NODE_TYPES.ObjectExpression ? nestedObject : definition;
    const name = resolveToolName(findProperty(contract, 'name')?.value);
    if (name !== undefined && statesContract(contract)) return { definition: contract, name };
  }
  return undefined;
}

/**
 * Every method the class defines, static or not (a class handed its definition runs through its static
 * ones): `classMethods` less its getters, function-valued fields and `#private` methods, which no harness calls.
 */
function ownMethods(node: ClassNode): { name: string; fn: FunctionNode }[] {
  return [...classMethods(node)]
    .filter(([, fn]) => {
      const member = fn.parent;
      return (
        member.type === AST_NODE_TYPES.MethodDefinition && member.kind === 'method' && member.key.type !== AST_NODE_TYPES.PrivateIdentifier
      );
    })
    .map(([name, fn]) => ({ name, fn }));
}

/** A class handed its definition, whose methods run it: the definition's name, the methods as the invocation. */
function definitionAttachedClass(node: ClassNode, className: string): ToolDefinition | undefined {
  const methods = ownMethods(node);
  if (methods.length === 0) return undefined;
  const attached = attachedDefinition(node, className);
  if (!attached) return undefined;
  // `runnable(hb, params)`: the parameter named for the input; the first when none is.
  const parameterNames = methods[0]!.fn.params.map((parameter) => (parameter.type === AST_NODE_TYPES.Identifier ? parameter.name : ''));
  const named = parameterNames.findIndex((name) => INPUT_PARAMETER.test(name));
  return classDefinition(
    node,
    attached.name,
    methods.map((method) => method.name),
    named > 0 ? named : undefined,
    attached.definition,
  );
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
  if (className === undefined) return contractClass(node, methods, settings);
  if (!TOOL_CLASS_NAME.test(className)) return contractClass(node, methods, settings) ?? definitionAttachedClass(node, className);
  if (!settings.invocationNames.some((name) => methods.has(name))) return definitionAttachedClass(node, className);
  if (isFluentBuilder(node, settings)) return undefined;
  return classDefinition(node, declaredToolName(node) ?? className);
}

/**
 * `class Tool { handler(fn) { this.handlerFn = fn; return this; } build() { … } }`: the builder tools are made
 * with (`tool-shapes/fluent-builders.ts`), not a tool. Its invocation-named method keeps a function and hands the
 * builder back, and a `build` method makes the tool.
 */
function isFluentBuilder(node: ClassNode, settings: RecognitionSettings): boolean {
  if (!classMemberByName(node, 'build')) return false;
  return settings.invocationNames.some((name) => {
    const member = classMemberByName(node, name);
    const body = member?.type === AST_NODE_TYPES.MethodDefinition ? (member.value.body?.body ?? []) : [];
    const last = body[body.length - 1];
    const returned = last?.type === AST_NODE_TYPES.ReturnStatement && last.argument ? skipTypeWrappers(last.argument) : undefined;
    if (returned?.type === AST_NODE_TYPES.ThisExpression) return true;
    // tsc's `const self = this; …; return self;`
    return (
      returned?.type === AST_NODE_TYPES.Identifier &&
      body.some(
        (statement) =>
          statement.type === AST_NODE_TYPES.VariableDeclaration &&
          statement.declarations.some(
            (declarator) =>
              declarator.id.type === AST_NODE_TYPES.Identifier &&
              declarator.id.name === returned.name &&
              declarator.init?.type === AST_NODE_TYPES.ThisExpression,
          ),
      )
    );
  });
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
