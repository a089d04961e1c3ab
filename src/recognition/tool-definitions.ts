/**
 * The registry of tool shapes: for each node a definition can start at, it
 * asks the shape families of `tool-shapes/` in a fixed order and takes the
 * first answer. The families are leaves (they import only
 * `tool-shapes/vocabulary.ts` and the shared AST helpers); the order lives
 * here, once, so that every rule, the inventory and the codemods see the
 * same tools:
 * - classes: the general class shape, then classes known by their SDK's API
 *   (`tool-shapes/tool-classes.ts`);
 * - calls: MCP registrations, calls of a package's registration helper, object registrations, MCP tasks, the
 *   configured factories, then the SDK families (playwright MCP, config-returning
 *   factories, decorators and decorators applied by hand, LlamaIndex, OpenAI
 *   Agents, AI SDK provider tools), then the `handler` a tool module exports, then a fluent builder's chain
 *   (`new Tool(name).description(…).input(…).handler(fn).build()`);
 * - `new …Tool({...})` constructors;
 * - object literals: typed as a tool, then objects no call configures (tools
 *   maps, factory-returned tools, OpenAI Agents function tools), then tool list
 *   entries joined by name to a dispatcher, then any object that states a whole
 *   contract (description and input schema) and carries an invocation;
 * - the branches of a low-level MCP dispatcher (`case` and `if`).
 * A tool in a tools map that states no name takes the key (`withToolMapKeyName`).
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { getCalleeLastName, walk } from './ast.js';
import type { RecognitionSettings } from './settings.js';
import { anyWordPattern } from './text-patterns.js';
import { recogniseProviderDefinedTool } from './tool-shapes/ai-sdk.js';
import { DECORATOR_SHAPE_SPELLINGS, recogniseDecoratedMethodTool } from './tool-shapes/decorators.js';
import {
  recogniseConfigReturningFactoryCall,
  recogniseConstructorCall,
  recogniseFactoryCall,
  recogniseToolWrapperCall,
} from './tool-shapes/factories.js';
import { recogniseBuilderChain } from './tool-shapes/fluent-builders.js';
import { recogniseFactoryReturnedTool } from './tool-shapes/harness-factories.js';
import { recogniseFunctionToolFrom } from './tool-shapes/llamaindex.js';
import { recogniseContractObject } from './tool-shapes/contract-objects.js';
import { CURRIED_REGISTRATION_SPELLING, recogniseCurriedRegistration } from './tool-shapes/curried-registrations.js';
import { recogniseDispatchBranch, recogniseDispatchCase } from './tool-shapes/mcp-low-level.js';
import { recogniseMcpRegistration, recogniseRegistrationTuple } from './tool-shapes/mcp-registration.js';
import { recogniseTaskRegistration } from './tool-shapes/mcp-task.js';
import { isJoinedImplementation, recogniseJoinedListEntry, recogniseMapJoinedDefinition } from './tool-shapes/name-dispatch.js';
import { recogniseObjectRegistration } from './tool-shapes/object-registration.js';
import {
  isHelperInnerRegistration,
  recogniseForeignHelperRegistration,
  recogniseHelperRegistration,
} from './tool-shapes/registration-helpers.js';
import { recogniseFunctionToolObject, recogniseLocalExecutorTool } from './tool-shapes/openai-agents.js';
import { recogniseSchemaHandleTool } from './tool-shapes/playwright.js';
import { recogniseClass, recogniseToolClass } from './tool-shapes/tool-classes.js';
import { recogniseToolMapObject } from './tool-shapes/tool-maps.js';
import { recogniseToolModuleHandler, recogniseToolModuleMetadata } from './tool-shapes/tool-modules.js';
import { recogniseTypedObject } from './tool-shapes/typed-objects.js';
import { type ToolDefinition, withToolMapKeyName } from './tool-shapes/vocabulary.js';

/** Is `object` the config of a call or `new` that is recognised as a tool by itself? Then that call is the tool. */
function configuresRecognisedCall(object: TSESTree.ObjectExpression, settings: RecognitionSettings): boolean {
  const parent = object.parent;
  if (parent?.type === AST_NODE_TYPES.CallExpression && parent.arguments.includes(object)) {
    return Boolean(
      recogniseMcpRegistration(parent) ??
      recogniseHelperRegistration(parent) ??
      recogniseObjectRegistration(parent, settings) ??
      recogniseFactoryCall(parent, settings) ??
      recogniseToolWrapperCall(parent, settings) ??
      recogniseForeignHelperRegistration(parent),
    );
  }
  return parent?.type === AST_NODE_TYPES.NewExpression && recogniseConstructorCall(parent, settings) !== undefined;
}

/** A registration inside a package's helper, named by the helper's parameter, is the helper: its calls are the tools. */
function outsideRegistrationHelpers(definition: ToolDefinition | undefined): ToolDefinition | undefined {
  return definition && definition.reportNode.type === AST_NODE_TYPES.CallExpression && isHelperInnerRegistration(definition.reportNode)
    ? undefined
    : definition;
}

/** Object literals that are tools without a factory: only when no call or `new` takes them as its config. */
function recogniseConfigFreeObject(object: TSESTree.ObjectExpression, settings: RecognitionSettings): ToolDefinition | undefined {
  const parent = object.parent;
  if (
    (parent?.type === AST_NODE_TYPES.CallExpression || parent?.type === AST_NODE_TYPES.NewExpression) &&
    parent.arguments.includes(object)
  ) {
    return undefined;
  }
  return recogniseToolMapObject(object, settings) ?? recogniseFactoryReturnedTool(object, settings) ?? recogniseFunctionToolObject(object);
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
      const definition = recogniseClass(node, settings) ?? recogniseToolClass(node, settings);
      // The implementation a tool list entry is joined to by name: the entry is the tool.
      return definition && isJoinedImplementation(node, options.filePath) ? undefined : definition;
    }
    case AST_NODE_TYPES.CallExpression:
      return withToolMapKeyName(
        outsideRegistrationHelpers(recogniseMcpRegistration(node)) ??
          recogniseHelperRegistration(node) ??
          recogniseObjectRegistration(node, settings) ??
          recogniseTaskRegistration(node) ??
          recogniseFactoryCall(node, settings) ??
          recogniseSchemaHandleTool(node) ??
          recogniseConfigReturningFactoryCall(node, settings) ??
          recogniseDecoratedMethodTool(node) ??
          recogniseCurriedRegistration(node) ??
          recogniseFunctionToolFrom(node) ??
          recogniseLocalExecutorTool(node) ??
          recogniseProviderDefinedTool(node, settings) ??
          recogniseToolModuleHandler(node) ??
          recogniseBuilderChain(node) ??
          recogniseToolWrapperCall(node, settings) ??
          recogniseForeignHelperRegistration(node),
      );
    case AST_NODE_TYPES.NewExpression:
      return withToolMapKeyName(recogniseConstructorCall(node, settings));
    case AST_NODE_TYPES.ObjectExpression:
      if (definesPromptOrResource(node)) return undefined;
      return (
        withToolMapKeyName(
          recogniseTypedObject(node, settings, options.contextualTypeName, (object) => configuresRecognisedCall(object, settings)),
        ) ??
        recogniseConfigFreeObject(node, settings) ??
        recogniseJoinedListEntry(node, options.filePath, settings) ??
        recogniseMapJoinedDefinition(node, options.filePath) ??
        recogniseToolModuleMetadata(node) ??
        recogniseRegistrationTuple(node) ??
        (configuresRecognisedCall(node, settings) ? undefined : withToolMapKeyName(recogniseContractObject(node, settings)))
      );
    case AST_NODE_TYPES.SwitchCase:
      return recogniseDispatchCase(node, options.filePath);
    case AST_NODE_TYPES.IfStatement:
      return recogniseDispatchBranch(node, options.filePath);
    default:
      return undefined;
  }
}

/** The last word of a call that defines or registers what the model reads or the user picks, not what the model calls. */
const PROMPT_OR_RESOURCE_CALLEE = /(?:prompt|resource)s?(?:template)?$/i;

/**
 * `defineMcpPrompt({ description, inputSchema, handler })`, `registerResource({ … })`: an MCP prompt
 * or resource states a contract as a tool does, but the model never calls it. An object handed to a
 * call named for one is no tool.
 */
function definesPromptOrResource(object: TSESTree.ObjectExpression): boolean {
  const parent = object.parent;
  if (parent?.type !== AST_NODE_TYPES.CallExpression || !parent.arguments.includes(object)) return false;
  const callee = getCalleeLastName(parent);
  return callee !== undefined && PROMPT_OR_RESOURCE_CALLEE.test(callee);
}

const toolSpellings = new WeakMap<RecognitionSettings, RegExp>();

/**
 * Can this source text define a tool at all? Every shape spells `tool`
 * (`buildTool`, `server.tool`, `…Tool` bases and types), the classification
 * member, a name from settings, a contract (`description`, `inputSchema`:
 * what a harness's own action or definition object states), or a decorator
 * applied by hand (`…)(async function name(`). Rules skip files that do not — most files
 * of a codebase — before building anything. Object literals recognised only
 * by their contextual type (type-aware mode) may spell none of these, so
 * callers with type information do not use this filter.
 */
export function mayDefineTools(text: string, settings: RecognitionSettings): boolean {
  let spelling = toolSpellings.get(settings);
  if (!spelling) {
    const names = [...settings.toolFactories, ...settings.toolBaseClasses, ...settings.toolTypeNames].map((name) => name.split('.').pop()!);
    spelling = anyWordPattern(['tool', 'maxResultSizeChars', 'inputSchema', 'description', ...DECORATOR_SHAPE_SPELLINGS, ...names], 'i');
    toolSpellings.set(settings, spelling);
  }
  return spelling.test(text) || CURRIED_REGISTRATION_SPELLING.test(text) || SELF_DESCRIBED_SCHEMA_SPELLING.test(text);
}

/** A schema that says what its tool does (`z.object({ url }).describe('Navigate to a URL')`): an action may state no other description. */
const SELF_DESCRIBED_SCHEMA_SPELLING = /\)\s*\.describe\(/;

/** Every tool definition in a tree (needs `parent` links: ESLint's tree has them). */
export function findToolDefinitions(root: TSESTree.Node, settings: RecognitionSettings, options: RecogniseOptions = {}): ToolDefinition[] {
  const found: ToolDefinition[] = [];
  walk(root, (node) => {
    const definition = recogniseToolDefinition(node, settings, options);
    if (definition) found.push(definition);
  });
  return found;
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
