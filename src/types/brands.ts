/**
 * Brands that carry an instruction. A brand is an intersection with a
 * `unique symbol` key (type-fest's Tagged, zod's $brand); the key's value is
 * the sentence the compiler prints when a plain value is passed where a
 * branded one is needed, so the error says what to do.
 */
import type {
  EXTERNALLY_BOUNDED_TOOL_UNBOUNDED,
  FORK_NEEDS_CLONED_STATE,
  REPLACEMENT_NEEDS_PERSISTED_PREVIEW,
  REPLACEMENT_NEEDS_SEEN_ID,
  SELF_READING_TOOL_NOT_UNBOUNDED,
} from './messages.js';

declare const brandKey: unique symbol;

export type Brand<Base, Instruction extends string> = Base & {
  readonly [brandKey]: Instruction;
};

/** The self-bounding sentinel: `Infinity`, only produced by `UNBOUNDED`. */
export type Unbounded = Brand<number, typeof SELF_READING_TOOL_NOT_UNBOUNDED>;

/**
 * A limit for a tool that reads nothing the model names: any plain number,
 * never `Unbounded`. The brand key is optional, so `50_000` and `number`
 * fit, while `Unbounded` (whose key holds another instruction) does not.
 */
export type FiniteResultLimit = number & {
  readonly [brandKey]?: typeof EXTERNALLY_BOUNDED_TOOL_UNBOUNDED;
};

/** A tool-use id that `markSeen(state, id)` has frozen. */
export type SeenId = Brand<string, typeof REPLACEMENT_NEEDS_SEEN_ID>;

/** A preview string that only a successful `ToolResultStore.persist` produces. */
export type PersistedPreview = Brand<string, typeof REPLACEMENT_NEEDS_PERSISTED_PREVIEW>;

/** Query sources that own a stable storage root (seed 000). */
export type OwnedQuerySource = `repl_main_thread${string}` | `agent:${string}`;

/**
 * Replacement state that may be handed to a fork, subagent or resume: only
 * `cloneReplacementState` and `reconstructReplacementState` produce it.
 */
export type ForkableState<State extends object = object> = Brand<State, typeof FORK_NEEDS_CLONED_STATE>;
