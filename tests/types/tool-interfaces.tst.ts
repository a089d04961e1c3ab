import { describe, expect, test } from 'tstyche';
import {
  defineTool,
  UNBOUNDED,
  type ClassifiedTool,
  type FiniteResultLimit,
  type PersistableTool,
  type SelfReadingTool,
} from '../../src/index.js';

describe('class-based tools: implements SelfReadingTool / PersistableTool', () => {
  test('a self-reading class with UNBOUNDED compiles', () => {
    class ReadFileTool implements SelfReadingTool {
      readonly name = 'read_file';
      readonly reads = 'path';
      readonly maxResultSizeChars = UNBOUNDED;
      async call(input: { file_path: string }): Promise<string> {
        return input.file_path;
      }
    }
    expect<ReadFileTool>().type.toBeAssignableTo<SelfReadingTool>();
    expect<ReadFileTool>().type.toBeAssignableTo<ClassifiedTool>();
    expect<ReadFileTool>().type.not.toBeAssignableTo<PersistableTool>();
  });

  test('a persistable class with a finite literal or a plain number compiles', () => {
    class BashTool implements PersistableTool {
      readonly name = 'bash';
      readonly reads = 'none';
      readonly maxResultSizeChars = 30_000;
    }
    class GrepTool implements PersistableTool {
      readonly name: string = 'grep';
      readonly reads = 'none';
      maxResultSizeChars: FiniteResultLimit = 20_000;
    }
    expect<BashTool>().type.toBeAssignableTo<ClassifiedTool>();
    expect<GrepTool>().type.toBeAssignableTo<PersistableTool>();
    expect<BashTool>().type.not.toBeAssignableTo<SelfReadingTool>();
  });

  test('a self-reading class with a finite limit fails with the instruction', () => {
    class ReadFileTool implements SelfReadingTool {
      readonly name = 'read_file';
      readonly reads = 'path';
      // @ts-expect-error must declare maxResultSizeChars: UNBOUNDED
      readonly maxResultSizeChars = 100_000;
    }
    expect<ReadFileTool>().type.not.toBeAssignableTo<SelfReadingTool>();
  });

  test('a self-reading class with Infinity (typed number) fails with the instruction', () => {
    class WebFetchTool implements SelfReadingTool {
      readonly name = 'web_fetch';
      readonly reads = 'url';
      // @ts-expect-error must declare maxResultSizeChars: UNBOUNDED
      maxResultSizeChars = Infinity;
    }
    expect<WebFetchTool>().type.not.toBeAssignableTo<SelfReadingTool>();
  });

  test('a persistable class with UNBOUNDED fails with the instruction', () => {
    class BashTool implements PersistableTool {
      readonly name = 'bash';
      readonly reads = 'none';
      // @ts-expect-error A tool with reads: 'none' must declare a finite maxResultSizeChars
      readonly maxResultSizeChars = UNBOUNDED;
    }
    expect<BashTool>().type.not.toBeAssignableTo<PersistableTool>();
  });

  test('a configured limit annotated FiniteResultLimit (the style docs/types.md recommends) still rejects a pasted UNBOUNDED', () => {
    class GrepTool implements PersistableTool {
      readonly name = 'grep';
      readonly reads = 'none';
      // @ts-expect-error A tool with reads: 'none' must declare a finite maxResultSizeChars
      maxResultSizeChars: FiniteResultLimit = UNBOUNDED;
    }
    expect<GrepTool>().type.toBeAssignableTo<PersistableTool>();
  });

  test('a limit annotated `number` widens UNBOUNDED and defeats the check (why the docs recommend FiniteResultLimit)', () => {
    class GrepTool implements PersistableTool {
      readonly name = 'grep';
      readonly reads = 'none';
      maxResultSizeChars: number = UNBOUNDED;
    }
    expect<GrepTool>().type.toBeAssignableTo<PersistableTool>();
  });

  test('a mutable `reads` widens to string and is caught', () => {
    class ReadResourceTool implements SelfReadingTool {
      readonly name = 'read_resource';
      // @ts-expect-error Type 'string' is not assignable to type 'SelfReadingKind'
      reads = 'resource';
      readonly maxResultSizeChars = UNBOUNDED;
    }
    expect<ReadResourceTool>().type.not.toBeAssignableTo<SelfReadingTool>();
  });

  test('a class instance also goes through defineTool, with the same checks', () => {
    class ReadFileTool {
      readonly name = 'read_file';
      readonly reads = 'path';
      readonly maxResultSizeChars = 100_000;
    }
    // @ts-expect-error must declare maxResultSizeChars: UNBOUNDED
    defineTool(new ReadFileTool());
  });

  test('a registry typed ClassifiedTool[] takes both kinds and refuses the misclassified', () => {
    const register = (tools: readonly ClassifiedTool[]) => tools.length;
    expect(register).type.toBeCallableWith([
      { name: 'read_file', reads: 'path', maxResultSizeChars: UNBOUNDED },
      { name: 'bash', reads: 'none', maxResultSizeChars: 30_000 },
    ]);
    expect(register).type.not.toBeCallableWith([{ name: 'read_file', reads: 'path', maxResultSizeChars: 100_000 }]);
  });
});
