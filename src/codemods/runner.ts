import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { performance } from 'node:perf_hooks';

import { InvalidRecognitionSettingsError, SETTINGS_KEY, normalizeRecognitionSettings } from '../recognition/settings.js';
import { writeFileAtomically } from './atomic-write.js';
import { CodemodUsageError } from './errors.js';
import { DEFAULT_EXTENSIONS, DEFAULT_MAX_CHARS } from './defaults.js';
import { discoverFiles } from './file-discovery.js';
import { createEditingProject, migrateText, type FileStatus, type UnresolvedFinding } from './migrate-file.js';
import { createRuleFindingsCollector } from './rule-findings.js';
import type { Transform } from './transform.js';
import { transforms as allTransforms } from './transforms/index.js';
import { unifiedDiff } from './unified-diff.js';

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
  /** Called before each file, for a progress display. */
  onProgress?: (done: number, total: number, filePath: string) => void;
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
  elapsedMs: number;
}

export interface MigrationReport {
  dryRun: boolean;
  transforms: string[];
  files: FileReport[];
  summary: MigrationSummary;
}

/** Picks the transforms by name, keeping the canonical order (classification before the rest). */
export function selectTransforms(names: readonly string[] | undefined): Transform[] {
  if (!names || names.length === 0) return [...allTransforms];
  const known = new Set(allTransforms.map((transform) => transform.name));
  const unknown = names.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new CodemodUsageError(
      'UNKNOWN_TRANSFORM',
      `Unknown transform ${unknown.map((name) => `"${name}"`).join(', ')}; the transforms are: ${[...known].join(', ')}.`,
    );
  }
  return allTransforms.filter((transform) => names.includes(transform.name));
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
  const collector = await createRuleFindingsCollector(options.settings);
  const project = createEditingProject();
  const dryRun = options.dryRun ?? false;

  const files: FileReport[] = [];
  for (const [index, filePath] of filePaths.entries()) {
    options.onProgress?.(index, filePaths.length, filePath);
    const displayPath = relative(cwd, filePath) || filePath;
    let original: string;
    try {
      original = readFileSync(filePath, 'utf8');
    } catch (error) {
      files.push({ path: displayPath, status: 'error', edits: {}, unresolved: [], reason: `cannot read: ${(error as Error).message}` });
      continue;
    }
    try {
      const result = migrateText(original, filePath, transforms, collector, project, { defaultMaxChars });
      const report: FileReport = { path: displayPath, status: result.status, edits: result.edits, unresolved: result.unresolved };
      if (result.reason !== undefined) report.reason = result.reason;
      if (result.status === 'ok') {
        if (dryRun) report.diff = unifiedDiff(displayPath, original, result.text);
        else writeFileAtomically(filePath, result.text);
      }
      files.push(report);
    } catch (error) {
      if (error instanceof CodemodUsageError) throw error;
      files.push({
        path: displayPath,
        status: 'error',
        edits: {},
        unresolved: [],
        reason: error instanceof Error ? `${error.message}${error.stack ? `\n${error.stack}` : ''}` : String(error),
      });
    }
  }
  options.onProgress?.(filePaths.length, filePaths.length, '');

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
      elapsedMs: performance.now() - started,
    },
  };
}
