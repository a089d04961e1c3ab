import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The built package. `npm test` builds before vitest runs; when a test file
 * is run alone on a fresh clone, build it here (tsc only, never a clean).
 */
export function ensureBuilt(): { entry: string; storeModuleUrl: string } {
  const entry = path.join(repositoryRoot, 'dist', 'index.js');
  const storeModule = path.join(repositoryRoot, 'dist', 'runtime', 'store.js');
  if (!existsSync(entry) || !existsSync(storeModule) || runtimeSourcesNewerThan(storeModule)) {
    try {
      execFileSync(process.execPath, [path.join(repositoryRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], {
        cwd: repositoryRoot,
        stdio: 'pipe',
      });
    } catch {
      // tsc still emits when other parts of the tree have type errors; the check below decides.
    }
    if (!existsSync(entry)) throw new Error('dist/index.js is missing and could not be built: run npx tsc -p tsconfig.build.json');
  }
  return { entry, storeModuleUrl: pathToFileURL(storeModule).href };
}

/** A stale dist (sources edited since the last build) would test old code. */
function runtimeSourcesNewerThan(builtFile: string): boolean {
  const builtAt = statSync(builtFile).mtimeMs;
  const sourceDirectory = path.join(repositoryRoot, 'src', 'runtime');
  return readdirSync(sourceDirectory)
    .filter((name) => name.endsWith('.ts'))
    .some((name) => statSync(path.join(sourceDirectory, name)).mtimeMs > builtAt);
}
