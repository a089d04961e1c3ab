// Which function a call runs, without types (input-flow/callees): a
// self-reading tool's read often hides behind a helper, a method or another
// module, and only a call we resolve can be followed to it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { resolveCallee, resolveUniqueMethod } from '../../../src/recognition/input-flow/callees.js';
import { unitOf } from '../../../src/recognition/input-flow/propagation.js';
import { fixtures, settings, snippet } from './snippets.js';

describe('resolveCallee', () => {
  it('resolves a function of the same file and a method of the same class', () => {
    const source = snippet(`async function load(p) { return p; }
class Reader {
  async call(input) { return this.load(input.path); }
  async load(p) { return p; }
}
async function run(input) { return load(input.path); }`);
    const local = resolveCallee(source.call('load(', source.fn().body), source.file, undefined, settings);
    expect(local?.fn).toBe(source.fn('load'));
    const classNode = source.file.classes.get('Reader')!;
    const method = resolveCallee(source.call('this.load('), source.file, classNode, settings);
    expect(method).toMatchObject({ name: 'load', classNode, file: source.file });
    // Without the class, `this.load` is nothing we can see.
    expect(resolveCallee(source.call('this.load('), source.file, undefined, settings)).toBeUndefined();
  });

  it('resolves a namespace import’s function in the module it names', () => {
    const source = snippet(`import * as recursive from './recursive.js';
async function run(input) { return recursive.walkUp(input.path, 0); }`);
    const resolved = resolveCallee(source.call('recursive.walkUp('), source.file, undefined, settings);
    expect(resolved?.file.filePath).toBe(path.join(fixtures, 'recursive.ts'));
    expect(resolved?.name).toBe('walkUp');
  });

  it('resolves a method of a local built from a class it can see, only with the calling unit', () => {
    const source = snippet(`class Processor { process(page, url) { return url; } }
async function run(input) { const processor = new Processor(); return processor.process(page, input.url); }`);
    const call = source.call('processor.process(');
    expect(resolveCallee(call, source.file, undefined, settings, true, unitOf(source.fn()))?.name).toBe('process');
    expect(resolveCallee(call, source.file, undefined, settings)).toBeUndefined();
  });

  it('resolves neither a constructor call nor a method of an unknown receiver', () => {
    const source = snippet(`class Processor {}
async function run(input) { const p = new Processor(input); return client.process(input.url); }`);
    expect(resolveCallee(source.call('new Processor('), source.file, undefined, settings)).toBeUndefined();
    expect(resolveCallee(source.call('client.process('), source.file, undefined, settings, true, unitOf(source.fn()))).toBeUndefined();
  });

  describe('the reader-module filter', () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'callees-'));
    afterAll(() => rmSync(directory, { recursive: true, force: true }));
    writeFileSync(path.join(directory, 'plain.ts'), 'export function label(p: string): string { return p.trim(); }\n');
    writeFileSync(
      path.join(directory, 'reads.ts'),
      "import { readFile } from 'node:fs/promises';\nexport function load(p: string) { return readFile(p, 'utf8'); }\n",
    );

    it('parses only modules that may reach a reader, unless asked for any module', () => {
      const source = snippet(
        `import { label } from './plain.js';
import { load } from './reads.js';
async function run(input) { return load(label(input.path)); }`,
        path.join(directory, 'tool.ts'),
      );
      const label = source.call('label(');
      expect(resolveCallee(label, source.file, undefined, settings)).toBeUndefined();
      expect(resolveCallee(label, source.file, undefined, settings, false)?.file.filePath).toBe(path.join(directory, 'plain.ts'));
      expect(resolveCallee(source.call('load('), source.file, undefined, settings)?.name).toBe('load');
    });
  });
});

describe('resolveUniqueMethod', () => {
  it('takes the one class method of a name for a receiver it cannot type', () => {
    const source = snippet(`import path from 'node:path';
class SkillRegistry { loadSkill(id) { return id; } resolveFile(p) { return p; } get(id) { return id; } describe() {} }
class Other { describe() {} }
async function run(input) {
  context.skills.loadSkill(input.id);
  context.describe(input.id);
  input.paths.map(String);
  cache.get(input.id);
  path.resolveFile(input.path);
  helpers.resolveFile(input.path);
}`);
    const classNode = source.file.classes.get('SkillRegistry')!;
    expect(resolveUniqueMethod(source.call('context.skills.loadSkill('), source.file)).toMatchObject({ name: 'loadSkill', classNode });
    // Two classes define it: which one runs is unknown.
    expect(resolveUniqueMethod(source.call('context.describe('), source.file)).toBeUndefined();
    // Every array has `map`, every map `get`; `path` is an import, not a class of this module.
    expect(resolveUniqueMethod(source.call('input.paths.map('), source.file)).toBeUndefined();
    expect(resolveUniqueMethod(source.call('cache.get('), source.file)).toBeUndefined();
    expect(resolveUniqueMethod(source.call('path.resolveFile('), source.file)).toBeUndefined();
    expect(resolveUniqueMethod(source.call('helpers.resolveFile('), source.file)).toMatchObject({ name: 'resolveFile', classNode });
  });
});
