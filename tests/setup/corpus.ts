// vitest globalSetup: makes sure the real-world corpus (scripts/corpus.mjs)
// and every labelled package (tests/real-world/labels) are unpacked once
// before any test file runs, so tests in parallel workers never race to
// download and unpack the same tarball. A fresh clone fetches them here from
// the npm registry (pinned by integrity); later runs find them cached.
import { ensureLabelledPackages } from '../../scripts/accuracy.mjs';
import { ensureCorpus } from '../../scripts/corpus.mjs';

export default function setup(): void {
  ensureCorpus();
  ensureLabelledPackages();
}
