/**
 * Tool shapes of the SDKs and harnesses agent code is written with, one
 * family per file, each recognised by its real API (issue 12's corpus:
 * code we did not write). `tool-definitions.ts` asks these after its own
 * shapes, per node type:
 * - calls: playwright MCP's `defineTool`/`defineTabTool` (`./playwright.ts`),
 *   Agentic's `@aiFunction` methods (`./decorators.ts`), LlamaIndex's
 *   `FunctionTool.from` (`./llamaindex.ts`), OpenAI Agents' built-in tools
 *   with a local executor (`./openai-agents.ts`), AI SDK provider-defined
 *   tools with a local `execute` (`./ai-sdk.ts`), `define…Tool(() => config)`
 *   factories handed a function that returns the config (`./factory-variants.ts`);
 * - classes: `…ToolHandlers` implementations and `…Tool` classes with an
 *   invocation method (`./tool-classes.ts`);
 * - object literals: plain tools in a tools map (`./tool-maps.ts`), objects
 *   returned by `create…Tool` factories (`./harness-factories.ts`), OpenAI
 *   Agents `{ type: 'function', name, invoke }` objects (`./openai-agents.ts`).
 * A tool in a tools map that states no name takes the key (`withToolMapKeyName`).
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import type { ClassNode } from '../ast.js';
import type { RecognitionSettings } from '../settings.js';
import type { ToolDefinition } from '../tool-definitions.js';
import { recogniseProviderDefinedTool } from './ai-sdk.js';
import { DECORATOR_SHAPE_SPELLINGS, recogniseDecoratedMethodTool } from './decorators.js';
import { recogniseConfigReturningFactoryCall } from './factory-variants.js';
import { recogniseFactoryReturnedTool } from './harness-factories.js';
import { recogniseFunctionToolFrom } from './llamaindex.js';
import { recogniseFunctionToolObject, recogniseLocalExecutorTool } from './openai-agents.js';
import { recogniseSchemaHandleTool } from './playwright.js';
import { recogniseToolClass } from './tool-classes.js';
import { recogniseToolMapObject } from './tool-maps.js';

export { withToolMapKeyName } from './tool-maps.js';

/** What a file must spell to hold one of these shapes besides `tool` (the cheap text filter). */
export const SDK_SHAPE_SPELLINGS: readonly string[] = DECORATOR_SHAPE_SPELLINGS;

export function recogniseSdkToolCall(call: TSESTree.CallExpression, settings: RecognitionSettings): ToolDefinition | undefined {
  return (
    recogniseSchemaHandleTool(call) ??
    recogniseConfigReturningFactoryCall(call, settings) ??
    recogniseDecoratedMethodTool(call) ??
    recogniseFunctionToolFrom(call) ??
    recogniseLocalExecutorTool(call) ??
    recogniseProviderDefinedTool(call, settings)
  );
}

export function recogniseSdkToolClass(node: ClassNode, settings: RecognitionSettings): ToolDefinition | undefined {
  return recogniseToolClass(node, settings);
}

export function recogniseSdkToolObject(object: TSESTree.ObjectExpression, settings: RecognitionSettings): ToolDefinition | undefined {
  // An object handed to a call is the call's config: recognised there, or not a tool by itself.
  const parent = object.parent;
  if (
    (parent?.type === AST_NODE_TYPES.CallExpression || parent?.type === AST_NODE_TYPES.NewExpression) &&
    parent.arguments.includes(object)
  ) {
    return undefined;
  }
  return recogniseToolMapObject(object, settings) ?? recogniseFactoryReturnedTool(object, settings) ?? recogniseFunctionToolObject(object);
}
