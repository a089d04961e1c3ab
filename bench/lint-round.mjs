// One side of one round of bench/lint.bench.mjs: a fresh process that
// verifies every file of the corpus once, as a user's `eslint` run does (the
// rules' per-process caches start cold; what this side leaves behind, garbage
// to collect, a warm cache, a larger heap, falls on this side alone). Sides:
//   rules  the plugin's config;
//   none   the same config with no rules (same parser, same options);
//   no-op  the same config with one rule that does nothing: what ESLint itself
//          costs as soon as any rule is enabled, whoever wrote the rule;
//   stats  the plugin's config with ESLint's per-rule timing (untimed, for
//          the slowest rule).
//
// As a worker (`--worker <package>`, what the bench runs), the process lints
// one package, as a user's `eslint` run over that codebase does, one chunk of
// files per line it reads on stdin (`{"chunk": n}`), and answers with one
// JSON line of CPU and wall time for that chunk. The bench keeps one worker
// per side alive for a package and hands each chunk to every side in turn,
// so the sides' times of a chunk are taken seconds apart: a drift of the
// machine's speed falls on all sides alike. Each worker lints every file of
// its package once, in the same order as a one-shot run.
//   node bench/lint-round.mjs <recommended|strict|typed> <rules|none|no-op|stats> [--worker <package>]
// Without `--worker` it lints the whole corpus and prints one JSON line: CPU and
// wall totals, the CPU total per package (`byPackage`), files, findings and,
// for `stats`, per-rule times.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';

import { Linter } from 'eslint';

import plugin from '../dist/eslint-plugin.js';
import { CORPUS_ROOT, corpusPackageDirectory } from '../scripts/corpus.mjs';
import { benchEntries, corpusFiles, withoutRules, writeCorpusTsconfig } from '../scripts/corpus-lint.mjs';

const SIDES = ['rules', 'none', 'no-op', 'stats'];
const [mode, side, flag, workerPackage] = process.argv.slice(2);
const UNTYPED_CONFIGS = { recommended: 'recommended', strict: 'strict' };
if (
  (!(mode in UNTYPED_CONFIGS) && mode !== 'typed') ||
  !SIDES.includes(side) ||
  (flag !== undefined && (flag !== '--worker' || !workerPackage))
) {
  throw new Error(
    `Usage: node bench/lint-round.mjs <recommended|strict|typed> <${SIDES.join('|')}> [--worker <package>]; got ${process.argv.slice(2).join(' ')}`,
  );
}

/** Files per chunk of a worker: small enough that a chunk's sides run seconds apart. */
const CHUNK_FILES = 50;

// The packages' eslint-disable comments name rules that do not run here; the
// report about unused ones would be work the no-rules side does differently.
const QUIET = { linterOptions: { reportUnusedDisableDirectives: 'off' } };

/** The `no-op` side's rule: enabled, so ESLint does its per-rule work, and nothing else. */
const NO_OP_PLUGIN = {
  meta: { name: 'bench' },
  rules: { 'no-op': { meta: { type: 'problem', schema: [] }, create: () => ({}) } },
};

/** The config of this side, from the plugin's config of the mode. */
function sideConfig(pluginConfig) {
  if (side === 'none') return withoutRules(pluginConfig);
  if (side === 'no-op') {
    return { ...pluginConfig, plugins: { ...pluginConfig.plugins, bench: NO_OP_PLUGIN }, rules: { 'bench/no-op': 'error' } };
  }
  return pluginConfig;
}

/**
 * `{ label, files, config }` groups, one per package (only the worker's
 * package for a worker): the untyped configs share one config, the typed one
 * has a tsconfig per package.
 */
async function groups() {
  const entries = benchEntries(mode).filter((entry) => workerPackage === undefined || entry.name === workerPackage);
  if (entries.length === 0) throw new Error(`No package ${JSON.stringify(workerPackage)} in the ${mode} lint bench (scripts/corpus.mjs).`);
  if (mode in UNTYPED_CONFIGS) {
    const config = { ...plugin.configs[UNTYPED_CONFIGS[mode]], ...QUIET };
    return Promise.all(entries.map(async (entry) => ({ label: entry.name, files: await corpusFiles(entry), config })));
  }
  return Promise.all(
    entries.map(async (entry) => {
      const directory = corpusPackageDirectory(entry);
      const base = plugin.configs['recommended-type-checked'];
      // The config's `projectService: true` finds no tsconfig.json in a
      // packed package; the generated one stands in for the user's.
      const config = {
        ...base,
        ...QUIET,
        languageOptions: {
          ...base.languageOptions,
          parserOptions: { project: writeCorpusTsconfig(entry, directory), tsconfigRootDir: directory },
        },
      };
      return { label: entry.name, files: await corpusFiles(entry, directory), config };
    }),
  );
}

/**
 * The work of this side, cut into chunks of at most CHUNK_FILES files of one
 * package, in corpus order. Every side cuts it the same way.
 */
async function chunks() {
  const list = [];
  for (const { label, files, config } of await groups()) {
    for (let from = 0; from < files.length; from += CHUNK_FILES) {
      list.push({ label, files: files.slice(from, from + CHUNK_FILES), config: sideConfig(config), first: from === 0 });
    }
  }
  return list;
}

const linter = new Linter({ cwd: CORPUS_ROOT });
const ruleTimes = {};

const cpuMsOf = ({ user, system }) => (user + system) / 1000;
/** Where this process's CPU time stood when it last finished a chunk (or had found its files). */
let sinceLastChunk;

/**
 * CPU time of this process (user + system, GC threads included) is the
 * measure: it does not grow when other processes compete for the cores, as
 * wall time does on a shared machine. A chunk's time is that of its verifies
 * back to back, plus what the process spent while it waited for the chunk
 * (the garbage collector's threads finishing the previous chunk's work), so
 * no work of a side escapes its count. Reading the files and the typed
 * program's build are left out. Wall time is kept for the record.
 */
function lintChunk({ files, config, first }) {
  const totals = { cpuMs: cpuMsOf(process.cpuUsage(sinceLastChunk)), wallMs: 0, files: 0, findings: 0 };
  // Read before timing: every side reads the same files.
  const texts = files.map((file) => readFileSync(file, 'utf8'));
  if (mode === 'typed' && first && files.length > 0) {
    // Builds the TypeScript program before timing, with no rules: it is the
    // parser's work, the same for every side, and left out of all of them.
    linter.verify(texts[0], [withoutRules(config)], files[0]);
  }
  const wallStart = performance.now();
  const cpuStart = process.cpuUsage();
  for (const [index, file] of files.entries()) {
    if (side === 'stats') {
      // `verifyAndFix` with `fix: false` is one plain pass that fills `getTimes()`.
      linter.verifyAndFix(texts[index], [config], { filename: file, stats: true, fix: false });
      for (const pass of linter.getTimes().passes) {
        for (const [ruleId, { total }] of Object.entries(pass.rules ?? {})) ruleTimes[ruleId] = (ruleTimes[ruleId] ?? 0) + total;
      }
    } else {
      const messages = linter.verify(texts[index], [config], file);
      totals.findings += messages.filter((message) => message.ruleId?.startsWith(`${plugin.meta.namespace}/`)).length;
    }
    totals.files += 1;
  }
  totals.cpuMs += cpuMsOf(process.cpuUsage(cpuStart));
  totals.wallMs = performance.now() - wallStart;
  sinceLastChunk = process.cpuUsage();
  return totals;
}

const work = await chunks();
// Finding the files is not linting: the first chunk counts from here.
sinceLastChunk = process.cpuUsage();
if (flag === '--worker') {
  // Ready: the bench waits for this line before it hands out the first chunk.
  console.log(JSON.stringify({ ready: true, chunks: work.length }));
  for await (const line of createInterface({ input: process.stdin })) {
    const { chunk } = JSON.parse(line);
    const { label } = work[chunk];
    console.log(JSON.stringify({ chunk, label, ...lintChunk(work[chunk]) }));
  }
} else {
  const totals = { cpuMs: 0, wallMs: 0, files: 0, findings: 0 };
  /** The CPU total per package, so one large codebase can be read on its own. */
  const byPackage = {};
  for (const item of work) {
    const chunkTotals = lintChunk(item);
    for (const key of Object.keys(totals)) totals[key] += chunkTotals[key];
    const packageTotals = (byPackage[item.label] ??= { cpuMs: 0, files: 0 });
    packageTotals.cpuMs += chunkTotals.cpuMs;
    packageTotals.files += chunkTotals.files;
  }
  console.log(JSON.stringify({ mode, side, ...totals, ruleTimes, byPackage }));
}
