import { describe, expect, it } from 'vitest';
import {
  assertToolClassification,
  defineTool,
  ToolClassificationError,
  type ToolClassificationErrorCode,
} from '../../src/types/index.js';
import {
  EXTERNALLY_BOUNDED_TOOL_UNBOUNDED,
  INVALID_RESULT_LIMIT,
  SELF_READING_TOOL_NOT_UNBOUNDED,
  TOOL_NEEDS_NAME,
  TOOL_NOT_CLASSIFIED,
} from '../../src/types/messages.js';

const UNBOUNDED = Number.POSITIVE_INFINITY;

/** What a JavaScript caller (or an `as any` cast) can hand to defineTool. */
const defineUntyped = defineTool as (tool: unknown) => unknown;

function thrownBy(action: () => unknown): ToolClassificationError {
  try {
    action();
  } catch (error) {
    if (error instanceof ToolClassificationError) return error;
    throw error;
  }
  throw new Error('expected a ToolClassificationError, nothing was thrown');
}

describe('defineTool at run time', () => {
  it('returns the very same object for a correctly classified tool', () => {
    const readFile = { name: 'read_file', reads: 'path', maxResultSizeChars: UNBOUNDED, call: () => 'x' };
    expect(defineUntyped(readFile)).toBe(readFile);
    const bash = { name: 'bash', reads: 'none', maxResultSizeChars: 30_000 };
    expect(defineUntyped(bash)).toBe(bash);
  });

  it('accepts every reader kind with UNBOUNDED', () => {
    for (const reads of ['path', 'url', 'resource']) {
      expect(() => defineUntyped({ name: `t_${reads}`, reads, maxResultSizeChars: UNBOUNDED })).not.toThrow();
    }
  });

  it('accepts class instances, reading members through the prototype chain', () => {
    class ReadFileTool {
      readonly name = 'read_file';
      get reads() {
        return 'path';
      }
      readonly maxResultSizeChars = UNBOUNDED;
    }
    const tool = new ReadFileTool();
    expect(defineUntyped(tool)).toBe(tool);
  });

  const misclassified: Array<[string, unknown, ToolClassificationErrorCode, string]> = [
    ['a reader with a finite limit', { name: 'read_file', reads: 'path', maxResultSizeChars: 100_000 }, 'ERR_SELF_READING_TOOL_NOT_UNBOUNDED', SELF_READING_TOOL_NOT_UNBOUNDED],
    ['a url reader with NaN', { name: 'web_fetch', reads: 'url', maxResultSizeChars: Number.NaN }, 'ERR_SELF_READING_TOOL_NOT_UNBOUNDED', SELF_READING_TOOL_NOT_UNBOUNDED],
    ['a resource reader with -Infinity', { name: 'mcp_read', reads: 'resource', maxResultSizeChars: -Infinity }, 'ERR_SELF_READING_TOOL_NOT_UNBOUNDED', SELF_READING_TOOL_NOT_UNBOUNDED],
    ['a reader with the string "Infinity"', { name: 'read_file', reads: 'path', maxResultSizeChars: 'Infinity' }, 'ERR_SELF_READING_TOOL_NOT_UNBOUNDED', SELF_READING_TOOL_NOT_UNBOUNDED],
    ['a reader with no limit', { name: 'read_file', reads: 'path' }, 'ERR_SELF_READING_TOOL_NOT_UNBOUNDED', SELF_READING_TOOL_NOT_UNBOUNDED],
    ['a missing reads', { name: 'bash', maxResultSizeChars: 30_000 }, 'ERR_TOOL_NOT_CLASSIFIED', TOOL_NOT_CLASSIFIED],
    ['an unknown reads', { name: 'read_file', reads: 'file', maxResultSizeChars: UNBOUNDED }, 'ERR_TOOL_NOT_CLASSIFIED', TOOL_NOT_CLASSIFIED],
    ['a reads of the wrong case', { name: 'read_file', reads: 'PATH', maxResultSizeChars: UNBOUNDED }, 'ERR_TOOL_NOT_CLASSIFIED', TOOL_NOT_CLASSIFIED],
    ['"none" with UNBOUNDED', { name: 'bash', reads: 'none', maxResultSizeChars: UNBOUNDED }, 'ERR_EXTERNALLY_BOUNDED_TOOL_UNBOUNDED', EXTERNALLY_BOUNDED_TOOL_UNBOUNDED],
    ['"none" with zero', { name: 'bash', reads: 'none', maxResultSizeChars: 0 }, 'ERR_INVALID_RESULT_LIMIT', INVALID_RESULT_LIMIT],
    ['"none" with a negative limit', { name: 'bash', reads: 'none', maxResultSizeChars: -5 }, 'ERR_INVALID_RESULT_LIMIT', INVALID_RESULT_LIMIT],
    ['"none" with NaN', { name: 'bash', reads: 'none', maxResultSizeChars: Number.NaN }, 'ERR_INVALID_RESULT_LIMIT', INVALID_RESULT_LIMIT],
    ['"none" with a numeric string', { name: 'bash', reads: 'none', maxResultSizeChars: '30000' }, 'ERR_INVALID_RESULT_LIMIT', INVALID_RESULT_LIMIT],
    ['"none" with no limit', { name: 'bash', reads: 'none' }, 'ERR_INVALID_RESULT_LIMIT', INVALID_RESULT_LIMIT],
  ];

  it.each(misclassified)('throws for %s, with the compiler’s instruction and a code', (_label, tool, code, instruction) => {
    const error = thrownBy(() => defineUntyped(tool));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.name).toBe('ToolClassificationError');
    expect(error.code).toBe(code);
    expect(error.message).toContain(instruction);
    expect(error.message).toContain(`Tool "${(tool as { name: string }).name}"`);
  });

  it('names what it got for a limit that is not a number', () => {
    expect(thrownBy(() => defineUntyped({ name: 'bash', reads: 'none', maxResultSizeChars: '30000' })).message).toContain('(got "30000")');
    expect(thrownBy(() => defineUntyped({ name: 'bash', reads: 'none', maxResultSizeChars: Object.create(null) })).message).toContain('(got (object))');
  });

  it('rejects what is not a tool object', () => {
    for (const value of [null, undefined, 'read_file', 42]) {
      expect(thrownBy(() => defineUntyped(value)).code).toBe('ERR_TOOL_NOT_AN_OBJECT');
    }
  });

  it('rejects a tool without a string name, before anything else', () => {
    for (const name of [undefined, '', 42, null]) {
      const error = thrownBy(() => defineUntyped({ name, reads: 'path', maxResultSizeChars: 5 }));
      expect(error.code).toBe('ERR_TOOL_WITHOUT_NAME');
      expect(error.message).toContain(TOOL_NEEDS_NAME);
    }
  });

  it('assertToolClassification narrows an unknown value', () => {
    const fromPlugin: unknown = { name: 'read_file', reads: 'url', maxResultSizeChars: UNBOUNDED };
    assertToolClassification(fromPlugin);
    expect(fromPlugin.reads).toBe('url');
  });
});
