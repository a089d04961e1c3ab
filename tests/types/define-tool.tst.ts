import { describe, expect, test } from 'tstyche';
import {
  defineTool,
  UNBOUNDED,
  type ClassifiedTool,
  type SelfReadingTool,
  type ToolReads,
  type Unbounded,
} from '../../src/index.js';

interface ReadInput {
  readonly path: string;
}

describe('defineTool: correct uses compile and keep their types', () => {
  test('a self-reading tool with UNBOUNDED', () => {
    const readFile = defineTool({
      name: 'read_file',
      reads: 'path',
      maxResultSizeChars: UNBOUNDED,
      async call(input: ReadInput) {
        return input.path;
      },
    });
    expect(readFile.name).type.toBe<'read_file'>();
    expect(readFile.reads).type.toBe<'path'>();
    expect(readFile.maxResultSizeChars).type.toBe<Unbounded>();
    expect(readFile.call).type.toBe<(input: ReadInput) => Promise<string>>();
    expect(readFile).type.toBeAssignableTo<SelfReadingTool>();
    expect(readFile).type.toBeAssignableTo<ClassifiedTool>();
  });

  test('every reader kind: path, url, resource', () => {
    expect(defineTool({ name: 'fetch', reads: 'url', maxResultSizeChars: UNBOUNDED }).reads).type.toBe<'url'>();
    expect(defineTool({ name: 'mcp', reads: 'resource', maxResultSizeChars: UNBOUNDED }).reads).type.toBe<'resource'>();
  });

  test('a tool that reads nothing the model names, with a finite literal or a plain number', () => {
    const bash = defineTool({ name: 'bash', reads: 'none', maxResultSizeChars: 30_000 });
    expect(bash.maxResultSizeChars).type.toBe<30_000>();
    expect(bash).type.toBeAssignableTo<ClassifiedTool>();
    const configuredLimit: number = 50_000;
    const grep = defineTool({ name: 'grep', reads: 'none', maxResultSizeChars: configuredLimit });
    expect(grep.maxResultSizeChars).type.toBe<number>();
  });

  test('an `as const` object declared before the call', () => {
    const spec = { name: 'web_fetch', reads: 'url', maxResultSizeChars: UNBOUNDED } as const;
    expect(defineTool(spec)).type.toBe<typeof spec>();
  });

  test('an object whose members are typed, not literal', () => {
    const spec: { name: string; reads: 'resource'; maxResultSizeChars: Unbounded; description: string } = {
      name: 'read_resource',
      reads: 'resource',
      maxResultSizeChars: UNBOUNDED,
      description: 'reads an MCP resource',
    };
    expect(defineTool(spec).description).type.toBe<string>();
  });

  test('extra members pass through: schemas, descriptions, generic methods', () => {
    const tool = defineTool({
      name: 'read_many',
      reads: 'path',
      maxResultSizeChars: UNBOUNDED,
      inputSchema: { type: 'object', required: ['paths'] },
      call<Paths extends readonly string[]>(paths: Paths): { [Index in keyof Paths]: string } {
        return paths.map((path) => path.toUpperCase()) as { [Index in keyof Paths]: string };
      },
    });
    expect(tool.inputSchema.required).type.toBe<readonly ['paths']>();
    expect(tool.call(['a', 'b'] as const)).type.toBe<readonly [string, string]>();
  });

  test('inside a generic factory', () => {
    function defineReader<Name extends string, Input>(name: Name, call: (input: Input) => Promise<string>) {
      return defineTool({ name, reads: 'path', maxResultSizeChars: UNBOUNDED, call });
    }
    const reader = defineReader('read_notes', async (input: { notebook: string }) => input.notebook);
    expect(reader.name).type.toBe<'read_notes'>();
    expect(reader.call).type.toBe<(input: { notebook: string }) => Promise<string>>();
    expect(reader).type.toBeAssignableTo<SelfReadingTool>();
  });

  test('a generic wrapper over classified tools keeps the exact type', () => {
    function withAudit<Tool extends SelfReadingTool>(tool: Tool): Tool & { readonly audited: true } {
      return Object.assign(tool, { audited: true as const });
    }
    const audited = withAudit(defineTool({ name: 'web_fetch', reads: 'url', maxResultSizeChars: UNBOUNDED }));
    expect(audited.reads).type.toBe<'url'>();
    expect(audited.audited).type.toBe<true>();
    // @ts-expect-error must declare maxResultSizeChars: UNBOUNDED
    withAudit({ name: 'web_fetch', reads: 'url', maxResultSizeChars: 50_000 });
  });

  test('an `as any` argument compiles: the run-time check is what catches it', () => {
    const fromJavaScript: any = { name: 'read_file', reads: 'path', maxResultSizeChars: 100_000 };
    // A type error here would fail this file; none is expected.
    defineTool(fromJavaScript);
  });

  test('a class instance', () => {
    class ListDirectoryTool {
      readonly name = 'list_directory';
      readonly reads = 'none';
      readonly maxResultSizeChars = 20_000;
      #calls = 0;
      private readonly root = '/';
      list(): string {
        this.#calls += 1;
        return `${this.root} (${this.#calls})`;
      }
    }
    expect(defineTool(new ListDirectoryTool())).type.toBe<ListDirectoryTool>();
  });
});

describe('defineTool: every member style keeps the guard (context-sensitive members included)', () => {
  test('method shorthand, as in the first example of docs/types.md', () => {
    const readFile = defineTool({
      name: 'read_file',
      reads: 'path',
      maxResultSizeChars: UNBOUNDED,
      async call(input: ReadInput) {
        return input.path;
      },
    });
    expect(readFile.reads).type.toBe<'path'>();
    expect(readFile.call).type.toBe<(input: ReadInput) => Promise<string>>();
  });

  test('a method that uses `this`', () => {
    const readFile = defineTool({
      name: 'read_file',
      reads: 'path',
      maxResultSizeChars: UNBOUNDED,
      root: '/workspace',
      resolve(input: ReadInput) {
        return `${this.root}/${input.path}`;
      },
      async call(input: ReadInput) {
        return `${this.name}: ${this.resolve(input)}`;
      },
    });
    expect(readFile.name).type.toBe<'read_file'>();
    expect(readFile.maxResultSizeChars).type.toBe<Unbounded>();
    expect(readFile.call).type.toBe<(input: ReadInput) => Promise<string>>();
    expect(readFile).type.toBeAssignableTo<SelfReadingTool>();
  });

  test('a `this` method on a tool that reads nothing the model names', () => {
    const bash = defineTool({
      name: 'bash',
      reads: 'none',
      maxResultSizeChars: 30_000,
      describe() {
        return `${this.name} keeps ${this.maxResultSizeChars} characters inline`;
      },
    });
    expect(bash.maxResultSizeChars).type.toBe<30_000>();
    expect(bash.describe).type.toBe<() => string>();
  });

  test('arrow members and getters', () => {
    const fetchTool = defineTool({
      name: 'web_fetch',
      reads: 'url',
      maxResultSizeChars: UNBOUNDED,
      call: async (input: { url: string }) => input.url,
      get description() {
        return 'fetches a URL';
      },
    });
    expect(fetchTool.call).type.toBe<(input: { url: string }) => Promise<string>>();
    expect(fetchTool.description).type.toBe<string>();
    expect(fetchTool.reads).type.toBe<'url'>();
  });

  test('a misclassified tool with a `this` method gets only its own instruction', () => {
    defineTool({
      name: 'read_file',
      reads: 'path',
      // @ts-expect-error must declare maxResultSizeChars: UNBOUNDED
      maxResultSizeChars: 100_000,
      async call(input: ReadInput) {
        return `${this.name}: ${input.path}`;
      },
    });
    defineTool({
      name: 'read_file',
      reads: 'path',
      // @ts-expect-error must declare maxResultSizeChars: UNBOUNDED
      maxResultSizeChars: 100_000,
      async call(input: ReadInput) {
        return input.path;
      },
    });
  });

  test('a reader with methods and no limit gets only the limit instruction', () => {
    // @ts-expect-error must declare maxResultSizeChars: UNBOUNDED
    defineTool({
      name: 'read_file',
      reads: 'path',
      async call(input: ReadInput) {
        return `${this.name}: ${input.path}`;
      },
    });
  });
});

describe('defineTool: a misclassified tool fails with the instruction', () => {
  test('a reader with a finite literal', () => {
    // @ts-expect-error must declare maxResultSizeChars: UNBOUNDED
    defineTool({ name: 'read_file', reads: 'path', maxResultSizeChars: 100_000 });
    // @ts-expect-error must declare maxResultSizeChars: UNBOUNDED
    defineTool({ name: 'web_fetch', reads: 'url', maxResultSizeChars: 50_000 });
    // @ts-expect-error must declare maxResultSizeChars: UNBOUNDED
    defineTool({ name: 'read_resource', reads: 'resource', maxResultSizeChars: 1 });
  });

  test('a reader with a plain number, including Infinity (typed number)', () => {
    const configuredLimit: number = Number.POSITIVE_INFINITY;
    // @ts-expect-error must declare maxResultSizeChars: UNBOUNDED
    defineTool({ name: 'read_file', reads: 'path', maxResultSizeChars: configuredLimit });
    // @ts-expect-error must declare maxResultSizeChars: UNBOUNDED
    defineTool({ name: 'read_file', reads: 'path', maxResultSizeChars: Infinity });
  });

  test('a reader with a widened union that is sometimes finite', () => {
    const limit = Math.random() > 0.5 ? UNBOUNDED : 100_000;
    expect(limit).type.toBe<Unbounded | 100_000>();
    // @ts-expect-error must declare maxResultSizeChars: UNBOUNDED
    defineTool({ name: 'read_file', reads: 'path', maxResultSizeChars: limit });
  });

  test('an `as const` object with a finite limit', () => {
    const spec = { name: 'read_file', reads: 'path', maxResultSizeChars: 100_000 } as const;
    // @ts-expect-error Types of property 'maxResultSizeChars' are incompatible...must declare maxResultSizeChars: UNBOUNDED
    defineTool(spec);
  });

  test('a generic limit that could be finite', () => {
    function defineReader<Limit extends number>(maxResultSizeChars: Limit) {
      // @ts-expect-error must declare maxResultSizeChars: UNBOUNDED
      return defineTool({ name: 'read_file', reads: 'path', maxResultSizeChars });
    }
    expect(defineReader).type.not.toBe<never>();
  });

  test('a `reads` that could be a reader or "none" is not a classification', () => {
    const reads = 'path' as ToolReads;
    // @ts-expect-error must declare maxResultSizeChars: UNBOUNDED
    defineTool({ name: 'read_file', reads, maxResultSizeChars: 30_000 });
  });

  test('a missing `reads`', () => {
    // @ts-expect-error Classify every tool: add reads: 'path' | 'url' | 'resource'
    defineTool({ name: 'bash', maxResultSizeChars: 30_000 });
  });

  test('an unknown `reads`', () => {
    // @ts-expect-error Classify every tool
    defineTool({ name: 'read_file', reads: 'file', maxResultSizeChars: UNBOUNDED });
  });

  test('"none" with UNBOUNDED: opting an externally bounded tool out of persistence', () => {
    // @ts-expect-error A tool with reads: 'none' must declare a finite maxResultSizeChars
    defineTool({ name: 'bash', reads: 'none', maxResultSizeChars: UNBOUNDED });
  });

  test('"none" with a limit that may be UNBOUNDED', () => {
    const flag = Math.random() > 0.5;
    // @ts-expect-error A tool with reads: 'none' must declare a finite maxResultSizeChars
    defineTool({ name: 'bash', reads: 'none', maxResultSizeChars: flag ? UNBOUNDED : 30_000 });
  });

  test('"none" with UNBOUNDED: the first line of the error is the fix', () => {
    // @ts-expect-error Type '"none"' is not assignable to type '"none" & Instruction<"A tool with reads: 'none' must declare a finite maxResultSizeChars
    defineTool({ name: 'bash', reads: 'none', maxResultSizeChars: UNBOUNDED });
  });

  test('Infinity on a reader: the error says why only UNBOUNDED proves it', () => {
    // @ts-expect-error TypeScript types the literal Infinity as number
    defineTool({ name: 'web_fetch', reads: 'url', maxResultSizeChars: Infinity });
  });

  test('an `any` reads proves nothing: it counts as a reader', () => {
    const reads: any = 'none';
    // @ts-expect-error must declare maxResultSizeChars: UNBOUNDED
    defineTool({ name: 'bash', reads, maxResultSizeChars: 30_000 });
    expect(defineTool({ name: 'read_any', reads, maxResultSizeChars: UNBOUNDED }).maxResultSizeChars).type.toBe<Unbounded>();
  });

  test('an `any` limit is not checked by the compiler (`any` absorbs the demand): the run-time check is what catches it', () => {
    const limit: any = 100_000;
    expect(defineTool({ name: 'read_file', reads: 'path', maxResultSizeChars: limit }).reads).type.toBe<'path'>();
    expect(defineTool({ name: 'bash', reads: 'none', maxResultSizeChars: limit }).reads).type.toBe<'none'>();
  });

  test('a missing limit', () => {
    // @ts-expect-error must declare maxResultSizeChars: UNBOUNDED
    defineTool({ name: 'read_file', reads: 'path' });
    // @ts-expect-error maxResultSizeChars must be a finite number > 0
    defineTool({ name: 'bash', reads: 'none' });
  });

  test('a limit that is not a number > 0', () => {
    // @ts-expect-error maxResultSizeChars must be a finite number > 0
    defineTool({ name: 'bash', reads: 'none', maxResultSizeChars: 0 });
    // @ts-expect-error maxResultSizeChars must be a finite number > 0
    defineTool({ name: 'bash', reads: 'none', maxResultSizeChars: -1 });
    // @ts-expect-error maxResultSizeChars must be a finite number > 0
    defineTool({ name: 'bash', reads: 'none', maxResultSizeChars: '30000' });
  });

  test('a missing name', () => {
    // @ts-expect-error Give every tool a name: a string
    defineTool({ reads: 'none', maxResultSizeChars: 30_000 });
  });
});
