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
  SNAPSHOT_NEEDS_ADOPTION,
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

/** Query sources that own a stable storage root (circular persistence). */
export type OwnedQuerySource = `repl_main_thread${string}` | `agent:${string}`;

declare const liveStateKey: unique symbol;

/**
 * A live replacement state, the one an agent decides with: `Views` plus a
 * mark that only `createReplacementState` and `adoptReplacementState` give
 * (at run time the key does not exist; only the type has it). A snapshot
 * lacks the mark, so handing one to anything that decides fails with the
 * adoption instruction.
 */
export type LiveState<Views extends object> = Views & {
  readonly [liveStateKey]: typeof SNAPSHOT_NEEDS_ADOPTION;
};

/**
 * A snapshot of replacement state, for a fork, subagent or resume: only
 * `cloneReplacementState` and `reconstructReplacementState` produce it. It
 * has `State`'s read-only views but not the live mark, so it is not a live
 * state: the agent that receives it adopts it (`adoptReplacementState`)
 * before deciding with it, and what it adopted is a live state, which a fork
 * entry point rejects. A brand that stayed on the live state would let a
 * resumed main thread or a child hand its own live state to the next fork:
 * the shared-state bug this type exists to stop.
 */
export type ForkableState<State extends object = object> = Brand<
  { readonly [Member in Exclude<keyof State, typeof liveStateKey>]: State[Member] },
  typeof FORK_NEEDS_CLONED_STATE
>;
