import { Project, ts, type SourceFile } from 'ts-morph';

import { UnparseableFileError, type RuleFindingsCollector, type RuleOptionsByName } from './rule-findings.js';
import { applyEdits, selectCompatibleEdits } from './source-edits.js';
import type { RuleFinding, TextEdit, Transform, TransformOptions, UnresolvedSite } from './transform.js';

/**
 * How often one transform may lint, edit and lint again on one file. Each
 * pass fixes what the rule still reports; a transform that has not settled
 * after this many passes is a bug, reported as an error rather than looping.
 */
const MAX_PASSES_PER_TRANSFORM = 20;

export type FileStatus = 'ok' | 'unchanged' | 'skipped' | 'error';

export interface UnresolvedFinding extends UnresolvedSite {
  transform: string;
}

export interface TextMigrationResult {
  status: FileStatus;
  text: string;
  /** Edits applied per transform (only transforms that made some). */
  edits: Record<string, number>;
  unresolved: UnresolvedFinding[];
  /** Why a file was skipped or failed. */
  reason?: string;
}

/** A ts-morph project for syntactic edits only: no disk, no lib files, no dependency resolution. */
export function createEditingProject(): Project {
  return new Project({
    useInMemoryFileSystem: true,
    skipLoadingLibFiles: true,
    skipFileDependencyResolution: true,
    compilerOptions: { allowJs: true },
  });
}

function withCrlf(edit: TextEdit): TextEdit {
  return { ...edit, text: edit.text.replace(/\r?\n/g, '\r\n') };
}

/**
 * A file no rule can report on is never linted, but a file that does not
 * parse is still reported as skipped: TypeScript's parser alone (what
 * ESLint's parser runs first) says so, at a fraction of a lint's cost.
 */
function syntaxErrorOf(text: string, filePath: string): UnparseableFileError | undefined {
  const sourceFile = ts.createSourceFile(filePath, text, ts.ScriptTarget.Latest, false);
  const diagnostic = (sourceFile as unknown as { parseDiagnostics?: ts.DiagnosticWithLocation[] }).parseDiagnostics?.[0];
  if (!diagnostic) return undefined;
  const { line, character } = sourceFile.getLineAndCharacterOfPosition(diagnostic.start);
  return new UnparseableFileError(filePath, ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'), line + 1, character + 1);
}

/**
 * Lints edited text with only the rules whose text prefilter lets it
 * through; the others are known to find nothing (each rule applies that very
 * test before it runs). When none is left, ESLint is not run at all, but the
 * lint was also the check that the edits parse: TypeScript's parser makes it.
 */
function collectFindings(
  collector: RuleFindingsCollector,
  text: string,
  filePath: string,
  ruleNames: readonly string[],
  ruleOptions: RuleOptionsByName,
): RuleFinding[] {
  const rulesToRun = collector.rulesThatMayReport(text, ruleNames);
  if (rulesToRun.length > 0) return collector.collect(text, filePath, rulesToRun, ruleOptions);
  const syntaxError = syntaxErrorOf(text, filePath);
  if (syntaxError) throw syntaxError;
  return [];
}

/** The options each transform's rule lints with, so that the rule's fixes are the transform's. */
function ruleOptionsOf(transforms: readonly Transform[], options: TransformOptions): RuleOptionsByName {
  const byRule: Record<string, Readonly<Record<string, unknown>>> = {};
  for (const transform of transforms) {
    if (transform.ruleOptions) byRule[transform.ruleName] = { ...byRule[transform.ruleName], ...transform.ruleOptions(options) };
  }
  return byRule;
}

/** A file left as it was: unchanged, skipped (it does not parse) or failed, with the reason for the last two. */
function leftAsIs(text: string, status: Exclude<FileStatus, 'ok'>, reason?: string): TextMigrationResult {
  return { status, text, edits: {}, unresolved: [], ...(reason === undefined ? {} : { reason }) };
}

/** The last lint of a file: the text it saw, the rules it ran and what they found. */
interface Lint {
  text: string;
  ruleNames: ReadonlySet<string>;
  findings: RuleFinding[];
}

/** Why one transform could not finish on a file (the file is then left as it was). */
class TransformFailure extends Error {}

/** What one file's migration shares across its transforms: the text as edited so far, and the lint. */
interface FileMigration {
  readonly filePath: string;
  readonly collector: RuleFindingsCollector;
  readonly ruleOptions: RuleOptionsByName;
  readonly usesCrlf: boolean;
  currentText: string;
  lint: Lint;
  readonly edits: Record<string, number>;
  readonly unresolved: UnresolvedFinding[];
  /** The ts-morph file of `currentText`, parsed only when a transform asks for it. */
  sourceFile(): SourceFile;
  forgetSourceFile(): void;
}

/**
 * Lints the current text again, with the rules of this transform and of the
 * ones still to come: when this one has settled, the next starts from the
 * same lint for free. Edits that break the syntax show here: the re-lint
 * after every edit is also the parse check.
 */
function relint(migration: FileMigration, transform: Transform, ruleNamesFromHere: readonly string[]): void {
  try {
    migration.lint = {
      text: migration.currentText,
      ruleNames: new Set(ruleNamesFromHere),
      findings: collectFindings(migration.collector, migration.currentText, migration.filePath, ruleNamesFromHere, migration.ruleOptions),
    };
  } catch (error) {
    if (error instanceof UnparseableFileError) {
      throw new TransformFailure(`the ${transform.name} transform produced code that ${error.reason}; the file was left as it was`);
    }
    throw error;
  }
}

/**
 * Runs one transform until it settles: lint, edit, lint again, until its
 * rule reports nothing it can still fix (what is left is listed for a
 * human). A transform that has not settled after MAX_PASSES_PER_TRANSFORM
 * passes is a bug, reported rather than looped on.
 */
function settleTransform(
  migration: FileMigration,
  transform: Transform,
  ruleNamesFromHere: readonly string[],
  options: TransformOptions,
): void {
  for (let pass = 0; pass < MAX_PASSES_PER_TRANSFORM; pass += 1) {
    if (migration.currentText !== migration.lint.text || !migration.lint.ruleNames.has(transform.ruleName)) {
      relint(migration, transform, ruleNamesFromHere);
    }
    const findings = migration.lint.findings.filter((finding) => finding.ruleName === transform.ruleName);
    if (findings.length === 0) return;
    const output = transform.run({
      get sourceFile() {
        return migration.sourceFile();
      },
      findings,
      options,
    });
    const { accepted } = selectCompatibleEdits(migration.currentText, output.edits);
    if (accepted.length === 0) {
      // Nothing more to do: what is left is what the transform leaves to a human.
      migration.unresolved.push(...output.unresolved.map((site) => ({ ...site, transform: transform.name })));
      return;
    }
    migration.currentText = applyEdits(migration.currentText, migration.usesCrlf ? accepted.map(withCrlf) : accepted);
    migration.forgetSourceFile();
    migration.edits[transform.name] = (migration.edits[transform.name] ?? 0) + accepted.length;
  }
  throw new TransformFailure(
    `the ${transform.name} transform did not settle after ${MAX_PASSES_PER_TRANSFORM} passes; ` +
      'the file was left as it was (please report this)',
  );
}

/**
 * Runs the transforms over one file's text. The rules decide what to change;
 * the transforms only decide how. A file nobody reports on is never parsed by
 * ts-morph at all, and one no rule can report on is not even linted.
 */
export function migrateText(
  text: string,
  filePath: string,
  transforms: readonly Transform[],
  collector: RuleFindingsCollector,
  project: Project,
  options: TransformOptions,
): TextMigrationResult {
  const ruleNames = [...new Set(transforms.map((transform) => transform.ruleName))];
  const rulesThatMayReport = collector.rulesThatMayReport(text, ruleNames);
  if (rulesThatMayReport.length === 0) {
    const syntaxError = syntaxErrorOf(text, filePath);
    return syntaxError ? leftAsIs(text, 'skipped', syntaxError.reason) : leftAsIs(text, 'unchanged');
  }
  const ruleOptions = ruleOptionsOf(transforms, options);
  let initialFindings: RuleFinding[];
  try {
    initialFindings = collector.collect(text, filePath, rulesThatMayReport, ruleOptions);
  } catch (error) {
    if (error instanceof UnparseableFileError) return leftAsIs(text, 'skipped', error.reason);
    throw error;
  }
  if (initialFindings.length === 0) return leftAsIs(text, 'unchanged');

  // The text is edited as a string; ts-morph parses it only when a transform
  // asks for `sourceFile` (most replay the rules' fixes and never do), and
  // again after edits only if it is asked again.
  let sourceFile: SourceFile | undefined;
  const migration: FileMigration = {
    filePath,
    collector,
    ruleOptions,
    // Rules' fixes insert `\n`; a Windows-style file keeps `\r\n` throughout.
    usesCrlf: text.includes('\r\n'),
    currentText: text,
    lint: { text, ruleNames: new Set(ruleNames), findings: initialFindings },
    edits: {},
    unresolved: [],
    sourceFile: () => (sourceFile ??= project.createSourceFile(filePath, migration.currentText, { overwrite: true })),
    forgetSourceFile: () => {
      if (sourceFile) project.removeSourceFile(sourceFile);
      sourceFile = undefined;
    },
  };
  try {
    for (const [index, transform] of transforms.entries()) {
      const ruleNamesFromHere = [...new Set(transforms.slice(index).map((remaining) => remaining.ruleName))];
      settleTransform(migration, transform, ruleNamesFromHere, options);
    }
  } catch (error) {
    if (error instanceof TransformFailure) return leftAsIs(text, 'error', error.message);
    throw error;
  } finally {
    migration.forgetSourceFile();
  }
  const { currentText, edits, unresolved } = migration;
  return { status: currentText === text ? 'unchanged' : 'ok', text: currentText, edits, unresolved };
}
