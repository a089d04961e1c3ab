import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ToolResultStore } from '../../src/index.js';
import { ensureBuilt } from './dist.js';
import { makeTemporaryRoot } from './helpers.js';

let storeModuleUrl = '';
beforeAll(() => {
  storeModuleUrl = ensureBuilt().storeModuleUrl;
});

const CONTENT_LENGTH = 40_000_000;

/** A writer process: persists one large result; `stall` makes it stop half way and say so. */
function writerScript(stall: boolean): string {
  return `
import * as fsPromises from 'node:fs/promises';
import { ToolResultStore, nodeStoreFileSystem } from ${JSON.stringify(storeModuleUrl)};
const [root] = process.argv.slice(2);
setInterval(() => {}, 60_000); // keep running until killed
const stallingFs = {
  ...nodeStoreFileSystem,
  async open(file, flags, mode) {
    const handle = await fsPromises.open(file, flags, mode);
    return {
      chmod: (newMode) => handle.chmod(newMode),
      datasync: () => handle.datasync(),
      close: () => handle.close(),
      async writeFile(data) {
        await handle.write(data.slice(0, data.length / 2));
        await handle.datasync();
        process.stdout.write('HALF_WRITTEN ' + file + '\\n');
        await new Promise(() => {});
      },
    };
  },
};
const store = new ToolResultStore({ root, sessionId: 'session', ${stall ? 'fileSystem: stallingFs' : ''} });
process.stdout.write('STARTING\\n');
await store.persist('toolu_big', 'x'.repeat(${CONTENT_LENGTH}));
process.stdout.write('DONE\\n');
`;
}

function runWriter(root: string, stall: boolean, killWhen: (stdout: string) => boolean) {
  const script = path.join(root, `writer-${stall ? 'stall' : 'race'}.mjs`);
  writeFileSync(script, writerScript(stall));
  const child = spawn(process.execPath, [script, root], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise<{ signal: NodeJS.Signals | null; code: number | null; stdout: string; stderr: string }>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (killWhen(stdout)) child.kill('SIGKILL');
    });
    child.on('exit', (code, signal) => resolve({ signal, code, stdout, stderr }));
  });
}

describe('a writer killed mid-write', () => {
  it('leaves no partial .txt: only a hidden temp file holds the half-written bytes', async () => {
    const root = makeTemporaryRoot();
    const outcome = await runWriter(root, true, (stdout) => stdout.includes('HALF_WRITTEN'));
    expect(outcome.stderr).toBe('');
    expect(outcome.signal).toBe('SIGKILL');
    const directory = path.join(root, 'session', 'tool-results');
    const entries = readdirSync(directory);
    expect(entries.filter((name) => name.endsWith('.txt'))).toEqual([]);
    // The kill really interrupted a write: the temp file holds half the content.
    const temporary = entries.filter((name) => name.startsWith('.toolu_big.') && name.endsWith('.tmp'));
    expect(temporary).toHaveLength(1);
    expect(statSync(path.join(directory, temporary[0] as string)).size).toBe(CONTENT_LENGTH / 2);

    // The next process (a resume) clears what the dead writer left and persists the id cleanly.
    const store = new ToolResultStore({ root, sessionId: 'session' });
    expect(await store.removeAbandonedTemporaryFiles()).toEqual(temporary);
    expect(readdirSync(directory)).toEqual([]);
    await expect(store.read('toolu_big')).rejects.toMatchObject({ code: 'ERR_PERSISTED_RESULT_NOT_FOUND' });
    const result = await store.persist('toolu_big', 'x'.repeat(CONTENT_LENGTH));
    expect(result.size).toBe(CONTENT_LENGTH);
    expect(readFileSync(result.path, 'utf8').length).toBe(CONTENT_LENGTH);
  });

  it('with plain fs, a kill at any moment leaves either no .txt or the complete one', async () => {
    const root = makeTemporaryRoot();
    const directory = path.join(root, 'session', 'tool-results');
    const outcome = await runWriter(root, false, (stdout) => stdout.includes('STARTING'));
    expect(outcome.stderr).toBe('');
    const finals = (() => {
      try {
        return readdirSync(directory).filter((name) => name.endsWith('.txt'));
      } catch {
        return [];
      }
    })();
    for (const name of finals) {
      expect(statSync(path.join(directory, name)).size).toBe(CONTENT_LENGTH);
    }
    expect(outcome.signal === 'SIGKILL' || outcome.stdout.includes('DONE')).toBe(true);
  });
});
