import { describe, expect, it } from 'vitest';
import {
  applyToolResultBudget,
  classifiedThresholdTool,
  classifyTool,
  createReplacementState,
  getToolClassification,
  ToolClassificationError,
  UNBOUNDED,
} from '../../src/index.js';
import { CountingStore } from './helpers.js';

/** A framework tool object: no name member for the classification, as the AI SDK's `tool()` returns. */
function frameworkTool(): { description: string; execute: (input: { path: string }) => Promise<string> } {
  return { description: 'Reads a file', execute: async (input) => input.path };
}

describe('classifyTool: a classification home for tools whose type has no field for it', () => {
  it('returns the same object, with its own members untouched, and records the classification beside it', () => {
    const tool = frameworkTool();
    const keys = Object.keys(tool);
    const classified = classifyTool(tool, { name: 'read_file', reads: 'path', maxResultSizeChars: UNBOUNDED });
    expect(classified).toBe(tool);
    expect(Object.keys(classified)).toEqual(keys);
    expect(getToolClassification(tool)).toEqual({ name: 'read_file', reads: 'path', maxResultSizeChars: Infinity });
    expect(Object.isFrozen(getToolClassification(tool))).toBe(true);
  });

  it('adds to an earlier classification of the same tool (a stateScope added after the limit)', () => {
    const tool = classifyTool(classifyTool(frameworkTool(), { maxResultSizeChars: 20_000 }), { stateScope: 'session' });
    expect(getToolClassification(tool)).toEqual({ maxResultSizeChars: 20_000, stateScope: 'session' });
  });

  it('has nothing for a tool that was never classified, or a non-object', () => {
    expect(getToolClassification(frameworkTool())).toBeUndefined();
    expect(getToolClassification(null)).toBeUndefined();
    expect(getToolClassification('read_file')).toBeUndefined();
  });

  it('rejects the same mistakes defineTool rejects, with its codes', () => {
    const attempt = (classification: object) => () => classifyTool(frameworkTool(), classification as never);
    expect(attempt({ reads: 'path', maxResultSizeChars: 50_000 })).toThrow(
      expect.objectContaining({ code: 'ERR_SELF_READING_TOOL_NOT_UNBOUNDED' }),
    );
    expect(attempt({ reads: 'url' })).toThrow(expect.objectContaining({ code: 'ERR_SELF_READING_TOOL_NOT_UNBOUNDED' }));
    expect(attempt({ reads: 'none', maxResultSizeChars: UNBOUNDED })).toThrow(
      expect.objectContaining({ code: 'ERR_EXTERNALLY_BOUNDED_TOOL_UNBOUNDED' }),
    );
    expect(attempt({ maxResultSizeChars: Number.NaN })).toThrow(expect.objectContaining({ code: 'ERR_INVALID_RESULT_LIMIT' }));
    expect(attempt({ reads: 'disk', maxResultSizeChars: UNBOUNDED })).toThrow(expect.objectContaining({ code: 'ERR_TOOL_NOT_CLASSIFIED' }));
    expect(attempt({ stateScope: 'global' })).toThrow(/stateScope must be 'isolated', 'session' or 'agent'/);
    expect(() => classifyTool(null as never, { maxResultSizeChars: 1 })).toThrow(ToolClassificationError);
  });

  it('names the tool for the budget: the given name, else the tool’s own name, else Mastra’s id', () => {
    expect(classifiedThresholdTool(classifyTool(frameworkTool(), { name: 'a', maxResultSizeChars: 10 }))).toEqual({
      name: 'a',
      maxResultSizeChars: 10,
    });
    expect(classifiedThresholdTool(classifyTool({ name: 'b' }, { maxResultSizeChars: 10 }))).toEqual({ name: 'b', maxResultSizeChars: 10 });
    expect(classifiedThresholdTool(classifyTool({ id: 'c' }, { maxResultSizeChars: 10 }))).toEqual({ name: 'c', maxResultSizeChars: 10 });
    expect(() => classifiedThresholdTool(classifyTool(frameworkTool(), { maxResultSizeChars: 10 }))).toThrow(
      expect.objectContaining({ code: 'ERR_TOOL_WITHOUT_NAME' }),
    );
    expect(classifiedThresholdTool(classifyTool(frameworkTool(), { stateScope: 'isolated' }))).toBeUndefined();
  });
});

describe('applyToolResultBudget reads classifyTool classifications back', () => {
  it('never persists a self-reading framework tool classified UNBOUNDED, and persists a bounded one over its limit', async () => {
    const readFile = classifyTool(frameworkTool(), { name: 'read_file', reads: 'path', maxResultSizeChars: UNBOUNDED });
    const search = classifyTool({ name: 'search', execute: async () => '' }, { reads: 'none', maxResultSizeChars: 1_000 });
    const store = new CountingStore();
    const outcome = await applyToolResultBudget(
      [
        { toolUseId: 'toolu_read', toolName: 'read_file', content: 'r'.repeat(5_000) },
        { toolUseId: 'toolu_search', toolName: 'search', content: 's'.repeat(5_000) },
      ],
      createReplacementState(),
      { store, tools: [readFile, search], perMessageLimit: 100_000, querySource: 'repl_main_thread', onPersistError: () => undefined },
    );
    expect(store.calls.has('toolu_read')).toBe(false);
    expect(store.calls.get('toolu_search')).toBe(1);
    expect(outcome.results[0]!.content).toBe('r'.repeat(5_000));
    expect(outcome.results[1]!.content).toMatch(/^<persisted-output>/);
  });
});
