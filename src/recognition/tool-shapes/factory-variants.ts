/**
 * How published code spells the generic factory calls differently from
 * source, so `recogniseFactoryCall` still sees them:
 * - bundlers rename an import that collides with another (`import { tool }`
 *   twice in one bundle becomes `tool2`, `createTool3`);
 * - LangChain's `tool(runTask, { name, schema })` passes a named function,
 *   not a function literal.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { skipTypeWrappers } from '../ast.js';
import { configName } from './names.js';

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
