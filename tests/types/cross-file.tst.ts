import { describe, expect, test } from 'tstyche';
import {
  defineTool,
  getEffectivePersistenceThreshold,
  type ClassifiedTool,
  type SelfReadingTool,
  type Unbounded,
} from '../../src/index.js';
import { BashTool, misclassifiedFetchSpec, readFileTool, ReadResourceTool, webFetchSpec } from './fixtures/tools.js';

describe('a tool defined in one file, used in another', () => {
  test('its literal types survive the import', () => {
    expect(readFileTool.reads).type.toBe<'path'>();
    expect(readFileTool.maxResultSizeChars).type.toBe<Unbounded>();
    expect(readFileTool.call).type.toBe<(input: { file_path: string }) => Promise<string>>();
  });

  test('a registry accepts the imported tools', () => {
    const registry: readonly ClassifiedTool[] = [readFileTool, new BashTool(), defineTool(webFetchSpec)];
    expect(registry).type.toBe<readonly ClassifiedTool[]>();
    expect<typeof readFileTool>().type.toBeAssignableTo<SelfReadingTool>();
  });

  test('the runtime takes them as plain tools', () => {
    expect(getEffectivePersistenceThreshold).type.toBeCallableWith(readFileTool);
    expect(getEffectivePersistenceThreshold).type.toBeCallableWith(new BashTool(), { bash: 10_000 });
  });

  test('an imported misclassified spec fails at the defineTool call', () => {
    // @ts-expect-error A tool that reads a path, URL or resource the model names must declare maxResultSizeChars: UNBOUNDED
    defineTool(misclassifiedFetchSpec);
  });

  test('an imported class without `implements` is caught by defineTool', () => {
    // @ts-expect-error must declare maxResultSizeChars: UNBOUNDED
    defineTool(new ReadResourceTool());
  });

  test('an imported misclassified tool does not fit a typed registry', () => {
    // @ts-expect-error Type 'ReadResourceTool' is not assignable to type 'ClassifiedTool'
    const registry: readonly ClassifiedTool[] = [new ReadResourceTool()];
    expect(registry).type.not.toBe<never>();
  });
});
