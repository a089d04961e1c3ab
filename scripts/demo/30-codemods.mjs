// Demo part: what `tool-result-guard migrate` would change in the bundled
// example agent. A dry run exits 2 when it finds changes: that is the point
// of the demo, not a failure.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

import { REPOSITORY_ROOT } from '../corpus.mjs';

export const title = 'Codemods: `tool-result-guard migrate --dry-run` on examples/agent-harness/';

const EXIT_CHANGES_FOUND = 2;

export async function run() {
  const args = [join(REPOSITORY_ROOT, 'dist', 'cli.js'), 'migrate', '-p', 'examples/agent-harness/tsconfig.json', '--dry-run'];
  console.log(`$ tool-result-guard migrate -p examples/agent-harness/tsconfig.json --dry-run\n`);
  const result = spawnSync(process.execPath, args, { cwd: REPOSITORY_ROOT, encoding: 'utf8' });
  process.stdout.write(result.stdout);
  process.stdout.write(result.stderr);
  console.log(`\n(exit status ${result.status}: ${result.status === EXIT_CHANGES_FOUND ? 'changes found, nothing written' : 'see above'})`);
  if (result.status !== EXIT_CHANGES_FOUND) {
    throw new Error(`expected the dry run to find changes (exit status 2), got ${result.status}`);
  }
}
