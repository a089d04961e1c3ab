// Recognising a driving call (state-mutation/driving-calls.ts): a call that
// changes the long-lived object it is made on, and the receivers that only
// carry this call's output or bookkeeping.
import { describe, expect, it } from 'vitest';

import { drivingCallOf, namesSharedObject, receiverSegments } from '../../../src/recognition/state-mutation/driving-calls.js';
import { settings, snippet } from './snippets.js';

/** The method `drivingCallOf` sees at the last mention of `root` in `code` (its use, after the parameter), if any. */
function drivenMethod(code: string, root: string, aliasName?: string): string | undefined {
  const parsed = snippet(code);
  const start = root === 'this' ? parsed.node('this', 'ThisExpression') : parsed.identifier(root, -1);
  return drivingCallOf(start, settings, aliasName)?.method;
}

describe('receiverSegments and namesSharedObject', () => {
  it('lists the names along a receiver chain, root first, through calls and awaits', () => {
    const code = snippet(`async function run(v3) { (await v3.context.awaitActivePage()).page.click(); }`);
    expect(receiverSegments(code.node('(await v3.context.awaitActivePage()).page'))).toEqual(['v3', 'context', 'awaitActivePage', 'page']);
    const method = snippet(`class T { run(x) { this.items.list.push(x); } }`);
    // `this` is left out: the field names say what the object is.
    expect(receiverSegments(method.node('this.items.list'))).toEqual(['items', 'list']);
  });

  it('knows a shared object by its last word, a bundler’s numeric suffix and all', () => {
    expect(namesSharedObject('activePage', settings)).toBe(true);
    expect(namesSharedObject('tab2', settings)).toBe(true);
    expect(namesSharedObject('v3', settings)).toBe(true);
    expect(namesSharedObject('pageSize', settings)).toBe(false);
    expect(namesSharedObject('text', settings)).toBe(false);
  });
});

describe('drivingCallOf', () => {
  it('finds a driving verb on a shared object and a state-changing method on any receiver', () => {
    expect(drivenMethod(`async function run(page, url) { await page.goto(url); }`, 'page', 'page')).toBe('goto');
    expect(drivenMethod(`class T { run(mode) { this.config.setApprovalMode(mode); } }`, 'this')).toBe('setApprovalMode');
    // A verb alone is not enough: the receiver must be named like a shared object.
    expect(drivenMethod(`function run(list) { list.click(); }`, 'list')).toBeUndefined();
  });

  it('leaves output channels, observability objects, value methods and disk writes alone', () => {
    expect(drivenMethod(`function run(writer, x) { writer.write(x); }`, 'writer')).toBeUndefined();
    expect(drivenMethod(`function run(response2, x) { response2.setHeader('a', x); }`, 'response2')).toBeUndefined();
    expect(drivenMethod(`function run(registry, x) { registry.setGlobalLogger(x); }`, 'registry')).toBeUndefined();
    expect(drivenMethod(`function run(page) { return page.indexOf('x'); }`, 'page')).toBeUndefined();
    expect(drivenMethod(`function run(agent, x) { agent.writeTextFile(x); }`, 'agent')).toBeUndefined();
    // …while the same receiver with a state-changing method is driven.
    expect(drivenMethod(`function run(agent, x) { agent.recordStep(x); }`, 'agent')).toBe('recordStep');
  });

  it('reports the call node and its receiver', () => {
    const code = snippet(`async function run(v3) { await v3.context.page.click(10, 20); }`);
    const found = drivingCallOf(code.identifier('v3', -1), settings);
    expect(found && { node: code.text(found.node), receiver: code.text(found.receiver) }).toEqual({
      node: 'v3.context.page.click(10, 20)',
      receiver: 'v3.context.page',
    });
  });
});
