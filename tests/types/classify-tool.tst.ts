import { describe, expect, test } from 'tstyche';
import { classifyTool, UNBOUNDED } from '../../src/index.js';

/** A framework tool type with no classification members, as the AI SDK, LangChain and Mastra have. */
interface FrameworkTool<Input> {
  readonly description: string;
  execute(input: Input): Promise<string>;
}

declare const readFile: FrameworkTool<{ path: string }>;

describe('classifyTool: correct uses compile and keep the tool’s own type', () => {
  test('a self-reading tool with UNBOUNDED', () => {
    expect(classifyTool(readFile, { reads: 'path', maxResultSizeChars: UNBOUNDED })).type.toBe<FrameworkTool<{ path: string }>>();
  });

  test('a tool that reads nothing the model names, with a finite limit', () => {
    expect(classifyTool(readFile, { reads: 'none', maxResultSizeChars: 50_000 })).type.toBe<FrameworkTool<{ path: string }>>();
  });

  test('a stateScope alone, or a limit without reads', () => {
    expect(classifyTool(readFile, { stateScope: 'session' })).type.toBe<FrameworkTool<{ path: string }>>();
    expect(classifyTool(readFile, { name: 'read', maxResultSizeChars: 1_000 })).type.toBe<FrameworkTool<{ path: string }>>();
  });
});

describe('classifyTool: misclassified tools are compile errors whose text is the fix', () => {
  test('a self-reading tool with a finite limit', () => {
    // @ts-expect-error must declare maxResultSizeChars: UNBOUNDED
    classifyTool(readFile, { reads: 'url', maxResultSizeChars: 50_000 });
  });

  test('a self-reading tool with the plain number Infinity (only the UNBOUNDED brand proves the opt-out)', () => {
    // @ts-expect-error must declare maxResultSizeChars: UNBOUNDED
    classifyTool(readFile, { reads: 'path', maxResultSizeChars: Infinity });
  });

  test('a self-reading tool without a limit', () => {
    // @ts-expect-error must declare maxResultSizeChars: UNBOUNDED
    classifyTool(readFile, { reads: 'resource' });
  });

  test("a reads: 'none' tool that opted out of persistence", () => {
    // @ts-expect-error must declare a finite maxResultSizeChars
    classifyTool(readFile, { reads: 'none', maxResultSizeChars: UNBOUNDED });
  });

  test('an unknown stateScope', () => {
    // @ts-expect-error Type '"global"' is not assignable
    classifyTool(readFile, { stateScope: 'global' });
  });
});
