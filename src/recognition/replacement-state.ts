/**
 * Recognising the replacement state (frozen fates): the seen-id set and the
 * replacements map that freeze each tool result's fate, and the calls around
 * it: seen marks, replacement writes, persistence, forks and clones. Used by
 * `mark-seen-before-replacement`, `replace-only-after-persist`,
 * `clone-state-on-fork` and the codemods that follow their reports.
 *
 * Without type information the state is recognised by name: `<base>.seenIds`
 * or `seenIds`, `<base>.replacements` or `replacements` (settings rename
 * them). With type information, a value whose type is the runtime's
 * `ReplacementState` (or a settings-named type) counts whatever it is called,
 * and its `Set`/`Map` properties are its seen set and replacements map.
 *
 * The parts live in `replacement-state/`: `collections.ts` (the seen set and
 * the replacements map), `ids.ts` (canonical id keys), `persistence.ts`,
 * `forks.ts` (forks, clones, the live state), over one `StateFile` (settings,
 * scopes, tokens, types); `recognizer.ts` puts them together. Rules ask
 * `getRecognitionContext(context).replacementState`: one recognizer per file,
 * shared by every rule that asks.
 */
export type { StateCollectionCall } from './replacement-state/collections.js';
export {
  CLONE_FUNCTION_PATTERN,
  FORK_CALLEE_PATTERN,
  RECONSTRUCT_FUNCTION_PATTERN,
  RUNTIME_CLONE_FUNCTION,
  RUNTIME_MARK_SEEN,
  RUNTIME_MODULE,
  RUNTIME_RECORD_REPLACEMENT,
} from './replacement-state/names.js';
export type { PersistenceCall } from './replacement-state/persistence.js';
export type { ReplacementStateRecognizer } from './replacement-state/recognizer.js';
export { CLONE_METHOD, type HarnessStateCopy, type NoCopyReason, type StateOwner } from './replacement-state/state-owner.js';
