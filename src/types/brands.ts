/**
 * Brands that carry an instruction. A brand is an intersection with a
 * `unique symbol` key (type-fest's Tagged, zod's $brand); the key's value is
 * the sentence the compiler prints when a plain value is passed where a
 * branded one is needed, so the error says what to do.
 */
declare const brandKey: unique symbol;

export type Brand<Base, Instruction extends string> = Base & {
  readonly [brandKey]: Instruction;
};

/** The self-bounding sentinel: `Infinity`, only produced by `UNBOUNDED`. */
export type Unbounded = Brand<
  number,
  'A self-reading tool must declare maxResultSizeChars: UNBOUNDED (import { UNBOUNDED } from "tool-result-guard")'
>;

/** A tool-use id that `markSeen(state, id)` has frozen. */
export type SeenId = Brand<
  string,
  'Call markSeen(state, id) first: a replacement may only be recorded for an id already marked seen'
>;

/** A preview string that only a successful `ToolResultStore.persist` produces. */
export type PersistedPreview = Brand<
  string,
  'Use the preview returned by await store.persist(id, content): a replacement is stored only after persistence succeeded'
>;

/** Query sources that own a stable storage root (seed 000). */
export type OwnedQuerySource = `repl_main_thread${string}` | `agent:${string}`;

/**
 * Replacement state that may be handed to a fork, subagent or resume: only
 * `cloneReplacementState` and `reconstructReplacementState` produce it.
 */
export type ForkableState<State extends object = object> = State & {
  readonly [brandKey]: 'Pass cloneReplacementState(state) or reconstructReplacementState(...) to a fork: never the parent\'s live state';
};
