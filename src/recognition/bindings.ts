/**
 * Resolves an identifier of the linted file to what it is bound to, through
 * ESLint's scope manager: the guards module asks "is this `const` bound to the
 * declared threshold / to an owned-session check?".
 */
import { AST_NODE_TYPES, ASTUtils, type TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { getStaticKeyName } from './ast.js';
import type { Binding, ResolveBinding } from './guards.js';

/** The property a destructured binding reads: `const { a: b } = x` → `a` for `b`. */
function destructuredProperty(name: TSESTree.Identifier): string | undefined {
  let node: TSESTree.Node = name;
  if (node.parent?.type === AST_NODE_TYPES.AssignmentPattern && node.parent.left === node) node = node.parent;
  const parent = node.parent;
  if (parent?.type === AST_NODE_TYPES.Property && parent.value === node) return getStaticKeyName(parent.key, parent.computed);
  return undefined;
}

export function createBindingResolver(sourceCode: Readonly<TSESLint.SourceCode>): ResolveBinding {
  const cache = new Map<TSESTree.Identifier, Binding | undefined>();
  return (identifier) => {
    if (cache.has(identifier)) return cache.get(identifier);
    const variable = ASTUtils.findVariable(sourceCode.getScope(identifier), identifier);
    const definition = variable?.defs[0];
    let binding: Binding | undefined;
    if (!definition) binding = undefined;
    else if (definition.type === 'Parameter') binding = { kind: 'parameter', name: identifier.name };
    else if (definition.type === 'Variable' && definition.parent.kind === 'const') {
      const declarator = definition.node;
      if (declarator.id.type === AST_NODE_TYPES.Identifier && declarator.init) {
        binding = { kind: 'const', init: declarator.init };
      } else {
        const property = definition.name.type === AST_NODE_TYPES.Identifier ? destructuredProperty(definition.name) : undefined;
        binding = property === undefined ? { kind: 'other' } : { kind: 'destructured', property, init: declarator.init };
      }
    } else binding = { kind: 'other' };
    cache.set(identifier, binding);
    return binding;
  };
}
