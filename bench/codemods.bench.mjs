// Codemod cost: a full `migrate --dry-run` (every transform, diffs computed,
// nothing written) against ts-morph merely loading the same files, measured
// side by side on the same machine in one run. The migration lints each file
// once with the rules (the rules decide, so codemod and lint agree) and
// parses with ts-morph only the files the rules report on. ESLint's own parse
// (typescript-estree: TypeScript's parser, then ESTree conversion and scope
// analysis) is the floor of that design, so it is printed too: migration /
// ESLint-parse shows what the rules and transforms add on top of it.
import { readFileSync } from 'node:fs';

import * as typescriptParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { Project } from 'ts-morph';

import { ensureCorpus } from '../scripts/corpus.mjs';
import { discoverFiles, DEFAULT_EXTENSIONS, migrate } from '../dist/codemods/index.js';
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
    const eslintParse = async () => {
      for (const [file, text] of texts) linter.verify(text, parseOnly, { filename: file });
    };
    let report;
    const dryRun = async () => {
      report = await migrate({ paths, cwd: directory, dryRun: true });
    };

    const loadTime = await medianTime(load, { runs: 5, warmup: 1 });
    const parseTime = await medianTime(eslintParse, { runs: 5, warmup: 1 });
    const migrateTime = await medianTime(dryRun, { runs: 5, warmup: 1 });
    const { summary } = report;
    console.log(
      `${entry.name}@${entry.version} (${paths.join(', ')}): ${files.length} files, ` +
        `${summary.changed} would change, ${summary.skipped} skipped, ${summary.errors} errors`,
    );
    console.log(formatRatio('  dry-run migration / ts-morph load', migrateTime, loadTime, TARGET_RATIO));
    console.log(formatRatio('  (floor) ESLint parse, no rules / ts-morph load', parseTime, loadTime));
    console.log(formatRatio('  dry-run migration / ESLint parse, no rules', migrateTime, parseTime));
  }
}
