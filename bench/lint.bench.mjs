// Lint cost of the plugin on real code: `configs.recommended` and
// `configs.strict` against the same ESLint run with no rules (same parser,
// same files) over the whole corpus and, on its own, over the large agent CLI
// in it (@google/gemini-cli-core, 1,781 files of tsc output), and
// `configs['recommended-type-checked']` against a typed run with no rules
// over the packages that ship TypeScript sources. Each side of each round is
// a fresh process that verifies every file once (bench/lint-round.mjs), as a
// user's `eslint` run is; the two sides take turns going first from round to
// round. The ratio is that of the CPU times of all rounds together. Times
// are CPU times of the linting process, robust to other load on the machine;
// wall-clock ratios are printed for the record. The slowest rule comes from
// an extra, untimed process with ESLint's `stats`.
//   BENCH_LINT_ROUNDS=<n> (default 3) sets the number of rounds;
//   BENCH_LINT_STATS=0 leaves the untimed stats run out.
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { ensureCorpus } from '../scripts/corpus.mjs';
import { formatRatio } from './measure.mjs';

export const title = "Lint: the plugin's configs vs the same ESLint run with no rules (whole real-world corpus)";

const RECOMMENDED_TARGET = 1.1;
const STRICT_TARGET = 1.15;
const TYPED_TARGET = 1.15;
/** The large agent CLI whose ratio is printed on its own line too. */
const AGENT_CLI = '@google/gemini-cli-core';
const rounds = Number(process.env.BENCH_LINT_ROUNDS ?? 3);
const withStats = process.env.BENCH_LINT_STATS !== '0';
const roundScript = join(dirname(fileURLToPath(import.meta.url)), 'lint-round.mjs');

const sum = (values) => values.reduce((total, value) => total + value, 0);

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function runSide(mode, side) {
  const output = execFileSync(process.execPath, [roundScript, mode, side], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(output.trim().split('\n').at(-1));
}

/** One round: each side in its own process, the rules first in even rounds. */
function runRound(mode, round) {
  const order = round % 2 === 0 ? ['rules', 'none'] : ['none', 'rules'];
  const sides = {};
  for (const side of order) sides[side] = runSide(mode, side);
  const { rules, none } = sides;
  const byPackage = {};
  for (const [label, { cpuMs, files }] of Object.entries(rules.byPackage)) {
    byPackage[label] = { rulesMs: cpuMs, baselineMs: none.byPackage[label].cpuMs, files };
  }
  return {
    rulesMs: rules.cpuMs,
    baselineMs: none.cpuMs,
    rulesWallMs: rules.wallMs,
    baselineWallMs: none.wallMs,
    files: rules.files,
    findings: rules.findings,
    byPackage,
  };
}

function report(label, results, target, ruleTimes) {
  const ratios = results.map((result) => result.rulesMs / result.baselineMs);
  const wallRatios = results.map((result) => result.rulesWallMs / result.baselineWallMs);
  const { files, findings } = results[0];
  console.log(`${label}: ${files} files, ${findings} findings, ${results.length} rounds`);
  console.log(
    formatRatio(
      `  with rules / no rules (CPU time, all ${results.length} rounds together)`,
      sum(results.map((result) => result.rulesMs)),
      sum(results.map((result) => result.baselineMs)),
      target,
    ),
  );
  console.log(`  CPU-time ratio per round: ${ratios.map((ratio) => ratio.toFixed(3)).join(', ')} (median ${median(ratios).toFixed(3)})`);
  console.log(`  wall-clock ratio per round (for the record): ${wallRatios.map((ratio) => ratio.toFixed(3)).join(', ')}`);
  const cli = results.map((result) => result.byPackage?.[AGENT_CLI]).filter(Boolean);
  if (cli.length === results.length) {
    console.log(
      formatRatio(
        `  ${AGENT_CLI} alone (${cli[0].files} files, CPU time, all rounds together)`,
        sum(cli.map((totals) => totals.rulesMs)),
        sum(cli.map((totals) => totals.baselineMs)),
        target,
      ),
    );
    console.log(`    per round: ${cli.map((totals) => (totals.rulesMs / totals.baselineMs).toFixed(3)).join(', ')}`);
  }
  const byTime = Object.entries(ruleTimes).sort(([, a], [, b]) => b - a);
  const ruleTotal = byTime.reduce((sum, [, time]) => sum + time, 0);
  if (byTime.length > 0) {
    const [slowestRule, slowestTime] = byTime[0];
    console.log(
      `  slowest rule: ${slowestRule}, ${slowestTime.toFixed(1)} ms per run (${((100 * slowestTime) / ruleTotal).toFixed(0)}% of rule time)`,
    );
    for (const [ruleId, time] of byTime) console.log(`    ${ruleId.padEnd(58)} ${time.toFixed(1).padStart(9)} ms`);
  }
}

export async function run() {
  ensureCorpus();
  for (const [mode, label, target] of [
    ['recommended', 'configs.recommended vs no rules, whole corpus', RECOMMENDED_TARGET],
    ['strict', 'configs.strict vs no rules, whole corpus', STRICT_TARGET],
    ['typed', "configs['recommended-type-checked'] vs typed no rules, the packages with TypeScript sources", TYPED_TARGET],
  ]) {
    const results = [];
    for (let round = 0; round < rounds; round += 1) results.push(runRound(mode, round));
    // After the timed rounds, in its own process: it never warms a cache for them.
    const ruleTimes = withStats ? runSide(mode, 'stats').ruleTimes : {};
    report(label, results, target, ruleTimes);
  }
}
