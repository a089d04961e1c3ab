import { describe, expect, test } from 'tstyche';
import {
  adoptReplacementState,
  applyToolResultBudget,
  cloneReplacementState,
  createReplacementState,
  markSeen,
  reconstructReplacementState,
  ToolResultStore,
  type ForkableState,
  type ForkEntryPoint,
  type ForkOptions,
  type LiveState,
  type ReplacementState,
} from '../../src/index.js';

/** A user's own fork entry point, adopting ForkOptions. */
declare function forkSubagent(prompt: string, options: ForkOptions): Promise<string>;
/** A user's own resume entry point, adopting ForkEntryPoint. */
declare const resumeSession: ForkEntryPoint<[sessionId: string], Promise<void>>;

const store = new ToolResultStore({ root: '/tmp/agent', sessionId: 'session-1' });
const budgetOptions = { store, tools: [], querySource: 'repl_main_thread', perMessageLimit: 100_000 };

const parentState = createReplacementState();

describe('fork and resume entry points take only a snapshot (ForkableState)', () => {
  test('clone and reconstruct produce a snapshot', () => {
    expect(cloneReplacementState(parentState)).type.toBe<ForkableState<ReplacementState>>();
    expect(reconstructReplacementState(['toolu_01'], [])).type.toBe<ForkableState<ReplacementState>>();
    expect(reconstructReplacementState(['toolu_01'], [], parentState)).type.toBe<ForkableState<ReplacementState>>();
  });

  test('a clone or a reconstruction is accepted', () => {
    expect(forkSubagent).type.toBeCallableWith('summarize', { replacementState: cloneReplacementState(parentState) });
    expect(resumeSession).type.toBeCallableWith(reconstructReplacementState(['toolu_01'], []), 'session-1');
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
});

describe('a snapshot is not a live state: the child adopts it, and what it adopted is not forkable', () => {
  test('adoptReplacementState turns the snapshot into the live state the child uses', () => {
    const snapshot = cloneReplacementState(parentState);
    expect(adoptReplacementState(snapshot)).type.toBe<ReplacementState>();
    expect(adoptReplacementState(snapshot, 'agent:research')).type.toBe<ReplacementState>();
    const childState = adoptReplacementState(snapshot);
    expect(markSeen).type.toBeCallableWith(childState, 'toolu_02');
    expect(childState.seenIds).type.toBe<ReadonlySet<string>>();
  });

  test('a snapshot used as live state fails until it is adopted', () => {
    const snapshot = cloneReplacementState(parentState);
    // @ts-expect-error Adopt a snapshot before using it
    markSeen(snapshot, 'toolu_02');
    // @ts-expect-error Adopt a snapshot before using it
    void applyToolResultBudget([], reconstructReplacementState(['toolu_01'], []), budgetOptions);
    expect<ForkableState<ReplacementState>>().type.not.toBeAssignableTo<ReplacementState>();
  });

  test('resume, then fork: the main thread adopts the reconstruction, so it cannot hand it on', () => {
    const mainThreadState = adoptReplacementState(reconstructReplacementState(['toolu_01'], []));
    // @ts-expect-error Pass cloneReplacementState(state) to a fork or subagent
    void forkSubagent('summarize', { replacementState: mainThreadState });
    expect(forkSubagent).type.toBeCallableWith('summarize', { replacementState: cloneReplacementState(mainThreadState) });
  });

  test('nested subagents: the child adopts what it received, so it cannot hand it on either', () => {
    const spawnChild: ForkEntryPoint<[task: string], Promise<void>> = async (snapshot, task) => {
      const childState = adoptReplacementState(snapshot, `agent:${task}`);
      // @ts-expect-error Pass cloneReplacementState(state) to a fork or subagent
      await forkSubagent('grandchild', { replacementState: childState });
      // @ts-expect-error Adopt a snapshot before using it
      markSeen(snapshot, 'toolu_03');
      await forkSubagent('grandchild', { replacementState: cloneReplacementState(childState) });
    };
    expect(spawnChild).type.toBeCallableWith(cloneReplacementState(parentState), 'research');
  });

  test('a snapshot cannot be adopted as something else, nor a live state adopted', () => {
    // @ts-expect-error Pass cloneReplacementState(state) to a fork or subagent
    adoptReplacementState(parentState);
  });
});

describe('ForkOptions with a user state type', () => {
  test('takes only that state type’s snapshot; marked LiveState, the snapshot is not live either', () => {
    type BudgetState = LiveState<{ readonly decided: ReadonlySet<string> }>;
    const forkWith = (options: ForkOptions<BudgetState>) => options.replacementState.decided;
    const liveState = { decided: new Set<string>() } as unknown as BudgetState;
    expect(forkWith).type.toBeCallableWith({ replacementState: liveState as unknown as ForkableState<BudgetState> });
    expect(forkWith).type.not.toBeCallableWith({ replacementState: liveState });
    expect<ForkableState<BudgetState>>().type.not.toBeAssignableTo<BudgetState>();
  });
});
