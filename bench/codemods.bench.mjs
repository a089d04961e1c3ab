// Codemod cost: a full `migrate --dry-run` (every transform, diffs computed,
// nothing written) against a plain ESLint run of the same rules over the same
// files, measured side by side in one process, in CPU time, the two sides
// taking turns to go first. The codemod is driven by the rules (it replays
// their findings, so codemod and lint agree), and a file it changes is linted
// once more to confirm that the edits leave nothing of the rules behind (the
// settling lint: what keeps it idempotent and in agreement with the rules).
// So its floor is the lint plus one more lint of the changed files; the bench
// prints that floor, measured the same way, beside each ratio. Targets: three
// folders where most files define tools (most files change), and a whole
// agent CLI (where few do).
import { resolve } from 'node:path';

import * as typescriptParser from '@typescript-eslint/parser';
import { ESLint } from 'eslint';

import { ensureCorpus, REPOSITORY_ROOT } from '../scripts/corpus.mjs';
import { DEFAULT_EXTENSIONS, migrate } from '../dist/codemods/index.js';
import { transforms } from '../dist/codemods/transforms/index.js';
import plugin from '../dist/eslint-plugin.js';
import { formatRatio, interleavedMedianCpuTimes } from './measure.mjs';

export const title = 'Codemods: full dry-run migration vs a plain ESLint run of the same rules over the same files';

const TARGET_RATIO = 1.3;
const ROUNDS = Number(process.env.BENCH_CODEMOD_ROUNDS ?? 7);
const WARMUP_ROUNDS = Number(process.env.BENCH_CODEMOD_WARMUP ?? 3);

const TARGETS = [
  { name: 'examples/agent-harness', folders: ['src'], directory: `${REPOSITORY_ROOT}/examples/agent-harness` },
  { name: '@modelcontextprotocol/server-filesystem', folders: ['dist'] },
  { name: '@google/gemini-cli-core', folders: ['dist/src/tools'] },
  // The whole agent CLI: 1,781 files, a few dozen of which define tools. Fewer rounds: one takes about a minute.
  { name: '@google/gemini-cli-core', folders: ['dist/src'], rounds: 3, warmup: 1 },
];

export async function run() {
  const corpus = ensureCorpus(TARGETS.filter((target) => !target.directory).map((target) => target.name));
  // The rules the transforms replay, with the options the codemod lints with
  // (the strict config's: `requireClassification` reports unclassified tools
  // too), so both sides find the same sites.
  const ruleNames = [...new Set(transforms.map((transform) => transform.ruleName))];
  const rules = Object.fromEntries(
    ruleNames.map((ruleName) => {
      const strictOptions = plugin.rules[ruleName].meta.docs?.strictOptions;
      return [`tool-result-guard/${ruleName}`, strictOptions ? ['error', ...strictOptions] : 'error'];
    }),
  );
  const sides = TARGETS.map((target) => {
    const found = corpus.find(({ entry }) => entry.name === target.name);
    const directory = target.directory ?? found.directory;
    const label = found ? `${found.entry.name}@${found.entry.version}` : target.name;
    const paths = target.folders;
    // A new ESLint per run, as `migrate` builds its linter per run: neither
    // side keeps a cache from one round to the next. ESLint finds the files
    // itself, as `migrate` does: each side pays for its own discovery.
    const createEslint = () =>
      new ESLint({
        cwd: directory,
        overrideConfigFile: true,
        overrideConfig: [
          // The codemod never migrates declaration files (nor node_modules, which ESLint ignores too).
          { ignores: ['**/*.d.ts', '**/*.d.mts', '**/*.d.cts'] },
          // The packages' own `eslint-disable` comments name rules that are not loaded here.
          { linterOptions: { noInlineConfig: true, reportUnusedDisableDirectives: 'off' } },
          {
            files: [`**/*.{${DEFAULT_EXTENSIONS.join(',')}}`],
            plugins: { 'tool-result-guard': plugin },
            languageOptions: { parser: typescriptParser },
            rules,
          },
        ],
      });
    const side = { label, paths, directory, report: undefined, lintResults: undefined, rounds: target.rounds, warmup: target.warmup };
    side.dryRun = async () => {
      side.report = await migrate({ paths, cwd: directory, dryRun: true });
    };
    side.lint = async () => {
      side.lintResults = await createEslint().lintFiles(paths);
    };
    // The settling lint's share: the same lint over only the files the migration changes.
    side.lintChanged = async () => {
      const changed = side.report.files.filter((file) => file.status === 'ok').map((file) => resolve(directory, file.path));
      if (changed.length > 0) await createEslint().lintFiles(changed);
    };
    return side;
  });
  // Both sides run code that the JIT takes dozens of runs to compile (ESLint,
  // the TypeScript parser, the rules): a first target measured cold reads
  // twice its steady cost. Every target is run on both sides first.
  for (let round = 0; round < WARMUP_ROUNDS; round += 1) {
    for (const side of sides) {
      if (round >= (side.warmup ?? WARMUP_ROUNDS)) continue;
      await side.dryRun();
      await side.lint();
    }
  }
  for (const side of sides) {
    const rounds = side.rounds ?? ROUNDS;
    const [migrationTime, lintTime, changedLintTime] = await interleavedMedianCpuTimes([side.dryRun, side.lint, side.lintChanged], {
      rounds,
      warmup: 0,
      takeTurns: true,
    });
    const { label, paths, directory, report, lintResults } = side;

    // Like for like: both sides went over exactly the same files.
    const migrated = report.files.map((file) => resolve(directory, file.path)).sort();
    const linted = lintResults.map((result) => result.filePath).sort();
    if (migrated.join('\n') !== linted.join('\n')) {
      throw new Error(`the two sides found different files: ${migrated.length} migrated, ${linted.length} linted`);
    }
    // A file ESLint ignored or could not parse would make its side cheaper (the `noInlineConfig` notices are not that).
    const unlinted = lintResults.find((result) =>
      result.messages.some((message) => message.ruleId === null && (message.fatal || /ignored/i.test(message.message))),
    );
    if (unlinted) throw new Error(`eslint did not lint ${unlinted.filePath}: ${unlinted.messages[0].message}`);
    const findings = lintResults.reduce((sum, result) => sum + result.messages.filter((message) => message.ruleId !== null).length, 0);
    const { summary } = report;
    console.log(
      `${label} (${paths.join(', ')}): ${linted.length} files; lint: ${findings} findings of ${ruleNames.length} rules; ` +
        `migration: ${summary.changed} would change, ${summary.skipped} skipped, ${summary.errors} errors; ` +
        `median of ${rounds} rounds taking turns, CPU time`,
    );
    console.log(formatRatio('  dry-run migration / eslint of the same rules', migrationTime, lintTime, TARGET_RATIO));
    console.log(
      `  floor with one settling lint per changed file: (eslint + eslint of the ${summary.changed} changed ${summary.changed === 1 ? 'file' : 'files'}) / eslint = ` +
        `${((lintTime + changedLintTime) / lintTime).toFixed(3)}; the migration's own work above it: ` +
        `${((migrationTime - lintTime - changedLintTime) / lintTime).toFixed(3)}`,
    );
  }
}
