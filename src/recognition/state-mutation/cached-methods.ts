/**
 * Methods whose results a caching decorator keeps (`@Cache()`, `@memoize`): calling one with
 * this call's arguments leaves an entry that a later call finds instead of computing its own
 * (beeai-framework's `@Cache() _geocode(location)`, a database tool's cached connection).
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type FunctionNode, getCalleeLastName, walk } from '../ast.js';
import { decoratedMethod } from '../tool-shapes/decorators.js';

/** Decorator names that keep what the method returns. */
const CACHE_DECORATOR = /^(?:cache|cached|memoize|memoized|memo|lru|lrucache)$/i;

const cachedByProgram = new WeakMap<TSESTree.Program, Map<FunctionNode, string>>();

/** Each method of the program a caching decorator wraps, with the decorator's name. */
function cachedMethodsOf(program: TSESTree.Program): Map<FunctionNode, string> {
  const known = cachedByProgram.get(program);
  if (known) return known;
  const cached = new Map<FunctionNode, string>();
  walk(program, (node) => {
    // `@memoize` written bare, in source.
    if (
      node.type === AST_NODE_TYPES.Decorator &&
      node.expression.type === AST_NODE_TYPES.Identifier &&
      CACHE_DECORATOR.test(node.expression.name)
    ) {
      const member = node.parent;
      if (member?.type === AST_NODE_TYPES.MethodDefinition && member.value.type === AST_NODE_TYPES.FunctionExpression) {
        cached.set(member.value, node.expression.name);
      }
      return undefined;
    }
    if (node.type !== AST_NODE_TYPES.CallExpression) return undefined;
    const name = getCalleeLastName(node);
    if (name === undefined || !CACHE_DECORATOR.test(name)) return undefined;
    const method = decoratedMethod(node);
    if (method) cached.set(method, name);
    return undefined;
  });
  cachedByProgram.set(program, cached);
  return cached;
}

/** The caching decorator on `method` (`Cache`), or undefined. */
export function cachingDecoratorOf(method: FunctionNode, program: TSESTree.Program): string | undefined {
  return cachedMethodsOf(program).get(method);
}
