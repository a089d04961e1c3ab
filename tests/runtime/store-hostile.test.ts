import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidIdError, nodeStoreFileSystem, PREVIEW_CHARS, previewOf, StoreSymlinkError, ToolResultStore } from '../../src/index.js';
import type { PersistedToolResult, StoreFileSystem } from '../../src/index.js';
import { makeTemporaryRoot } from './helpers.js';

describe('ids that would name a different file than they say', () => {
  it('keeps two ids with different lone surrogates apart by rejecting both (they would share one U+FFFD file name)', async () => {
    const root = makeTemporaryRoot();
    const store = new ToolResultStore({ root, sessionId: 's' });
    await expect(store.persist('toolu_\uD800', 'first')).rejects.toMatchObject({
      code: 'ERR_INVALID_TOOL_USE_ID',
      reason: expect.stringMatching(/lone surrogate/),
    });
    await expect(store.persist('toolu_\uDC00', 'second')).rejects.toBeInstanceOf(InvalidIdError);
    await expect(store.read('toolu_\uDC00')).rejects.toBeInstanceOf(InvalidIdError);
    expect(readdirSync(root)).toEqual([]);
  });

  it('still accepts a well-formed surrogate pair', async () => {
    const store = new ToolResultStore({ root: makeTemporaryRoot(), sessionId: 's' });
    const result = await store.persist('toolu_😀', 'emoji id');
    expect(await store.read('toolu_😀')).toBe('emoji id');
    expect(result.path.endsWith('toolu_😀.txt')).toBe(true);
  });

  it.each([
    ['a lone high surrogate', 'sess\uD83D'],
    ['a lone low surrogate', '\uDE00sess'],
    ['a C1 control character', 'sess\u0085'],
    ['a bidi override', 'sess\u202Etxt.exe'],
    ['a bidi isolate', 'sess\u2066x'],
  ])('rejects a session id with %s', async (_label, sessionId) => {
    const root = makeTemporaryRoot();
    const store = new ToolResultStore({ root, sessionId });
    await expect(store.persist('ok', 'content')).rejects.toMatchObject({ code: 'ERR_INVALID_SESSION_ID' });
    expect(store.isPersistedPath(`${root}/x`)).toBe(false);
    expect(readdirSync(root)).toEqual([]);
  });

  it.each([
    ['a C1 control character (U+0080)', 'toolu_\u0080'],
    ['a C1 control character (U+009F)', 'toolu_\u009F'],
    ['LRE (U+202A)', 'toolu_\u202A'],
    ['RLO (U+202E)', 'toolu_\u202E'],
    ['LRI (U+2066)', 'toolu_\u2066'],
    ['PDI (U+2069)', 'toolu_\u2069'],
  ])('rejects a tool-use id with %s', async (_label, id) => {
    const root = makeTemporaryRoot();
    const store = new ToolResultStore({ root, sessionId: 's' });
    await expect(store.persist(id, 'content')).rejects.toMatchObject({ code: 'ERR_INVALID_TOOL_USE_ID' });
    expect(() => store.pathFor(id)).toThrow(/Invalid tool-use id/);
    expect(readdirSync(root)).toEqual([]);
  });

  it('accepts characters next to the rejected ranges (U+00A0, U+2029, U+206A)', async () => {
    const store = new ToolResultStore({ root: makeTemporaryRoot(), sessionId: 's' });
    for (const id of ['a\u00A0b', 'a\u2029b', 'a\u206Ab', 'café']) {
      await expect(store.persist(id, id)).resolves.toMatchObject({ size: id.length });
    }
  });
});

describe('content with lone surrogates', () => {
  // Lone surrogates are written to the file as U+FFFD, so a preview taken from
  // the original string would differ from the one any later process builds
  // from the file: the replacement would change across a resume.
  it('gives the preview a later process rebuilds from the file, byte for byte', async () => {
    const root = makeTemporaryRoot();
    const contents = [
      `${'a'.repeat(10)}\uD800${'b'.repeat(3_000)}`,
      `${'a'.repeat(PREVIEW_CHARS - 1)}\uD83D${'b'.repeat(3_000)}`, // a lone high surrogate where the preview ends
      `${'a'.repeat(PREVIEW_CHARS - 1)}\uDE00${'b'.repeat(3_000)}`,
      'short \uDC00 tail \uD800',
    ];
    const firstProcess = new ToolResultStore({ root, sessionId: 's' });
    const first = await Promise.all(contents.map((content, index) => firstProcess.persist(`id${index}`, content)));
    const laterProcess = new ToolResultStore({ root, sessionId: 's' });
    for (const [index, content] of contents.entries()) {
      const again = await laterProcess.persist(`id${index}`, 'ignored: the file wins');
      expect(again).toEqual(first[index]);
      expect(Buffer.from(again.preview, 'utf16le').equals(Buffer.from((first[index] as PersistedToolResult).preview, 'utf16le'))).toBe(
        true,
      );
      const stored = await laterProcess.read(`id${index}`);
      expect(stored).toBe(content.replace(/\p{Surrogate}/gu, '\uFFFD'));
      expect(first[index]?.size).toBe(content.length);
      expect(first[index]?.preview).toBe(previewOf(stored));
    }
  });
});

describe('isPersistedPath resolves symbolic links before ".."', () => {
  async function persistedStore() {
    const root = makeTemporaryRoot();
    const store = new ToolResultStore({ root, sessionId: 'session' });
    const { path: file } = await store.persist('toolu_1', 'content');
    return { root, store, file };
  }

  it('is true for <link>/../tool-results/<id>.txt when <link> points into the store (the OS opens the persisted file)', async () => {
    const { root, store, file } = await persistedStore();
    const link = path.join(root, 'L');
    symlinkSync(store.directory, link);
    const sneaky = `${link}/../tool-results/toolu_1.txt`;
    expect(readFileSync(sneaky, 'utf8')).toBe(readFileSync(file, 'utf8'));
    expect(store.isPersistedPath(sneaky)).toBe(true);
    expect(store.isPersistedPath(`${link}/./../tool-results//toolu_1.txt`)).toBe(true);
  });

  it('is false for <store>/<link>/../<id>.txt when <link> leads out of the store (the OS opens a file outside)', async () => {
    const { root, store } = await persistedStore();
    mkdirSync(path.join(root, 'elsewhere', 'deeper'), { recursive: true });
    writeFileSync(path.join(root, 'elsewhere', 'toolu_1.txt'), 'not ours');
    symlinkSync(path.join(root, 'elsewhere', 'deeper'), path.join(store.directory, 'out'));
    const sneaky = `${store.directory}/out/../toolu_1.txt`;
    expect(readFileSync(sneaky, 'utf8')).toBe('not ours');
    expect(store.isPersistedPath(sneaky)).toBe(false);
  });

  it('follows a dangling symlink to where its target would be created', async () => {
    const { root, store } = await persistedStore();
    const dangling = path.join(root, 'later.txt');
    symlinkSync(path.join(store.directory, 'not-yet.txt'), dangling);
    expect(store.isPersistedPath(dangling)).toBe(true);
    const loop = path.join(root, 'loop');
    symlinkSync(loop, loop);
    expect(store.isPersistedPath(path.join(loop, 'x.txt'))).toBe(false);
  });

  it('resolves a relative path with ".." from the working directory', async () => {
    const { store, file } = await persistedStore();
    const relative = path.relative(process.cwd(), file);
    expect(store.isPersistedPath(`${path.dirname(relative)}/../tool-results/${path.basename(file)}`)).toBe(true);
  });
});

describe('symbolic links planted inside the store', () => {
  it('never reports a file a link at <dir>/<id>.txt points to as the persisted result', async () => {
    const root = makeTemporaryRoot();
    const store = new ToolResultStore({ root, sessionId: 's' });
    await store.persist('other', 'x');
    const someoneElses = path.join(root, 'someone-elses.txt');
    writeFileSync(someoneElses, 'not the tool result');
    symlinkSync(someoneElses, store.pathFor('planted'));
    const rejection = store.persist('planted', 'the real tool result');
    await expect(rejection).rejects.toBeInstanceOf(StoreSymlinkError);
    await expect(store.persist('planted', 'again')).rejects.toMatchObject({ code: 'ERR_STORE_SYMLINK', path: store.pathFor('planted') });
    await expect(store.read('planted')).rejects.toThrow(/symbolic link.*never follows/);
    // A new store object (another process) refuses it too, through the file on disk.
    await expect(new ToolResultStore({ root, sessionId: 's' }).persist('planted', 'x')).rejects.toBeInstanceOf(StoreSymlinkError);
    expect(readFileSync(someoneElses, 'utf8')).toBe('not the tool result');
    expect(lstatSync(store.pathFor('planted')).isSymbolicLink()).toBe(true);
    expect(readdirSync(store.directory).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('refuses a symlinked session folder and leaves its target untouched', async () => {
    const root = makeTemporaryRoot();
    const target = path.join(makeTemporaryRoot(), 'victim');
    mkdirSync(target);
    chmodSync(target, 0o755);
    symlinkSync(target, path.join(root, 's'));
    const store = new ToolResultStore({ root, sessionId: 's' });
    await expect(store.persist('id', 'content')).rejects.toMatchObject({ code: 'ERR_STORE_SYMLINK', path: path.join(root, 's') });
    expect(statSync(target).mode & 0o777).toBe(0o755);
    expect(readdirSync(target)).toEqual([]);
  });

  it('never reports a result found through a symlinked session folder', async () => {
    const root = makeTemporaryRoot();
    const target = path.join(makeTemporaryRoot(), 'victim');
    mkdirSync(path.join(target, 'tool-results'), { recursive: true });
    writeFileSync(path.join(target, 'tool-results', 'id.txt'), 'planted result');
    symlinkSync(target, path.join(root, 's'));
    const store = new ToolResultStore({ root, sessionId: 's' });
    await expect(store.persist('id', 'the real one')).rejects.toBeInstanceOf(StoreSymlinkError);
    await expect(store.read('id')).rejects.toBeInstanceOf(StoreSymlinkError);
    await expect(store.read('never-persisted')).rejects.toMatchObject({ code: 'ERR_PERSISTED_RESULT_NOT_FOUND' });
  });

  it('refuses a symlinked tool-results folder and leaves its target untouched', async () => {
    const root = makeTemporaryRoot();
    const target = path.join(makeTemporaryRoot(), 'victim');
    mkdirSync(target);
    chmodSync(target, 0o755);
    mkdirSync(path.join(root, 's'));
    symlinkSync(target, path.join(root, 's', 'tool-results'));
    const store = new ToolResultStore({ root, sessionId: 's' });
    await expect(store.persist('id', 'content')).rejects.toMatchObject({ code: 'ERR_STORE_SYMLINK', path: store.directory });
    expect(statSync(target).mode & 0o777).toBe(0o755);
    expect(readdirSync(target)).toEqual([]);
  });

  it('removes no temp file through a symlinked tool-results folder', async () => {
    const root = makeTemporaryRoot();
    const target = path.join(makeTemporaryRoot(), 'victim');
    mkdirSync(target);
    const lookalike = path.join(target, '.notes.2147483646-1-0123abcd.tmp');
    writeFileSync(lookalike, "someone else's file");
    mkdirSync(path.join(root, 's'));
    symlinkSync(target, path.join(root, 's', 'tool-results'));
    const store = new ToolResultStore({ root, sessionId: 's' });
    await expect(store.removeAbandonedTemporaryFiles()).rejects.toBeInstanceOf(StoreSymlinkError);
    expect(readFileSync(lookalike, 'utf8')).toBe("someone else's file");
  });

  it('still accepts a root that is itself a symlink (the harness chose it)', async () => {
    const realRoot = makeTemporaryRoot();
    const aliasRoot = path.join(makeTemporaryRoot(), 'alias');
    symlinkSync(realRoot, aliasRoot);
    const result = await new ToolResultStore({ root: aliasRoot, sessionId: 's' }).persist('id', 'content');
    expect(readFileSync(path.join(realRoot, 's', 'tool-results', 'id.txt'), 'utf8')).toBe('content');
    expect(result.size).toBe(7);
  });
});

describe('file systems without hard links', () => {
  /** Node's fs whose link fails as on FAT; `beforeLinkFails` runs first, e.g. to let another process publish. */
  function noLinkFs(beforeLinkFails: (finalPath: string) => void = () => undefined): StoreFileSystem {
    return {
      ...nodeStoreFileSystem,
      link: async (_existingPath, newPath) => {
        beforeLinkFails(newPath);
        throw Object.assign(new Error('EPERM: operation not permitted, link'), { code: 'EPERM' });
      },
    };
  }

  it('keeps the first content when another process publishes the id meanwhile, and reports that content', async () => {
    const root = makeTemporaryRoot();
    // Another process (its own in-flight map) finishes publishing the same id while this one is writing.
    const fileSystem = noLinkFs((finalPath) => writeFileSync(finalPath, 'the other process was first', { flag: 'wx' }));
    const store = new ToolResultStore({ root, sessionId: 's', fileSystem });
    const result = await store.persist('shared', 'this process came second');
    expect(readFileSync(result.path, 'utf8')).toBe('the other process was first');
    expect(result.preview).toBe('the other process was first');
    expect(result.size).toBe('the other process was first'.length);
    expect(readdirSync(store.directory)).toEqual(['shared.txt']);
  });

  it('publishes by an exclusive create of the final name, 0600, with no temp file left', async () => {
    const root = makeTemporaryRoot();
    const fileSystem = noLinkFs();
    const store = new ToolResultStore({ root, sessionId: 's', fileSystem });
    const result = await store.persist('id', 'content');
    expect(readFileSync(result.path, 'utf8')).toBe('content');
    expect(statSync(result.path).mode & 0o777).toBe(0o600);
    expect(readdirSync(store.directory)).toEqual(['id.txt']);
  });

  it('removes its own half-written final file when the exclusive write fails (a full disk)', async () => {
    const root = makeTemporaryRoot();
    let opens = 0;
    const fileSystem: StoreFileSystem = {
      ...noLinkFs(),
      open: async (file, flags, fileMode) => {
        opens += 1;
        const handle = await nodeStoreFileSystem.open(file, flags, fileMode);
        if (opens === 1) return handle; // the temp file is written in full
        return {
          chmod: (newMode) => handle.chmod(newMode),
          datasync: () => handle.datasync(),
          close: () => handle.close(),
          writeFile: async (data) => {
            await handle.writeFile(data.slice(0, 3), 'utf8');
            throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
          },
        };
      },
    };
    const store = new ToolResultStore({ root, sessionId: 's', fileSystem });
    await expect(store.persist('id', 'content')).rejects.toMatchObject({ code: 'ERR_PERSIST_FAILED', systemCode: 'ENOSPC' });
    expect(readdirSync(store.directory)).toEqual([]);
  });
});
