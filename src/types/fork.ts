/**
 * Types for your own fork, subagent and resume entry points (frozen fates):
 * they take only `ForkableState`, which `cloneReplacementState` and
 * `reconstructReplacementState` produce, so handing a child the parent's
 * live state is a compile error that names the clone function.
 */
import type { ReplacementState } from '../runtime/replacement-state.js';
import type { ForkableState } from './brands.js';

/**
 * Options of a fork, subagent or resume entry point:
 *
 * ```ts
 * function forkSubagent(prompt: string, options: ForkOptions) { … }
 * forkSubagent('summarize', { replacementState: cloneReplacementState(parent.state) });
 * ```
 */
export interface ForkOptions<State extends object = ReplacementState> {
  readonly replacementState: ForkableState<State>;
}

/**
 * The signature of an entry point that takes the child's state first:
 * `const spawn: ForkEntryPoint<[prompt: string], Promise<Agent>> = async (state, prompt) => …`.
 */
export type ForkEntryPoint<Args extends readonly unknown[] = [], Result = void, State extends object = ReplacementState> = (
  replacementState: ForkableState<State>,
  ...args: Args
) => Result;
