// The runner's own guarantees, through the programmatic API: discovery,
// atomic writes, disabled findings, line endings, imports added once, edit
// selection, diffs, and the CLI's progress line on a terminal.
import { chmodSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { applyPatch } from 'diff';
import { describe, expect, it } from 'vitest';

import {
  CodemodUsageError,
  createEditingProject,
  DEFAULT_EXTENSIONS,
  discoverFiles,
  migrate,
  runCli,
  unifiedDiff,
} from '../../src/codemods/index.js';
import { ensurePackageImport, selectCompatibleEdits } from '../../src/codemods/source-edits.js';
import { SELF_READING_TOOL } from './sources.js';
import { workspace } from './workspace.js';

const MISSING_MARK = `interface State { seenIds: Set<string>; replacements: Map<string, string> }

export function adopt(state: State, records: { id: string; preview: string }[]): void {
  for (const record of records) {
    state.replacements.set(record.id, record.preview);
  }
}
`;

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return error instanceof CodemodUsageError ? error.code : String(error);
  }
}

describe('file discovery', () => {
  it('walks folders by extension, skips node_modules and declaration files, honours ignore patterns', async () => {
    const directory = workspace({
      'src/a.ts': '',
      'src/b.mjs': '',
      'src/c.d.ts': '',
      'src/readme.md': '',
      'src/generated/d.ts': '',
      'src/node_modules/pkg/e.ts': '',
      'other/f.ts': '',
    });
    const all = await discoverFiles({ paths: ['src'], cwd: directory, extensions: DEFAULT_EXTENSIONS, ignorePatterns: [] });
    expect(all.map((file) => file.slice(directory.length + 1))).toEqual(['src/a.ts', 'src/b.mjs', 'src/generated/d.ts']);
    const filtered = await discoverFiles({
      paths: ['src', 'other/f.ts'],
      cwd: directory,
      extensions: ['ts'],
      ignorePatterns: ['**/generated/**'],
    });
    expect(filtered.map((file) => file.slice(directory.length + 1))).toEqual(['other/f.ts', 'src/a.ts']);
  });

  it('takes a compound extension (`esm.js`) for the files that end in it only', async () => {
    const directory = workspace({ 'dist/index.esm.js': '', 'dist/index.cjs.js': '', 'dist/other.js': '' });
    const files = await discoverFiles({ paths: ['dist'], cwd: directory, extensions: ['esm.js'], ignorePatterns: [] });
    expect(files.map((file) => file.slice(directory.length + 1))).toEqual(['dist/index.esm.js']);
  });

  it('reads a tsconfig the way tsc does (include, exclude) and reports bad input with a code', async () => {
    const directory = workspace({
      'tsconfig.json': JSON.stringify({ include: ['src'], exclude: ['src/legacy'] }),
      'src/a.ts': '',
      'src/legacy/b.ts': '',
      'scripts/c.ts': '',
      'broken/tsconfig.json': '{ "include": [',
    });
    const files = await discoverFiles({
      paths: [],
      project: 'tsconfig.json',
      cwd: directory,
      extensions: DEFAULT_EXTENSIONS,
      ignorePatterns: [],
    });
    expect(files.map((file) => file.slice(directory.length + 1))).toEqual(['src/a.ts']);
    const base = { paths: [], cwd: directory, extensions: DEFAULT_EXTENSIONS, ignorePatterns: [] };
    expect(await codeOf(discoverFiles({ ...base, project: 'missing/tsconfig.json' }))).toBe('TSCONFIG_NOT_FOUND');
    expect(await codeOf(discoverFiles({ ...base, project: 'broken' }))).toBe('TSCONFIG_INVALID');
    expect(await codeOf(discoverFiles(base))).toBe('NO_INPUT');
    expect(await codeOf(discoverFiles({ ...base, paths: ['nope'] }))).toBe('PATH_NOT_FOUND');
  });
});

describe('migrate()', () => {
  it('writes changed files atomically: same permission bits, no temporary file left behind', async () => {
    const directory = workspace({ 'src/read-file.ts': SELF_READING_TOOL, 'src/empty.ts': 'export {};\n' });
    chmodSync(join(directory, 'src/read-file.ts'), 0o640);
    const report = await migrate({ paths: ['src'], cwd: directory });
    expect(report.summary).toMatchObject({ scanned: 2, changed: 1, unchanged: 1, skipped: 0, errors: 0 });
    expect(readFileSync(join(directory, 'src/read-file.ts'), 'utf8')).toBe(
      SELF_READING_TOOL.replace('maxResultSizeChars = 100_000', 'maxResultSizeChars = Infinity'),
    );
    expect(statSync(join(directory, 'src/read-file.ts')).mode & 0o777).toBe(0o640);
    expect(readdirSync(join(directory, 'src')).sort()).toEqual(['empty.ts', 'read-file.ts']);
  });

  it('a dry run writes nothing and returns diffs that apply to the original', async () => {
    const directory = workspace({ 'src/read-file.ts': SELF_READING_TOOL });
    const report = await migrate({ paths: ['src'], cwd: directory, dryRun: true });
    expect(readFileSync(join(directory, 'src/read-file.ts'), 'utf8')).toBe(SELF_READING_TOOL);
    const diff = report.files[0]!.diff!;
    expect(diff.startsWith('--- a/src/read-file.ts\n+++ b/src/read-file.ts\n')).toBe(true);
    expect(applyPatch(SELF_READING_TOOL, diff)).toBe(SELF_READING_TOOL.replace('100_000', 'Infinity'));
  });

  it('leaves a finding the user disabled with an eslint-disable comment alone', async () => {
    const disabled = SELF_READING_TOOL.replace(
      'export class ReadFileTool {',
      '// eslint-disable-next-line tool-result-guard/require-unbounded-self-reading-tool -- reviewed: reads a fixed folder\nexport class ReadFileTool {',
    );
    const directory = workspace({ 'src/read-file.ts': disabled });
    const report = await migrate({ paths: ['src'], cwd: directory });
    expect(report.summary.changed).toBe(0);
    expect(readFileSync(join(directory, 'src/read-file.ts'), 'utf8')).toBe(disabled);
  });

  it('keeps CRLF line endings in what it inserts', async () => {
    const crlf = MISSING_MARK.replace(/\n/g, '\r\n');
    const directory = workspace({ 'src/adopt.ts': crlf });
    await migrate({ paths: ['src'], cwd: directory, transforms: ['mark-seen'] });
    const migrated = readFileSync(join(directory, 'src/adopt.ts'), 'utf8');
    expect(migrated).toContain('state.seenIds.add(record.id);\r\n    state.replacements.set(record.id, record.preview);');
    expect(migrated.replace(/\r\n/g, '')).not.toContain('\n');
  });

  it('rejects an unknown transform and a non-positive --default-max-chars with codes', async () => {
    const directory = workspace({ 'a.ts': '' });
    expect(await codeOf(migrate({ paths: ['a.ts'], cwd: directory, transforms: ['classify'] }))).toBe('UNKNOWN_TRANSFORM');
    expect(await codeOf(migrate({ paths: ['a.ts'], cwd: directory, defaultMaxChars: 0 }))).toBe('INVALID_OPTION');
    expect(await codeOf(migrate({ paths: ['a.ts'], cwd: directory, defaultMaxChars: Number.NaN }))).toBe('INVALID_OPTION');
  });
});

describe('imports', () => {
  const project = createEditingProject();
  const importFor = (text: string, name = 'UNBOUNDED', path = '/virtual/file.ts') =>
    ensurePackageImport(project.createSourceFile(path, text, { overwrite: true }), name);

  it('reuses a binding, extends a value import, and adds one import otherwise', () => {
    expect(importFor(`import { UNBOUNDED as NEVER } from 'tool-result-guard';\n`)).toEqual({ reference: 'NEVER', edit: undefined });
    expect(importFor(`import * as guard from 'tool-result-guard';\n`)).toEqual({ reference: 'guard.UNBOUNDED', edit: undefined });
    const existing = `import { shouldPersistForSession } from 'tool-result-guard';\n`;
    const afterSpecifier = existing.indexOf('shouldPersistForSession') + 'shouldPersistForSession'.length;
    expect(importFor(existing).edit).toEqual({ start: afterSpecifier, end: afterSpecifier, text: ', UNBOUNDED' });
    const afterTypeOnly = importFor(`import type { Unbounded } from 'tool-result-guard';\nconst x = 1;\n`);
    expect(afterTypeOnly.edit?.text).toBe(`\nimport { UNBOUNDED } from 'tool-result-guard';`);
  });

  it('puts a first import after the shebang and directive prologue, and uses require in .cjs', () => {
    const text = `#!/usr/bin/env node\n'use strict';\n/** Does things. */\nexport const x = 1;\n`;
    const { edit } = importFor(text);
    expect(text.slice(0, edit!.start)).toBe(`#!/usr/bin/env node\n'use strict';\n`);
    expect(edit!.text).toBe(`import { UNBOUNDED } from 'tool-result-guard';\n\n`);
    const commonJs = importFor(`const fs = require('node:fs');\n`, 'cloneReplacementState', '/virtual/file.cjs');
    expect(commonJs.edit?.text).toBe(`const { cloneReplacementState } = require('tool-result-guard');\n\n`);
  });
});

describe('edit selection', () => {
  it('drops no-ops and duplicates, keeps insertions at one point, defers overlaps', () => {
    const text = 'abcdef';
    const { accepted, deferred } = selectCompatibleEdits(text, [
      { start: 0, end: 1, text: 'a' }, // no-op
      { start: 2, end: 2, text: 'X' },
      { start: 2, end: 2, text: 'X' }, // duplicate
      { start: 2, end: 2, text: 'Y' }, // another insertion at the same point
      { start: 3, end: 5, text: 'Z' },
      { start: 4, end: 6, text: 'W' }, // overlaps the previous one
    ]);
    expect(accepted).toEqual([
      { start: 2, end: 2, text: 'X' },
      { start: 2, end: 2, text: 'Y' },
      { start: 3, end: 5, text: 'Z' },
    ]);
    expect(deferred).toBe(1);
  });

  it('unifiedDiff is empty of hunks for equal texts and names both sides git-style', () => {
    expect(unifiedDiff('a.ts', 'x\n', 'x\n')).toBe('--- a/a.ts\n+++ b/a.ts\n');
  });
});

describe('progress on a terminal', () => {
  it('redraws one line on stderr while files are migrated, then clears it', async () => {
    const directory = workspace({ 'a.ts': 'export {};\n', 'b.ts': 'export {};\n', 'c.ts': 'export {};\n' });
    let stderr = '';
    let stdout = '';
    const terminal = { isTTY: true, columns: 60, write: (chunk: string) => ((stderr += chunk), true) };
    const pipe = { isTTY: false, write: (chunk: string) => ((stdout += chunk), true) };
    const status = await runCli(['migrate', '.'], {
      stdout: pipe as unknown as NodeJS.WriteStream,
      stderr: terminal as unknown as NodeJS.WriteStream,
      cwd: directory,
    });
    expect(status).toBe(0);
    expect(stderr).toMatch(/\r\[0\/3\] a\.ts/);
    expect(stderr.endsWith(`\r${' '.repeat(59)}\r`)).toBe(true);
    expect(stdout).toMatch(/3 files scanned, 0 changed, 3 unchanged/);
  });
});
