import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import {
  applyToolResultBudget,
  adoptReplacementState,
  cloneReplacementState,
  createReplacementState,
  formatPersistedOutput,
  markSeen,
  reconstructReplacementState,
  RecordCallbackError,
  StateOwnershipError,
  ToolResultStore,
  UNBOUNDED,
  UnclassifiedToolError,
} from '../../src/index.js';
import type { ReplacementRecord, ToolResultBudgetOptions, ToolResultInput, ToolUseIdReuse } from '../../src/index.js';
import { persistedOutputLength } from '../../src/runtime/persisted-output.js';
import { CountingStore, expectedMemoryReplacement, makeTemporaryRoot, waitUntil } from './helpers.js';

const tools = [
  { name: 'bash', maxResultSizeChars: 30_000 },
  { name: 'grep', maxResultSizeChars: 20_000 },
  { name: 'read_file', maxResultSizeChars: UNBOUNDED },
];

const result = (toolUseId: string, toolName: string, size: number, fill = toolUseId.at(-1) ?? 'x'): ToolResultInput => ({
  toolUseId,
  toolName,
  content: fill.repeat(size),
});

function optionsFor(store: ToolResultBudgetOptions['store'], overrides: Partial<ToolResultBudgetOptions> = {}): ToolResultBudgetOptions {
  return { store, tools, perMessageLimit: 100_000, querySource: 'repl_main_thread', onPersistError: () => undefined, ...overrides };
}

describe('applyToolResultBudget: judging fresh results', () => {
  it('persists and replaces a fresh result over its tool threshold, leaves small ones inline', async () => {
    const store = new CountingStore();
    const state = createReplacementState();
    const big = result('toolu_big', 'bash', 45_000);
    const small = result('toolu_small', 'bash', 500);
    const { results, newlyReplaced } = await applyToolResultBudget([small, big], state, optionsFor(store));
    expect(results[0]).toBe(small);
    expect(results[1]?.content).toBe(expectedMemoryReplacement('toolu_big', big.content));
    expect(newlyReplaced).toEqual([
      {
        kind: 'tool-result',
        toolUseId: 'toolu_big',
        replacement: results[1]?.content,
        contentLength: 45_000,
        contentHash: expect.stringMatching(/^[0-9a-f]{32}$/),
      },
    ]);
    expect(store.calls).toEqual(new Map([['toolu_big', 1]]));
    expect([...state.seenIds].sort()).toEqual(['toolu_big', 'toolu_small']);
    expect(state.replacements.get('toolu_big')).toBe(results[1]?.content);
  });

  it('builds a small replacement that starts with <persisted-output>, names the path and size, and holds the preview', async () => {
    const root = makeTemporaryRoot();
    const store = new ToolResultStore({ root, sessionId: 'sess' });
    const content = Array.from({ length: 20_000 }, (_, line) => `line ${line}`).join('\n');
    const { results } = await applyToolResultBudget(
      [{ toolUseId: 'toolu_1', toolName: 'bash', content }],
      createReplacementState(),
      optionsFor(store),
    );
    const replacement = results[0]?.content ?? '';
    const file = path.join(root, 'sess', 'tool-results', 'toolu_1.txt');
    expect(replacement.startsWith('<persisted-output>')).toBe(true);
    expect(replacement).toContain(file);
    expect(replacement).toContain(`${content.length} characters`);
    expect(replacement).toContain(content.slice(0, 2_000));
    expect(replacement).not.toContain(content.slice(0, 2_001));
    expect(replacement.length).toBeLessThan(3_000);
    expect(readFileSync(file, 'utf8')).toBe(content);
  });

  it('never replaces a result whose replacement would be longer (a long store path): it stays inline and nothing is written', async () => {
    const root = path.join(makeTemporaryRoot(), 'd'.repeat(200), 'e'.repeat(200), 'f'.repeat(200));
    const store = new ToolResultStore({ root, sessionId: 'sess' });
    const records: ReplacementRecord[] = [];
    const state = createReplacementState();
    const options = optionsFor(store, {
      tools: [{ name: 'bash', maxResultSizeChars: 2_000 }],
      perMessageLimit: 1_000,
      onRecord: (record) => records.push(record),
    });
    const barelyOver = result('toolu_2500', 'bash', 2_500);
    const large = result('toolu_9000', 'bash', 9_000);
    const { results } = await applyToolResultBudget([barelyOver, large], state, options);
    expect(results[0]).toBe(barelyOver);
    expect(existsSync(store.pathFor('toolu_2500'))).toBe(false);
    expect(state.seenIds.has('toolu_2500')).toBe(true);
    // A result the replacement really shrinks is still replaced, and is shorter.
    expect(results[1]?.content.startsWith('<persisted-output>')).toBe(true);
    expect(results[1]?.content.length).toBeLessThan(large.content.length);
    expect(records.map((record) => record.toolUseId)).toEqual(['toolu_9000']);
  });

  it('measures a replacement exactly as formatPersistedOutput writes it', () => {
    for (const [size, pathLength, previewLength] of [
      [0, 0, 0],
      [9, 1, 9],
      [10, 30, 10],
      [2_500, 733, 2_000],
      [1_234_567, 4_000, 1_999],
    ] as const) {
      const written = formatPersistedOutput({ path: 'p'.repeat(pathLength), size, preview: 'v'.repeat(previewLength) });
      expect(persistedOutputLength(size, pathLength, previewLength)).toBe(written.length);
    }
  });

  it('keeps a result inline when the store it was persisted to makes the real replacement no shorter', async () => {
    const longPath = `/${'p'.repeat(3_000)}/toolu_long.txt`;
    const persisted: string[] = [];
    const store: ToolResultBudgetOptions['store'] = {
      persist: async (toolUseId, content) => (
        persisted.push(toolUseId),
        { path: longPath, size: content.length, preview: content.slice(0, 2_000) }
      ),
    };
    const records: ReplacementRecord[] = [];
    const state = createReplacementState();
    const options = optionsFor(store, { tools: [{ name: 'bash', maxResultSizeChars: 2_000 }], onRecord: (record) => records.push(record) });
    const big = result('toolu_long', 'bash', 4_000);
    const first = await applyToolResultBudget([big], state, options);
    expect(first.results[0]).toBe(big);
    expect(first.newlyReplaced).toEqual([]);
    expect(records).toEqual([]);
    expect(state.replacements.has('toolu_long')).toBe(false);
    // Frozen inline: the next turn neither persists again nor replaces.
    const again = await applyToolResultBudget([big], state, options);
    expect(again.results[0]).toBe(big);
    expect(persisted).toEqual(['toolu_long']);
  });

  it('then replaces the largest remaining fresh results while the message is over its limit', async () => {
    const store = new CountingStore();
    const state = createReplacementState();
    const message = [
      result('r_a', 'bash', 25_000),
      result('r_b', 'grep', 15_000),
      result('r_c', 'bash', 28_000),
      result('r_d', 'grep', 5_000),
      result('r_e', 'bash', 26_000),
    ];
    const { results } = await applyToolResultBudget(message, state, optionsFor(store, { perMessageLimit: 60_000 }));
    // 99,000 characters: replacing r_c (28k) and r_e (26k) brings it to about 50k.
    expect([...store.calls.keys()].sort()).toEqual(['r_c', 'r_e']);
    expect(results.map((entry) => entry.content.startsWith('<persisted-output>'))).toEqual([false, false, true, false, true]);
    expect(results.reduce((total, entry) => total + entry.content.length, 0)).toBeLessThanOrEqual(60_000);
    expect(state.seenIds.size).toBe(5);
  });

  it('never replaces a self-bounding result, not even to meet the per-message limit', async () => {
    const store = new CountingStore();
    const state = createReplacementState();
    const huge = result('toolu_read', 'read_file', 500_000);
    const { results, newlyReplaced } = await applyToolResultBudget(
      [huge, result('toolu_bash', 'bash', 1_000)],
      state,
      optionsFor(store, { perMessageLimit: 10_000 }),
    );
    expect(results[0]).toBe(huge);
    expect(newlyReplaced).toEqual([]);
    expect(store.calls.has('toolu_read')).toBe(false);
    expect(state.seenIds.has('toolu_read')).toBe(true);
    expect(state.replacements.has('toolu_read')).toBe(false);
  });

  it('keeps a self-bounding tool unbounded whatever the overrides say', async () => {
    const store = new CountingStore();
    const state = createReplacementState();
    await applyToolResultBudget([result('toolu_read', 'read_file', 50_000)], state, optionsFor(store, { overrides: { read_file: 10 } }));
    expect(store.totalCalls()).toBe(0);
  });

  it('applies a valid override for a finite tool', async () => {
    const store = new CountingStore();
    const { results } = await applyToolResultBudget(
      [result('toolu_1', 'bash', 5_000)],
      createReplacementState(),
      optionsFor(store, { overrides: { bash: 4_000 } }),
    );
    expect(results[0]?.content.startsWith('<persisted-output>')).toBe(true);
    const untouched = await applyToolResultBudget(
      [result('toolu_2', 'bash', 5_000)],
      createReplacementState(),
      optionsFor(store, { overrides: { bash: 'low' } }),
    );
    expect(untouched.results[0]?.content.startsWith('<persisted-output>')).toBe(false);
  });

  it('never treats content that already is a <persisted-output> as a candidate', async () => {
    const store = new CountingStore();
    const state = createReplacementState();
    const already = { toolUseId: 'toolu_p', toolName: 'bash', content: `<persisted-output>\n${'y'.repeat(90_000)}\n</persisted-output>` };
    const { results } = await applyToolResultBudget([already], state, optionsFor(store, { perMessageLimit: 1_000 }));
    expect(results[0]).toBe(already);
    expect(store.totalCalls()).toBe(0);
    expect(state.seenIds.has('toolu_p')).toBe(true);
  });

  it('returns results in input order and carries extra fields through', async () => {
    const store = new CountingStore();
    const message = [
      { ...result('c1', 'bash', 40_000), isError: false, index: 0 },
      { ...result('c2', 'grep', 10), isError: true, index: 1 },
    ];
    const { results } = await applyToolResultBudget(message, createReplacementState(), optionsFor(store));
    expect(results.map((entry) => [entry.toolUseId, entry.index, entry.isError])).toEqual([
      ['c1', 0, false],
      ['c2', 1, true],
    ]);
  });

  it('handles an empty message', async () => {
    const outcome = await applyToolResultBudget([], createReplacementState(), optionsFor(new CountingStore()));
    expect(outcome).toEqual({ results: [], newlyReplaced: [] });
  });
});

describe('applyToolResultBudget: frozen fates', () => {
  it('keeps an inline result inline later, even when its message is now over the limit', async () => {
    const store = new CountingStore();
    const state = createReplacementState();
    const medium = result('toolu_m', 'bash', 20_000);
    await applyToolResultBudget([medium], state, optionsFor(store));
    const again = await applyToolResultBudget(
      [medium, result('toolu_n', 'bash', 1_000)],
      state,
      optionsFor(store, { perMessageLimit: 5_000 }),
    );
    expect(again.results[0]).toBe(medium);
    expect(store.calls.has('toolu_m')).toBe(false);
  });

  it('gives a replaced result the byte-identical replacement every time, without persisting again', async () => {
    const store = new CountingStore();
    const state = createReplacementState();
    const big = result('toolu_big', 'bash', 45_000);
    const first = await applyToolResultBudget([big], state, optionsFor(store));
    for (let turn = 0; turn < 3; turn += 1) {
      const later = await applyToolResultBudget(
        [big, result(`toolu_${turn}`, 'bash', 10)],
        state,
        optionsFor(store, { perMessageLimit: 1_000_000 }),
      );
      expect(later.results[0]?.content).toBe(first.results[0]?.content);
      expect(later.newlyReplaced).toEqual([]);
    }
    expect(store.calls.get('toolu_big')).toBe(1);
  });

  it('freezes an id inline when persisting fails, and the error does not escape', async () => {
    const store = new CountingStore();
    store.failFor.add('toolu_fail');
    const failures: Array<[unknown, string]> = [];
    const records: ReplacementRecord[] = [];
    const state = createReplacementState();
    const big = result('toolu_fail', 'bash', 50_000);
    const outcome = await applyToolResultBudget(
      [big],
      state,
      optionsFor(store, {
        onPersistError: (error, toolUseId) => failures.push([error, toolUseId]),
        onRecord: (record) => records.push(record),
      }),
    );
    expect(outcome.results[0]).toBe(big);
    expect(outcome.newlyReplaced).toEqual([]);
    expect(records).toEqual([]);
    expect(failures.map(([error, id]) => [(error as { code?: string }).code, id])).toEqual([['ENOSPC', 'toolu_fail']]);
    expect(state.seenIds.has('toolu_fail')).toBe(true);
    expect(state.replacements.has('toolu_fail')).toBe(false);
    // Frozen: the next turn does not try again (the prompt stays as the model saw it).
    store.failFor.clear();
    const next = await applyToolResultBudget([big], state, optionsFor(store));
    expect(next.results[0]).toBe(big);
    expect(store.calls.get('toolu_fail')).toBe(1);
  });

  it('freezes inline a store that resolves something other than { path, size, preview }', async () => {
    const brokenStore = { persist: async () => ({ path: 42 }) } as unknown as ToolResultBudgetOptions['store'];
    const failures: unknown[] = [];
    const big = result('toolu_x', 'bash', 50_000);
    const outcome = await applyToolResultBudget(
      [big],
      createReplacementState(),
      optionsFor(brokenStore, { onPersistError: (error) => failures.push(error) }),
    );
    expect(outcome.results[0]).toBe(big);
    expect(String(failures[0])).toMatch(/not \{ path, size, preview \}/);
  });

  it('emits a process warning for a failed persist when no onPersistError is given', async () => {
    const warnings = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      const store = new CountingStore();
      store.failFor.add('toolu_fail');
      const options: ToolResultBudgetOptions = { store, tools, perMessageLimit: 100_000, querySource: 'agent:x' };
      await applyToolResultBudget([result('toolu_fail', 'bash', 50_000)], createReplacementState(), options);
      expect(warnings).toHaveBeenCalledTimes(1);
      expect(String(warnings.mock.calls[0]?.[0])).toMatch(/"toolu_fail" stays inline/);
    } finally {
      warnings.mockRestore();
    }
  });

  it('lets the other persists of the message finish and freeze when onPersistError throws', async () => {
    const store = new CountingStore();
    store.failFor.add('toolu_fail');
    const state = createReplacementState();
    const options = optionsFor(store, {
      onPersistError: () => {
        throw new Error('logger down');
      },
    });
    const message = [result('toolu_fail', 'bash', 50_000), result('toolu_ok', 'bash', 50_000)];
    await expect(applyToolResultBudget(message, state, options)).rejects.toThrow('logger down');
    expect(state.replacements.get('toolu_ok')).toBe(expectedMemoryReplacement('toolu_ok', message[1]?.content ?? ''));
    expect(state.replacements.has('toolu_fail')).toBe(false);
  });

  it('still settles the id when onPersistError itself throws', async () => {
    const store = new CountingStore();
    store.failFor.add('toolu_fail');
    const state = createReplacementState();
    const options = optionsFor(store, {
      onPersistError: () => {
        throw new Error('logger down');
      },
    });
    await expect(applyToolResultBudget([result('toolu_fail', 'bash', 50_000)], state, options)).rejects.toThrow('logger down');
    const again = await applyToolResultBudget([result('toolu_fail', 'bash', 50_000)], state, optionsFor(store));
    expect(again.results[0]?.content.startsWith('<persisted-output>')).toBe(false);
  });
});

describe('applyToolResultBudget: session ownership and records', () => {
  it.each(['compact', 'session_memory', 'agent_summary', 'sdk', ''])(
    'writes nothing, records nothing and marks nothing for the non-owned query source %j',
    async (querySource) => {
      const root = makeTemporaryRoot();
      const store = new ToolResultStore({ root, sessionId: 's' });
      const records: ReplacementRecord[] = [];
      const state = createReplacementState();
      const big = result('toolu_big', 'bash', 80_000);
      const outcome = await applyToolResultBudget(
        [big],
        state,
        optionsFor(store, { querySource, perMessageLimit: 1_000, onRecord: (record) => records.push(record) }),
      );
      expect(outcome.results[0]).toBe(big);
      expect(outcome.newlyReplaced).toEqual([]);
      expect(records).toEqual([]);
      expect(readdirSync(root)).toEqual([]);
      expect(state.seenIds.size).toBe(0);
    },
  );

  it('still reapplies earlier replacements for a non-owned query source', async () => {
    const store = new CountingStore();
    const state = createReplacementState();
    const big = result('toolu_big', 'bash', 45_000);
    const owned = await applyToolResultBudget([big], state, optionsFor(store));
    const compact = await applyToolResultBudget(
      [big, result('toolu_new', 'bash', 45_000)],
      state,
      optionsFor(store, { querySource: 'compact' }),
    );
    expect(compact.results[0]?.content).toBe(owned.results[0]?.content);
    expect(compact.results[1]?.content.startsWith('<persisted-output>')).toBe(false);
    expect(store.totalCalls()).toBe(1);
  });

  it('does not need a store for a non-owned query source', async () => {
    const outcome = await applyToolResultBudget([result('a', 'bash', 10)], createReplacementState(), {
      store: undefined as unknown as ToolResultBudgetOptions['store'],
      tools,
      perMessageLimit: 10,
      querySource: 'compact',
    });
    expect(outcome.results).toHaveLength(1);
    await expect(
      applyToolResultBudget([result('a', 'bash', 10)], createReplacementState(), {
        store: undefined as unknown as ToolResultBudgetOptions['store'],
        tools,
        perMessageLimit: 10,
        querySource: 'agent:x',
      }),
    ).rejects.toThrow(/options.store must have persist/);
  });

  it('hands onRecord one record per new replacement, in input order, for owned sessions', async () => {
    const store = new CountingStore();
    store.gate = true;
    const records: ReplacementRecord[] = [];
    const message = [result('x1', 'bash', 31_000), result('x2', 'bash', 10), result('x3', 'grep', 21_000)];
    const running = applyToolResultBudget(
      message,
      createReplacementState(),
      optionsFor(store, { querySource: 'agent:builder', onRecord: (record) => records.push(record) }),
    );
    await waitUntil(() => store.heldCount === 2);
    store.release();
    const { newlyReplaced } = await running;
    expect(records.map((record) => record.toolUseId)).toEqual(['x1', 'x3']);
    expect(newlyReplaced).toEqual(records);
  });

  it('rejects with RecordCallbackError when onRecord throws, and freezes that id inline', async () => {
    const store = new CountingStore();
    const state = createReplacementState();
    const big = result('toolu_big', 'bash', 45_000);
    const rejection = applyToolResultBudget(
      [big],
      state,
      optionsFor(store, {
        onRecord: () => {
          throw new Error('transcript closed');
        },
      }),
    );
    await expect(rejection).rejects.toBeInstanceOf(RecordCallbackError);
    await expect(rejection).rejects.toThrow(/transcript closed.*frozen inline/);
    expect(state.seenIds.has('toolu_big')).toBe(true);
    expect(state.replacements.has('toolu_big')).toBe(false);
  });

  it('rejects a result whose tool is not classified, naming the tool, before changing the state', async () => {
    const store = new CountingStore();
    const state = createReplacementState();
    const rejection = applyToolResultBudget([result('ok', 'bash', 40_000), result('mystery', 'web_fetch', 10)], state, optionsFor(store));
    await expect(rejection).rejects.toBeInstanceOf(UnclassifiedToolError);
    await expect(rejection).rejects.toBeInstanceOf(TypeError);
    await expect(rejection).rejects.toThrow(/"web_fetch".*not in options.tools/);
    expect(state.seenIds.size).toBe(0);
    expect(store.totalCalls()).toBe(0);
  });

  it('rejects a declared threshold that is not a number > 0, naming the tool', async () => {
    const options = optionsFor(new CountingStore(), { tools: [{ name: 'broken', maxResultSizeChars: Number.NaN }] });
    await expect(applyToolResultBudget([result('a', 'broken', 1)], createReplacementState(), options)).rejects.toThrow(/"broken".*NaN/);
  });

  it.each([
    ['perMessageLimit NaN', { perMessageLimit: Number.NaN }, /perMessageLimit/],
    ['perMessageLimit negative', { perMessageLimit: -1 }, /perMessageLimit/],
    ['querySource missing', { querySource: undefined as unknown as string }, /querySource/],
    ['tools not a list', { tools: 5 as unknown as [] }, /options.tools/],
  ])('rejects bad options: %s', async (_label, overrides, message) => {
    await expect(applyToolResultBudget([], createReplacementState(), optionsFor(new CountingStore(), overrides))).rejects.toThrow(message);
  });

  it('rejects a malformed result entry', async () => {
    const bad = [{ toolUseId: 'a', toolName: 'bash', content: 42 }] as unknown as ToolResultInput[];
    await expect(applyToolResultBudget(bad, createReplacementState(), optionsFor(new CountingStore()))).rejects.toThrow(/results\[0\]/);
  });
});

describe('applyToolResultBudget: concurrency', () => {
  it('marks fresh ids seen synchronously, with a pending fate, before persisting', async () => {
    const store = new CountingStore();
    store.gate = true;
    const state = createReplacementState();
    const running = applyToolResultBudget(
      [result('toolu_big', 'bash', 45_000), result('toolu_small', 'bash', 10)],
      state,
      optionsFor(store),
    );
    // No await yet: the decision is already visible.
    expect(state.seenIds.has('toolu_big')).toBe(true);
    expect(state.seenIds.has('toolu_small')).toBe(true);
    expect(state.replacements.has('toolu_big')).toBe(false);
    await waitUntil(() => store.heldCount === 1);
    store.release();
    await running;
    expect(state.replacements.has('toolu_big')).toBe(true);
  });

  it('lets concurrent calls join a pending fate: persist runs once per id, results are identical', async () => {
    const store = new CountingStore();
    store.gate = true;
    const state = createReplacementState();
    const message = [
      result('c_a', 'bash', 45_000),
      result('c_b', 'grep', 25_000),
      result('c_c', 'bash', 300),
      result('c_d', 'read_file', 90_000),
    ];
    const calls = [1, 2, 3, 4].map(() => applyToolResultBudget(message, state, optionsFor(store, { perMessageLimit: 80_000 })));
    await waitUntil(() => store.heldCount === 2);
    store.release();
    const outcomes = await Promise.all(calls);
    expect(store.calls).toEqual(
      new Map([
        ['c_a', 1],
        ['c_b', 1],
      ]),
    );
    for (const outcome of outcomes) expect(outcome.results).toEqual(outcomes[0]?.results);
    expect(outcomes.map((outcome) => outcome.newlyReplaced.length)).toEqual([2, 0, 0, 0]);
    expect(outcomes[0]?.results.map((entry) => entry.content.startsWith('<persisted-output>'))).toEqual([true, true, false, false]);
  });

  it('lets a concurrent call with an overlapping message join only the ids it shares', async () => {
    const store = new CountingStore();
    store.gate = true;
    const state = createReplacementState();
    const shared = result('shared', 'bash', 45_000);
    const first = applyToolResultBudget([shared, result('only_first', 'bash', 10)], state, optionsFor(store));
    const second = applyToolResultBudget([shared, result('only_second', 'bash', 35_000)], state, optionsFor(store));
    await waitUntil(() => store.heldCount === 2);
    store.release();
    const [one, two] = await Promise.all([first, second]);
    expect(one.results[0]?.content).toBe(two.results[0]?.content);
    expect(store.calls).toEqual(
      new Map([
        ['shared', 1],
        ['only_second', 1],
      ]),
    );
  });

  it('a failed pending persist freezes inline for every caller waiting on it', async () => {
    const store = new CountingStore();
    store.gate = true;
    store.failFor.add('doomed');
    const state = createReplacementState();
    const message = [result('doomed', 'bash', 45_000)];
    const calls = [applyToolResultBudget(message, state, optionsFor(store)), applyToolResultBudget(message, state, optionsFor(store))];
    await waitUntil(() => store.heldCount === 1);
    store.release();
    const outcomes = await Promise.all(calls);
    for (const outcome of outcomes) expect(outcome.results[0]?.content).toBe(message[0]?.content);
    expect(store.calls.get('doomed')).toBe(1);
  });
});

describe('applyToolResultBudget: agent ownership of a state', () => {
  it('binds a state to the first agent that uses it and rejects another, naming cloneReplacementState', async () => {
    const store = new CountingStore();
    const state = createReplacementState();
    await applyToolResultBudget([result('a1', 'bash', 45_000)], state, optionsFor(store, { agentId: 'main' }));
    await applyToolResultBudget([result('a2', 'bash', 10)], state, optionsFor(store, { agentId: 'main' }));
    const rejection = applyToolResultBudget(
      [result('b1', 'bash', 45_000)],
      state,
      optionsFor(store, { agentId: 'researcher', querySource: 'agent:researcher' }),
    );
    await expect(rejection).rejects.toBeInstanceOf(StateOwnershipError);
    await expect(rejection).rejects.toThrow(/cloneReplacementState\(state\)/);
    await expect(rejection).rejects.toMatchObject({ code: 'ERR_STATE_OWNERSHIP', ownerAgentId: 'main', agentId: 'researcher' });
    expect(state.seenIds.has('b1')).toBe(false);
    expect(store.calls.has('b1')).toBe(false);
  });

  it('accepts the other agent with a clone or a reconstruction', async () => {
    const store = new CountingStore();
    const state = createReplacementState();
    await applyToolResultBudget([result('a1', 'bash', 45_000)], state, optionsFor(store, { agentId: 'main' }));
    await expect(
      applyToolResultBudget(
        [result('b1', 'bash', 10)],
        adoptReplacementState(cloneReplacementState(state)),
        optionsFor(store, { agentId: 'researcher' }),
      ),
    ).resolves.toBeDefined();
    await expect(
      applyToolResultBudget(
        [result('b1', 'bash', 10)],
        adoptReplacementState(reconstructReplacementState(['a1'], [], state)),
        optionsFor(store, { agentId: 'reviewer' }),
      ),
    ).resolves.toBeDefined();
  });

  it('does not bind when no agentId is given', async () => {
    const state = createReplacementState();
    await applyToolResultBudget([], state, optionsFor(new CountingStore()));
    await applyToolResultBudget([], state, optionsFor(new CountingStore(), { agentId: 'x' }));
    await expect(applyToolResultBudget([], state, optionsFor(new CountingStore(), { agentId: 'y' }))).rejects.toThrow(StateOwnershipError);
  });
});

describe('fork and resume through the budget', () => {
  it('a fork clone inherits every decision and then diverges without touching its parent', async () => {
    const store = new CountingStore();
    const parent = createReplacementState();
    const turn1 = [result('p_big', 'bash', 45_000), result('p_small', 'bash', 2_000)];
    const parentView = await applyToolResultBudget(turn1, parent, optionsFor(store, { agentId: 'main' }));

    const child = adoptReplacementState(cloneReplacementState(parent));
    const childView = await applyToolResultBudget(
      turn1,
      child,
      optionsFor(store, { agentId: 'child', querySource: 'agent:child', perMessageLimit: 1_000 }),
    );
    expect(childView.results).toEqual(parentView.results);

    const childTurn = [result('c_big', 'bash', 45_000)];
    await applyToolResultBudget(childTurn, child, optionsFor(store, { agentId: 'child', querySource: 'agent:child' }));
    expect(child.replacements.has('c_big')).toBe(true);
    expect(parent.seenIds.has('c_big')).toBe(false);
    expect(store.calls.get('p_big')).toBe(1);
  });

  it('a fork cloned while a decision is pending inherits that decision when it settles', async () => {
    const store = new CountingStore();
    store.gate = true;
    const parent = createReplacementState();
    const big = result('pending_big', 'bash', 45_000);
    const running = applyToolResultBudget([big], parent, optionsFor(store));
    const child = adoptReplacementState(cloneReplacementState(parent));
    const childRun = applyToolResultBudget([big], child, optionsFor(store));
    await waitUntil(() => store.heldCount === 1);
    store.release();
    const [parentView, childView] = await Promise.all([running, childRun]);
    expect(childView.results[0]?.content).toBe(parentView.results[0]?.content);
    expect(child.replacements.get('pending_big')).toBe(parent.replacements.get('pending_big'));
    expect(store.calls.get('pending_big')).toBe(1);
  });

  it('a resume from transcript records reproduces byte-identical previews and persists nothing again', async () => {
    const root = makeTemporaryRoot();
    const transcript: Array<{ type: 'message'; results: ToolResultInput[] } | ReplacementRecord> = [];
    const store = new ToolResultStore({ root, sessionId: 'sess' });
    const state = createReplacementState();
    const turns = [
      [result('t1_a', 'bash', 45_000), result('t1_b', 'read_file', 60_000)],
      [result('t2_a', 'grep', 19_000), result('t2_b', 'bash', 29_000), result('t2_c', 'grep', 19_500)],
      [result('t3_a', 'bash', 100)],
    ];
    const seenBefore: string[][] = [];
    for (const turn of turns) {
      const { results } = await applyToolResultBudget(
        turn,
        state,
        optionsFor(store, { perMessageLimit: 50_000, onRecord: (record) => transcript.push(record) }),
      );
      transcript.push({ type: 'message', results: turn });
      seenBefore.push(results.map((entry) => entry.content));
    }
    const mtimes = readdirSync(store.directory).map((name) => statSync(path.join(store.directory, name)).mtimeMs);

    // A new process: the transcript as JSON lines, a new store, a reconstructed state.
    const reloaded = transcript.map((entry) => JSON.parse(JSON.stringify(entry)) as (typeof transcript)[number]);
    const toolUseIds = reloaded.flatMap((entry) => ('type' in entry ? entry.results.map((item) => item.toolUseId) : []));
    const records = reloaded.filter((entry): entry is ReplacementRecord => 'kind' in entry);
    const resumed = adoptReplacementState(reconstructReplacementState(toolUseIds, records));
    const resumedStore = new ToolResultStore({ root, sessionId: 'sess' });
    let persistCalls = 0;
    const spyingStore = { persist: (id: string, content: string) => ((persistCalls += 1), resumedStore.persist(id, content)) };
    const seenAfter: string[][] = [];
    for (const turn of turns) {
      const { results, newlyReplaced } = await applyToolResultBudget(turn, resumed, optionsFor(spyingStore, { perMessageLimit: 1 }));
      expect(newlyReplaced).toEqual([]);
      seenAfter.push(results.map((entry) => entry.content));
    }
    expect(seenAfter).toEqual(seenBefore);
    expect(persistCalls).toBe(0);
    expect(readdirSync(store.directory).map((name) => statSync(path.join(store.directory, name)).mtimeMs)).toEqual(mtimes);
    expect(records.length).toBeGreaterThan(0);
  });

  it('markSeen by hand freezes an id inline for the budget', async () => {
    const store = new CountingStore();
    const state = createReplacementState();
    markSeen(state, 'manual');
    const { results } = await applyToolResultBudget([result('manual', 'bash', 90_000)], state, optionsFor(store));
    expect(results[0]?.content.length).toBe(90_000);
    expect(store.totalCalls()).toBe(0);
  });
});

describe('real store end to end', () => {
  it('leaves nothing on disk when every result stays inline', async () => {
    const root = makeTemporaryRoot();
    const store = new ToolResultStore({ root, sessionId: 's' });
    await applyToolResultBudget([result('a', 'bash', 10)], createReplacementState(), optionsFor(store));
    expect(existsSync(path.join(root, 's'))).toBe(false);
  });
});

describe('applyToolResultBudget: a frozen tool list passed on every call', () => {
  it('resolves its thresholds again when the overrides change, and never for a list that is not frozen', async () => {
    const frozen = Object.freeze([{ name: 'bash', maxResultSizeChars: 30_000 }]);
    const store = new CountingStore();
    const state = createReplacementState();
    const call = (
      id: string,
      overrides?: Record<string, unknown>,
      list: readonly { name: string; maxResultSizeChars: number }[] = frozen,
    ) => applyToolResultBudget([result(id, 'bash', 20_000)], state, optionsFor(store, { tools: list, overrides }));
    expect((await call('a1')).newlyReplaced).toHaveLength(0);
    expect((await call('a2', { bash: 10_000 })).newlyReplaced).toHaveLength(1);
    expect((await call('a3')).newlyReplaced).toHaveLength(0);
    const mutable = [{ name: 'bash', maxResultSizeChars: 30_000 }];
    expect((await call('b1', undefined, mutable)).newlyReplaced).toHaveLength(0);
    mutable[0]!.maxResultSizeChars = 10_000;
    expect((await call('b2', undefined, mutable)).newlyReplaced).toHaveLength(1);
    // Flags refreshed in place: the same overrides object, another value.
    const flags: Record<string, unknown> = { bash: 40_000 };
    expect((await call('c1', flags)).newlyReplaced).toHaveLength(0);
    flags['bash'] = 10_000;
    expect((await call('c2', flags)).newlyReplaced).toHaveLength(1);
  });
});

describe('applyToolResultBudget: reused and duplicated ids', () => {
  const reuseOptions = (
    store: ToolResultBudgetOptions['store'],
    reuses: ToolUseIdReuse[],
    records: ReplacementRecord[] = [],
    overrides: Partial<ToolResultBudgetOptions> = {},
  ) => optionsFor(store, { onToolUseIdReused: (reuse) => reuses.push(reuse), onRecord: (record) => records.push(record), ...overrides });

  it('tells apart an inline result and later content of the same length under its id (a deferred fingerprint), without a reuse for the same string again', async () => {
    const store = new CountingStore();
    const state = createReplacementState();
    const reuses: ToolUseIdReuse[] = [];
    const first = result('call_0', 'bash', 20_000, 'a');
    await applyToolResultBudget([first], state, reuseOptions(store, reuses));
    await applyToolResultBudget([{ ...first, content: 'a'.repeat(20_000) }], state, reuseOptions(store, reuses));
    expect(reuses).toEqual([]);
    const later = result('call_0', 'bash', 20_000, 'b');
    const { results } = await applyToolResultBudget([later], state, reuseOptions(store, reuses));
    expect(reuses.map((reuse) => reuse.toolUseId)).toEqual(['call_0']);
    expect(results[0]).toBe(later);
    // A clone keeps telling them apart, hashing on demand.
    const clone = cloneReplacementState(state);
    const cloneReuses: ToolUseIdReuse[] = [];
    await applyToolResultBudget([result('call_0', 'bash', 20_000, 'c')], adoptReplacementState(clone), reuseOptions(store, cloneReuses));
    expect(cloneReuses.map((reuse) => reuse.toolUseId)).toEqual(['call_0']);
  });

  it('gives the same id twice in one message, with the same content, one fate: persisted once, both copies replaced', async () => {
    const store = new CountingStore();
    const state = createReplacementState();
    const huge = result('toolu_dup', 'bash', 1_000_000);
    const medium = result('toolu_medium', 'grep', 19_000);
    const reuses: ToolUseIdReuse[] = [];
    const { results } = await applyToolResultBudget([huge, medium, { ...huge }], state, reuseOptions(store, reuses));
    const replacement = expectedMemoryReplacement('toolu_dup', huge.content);
    expect(results[0]?.content).toBe(replacement);
    expect(results[2]?.content).toBe(replacement);
    // Both copies shrink, so the message is already under its limit: the medium result stays inline.
    expect(results[1]).toBe(medium);
    expect(store.calls).toEqual(new Map([['toolu_dup', 1]]));
    expect(reuses).toEqual([]);
  });

  it('judges a second copy with other content on its own: a 1M-character copy is not left inline', async () => {
    const store = new CountingStore();
    const state = createReplacementState();
    const reuses: ToolUseIdReuse[] = [];
    const records: ReplacementRecord[] = [];
    const small = result('toolu_same', 'bash', 100, 's');
    const huge = result('toolu_same', 'bash', 1_000_000, 'h');
    const { results } = await applyToolResultBudget([small, huge], state, reuseOptions(store, reuses, records));
    expect(results[0]).toBe(small);
    expect(results[1]?.content.startsWith('<persisted-output>')).toBe(true);
    expect(results[1]?.content).toContain('h'.repeat(2_000));
    expect(reuses).toHaveLength(1);
    const key = reuses[0]?.key ?? '';
    expect(reuses[0]).toEqual({ toolUseId: 'toolu_same', key, contentLength: 1_000_000, earlierContentLength: 100 });
    expect(key).toMatch(/^toolu_same~[0-9a-f]{16}$/);
    expect([...store.calls.keys()]).toEqual([key]);
    expect(records).toEqual([
      expect.objectContaining({ toolUseId: 'toolu_same', reusedId: true, contentLength: 1_000_000, replacement: results[1]?.content }),
    ]);
  });

  it('judges an id seen again in a later turn with other content under its own key; each turn stays byte-identical', async () => {
    const store = new CountingStore();
    const state = createReplacementState();
    const reuses: ToolUseIdReuse[] = [];
    const records: ReplacementRecord[] = [];
    const turn1 = [result('call_0', 'bash', 45_000, 'a')];
    const turn2 = [result('call_0', 'bash', 45_000, 'b')];
    const first = await applyToolResultBudget(turn1, state, reuseOptions(store, reuses, records));
    const second = await applyToolResultBudget(turn2, state, reuseOptions(store, reuses, records));
    expect(second.results[0]?.content).not.toBe(first.results[0]?.content);
    expect(second.results[0]?.content).toContain('b'.repeat(2_000));
    expect(reuses.map((reuse) => reuse.toolUseId)).toEqual(['call_0']);
    for (let round = 0; round < 2; round += 1) {
      expect((await applyToolResultBudget(turn1, state, reuseOptions(store, reuses))).results[0]?.content).toBe(first.results[0]?.content);
      expect((await applyToolResultBudget(turn2, state, reuseOptions(store, reuses))).results[0]?.content).toBe(second.results[0]?.content);
    }
    expect(store.totalCalls()).toBe(2);
    expect(reuses).toHaveLength(1);
    expect(records.map((record) => [record.toolUseId, record.reusedId])).toEqual([
      ['call_0', undefined],
      ['call_0', true],
    ]);

    // A resume from those records, in any order of turns, and a fork, give the same bytes without persisting.
    const resumed = adoptReplacementState(
      reconstructReplacementState(
        ['call_0', 'call_0'],
        records.map((record) => JSON.parse(JSON.stringify(record)) as unknown),
      ),
    );
    expect((await applyToolResultBudget(turn2, resumed, reuseOptions(store, reuses))).results[0]?.content).toBe(second.results[0]?.content);
    expect((await applyToolResultBudget(turn1, resumed, reuseOptions(store, reuses))).results[0]?.content).toBe(first.results[0]?.content);
    const fork = adoptReplacementState(cloneReplacementState(state));
    expect((await applyToolResultBudget(turn2, fork, reuseOptions(store, reuses))).results[0]?.content).toBe(second.results[0]?.content);
    const resumedFork = adoptReplacementState(reconstructReplacementState(['call_0'], [], state));
    expect((await applyToolResultBudget(turn2, resumedFork, reuseOptions(store, reuses))).results[0]?.content).toBe(
      second.results[0]?.content,
    );
    expect(store.totalCalls()).toBe(2);
    expect(reuses).toHaveLength(1);
  });

  it('replaces a reused id whose earlier content stayed inline (ids numbered per turn)', async () => {
    const store = new CountingStore();
    const state = createReplacementState();
    const reuses: ToolUseIdReuse[] = [];
    await applyToolResultBudget([result('call_0', 'bash', 300)], state, reuseOptions(store, reuses));
    const { results } = await applyToolResultBudget([result('call_0', 'bash', 60_000, 'n')], state, reuseOptions(store, reuses));
    expect(results[0]?.content.startsWith('<persisted-output>')).toBe(true);
    expect(reuses).toHaveLength(1);
  });

  it('recognises other content put into the same result object', async () => {
    const reuses: ToolUseIdReuse[] = [];
    const state = createReplacementState();
    const store = new CountingStore();
    const mutable = { toolUseId: 'call_0', toolName: 'bash', content: 'a'.repeat(45_000) };
    const first = await applyToolResultBudget([mutable], state, reuseOptions(store, reuses));
    mutable.content = 'b'.repeat(45_000);
    const second = await applyToolResultBudget([mutable], state, reuseOptions(store, reuses));
    expect(second.results[0]?.content).not.toBe(first.results[0]?.content);
    expect(second.results[0]?.content).toContain('b'.repeat(2_000));
    expect(reuses).toHaveLength(1);
  });

  it('keeps a self-bounding result inline whatever it holds, and treats its id arriving from another tool as a reuse', async () => {
    const reuses: ToolUseIdReuse[] = [];
    const state = createReplacementState();
    const store = new CountingStore();
    await applyToolResultBudget([result('call_0', 'read_file', 60_000, 'r')], state, reuseOptions(store, reuses));
    const reread = result('call_0', 'read_file', 70_000, 'R');
    expect((await applyToolResultBudget([reread], state, reuseOptions(store, reuses))).results[0]).toBe(reread);
    expect(reuses).toEqual([]);
    const fromBash = await applyToolResultBudget([result('call_0', 'bash', 45_000, 'b')], state, reuseOptions(store, reuses));
    expect(fromBash.results[0]?.content.startsWith('<persisted-output>')).toBe(true);
    expect(reuses.map((reuse) => reuse.toolUseId)).toEqual(['call_0']);
  });

  it('tells apart contents that differ only in lone surrogates', async () => {
    const reuses: ToolUseIdReuse[] = [];
    const state = createReplacementState();
    const store = new CountingStore();
    await applyToolResultBudget([{ toolUseId: 'toolu_s', toolName: 'bash', content: 'x\uD800' }], state, reuseOptions(store, reuses));
    await applyToolResultBudget([{ toolUseId: 'toolu_s', toolName: 'bash', content: 'x\uDC00' }], state, reuseOptions(store, reuses));
    expect(reuses).toHaveLength(1);
  });

  it('never gives other content under a replaced id the old preview, not even for a non-owned query source', async () => {
    const store = new CountingStore();
    const state = createReplacementState();
    await applyToolResultBudget([result('call_0', 'bash', 45_000, 'a')], state, optionsFor(store));
    const other = result('call_0', 'bash', 45_000, 'b');
    const { results } = await applyToolResultBudget([other], state, optionsFor(store, { querySource: 'compact' }));
    expect(results[0]).toBe(other);
    expect(state.seenIds.size).toBe(1);
  });

  it('reports a reuse as a process warning when no onToolUseIdReused is given, once per new content', async () => {
    const warnings = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      const store = new CountingStore();
      const state = createReplacementState();
      await applyToolResultBudget([result('call_0', 'bash', 45_000, 'a')], state, optionsFor(store));
      for (let round = 0; round < 2; round += 1)
        await applyToolResultBudget([result('call_0', 'bash', 45_000, 'b')], state, optionsFor(store));
      expect(warnings).toHaveBeenCalledTimes(1);
      expect(String(warnings.mock.calls[0]?.[0])).toMatch(/"call_0" was seen again with other content/);
      expect(warnings.mock.calls[0]?.[1]).toMatchObject({ code: 'TOOL_RESULT_GUARD_TOOL_USE_ID_REUSED' });
    } finally {
      warnings.mockRestore();
    }
  });

  it('settles every fate before rethrowing an onToolUseIdReused that throws', async () => {
    const store = new CountingStore();
    const state = createReplacementState();
    await applyToolResultBudget([result('call_0', 'bash', 300)], state, optionsFor(store));
    const options = optionsFor(store, {
      onToolUseIdReused: () => {
        throw new Error('logger down');
      },
    });
    await expect(applyToolResultBudget([result('call_0', 'bash', 45_000, 'n')], state, options)).rejects.toThrow('logger down');
    const again = await applyToolResultBudget([result('call_0', 'bash', 45_000, 'n')], state, optionsFor(store));
    expect(again.results[0]?.content.startsWith('<persisted-output>')).toBe(true);
    expect(store.totalCalls()).toBe(1);
  });
});
