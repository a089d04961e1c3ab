import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { persistForOwnedSession, requireOwnedSession, SessionNotOwnedError, ToolResultStore } from '../../src/index.js';
import { PERSISTENCE_NEEDS_OWNED_SESSION } from '../../src/types/messages.js';

/** What a JavaScript caller (or an `as any` cast) can pass. */
const requireUntyped = requireOwnedSession as (querySource: unknown) => string;
const persistUntyped = persistForOwnedSession as (
  store: ToolResultStore,
  querySource: unknown,
  toolUseId: string,
  content: string,
) => Promise<{ path: string; size: number; preview: string }>;

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'trg-owned-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('requireOwnedSession', () => {
  it.each(['repl_main_thread', 'repl_main_thread:outputStyle:concise', 'agent:researcher', 'agent:'])('returns %j unchanged', (source) => {
    expect(requireUntyped(source)).toBe(source);
  });

  it.each(['compact', 'session_memory', 'agent_summary', 'sdk', '', ' agent:x', 'AGENT:x', 'main_repl_main_thread'])(
    'throws SessionNotOwnedError for %j with the compiler’s instruction',
    (source) => {
      const attempt = () => requireUntyped(source);
      expect(attempt).toThrow(SessionNotOwnedError);
      expect(attempt).toThrow(PERSISTENCE_NEEDS_OWNED_SESSION);
      expect(attempt).toThrow(JSON.stringify(source));
    },
  );

  it('is a TypeError with a code, and names non-strings without crashing', () => {
    for (const value of [undefined, null, 42, { querySource: 'agent:x' }]) {
      let caught: unknown;
      try {
        requireUntyped(value);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(TypeError);
      expect((caught as SessionNotOwnedError).code).toBe('ERR_SESSION_NOT_OWNED');
      expect((caught as SessionNotOwnedError).querySource).toBe(value);
    }
  });
});

describe('persistForOwnedSession', () => {
  it('persists for an owned session, exactly as store.persist does', async () => {
    const store = new ToolResultStore({ root, sessionId: 'session-1' });
    const persisted = await persistUntyped(store, 'agent:researcher', 'toolu_01', 'x'.repeat(5_000));
    expect(persisted.path).toBe(path.join(root, 'session-1', 'tool-results', 'toolu_01.txt'));
    expect(persisted.size).toBe(5_000);
    expect(await store.persist('toolu_01', 'x'.repeat(5_000))).toEqual(persisted);
  });

  it('rejects for an ephemeral agent and writes nothing', async () => {
    const store = new ToolResultStore({ root, sessionId: 'session-1' });
    await expect(persistUntyped(store, 'compact', 'toolu_01', 'large')).rejects.toThrow(SessionNotOwnedError);
    expect(await readdir(root)).toEqual([]);
  });
});
