/**
 * The names the replacement-state recognition (frozen fates) goes by: the
 * runtime's own functions, and the spellings of forks, clones,
 * reconstructions and persistence. The prefilter tests the same spellings.
 */

/** Fork, subagent and resume entry points, besides the names in settings. */
export const FORK_CALLEE_PATTERN = /fork|subagent|spawn|resume|branch|createSubagentContext|runAgent/i;
/** `cloneReplacementState`, `cloneContentReplacementState`, … */
export const CLONE_FUNCTION_PATTERN = /^clone\w*State$/;
/** `reconstructReplacementState`, `reconstructContentReplacementState`, … */
export const RECONSTRUCT_FUNCTION_PATTERN = /^reconstruct\w*State$/;
/** `createReplacementState`, `createContentReplacementState`, … */
export const CREATE_STATE_PATTERN = /^create\w*ReplacementState$/;
/** Persistence, for the frozen-fates rules: any callee naming `persist`. */
export const PERSIST_NAME_PATTERN = /persist/i;
/**
 * Predicates and getters that name persistence without doing it
 * (`isPersistedPath`, `getPersistedPreview`, `hasPersisted`).
 */
export const PERSIST_QUESTION_PATTERN = /^(is|has|should|can|get|was|did)[A-Z_]/;

export const RUNTIME_MODULE = 'tool-result-guard';
export const RUNTIME_CLONE_FUNCTION = 'cloneReplacementState';

/** The runtime's own functions for the two writes: `markSeen(state, id)`, `recordReplacement(state, seenId, persisted)`. */
export const RUNTIME_MARK_SEEN = 'markSeen';
export const RUNTIME_RECORD_REPLACEMENT = 'recordReplacement';

export const SET_TYPE_NAMES: ReadonlySet<string> = new Set(['Set', 'ReadonlySet']);
export const MAP_TYPE_NAMES: ReadonlySet<string> = new Set(['Map', 'ReadonlyMap']);
/** The brand `cloneReplacementState` / `reconstructReplacementState` return: proof of a copy. */
export const CLONED_STATE_TYPE_NAMES: ReadonlySet<string> = new Set(['ForkableState']);
