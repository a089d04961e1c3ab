// Lint cost of the plugin on real code: `configs.recommended` and
// `configs.strict` against the same ESLint run with no rules (same parser,
// same files) over the whole corpus and, on its own, over the large agent CLI
// in it (@google/gemini-cli-core, 1,781 files of tsc output), and
// `configs['recommended-type-checked']` against a typed run with no rules
// over the packages that ship TypeScript sources.
//
// In each round, each package is linted by one fresh process per side, as a
// user's `eslint` run over that codebase is (bench/lint-round.mjs). The
// processes of a package live side by side and take its files in lockstep:
// each chunk (at most 50 files) goes to every side in turn, the first side
// changing from chunk to chunk, so a chunk's sides are timed seconds apart
// and a drift of the machine's speed falls on all of them alike. Only one
// process works at a time. A process per package, not per corpus, because a
// process has its own luck (heap layout, compiled code, collector timing):
// over the whole corpus one process per side read a no-op rule 4 % cheaper
// than no rules on the packages other than gemini-cli-core, so the luck of
// one process must be averaged over many. Times are CPU times of the linting
// process; wall-clock ratios are printed for the record.
//
// The third side, `no-op`, enables one rule that does nothing. ESLint itself
// costs more as soon as any rule is enabled (per-rule contexts that keep each
// file's tree alive longer, so more of it is promoted by the garbage
// collector); the bench prints that share apart from the plugin's own:
//   with rules / no rules = (no-op / no rules) x (with rules / no-op).
// The slowest rule comes from an extra, untimed process with ESLint's `stats`.
//   BENCH_LINT_ROUNDS=<n> sets the number of rounds (default 2, typed 4);
//   BENCH_LINT_STATS=0 leaves the untimed stats run out;
//   BENCH_LINT_MODES=recommended,strict,typed (the default) picks the comparisons.
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

import { ensureCorpus } from '../scripts/corpus.mjs';
import { benchEntries } from '../scripts/corpus-lint.mjs';
import { formatRatio } from './measure.mjs';

export const title = "Lint: the plugin's configs vs the same ESLint run with no rules (whole real-world corpus)";

const RECOMMENDED_TARGET = 1.1;
const STRICT_TARGET = 1.15;
const TYPED_TARGET = 1.15;
/** The large agent CLI whose ratio is printed on its own line too. */
const AGENT_CLI = '@google/gemini-cli-core';
/** Rounds per comparison; the typed one has two packages only, and short ones: twice the rounds. */
const roundsOf = (mode) => Number(process.env.BENCH_LINT_ROUNDS ?? (mode === 'typed' ? 4 : 2));
const withStats = process.env.BENCH_LINT_STATS !== '0';
const roundScript = join(dirname(fileURLToPath(import.meta.url)), 'lint-round.mjs');
const SIDES = ['rules', 'none', 'no-op'];
const MODES = (process.env.BENCH_LINT_MODES ?? 'recommended,strict,typed').split(',');

const sum = (values) => values.reduce((total, value) => total + value, 0);

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The untimed `stats` side, one process over the whole corpus. */
function runStats(mode) {
  const output = execFileSync(process.execPath, [roundScript, mode, 'stats'], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(output.trim().split('\n').at(-1)).ruleTimes;
}

/** A side's worker process for one package: `lint(chunk)` answers with that chunk's times. */
async function startWorker(mode, side, label) {
  const child = spawn(process.execPath, [roundScript, mode, side, '--worker', label], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const exited = once(child, 'exit');
  const next = async () => {
    const { value, done } = await lines.next();
    if (done) {
      const [code, signal] = await exited;
      throw new Error(
        `The ${mode} ${side} worker of the lint bench for ${label} exited (${signal ?? `code ${code}`}) before answering; its error is above.`,
      );
    }
    return JSON.parse(value);
  };
  const { chunks } = await next();
  return {
    chunks,
    async lint(chunk) {
      child.stdin.write(`${JSON.stringify({ chunk })}\n`);
      return next();
    },
    async stop() {
      child.stdin.end();
      await exited;
    },
  };
}

/**
 * One round: for each package, a fresh worker per side, every chunk to every
 * side in turn, the first side rotating from chunk to chunk, package to
 * package and round to round. Returns each side's totals (CPU, wall, per
 * package), files and findings.
 */
async function runRound(mode, round) {
  const totals = Object.fromEntries(SIDES.map((side) => [side, { cpuMs: 0, wallMs: 0, byPackage: {} }]));
  let files = 0;
  let findings = 0;
  let turnOffset = round;
  for (const { name: label } of benchEntries(mode)) {
    const workers = {};
    for (const side of SIDES) workers[side] = await startWorker(mode, side, label);
    const chunkCount = workers.rules.chunks;
    if (SIDES.some((side) => workers[side].chunks !== chunkCount)) throw new Error(`The lint bench sides cut ${label} differently.`);
    for (let chunk = 0; chunk < chunkCount; chunk += 1) {
      turnOffset += 1;
      for (let turn = 0; turn < SIDES.length; turn += 1) {
        const side = SIDES[(turnOffset + turn) % SIDES.length];
        const result = await workers[side].lint(chunk);
        const sideTotals = totals[side];
        sideTotals.cpuMs += result.cpuMs;
        sideTotals.wallMs += result.wallMs;
        const packageTotals = (sideTotals.byPackage[label] ??= { cpuMs: 0, files: 0 });
        packageTotals.cpuMs += result.cpuMs;
        packageTotals.files += result.files;
        if (side === 'rules') {
          files += result.files;
          findings += result.findings;
        }
      }
    }
    for (const side of SIDES) await workers[side].stop();
  }
  return { ...totals, files, findings };
}

/** `numerator / denominator` of the CPU times of every round together, against `target` when given. */
function ratioLine(label, results, numerator, denominator, target, pick = (totals) => totals.cpuMs) {
  return formatRatio(
    label,
    sum(results.map((result) => pick(result[numerator]))),
    sum(results.map((result) => pick(result[denominator]))),
    target,
  );
}

function perRound(results, numerator, denominator, pick = (totals) => totals.cpuMs) {
  const ratios = results.map((result) => pick(result[numerator]) / pick(result[denominator]));
  return `${ratios.map((ratio) => ratio.toFixed(3)).join(', ')} (median ${median(ratios).toFixed(3)})`;
}

/**
 * A 95 % interval of `numerator / denominator` (ratio of CPU sums): the
 * packages of every round resampled with replacement, 2,000 times, from a
 * fixed seed so a run prints the same interval for the same times. A package
 * of a round is the unit because each has its own processes, and a process
 * has its own luck (heap layout, compiled code, collector timing) that
 * pairing chunks cannot cancel.
 */
function interval(results, numerator, denominator) {
  // A package run: one package's CPU time per side in one round.
  const runs = results.flatMap((result) =>
    Object.keys(result.rules.byPackage).map((label) =>
      Object.fromEntries(SIDES.map((side) => [side, result[side].byPackage[label].cpuMs])),
    ),
  );
  let seed = 0x2545f491;
  const random = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 2 ** 32;
  };
  const ratios = [];
  for (let sample = 0; sample < 2000; sample += 1) {
    let top = 0;
    let bottom = 0;
    for (let index = 0; index < runs.length; index += 1) {
      const run = runs[Math.floor(random() * runs.length)];
      top += run[numerator];
      bottom += run[denominator];
    }
    ratios.push(top / bottom);
  }
  ratios.sort((a, b) => a - b);
  return `95 % interval over ${runs.length} package runs: ${ratios[49].toFixed(3)}–${ratios[1949].toFixed(3)}`;
}

function report(label, results, target, ruleTimes) {
  const { files, findings } = results[0];
  const all = `all ${results.length} rounds together`;
  console.log(`${label}: ${files} files, ${findings} findings, ${results.length} rounds`);
  console.log(ratioLine(`  with rules / no rules (CPU time, ${all})`, results, 'rules', 'none', target));
  console.log(`    per round: ${perRound(results, 'rules', 'none')}; ${interval(results, 'rules', 'none')}`);
  console.log(`    wall clock per round (for the record): ${perRound(results, 'rules', 'none', (totals) => totals.wallMs)}`);
  console.log(ratioLine(`  of which ESLint's cost of enabling any rule: no-op rule / no rules`, results, 'no-op', 'none'));
  console.log(`    per round: ${perRound(results, 'no-op', 'none')}; ${interval(results, 'no-op', 'none')}`);
  console.log(ratioLine(`  and the plugin's own cost: with rules / no-op rule`, results, 'rules', 'no-op'));
  console.log(`    per round: ${perRound(results, 'rules', 'no-op')}; ${interval(results, 'rules', 'no-op')}`);
  const cliOf = (totals) => totals.byPackage[AGENT_CLI]?.cpuMs;
  if (results.every((result) => cliOf(result.rules) !== undefined)) {
    const cliFiles = results[0].rules.byPackage[AGENT_CLI].files;
    console.log(ratioLine(`  ${AGENT_CLI} alone (${cliFiles} files): with rules / no rules`, results, 'rules', 'none', target, cliOf));
    console.log(`    per round: ${perRound(results, 'rules', 'none', cliOf)}`);
    console.log(ratioLine(`    no-op rule / no rules`, results, 'no-op', 'none', undefined, cliOf));
    console.log(ratioLine(`    with rules / no-op rule`, results, 'rules', 'no-op', undefined, cliOf));
  }
  const byTime = Object.entries(ruleTimes).sort(([, a], [, b]) => b - a);
  const ruleTotal = byTime.reduce((total, [, time]) => total + time, 0);
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
  ].filter(([mode]) => MODES.includes(mode))) {
    const results = [];
    for (let round = 0; round < roundsOf(mode); round += 1) results.push(await runRound(mode, round));
    // After the timed rounds, in its own process: it never warms a cache for them.
    const ruleTimes = withStats ? runStats(mode) : {};
    report(label, results, target, ruleTimes);
  }
}
