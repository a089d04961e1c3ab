// Following calls into helpers with summaries (input-flow/summaries): a
// self-reading tool's read of the model's location, and the content coming
// back, often sit helpers away from the tool; each helper is summarised once
// per set of input parameters, and the following stops at MAX_CALL_DEPTH.
import type { TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';

import { getConstructor } from '../../../src/recognition/index.js';
import { MAX_CALL_DEPTH, analyzeFunction } from '../../../src/recognition/input-flow/summaries.js';
import { environment, settings, snippet } from './snippets.js';

const READ = "import { readFile } from 'node:fs/promises';\nimport path from 'node:path';\n";

/** `run(input)` calling `h1(input.path)`, each helper calling the next, the last one reading. */
function helperChain(helpers: number): string {
  const lines = [READ];
  for (let index = 1; index <= helpers; index += 1) {
    const next = index === helpers ? `readFile(p, 'utf8')` : `h${index + 1}(p)`;
    lines.push(`async function h${index}(p) { return ${next}; }`);
  }
  lines.push('async function run(input) { return h1(input.path); }');
  return lines.join('\n');
}

describe('analyzeFunction', () => {
  it('summarises the reads of a function and where their content goes', () => {
    const source = snippet(`${READ}async function run(input) {
  const text = await readFile(input.path, 'utf8');
  if (input.count) return text.length;
  return text;
}`);
    const summary = analyzeFunction(source.fn(), { parameters: [0], thisMembers: [] }, source.file, undefined, environment, 0);
    expect(summary.findings.map((finding) => finding.reader)).toEqual(['readFile']);
    expect(summary.returns).toBe(true);
    expect(summary.returned.map(({ expression, shape }) => [source.text(expression), shape])).toEqual([
      ['text.length', undefined],
      ['text', true],
    ]);
  });

  it('keeps one summary per function and set of taint sources, whatever their order', () => {
    const source = snippet(`${READ}async function pick(label, p) { console.log(label); return readFile(p, 'utf8'); }`);
    const pick = source.fn('pick');
    const first = analyzeFunction(pick, { parameters: [1, 0], thisMembers: [] }, source.file, undefined, environment, 0);
    expect(analyzeFunction(pick, { parameters: [0, 1], thisMembers: [] }, source.file, undefined, environment, 0)).toBe(first);
    const labelOnly = analyzeFunction(pick, { parameters: [0], thisMembers: [] }, source.file, undefined, environment, 0);
    expect(labelOnly).not.toBe(first);
    expect(labelOnly.findings).toEqual([]);
    // Another settings object may name other readers: its summaries are its own.
    const other = analyzeFunction(pick, { parameters: [1, 0], thisMembers: [] }, source.file, undefined, { settings: { ...settings } }, 0);
    expect(other).not.toBe(first);
    expect(other.findings.map((finding) => finding.reader)).toEqual(['readFile']);
  });

  it(`follows helpers up to MAX_CALL_DEPTH (${MAX_CALL_DEPTH}) calls deep, naming each`, () => {
    const deepest = snippet(helperChain(MAX_CALL_DEPTH));
    const [finding] = analyzeFunction(deepest.fn(), { parameters: [0], thisMembers: [] }, deepest.file, undefined, environment, 0).findings;
    expect(finding?.via.map((step) => step.name)).toEqual(Array.from({ length: MAX_CALL_DEPTH }, (_, index) => `h${index + 1}`));
    const tooDeep = snippet(helperChain(MAX_CALL_DEPTH + 1));
    expect(analyzeFunction(tooDeep.fn(), { parameters: [0], thisMembers: [] }, tooDeep.file, undefined, environment, 0).findings).toEqual(
      [],
    );
  });

  it('ends recursion instead of looping, and still finds the read', () => {
    const source =
      snippet(`${READ}async function walkUp(p, depth) { if (depth > 3) return readFile(p, 'utf8'); return walkUp(p, depth + 1); }
async function run(input) { return walkUp(input.path, 0); }`);
    const summary = analyzeFunction(source.fn(), { parameters: [0], thisMembers: [] }, source.file, undefined, environment, 0);
    expect(summary.findings.map((finding) => finding.via.map((step) => step.name))).toEqual([['walkUp']]);
    expect(summary.returns).toBe(true);
  });

  it('asks whether a helper answers with the input it was given', () => {
    const code = (helper: string) =>
      snippet(`${READ}const ALLOWED = ['/srv/a.txt', '/srv/b.txt'];
${helper}
async function run(input) { return readFile(check(input.path), 'utf8'); }`);
    const reads = (helper: string) => {
      const source = code(helper);
      return analyzeFunction(source.fn(), { parameters: [0], thisMembers: [] }, source.file, undefined, environment, 0).findings.length;
    };
    // An entry of the code's own list: the model only picked among them.
    expect(reads('function check(p) { return ALLOWED.find((entry) => entry === p); }')).toBe(0);
    expect(reads('function check(p) { return path.resolve(p); }')).toBe(1);
  });

  it('says which this members carry input after a constructor ran', () => {
    const source = snippet(`class ReadInvocation {
  constructor(config, params) { this.config = config; this.params = params; this.target = params.path; }
}`);
    const constructor = getConstructor(source.file.classes.get('ReadInvocation')!)!;
    const summary = analyzeFunction(constructor, { parameters: [1], thisMembers: [] }, source.file, undefined, environment, 0);
    expect([...summary.taintedThisMembers].sort()).toEqual(['params', 'target']);
  });

  it('keeps the content of reads in one region apart for a shared return', () => {
    const source = snippet(`${READ}async function run(name, args) {
  let result;
  switch (name) {
    case 'read': result = await readFile(args.path, 'utf8'); break;
    case 'size': result = String((await readFile(args.path, 'utf8')).length); break;
  }
  return result;
}`);
    const summary = analyzeFunction(source.fn(), { parameters: [1], thisMembers: [] }, source.file, undefined, environment, 0);
    const [read, size] = ((source.fn().body as TSESTree.BlockStatement).body[1] as TSESTree.SwitchStatement).cases;
    expect(summary.returnedFrom(read!).map(({ shape }) => shape)).toEqual([true]);
    expect(summary.returnedFrom(size!).map(({ shape }) => shape)).toEqual([undefined]);
  });
});
