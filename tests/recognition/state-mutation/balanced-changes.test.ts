// Balanced take and give-back (state-mutation/balanced-changes.ts): a change
// undone in a `finally` before the call returns does not outlive the call.
import { describe, expect, it } from 'vitest';

import { undoneBeforeReturn } from '../../../src/recognition/state-mutation/balanced-changes.js';
import { settings, snippet } from './snippets.js';

/** For each mention of `name` inside `run` (in source order): is the call it starts undone before `run` returns? */
function undone(code: string, name: string): boolean[] {
  const parsed = snippet(code);
  const run = parsed.fn('run');
  return parsed
    .identifiers(name)
    .filter((identifier) => identifier.range[0] > run.range[0])
    .map((identifier) => undoneBeforeReturn(identifier, run, settings));
}

describe('undoneBeforeReturn', () => {
  it('finds an entry set and deleted under the same key, and a slot taken and given back', () => {
    const code = `const inFlight = new Map();
const slots = [];
async function run(input) {
  inFlight.set(input.path, Date.now());
  const slot = slots.pop();
  try {
    return await work(slot);
  } finally {
    inFlight.delete(input.path);
    slots.push(slot);
  }
}`;
    expect(undone(code, 'inFlight')).toEqual([true, true]);
    expect(undone(code, 'slots')).toEqual([true, true]);
  });

  it('does not count a delete under another key, an undo outside a finally, or a change the finally does not undo', () => {
    expect(
      undone(
        `const inFlight = new Map();
function run(input) { inFlight.set(input.path, 1); try { return 1; } finally { inFlight.delete(input.other); } }`,
        'inFlight',
      ),
    ).toEqual([false, false]);
    expect(
      undone(
        `const inFlight = new Map();
function run(input) { inFlight.set(input.path, 1); inFlight.delete(input.path); }`,
        'inFlight',
      ),
    ).toEqual([false, false]);
    // `sort()` changes the list and nothing in the finally gives it back.
    expect(
      undone(
        `const queue = [];
function run(input) { queue.push(input); queue.sort(); try { return 1; } finally { queue.pop(); } }`,
        'queue',
      ),
    ).toEqual([false, false, false]);
  });

  it('answers for calls only, and for the receiver the chain starts at', () => {
    const code = `const active = new Set();
const log = [];
function run(id) { const size = active.size; active.add(id); log.push(id); try { return size; } finally { active.delete(id); } }`;
    // `active.size` is no call; `log` is never undone.
    expect(undone(code, 'active')).toEqual([false, true, true]);
    expect(undone(code, 'log')).toEqual([false]);
  });

  it('keeps a balanced change out of the tool’s state uses, and reports the unbalanced one', () => {
    const code = snippet(`const active = new Set();
const log = [];
buildTool({ name: 'lock', async call(input) {
  active.add(input.id);
  log.push(input.id);
  try { return 'ok'; } finally { active.delete(input.id); }
} });`);
    expect(code.uses().map((use) => use.at)).toEqual(['log.push(input.id)']);
  });
});
