import { describe, expect, test } from 'tstyche';
import {
  cloneReplacementState,
  createReplacementState,
  reconstructReplacementState,
  type ForkableState,
  type ForkEntryPoint,
  type ForkOptions,
  type ReplacementState,
} from '../../src/index.js';

/** A user's own fork entry point, adopting ForkOptions. */
declare function forkSubagent(prompt: string, options: ForkOptions): Promise<string>;
/** A user's own resume entry point, adopting ForkEntryPoint. */
declare const resumeSession: ForkEntryPoint<[sessionId: string], Promise<void>>;

const parentState = createReplacementState();

describe('fork and resume entry points take only ForkableState', () => {
  test('clone and reconstruct produce ForkableState', () => {
    expect(cloneReplacementState(parentState)).type.toBe<ForkableState<ReplacementState>>();
    expect(reconstructReplacementState(['toolu_01'], [])).type.toBe<ForkableState<ReplacementState>>();
    expect(reconstructReplacementState(['toolu_01'], [], parentState)).type.toBe<ForkableState<ReplacementState>>();
  });

  test('a clone or a reconstruction is accepted', () => {
    expect(forkSubagent).type.toBeCallableWith('summarize', { replacementState: cloneReplacementState(parentState) });
    expect(resumeSession).type.toBeCallableWith(reconstructReplacementState(['toolu_01'], []), 'session-1');
  });

  test('a ForkableState is still a ReplacementState for the child to use', () => {
    expect<ForkableState<ReplacementState>>().type.toBeAssignableTo<ReplacementState>();
    expect(cloneReplacementState(parentState).seenIds).type.toBe<ReadonlySet<string>>();
  });

  test("the parent's live state fails, naming cloneReplacementState", () => {
    // @ts-expect-error Pass cloneReplacementState(state) to a fork or subagent
    void forkSubagent('summarize', { replacementState: parentState });
    // @ts-expect-error Pass cloneReplacementState(state) to a fork or subagent
    void resumeSession(parentState, 'session-1');
    // @ts-expect-error Pass cloneReplacementState(state) to a fork or subagent
    void resumeSession(createReplacementState(), 'session-1');
  });

  test('a live state reached through a wider type still fails', () => {
    const agent: { readonly state: ReplacementState } = { state: parentState };
    // @ts-expect-error never the parent's live state
    void forkSubagent('research', { replacementState: agent.state });
  });

  test('ForkOptions works with a user state type', () => {
    interface BudgetState {
      readonly decided: ReadonlySet<string>;
    }
    const forkWith = (options: ForkOptions<BudgetState>) => options.replacementState.decided;
    const liveState: BudgetState = { decided: new Set() };
    expect(forkWith).type.toBeCallableWith({ replacementState: liveState as ForkableState<BudgetState> });
    expect(forkWith).type.not.toBeCallableWith({ replacementState: liveState });
  });
});
