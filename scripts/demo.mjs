// `npm run demo`: the main job on the bundled example agent codebase.
// Each part lives in scripts/demo/<NN>-<part>.mjs and exports `run()`; they run in order.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const partsDirectory = join(dirname(fileURLToPath(import.meta.url)), 'demo');
const parts = readdirSync(partsDirectory)
  .filter((name) => name.endsWith('.mjs'))
  .sort();

let failed = false;
for (const part of parts) {
  const module = await import(pathToFileURL(join(partsDirectory, part)).href);
  console.log(`\n${'='.repeat(78)}\n${module.title ?? part}\n${'='.repeat(78)}`);
  try {
    await module.run();
  } catch (error) {
    failed = true;
    console.error(`demo part ${part} failed:`, error);
  }
}
process.exitCode = failed ? 1 : 0;
