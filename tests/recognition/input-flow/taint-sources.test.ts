// Where the model's input enters a function (input-flow/taint-sources): only
// a location the model chose makes a tool self-reading, so the parameters
// tainted, and the key a summary is kept under, decide every verdict.
import { describe, expect, it } from 'vitest';

import { getConstructor } from '../../../src/recognition/index.js';
import { Taint } from '../../../src/recognition/input-flow/propagation.js';
import { taintParameters, taintSourcesKey } from '../../../src/recognition/input-flow/taint-sources.js';
import { snippet } from './snippets.js';

describe('taintParameters', () => {
  it('taints what the input parameters bind, and only those', () => {
    const fn = snippet(`function run(context, { path, options: { root = '/' }, ...rest }, [first]) {}`).fn();
    const taint = new Taint([]);
    taintParameters(fn, [1], taint);
    expect([...taint.names].sort()).toEqual(['path', 'rest', 'root']);
    taintParameters(fn, [2, 7], taint);
    expect(taint.names.has('first')).toBe(true);
    expect(taint.names.has('context')).toBe(false);
    expect(taint.thisMembers.size).toBe(0);
  });

  it('makes the field of a constructor parameter property input too', () => {
    const code = `class ReadInvocation { constructor(private readonly config: Config, private readonly params: Params) {} }`;
    const constructor = getConstructor(snippet(code).file.classes.get('ReadInvocation')!)!;
    const taint = new Taint([]);
    taintParameters(constructor, [1], taint);
    expect([...taint.names]).toEqual(['params']);
    expect([...taint.thisMembers]).toEqual(['params']);
  });
});

describe('taintSourcesKey', () => {
  it('names the same sources the same, whatever their order', () => {
    expect(taintSourcesKey({ parameters: [2, 0], thisMembers: ['target', 'params'] })).toBe(
      taintSourcesKey({ parameters: [0, 2], thisMembers: ['params', 'target'] }),
    );
    expect(taintSourcesKey({ parameters: [0], thisMembers: [], contentParameters: new Map([[1, new Set(['text', 'body'])]]) })).toBe(
      taintSourcesKey({ parameters: [0], thisMembers: [], contentParameters: new Map([[1, new Set(['body', 'text'])]]) }),
    );
  });

  it('tells apart sources that would summarise a function differently', () => {
    const keys = [
      { parameters: [0], thisMembers: [] },
      { parameters: [1], thisMembers: [] },
      { parameters: [0], thisMembers: ['params'] },
      { parameters: [0], thisMembers: [], fixedOriginParameters: [0] },
      { parameters: [0], thisMembers: [], contentParameters: new Map([[0, true as const]]) },
      { parameters: [0], thisMembers: [], contentParameters: new Map([[0, new Set(['text'])]]) },
    ].map(taintSourcesKey);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
