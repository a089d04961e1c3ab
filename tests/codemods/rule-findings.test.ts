// The collector that runs the rules for the codemods: one lint config per
// run, normalised by ESLint once, and each lint reporting only the rules it
// was asked for.
import { Linter } from 'eslint';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { createRuleFindingsCollector } from '../../src/codemods/index.js';
import { SELF_READING_TOOL } from './sources.js';

const SELF_READING_RULE = 'require-unbounded-self-reading-tool';
const STATE_SCOPE_RULE = 'declare-tool-state-scope';

const STATEFUL_TOOL = `let calls = 0;

export class CounterTool {
  readonly name = 'counter';
  readonly maxResultSizeChars = 1_000;

  async call() {
    calls += 1;
    return String(calls);
  }
}
`;

const hasGetConfig = (config: unknown): boolean => typeof (config as { getConfig?: unknown }).getConfig === 'function';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the rule findings collector', () => {
  it('lets ESLint normalise its config once, then hands it the normalised array', async () => {
    const verify = vi.spyOn(Linter.prototype, 'verify');
    const collector = await createRuleFindingsCollector();
    collector.collect(SELF_READING_TOOL, '/project/src/read-file.ts', [SELF_READING_RULE]);
    collector.collect(STATEFUL_TOOL, '/project/src/counter.ts', [SELF_READING_RULE, STATE_SCOPE_RULE]);
    collector.collect(STATEFUL_TOOL, '/project/src/counter.ts', [STATE_SCOPE_RULE]);

    const configs = verify.mock.calls.map((call) => call[1]);
    expect(configs).toHaveLength(3);
    expect(hasGetConfig(configs[0])).toBe(false);
    expect(hasGetConfig(configs[1])).toBe(true);
    // One config for every set of rules: the same array each time.
    expect(configs[2]).toBe(configs[1]);
  });

  it('reports only the rules a lint asks for, as a collector that lints with those rules alone', async () => {
    const collector = await createRuleFindingsCollector();
    const both = collector.collect(STATEFUL_TOOL, '/project/src/counter.ts', [SELF_READING_RULE, STATE_SCOPE_RULE]);
    const stateScopeOnly = collector.collect(STATEFUL_TOOL, '/project/src/counter.ts', [STATE_SCOPE_RULE]);
    const fresh = await createRuleFindingsCollector();
    const stateScopeFirst = fresh.collect(STATEFUL_TOOL, '/project/src/counter.ts', [STATE_SCOPE_RULE]);

    expect(both.map((finding) => finding.ruleName)).toContain(STATE_SCOPE_RULE);
    expect(stateScopeOnly.length).toBeGreaterThan(0);
    expect(stateScopeOnly.every((finding) => finding.ruleName === STATE_SCOPE_RULE)).toBe(true);
    const summary = (findings: typeof both) =>
      findings.map(({ ruleName, messageId, line, column, data }) => ({ ruleName, messageId, line, column, data }));
    expect(summary(stateScopeOnly)).toEqual(summary(stateScopeFirst));
    expect(summary(both.filter((finding) => finding.ruleName === STATE_SCOPE_RULE))).toEqual(summary(stateScopeOnly));
  });

  it('names a rule this build does not have', async () => {
    const collector = await createRuleFindingsCollector();
    expect(() => collector.collect(SELF_READING_TOOL, '/project/src/read-file.ts', ['no-such-rule'])).toThrow(
      /The rule "no-such-rule" is not in this build/,
    );
  });
});
