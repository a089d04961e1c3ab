// The README's two set-up commands are the project's promise to a new
// contributor. CI runs .ci/run, so .ci/run must run exactly the README's test
// line (and then the long suites over real packages); the demo line is checked by hand on a fresh clone (a test that clones
// and runs `npm ci && npm test` would recurse), see docs/performance.md.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { REPOSITORY_ROOT } from '../../scripts/corpus.mjs';

const readme = readFileSync(join(REPOSITORY_ROOT, 'README.md'), 'utf8');
const packageJson = JSON.parse(readFileSync(join(REPOSITORY_ROOT, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
};

/** The commands of the README's `## Set-up` code block, comments stripped. */
function setUpCommands(): string[] {
  const section = /^## Set-up\n([\s\S]*?)^## /m.exec(readme)?.[1] ?? '';
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  return block
    .split('\n')
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter((line) => line.length > 0);
}

describe("the README's set-up commands", () => {
  it('are the demo line and the test line', () => {
    expect(setUpCommands()).toEqual(['npm ci && npm run demo', 'npm ci && npm test']);
  });

  it('.ci/run runs exactly the test line, then the long real-world suites, from the repository root', () => {
    const ciScript = readFileSync(join(REPOSITORY_ROOT, '.ci', 'run'), 'utf8');
    const commands = ciScript
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line.length > 0 && !line.startsWith('#') && !line.startsWith('set ') && !line.startsWith('cd '));
    expect(commands).toEqual([setUpCommands()[1], 'npm run test:real-world']);
    expect(readme).toContain('npm run test:real-world');
    expect(ciScript).toMatch(/^cd "\$\(dirname "\$0"\)\/\.\."$/m);
    expect(ciScript).toMatch(/^set -euo pipefail$/m);
  });

  it('name scripts that exist: demo and test build first', () => {
    expect(packageJson.scripts.demo).toMatch(/^npm run build && node scripts\/demo\.mjs$/);
    expect(packageJson.scripts.test).toMatch(/^npm run build && vitest run/);
    expect(packageJson.scripts['test:real-world']).toMatch(/^npm run build && vitest run --config vitest\.real-world\.config\.ts$/);
    // What `npm pack` (and so `npm publish`) ships must hold the build, even from a fresh clone.
    expect(packageJson.scripts.prepack).toBe('npm run build');
  });
});
