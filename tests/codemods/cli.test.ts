// Spawns the built bin, as a user or a CI job would, for each flag and exit status.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { beforeAll, describe, expect, it } from 'vitest';

import { ensureFreshBuild } from '../e2e/build.js';
import { SELF_READING_TOOL } from './sources.js';
import { workspace } from './workspace.js';

const repositoryRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const bin = join(repositoryRoot, 'dist', 'cli', 'bin.js');
const packageVersion = (JSON.parse(readFileSync(join(repositoryRoot, 'package.json'), 'utf8')) as { version: string }).version;

beforeAll(() => {
  // `npm test` builds first; a lone `vitest run tests/codemods` builds here.
  ensureFreshBuild();
});

const CLASSIFIED_TOOL = `export class BashTool {
  readonly name = 'bash';
  readonly maxResultSizeChars = 30_000;

  async call(params: { command: string }) {
    return params.command.toUpperCase();
  }
}
`;

const UNPARSEABLE = `export class Broken {
  readonly name = 'broken'
  call( {
`;

function run(args: string[], cwd: string) {
  const result = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * Makes `directory` refuse new files for whoever runs the tests, wherever the
 * clone lives. Permission bits do that for an ordinary user; root ignores
 * them, so as root the folder is made immutable (`chattr +i`, which stops
 * root too). Running the bin as another user instead would depend on that
 * user reaching the clone (a clone inside a 0700 folder is out of its reach).
 * Returns the function that undoes it.
 */
function refuseNewFiles(directory: string): () => void {
  if (process.getuid?.() !== 0) {
    chmodSync(directory, 0o555);
    return () => chmodSync(directory, 0o755);
  }
  const immutable = spawnSync('chattr', ['+i', directory], { encoding: 'utf8' });
  if (immutable.status !== 0) {
    throw new Error(
      `As root, this test makes ${directory} immutable with chattr, which failed (${immutable.error?.message ?? immutable.stderr}). ` +
        'Install e2fsprogs, or run the tests as an ordinary user.',
    );
  }
  return () => {
    spawnSync('chattr', ['-i', directory]);
  };
}

const read = (directory: string, path: string): string => readFileSync(join(directory, path), 'utf8');

describe('tool-result-guard CLI', () => {
  it('--help prints usage with every transform and exits 0', () => {
    const result = run(['--help'], repositoryRoot);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('Usage: tool-result-guard migrate');
    for (const name of ['classify-tools', 'sentinel-first', 'mark-seen', 'clone-on-fork', 'declare-state-scope']) {
      expect(result.stdout).toContain(name);
    }
  });

  it('runs straight from a shell: the built bin is executable and starts with a node shebang', () => {
    const result = spawnSync(bin, ['--version'], { encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe(packageVersion);
  });

  it("a reader that stops early (| head) ends the output, not the run: no EPIPE crash, the run's own exit status", () => {
    const many = Object.fromEntries(
      Array.from({ length: 40 }, (_, index) => [`src/read-${index}.ts`, SELF_READING_TOOL.replaceAll('read_file', `read_${index}`)]),
    );
    const directory = workspace(many);
    // `head -n 1` reads one line of the diffs and closes the pipe; PIPESTATUS keeps the bin's own status.
    const result = spawnSync('bash', ['-c', `"${process.execPath}" "${bin}" migrate src --dry-run | head -n 1; exit "\${PIPESTATUS[0]}"`], {
      cwd: directory,
      encoding: 'utf8',
    });
    expect(result.stdout.split('\n').filter(Boolean)).toHaveLength(1);
    expect(result.stderr).not.toMatch(/EPIPE|Unhandled|Error/);
    // --dry-run with changes found: 2, as when all of it is read.
    expect(result.status).toBe(2);
  });

  it('--version prints the package version', () => {
    const result = run(['--version'], repositoryRoot);
    expect(result.status).toBe(0);
    expect(result.stdout.trim()).toBe(packageVersion);
  });

  it('exits 1 with a clear message on an unknown option, command or transform', () => {
    const directory = workspace({ 'src/a.ts': CLASSIFIED_TOOL });
    const unknownOption = run(['migrate', 'src', '--frobnicate'], directory);
    expect(unknownOption.status).toBe(1);
    expect(unknownOption.stderr).toMatch(/--frobnicate/);
    const unknownCommand = run(['mgirate', 'src'], directory);
    expect(unknownCommand.status).toBe(1);
    expect(unknownCommand.stderr).toMatch(/Unknown command "mgirate"/);
    const unknownTransform = run(['migrate', 'src', '--transform', 'nope'], directory);
    expect(unknownTransform.status).toBe(1);
    expect(unknownTransform.stderr).toMatch(/Unknown transform "nope".*classify-tools/);
    const noInput = run(['migrate'], directory);
    expect(noInput.status).toBe(1);
    expect(noInput.stderr).toMatch(/Nothing to migrate/);
    const missingPath = run(['migrate', 'does-not-exist'], directory);
    expect(missingPath.status).toBe(1);
    expect(missingPath.stderr).toMatch(/No such file or folder: does-not-exist/);
    const badMax = run(['migrate', 'src', '--default-max-chars', 'lots'], directory);
    expect(badMax.status).toBe(1);
    expect(badMax.stderr).toMatch(/--default-max-chars/);
  });

  it('migrate writes the changes, prints a summary, exits 0; a second run changes nothing', () => {
    const directory = workspace({ 'src/read-file.ts': SELF_READING_TOOL, 'src/bash.ts': CLASSIFIED_TOOL });
    const first = run(['migrate', 'src'], directory);
    expect(first.status).toBe(0);
    expect(read(directory, 'src/read-file.ts')).toContain('readonly maxResultSizeChars = Infinity;');
    expect(read(directory, 'src/bash.ts')).toBe(CLASSIFIED_TOOL);
    expect(first.stdout).toMatch(/2 files scanned, 1 changed, 1 unchanged, 0 skipped, 0 errors \(\d+\.\d\d s\)/);
    expect(first.stdout).toMatch(
      /Edits per transform: classify-tools 1, sentinel-first 0, mark-seen 0, clone-on-fork 0, declare-state-scope 0/,
    );
    const second = run(['migrate', 'src'], directory);
    expect(second.status).toBe(0);
    expect(second.stdout).toMatch(/2 files scanned, 0 changed, 2 unchanged/);
  });

  it('--dry-run prints a unified diff, writes nothing and exits 2; exits 0 when nothing would change', () => {
    const directory = workspace({ 'src/read-file.ts': SELF_READING_TOOL });
    const result = run(['migrate', 'src', '--dry-run'], directory);
    expect(result.status).toBe(2);
    expect(result.stdout).toContain('--- a/src/read-file.ts');
    expect(result.stdout).toContain('+++ b/src/read-file.ts');
    expect(result.stdout).toContain('-  readonly maxResultSizeChars = 100_000;');
    expect(result.stdout).toContain('+  readonly maxResultSizeChars = Infinity;');
    expect(result.stdout).toMatch(/Dry run: 1 file scanned, 1 would change/);
    expect(read(directory, 'src/read-file.ts')).toBe(SELF_READING_TOOL);
    // The jscodeshift spelling works too.
    expect(run(['migrate', 'src', '--dry'], directory).status).toBe(2);
    const clean = workspace({ 'src/bash.ts': CLASSIFIED_TOOL });
    expect(run(['migrate', 'src', '--dry-run'], clean).status).toBe(0);
  });

  it('the dry-run diff applies with `git apply` and gives what a real run writes', () => {
    const directory = workspace({ 'src/read-file.ts': SELF_READING_TOOL });
    const patch = run(['migrate', 'src', '--dry-run'], directory).stdout.split(/\nDry run:/)[0]!;
    writeFileSync(join(directory, 'changes.patch'), `${patch}\n`);
    execFileSync('git', ['apply', '--unsafe-paths', 'changes.patch'], { cwd: directory });
    const applied = read(directory, 'src/read-file.ts');
    writeFileSync(join(directory, 'src/read-file.ts'), SELF_READING_TOOL);
    run(['migrate', 'src'], directory);
    expect(applied).toBe(read(directory, 'src/read-file.ts'));
  });

  it('--list prints only the changed paths', () => {
    const directory = workspace({ 'src/read-file.ts': SELF_READING_TOOL, 'src/bash.ts': CLASSIFIED_TOOL });
    const result = run(['migrate', 'src', '--dry-run', '--list'], directory);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('src/read-file.ts\n');
  });

  it('--json prints the machine report', () => {
    const directory = workspace({ 'src/read-file.ts': SELF_READING_TOOL, 'src/broken.ts': UNPARSEABLE });
    const result = run(['migrate', 'src', '--json'], directory);
    expect(result.status).toBe(0);
    const report = JSON.parse(result.stdout) as {
      dryRun: boolean;
      files: { path: string; status: string; edits: Record<string, number>; reason?: string }[];
      summary: { scanned: number; changed: number; skipped: number; errors: number; editsByTransform: Record<string, number> };
    };
    expect(report.dryRun).toBe(false);
    expect(report.summary).toMatchObject({ scanned: 2, changed: 1, skipped: 1, errors: 0 });
    expect(report.summary.editsByTransform['classify-tools']).toBe(1);
    expect(report.files.find((file) => file.path === 'src/read-file.ts')).toMatchObject({ status: 'ok', edits: { 'classify-tools': 1 } });
    expect(report.files.find((file) => file.path === 'src/broken.ts')?.status).toBe('skipped');
  });

  it('skips and reports a file that does not parse, leaving it untouched; --fail-on-error makes that exit 1', () => {
    const directory = workspace({ 'src/broken.ts': UNPARSEABLE, 'src/read-file.ts': SELF_READING_TOOL });
    const result = run(['migrate', 'src'], directory);
    expect(result.status).toBe(0);
    expect(result.stderr).toMatch(/skipped src\/broken\.ts: does not parse \(\d+:\d+: /);
    expect(read(directory, 'src/broken.ts')).toBe(UNPARSEABLE);
    expect(read(directory, 'src/read-file.ts')).toContain('Infinity');
    const strict = run(['migrate', 'src', '--fail-on-error'], workspace({ 'src/broken.ts': UNPARSEABLE }));
    expect(strict.status).toBe(1);
  });

  it('exits 1 when a file cannot be written, and leaves it as it was', () => {
    const directory = workspace({ 'locked/read-file.ts': SELF_READING_TOOL });
    const undo = refuseNewFiles(join(directory, 'locked'));
    try {
      const result = run(['migrate', 'locked', '-t', 'classify-tools'], directory);
      expect(result.status).toBe(1);
      expect(result.stderr).toMatch(/error locked\/read-file\.ts/);
      expect(read(directory, 'locked/read-file.ts')).toBe(SELF_READING_TOOL);
    } finally {
      undo();
    }
  });

  it('--silent prints nothing and still sets the exit status', () => {
    const directory = workspace({ 'src/read-file.ts': SELF_READING_TOOL });
    const result = run(['migrate', 'src', '--dry-run', '--silent'], directory);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('');
  });

  it('-p migrates the files of a tsconfig; --extensions and --ignore-pattern filter folders and globs', () => {
    const directory = workspace({
      'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true }, include: ['src'] }),
      'src/read-file.ts': SELF_READING_TOOL,
      'other/read-file.ts': SELF_READING_TOOL,
      'src/generated/read-file.ts': SELF_READING_TOOL,
      'src/legacy.mjs': 'export const x = 1;\n',
    });
    const project = run(['migrate', '-p', 'tsconfig.json', '--dry-run', '--list', '--ignore-pattern', 'src/generated/**'], directory);
    expect(project.status).toBe(2);
    expect(project.stdout).toBe('src/read-file.ts\n');
    const onlyMjs = run(['migrate', 'src', 'other', '--extensions', 'mjs', '--json'], directory);
    expect((JSON.parse(onlyMjs.stdout) as { files: { path: string }[] }).files.map((file) => file.path)).toEqual(['src/legacy.mjs']);
    const glob = run(['migrate', '**/read-file.ts', '--dry-run', '--list', '--ignore-pattern', '**/generated/**'], directory);
    expect(glob.stdout.split('\n').filter(Boolean).sort()).toEqual(['other/read-file.ts', 'src/read-file.ts']);
    const missingProject = run(['migrate', '-p', 'nope/tsconfig.json'], directory);
    expect(missingProject.status).toBe(1);
    expect(missingProject.stderr).toMatch(/No tsconfig at/);
  });

  it("--settings passes settings['tool-result-guard'] to the rules (a custom tool factory); a malformed value exits 1", () => {
    const customFactory = `import { readFile } from 'node:fs/promises';
declare function makeTool<T>(definition: T): T;
export const viewer = makeTool({ name: 'viewer', async call(input: { path: string }) { return readFile(input.path, 'utf8'); } });
`;
    const directory = workspace({ 'src/viewer.ts': customFactory });
    expect(run(['migrate', 'src', '--dry-run'], directory).status).toBe(0);
    const withSettings = run(['migrate', 'src', '--dry-run', '--json', '--settings', '{"toolFactories":["makeTool"]}'], directory);
    expect(withSettings.status).toBe(2);
    const report = JSON.parse(withSettings.stdout) as { files: { diff?: string }[] };
    expect(report.files[0]?.diff).toContain(
      "+export const viewer = makeTool({ name: 'viewer', async call(input: { path: string }) { return readFile(input.path, 'utf8'); }, maxResultSizeChars: Infinity });",
    );
    const malformed = run(['migrate', 'src', '--settings', '[1,2]'], directory);
    expect(malformed.status).toBe(1);
    expect(malformed.stderr).toMatch(/--settings must be a JSON object/);
    const wrongShape = run(['migrate', 'src', '--settings', '{"toolFactories":3}'], directory);
    expect(wrongShape.status).toBe(1);
    expect(wrongShape.stderr).toMatch(/settings\['tool-result-guard'\]\.toolFactories must be/);
  });

  it('--cpus migrates in worker threads with the same result as one thread; a bad value exits 1', () => {
    const directory = workspace({
      'src/read-file.ts': SELF_READING_TOOL,
      'src/bash.ts': CLASSIFIED_TOOL,
      'src/broken.ts': UNPARSEABLE,
      'src/other-read.ts': SELF_READING_TOOL.replace('ReadFileTool', 'OtherReadTool'),
    });
    const withoutTiming = (stdout: string) => {
      const report = JSON.parse(stdout) as { summary: { elapsedMs?: number } };
      delete report.summary.elapsedMs;
      return report;
    };
    const oneThread = run(['migrate', 'src', '--dry-run', '--json', '--cpus', '1'], directory);
    const twoWorkers = run(['migrate', 'src', '--dry-run', '--json', '--cpus', '2'], directory);
    expect(twoWorkers.status).toBe(2);
    expect(withoutTiming(twoWorkers.stdout)).toEqual(withoutTiming(oneThread.stdout));
    const written = run(['migrate', 'src', '--cpus', '2'], directory);
    expect(written.status).toBe(0);
    expect(read(directory, 'src/other-read.ts')).toContain('maxResultSizeChars = Infinity');
    const bad = run(['migrate', 'src', '--cpus', '0'], directory);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/--cpus must be a whole number/);
  });

  it('--transform runs only the named transforms; --default-max-chars sets the finite default', () => {
    // A tool by its base class, with no classification yet.
    const unclassified = CLASSIFIED_TOOL.replace('  readonly maxResultSizeChars = 30_000;\n', '').replace(
      'class BashTool {',
      'class BashTool extends BaseTool {',
    );
    const directory = workspace({ 'src/bash.ts': `declare class BaseTool {}\n${unclassified}` });
    const other = run(['migrate', 'src', '--transform', 'mark-seen', '--dry-run'], directory);
    expect(other.status).toBe(0);
    const classify = run(['migrate', 'src', '-t', 'classify-tools', '--default-max-chars', '20000'], directory);
    expect(classify.status).toBe(0);
    expect(read(directory, 'src/bash.ts')).toMatch(/maxResultSizeChars = 20_000/);
  });
});
