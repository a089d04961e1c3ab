/**
 * The two collections of the replacement state, the seen-id set and the
 * replacements map, and the calls that mark, check and write them
 * (`state.seenIds.add(id)`, `markSeen(state, id)`, `state.replacements.set(id, …)`).
 */
import { AST_NODE_TYPES, ASTUtils, type TSESTree } from '@typescript-eslint/utils';

import { getCalleeLastName, getStaticKeyName, skipChainAndTypeWrappers } from '../ast.js';
import type { StateIds } from './ids.js';
import { MAP_TYPE_NAMES, RUNTIME_MARK_SEEN, RUNTIME_RECORD_REPLACEMENT, SET_TYPE_NAMES } from './names.js';
import type { StateFile } from './state-file.js';

/**
 * A call on the seen set (`add`, `has`) or the replacements map (`set`), or
 * the runtime's `markSeen(state, id)` / `recordReplacement(state, id, …)`.
 */
export interface StateCollectionCall {
  call: TSESTree.CallExpression;
  /** `method` for `state.seenIds.add(id)`, `runtime` for `markSeen(state, id)`. */
  form: 'method' | 'runtime';
  /** The set or map expression the method is called on: `state.seenIds`. */
  collection: TSESTree.Expression;
  /** Text of the object holding the collection (`state`, `this.state`), '' for a bare `seenIds`. */
  base: string;
  /** The id argument. */
  id: TSESTree.Node;
  /** The id as a canonical key (see `StateIds.idKeyOf`). */
  idKey: string;
}

type CollectionKind = 'seen' | 'replacements';

function calleeMember(call: TSESTree.CallExpression): TSESTree.MemberExpression | undefined {
  const callee = skipChainAndTypeWrappers(call.callee);
  return callee.type === AST_NODE_TYPES.MemberExpression ? callee : undefined;
}

export class StateCollections {
  /**
   * A bare `replacements` is a common name (`const replacements = new Map()`
   * in any text-substitution code): a variable of that name is the
   * replacement state's map only in a file that also speaks of the seen set.
   */
  private readonly fileMentionsSeenSet: boolean;

  constructor(
    private readonly file: StateFile,
    private readonly ids: StateIds,
  ) {
    this.fileMentionsSeenSet = [...file.settings.seenSetNames, RUNTIME_MARK_SEEN].some((name) => file.sourceCode.text.includes(name));
  }

  /** `<seen set>.add(id)` or `markSeen(state, id)`. */
  seenMark(call: TSESTree.CallExpression): StateCollectionCall | undefined {
    return this.collectionCall(call, 'add', 'seen') ?? this.runtimeCall(call, RUNTIME_MARK_SEEN);
  }

  /** `<seen set>.has(id)`. */
  seenCheck(call: TSESTree.CallExpression): StateCollectionCall | undefined {
    return this.collectionCall(call, 'has', 'seen');
  }

  /** `<replacements map>.set(id, preview)` or `recordReplacement(state, id, persisted)`. */
  replacementWrite(call: TSESTree.CallExpression): StateCollectionCall | undefined {
    return this.collectionCall(call, 'set', 'replacements') ?? this.runtimeCall(call, RUNTIME_RECORD_REPLACEMENT);
  }

  /** The seen-set expression that pairs with a replacements map, for fixes: `state.replacements` → `state.seenIds`. */
  seenSetTextFor(write: StateCollectionCall): string | undefined {
    if (write.form === 'runtime') return undefined;
    const { settings, sourceCode } = this.file;
    const collection = skipChainAndTypeWrappers(write.collection);
    // Renamed pairs line up: the n-th map name goes with the n-th seen-set name.
    const mapName =
      collection.type === AST_NODE_TYPES.MemberExpression ? getStaticKeyName(collection.property, collection.computed) : undefined;
    const pairIndex = mapName === undefined ? -1 : settings.replacementsMapNames.indexOf(mapName);
    const seenName = settings.seenSetNames[pairIndex] ?? settings.seenSetNames[0] ?? 'seenIds';
    if (collection.type === AST_NODE_TYPES.MemberExpression && !collection.computed) {
      const base = sourceCode.getText(collection.object);
      if (pairIndex >= 0) {
        return `${base}${collection.optional ? '?.' : '.'}${seenName}`;
      }
      // Type-aware: the state's Set-typed property.
      const objectType = this.file.typeOf(collection.object);
      const checker = objectType ? this.file.checker() : undefined;
      if (objectType && checker) {
        for (const property of objectType.getProperties()) {
          const declaration = property.valueDeclaration ?? property.declarations?.[0];
          if (!declaration) continue;
          const propertyType = checker.getTypeOfSymbolAtLocation(property, declaration);
          const typeName = propertyType.getSymbol()?.getName();
          if (typeName !== undefined && SET_TYPE_NAMES.has(typeName)) return `${base}.${property.getName()}`;
        }
      }
      return undefined;
    }
    // An alias (`const map = state.replacements`): the same base's seen set.
    if (write.base !== '') return `${write.base}.${seenName}`;
    // A bare `replacements`: pair with a bare `seenIds` in scope.
    return ASTUtils.findVariable(sourceCode.getScope(write.call), seenName) ? seenName : undefined;
  }

  private kindOfName(name: string | undefined): CollectionKind | undefined {
    const { settings } = this.file;
    return name === undefined
      ? undefined
      : settings.seenSetNames.includes(name)
        ? 'seen'
        : settings.replacementsMapNames.includes(name)
          ? 'replacements'
          : undefined;
  }

  /**
   * What a collection expression is, and the text of its base: `state.seenIds`
   * → seen on `state`; `seenIds` → seen on ''; `seen` of `const seen =
   * state.seenIds` or `const { seenIds: seen } = state` → seen on `state`.
   */
  private classifyCollection(expression: TSESTree.Node, depth = 0): { kind: CollectionKind; base: string } | undefined {
    const { file } = this;
    const target = skipChainAndTypeWrappers(expression);
    if (target.type === AST_NODE_TYPES.MemberExpression) {
      const propertyName = getStaticKeyName(target.property, target.computed);
      const byName = this.kindOfName(propertyName);
      if (byName) return { kind: byName, base: file.tokensOf(target.object) };
      // Type-aware: a Set or Map property of a value typed as the state.
      if (file.hasTypeInformation && file.isStateTyped(target.object)) {
        const collectionType = file.typeOf(target);
        const typeName = collectionType?.getSymbol()?.getName();
        if (typeName !== undefined && SET_TYPE_NAMES.has(typeName)) return { kind: 'seen', base: file.tokensOf(target.object) };
        if (typeName !== undefined && MAP_TYPE_NAMES.has(typeName)) {
          return { kind: 'replacements', base: file.tokensOf(target.object) };
        }
      }
      return undefined;
    }
    if (target.type !== AST_NODE_TYPES.Identifier || depth > 2) return undefined;
    const definition = file.variableOf(target)?.defs[0];
    if (definition?.type === 'Variable') {
      const declarator = definition.node;
      // const seen = state.seenIds
      if (declarator.id.type === AST_NODE_TYPES.Identifier && declarator.init && declarator.parent.kind === 'const') {
        const aliased = this.classifyCollection(declarator.init, depth + 1);
        if (aliased) return aliased;
      }
      // const { seenIds: seen } = state
      if (declarator.id.type === AST_NODE_TYPES.ObjectPattern && declarator.init) {
        for (const property of declarator.id.properties) {
          if (property.type !== AST_NODE_TYPES.Property) continue;
          const value = property.value.type === AST_NODE_TYPES.AssignmentPattern ? property.value.left : property.value;
          if (value.type !== AST_NODE_TYPES.Identifier || value.name !== target.name) continue;
          const byName = this.kindOfName(getStaticKeyName(property.key, property.computed));
          if (byName) return { kind: byName, base: file.tokensOf(declarator.init) };
        }
      }
    }
    const byName = this.kindOfName(target.name);
    if (byName === 'replacements' && !this.fileMentionsSeenSet) return undefined;
    return byName ? { kind: byName, base: '' } : undefined;
  }

  private collectionCall(call: TSESTree.CallExpression, method: string, kind: CollectionKind): StateCollectionCall | undefined {
    const member = calleeMember(call);
    if (!member || getStaticKeyName(member.property, member.computed) !== method) return undefined;
    const [id] = call.arguments;
    if (!id || id.type === AST_NODE_TYPES.SpreadElement) return undefined;
    const classified = this.classifyCollection(member.object);
    if (classified?.kind !== kind) return undefined;
    return { call, form: 'method', collection: member.object, base: classified.base, id, idKey: this.ids.idKeyOf(id) };
  }

  /** `markSeen(state, id)` / `recordReplacement(state, id, persisted)` of the runtime. */
  private runtimeCall(call: TSESTree.CallExpression, functionName: string): StateCollectionCall | undefined {
    if (getCalleeLastName(call) !== functionName) return undefined;
    const [state, id] = call.arguments;
    if (!state || !id || state.type === AST_NODE_TYPES.SpreadElement || id.type === AST_NODE_TYPES.SpreadElement) {
      return undefined;
    }
    return { call, form: 'runtime', collection: state, base: this.file.tokensOf(state), id, idKey: this.ids.idKeyOf(id) };
  }
}
