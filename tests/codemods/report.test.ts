// What `tool-result-guard migrate` tells its user: counts that read as English, review sites listed
// (not claimed as TODO marks in the code), self-reading tools that could not be fixed first, and exit
// statuses a CI can use. Runs the CLI in this process, from the sources.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';

import { describe, expect, it } from 'vitest';

import { runCli } from '../../src/codemods/index.js';
import { workspace } from './workspace.js';

/** A self-reading tool whose limit is a getter the codemod cannot rewrite: it stays for review. */
const UNFIXABLE_SELF_READING_TOOL = `import { readFile } from 'node:fs/promises';
export class ReadTool extends BaseTool {
  get maxResultSizeChars() {
    const limit = 50_000;
    return limit;
  }
  async call(input: { path: string }) {
    return readFile(input.path, 'utf8');
  }
}
`;

const SELF_READING_FETCH_TOOL = `export const fetchTool = buildTool({
  name: 'fetch',
  async call(input: { url: string }) {
    return (await fetch(input.url)).text();
  },
});
`;

/** A replacement written on a condition: the seen mark cannot be placed before it safely. */
const CONDITIONAL_REPLACEMENT = `export function store(state: { seenIds: Set<string>; replacements: Map<string, string> }, id: string, ready: boolean) {
  ready && state.replacements.set(id, 'preview');
}
`;

function stream(): { stream: NodeJS.WriteStream; text: () => string } {
  let text = '';
  const writable = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream: writable as unknown as NodeJS.WriteStream, text: () => text };
}

async function migrate(args: string[], cwd: string): Promise<{ status: number; stdout: string; stderr: string }> {
  const stdout = stream();
  const stderr = stream();
  const status = await runCli(['migrate', ...args, '--cpus', '1'], { stdout: stdout.stream, stderr: stderr.stream, cwd });
  return { status, stdout: stdout.text(), stderr: stderr.text() };
}

describe('the migrate report tells the truth', () => {
  it('counts in English ("1 file"), lists review sites without claiming TODO marks, self-reading tools first', async () => {
    const directory = workspace({ 'src/read.ts': UNFIXABLE_SELF_READING_TOOL, 'src/store.ts': CONDITIONAL_REPLACEMENT });
    const { status, stdout, stderr } = await migrate(['src/read.ts'], directory);
    expect(status).toBe(0);
    expect(stdout).toMatch(/^1 file scanned, 0 changed, 1 unchanged, 0 skipped, 0 errors/m);
    expect(stdout).toContain('1 self-reading tool left unfixed: circular persistence stays possible there');
    expect(stdout).toContain('1 site left for review, listed above.');
    expect(stdout).not.toContain('marked TODO');

    const both = await migrate(['src'], directory);
    expect(both.stdout).toMatch(/^2 files scanned/m);
    expect(both.stdout).toContain('2 sites left for review, listed above.');
    const lines = both.stderr.trim().split('\n');
    expect(lines[0]).toBe('Self-reading tools that could not be fixed (declare maxResultSizeChars: Infinity by hand):');
    expect(lines[1]).toMatch(/^review src\/read\.ts:2:\d+ \[classify-tools\] Tool 'ReadTool' reads a model-chosen path/);
    expect(lines[2]).toBe('Other sites left for review:');
    expect(lines[3]).toMatch(/^review src\/store\.ts:2:\d+ \[mark-seen\]/);
    void stderr;
  });

  it('--fail-on-error and --fail-on-review exit 1 while a self-reading tool stays unfixed', async () => {
    const directory = workspace({ 'src/read.ts': UNFIXABLE_SELF_READING_TOOL });
    expect((await migrate(['src', '--dry-run'], directory)).status).toBe(0);
    expect((await migrate(['src', '--dry-run', '--fail-on-error'], directory)).status).toBe(1);
    expect((await migrate(['src', '--dry-run', '--fail-on-review'], directory)).status).toBe(1);
  });

  it('--fail-on-review also exits 1 on any other site left for review; --fail-on-error does not', async () => {
    const directory = workspace({ 'src/store.ts': CONDITIONAL_REPLACEMENT });
    expect((await migrate(['src', '--fail-on-error'], directory)).status).toBe(0);
    expect((await migrate(['src', '--fail-on-review'], directory)).status).toBe(1);
  });

  it('warns when nothing was scanned', async () => {
    const directory = workspace({ 'src/notes.md': '# nothing to migrate\n' });
    const { status, stdout, stderr } = await migrate(['src'], directory);
    expect(status).toBe(0);
    expect(stdout).toMatch(/^0 files scanned/m);
    expect(stderr).toContain('warning: no files were scanned. Check the paths');
  });

  it('names files outside the current folder relative to their repository, so `git apply` takes the dry-run diff', async () => {
    const directory = workspace({ 'mig1/src/read.ts': SELF_READING_FETCH_TOOL });
    execFileSync('git', ['init', '-q'], { cwd: join(directory, 'mig1') });
    mkdirSync(join(directory, 'elsewhere'));
    const { status, stdout } = await migrate(['../mig1/src', '--dry-run'], join(directory, 'elsewhere'));
    expect(status).toBe(2);
    expect(stdout).toContain('--- a/src/read.ts');
    expect(stdout).not.toContain('a/../');
    writeFileSync(join(directory, 'changes.patch'), `${stdout.split(/\nDry run:/)[0]!}\n`);
    execFileSync('git', ['apply', join(directory, 'changes.patch')], { cwd: join(directory, 'mig1') });
    expect(readFileSync(join(directory, 'mig1/src/read.ts'), 'utf8')).toContain('maxResultSizeChars: Infinity');
  });
});
