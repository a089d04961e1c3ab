/**
 * The command line: `tool-result-guard <command>`, the dispatch to `migrate`
 * (the codemods library, `codemods/`) and `tools` (the inventory library,
 * `inventory/`, through `cli/tools.ts`). The two libraries do not know about
 * each other or about the command line; argument parsing, the options they
 * share (`cli/options.ts`) and file discovery (`cli/file-discovery.ts`) live
 * here.
 *
 * `tool-result-guard migrate`: the codemods from the command line. Flags
 * follow jscodeshift's where they overlap (`--dry`, `--extensions`,
 * `--ignore-pattern`, `--fail-on-error`, `--silent`), because that is what
 * people type from habit.
 */
import { createRequire } from 'node:module';
import { relative } from 'node:path';
import { parseArgs } from 'node:util';

import { SHARED_OPTIONS, parseExtensionList } from './options.js';
import { DEFAULT_EXTENSIONS, DEFAULT_MAX_CHARS } from '../codemods/defaults.js';
import { CodemodUsageError } from '../util/usage-error.js';
// Types only: the runner (TypeScript, ESLint, ts-morph) loads when a migration starts.
import type { MigrationReport } from '../codemods/runner.js';

/** Exit statuses a CI can branch on. */
export const EXIT_OK = 0;
export const EXIT_ERRORS = 1;
export const EXIT_CHANGES_FOUND = 2;

const packageJson = createRequire(import.meta.url)('../../package.json') as { version: string };

async function helpText(): Promise<string> {
  const { transforms } = await import('../codemods/transforms/index.js');
  return `Usage: tool-result-guard migrate [paths/globs...] [options]

Migrates an agent codebase to what the tool-result-guard ESLint rules (strict
config) accept. The rules find the problems; the transforms fix them with
minimal text edits, so a second run changes nothing.

Transforms (all by default, in this order):
${transforms.map((transform) => `  ${transform.name.padEnd(22)}${transform.description}`).join('\n')}

Options:
  -p, --project <tsconfig>     migrate the files of a tsconfig (with or instead of paths)
  -t, --transform <name>       run only this transform (repeatable)
  -d, --dry-run, --dry         write nothing; print a unified diff of what would change
  -l, --list                   print only the paths of changed files
      --json                   print a machine-readable report (JSON) on stdout
      --extensions <list>      file extensions to migrate in folders and globs
                               (default: ${DEFAULT_EXTENSIONS.join(',')})
      --ignore-pattern <glob>  skip matching files (repeatable); node_modules is always skipped
      --default-max-chars <n>  maxResultSizeChars for tools that read nothing the model
                               chose (default: ${DEFAULT_MAX_CHARS})
      --settings <json>        settings['tool-result-guard'] for the rules, as JSON
      --cpus <n>               worker threads (default: one per spare core on large projects)
      --fail-on-error          also exit 1 when a file was skipped because it does not parse,
                               or a self-reading tool could not be fixed
      --fail-on-review         also exit 1 when any site is left for review (a self-reading
                               tool that could not be fixed included)
  -s, --silent                 print nothing but usage errors
  -h, --help                   show this help
  -v, --version                show the version

Exit status: 0 done (or nothing to do), 1 errors, 2 --dry-run found changes.

Also: tool-result-guard tools [paths...]   list every recognised tool and what the
                                          rules conclude about it (see tools --help)
`;
}

function parseCommandLine(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        ...SHARED_OPTIONS,
        transform: { type: 'string', short: 't', multiple: true },
        'dry-run': { type: 'boolean', short: 'd' },
        dry: { type: 'boolean' },
        list: { type: 'boolean', short: 'l' },
        'default-max-chars': { type: 'string' },
        cpus: { type: 'string' },
        'fail-on-error': { type: 'boolean' },
        'fail-on-review': { type: 'boolean' },
        silent: { type: 'boolean', short: 's' },
        version: { type: 'boolean', short: 'v' },
      },
    });
  } catch (error) {
    throw new CodemodUsageError('UNKNOWN_OPTION', `${(error as Error).message}. Run \`tool-result-guard --help\` for the options.`);
  }
}

export function parseSettings(json: string | undefined): Record<string, unknown> | undefined {
  if (json === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(json);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      const record = parsed as Record<string, unknown>;
      // Accept both the bare settings and the `{ "tool-result-guard": … }` wrapper of an ESLint config.
      return 'tool-result-guard' in record ? record : { 'tool-result-guard': record };
    }
  } catch {
    // Reported below with what to do.
  }
  throw new CodemodUsageError('INVALID_OPTION', `--settings must be a JSON object, e.g. '{"toolFactories":["makeTool"]}' (got ${json}).`);
}

function parseDefaultMaxChars(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const normalized = value.replaceAll('_', '');
  if (!/^\d+$/.test(normalized)) {
    throw new CodemodUsageError('INVALID_OPTION', `--default-max-chars must be a positive whole number (got "${value}").`);
  }
  return Number(normalized);
}

function parseCpus(value: string | undefined): number | 'auto' {
  if (value === undefined) return 'auto';
  if (!/^\d+$/.test(value) || Number(value) < 1) {
    throw new CodemodUsageError('INVALID_OPTION', `--cpus must be a whole number of worker threads, 1 or more (got "${value}").`);
  }
  return Number(value);
}

/** A one-line progress display on a terminal, redrawn at most every 100 ms. */
function createProgressLine(stream: NodeJS.WriteStream, cwd: string) {
  let lastDraw = 0;
  let drawn = false;
  return {
    update(done: number, total: number, filePath: string): void {
      const now = Date.now();
      if (total < 2 || (now - lastDraw < 100 && done < total)) return;
      lastDraw = now;
      const label = done < total ? ` ${relative(cwd, filePath)}` : '';
      const line = `[${done}/${total}]${label}`;
      const width = (stream.columns || 80) - 1;
      stream.write(`\r${line.slice(0, width).padEnd(width)}`);
      drawn = true;
    },
    clear(): void {
      if (drawn) stream.write(`\r${' '.repeat((stream.columns || 80) - 1)}\r`);
    },
  };
}

/** `1 file`, `2 files`. */
function counted(count: number, noun: string, plural = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : plural}`;
}

function formatSummary(report: MigrationReport): string {
  const { summary } = report;
  const lines = [
    `${report.dryRun ? 'Dry run: ' : ''}${counted(summary.scanned, 'file')} scanned, ` +
      `${summary.changed} ${report.dryRun ? 'would change' : 'changed'}, ${summary.unchanged} unchanged, ` +
      `${summary.skipped} skipped, ${counted(summary.errors, 'error')} (${(summary.elapsedMs / 1000).toFixed(2)} s)`,
    `Edits per transform: ${Object.entries(summary.editsByTransform)
      .map(([name, count]) => `${name} ${count}`)
      .join(', ')}`,
  ];
  // The review sites are listed above, not marked in the code: only what a transform did edit carries a TODO.
  if (summary.unfixedSelfReadingTools > 0) {
    lines.push(
      `${counted(summary.unfixedSelfReadingTools, 'self-reading tool')} left unfixed: ` +
        `circular persistence stays possible there (listed first above).`,
    );
  }
  if (summary.unresolved > 0) lines.push(`${counted(summary.unresolved, 'site')} left for review, listed above.`);
  return lines.join('\n');
}

function formatFileNotes(report: MigrationReport): string[] {
  const notes: string[] = [];
  const selfReading: string[] = [];
  for (const file of report.files) {
    if (file.status === 'skipped') notes.push(`skipped ${file.path}: ${file.reason ?? 'not parseable'}`);
    if (file.status === 'error') notes.push(`error ${file.path}: ${file.reason ?? 'unknown error'}`);
    for (const site of file.unresolved) {
      const note = `review ${file.path}:${site.line}:${site.column} [${site.transform}] ${site.reason}`;
      if (site.selfReadingTool !== undefined) selfReading.push(note);
      else notes.push(note);
    }
  }
  // Self-reading tools first, apart: they are the sites where the bug this migration is for remains.
  if (selfReading.length === 0) return notes;
  return [
    `Self-reading tools that could not be fixed (declare maxResultSizeChars: Infinity by hand):`,
    ...selfReading,
    ...(notes.length > 0 ? ['Other sites left for review:', ...notes] : []),
  ];
}

/** Runs the CLI; returns the exit status instead of exiting, so tests and wrappers can call it. */
export async function runCli(
  argv: readonly string[],
  io: { stdout: NodeJS.WriteStream; stderr: NodeJS.WriteStream; cwd: string } = {
    stdout: process.stdout,
    stderr: process.stderr,
    cwd: process.cwd(),
  },
): Promise<number> {
  try {
    if (argv[0] === 'tools') {
      const { runToolsCommand } = await import('./tools.js');
      return await runToolsCommand(argv.slice(1), io, parseSettings);
    }
    const { values, positionals } = parseCommandLine(argv);
    if (values.help) {
      io.stdout.write(await helpText());
      return EXIT_OK;
    }
    if (values.version) {
      io.stdout.write(`${packageJson.version}\n`);
      return EXIT_OK;
    }
    const [command, ...paths] = positionals;
    if (command !== 'migrate') {
      throw new CodemodUsageError(
        'UNKNOWN_OPTION',
        command === undefined
          ? 'Missing command: run `tool-result-guard migrate <paths…>` (see --help).'
          : `Unknown command "${command}": the commands are \`migrate\` and \`tools\` (see --help).`,
      );
    }
    const silent = values.silent ?? false;
    const json = values.json ?? false;
    const list = values.list ?? false;
    const dryRun = (values['dry-run'] ?? false) || (values.dry ?? false);
    const progress = io.stderr.isTTY && !silent && !json ? createProgressLine(io.stderr, io.cwd) : undefined;

    const settings = parseSettings(values.settings);
    const defaultMaxChars = parseDefaultMaxChars(values['default-max-chars']);
    const concurrency = parseCpus(values.cpus);
    const { migrate } = await import('../codemods/runner.js');
    const report = await migrate({
      paths,
      cwd: io.cwd,
      dryRun,
      ...(values.project !== undefined ? { project: values.project } : {}),
      ...(values.transform ? { transforms: values.transform } : {}),
      ...(values.extensions !== undefined ? { extensions: parseExtensionList(values.extensions) } : {}),
      ...(values['ignore-pattern'] ? { ignorePatterns: values['ignore-pattern'] } : {}),
      ...(defaultMaxChars !== undefined ? { defaultMaxChars } : {}),
      ...(settings ? { settings } : {}),
      concurrency,
      ...(progress ? { onProgress: progress.update } : {}),
    });
    progress?.clear();

    if (silent) {
      // Nothing: the exit status says it all.
    } else if (json) {
      io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    } else if (list) {
      for (const file of report.files) if (file.status === 'ok') io.stdout.write(`${file.path}\n`);
    } else {
      if (dryRun) for (const file of report.files) if (file.diff) io.stdout.write(file.diff);
      for (const note of formatFileNotes(report)) io.stderr.write(`${note}\n`);
      io.stdout.write(`${formatSummary(report)}\n`);
    }

    const { errors, skipped, changed, scanned, unresolved, unfixedSelfReadingTools } = report.summary;
    if (scanned === 0 && !silent) {
      io.stderr.write(
        `tool-result-guard: warning: no files were scanned. Check the paths (relative to ${io.cwd}), --project, ` +
          `--extensions (${values.extensions ?? DEFAULT_EXTENSIONS.join(',')}) and --ignore-pattern; node_modules is always skipped.\n`,
      );
    }
    const failOnError = values['fail-on-error'] ?? false;
    const failOnReview = values['fail-on-review'] ?? false;
    if (errors > 0 || (failOnError && skipped > 0)) return EXIT_ERRORS;
    // A self-reading tool left unfixed is the bug itself, still there: both flags fail on it.
    if ((failOnError || failOnReview) && unfixedSelfReadingTools > 0) return EXIT_ERRORS;
    if (failOnReview && unresolved > 0) return EXIT_ERRORS;
    if (dryRun && changed > 0) return EXIT_CHANGES_FOUND;
    return EXIT_OK;
  } catch (error) {
    if (error instanceof CodemodUsageError) {
      io.stderr.write(`tool-result-guard: ${error.message}\n`);
      return EXIT_ERRORS;
    }
    io.stderr.write(`tool-result-guard: unexpected failure, nothing was half-written: ${(error as Error).stack ?? String(error)}\n`);
    return EXIT_ERRORS;
  }
}
