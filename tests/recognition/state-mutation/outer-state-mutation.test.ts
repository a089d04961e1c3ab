// Mutating module and outer state (state-mutation/outer-state-mutation.ts):
// writes and mutating calls on state declared outside the invocation, and what
// only looks like one (a warn-once latch, a value made once on first use).
import { describe, expect, it } from 'vitest';

import {
  changedStateIn,
  isLazyInitialisation,
  isLogOnlyLatch,
  moduleLevelNames,
  mutationOf,
  writingNode,
} from '../../../src/recognition/state-mutation/outer-state-mutation.js';
import { moduleFolder, settings, snippet } from './snippets.js';

/** What `mutationOf` says about the last mention of `x` in `statement`: the mutating code and its verb. */
function mutation(statement: string): { at: string; verb: string } | undefined {
  const parsed = snippet(`function run(x, i, k, v) { ${statement} }`);
  const found = mutationOf(parsed.identifier('x', -1), settings);
  return found && { at: parsed.text(found.node), verb: found.verb };
}

describe('mutationOf', () => {
  it('finds assignments, updates and deletes of a property, and mutating methods', () => {
    expect(mutation('x.a = 1;')).toEqual({ at: 'x.a = 1', verb: 'assigns a property of' });
    expect(mutation('x[i]++;')).toEqual({ at: 'x[i]++', verb: 'updates a property of' });
    expect(mutation('delete x.k;')).toEqual({ at: 'delete x.k', verb: 'deletes a property of' });
    expect(mutation('x.items.set(k, v);')).toEqual({ at: 'x.items.set(k, v)', verb: 'calls `.set()` on' });
    expect(mutation('[x.a, i] = v;')).toEqual({ at: '[x.a, i] = v', verb: 'assigns a property of' });
    expect(mutation('Object.assign(x, v);')).toEqual({ at: 'Object.assign(x, v)', verb: 'passes to `Object.assign`' });
  });

  it('leaves reads, non-mutating methods and a plain rebinding of the name', () => {
    expect(mutation('return x.a;')).toBeUndefined();
    expect(mutation('return x.get(k);')).toBeUndefined();
    expect(mutation('return x.map((e) => e);')).toBeUndefined();
    // Rebinding the variable itself is a write, which the entry analysis reports as `assigns`.
    expect(mutation('x = v;')).toBeUndefined();
    expect(mutation('return v[x];')).toBeUndefined();
  });

  it('finds the statement-level node of a direct write', () => {
    const parsed = snippet(`let count = 0; let a; function run(v) { count += 1; [a] = v; for (a of v) {} }`);
    expect(
      parsed
        .identifiers('count')
        .slice(1)
        .map((identifier) => parsed.text(writingNode(identifier))),
    ).toEqual(['count += 1']);
    expect(
      parsed
        .identifiers('a')
        .slice(1)
        .map((identifier) => parsed.text(writingNode(identifier))),
    ).toEqual(['[a] = v', 'for (a of v) {}']);
  });
});

describe('latches and lazy initialisation', () => {
  it('knows a warn-once latch, and not a flag the tool acts on', () => {
    const latch = snippet(`let warned = false;
function run() { if (!warned) { warned = true; console.warn('deprecated'); } return 1; }`);
    expect(isLogOnlyLatch(latch.variable('warned'))).toBe(true);
    const flag = snippet(`let started = false;
function run() { if (!started) { started = true; boot(); } return 1; }`);
    expect(isLogOnlyLatch(flag.variable('started'))).toBe(false);
    const read = snippet(`let warned = false;
function run() { if (!warned) { warned = true; console.warn('x'); } return warned; }`);
    expect(isLogOnlyLatch(read.variable('warned'))).toBe(false);
  });

  it('knows a value made once on first use, unless it is a carrier', () => {
    const lazy = (code: string, write: string) => {
      const parsed = snippet(code);
      return isLazyInitialisation(parsed.node(write), parsed.fn('run'), settings);
    };
    expect(lazy(`let cached; function run() { cached ??= load(); return cached; }`, 'cached ??= load()')).toBe(true);
    expect(lazy(`let cached; function run() { if (!cached) cached = load(); return cached; }`, 'cached = load()')).toBe(true);
    expect(lazy(`let cached; function run() { if (cached) return cached; cached = load(); return cached; }`, 'cached = load()')).toBe(true);
    expect(lazy(`let cached = 0; function run() { cached = cached + 1; }`, 'cached = cached + 1')).toBe(false);
    expect(lazy(`let cached; function run() { cached ??= new CookieJar(); return cached; }`, 'cached ??= new CookieJar()')).toBe(false);
  });

  it('leaves a latch out of the tool’s state uses, and a lazy value in a helper it follows into', () => {
    const filePath = moduleFolder({
      'client.ts': `let client;
export function ensureClient() { client ??= createClient(); return client; }`,
    });
    const parsed = snippet(
      `import { ensureClient } from './client.js';
let warned = false;
buildTool({ name: 'search', async call(input) {
  if (!warned) { warned = true; console.warn('beta'); }
  return ensureClient().search(input.q);
} });`,
      filePath,
    );
    expect(parsed.uses()).toEqual([]);
    // The same helper that changes its module on every call is followed and reported.
    const eager = snippet(
      `import { ensureClient } from './eager.js';
buildTool({ name: 'search', async call(input) { return ensureClient().search(input.q); } });`,
      moduleFolder({
        'eager.ts': `const made = [];
export function ensureClient() { made.push(1); return createClient(); }`,
      }),
    );
    expect(eager.uses().map((use) => use.data['state'])).toEqual(['`made`, module state of eager.ts']);
  });
});

describe('changedStateIn', () => {
  it('names the first module binding or `this` field a function changes, lazy values skipped when asked', () => {
    const parsed = snippet(`let history = [];
let config;
export function remember(x) { const local = []; local.push(x); history.push(x); }
export function load() { config ??= read(); return config; }
class Thinking { process(x) { this.steps.push(x); return this.steps.length; } }`);
    expect([...moduleLevelNames(parsed.program)]).toEqual(['history', 'config']);
    expect(changedStateIn(parsed.fn('remember'), parsed.program, settings, false)).toBe('history');
    expect(changedStateIn(parsed.fn('load'), parsed.program, settings, false)).toBe('config');
    expect(changedStateIn(parsed.fn('load'), parsed.program, settings, false, true)).toBeUndefined();
    expect(changedStateIn(parsed.fn('process'), parsed.program, settings, true)).toBe('this.steps');
  });
});
