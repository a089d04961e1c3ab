// The input flow's entry (input-flow/index): the first half of the
// self-reading verdict for a whole invocation, and the stage's public API
// that rules and the recognition index import.
import type { TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';

import * as recognition from '../../../src/recognition/index.js';
import * as stage from '../../../src/recognition/input-flow/index.js';
import type {
  FlowEnvironment,
  InvocationReads,
  ReadFinding,
  ReadStep,
  ReturnedContent,
  TypeServices,
} from '../../../src/recognition/input-flow/index.js';
import { environment, settings, snippet } from './snippets.js';

const READ = "import { readFile } from 'node:fs/promises';\n";

function invocationOf(fn: recognition.FunctionNode, region?: TSESTree.Node): recognition.Invocation {
  return { entries: [{ fn, inputParameters: [0], inputThisMembers: [], classNode: undefined, invocationClass: undefined, region }] };
}

describe('the public API', () => {
  it('exports the functions and the call depth it exported as one module', () => {
    expect(Object.keys(stage).sort()).toEqual([
      'MAX_CALL_DEPTH',
      'analyseInvocationReads',
      'functionReadsParameters',
      'readsFixedLocation',
      'readsInputChosenResource',
    ]);
    expect(stage.MAX_CALL_DEPTH).toBe(6);
    expect(recognition.MAX_CALL_DEPTH).toBe(stage.MAX_CALL_DEPTH);
    expect(recognition.readsInputChosenResource).toBe(stage.readsInputChosenResource);
    expect(recognition.functionReadsParameters).toBe(stage.functionReadsParameters);
  });

  it('exports the types a rule or a caller names', () => {
    const step: ReadStep = { name: 'load', filePath: '/x.ts' };
    const environmentTyped: FlowEnvironment = { settings, types: undefined as TypeServices | undefined };
    const source = snippet(`${READ}async function run(input) { return readFile(input.path, 'utf8'); }`);
    const reads: InvocationReads = stage.analyseInvocationReads(invocationOf(source.fn()), source.file, environmentTyped);
    const finding: ReadFinding = { ...reads.findings[0]!, via: [step] };
    const returned: ReturnedContent = { expression: finding.call, shape: true };
    expect(finding.via[0]?.name).toBe('load');
    expect(returned.shape).toBe(true);
  });
});

describe('analyseInvocationReads', () => {
  it('answers the reads of the model’s location and whether their content is returned', () => {
    const returning = snippet(`${READ}async function run(input) { return readFile(input.path, 'utf8'); }`);
    expect(stage.analyseInvocationReads(invocationOf(returning.fn()), returning.file, environment)).toMatchObject({
      findings: [{ reader: 'readFile', readerKind: 'file', via: [] }],
      returnsContent: true,
    });
    const counting = snippet(`${READ}async function run(input) { const text = await readFile(input.path, 'utf8'); return text.length; }`);
    const counted = stage.analyseInvocationReads(invocationOf(counting.fn()), counting.file, environment);
    expect(counted.findings).toHaveLength(1);
    expect(counted.returnsContent).toBe(false);
  });

  it('keeps a dispatcher’s case to its own reads and returns', () => {
    const source = snippet(`${READ}async function run(args) {
  switch (args.tool) {
    case 'read': return readFile(args.path, 'utf8');
    case 'config': return readFile(CONFIG, 'utf8');
  }
}`);
    const fn = source.fn();
    const [read, config] = ((fn.body as TSESTree.BlockStatement).body[0] as TSESTree.SwitchStatement).cases;
    expect(stage.analyseInvocationReads(invocationOf(fn, read), source.file, environment).returnsContent).toBe(true);
    expect(stage.analyseInvocationReads(invocationOf(fn, config), source.file, environment)).toEqual({
      findings: [],
      returnsContent: false,
    });
  });

  it('adds what an invocation class’s constructor derives from the params', () => {
    const source = snippet(`${READ}class ReadInvocation {
  constructor(params) { this.target = params.path; }
  async execute() { return readFile(this.target, 'utf8'); }
}`);
    const classNode = source.file.classes.get('ReadInvocation')!;
    const entry = {
      fn: recognition.getClassMethod(classNode, 'execute')!,
      inputParameters: [],
      inputThisMembers: [],
      classNode,
      invocationClass: classNode,
    };
    const reads = stage.analyseInvocationReads({ entries: [entry] }, source.file, environment);
    expect(reads.findings.map((finding) => source.text(finding.call.arguments[0]!))).toEqual(['this.target']);
    expect(reads.returnsContent).toBe(true);
  });
});

describe('readsInputChosenResource and functionReadsParameters', () => {
  it('answer the findings alone, of an invocation or of one function for given parameters', () => {
    const source = snippet(`${READ}async function pick(label, p) { return readFile(p, 'utf8'); }
async function run(input) { return pick(input.label, input.path); }`);
    expect(stage.readsInputChosenResource(invocationOf(source.fn()), source.file, environment).map((finding) => finding.callName)).toEqual([
      'pick',
    ]);
    expect(stage.functionReadsParameters(source.fn('pick'), [0], source.file, environment)).toEqual([]);
    expect(stage.functionReadsParameters(source.fn('pick'), [1], source.file, environment).map((finding) => finding.reader)).toEqual([
      'readFile',
    ]);
  });
});
