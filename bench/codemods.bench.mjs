// Codemod cost: a full `migrate --dry-run` (every transform, diffs computed,
// nothing written) against ts-morph merely loading the same files, measured
// side by side on the same machine in one run. The migration skips files the
// rules' shared text prefilter rules out, lints the others once with the
// rules (the rules decide, so codemod and lint agree), and parses with
// ts-morph and lints again only the files the rules report on. ESLint's own
// parse (typescript-estree: TypeScript's parser, then ESTree conversion and
// scope analysis) of exactly those lints is the floor of that design, so it
// is printed too: migration / floor shows what the rules and transforms add.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

import * as typescriptParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { Project } from 'ts-morph';

import { ensureCorpus } from '../scripts/corpus.mjs';
import { discoverFiles, DEFAULT_EXTENSIONS, migrate } from '../dist/codemods/index.js';
import { transforms } from '../dist/codemods/transforms/index.js';
import { mayProduceFindings } from '../dist/recognition/findings-prefilter.js';
// typescript-estree's bare parse, as the recognition core loads it for followed modules.
import { parseModuleSource } from '../dist/recognition/module-graph.js';
import { normalizeRecognitionSettings } from '../dist/recognition/settings.js';
import { formatRatio, medianTime } from './measure.mjs';

export const title = 'Codemods: full dry-run migration vs ts-morph loading the same project';

const TARGET_RATIO = 1.5;

const TARGETS = [
  { name: '@modelcontextprotocol/server-filesystem', folders: ['dist'] },
  { name: '@google/gemini-cli-core', folders: ['dist/src/tools'] },
];

export async function run() {
  const corpus = ensureCorpus(TARGETS.map((target) => target.name));
  for (const target of TARGETS) {
    const { directory, entry } = corpus.find(({ entry }) => entry.name === target.name);
    const paths = target.folders;
    const files = await discoverFiles({ paths, cwd: directory, extensions: DEFAULT_EXTENSIONS, ignorePatterns: [] });

    const load = async () => {
      const project = new Project({ skipFileDependencyResolution: true, skipLoadingLibFiles: true, compilerOptions: { allowJs: true } });
      project.addSourceFilesAtPaths(files);
      if (project.getSourceFiles().length !== files.length) throw new Error('ts-morph did not load every file');
    };
    const texts = files.map((file) => [file, readFileSync(file, 'utf8')]);
    const linter = new Linter({ configType: 'flat', cwd: '/' });
    const parseOnly = [{ files: ['**/*.*'], languageOptions: { parser: typescriptParser, sourceType: 'module' } }];
    const parseAll = (entries) => async () => {
      for (const [file, text] of entries) linter.verify(text, parseOnly, { filename: file });
    };
    let report;
    const dryRun = async () => {
      report = await migrate({ paths, cwd: directory, dryRun: true });
    };

    const loadTime = await medianTime(load, { runs: 5, warmup: 1 });
    const migrateTime = await medianTime(dryRun, { runs: 5, warmup: 1 });
    // What the migration must parse with ESLint: every file the prefilter lets
    // through once, and every changed file once more to confirm it settled.
    const settings = normalizeRecognitionSettings(undefined);
    const ruleNames = [...new Set(transforms.map((transform) => transform.ruleName))];
    const changed = new Set(report.files.filter((file) => file.status === 'ok').map((file) => file.path));
    const mustLint = texts.filter(([, text]) => mayProduceFindings(text, ruleNames, settings));
    const mustLintAgain = texts.filter(([file]) => changed.has(relative(directory, file)));
    const floorTime = await medianTime(parseAll([...mustLint, ...mustLintAgain]), { runs: 5, warmup: 1 });
    const parseTime = await medianTime(parseAll(texts), { runs: 5, warmup: 1 });
    // The least any ESTree-based detection (what ESLint rules are) can cost:
    // TypeScript's parse plus the conversion to ESTree, once per file the
    // prefilter lets through, with no tokens, comments, scopes or rules.
    const bareTreeTime = await medianTime(
      async () => {
        for (const [file, text] of mustLint) parseModuleSource(text, { filePath: file, range: true, loc: true, comment: false, tokens: false, jsx: false });
      },
      { runs: 5, warmup: 1 },
    );
    const { summary } = report;
    console.log(
      `${entry.name}@${entry.version} (${paths.join(', ')}): ${files.length} files, ` +
        `${summary.changed} would change, ${summary.skipped} skipped, ${summary.errors} errors; ` +
        `ESLint runs on ${mustLint.length} files the prefilter lets through, ${mustLintAgain.length} of them again`,
    );
    console.log(formatRatio('  dry-run migration / ts-morph load', migrateTime, loadTime, TARGET_RATIO));
    console.log(formatRatio('  (floor) ESLint parse of those lints, no rules / ts-morph load', floorTime, loadTime));
    console.log(formatRatio('  (hard floor) bare ESTree of each file linted, once / ts-morph load', bareTreeTime, loadTime));
    console.log(formatRatio('  dry-run migration / that floor', migrateTime, floorTime));
    console.log(formatRatio('  (reference) ESLint parse of every file / ts-morph load', parseTime, loadTime));
  }
}
