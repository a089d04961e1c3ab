/**
 * AI SDK provider-defined tools that run locally: `openai.tools.shell({
 * execute })`, `anthropic.tools.bash_20250124({ execute })`. The provider
 * defines the schema; the `execute` given here is what runs on a call. The
 * model calls it by its key in the tools map (taken by `withToolMapKeyName`),
 * else by the provider's tool name, the method.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { getMemberPath, getStaticKeyName } from '../ast.js';
import type { RecognitionSettings } from '../settings.js';
import { type ToolDefinition, firstObjectArgument, hasInvocationMember, objectLiteralDefinition } from './vocabulary.js';
import { configName } from '../tool-name.js';
import { toolMapKey } from '../tool-name.js';

export function recogniseProviderDefinedTool(call: TSESTree.CallExpression, settings: RecognitionSettings): ToolDefinition | undefined {
  // Cheap first: every call of a file passes here.
  const callee = call.callee;
  if (
    callee.type !== AST_NODE_TYPES.MemberExpression ||
    callee.object.type !== AST_NODE_TYPES.MemberExpression ||
    getStaticKeyName(callee.object.property, callee.object.computed) !== 'tools'
  ) {
    return undefined;
  }
  const path = getMemberPath(callee);
  if (!path || path.length < 3) return undefined;
  const config = firstObjectArgument(call);
  if (!config || !hasInvocationMember(config, settings)) return undefined;
  return objectLiteralDefinition('factory', config, configName(config) ?? toolMapKey(call) ?? path[path.length - 1]);
}
