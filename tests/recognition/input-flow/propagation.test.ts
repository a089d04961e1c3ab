// How the model's input spreads inside one function (input-flow/propagation):
// a self-reading tool's chosen path rarely reaches the reader as the raw
// parameter, so a name the taint misses is a missed circular persistence,
// and a name it wrongly taints is a false report.
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';

import { getConstructor } from '../../../src/recognition/index.js';
import { Taint, propagate, unitOf } from '../../../src/recognition/input-flow/propagation.js';
import { snippet, taintOf } from './snippets.js';

describe('unitOf', () => {
  it("groups a function's declarators, assignments, loops, calls and closures once", () => {
    const source = snippet(`function run(input, cb = make()) {
  const a = input.path;
  let b;
  b = a;
  for (const item of input.items) use(item);
  const inner = () => a;
  function helper() { return b; }
  return read(b);
}`);
    const fn = source.fn();
    const unit = unitOf(fn);
    expect(unit.declarators.map((declarator) => source.text(declarator.id))).toEqual(['a', 'b', 'item', 'inner']);
    expect(unit.assignments.map((assignment) => source.text(assignment))).toEqual(['b = a']);
    expect(unit.loops).toHaveLength(1);
    // The default parameter's call counts: it runs with the function.
    expect(unit.calls.map((call) => source.text(call))).toEqual(['make()', 'use(item)', 'read(b)']);
    expect(unit.closures.map((closure) => closure.name)).toEqual(['inner', 'helper']);
    expect(unitOf(fn)).toBe(unit);
  });
});

describe('Taint.has', () => {
  const source = snippet(`async function run(input) {
  const view = [
    input.path, \`\${ROOT}/\${input.name}\`, ROOT + input.name, { uri: input.uri }, [input.path], await input.load,
    ROOT - input.count, ROOT, registry.get(input.id), client.queryDefinition(input.uri), input.map.get(key), normalise(input.path),
  ];
}`);
  const fn = source.fn();
  const taint = taintOf(fn, [0]);
  const view = unitOf(fn).declarators[0]!.init as TSESTree.ArrayExpression;
  expect(view.type).toBe(AST_NODE_TYPES.ArrayExpression);
  const elements = view.elements;
  const has = (index: number) => taint.has(elements[index]);

  it('follows input through members, templates, concatenation, literals and awaits', () => {
    expect([0, 1, 2, 3, 4, 5].map(has)).toEqual([true, true, true, true, true, true]);
  });

  it('stops at arithmetic, code constants, lookups in code-owned collections and queries', () => {
    expect([6, 7, 8, 9].map(has)).toEqual([false, false, false, false]);
    // A lookup in the input's own collection still carries input.
    expect(has(10)).toBe(true);
  });

  it('asks the helper hook whether a call given input answers with it', () => {
    expect(has(11)).toBe(true);
    const call = elements[11]!;
    const answers = (result: boolean | undefined) => {
      const hooked = new Taint([], () => result);
      hooked.addPattern(fn.params[0]);
      return hooked.has(call);
    };
    expect(answers(false)).toBe(false);
    expect(answers(true)).toBe(true);
    // Unknown: a call given input is taken to answer with it.
    expect(answers(undefined)).toBe(true);
  });
});

describe('propagate', () => {
  it('taints destructured names, assigned names and the roots of filled collections', () => {
    const source = snippet(`function run(input) {
  const { file: { name }, ...rest } = input;
  let target;
  target = name;
  const list = [];
  list.push(target);
  const seen = new Set();
  seen.add(rest);
  const out = {};
  Object.assign(out, { p: name });
  const untouched = ROOT;
}`);
    const taint = taintOf(source.fn(), [0]);
    for (const name of ['input', 'name', 'rest', 'target', 'list', 'seen', 'out']) expect(taint.names.has(name), name).toBe(true);
    expect(taint.names.has('untouched')).toBe(false);
  });

  it('keys a cache by input without tainting what it holds', () => {
    const source = snippet(`function run(input) { cache.set(input.id, ENTRY); store.set(KEY, input.path); }`);
    const taint = taintOf(source.fn(), [0]);
    expect(taint.names.has('cache')).toBe(false);
    expect(taint.names.has('store')).toBe(true);
  });

  it('taints loop variables, callback parameters, closures that return input, and this members', () => {
    const source = snippet(`class Invocation extends Base {
  constructor(config, params) { super(params, config); this.target = params.path; }
}
function run(input) {
  for (const p of input.paths) use(p);
  input.others.map((other) => other);
  const operation = async () => input.path;
  const fixed = () => ROOT;
  for (const key in CONFIG) use(key);
}`);
    const taint = taintOf(source.fn(), [0]);
    expect(['p', 'other'].every((name) => taint.names.has(name))).toBe(true);
    expect(taint.names.has('key')).toBe(false);
    expect([...taint.inputFunctions]).toEqual(['operation']);
    const constructed = taintOf(getConstructor(source.file.classes.get('Invocation')!)!, [1]);
    expect([...constructed.thisMembers].sort()).toEqual(['params', 'target']);
  });

  it('reports whether a pass tainted anything new', () => {
    const source = snippet(`function run(input) { const a = input; const b = a; }`);
    const fn = source.fn();
    const taint = new Taint([]);
    taint.addPattern(fn.params[0]);
    expect(propagate(unitOf(fn), taint)).toBe(true);
    while (propagate(unitOf(fn), taint)) {
      // Until nothing new is tainted.
    }
    expect(propagate(unitOf(fn), taint)).toBe(false);
    expect([...taint.names].sort()).toEqual(['a', 'b', 'input']);
  });
});
