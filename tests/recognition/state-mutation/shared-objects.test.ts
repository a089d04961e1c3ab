// Shared objects an invocation reaches without creating them
// (state-mutation/shared-objects.ts): the context argument, locals taken from
// it, objects a helper keeps and hands back, and callback parameters a helper
// hands such an object to.
import { describe, expect, it } from 'vitest';

import { snippet } from './snippets.js';

const usesOf = (code: string) => snippet(code).uses();

describe('the context argument and what is taken from it', () => {
  it('reports driving the context argument, and changing an element looked up in it', () => {
    expect(usesOf(`buildTool({ name: 'nav', async call(input, context) { await context.page.goto(input.url); return 'ok'; } });`)).toEqual([
      {
        kind: 'drivesSharedObject',
        data: { tool: 'nav', method: 'goto', object: "`context`, the invocation's context argument" },
        at: 'context.page.goto(input.url)',
      },
    ]);
    expect(
      usesOf(`buildTool({ name: 'done', async call(input, context) {
  const task = context.tasks.get(input.id);
  task.status = 'done';
  return context.tasks.size;
} });`),
    ).toEqual([
      {
        kind: 'mutatesOutlivingState',
        data: { tool: 'done', action: 'assigns a property of', state: "`task`, taken from `context`, the invocation's context argument" },
        at: "task.status = 'done'",
      },
    ]);
  });

  it('follows the context into a helper it is handed to, reporting at the call', () => {
    expect(
      usesOf(`function applyTaskMutation(ctx, id) { ctx.tasks.delete(id); }
buildTool({ name: 'drop', async call(input, context) { applyTaskMutation(context, input.id); return 'ok'; } });`),
    ).toEqual([
      {
        kind: 'mutatesOutlivingState',
        data: {
          tool: 'drop',
          action: 'calls `.delete()` on',
          state: "`context`, the invocation's context argument (in `applyTaskMutation`, which the invocation calls)",
        },
        at: 'applyTaskMutation(context, input.id)',
      },
    ]);
  });
});

describe('objects handed back and handed over', () => {
  it('knows a local a helper hands back from what it keeps between calls', () => {
    expect(
      usesOf(`const browser = createBrowser();
function currentPage() { return browser; }
buildTool({ name: 'shot', async call(input) { const page = currentPage(); await page.click(input.x); return 'ok'; } });`),
    ).toEqual([
      {
        kind: 'drivesSharedObject',
        data: { tool: 'shot', method: 'click', object: '`page`, taken from module-level `browser`, which `currentPage` returns' },
        at: 'page.click(input.x)',
      },
    ]);
  });

  it('treats a callback parameter named as a shared object as that object: driving counts, a delete on it does not', () => {
    expect(
      usesOf(`buildTool({ name: 'click', async call(input, context) {
  return safeExecute(context, async (page) => { await page.click(input.selector); page.items.delete(1); });
} });`),
    ).toEqual([
      {
        kind: 'drivesSharedObject',
        data: { tool: 'click', method: 'click', object: "`page`, handed over from `context`, the invocation's context argument" },
        at: 'page.click(input.selector)',
      },
    ]);
  });

  it('counts what a callback run now does, not what a function defined for later does', () => {
    expect(
      usesOf(
        `buildTool({ name: 'later', async call(input, context) { const page = context.page; const later = () => page.click(input.a); return later; } });`,
      ),
    ).toEqual([]);
    expect(
      usesOf(
        `buildTool({ name: 'now', async call(input, context) { const page = context.page; input.items.forEach(() => page.click(input.a)); return 'ok'; } });`,
      ).map((use) => use.at),
    ).toEqual(['page.click(input.a)']);
  });
});
