import { describe, expect, test } from 'tstyche';
import {
  createReplacementState,
  markSeen,
  recordReplacement,
  ToolResultStore,
  type PersistedPreview,
  type ReplacementRecord,
  type SeenId,
} from '../../src/index.js';

const state = createReplacementState();
const store = new ToolResultStore({ root: '/tmp/agent', sessionId: 'session-1' });

describe('replacement writes need a SeenId and a persisted preview', () => {
  test('markSeen returns a SeenId; persist resolves to a PersistedPreview', async () => {
    expect(markSeen(state, 'toolu_01')).type.toBe<SeenId>();
    const persisted = await store.persist('toolu_01', 'large output');
    expect(persisted.preview).type.toBe<PersistedPreview>();
    expect(persisted.path).type.toBe<string>();
  });

  test('the correct order compiles: mark seen, persist, record', async () => {
    const seenId = markSeen(state, 'toolu_01');
    const persisted = await store.persist(seenId, 'large output');
    expect(recordReplacement(state, seenId, persisted)).type.toBe<ReplacementRecord>();
  });

  test('a SeenId is still a string wherever a string is read', () => {
    const seenId = markSeen(state, 'toolu_01');
    expect(seenId).type.toBeAssignableTo<string>();
    expect(state.seenIds.has(seenId)).type.toBe<boolean>();
  });

  test('a plain id fails, naming markSeen', async () => {
    const persisted = await store.persist('toolu_01', 'large output');
    // @ts-expect-error Call markSeen(state, id) first and pass the SeenId it returns
    recordReplacement(state, 'toolu_01', persisted);
    const toolUseId: string = 'toolu_02';
    // @ts-expect-error Call markSeen(state, id) first
    recordReplacement(state, toolUseId, persisted);
  });

  test('a preview string made by hand fails, naming store.persist', async () => {
    const seenId = markSeen(state, 'toolu_01');
    const persisted = await store.persist('toolu_01', 'large output');
    // @ts-expect-error Pass the preview returned by await store.persist(id, content)
    recordReplacement(state, seenId, { path: persisted.path, size: 12, preview: 'large outp…' });
    // @ts-expect-error Pass the preview returned by await store.persist(id, content)
    recordReplacement(state, seenId, { ...persisted, preview: persisted.preview.slice(0, 5) });
  });

  test('a plain string instead of the persisted result fails, naming store.persist', () => {
    const seenId = markSeen(state, 'toolu_01');
    // @ts-expect-error Pass the { path, size, preview } that await store.persist(id, content) resolved to
    recordReplacement(state, seenId, '<persisted-output>…</persisted-output>');
  });

  test('a SeenId and a PersistedPreview are not interchangeable', async () => {
    const seenId = markSeen(state, 'toolu_01');
    const persisted = await store.persist('toolu_01', 'large output');
    expect<PersistedPreview>().type.not.toBeAssignableTo<SeenId>();
    // @ts-expect-error Call markSeen(state, id) first
    recordReplacement(state, persisted.preview, persisted);
    expect(seenId).type.not.toBeAssignableTo<PersistedPreview>();
  });

  test('the read-only views cannot be written around the functions', () => {
    // @ts-expect-error Property 'add' does not exist on type 'ReadonlySet<string>'
    state.seenIds.add('toolu_03');
    // @ts-expect-error Property 'set' does not exist on type 'ReadonlyMap<string, string>'
    state.replacements.set('toolu_03', 'preview');
  });
});
