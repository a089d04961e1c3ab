// The rules' text prefilters on their own: each is the cheapest necessary
// condition of its rule's reports, so a `false` must be certain. These pin
// the words each one looks for, in any case, and that a text without them is
// skipped.
import { describe, expect, it } from 'vitest';

import {
  DEFAULT_RECOGNITION_SETTINGS,
  type TextTest,
  mayDefineToolsInText,
  mayForkInText,
  mayPersistForQuerySourceInText,
  mayResolveThresholdInText,
  mayTouchReplacementStateInText,
  mayWriteReplacementAndPersistInText,
  normalizeRecognitionSettings,
} from '../../src/recognition/index.js';

const settings = DEFAULT_RECOGNITION_SETTINGS;
const untyped = (): boolean => false;
const passes = (test: TextTest, text: string, withSettings = settings): boolean => test(text, withSettings, untyped);

describe('the rules’ text prefilters', () => {
  it('tool definitions: `tool` in any case, the classification member, or a configured name', () => {
    expect(passes(mayDefineToolsInText, 'server.registerTool("x", {}, handler)')).toBe(true);
    expect(passes(mayDefineToolsInText, 'const TOOLS = [];')).toBe(true);
    expect(passes(mayDefineToolsInText, 'x.maxresultsizechars = 5')).toBe(true);
    expect(passes(mayDefineToolsInText, 'export const add = (a, b) => a + b;')).toBe(false);
    const custom = normalizeRecognitionSettings({ toolFactories: ['Capabilities.makeAction'] });
    expect(passes(mayDefineToolsInText, 'makeAction({ run() {} })', custom)).toBe(true);
  });

  it('threshold resolvers: `maxResultSizeChars` or `declared` in any case, with an override lookup to report', () => {
    expect(passes(mayResolveThresholdInText, 'const Declared = tool.limit; return overrides[tool.name];')).toBe(true);
    expect(passes(mayResolveThresholdInText, 'const d = tool.maxResultSizeChars; return getFeatureValue(name);')).toBe(true);
    // A resolver with no lookup has nothing to put the sentinel before.
    expect(passes(mayResolveThresholdInText, 'const declared = tool.maxResultSizeChars; return declared;')).toBe(false);
    expect(passes(mayResolveThresholdInText, 'const limit = overrides[name];')).toBe(false);
    // Words that only start like one: no table is named so.
    expect(passes(mayResolveThresholdInText, 'const declared = 1; // can be overridden by overrideConfig')).toBe(false);
    expect(passes(mayResolveThresholdInText, 'const declared = t.maxResultSizeChars; return toolOverrides?.[name];')).toBe(true);
    const custom = normalizeRecognitionSettings({ overrideLookups: ['remote.limits'] });
    expect(passes(mayResolveThresholdInText, 'const declared = t.maxResultSizeChars; const v = remote?.limits[name];', custom)).toBe(true);
  });

  it('forks: fork, subagent, spawn, resume, branch or a configured callee', () => {
    expect(passes(mayForkInText, 'await SpawnSubagent(state)')).toBe(true);
    expect(passes(mayForkInText, 'await runAGENT(state)')).toBe(true);
    expect(passes(mayForkInText, 'await start(state)')).toBe(false);
    const custom = normalizeRecognitionSettings({ forkCallees: ['launchHelper'] });
    expect(passes(mayForkInText, 'await launchHelper(state)', custom)).toBe(true);
  });

  it('owned sessions: a query source in any case', () => {
    expect(passes(mayPersistForQuerySourceInText, 'if (QuerySource.startsWith("x")) store.persist()')).toBe(true);
    expect(passes(mayPersistForQuerySourceInText, 'store.persist(id, text)')).toBe(false);
  });

  it('frozen fates: replacement writes with a persistence call, and seen marks', () => {
    expect(passes(mayWriteReplacementAndPersistInText, 'replacements.set(id, await PERSIST(id))')).toBe(true);
    expect(passes(mayWriteReplacementAndPersistInText, 'replacements.set(id, preview)')).toBe(false);
    expect(passes(mayTouchReplacementStateInText, 'state.seenIds.add(id)')).toBe(true);
    expect(passes(mayTouchReplacementStateInText, 'state.ids.add(id)')).toBe(false);
  });
});
