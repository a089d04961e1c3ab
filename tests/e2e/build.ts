// `npm test` builds before vitest runs; a test file run on its own may find
// dist/ older than src/. Rebuild then (tsc only, without the clean step, so
// other test runs reading dist/ at the same time never see it empty).
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

import { REPOSITORY_ROOT } from '../../scripts/corpus.mjs';

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** True when some `src/**.ts` has no `dist/**.js` or a newer one than it. */
export function isBuildStale(): boolean {
  const sourceRoot = join(REPOSITORY_ROOT, 'src');
  return sourceFiles(sourceRoot).some((source) => {
    const built = join(REPOSITORY_ROOT, 'dist', relative(sourceRoot, source).replace(/\.ts$/, '.js'));
    return !existsSync(built) || statSync(built).mtimeMs < statSync(source).mtimeMs;
  });
}

export function ensureFreshBuild(): void {
  if (!isBuildStale()) return;
  const build = spawnSync(
    process.execPath,
    [join(REPOSITORY_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
    {
      cwd: REPOSITORY_ROOT,
      encoding: 'utf8',
    },
  );
  // tsc exits 2 when it found type errors but still emitted: `npm run build`
  // (and so `npm test`) fails on those anyway, while a test file run alone
  // can still check the package as built. Exit 1 means nothing was emitted.
  if (build.status === 2) {
    console.warn(`tsc reported type errors; testing the emitted build anyway:\n${build.stdout}`);
  } else if (build.status !== 0) {
    throw new Error(`Building the package failed (tsc -p tsconfig.build.json, exit ${build.status}):\n${build.stdout}${build.stderr}`);
  }
  // As `npm run build` does: the bin runs straight from a shell.
  chmodSync(join(REPOSITORY_ROOT, 'dist', 'cli', 'bin.js'), 0o755);
}
