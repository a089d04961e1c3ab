// One side of one measurement round of bench/lint.bench.mjs, in a fresh
// process, as a user's `eslint` run is: the rules' per-process caches start
// cold, every file is verified once, and what one side leaves behind (garbage
// to collect, a warm cache, a larger heap) falls on that side alone. Sides:
// `rules` (the plugin's config), `none` (the same config minus its rules:
// same parser, same options) and `stats` (the plugin's config with ESLint's
// per-rule timing, untimed, for the slowest rule).
//   node bench/lint-round.mjs <recommended|strict|typed> <rules|none|stats>
// Prints one JSON line: CPU and wall totals, the CPU total per package
// (`byPackage`), files, findings, and per-rule times for `stats`.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

import { Linter } from 'eslint';

import plugin from '../dist/eslint-plugin.js';
import { CORPUS, CORPUS_ROOT, corpusPackageDirectory } from '../scripts/corpus.mjs';
import { corpusFiles, writeCorpusTsconfig } from '../scripts/corpus-lint.mjs';

const [mode, side] = process.argv.slice(2);
const UNTYPED_CONFIGS = { recommended: 'recommended', strict: 'strict' };
if ((!(mode in UNTYPED_CONFIGS) && mode !== 'typed') || !['rules', 'none', 'stats'].includes(side)) {
  throw new Error(
    `Usage: node bench/lint-round.mjs <recommended|strict|typed> <rules|none|stats>; got ${JSON.stringify(mode)} ${JSON.stringify(side)}`,
  );
}

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

const linter = new Linter({ cwd: CORPUS_ROOT });
const totals = { cpuMs: 0, wallMs: 0, files: 0, findings: 0 };
const ruleTimes = {};
/** The CPU total per package, so one large codebase can be read on its own. */
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

for (const { label, files, config: pluginConfig } of await groups()) {
  const config = side === 'none' ? { ...pluginConfig, rules: {} } : pluginConfig;
  const packageTotals = (byPackage[label] = { cpuMs: 0, files: files.length });
  // Read before timing: both sides read the same files.
  const texts = files.map((file) => readFileSync(file, 'utf8'));
  if (mode === 'typed' && files.length > 0) {
    // Builds the TypeScript program before timing, with no rules: it is the
    // parser's work, the same for both sides, and left out of both.
    linter.verify(texts[0], [{ ...config, rules: {} }], files[0]);
  }
  for (const [index, file] of files.entries()) {
    if (side === 'stats') {
      // `verifyAndFix` with `fix: false` is one plain pass that fills `getTimes()`.
      linter.verifyAndFix(texts[index], [config], { filename: file, stats: true, fix: false });
      for (const pass of linter.getTimes().passes) {
        for (const [ruleId, { total }] of Object.entries(pass.rules ?? {})) ruleTimes[ruleId] = (ruleTimes[ruleId] ?? 0) + total;
      }
    } else {
      const { messages, elapsed, wall } = timeVerify(texts[index], config, file);
      totals.cpuMs += elapsed;
      totals.wallMs += wall;
      packageTotals.cpuMs += elapsed;
      totals.findings += messages.filter((message) => message.ruleId?.startsWith(`${plugin.meta.namespace}/`)).length;
    }
    totals.files += 1;
  }
}

console.log(JSON.stringify({ mode, side, ...totals, ruleTimes, byPackage }));
