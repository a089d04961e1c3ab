import { describe, expect, it } from 'vitest';

import { findInputEscapes } from '../../src/recognition/input-escapes.js';
import { classMethods } from '../../src/recognition/tool-shapes/vocabulary.js';
import { snippet } from './input-flow/snippets.js';
import { moduleFolder } from './state-mutation/snippets.js';

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

  it('leaves errors it builds, trace tags and log lines: nothing read comes back from them', () => {
    expect(
      escapesOf(
        `export function run(input, context) { span.setTag('url', input.url); setTag('url', input.url); logger.debug(input.url); if (!input.url) throw new UserInputError(input.url); return fetchPage(input.url); }`,
      ),
    ).toEqual(['fetchPage']);
  });

  it("leaves a bundler's renamed file system module's checks, realpath and exceptions it builds", () => {
    expect(
      escapesOf(
        `import fs3 from 'fs';\nexport function run({ path }) { if (!fs3.existsSync(path)) throw new PathSandboxException(path); const real = fs3.realpathSync(path); return fetchPage(real); }`,
      ),
    ).toEqual(['fetchPage']);
  });

  it('follows locals a closure computes from captured input, and callbacks over input', () => {
    // mcp-ripgrep's `exec(command)`: the command line is split inside the Promise executor.
    expect(
      escapesOf(
        `function exec(command) { return new Promise((resolve) => { const parts = command.split(' '); const child = spawn(parts[0], parts.slice(1)); child.on('close', resolve); }); }\nexport function run({ path }) { let command = 'rg'; command += ' ' + path; return exec(command); }`,
      ),
    ).toEqual(['spawn']);
    expect(escapesOf(`export function run({ paths }) { return paths.map((p) => loadOne(p)); }`)).toEqual(['loadOne']);
  });

  it("follows a base class's method in another module", () => {
    const filePath = moduleFolder({
      'base.ts': `export class BaseTool { parseParams(params) { const parsed = schema.parse(params); return check(parsed); } }`,
    });
    const { file } = snippet(
      `import { BaseTool } from './base.js';\nexport class ReadSpec extends BaseTool { async execute(params) { const { spec } = this.parseParams(params); return this.service.load(spec); } }`,
      filePath,
    );
    const classNode = file.classes.get('ReadSpec')!;
    const execute = classMethods(classNode).get('execute')!;
    const entry = { fn: execute, inputParameters: [0], inputThisMembers: [], classNode, invocationClass: undefined };
    // `check` is the base module's own unknown; `this.service.load` is this class's.
    expect(findInputEscapes({ entries: [entry] }, file).map((escape) => escape.callee)).toEqual(['check', 'this.service.load']);
  });

  it('follows a helper imported from another module, and marks what it finds there', () => {
    const filePath = moduleFolder({
      'client.ts': `export async function apiGet(path, params) { return transport.send(path, params); }`,
    });
    const { fn, file } = snippet(
      `import { apiGet } from './client.js';
export async function run(input) { return apiGet('/posts', { q: input.q }); }`,
      filePath,
    );
    const entry = { fn: fn(), inputParameters: [0], inputThisMembers: [], classNode: undefined, invocationClass: undefined };
    const escapes = findInputEscapes({ entries: [entry] }, file);
    // The import is followed: the input leaves at the client's own call, found inside the imported helper.
    expect(escapes.map((escape) => [escape.callee, escape.inImportedHelper])).toEqual([['transport.send', true]]);
  });

  it('leaves errors whatever their names spell before `Error`', () => {
    expect(
      escapesOf(
        `export function run({ path }) { if (!path) throw new GodotMCPError(path); throw new HTTPError(path); return load(path); }`,
      ),
    ).toEqual(['load']);
  });
});
