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
    // The accuracy suite lints every labelled package in one worker, and the analysis keeps every
    // module it followed for the life of the process: `npm run eval` peaks at 4.4 GB resident, at
    // Node's default heap limit (a worker died of it in CI). 8 GB of heap per worker leaves room
    // on the 24 GB CI machine; bounding those caches is the real fix (issue 27's note).
    execArgv: ['--max-old-space-size=8192'],
  },
});
