/**
 * The instructions the compiler prints when a guard fails, and the runtime
 * throws when the same mistake reaches it through JavaScript or an `as any`.
 * One string per mistake, used by both (types read them with `typeof`), so
 * the compile error and the run-time error say the same thing.
 */

/** `reads` is missing: every tool must be classified (circular persistence). */
export const TOOL_NOT_CLASSIFIED =
  "Classify every tool: add reads: 'path' | 'url' | 'resource' (it reads what the model names; then maxResultSizeChars: UNBOUNDED) or reads: 'none' (then a finite maxResultSizeChars)";

/** `name` is missing or not a string. */
export const TOOL_NEEDS_NAME = 'Give every tool a name: a string (the name the model calls it by, and the key of remote overrides)';

/** A tool that reads a model-chosen path, URL or resource with a finite limit. */
export const SELF_READING_TOOL_NOT_UNBOUNDED =
  "A tool that reads a path, URL or resource the model names must declare maxResultSizeChars: UNBOUNDED (import { UNBOUNDED } from 'tool-result-guard'): with a finite limit its result is persisted and the model reads the persisted file back with the same tool, forever";

/**
 * The same, for a limit typed `number`: the literal `Infinity` is one, so the
 * sentence says why it is not enough (the compile-time twin of the lint rule,
 * which accepts `Infinity` by value).
 */
export const SELF_READING_TOOL_LIMIT_TYPED_NUMBER =
  "A tool that reads a path, URL or resource the model names must declare maxResultSizeChars: UNBOUNDED, not a number: TypeScript types the literal Infinity as number, so only UNBOUNDED (Infinity typed Unbounded; import { UNBOUNDED } from 'tool-result-guard') proves that its result is never persisted and read back by the same tool";

/** A `reads: 'none'` tool that opted out of persistence. */
export const EXTERNALLY_BOUNDED_TOOL_UNBOUNDED =
  "A tool with reads: 'none' must declare a finite maxResultSizeChars (a number > 0, e.g. 50_000): UNBOUNDED opts a tool out of persistence and is only for tools that read a path, URL or resource";

/** A limit that is not a number > 0 (NaN from a bad config must never pass as the sentinel). */
export const INVALID_RESULT_LIMIT =
  'maxResultSizeChars must be a finite number > 0 (or UNBOUNDED for a tool that reads a path, URL or resource): NaN, zero, negative numbers and non-numbers are configuration errors';

/** `recordReplacement` given an id that `markSeen` did not return (frozen fates). */
export const REPLACEMENT_NEEDS_SEEN_ID =
  'Call markSeen(state, id) first and pass the SeenId it returns: a replacement may only be recorded for an id already marked seen';

/** `recordReplacement` given a preview that no successful persist produced (frozen fates). */
export const REPLACEMENT_NEEDS_PERSISTED_PREVIEW =
  'Pass the preview returned by await store.persist(id, content) (ToolResultStore.persist): a replacement is recorded only after persistence succeeded';

/** `recordReplacement` given a string where the whole persisted result belongs. */
export const REPLACEMENT_NEEDS_PERSISTED_RESULT =
  'Pass the { path, size, preview } that await store.persist(id, content) resolved to (ToolResultStore.persist), not a string: a replacement is recorded only after persistence succeeded';

/** A fork or resume given a live state: the parent's, or one adopted after a resume or inside a child (frozen fates). */
export const FORK_NEEDS_CLONED_STATE =
  "Pass cloneReplacementState(state) to a fork or subagent (reconstructReplacementState(...) on resume), never the parent's live state: a shared state flips decisions between parent and child";

/** A snapshot (a clone or a reconstruction) used as a live state without being adopted (frozen fates). */
export const SNAPSHOT_NEEDS_ADOPTION =
  'Adopt a snapshot before using it: const state = adoptReplacementState(snapshot, agentId) in the agent that received it (the child of a fork, the main thread after a resume); the adopted state is live, so the next fork gets cloneReplacementState(state), never the same object';

/** Persistence requested for a query source that does not own a storage root (circular persistence). */
export const PERSISTENCE_NEEDS_OWNED_SESSION =
  'Persist only for sessions that own a storage root (repl_main_thread… or agent:…): narrow the query source with if (shouldPersistForSession(querySource)) first; ephemeral agents (compact, session_memory, agent_summary) must not persist';
