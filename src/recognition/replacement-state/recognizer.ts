/**
 * The replacement-state recognizer of one file: its four parts (the
 * collections, the ids, persistence, forks and clones) over one shared
 * `StateFile`. Built once per file by `getRecognitionContext`, so the rules
 * that ask (`mark-seen-before-replacement`, `replace-only-after-persist`,
 * `clone-state-on-fork`) share its caches.
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

import type { FileIndex } from '../file-index.js';
import type { ProgramTypes } from '../program-types.js';
import type { RecognitionSettings } from '../settings.js';
import { type StateCollectionCall, StateCollections } from './collections.js';
import { type CloneFunctionInScope, ForksAndClones } from './forks.js';
import { StateIds } from './ids.js';
import { type CallLike, type PersistenceCall, PersistenceCalls } from './persistence.js';
import { StateFile } from './state-file.js';
import { type StateOwner, StateOwnership } from './state-owner.js';

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
  /** The clone functions visible at `node`, each with whether it is tool-result-guard's (imported from the package). */
  cloneFunctionsInScope(node: TSESTree.Node): readonly CloneFunctionInScope[];
  /**
   * Whose state `value` is (tool-result-guard's, the harness's own, or not
   * known) and, for the harness's own, how a fork's copy is made: by where
   * its type or constructor comes from, never by its name.
   */
  stateOwnerOf(value: TSESTree.Node): StateOwner;
}

/** Builds the recognizer of one file (call it through `getRecognitionContext(context).replacementState`). */
export function buildReplacementStateRecognizer(
  settings: RecognitionSettings,
  sourceCode: Readonly<TSESLint.SourceCode>,
  types: ProgramTypes | undefined,
  fileIndex: () => FileIndex,
): ReplacementStateRecognizer {
  const file = new StateFile(settings, sourceCode, types);
  const ownership = new StateOwnership(file, fileIndex);
  const ids = new StateIds(file);
  const collections = new StateCollections(file, ids);
  const persistence = new PersistenceCalls(file, ids);
  const forks = new ForksAndClones(file);
  return {
    settings,
    hasTypeInformation: file.hasTypeInformation,
    seenMark: (call) => collections.seenMark(call),
    seenCheck: (call) => collections.seenCheck(call),
    replacementWrite: (call) => collections.replacementWrite(call),
    seenSetTextFor: (write) => collections.seenSetTextFor(write),
    idKeyOf: (node) => ids.idKeyOf(node),
    persistenceCall: (call) => persistence.persistenceCall(call),
    awaitedPersistenceCalls: (awaitExpression) => persistence.awaitedPersistenceCalls(awaitExpression),
    persistenceCallsIn: (functionNode) => persistence.persistenceCallsIn(functionNode),
    isForkCall: (call) => forks.isForkCall(call),
    isCloneCall: (node) => forks.isCloneCall(node),
    isClonedValue: (node) => forks.isClonedValue(node),
    isCloneOrReconstructFunction: (functionNode) => forks.isCloneOrReconstructFunction(functionNode),
    isLiveState: (value) => forks.isLiveState(value),
    cloneFunctionInScope: (node) => forks.cloneFunctionInScope(node),
    cloneFunctionsInScope: (node) => forks.cloneFunctionsInScope(node),
    stateOwnerOf: (value) => ownership.ownerOf(value),
  };
}
