// One measurement round of bench/lint.bench.mjs, in a fresh process (so the
// rules' per-process caches start cold, as in a real `eslint` run). Every
// file is verified twice back to back, once with the plugin's config and
// once with the same config minus its rules (same parser, same options), in
// alternating order, so load on the machine hits both sides alike.
//   node bench/lint-round.mjs <recommended|strict|typed> <round number>
// Prints one JSON line: CPU and wall totals per side, the same totals per
// package (`byPackage`), per-rule times (wall, from ESLint's stats), files,
// findings.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

import { Linter } from 'eslint';

import plugin from '../dist/eslint-plugin.js';
import { CORPUS, CORPUS_ROOT, corpusPackageDirectory } from '../scripts/corpus.mjs';
import { corpusFiles, writeCorpusTsconfig } from '../scripts/corpus-lint.mjs';

const [mode, roundArgument = '0'] = process.argv.slice(2);
const UNTYPED_CONFIGS = { recommended: 'recommended', strict: 'strict' };
if (!(mode in UNTYPED_CONFIGS) && mode !== 'typed') {
  throw new Error(`Usage: node bench/lint-round.mjs <recommended|strict|typed> <round>; got mode ${JSON.stringify(mode)}`);
}
const round = Number(roundArgument);

// The packages' eslint-disable comments name rules that do not run here; the
// report about unused ones would be work the no-rules side does differently.
const QUIET = { linterOptions: { reportUnusedDisableDirectives: 'off' } };

/** `{ label, files, config }` groups, one per package: the untyped configs share one config, the typed one has a tsconfig per package. */
async function groups() {
  if (mode in UNTYPED_CONFIGS) {
    const config = { ...plugin.configs[UNTYPED_CONFIGS[mode]], ...QUIET };
    return Promise.all(CORPUS.map(async (entry) => ({ label: entry.name, files: await corpusFiles(entry), config })));
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
/** The same four totals per package, so one large codebase can be read on its own. */
const byPackage = {};

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

for (const { label, files, config } of await groups()) {
  const baseline = { ...config, rules: {} };
  const packageTotals = (byPackage[label] = { rulesMs: 0, baselineMs: 0, files: files.length });
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
      packageTotals.rulesMs += elapsed;
      totals.rulesWallMs += wall;
      totals.findings += messages.filter((message) => message.ruleId?.startsWith(`${plugin.meta.namespace}/`)).length;
      for (const pass of linter.getTimes().passes) {
        for (const [ruleId, { total }] of Object.entries(pass.rules ?? {})) ruleTimes[ruleId] = (ruleTimes[ruleId] ?? 0) + total;
      }
    };
    const runBaseline = () => {
      const { elapsed, wall } = timeVerify(text, baseline, file);
      totals.baselineMs += elapsed;
      packageTotals.baselineMs += elapsed;
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

console.log(JSON.stringify({ mode, round, ...totals, ruleTimes, byPackage }));
