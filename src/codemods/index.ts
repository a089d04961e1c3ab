/**
 * `tool-result-guard/codemods`: the programmatic API behind
 * `tool-result-guard migrate`. The ESLint rules decide what is wrong; each
 * transform turns one rule's findings into minimal text edits made with
 * ts-morph, so what the codemod migrates the rule accepts, and what the rule
 * accepts the codemod leaves alone.
 */
export { migrate, DEFAULT_MAX_CHARS } from './runner.js';
export { selectTransforms, transforms } from './transforms/index.js';
export type { MigrateOptions, MigrationReport, MigrationSummary, FileReport } from './runner.js';
export { migrateText, createEditingProject } from './migrate-file.js';
export type { FileStatus, TextMigrationResult, UnresolvedFinding } from './migrate-file.js';
export { createRuleFindingsCollector, UnparseableFileError } from './rule-findings.js';
export type { RuleFindingsCollector } from './rule-findings.js';
export { CodemodUsageError } from '../util/usage-error.js';
export type { CodemodErrorCode } from '../util/usage-error.js';
export { DEFAULT_EXTENSIONS, discoverFiles } from '../cli/file-discovery.js';
export { unifiedDiff } from './unified-diff.js';
export { runCli, EXIT_OK, EXIT_ERRORS, EXIT_CHANGES_FOUND } from '../cli/index.js';
export type {
  Transform,
  RuleTransform,
  ProtocolRuleName,
  TransformInput,
  TransformOutput,
  TransformOptions,
  RuleFinding,
  RuleSuggestion,
  TextEdit,
  UnresolvedSite,
} from './transform.js';
