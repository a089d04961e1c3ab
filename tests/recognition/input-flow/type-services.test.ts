// The type services of the typed config (input-flow/type-services): with a
// program, a call is followed wherever the checker says its callee is
// declared (a tsconfig path alias, a method of a typed receiver in another
// file), so a self-reading tool's read behind such a call is still found.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { parseForESLint } from '@typescript-eslint/parser';
import type { TSESTree } from '@typescript-eslint/utils';
import type * as ts from 'typescript';
import { describe, expect, it } from 'vitest';

import { assignParents, buildFileIndex, getInvocation, findToolDefinitions } from '../../../src/recognition/index.js';
import { analyseInvocationReads } from '../../../src/recognition/input-flow/index.js';
import { type FlowEnvironment, type TypeServices, resolveCalleeWithTypes } from '../../../src/recognition/input-flow/type-services.js';
import { settings } from './snippets.js';

const typedDirectory = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'rules', 'fixtures', 'self-reading-typed');
const typedFile = path.join(typedDirectory, 'file.ts');

/**
 * The linted file `file.ts` of the typed fixture program, with `code` as its text, and its type services.
 * With `CI=true` typescript-eslint infers a single run: it builds the program once from the files on
 * disk and ignores `code` (the fixture's `file.ts` is a placeholder). RuleTester turns that inference
 * off; so does this helper, or the test passes locally and fails in CI.
 */
function typed(code: string) {
  const { ast, services } = parseForESLint(code, {
    filePath: typedFile,
    project: './tsconfig.json',
    tsconfigRootDir: typedDirectory,
    disallowAutomaticSingleRunInference: true,
    range: true,
    loc: true,
    sourceType: 'module',
  });
  const program = ast as unknown as TSESTree.Program;
  assignParents(program);
  const file = buildFileIndex(program, typedFile);
  const types: TypeServices = {
    program: services.program as ts.Program,
    esTreeNodeToTSNodeMap: services.esTreeNodeToTSNodeMap as TypeServices['esTreeNodeToTSNodeMap'],
    lintedFile: file,
  };
  const callStartingWith = (start: string): TSESTree.CallExpression => {
    const found = file.program.body
      .flatMap((statement) => (statement.type === 'ExpressionStatement' ? [statement.expression] : []))
      .find((expression) => code.slice(...expression.range).startsWith(start));
    if (!found || found.type !== 'CallExpression') throw new Error(`no call ${start}`);
    return found;
  };
  return { code, file, types, callStartingWith };
}

describe('resolveCalleeWithTypes', () => {
  it('resolves a method of a typed receiver declared in another file, and a path alias', () => {
    const { types, callStartingWith } = typed(`import { store } from './reader-service.js';
import { readThrough } from '@lib/read.js';
store.load('a.txt');
readThrough('b.txt');
`);
    const method = resolveCalleeWithTypes(callStartingWith('store.load('), types);
    expect(method?.file.filePath).toBe(path.join(typedDirectory, 'reader-service.ts'));
    expect(method?.fn.type).toBe('FunctionExpression');
    expect(method?.classNode?.id?.name).toBe('DocumentStore');
    const aliased = resolveCalleeWithTypes(callStartingWith('readThrough('), types);
    expect(aliased?.file.filePath).toBe(path.join(typedDirectory, 'lib', 'read.ts'));
  });

  it('maps a callee declared in the linted file back to its own index, and gives up on declaration files', () => {
    const { file, types, callStartingWith } = typed(`import { readFile } from 'node:fs/promises';
function local(p: string): string { return p; }
local('c.txt');
readFile('d.txt');
`);
    const local = resolveCalleeWithTypes(callStartingWith('local('), types);
    expect(local?.file).toBe(file);
    expect(local?.fn).toBe(file.functions.get('local'));
    expect(resolveCalleeWithTypes(callStartingWith('readFile('), types)).toBeUndefined();
  });
});

describe('the typed environment in the flow', () => {
  it('follows a typed receiver’s method to the reader it calls', () => {
    const { file, types } = typed(`import { store } from './reader-service.js';
buildTool({ name: 'Load', async call(input: { path: string }) { return store.load(input.path); } });
`);
    const [definition] = findToolDefinitions(file.program, settings);
    const invocation = getInvocation(definition!, settings, file);
    const withTypes: FlowEnvironment = { settings, types };
    const typedRead = analyseInvocationReads(invocation, file, withTypes);
    expect(typedRead.findings.map(({ callName, reader, via }) => ({ callName, reader, via: via.map((step) => step.name) }))).toEqual([
      { callName: 'store.load', reader: 'readFile', via: ['load'] },
    ]);
    expect(typedRead.returnsContent).toBe(true);
    // Without types the method stays a service whose name says it reads. (Summaries are
    // kept per settings object, so the untyped run gets settings of its own.)
    const untyped = analyseInvocationReads(invocation, file, { settings: { ...settings } });
    expect(untyped.findings.map(({ reader, via }) => ({ reader, via }))).toEqual([{ reader: 'store.load', via: [] }]);
  });
});
