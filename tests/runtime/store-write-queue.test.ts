import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  applyToolResultBudget,
  createReplacementState,
  DEFAULT_MAX_CONCURRENT_WRITES,
  FILE_HANDLE_RETRY_DELAYS_MS,
  nodeStoreFileSystem,
  PersistError,
  ToolResultStore,
} from '../../src/index.js';
import type { StoreFileSystem } from '../../src/index.js';
import { makeTemporaryRoot } from './helpers.js';

/**
 * Node's fs with a per-process limit on open files, like `ulimit -n`: an open
 * beyond `openLimit` handles fails with EMFILE. `failFirst` makes the first
 * opens fail with `code` whatever the count (a transient shortage).
 */
function limitedFs({ openLimit = Number.POSITIVE_INFINITY, failFirst = 0, code = 'EMFILE' } = {}) {
  const counters = { open: 0, peak: 0, attempts: 0 };
  const fileSystem: StoreFileSystem = {
    ...nodeStoreFileSystem,
    open: async (file, flags, mode) => {
      counters.attempts += 1;
      if (counters.attempts <= failFirst || counters.open >= openLimit) {
        throw Object.assign(new Error(`${code}: too many open files, open '${file}'`), { code, syscall: 'open' });
      }
      counters.open += 1;
      counters.peak = Math.max(counters.peak, counters.open);
      const handle = await nodeStoreFileSystem.open(file, flags, mode);
      return {
        chmod: (newMode) => handle.chmod(newMode),
        writeFile: (data, encoding) => handle.writeFile(data, encoding),
        datasync: async () => undefined, // the disk is not what this measures
        close: async () => {
          counters.open -= 1;
          await handle.close();
        },
      };
    },
  };
  return { fileSystem, counters };
}

const tools = [{ name: 'bash', maxResultSizeChars: 1_000 }];

describe('the write queue', () => {
  it(`keeps at most ${DEFAULT_MAX_CONCURRENT_WRITES} writes open at once by default`, async () => {
    const { fileSystem, counters } = limitedFs();
    const store = new ToolResultStore({ root: makeTemporaryRoot(), sessionId: 's', fileSystem });
    await Promise.all(Array.from({ length: 200 }, (_, index) => store.persist(`id${index}`, `result ${index}`)));
    expect(DEFAULT_MAX_CONCURRENT_WRITES).toBe(16);
    expect(counters.peak).toBeLessThanOrEqual(16);
    expect(readdirSync(store.directory)).toHaveLength(200);
  });

  it('takes its bound from maxConcurrentWrites', async () => {
    const { fileSystem, counters } = limitedFs();
    const store = new ToolResultStore({ root: makeTemporaryRoot(), sessionId: 's', fileSystem, maxConcurrentWrites: 3 });
    await Promise.all(Array.from({ length: 50 }, (_, index) => store.persist(`id${index}`, `result ${index}`)));
    expect(counters.peak).toBeLessThanOrEqual(3);
    expect(readdirSync(store.directory)).toHaveLength(50);
  });

  it.each([0, -1, 1.5, Number.NaN, '16'])('rejects maxConcurrentWrites %s in the constructor', (maxConcurrentWrites) => {
    expect(
      () => new ToolResultStore({ root: makeTemporaryRoot(), sessionId: 's', maxConcurrentWrites: maxConcurrentWrites as number }),
    ).toThrow(/maxConcurrentWrites must be a whole number >= 1 or Infinity/);
  });

  it('persists every result of a 3,000-result message where only 64 files may be open at once (none frozen inline)', async () => {
    const { fileSystem, counters } = limitedFs({ openLimit: 64 });
    const store = new ToolResultStore({ root: makeTemporaryRoot(), sessionId: 's', fileSystem });
    const results = Array.from({ length: 3_000 }, (_, index) => ({
      toolUseId: `call_${index}`,
      toolName: 'bash',
      content: `${index}:`.padEnd(5_000, 'x'),
    }));
    const persistErrors: unknown[] = [];
    const { newlyReplaced } = await applyToolResultBudget(results, createReplacementState(), {
      store,
      tools,
      perMessageLimit: 100_000_000,
      querySource: 'repl_main_thread',
      onPersistError: (error) => persistErrors.push(error),
    });
    expect(persistErrors).toEqual([]);
    expect(newlyReplaced).toHaveLength(3_000);
    expect(counters.peak).toBeLessThanOrEqual(DEFAULT_MAX_CONCURRENT_WRITES);
  });
});

describe('retrying a shortage of file handles', () => {
  it.each(['EMFILE', 'ENFILE', 'EAGAIN'])('retries %s with backoff and then persists', async (code) => {
    const { fileSystem, counters } = limitedFs({ failFirst: 3, code });
    const store = new ToolResultStore({ root: makeTemporaryRoot(), sessionId: 's', fileSystem });
    const result = await store.persist('id', 'the content');
    expect(readFileSync(result.path, 'utf8')).toBe('the content');
    expect(counters.attempts).toBe(4);
    expect(readdirSync(store.directory)).toEqual(['id.txt']);
  });

  it('gives up after the last retry: PersistError, and the budget then freezes the id inline', async () => {
    const { fileSystem, counters } = limitedFs({ failFirst: Number.POSITIVE_INFINITY });
    const store = new ToolResultStore({ root: makeTemporaryRoot(), sessionId: 's', fileSystem });
    const errors: unknown[] = [];
    const state = createReplacementState();
    const content = 'x'.repeat(5_000);
    const { results } = await applyToolResultBudget([{ toolUseId: 'id', toolName: 'bash', content }], state, {
      store,
      tools,
      perMessageLimit: 1_000_000,
      querySource: 'repl_main_thread',
      onPersistError: (error) => errors.push(error),
    });
    expect(counters.attempts).toBe(FILE_HANDLE_RETRY_DELAYS_MS.length + 1);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(PersistError);
    expect(errors[0]).toMatchObject({ systemCode: 'EMFILE' });
    expect((errors[0] as Error).message).toMatch(/too many open files.*maxConcurrentWrites/);
    expect(results[0]?.content).toBe(content);
    expect(state.seenIds.has('id')).toBe(true);
  });

  it('does not retry other errors (a full disk fails at once)', async () => {
    const { fileSystem, counters } = limitedFs({ failFirst: 1, code: 'ENOSPC' });
    const store = new ToolResultStore({ root: makeTemporaryRoot(), sessionId: 's', fileSystem });
    await expect(store.persist('id', 'x')).rejects.toMatchObject({ systemCode: 'ENOSPC' });
    expect(counters.attempts).toBe(1);
  });
});
