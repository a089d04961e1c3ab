import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Held while one test process builds, so two test files never run tsc over dist at once. */
const BUILD_LOCK = path.join(tmpdir(), `trg-runtime-build-${Buffer.from(repositoryRoot).toString('hex').slice(-32)}.lock`);

/**
 * The built package. `npm test` builds before vitest runs; when a test file
 * is run alone (a fresh clone, or runtime sources edited since the last
 * build), build it here (tsc only, never a clean).
 */
export function ensureBuilt(): { entry: string; storeModuleUrl: string } {
  const entry = path.join(repositoryRoot, 'dist', 'index.js');
  const storeModule = path.join(repositoryRoot, 'dist', 'runtime', 'store.js');
  const needsBuild = () => !existsSync(entry) || !existsSync(storeModule) || runtimeSourcesNewerThan(storeModule);
  if (needsBuild()) withBuildLock(() => needsBuild() && build());
  if (!existsSync(entry)) throw new Error('dist/index.js is missing and could not be built: run npx tsc -p tsconfig.build.json');
  return { entry, storeModuleUrl: pathToFileURL(storeModule).href };
}

function build(): void {
  try {
    execFileSync(process.execPath, [path.join(repositoryRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], {
      cwd: repositoryRoot,
      stdio: 'pipe',
    });
  } catch {
    // tsc still emits when other parts of the tree have type errors; the caller checks dist.
  }
}

function withBuildLock(task: () => unknown): void {
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  for (let attempt = 0; attempt < 3_000; attempt += 1) {
    try {
      mkdirSync(BUILD_LOCK);
    } catch {
      Atomics.wait(sleeper, 0, 0, 100); // another test file is building: wait for it
      continue;
    }
    try {
      task();
    } finally {
      rmSync(BUILD_LOCK, { recursive: true, force: true });
    }
    return;
  }
  throw new Error(`Timed out waiting for ${BUILD_LOCK}; remove it if no test run is building.`);
}

/** A stale dist (runtime sources edited since the last build) would test old code. */
function runtimeSourcesNewerThan(builtFile: string): boolean {
  const builtAt = statSync(builtFile).mtimeMs;
  const sourceDirectory = path.join(repositoryRoot, 'src', 'runtime');
  return readdirSync(sourceDirectory)
    .filter((name) => name.endsWith('.ts'))
    .some((name) => statSync(path.join(sourceDirectory, name)).mtimeMs > builtAt);
}
