/**
 * Recognising the replacement state (frozen fates) (the seen-id set and the
 * replacements map that freeze each tool result's fate) and the calls around
 * it: seen marks, replacement writes, persistence, forks and clones. Used by
 * `mark-seen-before-replacement`, `replace-only-after-persist`,
 * `clone-state-on-fork` and the codemods that follow their reports.
 *
 * Without type information the state is recognised by name: `<base>.seenIds`
 * or `seenIds`, `<base>.replacements` or `replacements` (settings rename
 * them). With type information, a value whose type is the runtime's
 * `ReplacementState` (or a settings-named type) counts whatever it is called,
 * and its `Set`/`Map` properties are its seen set and replacements map.
 */
import { AST_NODE_TYPES, ASTUtils, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import type ts from 'typescript';

import { getCalleeLastName, getCalleeName, getStaticKeyName, isFunctionNode, matchesDottedName, skipTypeWrappers } from './ast.js';
import { isPersistenceCall } from './guards.js';
import { programSpellsAny } from './program-text.js';
import { getRecognitionSettings, type RecognitionSettings } from './settings.js';

type RuleContext = Readonly<TSESLint.RuleContext<string, readonly unknown[]>>;
type CallLike = TSESTree.CallExpression | TSESTree.NewExpression;

/** Fork, subagent and resume entry points, besides the names in settings. */
export const FORK_CALLEE_PATTERN = /fork|subagent|spawn|resume|branch|createSubagentContext|runAgent/i;
/** `cloneReplacementState`, `cloneContentReplacementState`, … */
export const CLONE_FUNCTION_PATTERN = /^clone\w*State$/;
/** `reconstructReplacementState`, `reconstructContentReplacementState`, … */
export const RECONSTRUCT_FUNCTION_PATTERN = /^reconstruct\w*State$/;
/** `createReplacementState`, `createContentReplacementState`, … */
const CREATE_STATE_PATTERN = /^create\w*ReplacementState$/;
/** Persistence, for the seed-002 rules: any callee naming `persist`. */
const PERSIST_NAME_PATTERN = /persist/i;
/**
 * Predicates and getters that name persistence without doing it
 * (`isPersistedPath`, `getPersistedPreview`, `hasPersisted`).
 */
const PERSIST_QUESTION_PATTERN = /^(is|has|should|can|get|was|did)[A-Z_]/;

export const RUNTIME_MODULE = 'tool-result-guard';
export const RUNTIME_CLONE_FUNCTION = 'cloneReplacementState';

/** The runtime's own functions for the two writes: `markSeen(state, id)`, `recordReplacement(state, seenId, persisted)`. */
export const RUNTIME_MARK_SEEN = 'markSeen';
export const RUNTIME_RECORD_REPLACEMENT = 'recordReplacement';

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
  /** The id as a canonical key (see `idKeyOf`). */
  idKey: string;
}

export interface PersistenceCall {
  call: CallLike;
  /** Dotted callee name for messages: `store.persist`. */
  calleeName: string;
  /** Canonical keys of the ids it persists (its arguments, and values of object-literal arguments). */
  idKeys: Set<string>;
}

export interface ReplacementStateRecognizer {
  readonly settings: RecognitionSettings;
  /** True when the parser gave us a type checker. */
  readonly hasTypeInformation: boolean;
  /** `<seen set>.add(id)`. */
  seenMark(call: TSESTree.CallExpression): StateCollectionCall | undefined;
  /** `<seen set>.has(id)`. */
  seenCheck(call: TSESTree.CallExpression): StateCollectionCall | undefined;
  /** `<replacements map>.set(id, preview)`. */
  replacementWrite(call: TSESTree.CallExpression): StateCollectionCall | undefined;
  /**
   * The seen-set expression that pairs with a replacements map, for fixes:
   * `state.replacements` → `state.seenIds`. Undefined when it cannot be named.
   */
  seenSetTextFor(write: StateCollectionCall): string | undefined;
  /**
   * The canonical key of an id expression: its tokens, with `const` aliases,
   * `for…of` variables (`block` → `blocks[*]`) and `for` counters
   * (`blocks[i]` → `blocks[*]`) resolved, so the same id written two ways
   * compares equal.
   */
  idKeyOf(node: TSESTree.Node): string;
  persistenceCall(call: CallLike): PersistenceCall | undefined;
  /** Persistence calls an awaited expression waits for (`await persist(id)`, `await pending` of `const pending = persist(id)`). */
  awaitedPersistenceCalls(awaitExpression: TSESTree.AwaitExpression): PersistenceCall[];
  /** Every persistence call in a function body (not in nested functions). */
  persistenceCallsIn(functionNode: TSESTree.Node): PersistenceCall[];
  isForkCall(call: CallLike): boolean;
  /** A clone or reconstruction call: `cloneReplacementState(s)`, `structuredClone(s)`, `s.clone()`. */
  isCloneCall(node: TSESTree.Node): boolean;
  /**
   * A clone call, a `const` that holds one (`const child = cloneReplacementState(s)`),
   * or (with type information) a value typed `ForkableState<…>`.
   */
  isClonedValue(node: TSESTree.Node): boolean;
  /** A function whose job is to copy or rebuild a state (its writes re-apply frozen decisions). */
  isCloneOrReconstructFunction(functionNode: TSESTree.Node): boolean;
  /**
   * Whether `value` is a live replacement state: by name, by its
   * `create…ReplacementState()` initialiser, by its `.seenIds`/`.replacements`
   * use, or by type. Clones are not.
   */
  isLiveState(value: TSESTree.Node): boolean;
  /** A clone function (`clone…State`, settings) visible at `node`, preferring `cloneReplacementState`. */
  cloneFunctionInScope(node: TSESTree.Node): string | undefined;
}

const SET_TYPE_NAMES = new Set(['Set', 'ReadonlySet']);
/** The brand `cloneReplacementState` / `reconstructReplacementState` return: proof of a copy. */
const CLONED_STATE_TYPE_NAMES: ReadonlySet<string> = new Set(['ForkableState']);
const MAP_TYPE_NAMES = new Set(['Map', 'ReadonlyMap']);

function unwrapChain(node: TSESTree.Node): TSESTree.Node {
  const inner = skipTypeWrappers(node);
  return inner.type === AST_NODE_TYPES.ChainExpression ? skipTypeWrappers(inner.expression) : inner;
}

function calleeMember(call: TSESTree.CallExpression): TSESTree.MemberExpression | undefined {
  const callee = unwrapChain(call.callee);
  return callee.type === AST_NODE_TYPES.MemberExpression ? callee : undefined;
}

/** The name a function goes by: its id, its variable, its method or property key. */
export function functionNameOf(functionNode: TSESTree.Node): string | undefined {
  if (!isFunctionNode(functionNode)) return undefined;
  if (functionNode.id) return functionNode.id.name;
  const parent = functionNode.parent;
  if (parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.id.type === AST_NODE_TYPES.Identifier) {
    return parent.id.name;
  }
  if (
    parent?.type === AST_NODE_TYPES.MethodDefinition ||
    parent?.type === AST_NODE_TYPES.Property ||
    parent?.type === AST_NODE_TYPES.PropertyDefinition
  ) {
    return getStaticKeyName(parent.key, parent.computed);
  }
  return undefined;
}

export function createReplacementStateRecognizer(context: RuleContext): ReplacementStateRecognizer {
  const settings = getRecognitionSettings(context);
  const sourceCode = context.sourceCode;
  const parserServices = sourceCode.parserServices;
  const program = (parserServices?.program ?? undefined) as ts.Program | undefined;
  const nodeMap = parserServices?.esTreeNodeToTSNodeMap;
  const hasTypeInformation = program !== undefined && nodeMap !== undefined;
  // The checker is created on first use (about 0.75 s per program): most files never ask for a type.
  let checker: ts.TypeChecker | undefined;
  const getChecker = (): ts.TypeChecker | undefined => (checker ??= program?.getTypeChecker());
  const stateTypeNames = new Set(settings.stateTypeNames);
  // A type can carry one of these names only if some file of the program declares it, so the
  // (expensive) type queries are skipped entirely in programs that never spell them.
  const programMayHaveStateType = hasTypeInformation && programSpellsAny(program, stateTypeNames);
  const programMayHaveClonedType = hasTypeInformation && programSpellsAny(program, CLONED_STATE_TYPE_NAMES);
  /**
   * A bare `replacements` is a common name (`const replacements = new Map()`
   * in any text-substitution code): a variable of that name is the
   * replacement state's map only in a file that also speaks of the seen set.
   */
  const fileMentionsSeenSet = [...settings.seenSetNames, RUNTIME_MARK_SEEN].some((name) => sourceCode.text.includes(name));
  const cloneFunctionNames = new Set(settings.cloneFunctions);

  const types = new WeakMap<TSESTree.Node, ts.Type | undefined>();
  function typeOf(node: TSESTree.Node): ts.Type | undefined {
    if (!hasTypeInformation) return undefined;
    if (types.has(node)) return types.get(node);
    const tsNode = nodeMap.get(node);
    const checker = tsNode ? getChecker() : undefined;
    const type = tsNode && checker ? checker.getTypeAtLocation(tsNode) : undefined;
    types.set(node, type);
    return type;
  }

  /** The type's own name or its alias's, looking through `| undefined` and brands (`State & { [brand]: … }`). */
  function typeHasName(type: ts.Type, names: ReadonlySet<string>, depth = 0): boolean {
    if (depth > 3) return false;
    const aliasName = type.aliasSymbol?.getName();
    if (aliasName !== undefined && names.has(aliasName)) return true;
    const symbolName = type.getSymbol()?.getName();
    if (symbolName !== undefined && names.has(symbolName)) return true;
    if (type.isUnionOrIntersection()) return type.types.some((part) => typeHasName(part, names, depth + 1));
    return false;
  }

  function isStateTyped(node: TSESTree.Node): boolean {
    if (!programMayHaveStateType) return false;
    const type = typeOf(node);
    return type !== undefined && typeHasName(type, stateTypeNames);
  }

  function variableOf(identifier: TSESTree.Identifier): TSESLint.Scope.Variable | null {
    return ASTUtils.findVariable(sourceCode.getScope(identifier), identifier);
  }

  /** The `const x = <init>` declarator of an identifier, if that is how it is bound. */
  function constInitializerOf(identifier: TSESTree.Identifier): TSESTree.Expression | undefined {
    const definition = variableOf(identifier)?.defs[0];
    if (definition?.type !== 'Variable') return undefined;
    const declarator = definition.node;
    if (declarator.parent.kind !== 'const' || declarator.id.type !== AST_NODE_TYPES.Identifier) return undefined;
    return declarator.init ?? undefined;
  }

  // ---- the collections ------------------------------------------------------

  type CollectionKind = 'seen' | 'replacements';

  /**
   * What a collection expression is, and the text of its base: `state.seenIds`
   * → seen on `state`; `seenIds` → seen on ''; `seen` of `const seen =
   * state.seenIds` or `const { seenIds: seen } = state` → seen on `state`.
   */
  function classifyCollection(expression: TSESTree.Node, depth = 0): { kind: CollectionKind; base: string } | undefined {
    const target = unwrapChain(expression);
    const kindOfName = (name: string | undefined): CollectionKind | undefined =>
      name === undefined
        ? undefined
        : settings.seenSetNames.includes(name)
          ? 'seen'
          : settings.replacementsMapNames.includes(name)
            ? 'replacements'
            : undefined;

    if (target.type === AST_NODE_TYPES.MemberExpression) {
      const propertyName = getStaticKeyName(target.property, target.computed);
      const byName = kindOfName(propertyName);
      if (byName) return { kind: byName, base: tokensOf(target.object) };
      // Type-aware: a Set or Map property of a value typed as the state.
      if (hasTypeInformation && isStateTyped(target.object)) {
        const collectionType = typeOf(target);
        const typeName = collectionType?.getSymbol()?.getName();
        if (typeName !== undefined && SET_TYPE_NAMES.has(typeName)) return { kind: 'seen', base: tokensOf(target.object) };
        if (typeName !== undefined && MAP_TYPE_NAMES.has(typeName)) {
          return { kind: 'replacements', base: tokensOf(target.object) };
        }
      }
      return undefined;
    }
    if (target.type !== AST_NODE_TYPES.Identifier || depth > 2) return undefined;
    const definition = variableOf(target)?.defs[0];
    if (definition?.type === 'Variable') {
      const declarator = definition.node;
      // const seen = state.seenIds
      if (declarator.id.type === AST_NODE_TYPES.Identifier && declarator.init && declarator.parent.kind === 'const') {
        const aliased = classifyCollection(declarator.init, depth + 1);
        if (aliased) return aliased;
      }
      // const { seenIds: seen } = state
      if (declarator.id.type === AST_NODE_TYPES.ObjectPattern && declarator.init) {
        for (const property of declarator.id.properties) {
          if (property.type !== AST_NODE_TYPES.Property) continue;
          const value = property.value.type === AST_NODE_TYPES.AssignmentPattern ? property.value.left : property.value;
          if (value.type !== AST_NODE_TYPES.Identifier || value.name !== target.name) continue;
          const byName = kindOfName(getStaticKeyName(property.key, property.computed));
          if (byName) return { kind: byName, base: tokensOf(declarator.init) };
        }
      }
    }
    const byName = kindOfName(target.name);
    if (byName === 'replacements' && !fileMentionsSeenSet) return undefined;
    return byName ? { kind: byName, base: '' } : undefined;
  }

  function collectionCall(
    call: TSESTree.CallExpression,
    method: string,
    kind: CollectionKind,
  ): StateCollectionCall | undefined {
    const member = calleeMember(call);
    if (!member || getStaticKeyName(member.property, member.computed) !== method) return undefined;
    const [id] = call.arguments;
    if (!id || id.type === AST_NODE_TYPES.SpreadElement) return undefined;
    const classified = classifyCollection(member.object);
    if (classified?.kind !== kind) return undefined;
    return { call, form: 'method', collection: member.object, base: classified.base, id, idKey: idKeyOf(id) };
  }

  /** `markSeen(state, id)` / `recordReplacement(state, id, persisted)` of the runtime. */
  function runtimeCall(call: TSESTree.CallExpression, functionName: string): StateCollectionCall | undefined {
    if (getCalleeLastName(call) !== functionName) return undefined;
    const [state, id] = call.arguments;
    if (!state || !id || state.type === AST_NODE_TYPES.SpreadElement || id.type === AST_NODE_TYPES.SpreadElement) {
      return undefined;
    }
    return { call, form: 'runtime', collection: state, base: tokensOf(state), id, idKey: idKeyOf(id) };
  }

  // ---- ids --------------------------------------------------------------------

  function tokensOf(node: TSESTree.Node): string {
    return sourceCode
      .getTokens(node)
      .map((token) => token.value)
      .join('')
      .replaceAll('?.', '.');
  }

  /** `x` in `for (const x of xs)` → `xs[*]`; `{ a: { b } }` paths → `xs[*].a.b`. */
  function forOfElementKey(identifier: TSESTree.Identifier, depth: number): string | undefined {
    const definition = variableOf(identifier)?.defs[0];
    if (definition?.type !== 'Variable') return undefined;
    const declaration = definition.node.parent;
    const loop = declaration.parent;
    if (loop?.type !== AST_NODE_TYPES.ForOfStatement || loop.left !== declaration) return undefined;
    const path = bindingPathTo(definition.node.id, identifier.name);
    if (path === undefined) return undefined;
    return `${idKey(loop.right, depth + 1)}[*]${path}`;
  }

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

  /** `i` of `for (let i = 0; …; …)`: an index into the loop's array means "the current element". */
  function isForLoopCounter(identifier: TSESTree.Identifier): boolean {
    const definition = variableOf(identifier)?.defs[0];
    if (definition?.type !== 'Variable') return false;
    const declaration = definition.node.parent;
    return declaration.parent?.type === AST_NODE_TYPES.ForStatement && declaration.parent.init === declaration;
  }

  function idKey(node: TSESTree.Node, depth: number): string {
    const target = unwrapChain(node);
    if (depth > 8) return tokensOf(target);
    if (target.type === AST_NODE_TYPES.Identifier) {
      const element = forOfElementKey(target, depth);
      if (element !== undefined) return element;
      const initializer = constInitializerOf(target);
      // const seen = markSeen(state, id): the SeenId is the id.
      if (initializer?.type === AST_NODE_TYPES.CallExpression && getCalleeLastName(initializer) === RUNTIME_MARK_SEEN) {
        const markedId = initializer.arguments[1];
        if (markedId && markedId.type !== AST_NODE_TYPES.SpreadElement) return idKey(markedId, depth + 1);
      }
      if (
        initializer &&
        (initializer.type === AST_NODE_TYPES.Identifier || initializer.type === AST_NODE_TYPES.MemberExpression)
      ) {
        return idKey(initializer, depth + 1);
      }
      return target.name;
    }
    if (target.type === AST_NODE_TYPES.MemberExpression) {
      const objectKey = idKey(target.object, depth + 1);
      if (!target.computed) return `${objectKey}.${tokensOf(target.property)}`;
      const property = unwrapChain(target.property);
      if (property.type === AST_NODE_TYPES.Identifier && isForLoopCounter(property)) return `${objectKey}[*]`;
      const staticName = getStaticKeyName(property, true);
      return staticName !== undefined && /^\d+$/.test(staticName)
        ? `${objectKey}[${staticName}]`
        : staticName !== undefined
          ? `${objectKey}.${staticName}`
          : `${objectKey}[${idKey(property, depth + 1)}]`;
    }
    return tokensOf(target);
  }

  const idKeyCache = new WeakMap<TSESTree.Node, string>();
  function idKeyOf(node: TSESTree.Node): string {
    let key = idKeyCache.get(node);
    if (key === undefined) {
      key = idKey(node, 0);
      idKeyCache.set(node, key);
    }
    return key;
  }

  // ---- persistence --------------------------------------------------------------

  function persistenceCall(call: CallLike): PersistenceCall | undefined {
    const calleeName = getCalleeName(call) ?? getCalleeLastName(call);
    const lastName = getCalleeLastName(call);
    if (calleeName === undefined || lastName === undefined) return undefined;
    if (matchesDottedName(calleeName, settings.ownedSessionChecks)) return undefined;
    // persist-only-owned-sessions' own list, widened here (only) to any callee naming `persist`.
    const listed = call.type === AST_NODE_TYPES.CallExpression && isPersistenceCall(call, settings);
    const named = PERSIST_NAME_PATTERN.test(calleeName) && !PERSIST_QUESTION_PATTERN.test(lastName);
    if (!listed && !named) return undefined;
    const idKeys = new Set<string>();
    for (const argument of call.arguments) {
      const value = skipTypeWrappers(argument);
      if (value.type === AST_NODE_TYPES.SpreadElement) continue;
      if (value.type === AST_NODE_TYPES.ObjectExpression) {
        for (const property of value.properties) {
          if (property.type === AST_NODE_TYPES.Property) idKeys.add(idKeyOf(property.value));
        }
      } else {
        idKeys.add(idKeyOf(value));
      }
    }
    return { call, calleeName, idKeys };
  }

  /** Persistence calls inside `root`, nested functions included (`Promise.all(ids.map(id => persist(id)))`). */
  function persistenceCallsUnder(root: TSESTree.Node, includeNestedFunctions: boolean): PersistenceCall[] {
    const found: PersistenceCall[] = [];
    const stack: TSESTree.Node[] = [root];
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (node !== root && !includeNestedFunctions && isFunctionNode(node)) continue;
      if (node.type === AST_NODE_TYPES.CallExpression || node.type === AST_NODE_TYPES.NewExpression) {
        const persisted = persistenceCall(node);
        if (persisted) found.push(persisted);
      }
      for (const child of childrenOf(node)) stack.push(child);
    }
    return found;
  }

  function childrenOf(node: TSESTree.Node): TSESTree.Node[] {
    const keys = sourceCode.visitorKeys[node.type] ?? [];
    const children: TSESTree.Node[] = [];
    for (const key of keys) {
      const value = (node as unknown as Record<string, unknown>)[key];
      if (Array.isArray(value)) {
        for (const item of value) if (item && typeof item === 'object' && 'type' in item) children.push(item as TSESTree.Node);
      } else if (value && typeof value === 'object' && 'type' in value) {
        children.push(value as TSESTree.Node);
      }
    }
    return children;
  }

  function awaitedPersistenceCalls(awaitExpression: TSESTree.AwaitExpression): PersistenceCall[] {
    const argument = unwrapChain(awaitExpression.argument);
    if (argument.type === AST_NODE_TYPES.Identifier) {
      const initializer = constInitializerOf(argument);
      return initializer ? persistenceCallsUnder(initializer, true) : [];
    }
    return persistenceCallsUnder(argument, true);
  }

  const persistenceCallsByFunction = new WeakMap<TSESTree.Node, PersistenceCall[]>();
  function persistenceCallsIn(functionNode: TSESTree.Node): PersistenceCall[] {
    let calls = persistenceCallsByFunction.get(functionNode);
    if (!calls) {
      calls = persistenceCallsUnder(functionNode, false);
      persistenceCallsByFunction.set(functionNode, calls);
    }
    return calls;
  }

  // ---- forks and clones ---------------------------------------------------------

  function isCloneFunctionName(name: string | undefined): boolean {
    return (
      name !== undefined &&
      (CLONE_FUNCTION_PATTERN.test(name) || RECONSTRUCT_FUNCTION_PATTERN.test(name) || cloneFunctionNames.has(name))
    );
  }

  function isCloneCall(node: TSESTree.Node): boolean {
    const target = unwrapChain(node);
    if (target.type !== AST_NODE_TYPES.CallExpression && target.type !== AST_NODE_TYPES.NewExpression) return false;
    const lastName = getCalleeLastName(target);
    if (isCloneFunctionName(lastName)) return true;
    const calleeName = getCalleeName(target);
    if (calleeName !== undefined && matchesDottedName(calleeName, settings.cloneFunctions)) return true;
    // state.clone(): a method clone on any receiver
    return lastName === 'clone' && target.callee.type !== AST_NODE_TYPES.Identifier;
  }

  function isClonedValue(node: TSESTree.Node): boolean {
    const target = unwrapChain(node);
    if (isCloneCall(target)) return true;
    if (target.type === AST_NODE_TYPES.Identifier) {
      const initializer = constInitializerOf(target);
      if (initializer !== undefined && isCloneCall(initializer)) return true;
    }
    if (!programMayHaveClonedType) return false;
    const type = typeOf(target);
    return type !== undefined && type.aliasSymbol !== undefined && CLONED_STATE_TYPE_NAMES.has(type.aliasSymbol.getName());
  }

  const forkCalleeLastNames = new Set(settings.forkCallees.map((name) => name.slice(name.lastIndexOf('.') + 1)));
  function isForkCall(call: CallLike): boolean {
    // Every call of a file passes here: the last name decides cheaply before any dotted name is built.
    const lastName = getCalleeLastName(call);
    if (lastName === undefined) return false;
    const forkNamed =
      FORK_CALLEE_PATTERN.test(lastName) ||
      ((forkCalleeLastNames.has(lastName) || lastName.includes('.')) && matchesDottedName(getCalleeName(call), settings.forkCallees));
    return forkNamed && !isCloneCall(call);
  }

  function isCloneOrReconstructFunction(functionNode: TSESTree.Node): boolean {
    return isCloneFunctionName(functionNameOf(functionNode));
  }

  /** A variable used as the base of `.seenIds`/`.replacements` somewhere is a state. */
  function isUsedAsStateBase(variable: TSESLint.Scope.Variable): boolean {
    return variable.references.some((reference) => {
      const parent = reference.identifier.parent;
      if (parent?.type !== AST_NODE_TYPES.MemberExpression || parent.object !== reference.identifier) return false;
      const name = getStaticKeyName(parent.property, parent.computed);
      return name !== undefined && (settings.seenSetNames.includes(name) || settings.replacementsMapNames.includes(name));
    });
  }

  function isLiveState(value: TSESTree.Node): boolean {
    const target = unwrapChain(value);
    if (target.type === AST_NODE_TYPES.ConditionalExpression) {
      return isLiveState(target.consequent) || isLiveState(target.alternate);
    }
    if (target.type === AST_NODE_TYPES.LogicalExpression) return isLiveState(target.left) || isLiveState(target.right);
    if (target.type !== AST_NODE_TYPES.Identifier && target.type !== AST_NODE_TYPES.MemberExpression) return false;
    // Syntax first, types last (and only when syntax says nothing): a fork call's arguments are many, states few.
    const live = isLiveStateBySyntax(target) || isStateTyped(target);
    return live && !isClonedValue(target);
  }

  function isLiveStateBySyntax(target: TSESTree.Identifier | TSESTree.MemberExpression): boolean {
    let lastName: string | undefined;
    if (target.type === AST_NODE_TYPES.Identifier) {
      lastName = target.name;
      const initializer = constInitializerOf(target);
      if (initializer && initializer.type === AST_NODE_TYPES.CallExpression) {
        if (CREATE_STATE_PATTERN.test(getCalleeLastName(initializer) ?? '')) return true;
      }
      const variable = variableOf(target);
      if (variable && isUsedAsStateBase(variable)) return true;
    } else {
      lastName = getStaticKeyName(target.property, target.computed);
    }
    return lastName !== undefined && settings.stateNames.includes(lastName);
  }

  function cloneFunctionInScope(node: TSESTree.Node): string | undefined {
    const candidates: string[] = [];
    for (let scope: TSESLint.Scope.Scope | null = sourceCode.getScope(node); scope; scope = scope.upper) {
      for (const name of scope.set.keys()) {
        if (CLONE_FUNCTION_PATTERN.test(name) || (cloneFunctionNames.has(name) && name !== 'structuredClone' && !RECONSTRUCT_FUNCTION_PATTERN.test(name))) {
          candidates.push(name);
        }
      }
    }
    return candidates.includes(RUNTIME_CLONE_FUNCTION) ? RUNTIME_CLONE_FUNCTION : candidates[0];
  }

  function seenSetTextFor(write: StateCollectionCall): string | undefined {
    if (write.form === 'runtime') return undefined;
    const collection = unwrapChain(write.collection);
    // Renamed pairs line up: the n-th map name goes with the n-th seen-set name.
    const mapName = collection.type === AST_NODE_TYPES.MemberExpression ? getStaticKeyName(collection.property, collection.computed) : undefined;
    const pairIndex = mapName === undefined ? -1 : settings.replacementsMapNames.indexOf(mapName);
    const seenName = settings.seenSetNames[pairIndex] ?? settings.seenSetNames[0] ?? 'seenIds';
    if (collection.type === AST_NODE_TYPES.MemberExpression && !collection.computed) {
      const base = sourceCode.getText(collection.object);
      if (pairIndex >= 0) {
        return `${base}${collection.optional ? '?.' : '.'}${seenName}`;
      }
      // Type-aware: the state's Set-typed property.
      const objectType = typeOf(collection.object);
      const checker = objectType ? getChecker() : undefined;
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

  return {
    settings,
    hasTypeInformation,
    seenMark: (call) => collectionCall(call, 'add', 'seen') ?? runtimeCall(call, RUNTIME_MARK_SEEN),
    seenCheck: (call) => collectionCall(call, 'has', 'seen'),
    replacementWrite: (call) => collectionCall(call, 'set', 'replacements') ?? runtimeCall(call, RUNTIME_RECORD_REPLACEMENT),
    seenSetTextFor,
    idKeyOf,
    persistenceCall,
    awaitedPersistenceCalls,
    persistenceCallsIn,
    isForkCall,
    isCloneCall,
    isClonedValue,
    isCloneOrReconstructFunction,
    isLiveState,
    cloneFunctionInScope,
  };
}
