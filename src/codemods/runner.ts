import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

import { InvalidRecognitionSettingsError, SETTINGS_KEY, normalizeRecognitionSettings } from '../recognition/settings.js';
import { writeFileAtomically } from './atomic-write.js';
import { CodemodUsageError } from '../util/usage-error.js';
import { DEFAULT_EXTENSIONS, DEFAULT_MAX_CHARS } from './defaults.js';
import { discoverFiles } from '../cli/file-discovery.js';
import { createEditingProject, migrateText, type FileStatus, type TextMigrationResult, type UnresolvedFinding } from './migrate-file.js';
import { createRuleFindingsCollector } from './rule-findings.js';
import type { Transform } from './transform.js';
import { selectTransforms } from './transforms/index.js';
import { unifiedDiff } from './unified-diff.js';
import { reviveError, type WorkerRequest, type WorkerResponse, type WorkerSetup } from './worker-protocol.js';

export { DEFAULT_MAX_CHARS } from './defaults.js';

export interface MigrateOptions {
  /** Files, folders and globs, relative to `cwd`. */
  paths?: readonly string[];
  /** A tsconfig whose files are migrated (with or instead of `paths`). */
  project?: string;
  cwd?: string;
  /** Transform names, in any order; they always run in the order of `transforms`. Default: all. */
  transforms?: readonly string[];
  /** Compute everything, write nothing; each changed file's report carries its diff. */
  dryRun?: boolean;
  extensions?: readonly string[];
  ignorePatterns?: readonly string[];
  defaultMaxChars?: number;
  /** `settings['tool-result-guard']` for the rules, as in the user's ESLint config. */
  settings?: Readonly<Record<string, unknown>>;
  /** Called as files are done, for a progress display. */
  onProgress?: (done: number, total: number, filePath: string) => void;
  /**
   * Worker threads to migrate with (jscodeshift's `--cpus`). Each loads its
   * own ESLint and TypeScript (about a second), so it pays off on large
   * projects only. `'auto'`: one per spare core, one per 100 files at most.
   * Default 1: everything in this thread.
   */
  concurrency?: number | 'auto';
}

export interface FileReport {
  /** Relative to `cwd`. */
  path: string;
  status: FileStatus;
  edits: Record<string, number>;
  unresolved: UnresolvedFinding[];
  reason?: string;
  /** The unified diff of a changed file, in a dry run. */
  diff?: string;
}

export interface MigrationSummary {
  scanned: number;
  changed: number;
  unchanged: number;
  skipped: number;
  errors: number;
  editsByTransform: Record<string, number>;
  unresolved: number;
  /** Of the sites left for review, the self-reading tools still without `maxResultSizeChars: Infinity`. */
  unfixedSelfReadingTools: number;
  elapsedMs: number;
}

export interface MigrationReport {
  dryRun: boolean;
  transforms: string[];
  files: FileReport[];
  summary: MigrationSummary;
}

/** Bad settings would fail every file the same way; say it once, before any file is read. */
function validateSettings(settings: Readonly<Record<string, unknown>> | undefined): void {
  try {
    normalizeRecognitionSettings(settings?.[SETTINGS_KEY]);
  } catch (error) {
    if (error instanceof InvalidRecognitionSettingsError) {
      throw new CodemodUsageError('INVALID_OPTION', error.message.replace("Fix the ESLint config's settings", 'Fix --settings'));
    }
    throw error;
  }
}

/** Below this many files per worker, a worker's start-up (its own ESLint and TypeScript) costs more than it saves. */
const FILES_PER_AUTO_WORKER = 100;

function validateConcurrency(value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new CodemodUsageError('INVALID_OPTION', `--cpus must be a whole number of worker threads, 1 or more (got ${value}).`);
  }
  return value;
}

/** Migrates one text: in this thread, or in a worker. A usage error (a missing rule) is rethrown as such. */
interface MigrationEngine {
  migrate(text: string, filePath: string): Promise<TextMigrationResult>;
  close(): Promise<void>;
}

async function createInThreadEngine(
  transforms: readonly Transform[],
  settings: Readonly<Record<string, unknown>> | undefined,
  defaultMaxChars: number,
): Promise<MigrationEngine> {
  const collector = await createRuleFindingsCollector(settings);
  const project = createEditingProject();
  return {
    migrate: async (text, filePath) => migrateText(text, filePath, transforms, collector, project, { defaultMaxChars }),
    close: async () => {},
  };
}

/** Starts the workers and waits until each has loaded its rules (a setup failure is the run's failure). */
async function createWorkerEngine(script: URL, count: number, setup: WorkerSetup): Promise<MigrationEngine> {
  const workers = Array.from({ length: count }, () => new Worker(script, { workerData: setup }));
  const terminateAll = async (): Promise<void> => {
    await Promise.all(workers.map((worker) => worker.terminate()));
  };
  try {
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve, reject) => {
            worker.once('message', (message: WorkerResponse) => {
              if (message.type === 'ready') resolve();
              else if (message.type === 'setup-error') reject(reviveError(message.error));
            });
            worker.once('error', reject);
          }),
      ),
    );
  } catch (error) {
    await terminateAll();
    throw error;
  }

  const idle = [...workers];
  const waiting: ((worker: Worker) => void)[] = [];
  const acquire = (): Promise<Worker> => (idle.length > 0 ? Promise.resolve(idle.pop()!) : new Promise((resolve) => waiting.push(resolve)));
  const release = (worker: Worker): void => {
    const resume = waiting.shift();
    if (resume) resume(worker);
    else idle.push(worker);
  };
  let nextId = 0;
  return {
    async migrate(text, filePath) {
      const worker = await acquire();
      const id = nextId++;
      const response = await new Promise<WorkerResponse>((resolve, reject) => {
        const cleanUp = (): void => {
          worker.off('message', onMessage);
          worker.off('error', onFailure);
          worker.off('exit', onFailure);
        };
        const onMessage = (message: WorkerResponse): void => {
          if ((message.type !== 'result' && message.type !== 'error') || message.id !== id) return;
          cleanUp();
          resolve(message);
        };
        // A worker that died (out of memory…) fails the file it held; the run stops rather than hang.
        const onFailure = (reason: unknown): void => {
          cleanUp();
          reject(reason instanceof Error ? reason : new Error(`a migration worker exited (${String(reason)}) while migrating ${filePath}`));
        };
        worker.on('message', onMessage);
        worker.once('error', onFailure);
        worker.once('exit', onFailure);
        worker.postMessage({ type: 'migrate', id, filePath, text } satisfies WorkerRequest);
      }).catch((error: unknown) => {
        throw new CodemodUsageError('WORKER_FAILED', `${(error as Error).message}; rerun with --cpus 1 to migrate in one thread.`);
      });
      release(worker);
      if (response.type === 'result') return response.result;
      if (response.type === 'error') throw reviveError(response.error);
      throw new Error(`unexpected message from a migration worker: ${response.type}`);
    },
    close: terminateAll,
  };
}

async function migrateFile(filePath: string, displayPath: string, engine: MigrationEngine, dryRun: boolean): Promise<FileReport> {
  let original: string;
  try {
    original = readFileSync(filePath, 'utf8');
  } catch (error) {
    return { path: displayPath, status: 'error', edits: {}, unresolved: [], reason: `cannot read: ${(error as Error).message}` };
  }
  try {
    const result = await engine.migrate(original, filePath);
    const report: FileReport = { path: displayPath, status: result.status, edits: result.edits, unresolved: result.unresolved };
    if (result.reason !== undefined) report.reason = result.reason;
    if (result.status === 'ok') {
      if (dryRun) report.diff = unifiedDiff(diffPathOf(filePath, displayPath), original, result.text);
      else writeFileAtomically(filePath, result.text);
    }
    return report;
  } catch (error) {
    if (error instanceof CodemodUsageError) throw error;
    return {
      path: displayPath,
      status: 'error',
      edits: {},
      unresolved: [],
      reason: error instanceof Error ? `${error.message}${error.stack ? `\n${error.stack}` : ''}` : String(error),
    };
  }
}

/**
 * The path a dry-run diff names a file by, so `git apply` takes the patch:
 * relative to the current folder for files inside it; a file outside it
 * (`migrate ../other/src`) is named relative to its git repository's root
 * (apply there: `git -C ../other apply`), since git refuses `a/../other/…`.
 */
function diffPathOf(filePath: string, displayPath: string): string {
  if (!displayPath.startsWith('..') && !isAbsolute(displayPath)) return displayPath;
  for (let folder = dirname(filePath); ; folder = dirname(folder)) {
    if (existsSync(join(folder, '.git'))) return relative(folder, filePath);
    if (dirname(folder) === folder) return displayPath;
  }
}

function validateDefaultMaxChars(value: number): number {
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new CodemodUsageError(
      'INVALID_OPTION',
      `--default-max-chars must be a positive whole number of characters (got ${value}); self-reading tools get Infinity on their own.`,
    );
  }
  return value;
}

/**
 * Migrates a codebase: discovers the files, lets the rules find what is
 * wrong, lets the transforms fix it with minimal splices, and writes each
 * changed file atomically (or, in a dry run, returns its diff).
 */
export async function migrate(options: MigrateOptions = {}): Promise<MigrationReport> {
  const started = performance.now();
  const cwd = options.cwd ?? process.cwd();
  const transforms = selectTransforms(options.transforms);
  const defaultMaxChars = validateDefaultMaxChars(options.defaultMaxChars ?? DEFAULT_MAX_CHARS);
  const filePaths = await discoverFiles({
    paths: options.paths ?? [],
    project: options.project,
    cwd,
    extensions: options.extensions ?? DEFAULT_EXTENSIONS,
    ignorePatterns: options.ignorePatterns ?? [],
  });
  validateSettings(options.settings);
  const dryRun = options.dryRun ?? false;
  const concurrency =
    options.concurrency === 'auto'
      ? Math.max(1, Math.min(availableParallelism() - 1, Math.floor(filePaths.length / FILES_PER_AUTO_WORKER)))
      : validateConcurrency(options.concurrency ?? 1);
  const workerScript = new URL('./migrate-worker.js', import.meta.url);
  // From TypeScript sources (tests) there is no built worker: migrate in this thread.
  const workerCount = existsSync(fileURLToPath(workerScript)) ? Math.min(concurrency, filePaths.length) : 1;
  const engine =
    workerCount > 1
      ? await createWorkerEngine(workerScript, workerCount, {
          transformNames: transforms.map((transform) => transform.name),
          settings: options.settings,
          defaultMaxChars,
        })
      : await createInThreadEngine(transforms, options.settings, defaultMaxChars);

  const files: FileReport[] = new Array(filePaths.length);
  let done = 0;
  let next = 0;
  const migrateNext = async (): Promise<void> => {
    while (next < filePaths.length) {
      const index = next++;
      const filePath = filePaths[index]!;
      files[index] = await migrateFile(filePath, relative(cwd, filePath) || filePath, engine, dryRun);
      done += 1;
      options.onProgress?.(done, filePaths.length, filePath);
    }
  };
  try {
    options.onProgress?.(0, filePaths.length, filePaths[0] ?? '');
    await Promise.all(Array.from({ length: workerCount }, migrateNext));
  } finally {
    await engine.close();
  }

  const editsByTransform: Record<string, number> = {};
  for (const transform of transforms) editsByTransform[transform.name] = 0;
  for (const file of files) {
    for (const [name, count] of Object.entries(file.edits)) editsByTransform[name] = (editsByTransform[name] ?? 0) + count;
  }
  const count = (status: FileStatus): number => files.filter((file) => file.status === status).length;
  return {
    dryRun,
    transforms: transforms.map((transform) => transform.name),
    files,
    summary: {
      scanned: files.length,
      changed: count('ok'),
      unchanged: count('unchanged'),
      skipped: count('skipped'),
      errors: count('error'),
      editsByTransform,
      unresolved: files.reduce((total, file) => total + file.unresolved.length, 0),
      unfixedSelfReadingTools: files.reduce(
        (total, file) => total + file.unresolved.filter((site) => site.selfReadingTool !== undefined).length,
        0,
      ),
      elapsedMs: performance.now() - started,
    },
  };
}
