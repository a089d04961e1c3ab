/**
 * A decorator applied by hand: `registry.action(description, { param_model:
 * SearchSchema })(async function search(params, context) { … })`. The inner
 * call states the contract (a description and the options that hold the
 * input schema) and returns a registrar; the outer call hands it the function
 * that runs when the model calls the tool. The model sees the tool under the
 * options' name (`action_name`, `name`) or, without one, the function's own
 * name. Python harnesses ported to TypeScript (browser-use's `@action`)
 * register every action this way.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type FunctionNode, findProperty, getStaticKeyName, isFunctionNode, skipTypeWrappers } from '../ast.js';
import { DECORATOR_SCHEMA_OPTION } from '../tool-contract.js';
import { resolveToolName } from '../tool-name.js';
import type { ToolDefinition } from './vocabulary.js';

/**
 * What a file must spell to hold this shape (the text filter's part): a call
 * applied at once to a function, `…)(async function name(` or `…)(async (`.
 */
export const CURRIED_REGISTRATION_SPELLING = /\)\s*\(\s*(?:async\s+)?(?:function\b|\([^()]*\)\s*=>)/;

/** Option keys that rename the tool. */
const NAME_OPTIONS = ['action_name', 'actionName', 'name', 'tool_name', 'toolName'];

/** A description: text with a space in it (a name has none). */
function isDescription(node: TSESTree.Node): boolean {
  const target = skipTypeWrappers(node);
  if (target.type === AST_NODE_TYPES.Literal) return typeof target.value === 'string' && /\s/.test(target.value.trim());
  return target.type === AST_NODE_TYPES.TemplateLiteral && target.quasis.some((quasi) => /\s/.test((quasi.value.cooked ?? '').trim()));
}

/** The options object of the inner call that names an input schema. */
function schemaOptions(call: TSESTree.CallExpression): TSESTree.ObjectExpression | undefined {
  for (const argument of call.arguments) {
    const target = skipTypeWrappers(argument);
    if (target.type !== AST_NODE_TYPES.ObjectExpression) continue;
    const holdsSchema = target.properties.some((property) => {
      if (property.type !== AST_NODE_TYPES.Property) return false;
      const key = getStaticKeyName(property.key, property.computed);
      return key !== undefined && DECORATOR_SCHEMA_OPTION.test(key);
    });
    if (holdsSchema) return target;
  }
  return undefined;
}

function functionName(fn: FunctionNode): string | undefined {
  return fn.type === AST_NODE_TYPES.FunctionExpression ? fn.id?.name : undefined;
}

export function recogniseCurriedRegistration(call: TSESTree.CallExpression): ToolDefinition | undefined {
  const inner = call.callee;
  if (inner.type !== AST_NODE_TYPES.CallExpression || call.arguments.length !== 1) return undefined;
  const handler = skipTypeWrappers(call.arguments[0]!);
  if (!isFunctionNode(handler)) return undefined;
  const [first] = inner.arguments;
  if (!first || !isDescription(first)) return undefined;
  const options = schemaOptions(inner);
  if (!options) return undefined;
  const renamed = NAME_OPTIONS.map((key) => findProperty(options, key)).find((property) => property !== undefined);
  const name = renamed ? resolveToolName(renamed.value) : functionName(handler);
  if (name === undefined) return undefined;
  return {
    shape: 'decorator',
    node: call,
    reportNode: inner,
    name,
    host: options,
    isMcpRegistration: false,
    handlerArgument: handler,
  };
}
