// The examples of examples/integrations/ type-check against the frameworks'
// real types and the built package's declarations (checkJs). In the long
// suite (about 10 s of CPU for tsc over the frameworks' declarations).
import { spawnSync } from 'node:child_process';
import path from 'node:path';

import { beforeAll, describe, expect, it } from 'vitest';

import { ensureBuilt, repositoryRoot } from '../runtime/dist.js';

beforeAll(() => {
  ensureBuilt();
});

describe('examples/integrations type-check', () => {
  it('tsc -p examples/integrations/tsconfig.json reports nothing', () => {
    const tsc = path.join(repositoryRoot, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = spawnSync(process.execPath, [tsc, '-p', path.join('examples', 'integrations', 'tsconfig.json')], {
      cwd: repositoryRoot,
      encoding: 'utf8',
    });
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});
