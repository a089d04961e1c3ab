// The shared text prefilter: the codemod skips ESLint for files no rule can
// report on, using the very function the rules use to skip those files, and
// still reports files that do not parse.
import { describe, expect, it } from 'vitest';

import {
  createEditingProject,
  createRuleFindingsCollector,
  DEFAULT_MAX_CHARS,
  migrateText,
  selectTransforms,
  type RuleFindingsCollector,
  type Transform,
} from '../../src/codemods/index.js';
import { mayProduceFindings } from '../../src/rules/index.js';
import { SELF_READING_TOOL } from './sources.js';
import { normalizeRecognitionSettings } from '../../src/recognition/settings.js';

const ALL_RULES = [
  'require-unbounded-self-reading-tool',
  'sentinel-before-override',
  'mark-seen-before-replacement',
  'clone-state-on-fork',
  'declare-tool-state-scope',
];

/** The real collector, recording which rules each lint ran. */
async function recordingCollector(): Promise<{ collector: RuleFindingsCollector; lints: string[][] }> {
  const real = await createRuleFindingsCollector();
  const lints: string[][] = [];
  return {
    lints,
    collector: {
      rulesThatMayReport: (text, ruleNames) => real.rulesThatMayReport(text, ruleNames),
      collect(text, filePath, ruleNames) {
        lints.push([...ruleNames]);
        return real.collect(text, filePath, ruleNames);
      },
    },
  };
}

const migrateAll = (text: string, filePath: string, collector: RuleFindingsCollector) =>
  migrateText(text, filePath, selectTransforms(undefined), collector, createEditingProject(), { defaultMaxChars: DEFAULT_MAX_CHARS });

const PLAIN_MODULE = `export function add(left: number, right: number): number {
  return left + right;
}
`;

describe('the codemod and the shared prefilter', () => {
  it('leaves a file no rule can report on unchanged without linting it', async () => {
    const { collector, lints } = await recordingCollector();
    const result = migrateAll(PLAIN_MODULE, '/project/src/add.ts', collector);
    expect(result).toMatchObject({ status: 'unchanged', text: PLAIN_MODULE, edits: {} });
    expect(lints).toEqual([]);
  });

  it('still skips and reports such a file when it does not parse', async () => {
    const { collector, lints } = await recordingCollector();
    const broken = 'export function add(left: number, right: number {\n  return left + right;\n}\n';
    const result = migrateAll(broken, '/project/src/add.ts', collector);
    expect(result.status).toBe('skipped');
    expect(result.text).toBe(broken);
    expect(result.reason).toMatch(/^does not parse \(1:\d+: .+\)$/);
    expect(lints).toEqual([]);
  });

  it('still checks that edits parse when they leave nothing any rule may report on', async () => {
    const { collector, lints } = await recordingCollector();
    const original = 'export const adopt = (state, id, text) => state.replacements.set(id, text);\n';
    // A transform whose edit breaks the file and removes everything the rules look for.
    const breaksTheFile: Transform = {
      name: 'breaks-the-file',
      description: 'replaces the file with code that does not parse',
      ruleName: 'mark-seen-before-replacement',
      run: () => ({ edits: [{ start: 0, end: original.length, text: 'export const adopt = (;\n' }], unresolved: [] }),
    };
    const result = migrateText(original, '/project/src/adopt.ts', [breaksTheFile], collector, createEditingProject(), {
      defaultMaxChars: DEFAULT_MAX_CHARS,
    });
    expect(lints).toEqual([['mark-seen-before-replacement']]);
    expect(result.status).toBe('error');
    expect(result.text).toBe(original);
    expect(result.reason).toMatch(/^the breaks-the-file transform produced code that does not parse/);
  });

  it('lints only the rules that may report, before and after the edits', async () => {
    const { collector, lints } = await recordingCollector();
    const result = migrateAll(SELF_READING_TOOL, '/project/src/read-file.ts', collector);
    expect(result.status).toBe('ok');
    expect(result.text).toContain('maxResultSizeChars = Infinity');
    // The file spells tools and `maxResultSizeChars`, but no seen set, replacements map or fork.
    expect(lints.length).toBeGreaterThan(0);
    for (const ruleNames of lints) {
      expect(ruleNames).toContain('require-unbounded-self-reading-tool');
      expect(ruleNames).not.toContain('mark-seen-before-replacement');
      expect(ruleNames).not.toContain('clone-state-on-fork');
    }
  });
});

describe('mayProduceFindings', () => {
  const defaults = normalizeRecognitionSettings(undefined);

  it('rules out a file that spells nothing any rule recognises', () => {
    expect(mayProduceFindings(PLAIN_MODULE, ALL_RULES, defaults)).toBe(false);
  });

  it('answers per rule, from the names each rule recognises', () => {
    const markSeenFile = 'export const adopt = (state, id, text) => state.replacements.set(id, text);\n';
    expect(mayProduceFindings(markSeenFile, ['mark-seen-before-replacement'], defaults)).toBe(true);
    expect(mayProduceFindings(markSeenFile, ['require-unbounded-self-reading-tool', 'clone-state-on-fork'], defaults)).toBe(false);
    const forkFile = 'export const run = (state) => spawnSubagent({ state });\n';
    expect(mayProduceFindings(forkFile, ['clone-state-on-fork'], defaults)).toBe(true);
    const resolverFile = 'export const limit = (declared, overrides) => overrides.get("limit") ?? declared;\n';
    expect(mayProduceFindings(resolverFile, ['sentinel-before-override'], defaults)).toBe(true);
    // `flags.get` is no override lookup the rule knows (no `override` in the name, none in the settings): nothing to report.
    const unknownLookupFile = 'export const limit = (declared, flags) => flags.get("limit") ?? declared;\n';
    expect(mayProduceFindings(unknownLookupFile, ['sentinel-before-override'], defaults)).toBe(false);
  });

  it('follows the names added in settings', () => {
    const delegating = 'export const run = (ledger) => delegate({ ledger });\n';
    expect(mayProduceFindings(delegating, ['clone-state-on-fork'], defaults)).toBe(false);
    const custom = normalizeRecognitionSettings({ forkCallees: ['workers.delegate'] });
    expect(mayProduceFindings(delegating, ['clone-state-on-fork'], custom)).toBe(true);
    const ledgerFile = 'export const adopt = (ledger, id) => ledger.previews.set(id, "x");\n';
    expect(mayProduceFindings(ledgerFile, ['mark-seen-before-replacement'], defaults)).toBe(false);
    const ledgerSettings = normalizeRecognitionSettings({ replacementsMapNames: ['previews'], seenSetNames: ['decided'] });
    expect(mayProduceFindings(ledgerFile, ['mark-seen-before-replacement'], ledgerSettings)).toBe(true);
  });

  it('does not rule out files that type information may reveal, nor rules it has no test for', () => {
    expect(mayProduceFindings(PLAIN_MODULE, ['mark-seen-before-replacement'], defaults, { hasTypeInformation: true })).toBe(true);
    expect(mayProduceFindings(PLAIN_MODULE, ['declare-tool-state-scope'], defaults, { hasTypeInformation: true })).toBe(true);
    expect(mayProduceFindings(PLAIN_MODULE, ['a-rule-without-a-text-test'], defaults)).toBe(true);
  });
});
