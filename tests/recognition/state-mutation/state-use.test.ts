// What the state analysis hands on (state-mutation/state-use.ts): one StateUse
// per state, named for the tool, reported where the caller says, and tied to
// the function it was found in.
import { describe, expect, it } from 'vitest';

import { type StateUse, stateUseMaker } from '../../../src/recognition/state-mutation/state-use.js';
import { snippet } from './snippets.js';

describe('stateUseMaker', () => {
  const code = snippet(`const store = new Map();
function helper(k) { store.set(k, 1); }
function run(input) { helper(input.k); }`);
  const helper = code.fn('helper');
  const change = code.node('store.set(k, 1)');

  it('makes the three kinds with their message data, the tool named first', () => {
    const report = stateUseMaker('remember', helper, (node) => node);
    const uses: StateUse[] = [
      report.mutates(change, 'calls `.set()` on', 'module-level `store`', 'variable:store:6'),
      report.drives(change, 'set', '`store`', 'variable:store:6'),
      report.usesCarrier(change, 'cookie jar', 'jar', 'at module level', 'variable:jar:0'),
    ];
    expect(uses.map((use) => ({ kind: use.messageId, data: use.data, key: use.stateKey }))).toEqual([
      {
        kind: 'mutatesOutlivingState',
        data: { tool: 'remember', action: 'calls `.set()` on', state: 'module-level `store`' },
        key: 'variable:store:6',
      },
      { kind: 'drivesSharedObject', data: { tool: 'remember', method: 'set', object: '`store`' }, key: 'variable:store:6' },
      {
        kind: 'usesSharedCarrier',
        data: { tool: 'remember', carrier: 'cookie jar', name: 'jar', where: 'at module level' },
        key: 'variable:jar:0',
      },
    ]);
    expect(uses.every((use) => use.function === helper && use.node === change)).toBe(true);
  });

  it('reports where `at` says: a helper’s findings land at the call in the invocation', () => {
    const callSite = code.node('helper(input.k)');
    const use = stateUseMaker('remember', helper, () => callSite).mutates(change, 'assigns', 'module-level `store`', 'k');
    expect(code.text(use.node)).toBe('helper(input.k)');
    // The function stays the helper: uses are told apart per function, not per report site.
    expect(use.function).toBe(helper);
  });

  it('is what findOutlivingStateUses returns, one kind each for a change, a drive and a carrier', () => {
    const tool = snippet(`import { CookieJar } from 'tough-cookie';
const jar = new CookieJar();
const seen = new Set();
export const make = (v3) => buildTool({ name: 'browse', async call(input) {
  seen.add(input.url);
  await v3.page.goto(input.url);
  return fetchWithJar(jar, input.url);
} });`);
    expect(tool.uses().map((use) => [use.kind, Object.keys(use.data).sort()])).toEqual([
      ['mutatesOutlivingState', ['action', 'state', 'tool']],
      ['drivesSharedObject', ['method', 'object', 'tool']],
      ['usesSharedCarrier', ['carrier', 'name', 'tool', 'where']],
    ]);
  });
});
