import { availableParallelism } from 'node:os';

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // tests/types holds tstyche's *.tst.ts (run by tstyche) next to vitest's *.test.ts run-time checks.
    exclude: ['**/node_modules/**', '**/fixtures/**', 'tests/types/**/*.tst.ts'],
    setupFiles: ['tests/setup/rule-tester.ts'],
    // Unpacks the real-world corpus once, before the workers start.
    globalSetup: ['tests/setup/corpus.ts'],
    testTimeout: 60_000,
    hookTimeout: 600_000,
    pool: 'forks',
    // vitest's default is one worker per core minus one: a single worker on
    // the 2-core CI machine, running every file in series. The main process
    // only waits, so use every core (the corpus, codemod-corpus and
    // concurrency tests are long and independent).
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
