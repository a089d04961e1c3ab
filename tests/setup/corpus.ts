// vitest globalSetup: makes sure the real-world corpus (scripts/corpus.mjs) is
// unpacked once before any test file runs, so tests in parallel workers never
// race to download and unpack the same tarball. A fresh clone fetches it here
// from the npm registry (pinned by integrity); later runs find it cached.
import { ensureCorpus } from '../../scripts/corpus.mjs';

export default function setup(): void {
  ensureCorpus();
}
