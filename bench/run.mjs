// `npm run bench`: ratios measured side by side in one run. Each benchmark is
// bench/<name>.bench.mjs exporting `title` and `run()`; they run in name order.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const benchDirectory = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const benches = readdirSync(benchDirectory)
  .filter((name) => name.endsWith('.bench.mjs'))
  .filter((name) => only.length === 0 || only.some((filter) => name.includes(filter)))
  .sort();

for (const bench of benches) {
  const module = await import(pathToFileURL(join(benchDirectory, bench)).href);
  console.log(`\n## ${module.title ?? bench}`);
  await module.run();
}
