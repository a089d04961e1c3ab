import { describe, expect, it } from 'vitest';

import { findInputEscapes } from '../../src/recognition/input-escapes.js';
import { snippet } from './input-flow/snippets.js';

/** The escapes of `run(input, context)` with the first parameter as the model's input. */
function escapesOf(code: string): string[] {
  const { fn, file } = snippet(code);
  const entry = { fn: fn(), inputParameters: [0], inputThisMembers: [], classNode: undefined, invocationClass: undefined };
  return findInputEscapes({ entries: [entry] }, file).map((escape) => escape.callee);
}

describe('where the model input leaves what the analysis follows', () => {
  it('finds the input handed to an import, a context member or a service', () => {
    expect(
      escapesOf(
        `import { load } from './loader.js';\nexport async function run(input, context) { await context.page.goto(input.url); return load(input.path); }`,
      ),
    ).toEqual(['context.page.goto', 'load']);
  });

  it('follows locals computed from the input, and functions of the same file', () => {
    expect(
      escapesOf(
        `function helper(target) { return service.fetchOne(target); }\nexport function run({ path }) { const full = path.trim(); return helper(full); }`,
      ),
    ).toEqual(['service.fetchOne']);
  });

  it('leaves value work (strings, JSON, path, schemas) and calls the input never reaches', () => {
    expect(
      escapesOf(
        `export function run(input, context) { const name = JSON.stringify(input.name).toLowerCase(); context.log(); return path.join(name, 'x'); }`,
      ),
    ).toEqual([]);
  });
});
