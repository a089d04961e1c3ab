// Lint cost: ESLint with the plugin's `recommended` config against the same
// ESLint run with every rule off (same parser, same files), side by side in
// one process, on real agent packages. The recognition core's module cache
// is cleared before every run, so each run pays for following imports the
// way a fresh `eslint` process does.
import { ESLint } from 'eslint';

import { ensureCorpus } from '../scripts/corpus.mjs';
import { withoutRules } from '../scripts/corpus-lint.mjs';
import plugin from '../dist/eslint-plugin.js';
import { clearModuleCache } from '../dist/recognition/index.js';
import { formatRatio, medianTime } from './measure.mjs';

export const title = 'Lint: configs.recommended vs the same ESLint run with no rules';

const TARGET_RATIO = 1.1;

const TARGETS = [
  { name: '@google/gemini-cli-core', patterns: ['dist/src/tools/**/*.js', 'dist/src/utils/**/*.js', 'dist/src/core/**/*.js'] },
  { name: '@modelcontextprotocol/server-filesystem', patterns: ['dist/**/*.js'] },
  { name: '@langchain/community', patterns: ['dist/tools/**/*.js'] },
];

const IGNORES = { ignores: ['**/*.test.js', '**/*.d.ts'] };
const NO_INLINE_CONFIG = { linterOptions: { noInlineConfig: true, reportUnusedDisableDirectives: 'off' } };

function lintRun(directory, patterns, config) {
  const eslint = new ESLint({ cwd: directory, overrideConfigFile: true, overrideConfig: [IGNORES, NO_INLINE_CONFIG, config] });
  return async () => {
    clearModuleCache();
    const results = await eslint.lintFiles(patterns);
    if (results.some((result) => result.messages.some((message) => message.fatal))) {
      throw new Error(`a file of ${directory} did not parse`);
    }
    return results;
  };
}

export async function run() {
  const corpus = ensureCorpus(TARGETS.map((target) => target.name));
  let withRulesTotal = 0;
  let withoutRulesTotal = 0;
  for (const target of TARGETS) {
    const { directory } = corpus.find(({ entry }) => entry.name === target.name);
    const recommended = lintRun(directory, target.patterns, plugin.configs.recommended);
    const bare = lintRun(directory, target.patterns, withoutRules(plugin.configs.recommended));
    // Interleaved, so drift in machine load hits both sides alike.
    const without = await medianTime(bare, { runs: 3, warmup: 1 });
    const withRules = await medianTime(recommended, { runs: 3, warmup: 1 });
    withRulesTotal += withRules;
    withoutRulesTotal += without;
    console.log(`  ${formatRatio(target.name, withRules, without)}`);
  }
  console.log(formatRatio('all packages, recommended / no rules', withRulesTotal, withoutRulesTotal, TARGET_RATIO));
}
