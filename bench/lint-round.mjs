// One measurement round of bench/lint.bench.mjs, in a fresh process (so the
// rules' per-process caches start cold, as in a real `eslint` run). Every
// file is verified four times back to back, twice with the plugin's config
// and twice with the same config minus its rules (same parser, same
// options), in mirrored order (rules, none, none, rules, or the reverse,
// alternating from file to file), so load on the machine, a garbage
// collection one side's garbage sets off, or a warm cache hits both sides
// alike. The timed runs are plain runs, as a user's `eslint` is; a fifth,
// untimed run with ESLint's `stats` gives the per-rule times.
//   node bench/lint-round.mjs <recommended|strict|typed> <round number>
// Prints one JSON line: CPU and wall totals per side (both runs summed), the
// same totals per package (`byPackage`), per-rule times (wall, from ESLint's
// stats, one run), files, findings.
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

// BENCH_LINT_STATS=0 leaves out the untimed run with ESLint's per-rule timing
// (the slowest rule is then not known).
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
  const messages = linter.verify(text, [config], filename);
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
    let findingsCounted = false;
    const runRules = () => {
      const { messages, elapsed, wall } = timeVerify(text, config, file);
      totals.rulesMs += elapsed;
      packageTotals.rulesMs += elapsed;
      totals.rulesWallMs += wall;
      if (findingsCounted) return;
      findingsCounted = true;
      totals.findings += messages.filter((message) => message.ruleId?.startsWith(`${plugin.meta.namespace}/`)).length;
    };
    const runBaseline = () => {
      const { elapsed, wall } = timeVerify(text, baseline, file);
      totals.baselineMs += elapsed;
      packageTotals.baselineMs += elapsed;
      totals.baselineWallMs += wall;
    };
    const order = rulesFirst ? [runRules, runBaseline, runBaseline, runRules] : [runBaseline, runRules, runRules, runBaseline];
    for (const run of order) run();
    if (withStats) {
      // After the timed runs, so it never warms a cache for them; `verifyAndFix`
      // with `fix: false` is one plain pass that fills `getTimes()`.
      linter.verifyAndFix(text, [config], { filename: file, stats: true, fix: false });
      for (const pass of linter.getTimes().passes) {
        for (const [ruleId, { total }] of Object.entries(pass.rules ?? {})) ruleTimes[ruleId] = (ruleTimes[ruleId] ?? 0) + total;
      }
    }
    totals.files += 1;
  }
}

console.log(JSON.stringify({ mode, round, ...totals, ruleTimes, byPackage }));
