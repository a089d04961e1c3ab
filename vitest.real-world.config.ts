import { defineConfig } from 'vitest/config';

import { COMMON_TEST_OPTIONS, LONG_SUITES } from './vitest.config.js';

/**
 * `npm run test:real-world`: the long suites over real agent packages (the
 * pinned corpus of scripts/corpus.mjs and the labelled tools of
 * tests/real-world/labels), which `npm test` leaves out to stay near three
 * minutes. CI runs both.
 */
export default defineConfig({
  test: {
    ...COMMON_TEST_OPTIONS,
    include: LONG_SUITES,
    exclude: ['**/node_modules/**', '**/fixtures/**'],
    // Unpacks the real-world corpus once, before the workers start, so
    // parallel workers never race to download the same tarball.
    globalSetup: ['tests/setup/corpus.ts'],
  },
});
