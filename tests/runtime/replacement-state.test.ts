import { describe, expect, it, vi } from 'vitest';
import {
  adoptReplacementState,
  applyToolResultBudget,
  cloneReplacementState,
  createReplacementState,
  FateFrozenError,
  formatPersistedOutput,
  markSeen,
  NotAReplacementStateError,
  ReadOnlyStateError,
  reconstructReplacementState,
  recordReplacement,
  ReplacementWithoutSeenMarkError,
  StateOwnershipError,
  ToolResultStore,
} from '../../src/index.js';
import type { CorruptRecord, PersistedToolResult, ReplacementRecord, ReplacementState } from '../../src/index.js';
import type { ForkableState, PersistedPreview, SeenId } from '../../src/types/index.js';
import { FORK_NEEDS_CLONED_STATE, REPLACEMENT_NEEDS_PERSISTED_RESULT, REPLACEMENT_NEEDS_SEEN_ID } from '../../src/types/messages.js';

const persistedFor = (id: string, content = `content of ${id} `.repeat(300)): PersistedToolResult => ({
  path: `/root/session/tool-results/${id}.txt`,
  size: content.length,
  preview: content.slice(0, 2_000) as PersistedPreview,
});

function stateWith(replaced: string[], inline: string[]): ReplacementState {
  const state = createReplacementState();
  for (const id of replaced) recordReplacement(state, markSeen(state, id), persistedFor(id));
  for (const id of inline) markSeen(state, id);
  return state;
}

describe('createReplacementState, markSeen and recordReplacement', () => {
  it('starts empty', () => {
    const state = createReplacementState();
    expect(state.seenIds.size).toBe(0);
    expect(state.replacements.size).toBe(0);
    expect([...state.seenIds]).toEqual([]);
  });

  it('marks an id seen and returns it as a SeenId', () => {
    const state = createReplacementState();
    const seen: SeenId = markSeen(state, 'toolu_1');
    expect(seen).toBe('toolu_1');
    expect(state.seenIds.has('toolu_1')).toBe(true);
    expect(state.replacements.has('toolu_1')).toBe(false);
    markSeen(state, 'toolu_1');
    expect(state.seenIds.size).toBe(1);
  });

  it('records the replacement built from the persist result and returns the transcript record', () => {
    const state = createReplacementState();
    const persisted = persistedFor('toolu_1');
    const record = recordReplacement(state, markSeen(state, 'toolu_1'), persisted);
    expect(record).toEqual({ kind: 'tool-result', toolUseId: 'toolu_1', replacement: formatPersistedOutput(persisted) });
    expect(state.replacements.get('toolu_1')).toBe(record.replacement);
    expect(record.replacement.startsWith('<persisted-output>')).toBe(true);
    expect(record.replacement).toContain(persisted.path);
    expect(record.replacement).toContain(String(persisted.size));
  });

  it('refuses a replacement for an id that was never marked seen', () => {
    const state = createReplacementState();
    expect(() => recordReplacement(state, 'toolu_x' as SeenId, persistedFor('toolu_x'))).toThrow(ReplacementWithoutSeenMarkError);
    expect(() => recordReplacement(state, 'toolu_x' as SeenId, persistedFor('toolu_x'))).toThrow(/markSeen\(state, id\) first/);
    expect(state.replacements.size).toBe(0);
  });

  it('keeps a frozen replacement: the same one again is a no-op, a different one throws', () => {
    const state = createReplacementState();
    const seen = markSeen(state, 'toolu_1');
    const first = recordReplacement(state, seen, persistedFor('toolu_1'));
    expect(recordReplacement(state, seen, persistedFor('toolu_1'))).toEqual(first);
    expect(() => recordReplacement(state, seen, persistedFor('toolu_1', 'other content'))).toThrow(FateFrozenError);
    expect(state.replacements.get('toolu_1')).toBe(first.replacement);
  });

  it('rejects a persisted value that is not { path, size, preview }', () => {
    const state = createReplacementState();
    const seen = markSeen(state, 'toolu_1');
    expect(() => recordReplacement(state, seen, 'preview' as unknown as PersistedToolResult)).toThrow(/await store.persist/);
    expect(state.replacements.size).toBe(0);
  });

  it('throws the same sentences the compiler prints (for JavaScript callers and `as any` casts)', () => {
    const state = createReplacementState();
    const unseen = () => recordReplacement(state, 'toolu_x' as SeenId, persistedFor('toolu_x'));
    expect(unseen).toThrow(REPLACEMENT_NEEDS_SEEN_ID);
    const seen = markSeen(state, 'toolu_1');
    const notAResult = () => recordReplacement(state, seen, 'preview' as unknown as PersistedToolResult);
    expect(notAResult).toThrow(REPLACEMENT_NEEDS_PERSISTED_RESULT);
    expect(notAResult).toThrow(expect.objectContaining({ code: 'ERR_INVALID_PERSISTED_RESULT', name: 'InvalidPersistedResultError' }));
    expect(notAResult).toThrow(TypeError);
  });

  it('accepts a well-formed { path, size, preview } it did not see being made (a custom persister), and rejects an inconsistent one', () => {
    const state = createReplacementState();
    const handMade = { path: '/elsewhere/result.txt', size: 120, preview: 'first characters' as PersistedPreview };
    expect(recordReplacement(state, markSeen(state, 'toolu_custom'), handMade).replacement).toContain('/elsewhere/result.txt');
    const malformed: PersistedToolResult[] = [
      { path: '', size: 10, preview: 'x' as PersistedPreview },
      { path: '/p', size: -1, preview: '' as PersistedPreview },
      { path: '/p', size: 1.5, preview: '' as PersistedPreview },
      { path: '/p', size: Number.NaN, preview: '' as PersistedPreview },
      { path: '/p', size: 3, preview: 'longer than the result' as PersistedPreview },
    ];
    for (const persisted of malformed) {
      const seen = markSeen(state, `toolu_${state.seenIds.size}`);
      expect(() => recordReplacement(state, seen, persisted), JSON.stringify(persisted)).toThrow(REPLACEMENT_NEEDS_PERSISTED_RESULT);
      expect(state.replacements.has(seen)).toBe(false);
    }
  });

  it('rejects objects that are not a replacement state', () => {
    // Shaped like a state, typed as one (only the type carries the live mark): made by hand all the same.
    const fake = { seenIds: new Set<string>(), replacements: new Map<string, string>() } as unknown as ReplacementState;
    expect(() => markSeen(fake, 'x')).toThrow(NotAReplacementStateError);
    expect(() => cloneReplacementState(fake)).toThrow(/createReplacementState\(\)/);
    expect(() => markSeen(createReplacementState(), '')).toThrow(TypeError);
  });
});

describe('read-only views', () => {
  it('cannot be changed from outside, even by casting to Set and Map', () => {
    const state = stateWith(['toolu_1'], ['toolu_2']);
    const asSet = state.seenIds as Set<string>;
    const asMap = state.replacements as Map<string, string>;
    expect(() => asSet.add('toolu_9')).toThrow(ReadOnlyStateError);
    expect(() => asSet.delete('toolu_1')).toThrow(/read-only/);
    expect(() => asSet.clear()).toThrow(ReadOnlyStateError);
    expect(() => asMap.set('toolu_2', 'forged')).toThrow(ReadOnlyStateError);
    expect(() => asMap.delete('toolu_1')).toThrow(/markSeen/);
    expect(() => asMap.clear()).toThrow(ReadOnlyStateError);
    expect(() => Set.prototype.add.call(state.seenIds, 'toolu_9')).toThrow(TypeError);
    expect(() => Map.prototype.set.call(state.replacements, 'toolu_2', 'forged')).toThrow(TypeError);
    expect(() => {
      (state as { seenIds: unknown }).seenIds = new Set(['forged']);
    }).toThrow(TypeError);
    expect([...state.seenIds].sort()).toEqual(['toolu_1', 'toolu_2']);
    expect([...state.replacements.keys()]).toEqual(['toolu_1']);
  });

  it('behave like ReadonlySet and ReadonlyMap', () => {
    const state = stateWith(['a'], ['b']);
    expect(state.seenIds.size).toBe(2);
    expect([...state.seenIds.values()]).toEqual(['a', 'b']);
    expect([...state.seenIds.entries()]).toEqual([
      ['a', 'a'],
      ['b', 'b'],
    ]);
    const visited: string[] = [];
    state.seenIds.forEach((id) => visited.push(id));
    expect(visited).toEqual(['a', 'b']);
    expect(state.replacements.size).toBe(1);
    expect([...state.replacements].map(([id]) => id)).toEqual(['a']);
    const mapVisited: string[] = [];
    state.replacements.forEach((replacement, id) => mapVisited.push(`${id}:${replacement.slice(0, 18)}`));
    expect(mapVisited).toEqual(['a:<persisted-output>']);
    expect(state.replacements.get('b')).toBeUndefined();
  });
});

describe('adoptReplacementState', () => {
  const budgetOptions = (agentId: string) => ({
    store: new ToolResultStore({ root: '/nonexistent/never-written', sessionId: 'adopt' }),
    tools: [{ name: 'bash', maxResultSizeChars: 30_000 }],
    perMessageLimit: 1_000_000,
    querySource: 'repl_main_thread',
    agentId,
  });
  const small = [{ toolUseId: 'toolu_small', toolName: 'bash', content: 'ok' }];

  it('returns the snapshot itself as the live state of the agent that received it', () => {
    const snapshot = cloneReplacementState(stateWith(['r1'], ['i1']));
    const live = adoptReplacementState(snapshot);
    expect(live).toBe(snapshot);
    expect(live.replacements.has('r1')).toBe(true);
  });

  it('binds the adopted state to agentId: another agent handed it (a nested subagent, a fork after a resume) is refused with the fork sentence', async () => {
    const child = adoptReplacementState(cloneReplacementState(createReplacementState()), 'agent:child');
    const grandchildUse = applyToolResultBudget(small, child, budgetOptions('agent:grandchild'));
    await expect(grandchildUse).rejects.toThrow(StateOwnershipError);
    await expect(applyToolResultBudget(small, child, budgetOptions('agent:grandchild'))).rejects.toThrow(FORK_NEEDS_CLONED_STATE);
    await expect(applyToolResultBudget(small, child, budgetOptions('agent:child'))).resolves.toBeDefined();

    const resumed = adoptReplacementState(reconstructReplacementState(['toolu_1'], []), 'repl_main_thread');
    expect(() => adoptReplacementState(resumed as unknown as ForkableState<ReplacementState>, 'agent:fork')).toThrow(StateOwnershipError);
    await expect(
      applyToolResultBudget(small, adoptReplacementState(cloneReplacementState(resumed), 'agent:fork'), budgetOptions('agent:fork')),
    ).resolves.toBeDefined();
  });

  it('rejects what is not a state, and an agentId that is not a non-empty string', () => {
    expect(() => adoptReplacementState({} as ForkableState<ReplacementState>)).toThrow(NotAReplacementStateError);
    const snapshot = cloneReplacementState(createReplacementState());
    expect(() => adoptReplacementState(snapshot, '')).toThrow(/agentId must be a non-empty string/);
  });
});

describe('cloneReplacementState', () => {
  it('copies every decision', () => {
    const parent = stateWith(['r1', 'r2'], ['i1']);
    const child = cloneReplacementState(parent);
    expect([...child.seenIds]).toEqual([...parent.seenIds]);
    expect([...child.replacements]).toEqual([...parent.replacements]);
  });

  it('diverges from its parent without affecting it (and the other way round)', () => {
    const parent = stateWith(['r1'], ['i1']);
    const child = adoptReplacementState(cloneReplacementState(parent));
    recordReplacement(child, markSeen(child, 'child_only'), persistedFor('child_only'));
    markSeen(child, 'child_inline');
    markSeen(parent, 'parent_only');
    expect(parent.seenIds.has('child_only')).toBe(false);
    expect(parent.seenIds.has('child_inline')).toBe(false);
    expect(parent.replacements.has('child_only')).toBe(false);
    expect(child.seenIds.has('parent_only')).toBe(false);
    expect(child.replacements.get('r1')).toBe(parent.replacements.get('r1'));
  });

  it('can be cloned again (a fork of a fork)', () => {
    const child = adoptReplacementState(cloneReplacementState(stateWith(['r1'], [])));
    const grandchild = cloneReplacementState(child);
    expect(grandchild.replacements.has('r1')).toBe(true);
  });
});

describe('reconstructReplacementState', () => {
  const record = (toolUseId: string, replacement = `<persisted-output>\n${toolUseId}\n</persisted-output>`): ReplacementRecord => ({
    kind: 'tool-result',
    toolUseId,
    replacement,
  });

  it('marks every transcript id seen and takes replacements verbatim from records', () => {
    const records = [record('a', 'exact bytes A'), record('b')];
    const state = reconstructReplacementState(['a', 'b', 'c'], records);
    expect([...state.seenIds]).toEqual(['a', 'b', 'c']);
    expect(state.replacements.get('a')).toBe('exact bytes A');
    expect(state.replacements.get('b')).toBe(records[1]?.replacement);
    expect(state.replacements.has('c')).toBe(false);
  });

  it('reports, and does not apply, a record whose id is not in the transcript', () => {
    const problems: CorruptRecord[] = [];
    const gone = record('gone');
    const state = reconstructReplacementState(['a'], [record('a'), gone], undefined, {
      onCorruptRecord: (problem) => problems.push(problem),
    });
    expect(state.seenIds.has('gone')).toBe(false);
    expect(state.replacements.has('gone')).toBe(false);
    expect(state.replacements.has('a')).toBe(true);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({
      index: 1,
      record: gone,
      reason: expect.stringMatching(/"gone" is not among the transcript's tool results/),
    });
  });

  it('reports a record whose id is missing from the transcript as a process warning without a callback', () => {
    const warnings = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      reconstructReplacementState(['a'], [record('gone')]);
      expect(warnings).toHaveBeenCalledTimes(1);
      expect(warnings.mock.calls[0]?.[0]).toMatch(/skipped record #0: its toolUseId "gone" is not among/);
    } finally {
      warnings.mockRestore();
    }
  });

  it('treats an empty replacement as a corrupt record: reported, and its id stays inline', () => {
    const problems: CorruptRecord[] = [];
    const state = reconstructReplacementState(['a', 'b'], [record('a', ''), record('b', 'B')], undefined, {
      onCorruptRecord: (problem) => problems.push(problem),
    });
    expect(state.seenIds.has('a')).toBe(true);
    expect(state.replacements.has('a')).toBe(false);
    expect(state.replacements.get('b')).toBe('B');
    expect(problems.map((problem) => [problem.index, problem.reason])).toEqual([[0, 'its replacement is "", not a non-empty string']]);
  });

  it('lets the first record for an id win and reports a contradicting one', () => {
    const problems: CorruptRecord[] = [];
    const state = reconstructReplacementState(['a'], [record('a', 'first'), record('a', 'first'), record('a', 'second')], undefined, {
      onCorruptRecord: (problem) => problems.push(problem),
    });
    expect(state.replacements.get('a')).toBe('first');
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ index: 2, reason: expect.stringContaining('the first record wins') });
  });

  it('fills gaps from an inherited (parent) state for a resumed fork', () => {
    const parent = stateWith(['p1', 'shared'], ['p_inline']);
    const state = reconstructReplacementState(['p1', 'shared', 'p_inline', 'own'], [record('shared', 'own record wins')], parent);
    expect(state.replacements.get('p1')).toBe(parent.replacements.get('p1'));
    expect(state.replacements.get('shared')).toBe('own record wins');
    expect(state.replacements.has('p_inline')).toBe(false);
    expect([...state.seenIds]).toEqual(['p1', 'shared', 'p_inline', 'own']);
    // Only ids in the transcript come from the parent.
    const narrower = reconstructReplacementState(['own'], [], parent);
    expect(narrower.seenIds.has('p1')).toBe(false);
  });

  it('skips corrupt records, reports each with its index and reason, and keeps the good ones', () => {
    const problems: CorruptRecord[] = [];
    const records: unknown[] = [
      record('good1', 'G1'),
      null,
      'not an object',
      { kind: 'tool_result', toolUseId: 'bad_kind', replacement: 'x' },
      { kind: 'tool-result', replacement: 'missing id' },
      { kind: 'tool-result', toolUseId: '', replacement: 'empty id' },
      { kind: 'tool-result', toolUseId: 'no_replacement' },
      { kind: 'tool-result', toolUseId: 'numeric', replacement: 42 },
      record('good2', 'G2'),
    ];
    const state = reconstructReplacementState(['good1', 'good2', 'no_replacement', 'numeric', 'bad_kind'], records, null, {
      onCorruptRecord: (problem) => problems.push(problem),
    });
    expect(state.replacements.get('good1')).toBe('G1');
    expect(state.replacements.get('good2')).toBe('G2');
    expect(state.replacements.size).toBe(2);
    // Ids whose record was corrupt are still seen (inline), never lost from the transcript.
    expect(state.seenIds.has('no_replacement')).toBe(true);
    expect(problems.map((problem) => problem.index)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(problems[2]?.reason).toMatch(/kind is "tool_result", not "tool-result"/);
    expect(problems[3]?.reason).toMatch(/toolUseId is undefined/);
    expect(problems[5]?.reason).toMatch(/replacement is undefined/);
    expect(problems[1]?.record).toBe('not an object');
  });

  it('reports records whose content fingerprint is malformed', () => {
    const problems: CorruptRecord[] = [];
    const hash = 'a'.repeat(32);
    reconstructReplacementState(
      ['a'],
      [
        { ...record('a'), contentLength: -1, contentHash: hash },
        { ...record('a'), contentLength: 5, contentHash: 'not-hex' },
        { ...record('a'), contentLength: 5 },
        { ...record('a'), reusedId: true },
        { ...record('a'), contentLength: 5, contentHash: hash, reusedId: 'yes' },
      ],
      undefined,
      { onCorruptRecord: (problem) => problems.push(problem) },
    );
    expect(problems.map((problem) => problem.reason)).toEqual([
      'its contentLength is -1, not a character count',
      'its contentHash is "not-hex", not 32 hex digits',
      'it has only one of contentLength and contentHash',
      'its reusedId is (boolean); it must be true, and only on a record with contentLength and contentHash',
      'its reusedId is "yes"; it must be true, and only on a record with contentLength and contentHash',
    ]);
  });

  it("keeps a reused id's record apart from the first one, and reports it when the transcript lacks the id", () => {
    const problems: CorruptRecord[] = [];
    const reused = { ...record('a', 'second content'), contentLength: 5, contentHash: 'b'.repeat(32), reusedId: true as const };
    const state = reconstructReplacementState(['a'], [record('a', 'first content'), reused], undefined, {
      onCorruptRecord: (problem) => problems.push(problem),
    });
    expect(problems).toEqual([]);
    expect(state.replacements.get('a')).toBe('first content');
    expect(state.replacements.get(`a~${'b'.repeat(16)}`)).toBe('second content');
    const elsewhere = reconstructReplacementState(['x'], [reused], undefined, { onCorruptRecord: (problem) => problems.push(problem) });
    expect(elsewhere.replacements.size).toBe(0);
    expect(problems.map((problem) => [problem.index, problem.reason])).toEqual([
      [0, expect.stringMatching(/^its toolUseId "a" is not among/)],
    ]);
  });

  it('reports corrupt records as process warnings when no callback is given', () => {
    const warnings = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      const state = reconstructReplacementState(['a'], [{ kind: 'tool-result', toolUseId: 'a' }, record('a', 'kept')]);
      expect(state.replacements.get('a')).toBe('kept');
      expect(warnings).toHaveBeenCalledTimes(1);
      expect(warnings.mock.calls[0]?.[0]).toMatch(/skipped record #0/);
      expect(warnings.mock.calls[0]?.[1]).toMatchObject({ code: 'TOOL_RESULT_GUARD_CORRUPT_RECORD' });
    } finally {
      warnings.mockRestore();
    }
  });

  it('accepts any iterables (a generator over a transcript file)', () => {
    function* ids() {
      yield 'a';
      yield 'b';
    }
    function* records() {
      yield record('b', 'B');
    }
    const state = reconstructReplacementState(ids(), records());
    expect([...state.seenIds]).toEqual(['a', 'b']);
    expect(state.replacements.get('b')).toBe('B');
  });

  it('throws a TypeError for a transcript id that is not a non-empty string', () => {
    expect(() => reconstructReplacementState(['a', 7 as unknown as string], [])).toThrow(/toolUseIds\[1\]/);
    expect(() => reconstructReplacementState([''], [])).toThrow(TypeError);
  });

  it('produces a state independent of the inherited one', () => {
    const parent = stateWith(['p1'], []);
    const state = adoptReplacementState(reconstructReplacementState(['p1', 'x'], [], parent));
    markSeen(state, 'new');
    expect(parent.seenIds.has('new')).toBe(false);
    expect(parent.seenIds.has('x')).toBe(false);
  });
});
