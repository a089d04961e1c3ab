// One measurement round of bench/lint.bench.mjs, in a fresh process (so the
// rules' per-process caches start cold, as in a real `eslint` run). Every
// file is verified twice back to back, once with the plugin's config and
// once with the same config minus its rules (same parser, same options), in
// alternating order, so load on the machine hits both sides alike.
//   node bench/lint-round.mjs <untyped|typed> <round number>
// Prints one JSON line: CPU and wall totals per side, per-rule times (wall,
// from ESLint's stats), files, findings.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

import { Linter } from 'eslint';

import plugin from '../dist/eslint-plugin.js';
import { CORPUS, CORPUS_ROOT, corpusPackageDirectory } from '../scripts/corpus.mjs';
import { corpusFiles, writeCorpusTsconfig } from '../scripts/corpus-lint.mjs';

const [mode, roundArgument = '0'] = process.argv.slice(2);
if (mode !== 'untyped' && mode !== 'typed') {
  throw new Error(`Usage: node bench/lint-round.mjs <untyped|typed> <round>; got mode ${JSON.stringify(mode)}`);
}
const round = Number(roundArgument);

// The packages' eslint-disable comments name rules that do not run here; the
// report about unused ones would be work the no-rules side does differently.
const QUIET = { linterOptions: { reportUnusedDisableDirectives: 'off' } };

/** `{ entry, files, config }` groups: one config for the untyped run, one per package (its tsconfig) for the typed one. */
async function groups() {
  if (mode === 'untyped') {
    const config = { ...plugin.configs.recommended, ...QUIET };
    const files = (await Promise.all(CORPUS.map((entry) => corpusFiles(entry)))).flat();
    return [{ label: 'whole corpus', files, config }];
  }
  return Promise.all(
    CORPUS.filter((entry) => entry.typescript).map(async (entry) => {
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

// BENCH_LINT_STATS=0 turns ESLint's per-rule timing off on both sides (to
// see what the timing itself costs); the slowest rule is then not known.
const withStats = process.env.BENCH_LINT_STATS !== '0';
const linter = new Linter({ cwd: CORPUS_ROOT });
const totals = { rulesMs: 0, baselineMs: 0, rulesWallMs: 0, baselineWallMs: 0, files: 0, findings: 0 };
const ruleTimes = {};

/**
 * CPU time of this process (user + system, GC threads included) is the
 * measure: it does not grow when other processes compete for the cores, as
 * wall time does on a shared machine. Wall time is kept for the record.
 */
function timeVerify(text, config, filename) {
  const wallStart = performance.now();
  const cpuStart = process.cpuUsage();
  // verifyAndFix with `fix: false` is one plain pass; it is the API that
  // resets and fills `getTimes()` (the one `eslint --stats` uses).
  const { messages } = linter.verifyAndFix(text, [config], { filename, stats: withStats, fix: false });
  const cpu = process.cpuUsage(cpuStart);
  return { messages, elapsed: (cpu.user + cpu.system) / 1000, wall: performance.now() - wallStart };
}

for (const { files, config } of await groups()) {
  const baseline = { ...config, rules: {} };
  if (mode === 'typed' && files.length > 0) {
    // Builds the TypeScript program once before timing: both sides share it,
    // so whichever side came first would otherwise pay for it alone.
    linter.verify(readFileSync(files[0], 'utf8'), [baseline], files[0]);
  }
  for (const [index, file] of files.entries()) {
    const text = readFileSync(file, 'utf8');
    const rulesFirst = (index + round) % 2 === 0;
    const runRules = () => {
      // `stats` on both sides (same parse timing); on this side it also times
      // every rule listener, a small cost counted against the rules.
      const { messages, elapsed, wall } = timeVerify(text, config, file);
      totals.rulesMs += elapsed;
      totals.rulesWallMs += wall;
      totals.findings += messages.filter((message) => message.ruleId?.startsWith(`${plugin.meta.namespace}/`)).length;
      for (const pass of linter.getTimes().passes) {
        for (const [ruleId, { total }] of Object.entries(pass.rules ?? {})) ruleTimes[ruleId] = (ruleTimes[ruleId] ?? 0) + total;
      }
    };
    const runBaseline = () => {
      const { elapsed, wall } = timeVerify(text, baseline, file);
      totals.baselineMs += elapsed;
      totals.baselineWallMs += wall;
    };
    if (rulesFirst) {
      runRules();
      runBaseline();
    } else {
      runBaseline();
      runRules();
    }
    totals.files += 1;
  }
}

console.log(JSON.stringify({ mode, round, ...totals, ruleTimes }));
