// The first half of the self-reading verdict, asked of the core directly:
// does a reader's path, URL or resource derive from the model's input
// (`analyseInvocationReads`, `functionReadsParameters`)? A change to the taint
// propagation fails here, next to its cause, before any rule test does.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { parse } from '@typescript-eslint/parser';
import type { TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';

import {
  DEFAULT_RECOGNITION_SETTINGS,
  type FileIndex,
  type FunctionNode,
  type Invocation,
  type ReadFinding,
  assignParents,
  buildFileIndex,
  findToolDefinitions,
  functionReadsParameters,
  getClassMethod,
  getInvocation,
  readsInputChosenResource,
} from '../../src/recognition/index.js';
import { analyseInvocationReads } from '../../src/recognition/input-flow/index.js';

/** Beside the fixture helpers, so `./helpers.js` and `./barrel/index.js` resolve as in a package. */
const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'rules', 'fixtures', 'self-reading');
const environment = { settings: DEFAULT_RECOGNITION_SETTINGS };

function indexOf(code: string): FileIndex {
  const program = parse(code, { range: true, loc: true, sourceType: 'module' }) as TSESTree.Program;
  assignParents(program);
  return buildFileIndex(program, path.join(fixtures, 'tool.ts'));
}

function functionNamed(file: FileIndex, name: string): FunctionNode {
  const fn = file.functions.get(name);
  if (!fn) throw new Error(`no function ${name}`);
  return fn;
}

/** The invocation `run(input)` of the file: one function, the model's input at `inputParameter`. */
function invocationOf(file: FileIndex, inputParameter = 0): Invocation {
  const fn = functionNamed(file, 'run');
  return { entries: [{ fn, inputParameters: [inputParameter], inputThisMembers: [], classNode: undefined, invocationClass: undefined }] };
}

/** What a finding says, in the words a report uses: the call as written, the reader, the kind, the helpers passed through. */
function described(finding: ReadFinding): { callName: string; reader: string; kind: string; via: string[] } {
  return { callName: finding.callName, reader: finding.reader, kind: finding.readerKind, via: finding.via.map((step) => step.name) };
}

function readsOf(code: string, inputParameter = 0) {
  const file = indexOf(code);
  const { findings, returnsContent } = analyseInvocationReads(invocationOf(file, inputParameter), file, environment);
  return { reads: findings.map(described), returnsContent };
}

describe('analyseInvocationReads: input reaches a reader', () => {
  it('finds a read of the input path, and whether its content is returned', () => {
    expect(
      readsOf(`import { readFile } from 'node:fs/promises';
async function run(input) { return readFile(input.path, 'utf8'); }`),
    ).toEqual({ reads: [{ callName: 'readFile', reader: 'readFile', kind: 'file', via: [] }], returnsContent: true });
    expect(
      readsOf(`import { readFile } from 'node:fs/promises';
async function run(input) { const text = await readFile(input.path, 'utf8'); return 'bytes: ' + text.length; }`).returnsContent,
    ).toBe(false);
  });

  it('propagates taint through locals, destructuring, templates, joins, collections and loops', () => {
    for (const body of [
      `const p = input.path; const full = path.resolve(ROOT, p); return readFile(full, 'utf8');`,
      `const { file: { name } } = input; return readFile(\`\${ROOT}/\${name}\`, 'utf8');`,
      `const list = []; list.push(input.path); const out = []; for (const p of list) out.push(await readFile(p, 'utf8')); return out.join('');`,
      `const parts = await Promise.all(input.paths.map((p) => readFile(p, 'utf8'))); return parts.join('');`,
      `let target = ROOT; if (input.path) target = input.path; return readFile(target, 'utf8');`,
    ]) {
      const result = readsOf(`import { readFile } from 'node:fs/promises';
import path from 'node:path';
const ROOT = '/srv';
async function run(input) { ${body} }`);
      expect(
        result.reads.map((read) => read.reader),
        body,
      ).toEqual(['readFile']);
      expect(result.returnsContent, body).toBe(true);
    }
  });

  it('leaves paths the code fixes alone: constants, __dirname joins, a parameter that is not the input', () => {
    for (const body of [
      `return readFile(TEMPLATE, 'utf8');`,
      `return readFile(path.join(__dirname, 'templates', 'default.txt'), 'utf8');`,
      `const name = input.name; return readFile(path.join(__dirname, 'fixed.txt'), 'utf8');`,
      `return readFile(context.configPath, 'utf8');`,
    ]) {
      const result = readsOf(`import { readFile } from 'node:fs/promises';
import path from 'node:path';
const TEMPLATE = '/etc/template.txt';
async function run(input, context) { ${body} }`);
      expect(result.reads, body).toEqual([]);
    }
  });

  it('takes the input from the parameter the invocation names, not the first', () => {
    const code = `import { readFile } from 'node:fs/promises';
async function run(context, params) { return (await readFile(params.path, 'utf8')) + (await readFile(context.log, 'utf8')); }`;
    const file = indexOf(code);
    const readPaths = (inputParameter: number) =>
      readsInputChosenResource(invocationOf(file, inputParameter), file, environment).map((finding) =>
        code.slice(...finding.call.arguments[0]!.range),
      );
    expect(readPaths(1)).toEqual(['params.path']);
    expect(readPaths(0)).toEqual(['context.log']);
  });
});

describe('analyseInvocationReads: helpers', () => {
  it('follows a helper of the same file and names it in the chain', () => {
    const { reads, returnsContent } = readsOf(`import { readFile } from 'node:fs/promises';
async function load(p) { const raw = await readFile(p, 'utf8'); return raw; }
async function run(input) { return load(input.path); }`);
    expect(reads).toEqual([{ callName: 'load', reader: 'readFile', kind: 'file', via: ['load'] }]);
    expect(returnsContent).toBe(true);
  });

  it("follows this.method() into the tool's own class", () => {
    const file = indexOf(`import { readFile } from 'node:fs/promises';
class Reader {
  async call(input) { return this.load(input.path); }
  async load(p) { return readFile(p, 'utf8'); }
}`);
    const classNode = file.classes.get('Reader')!;
    const entry = {
      fn: getClassMethod(classNode, 'call')!,
      inputParameters: [0],
      inputThisMembers: [],
      classNode,
      invocationClass: undefined,
    };
    expect(analyseInvocationReads({ entries: [entry] }, file, environment).findings.map(described)).toEqual([
      { callName: 'this.load', reader: 'readFile', kind: 'file', via: ['load'] },
    ]);
  });

  it('summarises a helper per input parameter: only the parameter that reaches the reader counts', () => {
    const file = indexOf(`import { readFile } from 'node:fs/promises';
async function pick(label, p) { console.log(label); return readFile(p, 'utf8'); }
async function run(input) { return pick(input.label, '/etc/fixed.txt'); }`);
    expect(analyseInvocationReads(invocationOf(file), file, environment).findings).toEqual([]);
    const pick = functionNamed(file, 'pick');
    expect(functionReadsParameters(pick, [0], file, environment)).toEqual([]);
    expect(functionReadsParameters(pick, [1], file, environment).map(described)).toEqual([
      { callName: 'readFile', reader: 'readFile', kind: 'file', via: [] },
    ]);
  });

  it('summarises a helper given an object written out by the fields of it that carry input', () => {
    // `speak({ text: input.text, cfg })`: only `text` is the model's, so `params.cfg.prefsPath` is the code's.
    const fixed = readsOf(`import { readFileSync } from 'node:fs';
function speak(params) { const prefs = readFileSync(params.cfg.prefsPath, 'utf8'); return params.text + prefs; }
function speakDestructured({ text, cfg, ...rest }) { return readFileSync(cfg.prefsPath, 'utf8') + text + rest.channel; }
async function run(input) { const cfg = loadConfig(); return speak({ text: input.text, cfg }) + speakDestructured({ text: input.text, cfg, channel: 'x' }); }`);
    expect(fixed.reads).toEqual([]);
    // The field the model filled still reaches the reader, also handed on inside the helper and through a rest element.
    const chosen = readsOf(`import { readFileSync } from 'node:fs';
function open(params) { return readFileSync(params.path, 'utf8'); }
function relay(params) { return open(params); }
function rest({ cfg, ...others }) { return readFileSync(others.path, 'utf8'); }
async function run(input) { return relay({ path: input.path, cfg: loadConfig() }) + rest({ path: input.path, cfg: 1 }); }`);
    expect(chosen.reads.map((read) => read.via)).toEqual([['relay', 'open'], ['rest']]);
    expect(chosen.returnsContent).toBe(true);
  });

  it('follows relative imports across files, through two hops, and not into a helper that ignores its argument', () => {
    const { reads } = readsOf(`import { loadDocument, loadTemplate, loadViaHelper, describePath } from './helpers.js';
async function run(input) {
  const a = await loadDocument(input.path);
  const b = await loadViaHelper(input.other);
  const c = await loadTemplate(input.name);
  return a + b + c + describePath(input.path);
}`);
    expect(reads).toEqual([
      { callName: 'loadDocument', reader: 'readFile', kind: 'file', via: ['loadDocument'] },
      { callName: 'loadViaHelper', reader: 'readFile', kind: 'file', via: ['loadViaHelper', 'loadDocument'] },
    ]);
  });
});

describe('analyseInvocationReads: URLs', () => {
  it('counts a model-chosen URL, and not a URL whose scheme and host the code fixes', () => {
    expect(readsOf(`async function run(input) { const response = await fetch(input.url); return response.text(); }`).reads).toEqual([
      { callName: 'fetch', reader: 'fetch', kind: 'url', via: [] },
    ]);
    for (const body of [
      'return (await fetch(`https://api.example.com/search?q=${encodeURIComponent(input.query)}`)).text();',
      "return (await fetch('https://api.example.com/search?q=' + input.query)).text();",
      "const url = new URL('/search', 'https://api.example.com'); url.searchParams.set('q', input.query); return (await fetch(url)).text();",
    ]) {
      expect(readsOf(`async function run(input) { ${body} }`).reads, body).toEqual([]);
    }
  });

  it('keeps a fixed origin fixed in the helper it is handed to', () => {
    const { reads } = readsOf(`async function get(url) { return (await fetch(url)).text(); }
async function run(input) { return get(\`https://api.example.com/items/\${input.id}\`); }`);
    expect(reads).toEqual([]);
    const chosen = readsOf(`async function get(url) { return (await fetch(url)).text(); }
async function run(input) { return get(input.url); }`);
    expect(chosen.reads).toEqual([{ callName: 'get', reader: 'fetch', kind: 'url', via: ['get'] }]);
  });
});

describe('analyseInvocationReads: entries', () => {
  it("keeps a dispatcher's findings and returns to the entry's region", () => {
    const file = indexOf(`import { readFile } from 'node:fs/promises';
async function run(name, args) {
  switch (name) {
    case 'read': return readFile(args.path, 'utf8');
    case 'size': { const text = await readFile(args.path, 'utf8'); return String(text.length); }
  }
}`);
    const fn = functionNamed(file, 'run');
    const switchStatement = (fn.body as TSESTree.BlockStatement).body[0] as TSESTree.SwitchStatement;
    const [read, size] = switchStatement.cases;
    const inRegion = (region: TSESTree.Node) =>
      analyseInvocationReads(
        { entries: [{ fn, inputParameters: [1], inputThisMembers: [], classNode: undefined, invocationClass: undefined, region }] },
        file,
        environment,
      );
    const readCase = inRegion(read!);
    expect(readCase.findings.map((finding) => finding.call.loc.start.line)).toEqual([4]);
    expect(readCase.returnsContent).toBe(true);
    const sizeCase = inRegion(size!);
    expect(sizeCase.findings.map((finding) => finding.call.loc.start.line)).toEqual([5]);
    expect(sizeCase.returnsContent).toBe(false);
  });

  it('reads the input of an invocation class from what its constructor derives from the params', () => {
    const code = `import { readFile } from 'node:fs/promises';
class ReadInvocation {
  constructor(config, params) { this.config = config; this.params = params; this.target = params.path; }
  async execute() { return (await readFile(this.target, 'utf8')) + (await readFile(this.config.logPath, 'utf8')); }
}
class ReadTool extends BaseDeclarativeTool {
  createInvocation(params) { return new ReadInvocation(this.config, params); }
}`;
    const file = indexOf(code);
    const [definition] = findToolDefinitions(file.program, DEFAULT_RECOGNITION_SETTINGS);
    const invocation = getInvocation(definition!, DEFAULT_RECOGNITION_SETTINGS, file);
    const { findings, returnsContent } = analyseInvocationReads(invocation, file, environment);
    const argument = findings.map((finding) => finding.call.arguments[0]!);
    expect(argument.map((node) => code.slice(...node.range))).toEqual(['this.target']);
    expect(returnsContent).toBe(true);
  });
});
