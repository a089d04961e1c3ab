// The recognition core on its own: tool shapes, members, invocations, readers,
// input flow within and across files, settings, guards.
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { parse } from '@typescript-eslint/parser';
import type { TSESTree } from '@typescript-eslint/utils';
import { afterAll, describe, expect, it } from 'vitest';

import {
  DEFAULT_RECOGNITION_SETTINGS,
  InvalidRecognitionSettingsError,
  assignParents,
  buildFileIndex,
  findToolDefinitions,
  findToolMember,
  getInvocation,
  isUnboundedValue,
  cachedModulePaths,
  loadModule,
  matchReader,
  mayDefineTools,
  mayReachReader,
  normalizeRecognitionSettings,
  readsInputChosenResource,
  resolveRelativeModule,
  walk,
} from '../../src/recognition/index.js';
import { fileFacts, isFile } from '../../src/recognition/file-system.js';
import {
  isDeclaredThreshold,
  isOverrideLookup,
  isOwnedSessionTest,
  isPersistenceCall,
  notFiniteSubject,
} from '../../src/recognition/guards.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'rules', 'fixtures', 'self-reading');
const settings = DEFAULT_RECOGNITION_SETTINGS;

function parseProgram(code: string): TSESTree.Program {
  const program = parse(code, { range: true, loc: true, sourceType: 'module' }) as TSESTree.Program;
  assignParents(program);
  return program;
}

/** Every tool in `code` with what the core says about it. */
function analyse(code: string, filePath = path.join(fixtures, 'tool.ts'), recognitionSettings = settings) {
  const program = parseProgram(code);
  const file = buildFileIndex(program, filePath);
  return findToolDefinitions(program, recognitionSettings).map((definition) => {
    const invocation = getInvocation(definition, recognitionSettings, file);
    const findings = readsInputChosenResource(invocation, file, { settings: recognitionSettings });
    return {
      definition,
      name: definition.name,
      shape: definition.shape,
      entries: invocation.entries.length,
      reads: findings.map((finding) => [finding.callName, finding.reader, ...finding.via.map((step) => step.name)]),
      member: findToolMember(definition, 'maxResultSizeChars'),
      file,
    };
  });
}

const readsOf = (code: string): string[][] => analyse(code).flatMap((tool) => tool.reads);

function firstCall(code: string): { call: TSESTree.CallExpression; program: TSESTree.Program } {
  const program = parseProgram(code);
  let call: TSESTree.CallExpression | undefined;
  walk(program, (node) => {
    if (!call && node.type === 'CallExpression') call = node;
  });
  return { call: call!, program };
}

describe('tool definitions', () => {
  it.each([
    [`buildTool({ name: 'Read', async call(input) {} })`, 'factory', 'Read'],
    [`defineTool({ name: 'read', execute: async () => 1 })`, 'factory', 'read'],
    [`const webFetch = tool({ description: 'x', execute: async () => 1 })`, 'factory', 'webFetch'],
    [`createTool({ id: 'x', execute: async () => 1 })`, 'factory', 'x'],
    [`Tool.define('edit', { async execute() {} })`, 'factory', 'edit'],
    [`tool(async (input) => input, { name: 'lc', schema })`, 'factory', 'lc'],
    [`new DynamicStructuredTool({ name: 'd', func: async () => 1 })`, 'constructor', 'd'],
    [`new FunctionTool({ name: 'f', invoke: async () => 1 })`, 'constructor', 'f'],
    [`server.registerTool('read_text_file', { description: 'r' }, async () => ({}))`, 'mcp-registration', 'read_text_file'],
    [`server.tool('echo', 'Echo', async () => ({}))`, 'mcp-registration', 'echo'],
    [`const t: Tool = { name: 'typed', call: async () => 1 }`, 'typed-object', 'typed'],
    [`const ts = { name: 'sat', execute: async () => 1 } satisfies ToolDef<Input>`, 'typed-object', 'sat'],
    [`const list: AgentTool[] = [{ name: 'inList', run: async () => 1 }]`, 'typed-object', 'inList'],
    [`class Grep { maxResultSizeChars = 20_000; async call() {} }`, 'class', 'Grep'],
    [`class ReadFile extends StructuredTool { name = 'read_file'; async _call() {} }`, 'class', 'read_file'],
    [`const Anon = class extends BaseDeclarativeTool {}`, 'class', 'Anon'],
  ])('recognises %s', (code, shape, name) => {
    const [tool] = analyse(code);
    expect(tool?.shape).toBe(shape);
    expect(tool?.name).toBe(name);
  });

  it.each([
    `abstract class BaseTool { maxResultSizeChars = 1; }`,
    `export declare class ReadFileTool extends BaseDeclarativeTool { maxResultSizeChars: number; }`,
    `declare module 'x' { class ShellTool extends BaseTool {} }`,
    `class ToolInvocation extends BaseToolInvocation {}`,
    `buildTool({ name: 'no invocation' })`,
    `const handlers = { execute: async () => 1 }`,
    `new Map({ run: () => 1 })`,
    `router.tool`,
    `items.tool('x')`,
  ])('leaves %s alone', (code) => {
    expect(analyse(code)).toEqual([]);
  });

  it('finds maxResultSizeChars wherever a tool declares it', () => {
    const value = (code: string) => {
      const member = analyse(code)[0]?.member;
      return member && { location: member.location, value: member.value && code.slice(...member.value.range) };
    };
    expect(value(`class A extends BaseTool { static maxResultSizeChars = Infinity }`)).toEqual({
      location: 'class-member',
      value: 'Infinity',
    });
    expect(value(`class A extends BaseTool { get maxResultSizeChars() { return UNBOUNDED; } }`)).toEqual({
      location: 'class-member',
      value: 'UNBOUNDED',
    });
    expect(value(`class A extends BaseTool { constructor() { super(); this.maxResultSizeChars = 5; } }`)).toEqual({
      location: 'constructor-assignment',
      value: '5',
    });
    expect(value(`buildTool({ maxResultSizeChars: 10, call() {} })`)).toEqual({ location: 'property', value: '10' });
    expect(value(`server.registerTool('r', { _meta: { 'anthropic/maxResultSizeChars': Infinity } }, h)`)).toEqual({
      location: 'mcp-meta',
      value: 'Infinity',
    });
    expect(value(`buildTool({ call() {} })`)).toBeUndefined();
  });

  it('classifies the sentinel values', () => {
    const program = parseProgram(`const A = Infinity; const B = A; let C = Infinity; const UNBOUNDED = 5;`);
    const file = buildFileIndex(program, 'x.ts');
    const expression = (code: string) => (parseProgram(code).body[0] as TSESTree.ExpressionStatement).expression;
    expect(isUnboundedValue(expression('Infinity'), file)).toBe(true);
    expect(isUnboundedValue(expression('Number.POSITIVE_INFINITY'), file)).toBe(true);
    expect(isUnboundedValue(expression('guard.UNBOUNDED'), file)).toBe(true);
    expect(isUnboundedValue(expression('Infinity as Unbounded'), file)).toBe(true);
    expect(isUnboundedValue(expression('B'), file)).toBe(true);
    expect(isUnboundedValue(expression('C'), file)).toBe(false);
    // A local constant named UNBOUNDED is judged by its value.
    expect(isUnboundedValue(expression('UNBOUNDED'), file)).toBe(false);
    expect(isUnboundedValue(expression('1e308'), file)).toBe(false);
  });
});

describe('files that cannot define a tool', () => {
  it('are told apart by their text, settings included', () => {
    expect(mayDefineTools(`export const x = buildTool({})`, settings)).toBe(true);
    expect(mayDefineTools(`class A { maxResultSizeChars = 1 }`, settings)).toBe(true);
    expect(mayDefineTools(`export function add(a, b) { return a + b; }`, settings)).toBe(false);
    const custom = normalizeRecognitionSettings({ toolFactories: ['makeCapability'] });
    expect(mayDefineTools(`makeCapability({ call() {} })`, settings)).toBe(false);
    expect(mayDefineTools(`makeCapability({ call() {} })`, custom)).toBe(true);
  });
});

describe('invocations', () => {
  it('takes the first parameter of call/execute/… as the input', () => {
    expect(analyse(`buildTool({ call: async (input, context) => 1, description: 'x' })`)[0]?.entries).toBe(1);
  });

  it('finds the invocation class createInvocation builds, and what its constructor derives from params', () => {
    expect(
      readsOf(`class Inv extends BaseToolInvocation {
        constructor(config, params) { super(params); this.target = path.resolve(config.root, params.file); }
        async execute() { return readFile(this.target); }
      }
      class T extends BaseDeclarativeTool { createInvocation(params) { return new Inv(this.config, params); } }`),
    ).toEqual([['readFile', 'readFile']]);
  });

  it('resolves a named MCP handler in the same file', () => {
    expect(readsOf(`const h = async (args) => readFile(args.path); server.registerTool('r', {}, h);`)).toEqual([['readFile', 'readFile']]);
  });
});

describe('readers', () => {
  it.each([
    [`import { readFile as rf } from 'node:fs/promises'; rf(p)`, 'rf'],
    [`import * as fs from 'fs'; fs.createReadStream(p)`, 'fs.createReadStream'],
    [`import fs from 'node:fs'; fs.promises.readFile(p)`, 'fs.promises.readFile'],
    [`import { promises as fsp } from 'fs'; fsp.readFile(p)`, 'fsp.readFile'],
    [`const { readFileSync } = require('fs'); readFileSync(p)`, 'readFileSync'],
    [`import axios from 'axios'; axios(p)`, 'axios'],
    [`import got from 'got'; got.get(p)`, 'got.get'],
    [`import fetch from 'node-fetch'; fetch(p)`, 'fetch'],
    [`fetch(p)`, 'fetch'],
    [`globalThis.fetch(p)`, 'globalThis.fetch'],
    [`this.fileSystem.readTextFile(p)`, 'this.fileSystem.readTextFile'],
    [`client.readResource({ uri })`, 'client.readResource'],
  ])('%s is a reader', (code, name) => {
    const { call, program } = firstCall(code.includes(';') ? code.split(';').slice(1).join(';') : code);
    const imports = buildFileIndex(parseProgram(code), 'x.ts');
    expect(program).toBeDefined();
    expect(matchReader(call, imports, settings)?.displayName).toBe(name);
  });

  it.each([
    `this.client.channels.fetch(id)`,
    `import { fetch } from './my-fetch.js'; fetch(p)`,
    `fs.writeFile(p, c)`,
    `import { readdir } from 'fs/promises'; readdir(p)`,
    // Branches that are two different modules are not an interop alias.
    `import a from 'axios'; import b from './http.js'; const c = flag ? a : b; c.get(u)`,
  ])('%s is not a reader', (code) => {
    const body = code.includes(';') ? code.split(';').slice(1).join(';') : code;
    const { call } = firstCall(body);
    expect(matchReader(call, buildFileIndex(parseProgram(code), 'x.ts'), settings)).toBeUndefined();
  });

  it.each([
    [`const fs_1 = require("fs"); (0, fs_1.readFileSync)(p)`, 'fs_1.readFileSync'],
    [`const promises_1 = __importDefault(require("node:fs/promises")); promises_1.default.readFile(p)`, 'promises_1.default.readFile'],
    [`const fs = tslib_1.__importStar(require("fs")); fs.readFile(p)`, 'fs.readFile'],
    [`var _fs = _interopRequireDefault(require("fs")); _fs.default.readFileSync(p)`, '_fs.default.readFileSync'],
    [`let fsp = require('fs').promises; fsp.readFile(p)`, 'fsp.readFile'],
    [`const { readFile: rf } = __toESM(require('fs/promises')); (0, rf)(p)`, 'rf'],
    [`import axiosMod from 'axios'; const axios = ('default' in axiosMod ? axiosMod.default : axiosMod); axios.get(u)`, 'axios.get'],
    [`const got_1 = require('got'); const got = got_1.default ?? got_1; got(u)`, 'got'],
    [
      `const axios_1 = __importDefault(require("axios")); const axios = ("default" in axios_1.default ? axios_1.default.default : axios_1.default); axios.get(u)`,
      'axios.get',
    ],
  ])('compiled CommonJS and interop aliases: %s is a reader', (code, name) => {
    const program = parseProgram(code);
    const calls: TSESTree.CallExpression[] = [];
    walk(program, (node) => {
      if (node.type === 'CallExpression') calls.push(node);
    });
    expect(matchReader(calls.at(-1)!, buildFileIndex(program, 'x.cjs'), settings)?.displayName).toBe(name);
  });

  it('indexes CommonJS exports as compilers and people write them', () => {
    const file = buildFileIndex(
      parseProgram(`
        exports.b = exports.a = void 0;
        const helpers_1 = require("./helpers");
        function a() {}
        exports.a = a;
        exports.b = async function () {};
        module.exports.c = (p) => p;
        module.exports = { d: a, e() {}, f: helpers_1.g };
        Object.defineProperty(exports, "h", { enumerable: true, get: function () { return helpers_1.read; } });
        tslib_1.__exportStar(require("./more"), exports);
        exports.notAFunction = 42;`),
      'x.cjs',
    );
    expect(Object.fromEntries(file.exports)).toEqual({
      a: { kind: 'local', local: 'a' },
      b: { kind: 'local', local: 'b' },
      c: { kind: 'local', local: 'c' },
      d: { kind: 'local', local: 'a' },
      e: { kind: 'local', local: 'e' },
      f: { kind: 're-export', from: './helpers', imported: 'g' },
      h: { kind: 're-export', from: './helpers', imported: 'read' },
    });
    expect([...file.functions.keys()].sort()).toEqual(['a', 'b', 'c', 'e']);
    expect(file.starExports).toEqual(['./more']);
  });

  it('takes readers from settings', () => {
    const custom = normalizeRecognitionSettings({ readers: ['slurp', { name: 'download', module: '@acme/storage', kind: 'url' }] });
    const code = `import { download } from '@acme/storage'; download(u); store.slurp(p);`;
    const program = parseProgram(code);
    const file = buildFileIndex(program, 'x.ts');
    const calls: TSESTree.CallExpression[] = [];
    walk(program, (node) => {
      if (node.type === 'CallExpression') calls.push(node);
    });
    expect(calls.map((call) => matchReader(call, file, custom)?.spec.kind)).toEqual(['url', 'file']);
  });
});

describe('input flow', () => {
  it.each([
    ['destructuring', `buildTool({ async call({ file_path }) { return readFile(file_path); } })`],
    ['a template string', `buildTool({ async call(i) { return readFile(\`\${i.dir}/\${i.name}\`); } })`],
    [
      'a root join (the persisted file may live under it)',
      `buildTool({ async call(i) { return readFile(path.join(process.cwd(), i.path)); } })`,
    ],
    ['an awaited validation', `buildTool({ async call(i) { const p = await validatePath(i.path); return readFile(p); } })`],
    ['an object literal', `buildTool({ async call(i) { return this.client.readResource({ uri: i.uri }); } })`],
    ['an array callback', `buildTool({ async call(i) { return Promise.all(i.paths.map((p) => readFile(p))); } })`],
    [
      'a filled collection',
      `buildTool({ async call(i) { const s = new Set(); for (const p of i.paths) s.add(p); for (const p of s) await readFile(p); } })`,
    ],
    ['a same-file helper', `async function load(p) { return readFile(p); } buildTool({ async call(i) { return load(i.path); } })`],
    ['a URL with a host from input', `buildTool({ async call(i) { return fetch(\`https://\${i.host}/\`); } })`],
    ['new URL of input', `buildTool({ async call(i) { return fetch(new URL(i.url)); } })`],
  ])('follows %s', (_label, code) => {
    expect(readsOf(code)).not.toEqual([]);
  });

  it.each([
    ['a fixed path', `const P = '/etc/x'; buildTool({ async call(i) { return readFile(P); } })`],
    ['a __dirname join', `buildTool({ async call(i) { return readFile(path.join(__dirname, 'x.md')); } })`],
    ['the second parameter', `buildTool({ async call(i, context) { return readFile(context.file); } })`],
    ['a fixed API host', `buildTool({ async call(i) { return fetch(\`https://api.example.com/items/\${i.id}\`); } })`],
    ['a fixed host by concatenation', `buildTool({ async call(i) { return fetch('https://api.example.com/q?s=' + i.q); } })`],
    [
      'a fixed base URL object',
      `buildTool({ async call(i) { const u = new URL('https://api.example.com/search'); u.searchParams.set('q', i.q); return fetch(u); } })`,
    ],
    ['a relative URL on a fixed base', `buildTool({ async call(i) { return fetch(new URL('/items/' + i.id, BASE)); } })`],
    ['a typeof test', `buildTool({ async call(i) { return readFile(typeof i.path); } })`],
    // The model picks the folder, the code the file: a persisted result cannot be read back through it.
    ['a file the code names under the model folder', `buildTool({ async call(i) { return readFile(\`\${i.dir}/x.txt\`); } })`],
    ['a joined file name', `buildTool({ async call(i) { return readFile(path.join(i.root, '.taskmaster', 'state.json')); } })`],
  ])('does not count %s', (_label, code) => {
    expect(readsOf(code)).toEqual([]);
  });

  it('follows relative imports, barrels and .js specifiers to the reader', () => {
    expect(
      readsOf(`import { readDocument } from './barrel/index.js'; buildTool({ async call(i) { return readDocument(i.path); } })`),
    ).toEqual([['readDocument', 'readFile', 'loadDocument']]);
    expect(readsOf(`import { readFileContent } from './lib.js'; buildTool({ async call(i) { return readFileContent(i.path); } })`)).toEqual(
      [['readFileContent', 'fs.readFile', 'readFileContent']],
    );
  });

  it('treats unparseable, missing and package modules as unknown', () => {
    expect(readsOf(`import { readBroken } from './broken.js'; buildTool({ async call(i) { return readBroken(i.path); } })`)).toEqual([]);
    expect(readsOf(`import { gone } from './missing.js'; buildTool({ async call(i) { return gone(i.path); } })`)).toEqual([]);
    expect(readsOf(`import { load } from 'some-package'; buildTool({ async call(i) { return load(i.path); } })`)).toEqual([]);
    expect(loadModule(path.join(fixtures, 'broken.ts'))).toBeUndefined();
  });

  it('resolves specifiers like TypeScript does', () => {
    expect(resolveRelativeModule('./lib.js', path.join(fixtures, 'tool.ts'))).toBe(path.join(fixtures, 'lib.js'));
    expect(resolveRelativeModule('./helpers.js', path.join(fixtures, 'tool.ts'))).toBe(path.join(fixtures, 'helpers.ts'));
    expect(resolveRelativeModule('./barrel', path.join(fixtures, 'tool.ts'))).toBe(path.join(fixtures, 'barrel', 'index.ts'));
    expect(resolveRelativeModule('node:fs', path.join(fixtures, 'tool.ts'))).toBeUndefined();
  });

  describe('the module cache', () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'trg-recognition-'));
    afterAll(() => rmSync(directory, { recursive: true, force: true }));

    it('parses a module once and again only when it changes', () => {
      const helper = path.join(directory, 'helper.ts');
      writeFileSync(helper, `export function load(p: string) { return p; }\n`);
      const first = loadModule(helper);
      expect(loadModule(helper)).toBe(first);
      const tool = `import { load } from './helper.js'; buildTool({ async call(i) { return load(i.path); } })`;
      expect(analyse(tool, path.join(directory, 'tool.ts')).flatMap((t) => t.reads)).toEqual([]);

      writeFileSync(helper, `import { readFile } from 'node:fs/promises';\nexport function load(p: string) { return readFile(p); }\n`);
      const later = new Date(Date.now() + 5_000);
      utimesSync(helper, later, later);
      expect(loadModule(helper)).not.toBe(first);
      expect(analyse(tool, path.join(directory, 'tool.ts')).flatMap((t) => t.reads)).toEqual([['load', 'readFile', 'load']]);
    });

    it('never parses a module that cannot reach a reader, judged from its text and its relative imports', () => {
      const formatter = path.join(directory, 'format.ts');
      const viaBarrel = path.join(directory, 'via-barrel.ts');
      const reader = path.join(directory, 'reader.ts');
      writeFileSync(formatter, `export function describe(p: string) { return 'path ' + p; }\n`);
      writeFileSync(reader, `import fs from 'node:fs';\nexport function slurp(p: string) { return fs.readFileSync(p, 'utf8'); }\n`);
      writeFileSync(viaBarrel, `export { slurp } from './reader.js';\n`);
      const tool = `import { describe } from './format.js'; import { slurp } from './via-barrel.js';
        buildTool({ async call(i) { describe(i.path); return slurp(i.path); } })`;
      expect(analyse(tool, path.join(directory, 'tool.ts')).flatMap((t) => t.reads)).toEqual([['slurp', 'fs.readFileSync', 'slurp']]);
      expect(cachedModulePaths()).toEqual(expect.arrayContaining([viaBarrel, reader]));
      expect(cachedModulePaths()).not.toContain(formatter);
    });

    it('follows the class of a kept instance into a module over the followed-module bound, and no other class', () => {
      // About 141 KB: over MAX_FOLLOWED_MODULE_BYTES (128 KB), under MAX_SOURCE_FILE_BYTES.
      const padding = `// ${'x'.repeat(200)}\n`.repeat(700);
      writeFileSync(
        path.join(directory, 'big-browser.ts'),
        `${padding}import { readFile } from 'node:fs/promises';\nexport class Browser { async visit(p: string) { return readFile(p, 'utf8'); } }\n`,
      );
      const kept = `import { Browser } from './big-browser.js';
        let browser = null;
        async function getBrowser() { if (!browser) browser = new Browser(); return browser; }
        buildTool({ async call(i) { const b = await getBrowser(); return b.visit(i.path); } })`;
      expect(analyse(kept, path.join(directory, 'kept-tool.ts')).flatMap((t) => t.reads)).toEqual([['b.visit', 'readFile', 'visit']]);
      // A browser made for the call is an ordinary call into that module: the bound holds.
      const perCall = `import { Browser } from './big-browser.js';
        buildTool({ async call(i) { const b = new Browser(); return b.visit(i.path); } })`;
      expect(analyse(perCall, path.join(directory, 'per-call-tool.ts')).flatMap((t) => t.reads)).toEqual([]);
    });

    it('keeps a "reaches no reader" answer for every module of an import cycle, so the cycle is walked once', () => {
      const left = path.join(directory, 'cycle-left.ts');
      const right = path.join(directory, 'cycle-right.ts');
      const rightText = (word: string) => `import { left } from './cycle-left.js';\nexport const right = () => left() + '${word}';\n`;
      writeFileSync(left, `import { right } from './cycle-right.js';\nexport const left = () => right();\n`);
      writeFileSync(right, rightText('plainwords'));
      // A whole second: the file system keeps it exactly, so it can be put back below.
      const earlier = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
      utimesSync(right, earlier, earlier);
      const spelling = /\breadFile\b/;
      expect(mayReachReader(left, spelling)).toBe(false);
      // The same size and time with other text: a kept answer is not read again.
      writeFileSync(right, rightText('readFile  '));
      utimesSync(right, earlier, earlier);
      expect(mayReachReader(right, spelling)).toBe(false);
      // A real edit (a new time) is read again.
      const later = new Date(Date.now() + 5_000);
      utimesSync(right, later, later);
      expect(mayReachReader(right, spelling)).toBe(true);
      // A kept answer is checked against its own module's time and size only (its imports are
      // not stat'ed again on every question): once that module changes, it is worked out again.
      utimesSync(left, later, later);
      expect(mayReachReader(left, spelling)).toBe(true);
    });
  });
});

describe('the file system facts', () => {
  it('answers for a missing path, a folder and a file without throwing', () => {
    expect(fileFacts(path.join(fixtures, 'no-such-file.ts'))).toBeUndefined();
    expect(fileFacts(path.join(fixtures, 'tool.ts', 'below-a-file.ts'))).toBeUndefined();
    expect(isFile(fixtures)).toBe(false);
    expect(fileFacts(fixtures)?.isFile).toBe(false);
    expect(isFile(path.join(fixtures, 'tool.ts'))).toBe(true);
    expect(fileFacts(path.join(fixtures, 'tool.ts'))?.size).toBeGreaterThan(0);
  });
});

describe('settings', () => {
  it('adds what the user lists to the defaults', () => {
    const normalized = normalizeRecognitionSettings({ toolFactories: ['makeTool'], invocationNames: ['perform'] });
    expect(normalized.toolFactories).toEqual([...DEFAULT_RECOGNITION_SETTINGS.toolFactories, 'makeTool']);
    expect(normalized.invocationNames).toContain('execute');
    expect(normalized.invocationNames).toContain('perform');
    expect(normalizeRecognitionSettings(undefined)).toBe(DEFAULT_RECOGNITION_SETTINGS);
  });

  it('rejects malformed settings with an error that names the key', () => {
    expect(() => normalizeRecognitionSettings({ toolFactories: 'buildTool' })).toThrow(InvalidRecognitionSettingsError);
    expect(() => normalizeRecognitionSettings({ toolFactories: 'buildTool' })).toThrow(/toolFactories must be an array of strings/);
    expect(() => normalizeRecognitionSettings({ readers: [42] })).toThrow(/readers/);
    try {
      normalizeRecognitionSettings([]);
    } catch (error) {
      expect((error as InvalidRecognitionSettingsError).code).toBe('TRG_INVALID_SETTINGS');
    }
  });

  it('recognises tools through settings', () => {
    const custom = normalizeRecognitionSettings({ toolFactories: ['makeTool'], toolBaseClasses: ['Capability'] });
    const tools = analyse(`makeTool({ name: 'm', call() {} }); class C extends Capability { call() {} }`, undefined, custom);
    expect(tools.map((tool) => tool.name)).toEqual(['m', 'C']);
  });
});

describe('guards', () => {
  const expression = (code: string) => (parseProgram(code).body[0] as TSESTree.ExpressionStatement).expression;
  const noBindings = () => undefined;

  it('knows the sentinel tests', () => {
    expect(notFiniteSubject(expression('!Number.isFinite(d)'))).toBeDefined();
    expect(notFiniteSubject(expression('!isFinite(d)'))).toBeDefined();
    expect(notFiniteSubject(expression('d === Infinity'))).toBeDefined();
    expect(notFiniteSubject(expression('Number.POSITIVE_INFINITY == d'))).toBeDefined();
    expect(notFiniteSubject(expression('d === Infinity || d < 0'))).toBeDefined();
    expect(notFiniteSubject(expression('Number.isFinite(d)'))).toBeUndefined();
    expect(notFiniteSubject(expression('d > 100'))).toBeUndefined();
    expect(isDeclaredThreshold(expression('tool.maxResultSizeChars'), noBindings)).toBe(true);
    expect(isDeclaredThreshold(expression('declaredLimit'), noBindings)).toBe(true);
    expect(isDeclaredThreshold(expression('limit'), noBindings)).toBe(false);
  });

  it('knows override lookups', () => {
    expect(isOverrideLookup(expression('overrides[name]') as TSESTree.MemberExpression, settings)).toBe(true);
    expect(isOverrideLookup(expression('this.toolOverrides.get(name)'), settings)).toBe(true);
    expect(isOverrideLookup(expression('getFeatureValue_CACHED_MAY_BE_STALE("x")'), settings)).toBe(true);
    expect(isOverrideLookup(expression('overrides.size'), settings)).toBe(false);
    expect(isOverrideLookup(expression('limits[name]'), settings)).toBe(false);
  });

  it('knows persistence calls and owned-session checks, and never confuses them', () => {
    const call = (code: string) => expression(code) as TSESTree.CallExpression;
    expect(isPersistenceCall(call('persistToolResult(a)'), settings)).toBe(true);
    expect(isPersistenceCall(call('this.resultStore.persist(a)'), settings)).toBe(true);
    expect(isPersistenceCall(call('shouldPersistForSession(q)'), settings)).toBe(false);
    expect(isPersistenceCall(call('cache.persist(a)'), settings)).toBe(false);
    expect(isOwnedSessionTest(expression('shouldPersistForSession(q)'), settings, noBindings)).toBe(true);
    expect(isOwnedSessionTest(expression(`q.startsWith('agent:') || q.startsWith('repl_main_thread')`), settings, noBindings)).toBe(true);
    expect(isOwnedSessionTest(expression(`q.startsWith('agent:') || q === 'sdk'`), settings, noBindings)).toBe(false);
    expect(isOwnedSessionTest(expression(`q.startsWith('compact')`), settings, noBindings)).toBe(false);
  });
});
