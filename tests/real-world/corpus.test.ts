// Every rule over real agent and library code nobody here wrote: the packed
// npm packages of scripts/corpus.mjs. A rule that throws on valid code breaks
// a user's whole lint run, so the bar is zero crashes, file by file, with and
// without type information. Findings are printed, not asserted (the rules'
// own real-world test asserts the expected ones).
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { performance } from 'node:perf_hooks';

import * as typescriptParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';

import { CORPUS, CORPUS_ROOT, corpusPackageDirectory, type CorpusEntry } from '../../scripts/corpus.mjs';
import { corpusFiles, everyRuleEntries, isDeclarationFile, writeCorpusTsconfig } from '../../scripts/corpus-lint.mjs';
import plugin, { PLUGIN_NAMESPACE } from '../../src/eslint-plugin.js';

type FlatConfig = Linter.Config;

interface FileProblem {
  file: string;
  message: string;
}

interface CorpusLintReport {
  filesLinted: number;
  declarationFiles: number;
  findingsPerRule: Map<string, number>;
  /** The plugin's rule ids reported in each file (corpus-relative path), sorted. */
  findingsByFile: Map<string, string[]>;
  /** A rule (or the plugin) threw: the user's lint run would abort. */
  crashes: FileProblem[];
  /** Parses with no rules but not with the plugin's config: the plugin's fault. */
  parseFailuresCausedByPlugin: FileProblem[];
  /** The parser cannot parse the file even with no rules: not the plugin's fault, counted apart. */
  parserOwnFailures: FileProblem[];
  /** Messages with no rule that are not parse errors (e.g. "no matching configuration"). */
  unexpectedMessages: FileProblem[];
  /** ESLint's answers to the packages' own eslint comments; not the plugin's findings. */
  messagesFromPackageComments: number;
  milliseconds: number;
}

/**
 * Lints file by file with ESLint's Linter (the engine under the CLI), so one
 * crashing file does not hide the others: every crash is collected with its
 * file, and the test fails listing all of them.
 */
function lintOneByOne(files: readonly string[], config: FlatConfig): CorpusLintReport {
  const linter = new Linter({ cwd: CORPUS_ROOT });
  // The packages' own eslint-disable comments name rules that do not run here.
  const quietConfig: FlatConfig = {
    ...config,
    linterOptions: { ...config.linterOptions, reportUnusedDisableDirectives: 'off' },
  };
  const noRulesConfig: FlatConfig = { ...quietConfig, rules: {} };
  const report: CorpusLintReport = {
    filesLinted: 0,
    declarationFiles: 0,
    findingsPerRule: new Map(),
    findingsByFile: new Map(),
    crashes: [],
    parseFailuresCausedByPlugin: [],
    parserOwnFailures: [],
    unexpectedMessages: [],
    messagesFromPackageComments: 0,
    milliseconds: 0,
  };
  const start = performance.now();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const shownFile = relative(CORPUS_ROOT, file);
    report.filesLinted += 1;
    if (isDeclarationFile(file)) report.declarationFiles += 1;
    let messages: Linter.LintMessage[];
    try {
      messages = linter.verify(text, [quietConfig], file);
    } catch (error) {
      // Collected, then asserted empty below: catching here only lets the
      // report name every crashing file instead of the first one.
      report.crashes.push({ file: shownFile, message: error instanceof Error ? error.message : String(error) });
      continue;
    }
    for (const message of messages) {
      if (message.ruleId?.startsWith(`${PLUGIN_NAMESPACE}/`)) {
        report.findingsPerRule.set(message.ruleId, (report.findingsPerRule.get(message.ruleId) ?? 0) + 1);
        report.findingsByFile.set(shownFile, [...(report.findingsByFile.get(shownFile) ?? []), message.ruleId].sort());
      } else if (message.ruleId) {
        // The packages' own comments: `eslint-disable` of rules not loaded
        // here ("Definition for rule … was not found") or inline configs.
        report.messagesFromPackageComments += 1;
      } else if (message.fatal) {
        const parsesWithoutRules = !linter.verify(text, [noRulesConfig], file).some((other) => other.fatal);
        const problem = { file: shownFile, message: `${message.line}:${message.column} ${message.message}` };
        if (parsesWithoutRules) report.parseFailuresCausedByPlugin.push(problem);
        else report.parserOwnFailures.push(problem);
      } else {
        report.unexpectedMessages.push({ file: shownFile, message: message.message });
      }
    }
  }
  report.milliseconds = performance.now() - start;
  return report;
}

function printReport(title: string, report: CorpusLintReport): void {
  const findings = [...report.findingsPerRule.entries()].sort(([a], [b]) => a.localeCompare(b));
  const lines = [
    `${title}: ${report.filesLinted} files (${report.declarationFiles} declaration files) in ${(report.milliseconds / 1000).toFixed(1)} s`,
    ...(findings.length === 0 ? ['  no findings'] : findings.map(([ruleId, count]) => `  ${ruleId}: ${count}`)),
  ];
  if (report.messagesFromPackageComments > 0) {
    lines.push(`  (ESLint messages about the packages' own eslint comments, not counted: ${report.messagesFromPackageComments})`);
  }
  if (report.parserOwnFailures.length > 0) {
    lines.push(`  files the parser itself cannot parse (not the plugin): ${report.parserOwnFailures.length}`);
    for (const failure of report.parserOwnFailures) lines.push(`    ${failure.file} ${failure.message}`);
  }
  console.log(lines.join('\n'));
}

function expectNoPluginProblems(report: CorpusLintReport): void {
  expect(report.crashes).toEqual([]);
  expect(report.parseFailuresCausedByPlugin).toEqual([]);
  expect(report.unexpectedMessages).toEqual([]);
  // The pinned corpus parses cleanly with @typescript-eslint/parser 8.72.0;
  // a failure here means the parser or a package pin changed: look at the
  // file before blaming (or excusing) the plugin.
  expect(report.parserOwnFailures).toEqual([]);
}

/**
 * Packages that ship an ES module build and a CommonJS build of the same
 * source (`x.js` beside `x.cjs`): both must get the same findings, or the
 * recognition depends on the module format (`require`, `(0, m.f)(…)`,
 * `exports.x = …`) instead of on the code.
 */
function commonJsTwinsThatDiffer(
  files: readonly string[],
  report: CorpusLintReport,
): { twins: number; withFindings: number; differing: string[] } {
  const linted = new Set(files.map((file) => relative(CORPUS_ROOT, file)));
  let twins = 0;
  let withFindings = 0;
  const differing: string[] = [];
  for (const file of linted) {
    if (!file.endsWith('.cjs')) continue;
    const esm = `${file.slice(0, -'.cjs'.length)}.js`;
    if (!linted.has(esm)) continue;
    twins += 1;
    const commonJsFindings = (report.findingsByFile.get(file) ?? []).join(', ');
    const esmFindings = (report.findingsByFile.get(esm) ?? []).join(', ');
    if (commonJsFindings !== '') withFindings += 1;
    if (commonJsFindings !== esmFindings) differing.push(`${file}: [${commonJsFindings}] but ${esm}: [${esmFindings}]`);
  }
  return { twins, withFindings, differing };
}

const typeScriptEntries = CORPUS.filter((entry) => entry.typescript);

describe('every rule over the real-world corpus', () => {
  describe('without type information (configs.all)', () => {
    it.each(CORPUS.map((entry) => [entry.name, entry] as const))(
      '%s',
      async (_name, entry: CorpusEntry) => {
        const files = await corpusFiles(entry);
        expect(files.length).toBeGreaterThan(0);
        const report = lintOneByOne(files, plugin.configs.all as unknown as FlatConfig);
        printReport(`${entry.name}@${entry.version} [${entry.lint.join(', ')}], configs.all`, report);
        expect(report.filesLinted).toBe(files.length);
        expectNoPluginProblems(report);
        const { twins, withFindings, differing } = commonJsTwinsThatDiffer(files, report);
        if (twins > 0) {
          console.log(
            `  ES module / CommonJS twins (x.js beside x.cjs): ${twins}, ${withFindings} with findings, ${differing.length} with different ones`,
          );
        }
        expect(differing).toEqual([]);
      },
      600_000,
    );
  });

  describe('with type information (every rule, a generated tsconfig per package)', () => {
    it.each(typeScriptEntries.map((entry) => [entry.name, entry] as const))(
      '%s',
      async (_name, entry: CorpusEntry) => {
        const directory = corpusPackageDirectory(entry);
        const files = await corpusFiles(entry);
        expect(files.length).toBeGreaterThan(0);
        const config: FlatConfig = {
          ...(plugin.configs.all as unknown as FlatConfig),
          name: 'tool-result-guard/corpus-type-checked',
          languageOptions: {
            parser: typescriptParser,
            parserOptions: { project: writeCorpusTsconfig(entry, directory), tsconfigRootDir: directory },
          },
          rules: everyRuleEntries(plugin) as FlatConfig['rules'],
        };
        const report = lintOneByOne(files, config);
        printReport(`${entry.name}@${entry.version} [${entry.lint.join(', ')}], every rule, type-checked`, report);
        expect(report.filesLinted).toBe(files.length);
        expectNoPluginProblems(report);
      },
      600_000,
    );
  });
});
