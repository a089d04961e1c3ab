// The entry analysis (state-mutation/entry-analysis.ts): every function that
// runs on one tool's call (its invocation, the methods and helpers it calls, a
// factory's wrapper), what `this` is in each, and one use per state; and the
// stage's entry (state-mutation/index.ts) that exports it.
import { describe, expect, it } from 'vitest';

import * as recognition from '../../../src/recognition/index.js';
import * as entry from '../../../src/recognition/state-mutation/entry-analysis.js';
import * as stage from '../../../src/recognition/state-mutation/index.js';
import { snippet } from './snippets.js';

describe('findOutlivingStateUses: the functions that run on a call', () => {
  it('follows `this.method()` of a class tool and reports at the call, once however often it is called', () => {
    expect(
      snippet(`class MemoTool extends BaseTool {
  notes = [];
  async call(input) { this.remember(input.text); this.remember(input.more); return 'ok'; }
  remember(text) { this.notes.push(text); }
}`).uses(),
    ).toEqual([
      {
        kind: 'mutatesOutlivingState',
        data: {
          tool: 'MemoTool',
          action: 'calls `.push()` on',
          state: 'instance field `this.notes` (in `this.remember`, which the invocation calls)',
        },
        at: 'this.remember(input.text)',
      },
    ]);
  });

  it('analyses a factory’s wrapper around the invocation and reports it at the tool', () => {
    expect(
      snippet(`const defineTabTool = (tool) => ({ ...tool, handle: async (context, params) => {
  const tab = await context.ensureTab();
  context.calls.push(params);
  return tool.handle(tab, params);
} });
export const click = defineTabTool({ schema: { name: 'browser_click' }, handle: async (tab, params) => 'ok' });`).uses(),
    ).toEqual([
      {
        kind: 'mutatesOutlivingState',
        data: {
          tool: 'browser_click',
          action: 'calls `.push()` on',
          state: "`context`, the invocation's context argument (in `defineTabTool`, which wraps the invocation)",
        },
        at: "{ schema: { name: 'browser_click' }, handle: async (tab, params) => 'ok' }",
      },
    ]);
  });

  it('reads `this` in a method of a tool object as the tool object, which outlives the call', () => {
    expect(
      snippet(`buildTool({ name: 'count', count: 0, async call(input) { this.count += 1; this.log.push(input); return 'ok'; } });`)
        .uses()
        .map((use) => [use.data['action'], use.data['state'], use.at]),
    ).toEqual([
      ['assigns', 'property `count` of the tool object', 'this.count += 1'],
      ['calls `.push()` on', 'property `log` of the tool object', 'this.log.push(input)'],
    ]);
  });

  it('reports nothing for a tool that only uses what the call creates', () => {
    expect(
      snippet(`buildTool({ name: 'pure', async call(input) { const seen = new Set(input.ids); seen.add(1); return [...seen]; } });`).uses(),
    ).toEqual([]);
  });
});

describe('the stage’s entry', () => {
  it('exports the declarable scopes, the one list the runtime and the types use', () => {
    expect(stage.STATE_SCOPE_VALUES).toEqual(['isolated', 'session', 'agent']);
  });

  it('re-exports the entry analysis itself, as the recognition core does: one implementation', () => {
    expect(Object.keys(stage).sort()).toEqual(['STATE_SCOPE_VALUES', 'findDeclaredStateScope', 'findOutlivingStateUses']);
    expect(stage.findOutlivingStateUses).toBe(entry.findOutlivingStateUses);
    expect(stage.findDeclaredStateScope).toBe(entry.findDeclaredStateScope);
    expect(recognition.findOutlivingStateUses).toBe(entry.findOutlivingStateUses);
    expect(recognition.findDeclaredStateScope).toBe(entry.findDeclaredStateScope);
    expect(recognition.STATE_SCOPE_VALUES).toBe(entry.STATE_SCOPE_VALUES);
  });

  it('finds a declared scope, which the rule then checks instead of asking for one', () => {
    const code = snippet(`buildTool({ name: 'kept', stateScope: 'session', async call(input) { history.push(input); return 'ok'; } });`);
    const member = stage.findDeclaredStateScope(code.definitions[0]!, code.recognition);
    expect(member && code.text(member.value!)).toBe("'session'");
  });
});
