/**
 * The ids of the replacement state: the canonical key of an id expression,
 * so the same id written two ways (an alias, a loop variable, a loop
 * counter) compares equal between a seen mark, a persistence call and a
 * replacement write.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { getCalleeLastName, getStaticKeyName, skipChainAndTypeWrappers } from '../ast.js';
import { RUNTIME_MARK_SEEN } from './names.js';
import type { StateFile } from './state-file.js';

/** The access path from a binding pattern's root to `name`: `{ a: [x] }` → `.a[0]`. */
function bindingPathTo(pattern: TSESTree.Node, name: string): string | undefined {
  switch (pattern.type) {
    case AST_NODE_TYPES.Identifier:
      return pattern.name === name ? '' : undefined;
    case AST_NODE_TYPES.AssignmentPattern:
      return bindingPathTo(pattern.left, name);
    case AST_NODE_TYPES.ObjectPattern:
      for (const property of pattern.properties) {
        if (property.type !== AST_NODE_TYPES.Property) continue;
        const key = getStaticKeyName(property.key, property.computed);
        const inner = key === undefined ? undefined : bindingPathTo(property.value, name);
        if (inner !== undefined) return `.${key}${inner}`;
      }
      return undefined;
    case AST_NODE_TYPES.ArrayPattern:
      for (const [index, element] of pattern.elements.entries()) {
        const inner = element ? bindingPathTo(element, name) : undefined;
        if (inner !== undefined) return `[${index}]${inner}`;
      }
      return undefined;
    default:
      return undefined;
  }
}

export class StateIds {
  private readonly keys = new WeakMap<TSESTree.Node, string>();

  constructor(private readonly file: StateFile) {}

  /**
   * The canonical key of an id expression: its tokens, with `const` aliases,
   * `for…of` variables (`block` → `blocks[*]`) and `for` counters
   * (`blocks[i]` → `blocks[*]`) resolved.
   */
  idKeyOf(node: TSESTree.Node): string {
    let key = this.keys.get(node);
    if (key === undefined) {
      key = this.idKey(node, 0);
      this.keys.set(node, key);
    }
    return key;
  }

  private idKey(node: TSESTree.Node, depth: number): string {
    const target = skipChainAndTypeWrappers(node);
    if (depth > 8) return this.file.tokensOf(target);
    if (target.type === AST_NODE_TYPES.Identifier) {
      const element = this.forOfElementKey(target, depth);
      if (element !== undefined) return element;
      const initializer = this.file.constInitializerOf(target);
      // const seen = markSeen(state, id): the SeenId is the id.
      if (initializer?.type === AST_NODE_TYPES.CallExpression && getCalleeLastName(initializer) === RUNTIME_MARK_SEEN) {
        const markedId = initializer.arguments[1];
        if (markedId && markedId.type !== AST_NODE_TYPES.SpreadElement) return this.idKey(markedId, depth + 1);
      }
      if (initializer && (initializer.type === AST_NODE_TYPES.Identifier || initializer.type === AST_NODE_TYPES.MemberExpression)) {
        return this.idKey(initializer, depth + 1);
      }
      return target.name;
    }
    if (target.type === AST_NODE_TYPES.MemberExpression) {
      const objectKey = this.idKey(target.object, depth + 1);
      if (!target.computed) return `${objectKey}.${this.file.tokensOf(target.property)}`;
      const property = skipChainAndTypeWrappers(target.property);
      if (property.type === AST_NODE_TYPES.Identifier && this.isForLoopCounter(property)) return `${objectKey}[*]`;
      const staticName = getStaticKeyName(property, true);
      return staticName !== undefined && /^\d+$/.test(staticName)
        ? `${objectKey}[${staticName}]`
        : staticName !== undefined
          ? `${objectKey}.${staticName}`
          : `${objectKey}[${this.idKey(property, depth + 1)}]`;
    }
    return this.file.tokensOf(target);
  }

  /** `x` in `for (const x of xs)` → `xs[*]`; `{ a: { b } }` paths → `xs[*].a.b`. */
  private forOfElementKey(identifier: TSESTree.Identifier, depth: number): string | undefined {
    const definition = this.file.variableOf(identifier)?.defs[0];
    if (definition?.type !== 'Variable') return undefined;
    const declaration = definition.node.parent;
    const loop = declaration.parent;
    if (loop?.type !== AST_NODE_TYPES.ForOfStatement || loop.left !== declaration) return undefined;
    const path = bindingPathTo(definition.node.id, identifier.name);
    if (path === undefined) return undefined;
    return `${this.idKey(loop.right, depth + 1)}[*]${path}`;
  }

  /** `i` of `for (let i = 0; …; …)`: an index into the loop's array means "the current element". */
  private isForLoopCounter(identifier: TSESTree.Identifier): boolean {
    const definition = this.file.variableOf(identifier)?.defs[0];
    if (definition?.type !== 'Variable') return false;
    const declaration = definition.node.parent;
    return declaration.parent?.type === AST_NODE_TYPES.ForStatement && declaration.parent.init === declaration;
  }
}
