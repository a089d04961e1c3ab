/**
 * Parameter types for recording a replacement (frozen fates: store a preview
 * only after persistence succeeded).
 */
import type { REPLACEMENT_NEEDS_PERSISTED_RESULT } from './messages.js';

/**
 * The type of `recordReplacement`'s `persisted` argument: the persisted
 * result itself, or, for a string (a preview or a `<persisted-output>`
 * built by hand), the instruction, so the compiler names `store.persist`
 * instead of printing a bare "not assignable to PersistedToolResult".
 */
export type PersistedResultArgument<Persisted> = Persisted extends string ? typeof REPLACEMENT_NEEDS_PERSISTED_RESULT : Persisted;
