import { availableParallelism } from 'node:os';

import { defineConfig } from 'vitest/config';

/**
 * `npm test`: everything but the long suites over real packages, which
 * `npm run test:real-world` runs (vitest.real-world.config.ts). Both suites
 * run in CI (.ci/run).
 */
// The framework harnesses type-check against the real ai, MCP, LangChain, Mastra and OpenAI Agents
// types before and after a migration: about 45 s of CPU, over 3 minutes on a busy 2-core machine.
// The integration examples type-check against the same framework types (about 10 s of CPU).
export const LONG_SUITES = [
  'tests/real-world/**/*.test.ts',
  'tests/plugin/concurrency.test.ts',
  'tests/codemods/frameworks.test.ts',
  'tests/integration/integration-examples-types.test.ts',
];

/** What both suites share. */
export const COMMON_TEST_OPTIONS = {
  setupFiles: ['tests/setup/rule-tester.ts'],
  // A guard against hangs, not a speed check: the codemod CLI tests take 40 s alone on a busy 2-core machine.
  testTimeout: 180_000,
  hookTimeout: 600_000,
  pool: 'forks',
  // vitest's default is one worker per core minus one: a single worker on
  // the 2-core CI machine, running every file in series. The main process
  // only waits, so use every core.
  maxWorkers: Math.max(2, availableParallelism()),
} as const;

export default defineConfig({
  test: {
    ...COMMON_TEST_OPTIONS,
    include: ['tests/**/*.test.ts'],
    // tests/types holds tstyche's *.tst.ts (run by tstyche) next to vitest's *.test.ts run-time checks.
    exclude: ['**/node_modules/**', '**/fixtures/**', 'tests/types/**/*.tst.ts', ...LONG_SUITES],
  },
});
