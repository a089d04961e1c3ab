// Codemod cost: a full `migrate --dry-run` (every transform, diffs computed,
// nothing written) against a plain ESLint run of the same rules over the same
// files, measured side by side in one process, interleaved, in CPU time. The
// codemod is driven by the rules (it replays their findings, so codemod and
// lint agree), so the lint itself is its floor: the ratio shows what finding
// the sites again, editing and diffing add on top of the lint a user already
// runs.
import * as typescriptParser from '@typescript-eslint/parser';
import { ESLint } from 'eslint';

import { ensureCorpus, REPOSITORY_ROOT } from '../scripts/corpus.mjs';
import { discoverFiles, DEFAULT_EXTENSIONS, migrate } from '../dist/codemods/index.js';
import { transforms } from '../dist/codemods/transforms/index.js';
import plugin from '../dist/eslint-plugin.js';
import { formatRatio } from './measure.mjs';

export const title = 'Codemods: full dry-run migration vs a plain ESLint run of the same rules over the same files';

const TARGET_RATIO = 1.3;
const ROUNDS = Number(process.env.BENCH_CODEMOD_ROUNDS ?? 5);

const TARGETS = [
  { name: 'examples/agent-harness', folders: ['src'], directory: `${REPOSITORY_ROOT}/examples/agent-harness` },
  { name: '@modelcontextprotocol/server-filesystem', folders: ['dist'] },
  { name: '@google/gemini-cli-core', folders: ['dist/src/tools'] },
];

/** CPU time (user + system, ms) of one call: the machine may be busy, and wall time would count the others. */
async function cpuTime(task) {
  const start = process.cpuUsage();
  await task();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

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
  for (const target of TARGETS) {
    const found = corpus.find(({ entry }) => entry.name === target.name);
    const directory = target.directory ?? found.directory;
    const label = found ? `${found.entry.name}@${found.entry.version}` : target.name;
    const paths = target.folders;
    const files = await discoverFiles({ paths, cwd: directory, extensions: DEFAULT_EXTENSIONS, ignorePatterns: [] });
    // A new ESLint per run, as `migrate` builds its linter per run: neither
    // side keeps the other's per-file config cache from one round to the next.
    const createEslint = () =>
      new ESLint({
        cwd: directory,
        overrideConfigFile: true,
        overrideConfig: [
          // The packages' own `eslint-disable` comments name rules that are not loaded here.
          { linterOptions: { noInlineConfig: true, reportUnusedDisableDirectives: 'off' } },
          {
            files: ['**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}'],
            plugins: { 'tool-result-guard': plugin },
            languageOptions: { parser: typescriptParser },
            rules,
          },
        ],
      });
    let report;
    let findings = 0;
    const dryRun = async () => {
      report = await migrate({ paths, cwd: directory, dryRun: true });
    };
    const lint = async () => {
      const results = await createEslint().lintFiles(files);
      findings = results.reduce((sum, result) => sum + result.messages.length, 0);
      const unlinted = results.find((result) =>
        result.messages.some((message) => message.ruleId === null && /ignored|parse/i.test(message.message)),
      );
      if (unlinted) throw new Error(`eslint did not lint ${unlinted.filePath}: ${unlinted.messages[0].message}`);
    };
    await dryRun();
    await lint();
    const migrationTimes = [];
    const lintTimes = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      migrationTimes.push(await cpuTime(dryRun));
      lintTimes.push(await cpuTime(lint));
    }
    const { summary } = report;
    console.log(
      `${label} (${paths.join(', ')}): ${files.length} files; lint: ${findings} findings of ${ruleNames.length} rules; ` +
        `migration: ${summary.changed} would change, ${summary.skipped} skipped, ${summary.errors} errors; ${ROUNDS} interleaved rounds, CPU time`,
    );
    console.log(formatRatio('  dry-run migration / eslint of the same rules', median(migrationTimes), median(lintTimes), TARGET_RATIO));
  }
}
