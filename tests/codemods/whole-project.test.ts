// The migration on whole codebases: a real package's sources from npm (the
// MCP filesystem server) and the bundled example agent with its tsconfig.
// It must finish without errors, be idempotent, keep every file parseable,
// and add no TypeScript errors.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, describe, expect, it } from 'vitest';

import { ensureCorpus } from '../../scripts/corpus.mjs';
import { discoverFiles, DEFAULT_EXTENSIONS, migrate, transforms, type MigrationReport } from '../../src/codemods/index.js';
import { strictFindings } from './fixture-helpers.js';

const repositoryRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const temporaryDirectories: string[] = [];
afterAll(() => {
  for (const directory of temporaryDirectories) rmSync(directory, { recursive: true, force: true });
});

function copyToTemporary(source: string): string {
  const directory = mkdtempSync(join(tmpdir(), 'trg-project-'));
  temporaryDirectories.push(directory);
  cpSync(source, directory, { recursive: true });
  return directory;
}

async function snapshot(directory: string): Promise<Map<string, string>> {
  const files = await discoverFiles({ paths: ['.'], cwd: directory, extensions: DEFAULT_EXTENSIONS, ignorePatterns: [] });
  return new Map(files.map((file) => [file, readFileSync(file, 'utf8')]));
}

/**
 * Agreement on a whole codebase: after the migration, the transforms' rules
 * under configs.strict report nothing but the sites the report lists for review.
 */
function expectRulesAgree(files: Map<string, string>, report: MigrationReport, directory: string): void {
  const unresolvedCount = report.files.reduce((total, file) => total + file.unresolved.length, 0);
  const migratedPaths = new Set(report.files.map((file) => join(directory, file.path)));
  let findingCount = 0;
  for (const [file, text] of files) {
    if (!migratedPaths.has(file)) continue;
    for (const transform of transforms) findingCount += strictFindings(transform.ruleName, text, file).length;
  }
  expect(migratedPaths.size).toBeGreaterThan(0);
  expect({ directory, findingCount }).toEqual({ directory, findingCount: unresolvedCount });
}

/** `tsc --noEmit` diagnostics as "code message" lines, without positions (edits move lines). */
function typeScriptErrors(projectDirectory: string): string[] {
  const result = spawnSync(
    process.execPath,
    [join(repositoryRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json', '--noEmit', '--pretty', 'false'],
    { cwd: projectDirectory, encoding: 'utf8' },
  );
  return result.stdout
    .split('\n')
    .filter((line) => /error TS\d+/.test(line))
    .map((line) => line.replace(/^(.*?)\(\d+,\d+\)/, '$1'))
    .sort();
}

describe('whole-project migration', () => {
  it('migrates a copy of @modelcontextprotocol/server-filesystem: no errors, idempotent, every file still parses', async () => {
    const packageDirectory = ensureCorpus(['@modelcontextprotocol/server-filesystem'])[0]!.directory;
    const directory = copyToTemporary(packageDirectory);
    const before = await snapshot(directory);

    const first = await migrate({ paths: ['dist'], cwd: directory });
    expect(first.summary.errors).toBe(0);
    expect(first.summary.skipped).toBe(0);
    expect(first.summary.scanned).toBe(before.size);
    // Its read tools read paths the model chooses: they get classified.
    expect(first.summary.editsByTransform['classify-tools']).toBeGreaterThan(0);

    const afterFirst = await snapshot(directory);
    for (const [file, text] of afterFirst) {
      if (text === before.get(file)) continue;
      execFileSync(process.execPath, ['--check', file]);
    }

    const second = await migrate({ paths: ['dist'], cwd: directory });
    expect(second.summary.changed).toBe(0);
    expect(second.summary.errors).toBe(0);
    expect(await snapshot(directory)).toEqual(afterFirst);
    expectRulesAgree(afterFirst, second, directory);
  });

  it('migrates a copy of examples/agent-harness with its tsconfig: idempotent, no new tsc errors', async () => {
    const directory = copyToTemporary(join(repositoryRoot, 'examples', 'agent-harness'));
    // The copy resolves @types/node and typescript from this repository.
    symlinkSync(join(repositoryRoot, 'node_modules'), join(directory, 'node_modules'), 'dir');
    const errorsBefore = typeScriptErrors(directory);

    const first = await migrate({ project: 'tsconfig.json', cwd: directory });
    expect(first.summary.errors).toBe(0);
    expect(first.summary.changed).toBeGreaterThan(0);
    for (const name of ['classify-tools', 'sentinel-first', 'mark-seen', 'clone-on-fork']) {
      expect(first.summary.editsByTransform[name], name).toBeGreaterThan(0);
    }

    const migrated = await snapshot(directory);
    const second = await migrate({ project: 'tsconfig.json', cwd: directory });
    expect(second.summary.changed).toBe(0);
    expect(await snapshot(directory)).toEqual(migrated);
    expectRulesAgree(migrated, second, directory);

    const errorsAfter = typeScriptErrors(directory);
    const newErrors = [...errorsAfter];
    for (const error of errorsBefore) {
      const index = newErrors.indexOf(error);
      if (index !== -1) newErrors.splice(index, 1);
    }
    expect(newErrors).toEqual([]);
  });
});
