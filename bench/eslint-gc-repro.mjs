// A minimal reproduction, written to be sent upstream to ESLint as it is: enabling one rule that
// does nothing (`create: () => ({})`) makes `Linter#verify` slower than enabling no rule at all, and
// the difference is garbage collection.
//
//   node bench/eslint-gc-repro.mjs [files=400] [rounds=7]
//
// It needs only `eslint` (any 9.x or 10.x) and Node 20+. It generates `files` synthetic modules of
// ordinary code (about 300 lines each, the same text every run), then, for `rounds` rounds, starts
// one fresh process per side and lets it verify every module once:
//   none   a flat config with no rule enabled;
//   no-op  the same config with one enabled rule whose listeners object is empty.
// The sides take turns within each round, so a drift of the machine's speed falls on both alike.
// Each process reports its CPU time for the verify loop, and the count and total duration of the
// garbage collections that ran during it (PerformanceObserver `gc` entries). The script prints
// the medians and the ratios no-op / none.
//
// Expected: with no rule, ESLint skips the traversal that feeds listeners; with one rule enabled
// it walks every node, builds the code-path analysis and emits its events, so it allocates more
// per file. Seen here (Node 20.20, ESLint 10, 2 cores): see docs/performance.md, "What enabling
// any rule costs".
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { PerformanceObserver, performance } from 'node:perf_hooks';

const SIDES = ['none', 'no-op'];

/** One synthetic module: classes, closures, loops, template strings: what real code is made of. */
function moduleText(index) {
  const lines = [`// module ${index}`, `import { helper${index % 7} } from './helpers.js';`];
  for (let block = 0; block < 12; block += 1) {
    lines.push(
      `export class Service${index}_${block} {`,
      `  #cache = new Map();`,
      `  constructor(options = {}) { this.options = { retries: 3, ...options }; }`,
      `  async load(key, { signal } = {}) {`,
      `    if (this.#cache.has(key)) return this.#cache.get(key);`,
      `    for (let attempt = 0; attempt < this.options.retries; attempt += 1) {`,
      `      try {`,
      `        const value = await helper${index % 7}(key, { signal, attempt });`,
      `        this.#cache.set(key, value);`,
      `        return value;`,
      `      } catch (error) {`,
      `        if (attempt === this.options.retries - 1) throw new Error(\`load \${key}: \${error.message}\`);`,
      `      }`,
      `    }`,
      `    return undefined;`,
      `  }`,
      `  summarise(items) {`,
      `    return items.filter((item) => item && item.size > ${block}).map(({ name, size }) => \`\${name}: \${size}\`).join('\\n');`,
      `  }`,
      `}`,
      `export const handler${block} = (event) => (event.type === 'x' ? event.payload?.value ?? null : [event].flat());`,
    );
  }
  return lines.join('\n');
}

async function runSide(side, files) {
  const { Linter } = await import('eslint');
  const linter = new Linter({ configType: 'flat' });
  const noOp = { rules: { 'no-op': { meta: { type: 'problem', schema: [] }, create: () => ({}) } } };
  const base = { languageOptions: { ecmaVersion: 'latest', sourceType: 'module' } };
  const config = side === 'no-op' ? [{ ...base, plugins: { repro: noOp }, rules: { 'repro/no-op': 'error' } }] : [{ ...base }];
  const texts = Array.from({ length: files }, (_, index) => moduleText(index));
  let collections = 0;
  let collecting = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      collections += 1;
      collecting += entry.duration;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  const cpuBefore = process.cpuUsage();
  const wallBefore = performance.now();
  for (const [index, text] of texts.entries()) linter.verify(text, config, { filename: `module${index}.js` });
  const cpu = process.cpuUsage(cpuBefore);
  const wall = performance.now() - wallBefore;
  // Let the observer deliver the last entries.
  await new Promise((resolve) => setTimeout(resolve, 50));
  observer.disconnect();
  return { cpuMs: (cpu.user + cpu.system) / 1000, wallMs: wall, collections, collectingMs: collecting };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const [first, second, third] = process.argv.slice(2);
if (first === '--side') {
  console.log(JSON.stringify(await runSide(second, Number(third))));
} else {
  const files = Number(first ?? 400);
  const rounds = Number(second ?? 7);
  if (!Number.isInteger(files) || files < 1 || !Number.isInteger(rounds) || rounds < 1) {
    console.error('Usage: node bench/eslint-gc-repro.mjs [files=400] [rounds=7] (whole numbers, 1 or more)');
    process.exit(2);
  }
  const { ESLint } = await import('eslint');
  const results = Object.fromEntries(SIDES.map((side) => [side, []]));
  for (let round = 0; round < rounds; round += 1) {
    // Alternate which side goes first, so neither always runs on a warmer machine.
    const order = round % 2 === 0 ? SIDES : [...SIDES].reverse();
    for (const side of order) {
      const output = execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--side', side, String(files)], { encoding: 'utf8' });
      results[side].push(JSON.parse(output));
    }
  }
  const summary = Object.fromEntries(
    SIDES.map((side) => [
      side,
      {
        cpuMs: median(results[side].map((run) => run.cpuMs)),
        collections: median(results[side].map((run) => run.collections)),
        collectingMs: median(results[side].map((run) => run.collectingMs)),
      },
    ]),
  );
  console.log(`ESLint ${ESLint.version}, Node ${process.version}, ${files} modules, ${rounds} rounds (median of fresh processes)`);
  console.log('side     CPU ms   GC count   GC ms');
  for (const side of SIDES) {
    const { cpuMs, collections, collectingMs } = summary[side];
    console.log(
      `${side.padEnd(7)} ${cpuMs.toFixed(0).padStart(7)} ${String(collections).padStart(10)} ${collectingMs.toFixed(1).padStart(7)}`,
    );
  }
  const ratio = (key) => (summary['no-op'][key] / summary.none[key]).toFixed(3);
  console.log(`no-op / none: CPU ${ratio('cpuMs')}, GC count ${ratio('collections')}, GC time ${ratio('collectingMs')}`);
}
