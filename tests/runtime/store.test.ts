import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import * as fsPromises from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  InvalidIdError,
  nodeStoreFileSystem,
  PersistedResultNotFoundError,
  PersistError,
  PREVIEW_CHARS,
  ToolResultStore,
} from '../../src/index.js';
import type { StoreFileSystem } from '../../src/index.js';
import { makeTemporaryRoot } from './helpers.js';

const mode = (file: string): number => statSync(file).mode & 0o777;

describe('ToolResultStore.persist', () => {
  it('writes <root>/<sessionId>/tool-results/<id>.txt and resolves { path, size, preview }', async () => {
    const root = makeTemporaryRoot();
    const store = new ToolResultStore({ root, sessionId: 'session-1' });
    const content = 'line\n'.repeat(10_000);
    const result = await store.persist('toolu_01', content);
    expect(result.path).toBe(path.join(root, 'session-1', 'tool-results', 'toolu_01.txt'));
    expect(result.size).toBe(content.length);
    expect(result.preview).toBe(content.slice(0, PREVIEW_CHARS));
    expect(readFileSync(result.path, 'utf8')).toBe(content);
    expect(await store.read('toolu_01')).toBe(content);
  });

  it('measures size in characters, not bytes', async () => {
    const store = new ToolResultStore({ root: makeTemporaryRoot(), sessionId: 's' });
    const content = 'é€'.repeat(1_500);
    const result = await store.persist('unicode', content);
    expect(result.size).toBe(3_000);
    expect(Buffer.byteLength(readFileSync(result.path, 'utf8'))).toBeGreaterThan(3_000);
  });

  it('never cuts a surrogate pair in half in the preview', async () => {
    const store = new ToolResultStore({ root: makeTemporaryRoot(), sessionId: 's' });
    const content = `${'a'.repeat(PREVIEW_CHARS - 1)}😀${'b'.repeat(10)}`;
    const result = await store.persist('emoji', content);
    expect(result.preview).toBe('a'.repeat(PREVIEW_CHARS - 1));
    const short = await store.persist('short', 'tiny');
    expect(short.preview).toBe('tiny');
  });

  it('creates folders 0700 and files 0600 even under a permissive umask', async () => {
    const previous = process.umask(0o000);
    try {
      const root = makeTemporaryRoot();
      const store = new ToolResultStore({ root: path.join(root, 'fresh-root'), sessionId: 's1' });
      const { path: file } = await store.persist('id1', 'secret token=abc');
      expect(mode(file)).toBe(0o600);
      expect(mode(path.dirname(file))).toBe(0o700);
      expect(mode(path.dirname(path.dirname(file)))).toBe(0o700);
    } finally {
      process.umask(previous);
    }
  });

  it('tightens session folders that already existed with a wider mode', async () => {
    const root = makeTemporaryRoot();
    mkdirSync(path.join(root, 's1', 'tool-results'), { recursive: true });
    chmodSync(path.join(root, 's1'), 0o755);
    chmodSync(path.join(root, 's1', 'tool-results'), 0o777);
    const store = new ToolResultStore({ root, sessionId: 's1' });
    await store.persist('id1', 'x');
    expect(mode(path.join(root, 's1'))).toBe(0o700);
    expect(mode(path.join(root, 's1', 'tool-results'))).toBe(0o700);
  });

  it('returns the same result for an id persisted again, without rewriting', async () => {
    const root = makeTemporaryRoot();
    const store = new ToolResultStore({ root, sessionId: 's' });
    const first = await store.persist('same', 'first content');
    const before = statSync(first.path);
    const again = await store.persist('same', 'first content');
    expect(again).toEqual(first);
    // A new store object (a new process after resume) finds the file and keeps it.
    const other = new ToolResultStore({ root, sessionId: 's' });
    const fromDisk = await other.persist('same', 'different content the second time');
    expect(fromDisk).toEqual(first);
    expect(readFileSync(first.path, 'utf8')).toBe('first content');
    expect(statSync(first.path).mtimeMs).toBe(before.mtimeMs);
    expect(statSync(first.path).ino).toBe(before.ino);
  });

  it('writes once when the same id is persisted concurrently, even through two store objects', async () => {
    const root = makeTemporaryRoot();
    let opens = 0;
    const countingFs: StoreFileSystem = {
      ...nodeStoreFileSystem,
      open: async (file, flags, fileMode) => {
        opens += 1;
        return nodeStoreFileSystem.open(file, flags, fileMode);
      },
    };
    const first = new ToolResultStore({ root, sessionId: 's', fileSystem: countingFs });
    const second = new ToolResultStore({ root, sessionId: 's', fileSystem: countingFs });
    const results = await Promise.all([
      first.persist('race', 'payload'),
      first.persist('race', 'payload'),
      second.persist('race', 'payload'),
      first.persist('race', 'payload'),
    ]);
    expect(opens).toBe(1);
    for (const result of results) expect(result).toEqual(results[0]);
    expect(readdirSync(path.join(root, 's', 'tool-results'))).toEqual(['race.txt']);
  });

  it('leaves no temp files behind after a successful write', async () => {
    const root = makeTemporaryRoot();
    const store = new ToolResultStore({ root, sessionId: 's' });
    await Promise.all(['a', 'b', 'c'].map((id) => store.persist(id, id.repeat(100_000))));
    expect(readdirSync(store.directory).sort()).toEqual(['a.txt', 'b.txt', 'c.txt']);
  });

  it.each([
    ['empty', ''],
    ['a slash', 'a/b'],
    ['a parent escape', '../../etc/passwd'],
    ['a backslash', 'a\\b'],
    ['NUL', 'a\0b'],
    ['.', '.'],
    ['..', '..'],
    ['only dots', '...'],
    ['a newline', 'a\nb'],
    ['too long', 'x'.repeat(250)],
  ])('rejects a tool-use id with %s using its own error, before touching fs', async (_label, id) => {
    const root = makeTemporaryRoot();
    const store = new ToolResultStore({ root, sessionId: 's' });
    const rejection = store.persist(id, 'content');
    await expect(rejection).rejects.toBeInstanceOf(InvalidIdError);
    await expect(store.persist(id, 'content')).rejects.toMatchObject({ code: 'ERR_INVALID_TOOL_USE_ID', idKind: 'tool-use id' });
    await expect(store.persist(id, 'content')).rejects.toThrow(/Invalid tool-use id/);
    expect(readdirSync(root)).toEqual([]);
  });

  it('names the id and the reason in the message', async () => {
    const store = new ToolResultStore({ root: makeTemporaryRoot(), sessionId: 's' });
    await expect(store.persist('../x', 'c')).rejects.toThrow('Invalid tool-use id "../x": it contains "/"');
    await expect(store.persist('..', 'c')).rejects.toThrow('Invalid tool-use id "..": it is made only of dots');
  });

  it.each([
    ['empty', ''],
    ['a slash', 'a/b'],
    ['..', '..'],
    ['a backslash', 's\\1'],
    ['NUL', 's\0'],
    ['not a string', 42],
  ])('rejects a session id with %s (the promise rejects, the constructor does not throw)', async (_label, sessionId) => {
    const root = makeTemporaryRoot();
    const store = new ToolResultStore({ root, sessionId: sessionId as string });
    await expect(store.persist('ok', 'content')).rejects.toMatchObject({ code: 'ERR_INVALID_SESSION_ID', idKind: 'session id' });
    await expect(store.read('ok')).rejects.toBeInstanceOf(InvalidIdError);
    expect(store.isPersistedPath(path.join(root, 'anything'))).toBe(false);
    expect(readdirSync(root)).toEqual([]);
  });

  it('rejects content that is not a string', async () => {
    const store = new ToolResultStore({ root: makeTemporaryRoot(), sessionId: 's' });
    await expect(store.persist('id', 42 as unknown as string)).rejects.toThrow(TypeError);
  });

  it('throws in the constructor only for a missing root', () => {
    expect(() => new ToolResultStore({ root: '', sessionId: 's' })).toThrow(TypeError);
    expect(() => new ToolResultStore(undefined as never)).toThrow(/root, sessionId/);
  });
});

describe('ToolResultStore failures', () => {
  /** Node's fs, except that writes fail half way like a full disk. */
  function fullDiskFs(): StoreFileSystem & { temporaryFiles: string[] } {
    const temporaryFiles: string[] = [];
    return {
      ...nodeStoreFileSystem,
      temporaryFiles,
      open: async (file, flags, fileMode) => {
        temporaryFiles.push(file);
        const handle = await fsPromises.open(file, flags, fileMode);
        return {
          chmod: (newMode) => handle.chmod(newMode),
          datasync: () => handle.datasync(),
          close: () => handle.close(),
          writeFile: async (data) => {
            await handle.writeFile(data.slice(0, Math.floor(data.length / 2)), 'utf8');
            throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
          },
        };
      },
    };
  }

  it('rejects with PersistError on a full disk and leaves no file, partial or temp', async () => {
    const root = makeTemporaryRoot();
    const fileSystem = fullDiskFs();
    const store = new ToolResultStore({ root, sessionId: 's', fileSystem });
    const rejection = store.persist('big', 'x'.repeat(1_000_000));
    await expect(rejection).rejects.toBeInstanceOf(PersistError);
    await expect(store.persist('big', 'x'.repeat(1_000_000))).rejects.toMatchObject({
      code: 'ERR_PERSIST_FAILED',
      systemCode: 'ENOSPC',
      toolUseId: 'big',
    });
    await expect(store.persist('big', 'x')).rejects.toThrow(/disk \(or quota\) is full.*No partial file/);
    expect(fileSystem.temporaryFiles.length).toBeGreaterThan(0);
    expect(readdirSync(store.directory)).toEqual([]);
    expect(existsSync(store.pathFor('big'))).toBe(false);
  });

  it('can persist the id once the disk has room again', async () => {
    const root = makeTemporaryRoot();
    await expect(new ToolResultStore({ root, sessionId: 's', fileSystem: fullDiskFs() }).persist('id', 'data')).rejects.toThrow();
    const healthy = new ToolResultStore({ root, sessionId: 's' });
    const result = await healthy.persist('id', 'data');
    expect(readFileSync(result.path, 'utf8')).toBe('data');
  });

  it('reports a permission problem as PersistError with advice', async () => {
    const root = makeTemporaryRoot();
    const deniedFs: StoreFileSystem = {
      ...nodeStoreFileSystem,
      mkdir: async () => {
        throw Object.assign(new Error('EACCES: permission denied, mkdir'), { code: 'EACCES' });
      },
    };
    const store = new ToolResultStore({ root, sessionId: 's', fileSystem: deniedFs });
    await expect(store.persist('id', 'x')).rejects.toThrow(/permission denied; the store root must be writable/);
  });

  // Without hard links the final name is created exclusively: tests/runtime/store-hostile.test.ts.

  it('removeAbandonedTemporaryFiles keeps temp files of live writers and results', async () => {
    const root = makeTemporaryRoot();
    const store = new ToolResultStore({ root, sessionId: 's' });
    expect(await store.removeAbandonedTemporaryFiles()).toEqual([]);
    await store.persist('kept', 'result');
    const live = `.busy.${process.pid}-1-0123abcd.tmp`;
    const dead = '.gone.2147483646-3-89abcdef.tmp';
    writeFileSync(path.join(store.directory, live), 'half');
    writeFileSync(path.join(store.directory, dead), 'half');
    writeFileSync(path.join(store.directory, 'notes.tmp'), 'not ours');
    expect(await store.removeAbandonedTemporaryFiles()).toEqual([dead]);
    expect(readdirSync(store.directory).sort()).toEqual([live, 'kept.txt', 'notes.tmp'].sort());
  });

  it('read rejects with PersistedResultNotFoundError for an id never persisted', async () => {
    const store = new ToolResultStore({ root: makeTemporaryRoot(), sessionId: 's' });
    await expect(store.read('missing')).rejects.toBeInstanceOf(PersistedResultNotFoundError);
    await expect(store.read('missing')).rejects.toMatchObject({ code: 'ERR_PERSISTED_RESULT_NOT_FOUND' });
  });
});

describe('ToolResultStore.isPersistedPath', () => {
  async function persistedStore() {
    const root = makeTemporaryRoot();
    const store = new ToolResultStore({ root, sessionId: 'session' });
    const { path: file } = await store.persist('toolu_1', 'content');
    return { root, store, file };
  }

  it('is true for a persisted file, also through ".." and relative segments', async () => {
    const { store, file } = await persistedStore();
    expect(store.isPersistedPath(file)).toBe(true);
    expect(store.isPersistedPath(path.join(store.directory, '..', 'tool-results', 'toolu_1.txt'))).toBe(true);
    expect(store.isPersistedPath(path.relative(process.cwd(), file))).toBe(true);
  });

  it('is false for the folder itself, its parents, siblings and look-alike prefixes', async () => {
    const { root, store } = await persistedStore();
    expect(store.isPersistedPath(store.directory)).toBe(false);
    expect(store.isPersistedPath(path.join(root, 'session'))).toBe(false);
    expect(store.isPersistedPath(path.join(root, 'session', 'tool-results-other', 'x.txt'))).toBe(false);
    expect(store.isPersistedPath(path.join(store.directory, '..', 'notes.txt'))).toBe(false);
    expect(store.isPersistedPath(path.join(root, 'other-session', 'tool-results', 'toolu_1.txt'))).toBe(false);
    expect(store.isPersistedPath('')).toBe(false);
    expect(store.isPersistedPath(`${store.directory}/x\0.txt`)).toBe(false);
  });

  it('follows a symlink that points into the store (the model reading a persisted file by an alias)', async () => {
    const { root, store, file } = await persistedStore();
    const alias = path.join(root, 'innocent-looking.txt');
    symlinkSync(file, alias);
    expect(store.isPersistedPath(alias)).toBe(true);
    const folderAlias = path.join(root, 'results-link');
    symlinkSync(store.directory, folderAlias);
    expect(store.isPersistedPath(path.join(folderAlias, 'toolu_1.txt'))).toBe(true);
  });

  it('is false for a symlink inside the store that escapes it', async () => {
    const { root, store } = await persistedStore();
    const outside = path.join(root, 'outside.txt');
    writeFileSync(outside, 'not a persisted result');
    const escape = path.join(store.directory, 'escape.txt');
    symlinkSync(outside, escape);
    expect(lstatSync(escape).isSymbolicLink()).toBe(true);
    expect(store.isPersistedPath(escape)).toBe(false);
    const folderEscape = path.join(store.directory, 'up');
    symlinkSync(root, folderEscape);
    expect(store.isPersistedPath(path.join(folderEscape, 'outside.txt'))).toBe(false);
  });

  it('resolves the store folder itself through symlinks (a root given by an alias)', async () => {
    const realRoot = makeTemporaryRoot();
    const aliasParent = makeTemporaryRoot();
    const aliasRoot = path.join(aliasParent, 'root-alias');
    symlinkSync(realRoot, aliasRoot);
    const store = new ToolResultStore({ root: aliasRoot, sessionId: 's' });
    const { path: file } = await store.persist('id', 'x');
    expect(store.isPersistedPath(path.join(realRoot, 's', 'tool-results', 'id.txt'))).toBe(true);
    expect(store.isPersistedPath(file)).toBe(true);
  });

  it('answers for paths that do not exist yet by their resolved parent', async () => {
    const { root, store } = await persistedStore();
    expect(store.isPersistedPath(path.join(store.directory, 'not-yet.txt'))).toBe(true);
    expect(store.isPersistedPath(path.join(root, 'nowhere', 'x.txt'))).toBe(false);
    const fresh = new ToolResultStore({ root: path.join(root, 'never-created'), sessionId: 's' });
    expect(fresh.isPersistedPath(path.join(root, 'never-created', 's', 'tool-results', 'a.txt'))).toBe(true);
  });
});
