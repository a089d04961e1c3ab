import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from './dist.js';
import { makeTemporaryRoot } from './helpers.js';

let entryUrl = '';
beforeAll(() => {
  entryUrl = pathToFileURL(ensureBuilt().entry).href;
});

const RESULTS = 25;
const CONTENT_CHARS = 2_000_000;

/**
 * A process that persists RESULTS results through the store and RESULTS more
 * through applyToolResultBudget, keeps what a harness keeps (the persist
 * results, the budget's output, the state, the store), drops the contents,
 * collects garbage and prints how much heap is still in use.
 */
function memoryScript(): string {
  return `
import { ToolResultStore, applyToolResultBudget, createReplacementState } from ${JSON.stringify(entryUrl)};
const [root] = process.argv.slice(2);
// Distinct strings on the V8 heap, one byte per character: ${CONTENT_CHARS / 1e6} MB each.
const contentFor = (index) => index + ':' + String.fromCharCode(97 + (index % 26)).repeat(${CONTENT_CHARS} - String(index).length - 1);
// Large strings decoded from files may live outside the V8 heap (external strings): count both.
const inUse = () => { const usage = process.memoryUsage(); return usage.heapUsed + usage.external; };
const store = new ToolResultStore({ root, sessionId: 's' });
const state = createReplacementState();
const kept = [];
globalThis.gc();
const before = inUse();
for (let index = 0; index < ${RESULTS}; index += 1) kept.push(await store.persist('direct_' + index, contentFor(index)));
// A second store object finds the files on disk: its previews come from the read-back text.
const resumed = new ToolResultStore({ root, sessionId: 's' });
for (let index = 0; index < ${RESULTS}; index += 1) kept.push(await resumed.persist('direct_' + index, 'ignored'));
const options = { store, tools: [{ name: 'bash', maxResultSizeChars: 30000 }], perMessageLimit: 200000, querySource: 'repl_main_thread' };
for (let index = 0; index < ${RESULTS}; index += 1) {
  kept.push(await applyToolResultBudget([{ toolUseId: 'budget_' + index, toolName: 'bash', content: contentFor(index + 7) }], state, options));
}
globalThis.gc();
globalThis.gc();
const after = inUse();
process.stdout.write(JSON.stringify({ retainedBytes: after - before, kept: kept.length, replaced: state.replacements.size }));
`;
}

describe('memory after persisting', () => {
  it('holds no persisted content: previews are copies, not slices of the whole result', () => {
    const root = makeTemporaryRoot();
    const script = path.join(root, 'memory.mjs');
    writeFileSync(script, memoryScript());
    const child = spawnSync(process.execPath, ['--expose-gc', script, root], { encoding: 'utf8' });
    expect(child.stderr).toBe('');
    const outcome = JSON.parse(child.stdout) as { retainedBytes: number; kept: number; replaced: number };
    expect(outcome.kept).toBe(3 * RESULTS);
    expect(outcome.replaced).toBe(RESULTS);
    // Holding the contents would take 3 x 25 x 2 MB = 150 MB (the read-back ones included);
    // the previews, paths and replacements take well under 2 MB. 15 MB is a generous margin.
    const holdingContents = 3 * RESULTS * CONTENT_CHARS;
    expect(outcome.retainedBytes, `${outcome.retainedBytes} bytes still in use`).toBeLessThan(holdingContents / 10);
  });
});
