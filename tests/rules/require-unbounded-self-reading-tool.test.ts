import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { type InvalidTestCase, RuleTester } from '@typescript-eslint/rule-tester';

import rule, { type MessageIds, type Options } from '../../src/rules/require-unbounded-self-reading-tool.js';
import { classifyCases, harnessTypesDirectory, harnessTypesFile } from './harness-types-cases.js';
import { jsonRpcMessageServer, jsonRpcServer } from './json-rpc-server.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const crossFile = path.join(fixtures, 'self-reading', 'tool.ts');
const typedDirectory = path.join(fixtures, 'self-reading-typed');
const typedFile = path.join(typedDirectory, 'file.ts');

type ReadError = {
  toolName: string;
  readCall: string;
  resource?: 'path' | 'URL' | 'resource';
  declared?: string;
  /** How the fix writes the sentinel: `Infinity`, or `UNBOUNDED` where the file imports tool-result-guard. */
  unbounded?: string;
  /** The suggestion's edit: replace the first occurrence of [0] with [1]. */
  fix: [string, string];
};

/** An invalid case with complete message data and the suggestion's exact output. */
function invalid(
  code: string,
  errors: ReadError[],
  extra: Pick<InvalidTestCase<MessageIds, Options>, 'filename' | 'settings' | 'options'> = {},
): InvalidTestCase<MessageIds, Options> {
  return {
    code,
    ...extra,
    errors: errors.map(({ toolName, readCall, resource = 'path', declared, unbounded = 'Infinity', fix }) => {
      if (!code.includes(fix[0])) throw new Error(`fix anchor not in code: ${fix[0]}`);
      return {
        messageId: declared === undefined ? 'missingUnbounded' : 'finiteBound',
        data: { toolName, readCall, resource, declared: declared ?? 'without a value', unbounded },
        suggestions: [{ messageId: 'setUnbounded', output: code.replace(fix[0], fix[1]) }],
      };
    }),
  };
}

/** A reading tool reported with no fix: nothing of its code can hold the classification (another package's helper, a builder's chain). */
function unfixedRead(code: string, toolName: string): InvalidTestCase<MessageIds, Options> {
  return {
    code,
    errors: [{ messageId: 'missingUnbounded', data: { toolName, readCall: '`readFile`', resource: 'path', unbounded: 'Infinity' } }],
  };
}

/**
 * An AI SDK `tool({…})` whose contract says it reads, fixed by wrapping it in `classifyTool(…, { reads: 'path',
 * maxResultSizeChars: UNBOUNDED })`, the import added after the module's last import (`lastImport`).
 */
function readByContract(code: string, lastImport: string): InvalidTestCase<MessageIds, Options> {
  return {
    code,
    errors: [
      {
        messageId: 'missingUnboundedByContract',
        suggestions: [
          {
            messageId: 'setUnbounded',
            output: code
              .replace(lastImport, `${lastImport}import { classifyTool, UNBOUNDED } from 'tool-result-guard';\n`)
              .replace('= tool({', '= classifyTool(tool({')
              .replace(/\) \}\);$/, ") }), { reads: 'path', maxResultSizeChars: UNBOUNDED });"),
          },
        ],
      },
    ],
  };
}

const ruleTester = new RuleTester();
const typedRuleTester = new RuleTester({
  languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: typedDirectory } },
});

ruleTester.run('require-unbounded-self-reading-tool', rule, {
  valid: [
    // A confirmation method reads the file only to show the user a diff; the call returns a status.
    `import { readFile, writeFile } from 'node:fs/promises';
     export class EditTool extends BaseTool { maxResultSizeChars = 10_000;
       async shouldConfirmExecute(input) { const old = await readFile(input.file_path, 'utf8'); return { diff: old }; }
       async call(input) { await writeFile(input.file_path, input.content); return 'ok'; } }`,
    // Every shape, declared Infinity / POSITIVE_INFINITY / UNBOUNDED / a const bound to one.
    `import { readFile } from 'node:fs/promises';
     export const FileRead = buildTool({ name: 'Read', maxResultSizeChars: Infinity,
       async call(input) { return readFile(input.file_path, 'utf8'); } });`,
    `import fs from 'node:fs';
     export default defineTool({ name: 'read', maxResultSizeChars: Number.POSITIVE_INFINITY,
       execute: async ({ path }) => fs.promises.readFile(path, 'utf8') });`,
    `import { UNBOUNDED } from 'tool-result-guard';
     const readTool = tool({ description: 'read', maxResultSizeChars: UNBOUNDED,
       execute: async (args) => (await fetch(args.url)).text() });`,
    `const NEVER_PERSIST = Infinity;
     createTool({ id: 'read', maxResultSizeChars: NEVER_PERSIST, execute: async (input) => readFileSync(input.path) });`,
    `Tool.define('read', { maxResultSizeChars: Infinity as Unbounded, async execute(params) { return readTextFile(params.path); } });`,
    `class FileReadTool { maxResultSizeChars = Infinity; async call(input) { return fs.readFile(input.path); } }`,
    `class WebFetch extends BaseTool { static readonly maxResultSizeChars = Infinity; async run({ url }) { return (await fetch(url)).text(); } }`,
    `class ReadResource extends StructuredTool { get maxResultSizeChars() { return UNBOUNDED; } async _call(input) { return this.client.readResource({ uri: input.uri }); } }`,
    `server.registerTool('read_text_file', { description: 'read', _meta: { 'anthropic/maxResultSizeChars': Infinity } },
       async (args) => ({ content: [{ type: 'text', text: await readFile(args.path, 'utf8') }] }));`,
    `server.registerTool('fetch_url', { maxResultSizeChars: Infinity }, async ({ url }) => (await fetch(url)).text());`,
    `new DynamicStructuredTool({ name: 'read', maxResultSizeChars: Infinity, func: async (input) => readFile(input.path, 'utf8') });`,
    `const readTool: Tool = { name: 'read', maxResultSizeChars: Infinity, async call(input) { return readFile(input.path); } };`,
    // A subclass inherits the classification of its base in the same file.
    `class BaseReadTool extends BaseTool { maxResultSizeChars = Infinity; }
     class NotebookReadTool extends BaseReadTool { async call(input) { return readFile(input.notebook_path); } }`,
    // Reads nothing the model chose: fixed paths, module constants, __dirname joins.
    `const CONFIG = '/etc/agent/config.json';
     buildTool({ name: 'Config', maxResultSizeChars: 10_000, async call() { return readFile(CONFIG, 'utf8'); } });`,
    `defineTool({ name: 'Help', maxResultSizeChars: 20_000, async execute(input) { return readFile(path.join(__dirname, 'help.md'), 'utf8'); } });`,
    // The input is only a context/options object in the second parameter.
    `buildTool({ name: 'Status', maxResultSizeChars: 5_000, async call(input, context) { return readFile(context.statusFile, 'utf8'); } });`,
    // A URL whose scheme and host are fixed in code is an API call.
    `buildTool({ name: 'Items', maxResultSizeChars: 50_000, async call({ id }) { return (await fetch(\`https://api.example.com/items/\${id}\`)).json(); } });`,
    `class BraveSearch extends Tool { async _call(input) {
       const searchUrl = new URL(\`https://api.search.brave.com/res/v1/web/search?q=\${encodeURIComponent(input)}\`);
       return (await fetch(searchUrl, { headers: this.headers })).json(); } }`,
    `class Wiki extends Tool { baseUrl = 'https://en.wikipedia.org/w/api.php';
       async _call(query) { const params = new URLSearchParams({ search: query }); return (await fetch(\`\${this.baseUrl}?\${params}\`)).json(); } }`,
    `class SearchApi extends Tool {
       buildUrl(q) { return \`https://www.searchapi.io/api/v1/search?\${new URLSearchParams({ q })}\`; }
       async _call(input) { return (await fetch(this.buildUrl(input))).json(); } }`,
    `import axios from 'axios';
     buildTool({ name: 'Weather', maxResultSizeChars: 1000, async call({ city }) { return axios.get('https://api.weather.test/v1?city=' + city); } });`,
    // Not tools at all.
    `async function readAnything(p) { return readFile(p, 'utf8'); }`,
    `class FileCache { async call(input) { return readFile(input.path); } }`,
    `const handlers = { execute: async (input) => readFile(input.path) };`,
    // `fetch` as a method of something else is not the global fetch.
    `buildTool({ name: 'Channel', maxResultSizeChars: 1000, async call(input) { return this.client.channels.fetch(input.channelId); } });`,
    // Writers and listers are not readers.
    `import fs from 'node:fs/promises';
     buildTool({ name: 'Write', maxResultSizeChars: 1000, async call(input) { await fs.writeFile(input.path, input.content); return 'ok'; } });`,
    `import { readdir } from 'node:fs/promises';
     server.registerTool('list_directory', { description: 'ls' }, async (args) => ({ content: (await readdir(args.path)).join('\\n') }));`,
    // requireClassification off: an unclassified tool that reads nothing is fine.
    `buildTool({ name: 'Clock', async call() { return new Date().toISOString(); } });`,
    // Cross-file: helpers that do not read, or read fixed paths.
    {
      code: `import { describePath, loadTemplate } from './helpers.js';
        buildTool({ name: 'Describe', maxResultSizeChars: 100, async call(input) { await loadTemplate(input.name); return describePath(input.path); } });`,
      filename: crossFile,
    },
    {
      code: `import { writeFileContent } from './lib.js';
        buildTool({ name: 'Write', maxResultSizeChars: 100, async call(input) { await writeFileContent(input.path, input.text); } });`,
      filename: crossFile,
    },
    // Unparseable and recursive modules are unknown, never a crash.
    {
      code: `import { readBroken } from './broken.js';
        buildTool({ name: 'Broken', maxResultSizeChars: 100, async call(input) { return readBroken(input.path); } });`,
      filename: crossFile,
    },
    {
      code: `import { pingPong } from './recursive.js';
        buildTool({ name: 'PingPong', maxResultSizeChars: 100, async call(input) { return pingPong(input.path); } });`,
      filename: crossFile,
    },
    // Compiled CommonJS: a helper that writes, a tool that reads only a size.
    {
      code: `const helpers_1 = require("./cjs/helpers.cjs");
        const lib_1 = require("./cjs/index.cjs");
        exports.save = (0, ai_1.tool)({ description: 'save', execute: async (args) => (0, helpers_1.writeText)(args.path, args.text) });
        exports.size = (0, ai_1.tool)({ description: 'size', maxResultSizeChars: 100, execute: async (args) => String((0, lib_1.sizeOf)(args.path)) });`,
      filename: crossFile,
    },
    // Settings can add readers; unlisted helpers of packages stay unknown.
    `import { loadBlob } from 'blob-store';
     buildTool({ name: 'Blob', maxResultSizeChars: 100, async call(input) { return loadBlob(input.key); } });`,
  ],
  invalid: [
    {
      code: `import { readFile } from 'node:fs/promises';
export const FileRead = buildTool({
  name: 'Read',
  async call(input) {
    return readFile(input.file_path, 'utf8');
  },
});`,
      errors: [
        {
          messageId: 'missingUnbounded',
          data: { toolName: 'Read', readCall: '`readFile`', resource: 'path', declared: 'without a value', unbounded: 'Infinity' },
          suggestions: [
            {
              messageId: 'setUnbounded',
              output: `import { readFile } from 'node:fs/promises';
export const FileRead = buildTool({
  name: 'Read',
  async call(input) {
    return readFile(input.file_path, 'utf8');
  },
  maxResultSizeChars: Infinity,
});`,
            },
          ],
        },
      ],
    },
    invalid(
      `import * as fs from 'fs';
defineTool({ name: 'read', maxResultSizeChars: 100_000, execute: async ({ path }) => fs.readFileSync(path, 'utf8') });`,
      [{ toolName: 'read', readCall: '`fs.readFileSync`', declared: '100_000', fix: ['100_000', 'Infinity'] }],
    ),
    // `tool` with `fetch` of a URL built from input.
    invalid(
      `const webFetch = tool({ description: 'fetch', execute: async (args) => { const target = new URL(args.url); return (await fetch(target)).text(); } });`,
      [{ toolName: 'webFetch', readCall: '`fetch`', resource: 'URL', fix: ['text(); } }', 'text(); }, maxResultSizeChars: Infinity }'] }],
    ),
    // Mastra's createTool names its tools by `id`.
    invalid(`createTool({ id: 'read', execute: async ({ context }) => readFile(path.resolve(process.cwd(), context.path)) });`, [
      { toolName: 'read', readCall: '`readFile`', fix: ['context.path)) }', 'context.path)), maxResultSizeChars: Infinity }'] },
    ]),
    // Tool.define with the name first.
    invalid(`Tool.define('read', { async execute(params) { const { filePath } = params; return fs.promises.readFile(filePath); } });`, [
      {
        toolName: 'read',
        readCall: '`fs.promises.readFile`',
        fix: ['readFile(filePath); } }', 'readFile(filePath); }, maxResultSizeChars: Infinity }'],
      },
    ]),
    invalid(`new DynamicStructuredTool({ name: 'read_file', func: async (input) => readFile(input.path, 'utf8') });`, [
      { toolName: 'read_file', readCall: '`readFile`', fix: ["'utf8') }", "'utf8'), maxResultSizeChars: Infinity }"] },
    ]),
    invalid(`const t = new DynamicTool({ name: 'fetch', func: async (url) => (await fetch(url)).text() });`, [
      { toolName: 'fetch', readCall: '`fetch`', resource: 'URL', fix: ['.text() }', '.text(), maxResultSizeChars: Infinity }'] },
    ]),
    // MCP registerTool: the fix goes into the config's `_meta`; the read is in a same-file helper.
    invalid(
      `server.registerTool('read_text_file', { description: 'read' }, async (args) => {
  const validPath = await validatePath(args.path);
  return { content: [{ type: 'text', text: await readFileContent(validPath) }] };
});
async function readFileContent(p) { return fs.readFile(p, 'utf-8'); }`,
      [
        {
          toolName: 'read_text_file',
          readCall: '`readFileContent` (→ fs.readFile)',
          fix: ["{ description: 'read' }", "{ description: 'read', _meta: { 'anthropic/maxResultSizeChars': Infinity } }"],
        },
      ],
    ),
    // An existing `_meta` gets the key; a finite one is replaced.
    invalid(`server.registerTool('read_media', { _meta: { owner: 'fs' } }, async ({ path }) => readFile(path));`, [
      { toolName: 'read_media', readCall: '`readFile`', fix: ["owner: 'fs' }", "owner: 'fs', 'anthropic/maxResultSizeChars': Infinity }"] },
    ]),
    invalid(
      `server.registerTool('read_media', { _meta: { 'anthropic/maxResultSizeChars': 50000 } }, async ({ path }) => readFile(path));`,
      [{ toolName: 'read_media', readCall: '`readFile`', declared: '50000', fix: ['50000', 'Infinity'] }],
    ),
    // server.tool with a named handler; paths mapped through a callback. Its objects are the input
    // shape (a `_meta` key there crashes the SDK at registration) and annotations: the registration
    // is wrapped in classifyTool instead, by its MCP name.
    {
      code: `const readMany = async (args) => Promise.all(args.paths.map((p) => readFile(p, 'utf8')));
server.tool('read_multiple_files', 'Read files', { paths: z.array(z.string()) }, readMany);`,
      errors: [
        {
          messageId: 'missingUnbounded',
          suggestions: [
            {
              messageId: 'setUnbounded',
              output: `import { classifyTool, UNBOUNDED } from 'tool-result-guard';

const readMany = async (args) => Promise.all(args.paths.map((p) => readFile(p, 'utf8')));
classifyTool(server.tool('read_multiple_files', 'Read files', { paths: z.array(z.string()) }, readMany), { name: 'read_multiple_files', reads: 'path', maxResultSizeChars: UNBOUNDED });`,
            },
          ],
        },
      ],
    },
    // `: Tool` annotation; the resource is carried in an object literal.
    invalid(
      `const readResourceTool: Tool = { name: 'read_resource', async call(input) { return client.readResource({ uri: input.uri }); } };`,
      [
        {
          toolName: 'read_resource',
          readCall: '`client.readResource`',
          resource: 'resource',
          fix: ['input.uri }); } }', 'input.uri }); }, maxResultSizeChars: Infinity }'],
        },
      ],
    ),
    invalid(
      `export const notebookRead = { name: 'NotebookRead', maxResultSizeChars: 30_000, async call({ notebook_path }) { return readFile(notebook_path); } } satisfies ToolDef;`,
      [{ toolName: 'NotebookRead', readCall: '`readFile`', declared: '30_000', fix: ['30_000', 'Infinity'] }],
    ),
    // A class with the member, finite: the value is replaced.
    invalid(
      `class FileReadTool {
  maxResultSizeChars = 100_000;
  async call(input) { return readFile(input.file_path); }
}`,
      [{ toolName: 'FileReadTool', readCall: '`readFile`', declared: '100_000', fix: ['100_000', 'Infinity'] }],
    ),
    // A class extending a *Tool base without the member: the fix inserts one.
    invalid(
      `class ReadFile extends StructuredTool {
  name = 'read_file';
  async _call(input) {
    const abs = path.join(this.root, input.path);
    return readFile(abs, 'utf8');
  }
}`,
      [
        {
          toolName: 'read_file',
          readCall: '`readFile`',
          fix: ['StructuredTool {\n', 'StructuredTool {\n  maxResultSizeChars = Infinity;\n'],
        },
      ],
    ),
    // gemini-cli: createInvocation builds an invocation class whose execute reads fields derived from `params`.
    invalid(
      `class ReadFileToolInvocation extends BaseToolInvocation {
  constructor(config, params) {
    super(params);
    this.config = config;
    this.resolvedPath = path.resolve(this.config.getTargetDir(), this.params.file_path);
  }
  async execute(signal) {
    const text = await this.readIt(this.resolvedPath);
    return { llmContent: text };
  }
  async readIt(p) { return fs.promises.readFile(p, 'utf8'); }
}
export class ReadFileTool extends BaseDeclarativeTool {
  createInvocation(params, messageBus) { return new ReadFileToolInvocation(this.config, params, messageBus); }
}`,
      [
        {
          toolName: 'ReadFileTool',
          readCall: '`this.readIt` (→ fs.promises.readFile)',
          fix: ['BaseDeclarativeTool {\n', 'BaseDeclarativeTool {\n  maxResultSizeChars = Infinity;\n'],
        },
      ],
    ),
    // gemini-cli's web_fetch: execute → this.method() → a helper → fetch of a URL from this.params.
    invalid(
      `class WebFetchInvocation extends BaseToolInvocation {
  constructor(context, params) { super(params); this.context = context; }
  async fetchDirect(signal) { const url = new URL(this.params.url).href; return fetchWithTimeout(url, 1000, { signal }); }
  async execute({ abortSignal }) { return this.fetchDirect(abortSignal); }
}
async function fetchWithTimeout(url, timeout, options) { return fetch(url, options); }
class WebFetchTool extends BaseDeclarativeTool { createInvocation(params) { return new WebFetchInvocation(this.context, params); } }`,
      [
        {
          toolName: 'WebFetchTool',
          readCall: '`this.fetchDirect` (→ fetchWithTimeout → fetch)',
          resource: 'URL',
          fix: ['BaseDeclarativeTool { createInvocation', 'BaseDeclarativeTool { maxResultSizeChars = Infinity; createInvocation'],
        },
      ],
    ),
    // A URL whose host comes from input is arbitrary, even with a fixed path after it.
    invalid(`buildTool({ name: 'Proxy', async call({ host }) { return (await fetch(\`https://\${host}/index.html\`)).text(); } });`, [
      { toolName: 'Proxy', readCall: '`fetch`', resource: 'URL', fix: ['.text(); } }', '.text(); }, maxResultSizeChars: Infinity }'] },
    ]),
    // http(s), undici, got, ky under aliases and default imports.
    invalid(
      `import https from 'node:https';
buildTool({ name: 'Get', async call(input) { return new Promise((resolve) => https.get(input.url, resolve)); } });`,
      [
        {
          toolName: 'Get',
          readCall: '`https.get`',
          resource: 'URL',
          fix: ['resolve)); } }', 'resolve)); }, maxResultSizeChars: Infinity }'],
        },
      ],
    ),
    invalid(
      `import { request as undiciRequest } from 'undici';
import got from 'got';
import ky from 'ky';
buildTool({ name: 'A', async call(input) { return undiciRequest(input.url); } });
buildTool({ name: 'B', async call(input) { return got(input.url).text(); } });
buildTool({ name: 'C', async call(input) { return ky.get(input.url).text(); } });`,
      [
        {
          toolName: 'A',
          readCall: '`undiciRequest`',
          resource: 'URL',
          fix: ['undiciRequest(input.url); } }', 'undiciRequest(input.url); }, maxResultSizeChars: Infinity }'],
        },
        {
          toolName: 'B',
          readCall: '`got`',
          resource: 'URL',
          fix: ['got(input.url).text(); } }', 'got(input.url).text(); }, maxResultSizeChars: Infinity }'],
        },
        {
          toolName: 'C',
          readCall: '`ky.get`',
          resource: 'URL',
          fix: ['ky.get(input.url).text(); } }', 'ky.get(input.url).text(); }, maxResultSizeChars: Infinity }'],
        },
      ],
    ),
    // require() with destructuring and an alias; loops and collections carry input.
    invalid(
      `const { createReadStream: openStream } = require('fs');
buildTool({ name: 'Cat', async call(input) {
  const files = [];
  for (const entry of input.entries) files.push(entry.path);
  return files.map((f) => openStream(f));
} });`,
      [{ toolName: 'Cat', readCall: '`openStream`', fix: ['openStream(f));\n} }', 'openStream(f));\n}, maxResultSizeChars: Infinity }'] }],
    ),
    // A class implementing a tool interface.
    invalid(`class GlobRead implements AgentTool<{ pattern: string }> { async execute(input) { return readFile(input.pattern); } }`, [
      { toolName: 'GlobRead', readCall: '`readFile`', fix: ['}> { async', '}> { maxResultSizeChars = Infinity; async'] },
    ]),
    // A finite bound inherited from a base of the same file: the subclass overrides it.
    invalid(
      `class LimitedTool extends BaseTool { maxResultSizeChars = 20_000; }
class CatTool extends LimitedTool { async call(input) { return readFile(input.path); } }`,
      [
        {
          toolName: 'CatTool',
          readCall: '`readFile`',
          declared: '20_000',
          fix: ['extends LimitedTool { async', 'extends LimitedTool { maxResultSizeChars = Infinity; async'],
        },
      ],
    ),
    // A let-bound "constant" is not the sentinel.
    invalid(
      `let LIMIT = Infinity;
buildTool({ name: 'Read', maxResultSizeChars: LIMIT, async call(input) { return readFile(input.path); } });`,
      [{ toolName: 'Read', readCall: '`readFile`', declared: 'LIMIT', fix: ['maxResultSizeChars: LIMIT', 'maxResultSizeChars: Infinity'] }],
    ),
    // requireClassification: every tool must say what it is.
    {
      code: `buildTool({ name: 'Clock', async call() { return new Date().toISOString(); } });`,
      options: [{ requireClassification: true }],
      errors: [
        {
          messageId: 'unclassified',
          data: { toolName: 'Clock' },
          // The finite default the codemod's classify-tools transform builds on.
          suggestions: [
            {
              messageId: 'setFiniteLimit',
              data: { limit: '50_000' },
              output: `buildTool({ name: 'Clock', async call() { return new Date().toISOString(); }, maxResultSizeChars: 50_000 });`,
            },
          ],
        },
      ],
    },
    {
      code: `class Bash extends BaseTool { async call(input) { return exec(input.command); } }`,
      options: [{ requireClassification: true }],
      errors: [
        {
          messageId: 'unclassified',
          data: { toolName: 'Bash' },
          suggestions: [
            {
              messageId: 'setFiniteLimit',
              data: { limit: '50_000' },
              output: `class Bash extends BaseTool { maxResultSizeChars = 50_000; async call(input) { return exec(input.command); } }`,
            },
          ],
        },
      ],
    },
    {
      code: `server.tool('clock', async () => ({ content: [] }));`,
      options: [{ requireClassification: true }],
      // server.tool has no config object of its own: the registration is wrapped.
      errors: [
        {
          messageId: 'unclassified',
          data: { toolName: 'clock' },
          suggestions: [
            {
              messageId: 'setFiniteLimit',
              data: { limit: '50_000' },
              output: `import { classifyTool } from 'tool-result-guard';

classifyTool(server.tool('clock', async () => ({ content: [] })), { name: 'clock', maxResultSizeChars: 50_000 });`,
            },
          ],
        },
      ],
    },
    // Settings add readers, factories, invocation names and base classes.
    invalid(
      `import { loadBlob } from 'blob-store';
makeAgentTool({ name: 'Blob', perform: async (input) => loadBlob(input.key) });`,
      [
        {
          toolName: 'Blob',
          readCall: '`loadBlob`',
          resource: 'resource',
          fix: ['loadBlob(input.key) }', 'loadBlob(input.key), maxResultSizeChars: Infinity }'],
        },
      ],
      {
        settings: {
          'tool-result-guard': {
            readers: [{ name: 'loadBlob', module: 'blob-store', kind: 'resource' }],
            toolFactories: ['makeAgentTool'],
            invocationNames: ['perform'],
          },
        },
      },
    ),
    invalid(
      `class Reader extends AgentBase { async call(input) { return readFile(input.path); } }`,
      [{ toolName: 'Reader', readCall: '`readFile`', fix: ['AgentBase { async', 'AgentBase { maxResultSizeChars = Infinity; async'] }],
      { settings: { 'tool-result-guard': { toolBaseClasses: ['AgentBase'] } } },
    ),
    // Cross-file without type information.
    invalid(
      `import { loadDocument } from './helpers.js';
buildTool({ name: 'Read', async call(input) { return loadDocument(input.path); } });`,
      [
        {
          toolName: 'Read',
          readCall: '`loadDocument` (→ readFile)',
          fix: ['(input.path); } }', '(input.path); }, maxResultSizeChars: Infinity }'],
        },
      ],
      { filename: crossFile },
    ),
    // Through a barrel, a renamed re-export, and a second helper hop.
    invalid(
      `import { readDocument, loadViaHelper } from './barrel/index.js';
buildTool({ name: 'A', async call(input) { return readDocument(input.path); } });
buildTool({ name: 'B', async call(input) { return loadViaHelper(input.path); } });`,
      [
        {
          toolName: 'A',
          readCall: '`readDocument` (→ readFile)',
          fix: ['readDocument(input.path); } }', 'readDocument(input.path); }, maxResultSizeChars: Infinity }'],
        },
        {
          toolName: 'B',
          readCall: '`loadViaHelper` (→ loadDocument → readFile)',
          fix: ['loadViaHelper(input.path); } }', 'loadViaHelper(input.path); }, maxResultSizeChars: Infinity }'],
        },
      ],
      { filename: crossFile },
    ),
    // A namespace import of a directory (index.ts), a .js module, an arrow export.
    invalid(
      `import * as helpers from './barrel';
import { readFileContent } from './lib.js';
buildTool({ name: 'A', async call(input) { return helpers.fetchPage(input.url); } });
buildTool({ name: 'B', async call(input) { return readFileContent(input.path); } });`,
      [
        {
          toolName: 'A',
          readCall: '`helpers.fetchPage` (→ fetch)',
          resource: 'URL',
          fix: ['fetchPage(input.url); } }', 'fetchPage(input.url); }, maxResultSizeChars: Infinity }'],
        },
        {
          toolName: 'B',
          readCall: '`readFileContent` (→ fs.readFile)',
          fix: ['readFileContent(input.path); } }', 'readFileContent(input.path); }, maxResultSizeChars: Infinity }'],
        },
      ],
      { filename: crossFile },
    ),
    // Compiled CommonJS (tsc, Babel, rolldown): `(0, m.f)(…)` calls, interop
    // helpers around `require`, `exports.x = …`, `Object.defineProperty`
    // re-exports, `__exportStar` and `module.exports = { … }`.
    invalid(
      `"use strict";
const fs_1 = __importDefault(require("node:fs"));
const helpers_1 = require("./cjs/helpers.cjs");
const lib_1 = require("./cjs/index.cjs");
exports.cat = (0, ai_1.tool)({ description: 'cat', execute: async (args) => fs_1.default.readFileSync(args.path, 'utf8') });
exports.a = (0, ai_1.tool)({ description: 'a', execute: async (args) => (0, helpers_1.readText)(args.path) });
exports.b = (0, ai_1.tool)({ description: 'b', execute: async (args) => (0, lib_1.loadText)(args.path) });
module.exports.c = (0, ai_1.tool)({ description: 'c', execute: async (args) => (0, lib_1.readAll)(args.path) });
exports.d = ai_1.tool({ description: 'd', execute: async (args) => lib_1.readLines(args.path) });`,
      [
        { toolName: 'cat', readCall: '`fs_1.default.readFileSync`', fix: ["'utf8') })", "'utf8'), maxResultSizeChars: Infinity })"] },
        {
          toolName: 'a',
          readCall: '`helpers_1.readText` (→ promises_1.default.readFile)',
          fix: ['readText)(args.path) })', 'readText)(args.path), maxResultSizeChars: Infinity })'],
        },
        {
          toolName: 'b',
          readCall: '`lib_1.loadText` (→ promises_1.default.readFile)',
          fix: ['loadText)(args.path) })', 'loadText)(args.path), maxResultSizeChars: Infinity })'],
        },
        {
          toolName: 'c',
          readCall: '`lib_1.readAll` (→ fs.readFileSync)',
          fix: ['readAll)(args.path) })', 'readAll)(args.path), maxResultSizeChars: Infinity })'],
        },
        {
          toolName: 'd',
          readCall: '`lib_1.readLines` (→ fs.readFileSync)',
          fix: ['readLines(args.path) })', 'readLines(args.path), maxResultSizeChars: Infinity })'],
        },
      ],
      { filename: crossFile },
    ),
    invalid(
      `const { readFile } = _interopRequireWildcard(require('fs/promises'));
const fsp = require('fs').promises;
exports.one = tool({ description: 'one', execute: async ({ path }) => readFile(path, 'utf8') });
exports.two = tool({ description: 'two', execute: async ({ path }) => fsp.readFile(path, 'utf8') });`,
      [
        {
          toolName: 'one',
          readCall: '`readFile`',
          fix: ["readFile(path, 'utf8') })", "readFile(path, 'utf8'), maxResultSizeChars: Infinity })"],
        },
        {
          toolName: 'two',
          readCall: '`fsp.readFile`',
          fix: ["fsp.readFile(path, 'utf8') })", "fsp.readFile(path, 'utf8'), maxResultSizeChars: Infinity })"],
        },
      ],
    ),
    // Recursion in the helper is bounded; the read is still found.
    invalid(
      `import { walkUp } from './recursive.js';
buildTool({ name: 'Up', async call(input) { return walkUp(input.path, 0); } });`,
      [{ toolName: 'Up', readCall: '`walkUp` (→ readFile)', fix: ['0); } }', '0); }, maxResultSizeChars: Infinity }'] }],
      { filename: crossFile },
    ),
  ],
});

typedRuleTester.run('require-unbounded-self-reading-tool (type-aware)', rule, {
  valid: [
    {
      code: `import { formatOnly } from '@lib/read.js';
buildTool({ name: 'Format', maxResultSizeChars: 100, async call(input: { path: string }) { return formatOnly(input.path); } });`,
      filename: typedFile,
    },
    {
      code: `import { store } from './reader-service.js';
buildTool({ name: 'Label', maxResultSizeChars: 100, async call(input: { path: string }) { return store.label(input.path); } });`,
      filename: typedFile,
    },
    // An options bag whose contextual type is a tool type, but which states no
    // name, description or input schema: the checker is not asked, it is no tool.
    {
      code: `interface Tool { name?: string; call(input: { path: string }): Promise<string>; maxResultSizeChars?: number }
function register(tool: Tool): void { void tool; }
import { readFile } from 'node:fs/promises';
register({ async call(input) { return readFile(input.path, 'utf8'); } });`,
      filename: typedFile,
    },
  ],
  invalid: [
    // A tsconfig path alias: only the checker knows where `@lib/read.js` is.
    invalid(
      `import { readThrough } from '@lib/read.js';
buildTool({ name: 'Alias', async call(input: { path: string }) { return readThrough(input.path); } });`,
      [
        {
          toolName: 'Alias',
          readCall: '`readThrough` (→ readFile)',
          fix: ['(input.path); } }', '(input.path); }, maxResultSizeChars: Infinity }'],
        },
      ],
      { filename: typedFile },
    ),
    // A method on a typed receiver declared in another file.
    invalid(
      `import { store } from './reader-service.js';
buildTool({ name: 'Load', async call(input: { path: string }) { return store.load(input.path); } });`,
      [
        {
          toolName: 'Load',
          readCall: '`store.load` (→ readFile)',
          fix: ['(input.path); } }', '(input.path); }, maxResultSizeChars: Infinity }'],
        },
      ],
      { filename: typedFile },
    ),
    // An object literal recognised by its contextual type alone.
    invalid(
      `interface Tool { name: string; call(input: { path: string }): Promise<string>; maxResultSizeChars?: number }
function register(tool: Tool): void { void tool; }
import { readFile } from 'node:fs/promises';
register({ name: 'Ctx', async call(input) { return readFile(input.path, 'utf8'); } });`,
      [{ toolName: 'Ctx', readCall: '`readFile`', fix: ["'utf8'); } }", "'utf8'); }, maxResultSizeChars: Infinity }"] }],
      { filename: typedFile },
    ),
  ],
});

// MCP and harness shapes: FastMCP `addTool`, single-object `registerTool`, renamable
// `server.tool` names, and the low-level `CallToolRequestSchema` dispatcher.
const lowLevelServer = (listEntry: string, dispatch: string): string =>
  `import { readFile } from 'node:fs/promises';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [${listEntry}] }));
${dispatch}`;

/**
 * A low-level server as tsc compiles it to CommonJS: the exported constant
 * `READ_FILE` becomes `exports.READ_FILE` wherever the source named it.
 */
const compiledServer = (listEntry: string): string =>
  `"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.READ_FILE = void 0;
const promises_1 = require("node:fs/promises");
const types_js_1 = require("@modelcontextprotocol/sdk/types.js");
exports.READ_FILE = 'read_file';
server.setRequestHandler(types_js_1.ListToolsRequestSchema, async () => ({ tools: [${listEntry}] }));
server.setRequestHandler(types_js_1.CallToolRequestSchema, async (request) => {
    switch (request.params.name) {
        case exports.READ_FILE: return { content: [{ type: 'text', text: await (0, promises_1.readFile)(request.params.arguments.path, 'utf8') }] };
        default: throw new Error('unknown tool');
    }
});`;

ruleTester.run('require-unbounded-self-reading-tool: MCP and harness shapes', rule, {
  valid: [
    // FastMCP: declared sentinel, and a tool that writes (no content back).
    `server.addTool({ name: 'read_page', maxResultSizeChars: Infinity, execute: async (args) => readFile(args.path, 'utf8') });`,
    `server.addTool({ name: 'save', execute: async (args) => { await writeFile(args.path, args.text); return 'saved'; } });`,
    // A switch on a name that is not the requested tool's: not a tool.
    `import { readFile } from 'node:fs/promises';
function render(kind, args) { switch (kind) { case 'file': return readFile(args.path, 'utf8'); default: return ''; } }`,
    // The low-level dispatcher: the list entry declares the sentinel in `_meta`.
    lowLevelServer(
      `{ name: 'read_file', inputSchema: {}, _meta: { 'anthropic/maxResultSizeChars': Infinity } }`,
      `server.setRequestHandler(CallToolRequestSchema, async (request) => {
  switch (request.params.name) {
    case 'read_file': return { content: [{ type: 'text', text: await readFile(request.params.arguments.path, 'utf8') }] };
    default: throw new Error('unknown tool');
  }
});`,
    ),
    // tsc's CommonJS output: `case exports.READ_FILE` is the tool `read_file`, classified in its list entry.
    compiledServer(`{ name: exports.READ_FILE, inputSchema: {}, _meta: { 'anthropic/maxResultSizeChars': Infinity } }`),
    // A `!==` guard that does not leave is no dispatch: nothing after it is one tool's.
    lowLevelServer(
      `{ name: 'read_file', inputSchema: {} }`,
      `server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name, arguments: args } = request.params;
  if (name !== 'read_file') { console.error('other tool', name); }
  return { content: [{ type: 'text', text: 'ok' }] };
});`,
    ),
    // Another branch's read is not this branch's: `status` reads nothing.
    lowLevelServer(
      `{ name: 'read_file', inputSchema: {}, _meta: { 'anthropic/maxResultSizeChars': Infinity } }, { name: 'status', inputSchema: {} }`,
      `server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name, arguments: args } = request.params;
  if (name === 'status') { return { content: [{ type: 'text', text: 'ok' }] }; }
  if (name === 'read_file') { return { content: [{ type: 'text', text: await readFile(args.path, 'utf8') }] }; }
  throw new Error('unknown tool');
});`,
    ),
  ],
  invalid: [
    // FastMCP `addTool` on any receiver; FastMCP lists the tool's `_meta` as given, so the fix goes there.
    invalid(`this.server.addTool({ name: 'read_page', execute: async (args) => readFile(args.path, 'utf8') });`, [
      {
        toolName: 'read_page',
        readCall: '`readFile`',
        fix: ["'utf8') }", "'utf8'), _meta: { 'anthropic/maxResultSizeChars': Infinity } }"],
      },
    ]),
    // The tool object in a variable, registered with a spread and a `_meta` of its own: the fix goes there.
    invalid(
      `const TOOL_NAME = 'read_page';
const readTool = { name: TOOL_NAME, execute: async (args) => readFile(args.path, 'utf8') };
server.addTool({ ...readTool, _meta: { pinned: true } });`,
      [
        {
          toolName: 'read_page',
          readCall: '`readFile`',
          fix: ['pinned: true }', "pinned: true, 'anthropic/maxResultSizeChars': Infinity }"],
        },
      ],
    ),
    // `registerTool` in its single-object form: an MCP registration, so `_meta`.
    invalid(`server.registerTool({ name: 'cat', handler: async ({ path }) => readFile(path, 'utf8') });`, [
      { toolName: 'cat', readCall: '`readFile`', fix: ["'utf8') }", "'utf8'), _meta: { 'anthropic/maxResultSizeChars': Infinity } }"] },
    ]),
    // `registerTool(toolName || 'web_fetch', …)`: the model sees the default name.
    invalid(
      `function register(server, toolName) { server.registerTool(toolName || 'web_fetch', { description: 'fetch a page' }, async ({ url }) => ({ content: [{ type: 'text', text: await (await fetch(url)).text() }] })); }`,
      [
        {
          toolName: 'web_fetch',
          readCall: '`fetch`',
          resource: 'URL',
          fix: ["{ description: 'fetch a page' }", "{ description: 'fetch a page', _meta: { 'anthropic/maxResultSizeChars': Infinity } }"],
        },
      ],
    ),
    // The low-level dispatcher, `switch (request.params.name)`: named by its case, fixed in the list entry.
    invalid(
      lowLevelServer(
        `{ name: 'read_file', inputSchema: {} }`,
        `server.setRequestHandler(CallToolRequestSchema, async (request) => {
  switch (request.params.name) {
    case 'read_file': return { content: [{ type: 'text', text: await readFile(request.params.arguments.path, 'utf8') }] };
    default: throw new Error('unknown tool');
  }
});`,
      ),
      [
        {
          toolName: 'read_file',
          readCall: '`readFile`',
          fix: ['inputSchema: {} }', "inputSchema: {}, _meta: { 'anthropic/maxResultSizeChars': Infinity } }"],
        },
      ],
    ),
    // A constant names the case; the handler passes the request on to a function that destructures it.
    invalid(
      lowLevelServer(
        `{ name: Tools.Read, inputSchema: {} }`,
        `const Tools = { Read: 'read_file', Status: 'status' };
server.setRequestHandler(CallToolRequestSchema, async (request) => handleCall(request));
async function handleCall(request) {
  const { name, arguments: args } = request.params;
  switch (name) {
    case Tools.Status: return { content: [{ type: 'text', text: 'ok' }] };
    case Tools.Read: return { content: [{ type: 'text', text: await readFile(args.path, 'utf8') }] };
  }
}`,
      ),
      [
        {
          toolName: 'read_file',
          readCall: '`readFile`',
          fix: ['inputSchema: {} }', "inputSchema: {}, _meta: { 'anthropic/maxResultSizeChars': Infinity } }"],
        },
      ],
    ),
    // tsc's CommonJS output names the tool `exports.READ_FILE`: the model sees its value.
    invalid(compiledServer(`{ name: exports.READ_FILE, inputSchema: {} }`), [
      {
        toolName: 'read_file',
        readCall: '`promises_1.readFile`',
        fix: ['inputSchema: {} }', "inputSchema: {}, _meta: { 'anthropic/maxResultSizeChars': Infinity } }"],
      },
    ]),
    invalid(
      `exports.FETCH = 'web_fetch';
server.registerTool(exports.FETCH, { description: 'fetch a page' }, async ({ url }) => ({ content: [{ type: 'text', text: await (await fetch(url)).text() }] }));`,
      [
        {
          toolName: 'web_fetch',
          readCall: '`fetch`',
          resource: 'URL',
          fix: ["{ description: 'fetch a page' }", "{ description: 'fetch a page', _meta: { 'anthropic/maxResultSizeChars': Infinity } }"],
        },
      ],
    ),
    // The handler delegates with the name and the arguments: `handleToolCall(name, args)` switches on the name.
    invalid(
      lowLevelServer(
        `{ name: 'cat', inputSchema: {} }`,
        `async function handleToolCall(name, args) {
  switch (name) {
    case 'cat': return { content: [{ type: 'text', text: await readFile(args.path, 'utf8') }] };
  }
}
server.setRequestHandler(CallToolRequestSchema, async (request) => handleToolCall(request.params.name, request.params.arguments ?? {}));`,
      ),
      [
        {
          toolName: 'cat',
          readCall: '`readFile`',
          fix: ['inputSchema: {} }', "inputSchema: {}, _meta: { 'anthropic/maxResultSizeChars': Infinity } }"],
        },
      ],
    ),
    // The `if (name === 'x')` form.
    invalid(
      lowLevelServer(
        `{ name: 'status', inputSchema: {} }, { name: 'read_file', inputSchema: { type: 'object' } }`,
        `server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name, arguments: args } = request.params;
  if (name === 'status') { return { content: [{ type: 'text', text: 'ok' }] }; }
  if (name === 'read_file') { return { content: [{ type: 'text', text: await readFile(args.path, 'utf8') }] }; }
  throw new Error('unknown tool');
});`,
      ),
      [
        {
          toolName: 'read_file',
          readCall: '`readFile`',
          fix: [
            "inputSchema: { type: 'object' } }",
            "inputSchema: { type: 'object' }, _meta: { 'anthropic/maxResultSizeChars': Infinity } }",
          ],
        },
      ],
    ),
    // A one-tool server: `if (name !== 'x') throw …` guards the rest of the handler, which is that tool.
    invalid(
      lowLevelServer(
        `{ name: 'read_file', inputSchema: { type: 'object' } }`,
        `server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name, arguments: args } = request.params;
  if (name !== 'read_file') {
    throw new Error('unknown tool');
  }
  return { content: [{ type: 'text', text: await readFile(args.path, 'utf8') }] };
});`,
      ),
      [
        {
          toolName: 'read_file',
          readCall: '`readFile`',
          fix: [
            "inputSchema: { type: 'object' } }",
            "inputSchema: { type: 'object' }, _meta: { 'anthropic/maxResultSizeChars': Infinity } }",
          ],
        },
      ],
    ),
  ],
});

// Frameworks whose tool type has no classification field: the fix must compile there, so it wraps the tool.
ruleTester.run('require-unbounded-self-reading-tool (classifyTool)', rule, {
  valid: [
    `import { tool } from 'ai';
import { classifyTool, UNBOUNDED } from 'tool-result-guard';
export const readFile = classifyTool(tool({ description: 'read', execute: async ({ path }) => fs.readFile(path, 'utf8') }), { reads: 'path', maxResultSizeChars: UNBOUNDED });`,
    // Nested wrappers (a stateScope added later): the outer ones are read too.
    `import { createTool } from '@mastra/core/tools';
import { classifyTool } from 'tool-result-guard';
classifyTool(classifyTool(createTool({ id: 'fetch', execute: async ({ context }) => (await fetch(context.url)).text() }), { stateScope: 'session' }), { maxResultSizeChars: Infinity });`,
    `classifyTool(server.tool('read', { path: z.string() }, async ({ path }) => readFile(path)), { maxResultSizeChars: Infinity });`,
  ],
  invalid: [
    {
      // A name held in a constant is reported by its value; the wrapper names it by the constant.
      code: `const TRIGGER_TOOL = 'trigger-sampling-request';
server.tool(TRIGGER_TOOL, { url: z.string() }, async ({ url }) => (await fetch(url)).text());`,
      errors: [
        {
          messageId: 'missingUnbounded',
          data: {
            toolName: 'trigger-sampling-request',
            readCall: '`fetch`',
            reader: 'fetch',
            resource: 'URL',
            declared: 'without a value',
            unbounded: 'UNBOUNDED',
          },
          suggestions: [
            {
              messageId: 'setUnbounded',
              output: `import { classifyTool, UNBOUNDED } from 'tool-result-guard';

const TRIGGER_TOOL = 'trigger-sampling-request';
classifyTool(server.tool(TRIGGER_TOOL, { url: z.string() }, async ({ url }) => (await fetch(url)).text()), { name: TRIGGER_TOOL, reads: 'url', maxResultSizeChars: UNBOUNDED });`,
            },
          ],
        },
      ],
    },
    {
      // AI SDK: the key of the tools record is the tool's name; double quotes stay double quotes.
      code: `import { tool } from "ai";
import { readFile } from "node:fs/promises";
export const tools = {
  read_file: tool({ description: "Read a file", execute: async ({ path }) => readFile(path, "utf8") }),
};`,
      errors: [
        {
          messageId: 'missingUnbounded',
          suggestions: [
            {
              messageId: 'setUnbounded',
              output: `import { tool } from "ai";
import { readFile } from "node:fs/promises";
import { classifyTool, UNBOUNDED } from "tool-result-guard";
export const tools = {
  read_file: classifyTool(tool({ description: "Read a file", execute: async ({ path }) => readFile(path, "utf8") }), { name: "read_file", reads: "path", maxResultSizeChars: UNBOUNDED }),
};`,
            },
          ],
        },
      ],
    },
    {
      // OpenAI Agents: an existing import from tool-result-guard is extended.
      code: `import { tool } from '@openai/agents';
import { markSeen } from 'tool-result-guard';
const fetchPage = tool({ name: 'fetch_page', execute: async (input) => (await fetch(input.url)).text() });`,
      errors: [
        {
          messageId: 'missingUnbounded',
          suggestions: [
            {
              messageId: 'setUnbounded',
              output: `import { tool } from '@openai/agents';
import { markSeen, classifyTool, UNBOUNDED } from 'tool-result-guard';
const fetchPage = classifyTool(tool({ name: 'fetch_page', execute: async (input) => (await fetch(input.url)).text() }), { reads: 'url', maxResultSizeChars: UNBOUNDED });`,
            },
          ],
        },
      ],
    },
    {
      // A finite bound in the wrapper is replaced where it stands.
      code: `import { tool } from '@langchain/core/tools';
import { classifyTool } from 'tool-result-guard';
const read = classifyTool(tool(async (input) => readFile(input.path, 'utf8'), { name: 'read', schema }), { maxResultSizeChars: 50_000 });`,
      errors: [
        {
          messageId: 'finiteBound',
          suggestions: [
            {
              messageId: 'setUnbounded',
              // The file imports tool-result-guard: the branded UNBOUNDED its types demand, imported with classifyTool.
              output: `import { tool } from '@langchain/core/tools';
import { classifyTool, UNBOUNDED } from 'tool-result-guard';
const read = classifyTool(tool(async (input) => readFile(input.path, 'utf8'), { name: 'read', schema }), { maxResultSizeChars: UNBOUNDED });`,
            },
          ],
        },
      ],
    },
  ],
});

// Circular persistence needs the result to carry what was read: a tool that
// reads a model-chosen file and answers with a status, a count or a diff of
// its own edit cannot be read back from a persisted result.
ruleTester.run('require-unbounded-self-reading-tool: the content reaches the output', rule, {
  valid: [
    `import { readFile, writeFile } from 'node:fs/promises';
buildTool({ name: 'Edit', maxResultSizeChars: 1000, async call(input) {
  const before = await readFile(input.path, 'utf8');
  await writeFile(input.path, before.replace(input.old_string, input.new_string));
  return 'Edited ' + input.path;
} });`,
    `import { readFile, writeFile } from 'node:fs/promises';
import { createPatch } from 'diff';
server.registerTool('edit_file', { description: 'edit' }, async (args) => {
  const before = await readFile(args.path, 'utf8');
  const after = before.split(args.old).join(args.new);
  await writeFile(args.path, after);
  return { content: [{ type: 'text', text: createPatch(args.path, before, after) }] };
});`,
    `import { readFile } from 'node:fs/promises';
class WriteInvocation { async execute(params) {
  const before = await readFile(params.file_path, 'utf8');
  return { llmContent: 'Wrote ' + params.file_path, returnDisplay: before };
} }
class WriteTool extends BaseTool { maxResultSizeChars = 1000; async execute(params) { const before = await readFile(params.file_path, 'utf8'); return { llmContent: 'ok', returnDisplay: before }; } }`,
    `import { readFile } from 'node:fs/promises';
defineTool({ name: 'Count', maxResultSizeChars: 100, async execute(input) { const text = await readFile(input.path, 'utf8'); return { lines: text.split('\\n').length }; } });`,
  ],
  invalid: [
    invalid(
      `import { readFile } from 'node:fs/promises';
defineTool({ name: 'Cat', maxResultSizeChars: 100, async execute(input) { const text = await readFile(input.path, 'utf8'); return { llmContent: text, returnDisplay: 'Read' }; } });`,
      [{ toolName: 'Cat', readCall: '`readFile`', declared: '100', fix: ['maxResultSizeChars: 100', 'maxResultSizeChars: Infinity'] }],
    ),
    invalid(
      `import { readFile } from 'node:fs/promises';
function numbered(text) { return text.split('\\n').map((line, i) => i + 1 + ': ' + line).join('\\n'); }
defineTool({ name: 'View', maxResultSizeChars: 100, async execute(input) { return { content: [{ type: 'text', text: numbered(await readFile(input.path, 'utf8')) }] }; } });`,
      [{ toolName: 'View', readCall: '`readFile`', declared: '100', fix: ['maxResultSizeChars: 100', 'maxResultSizeChars: Infinity'] }],
    ),
  ],
});

// Locations the code fixes: the model's argument only picks among files the
// code owns, so a persisted result elsewhere can never be read back.
ruleTester.run('require-unbounded-self-reading-tool: locations the code fixes', rule, {
  valid: [
    // Confined by a startsWith check to a folder shipped with the package.
    `import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
function docsFolder() { return path.join(path.dirname(fileURLToPath(import.meta.url)), 'docs'); }
defineTool({ name: 'Docs', maxResultSizeChars: 1000, async execute(input) {
  const root = docsFolder();
  const target = path.resolve(root, input.path);
  if (!target.startsWith(root)) throw new Error('outside the docs');
  return fs.readFile(target, 'utf8');
} });`,
    // The same with path.relative against __dirname.
    `import fs from 'node:fs/promises';
import path from 'node:path';
const HELP = path.join(__dirname, 'help');
defineTool({ name: 'Help', maxResultSizeChars: 1000, async execute(input) {
  const target = path.join(HELP, input.topic);
  if (path.relative(HELP, target).startsWith('..')) return 'no such topic';
  return fs.readFile(target, 'utf8');
} });`,
    // A name looked up in the code's own collection.
    `import fs from 'node:fs/promises';
import path from 'node:path';
const skills = new Map();
defineTool({ name: 'Skill', maxResultSizeChars: 1000, async execute({ skillName }) {
  const skill = skills.get(skillName);
  if (!skill) return 'unknown skill';
  return fs.readFile(path.join(skill.folder, 'SKILL.md'), 'utf8');
} });`,
  ],
  invalid: [
    // Confined to the workspace, which holds persisted results too: still model-chosen.
    invalid(
      `import fs from 'node:fs/promises';
import path from 'node:path';
defineTool({ name: 'Read', maxResultSizeChars: 1000, async execute(input) {
  const root = process.cwd();
  const target = path.resolve(root, input.path);
  if (!target.startsWith(root)) throw new Error('outside the workspace');
  return fs.readFile(target, 'utf8');
} });`,
      [
        {
          toolName: 'Read',
          readCall: '`fs.readFile`',
          declared: '1000',
          fix: ['maxResultSizeChars: 1000', 'maxResultSizeChars: Infinity'],
        },
      ],
    ),
  ],
});

// Executors and services: a method named for reading, given the model's
// location, is a read; only its content coming back makes the tool report.
ruleTester.run('require-unbounded-self-reading-tool: reads through executors and services', rule, {
  valid: [
    // The service reads, but the tool answers with a status.
    `createTool({ id: 'touch', maxResultSizeChars: 100, execute: async ({ filePath }, { backend }) => { await backend.readFile(filePath); return 'ok'; } });`,
    // An id, not a location: fetching a channel by id is an API lookup.
    `buildTool({ name: 'Channel', maxResultSizeChars: 1000, async call(input) { return this.client.channels.fetch(input.channelId); } });`,
    // A fixed-origin URL handed to a service.
    `buildTool({ name: 'Item', maxResultSizeChars: 1000, async call({ id }) { return this.http.fetchJson({ url: 'https://api.example.com/items/' + id }); } });`,
    // open for writing reads nothing.
    `import { open } from 'node:fs/promises';
buildTool({ name: 'Log', maxResultSizeChars: 100, async call(input) { const handle = await open(input.path, 'a'); return handle; } });`,
    `import fs from 'node:fs';
buildTool({ name: 'Create', maxResultSizeChars: 100, async call(input) { return fs.openSync(input.path, fs.constants.O_WRONLY | fs.constants.O_CREAT); } });`,
  ],
  invalid: [
    invalid(
      `export function createReadTool(executor) {
  return buildTool({ name: 'read', async call({ file_path }) { return { content: await executor.readFile(file_path) }; } });
}`,
      [
        {
          toolName: 'read',
          readCall: '`executor.readFile`',
          fix: ['(file_path) }; } });', '(file_path) }; }, maxResultSizeChars: Infinity });'],
        },
      ],
    ),
    invalid(
      `buildTool({ name: 'view_image', async call({ path }) { const image = await this.session.viewImage({ path }); return { type: 'image', data: image.data }; } });`,
      [
        {
          toolName: 'view_image',
          readCall: '`this.session.viewImage`',
          fix: ['image.data }; } });', 'image.data }; }, maxResultSizeChars: Infinity });'],
        },
      ],
    ),
    invalid(
      `import { open } from 'node:fs/promises';
buildTool({ name: 'Head', async call(input) { const handle = await open(input.path, 'r'); const { buffer } = await handle.read(Buffer.alloc(100), 0, 100, 0); return buffer.toString(); } });`,
      [
        {
          toolName: 'Head',
          readCall: '`open`',
          fix: ['buffer.toString(); } });', 'buffer.toString(); }, maxResultSizeChars: Infinity });'],
        },
      ],
    ),
  ],
});

// A URL built in steps keeps the origin its first value fixed: appending a
// query (`url += …`) never moves it to a host the model chose.
ruleTester.run('require-unbounded-self-reading-tool: URLs built in steps', rule, {
  valid: [
    `const API = (process.env.MONITOR_API_URL ?? 'https://api.example.com').replace(/\\/$/, '');
async function monitorRequest(path, query) {
  let url = \`\${API}/v2\${path}\`;
  if (query) url += \`?\${new URLSearchParams(query)}\`;
  return (await fetch(url)).json();
}
defineTool({ name: 'monitor_get', async execute(input) { return JSON.stringify(await monitorRequest(\`/monitors/\${input.id}\`, input.query)); } });`,
    `defineTool({ name: 'search', async execute(input) {
  let url;
  url = 'https://search.example.com/q?term=' + encodeURIComponent(input.term);
  url += '&limit=10';
  return (await fetch(url)).text();
} });`,
  ],
  invalid: [
    invalid(
      `defineTool({ name: 'open_url', async execute(input) {
  let url = input.url;
  url += '?utm=agent';
  return (await fetch(url)).text();
} });`,
      [{ toolName: 'open_url', readCall: '`fetch`', resource: 'URL', fix: ['} });', '}, maxResultSizeChars: Infinity });'] }],
    ),
    invalid(
      `defineTool({ name: 'open_url', async execute(input) {
  let url = 'https://docs.example.com/start';
  if (input.url) url = input.url;
  return (await fetch(url)).text();
} });`,
      [{ toolName: 'open_url', readCall: '`fetch`', resource: 'URL', fix: ['} });', '}, maxResultSizeChars: Infinity });'] }],
    ),
  ],
});

// SDK tool shapes (issue 12): each recognised with the name the model sees
// and its input where the SDK puts it.
ruleTester.run('require-unbounded-self-reading-tool: SDK tool shapes', rule, {
  valid: [
    // playwright MCP: `handle(tab, params)` — what the tab holds is not the model's choice.
    `import { readFile } from 'node:fs/promises';
const t = defineTabTool({ schema: { name: 'browser_trace' }, handle: async (tab, params) => readFile(tab.tracePath, 'utf8') });`,
    `import { readFile } from 'node:fs/promises';
const t = defineTool({ schema: { name: 'browser_file' }, maxResultSizeChars: Infinity, handle: async (context, params) => readFile(params.path, 'utf8') });`,
    // pi: `execute(toolCallId, params)` — the call id is not a location.
    `import { readFile } from 'node:fs/promises';
export function createIdToolDefinition(cwd) {
  return { name: 'by_id', parameters, async execute(toolCallId, params) { return readFile(toolCallId, 'utf8'); } };
}`,
    // OpenAI Agents FunctionTool: `invoke(runContext, input)` — the run context is the harness's.
    `import { readFile } from 'node:fs/promises';
const contextTool = { type: 'function', name: 'ctx', parameters, invoke: async (runContext, input) => readFile(runContext.file, 'utf8') };`,
    // A plain object outside a tools map that states no input schema is data, not a tool (with a
    // description and a schema it states a whole contract, and is one: tool-shapes/contract-objects.ts).
    `import { readFile } from 'node:fs/promises';
const handlers = { read: { description: 'read', execute: async ({ path }) => readFile(path, 'utf8') } };`,
    `import { readFile } from 'node:fs/promises';
const tools = { read: { description: 'read', parameters, maxResultSizeChars: Infinity, execute: async ({ path }) => readFile(path, 'utf8') } };`,
    // chrome-devtools-mcp: a define…Tool factory handed a function returning the config; bounded, or reading a fixed file.
    `import { readFile } from 'node:fs/promises';
export const t = defineTool((args) => ({ name: 'read_file', schema, maxResultSizeChars: Infinity, handler: async (request) => readFile(request.params.path, 'utf8') }));`,
    `import { readFile } from 'node:fs/promises';
export const t = definePageTool(() => { return { name: 'read_log', schema, handler: async (request) => readFile('/var/log/app.log', 'utf8') }; });`,
  ],
  invalid: [
    invalid(
      `import { readFile } from 'node:fs/promises';
export const t = defineTool((args) => ({ name: 'read_file', schema, handler: async (request) => readFile(request.params.path, 'utf8') }));`,
      [{ toolName: 'read_file', readCall: '`readFile`', fix: ["'utf8') }));", "'utf8'), maxResultSizeChars: Infinity }));"] }],
    ),
    invalid(
      `import { readFile } from 'node:fs/promises';
const t = defineTabTool({ schema: { name: 'browser_open' }, handle: async (tab, params) => readFile(params.path, 'utf8') });`,
      [{ toolName: 'browser_open', readCall: '`readFile`', fix: ["'utf8') });", "'utf8'), maxResultSizeChars: Infinity });"] }],
    ),
    invalid(
      `import { readFile } from 'node:fs/promises';
class FilesClient extends AIFunctionsProvider {
  @aiFunction({ name: 'files_read', inputSchema: schema })
  async read(input) { return readFile(input.path, 'utf8'); }
}`,
      [
        {
          toolName: 'files_read',
          readCall: '`readFile`',
          fix: ['inputSchema: schema })', 'inputSchema: schema, maxResultSizeChars: Infinity })'],
        },
      ],
    ),
    invalid(
      `import { readFile } from 'node:fs/promises';
var _read_dec, _init;
var FilesClient = class extends (_read_dec = [aiFunction({ name: "files_read", inputSchema: schema })], AIFunctionsProvider) {
  async read(input) { return readFile(input.path, "utf8"); }
};
__decorateElement(_init, 1, "read", _read_dec, FilesClient);`,
      [
        {
          toolName: 'files_read',
          readCall: '`readFile`',
          fix: ['inputSchema: schema })', 'inputSchema: schema, maxResultSizeChars: Infinity })'],
        },
      ],
    ),
    invalid(
      `import { readFile } from 'node:fs/promises';
export function readTool() {
  return betaZodTool({ name: 'read', inputSchema, description: 'read', run: async (input) => readFile(input.file_path, 'utf8') });
}`,
      [{ toolName: 'read', readCall: '`readFile`', fix: ["'utf8') });", "'utf8'), maxResultSizeChars: Infinity });"] }],
    ),
    invalid(
      `import { readFile } from 'node:fs/promises';
export class LocalMemoryTool implements MemoryToolHandlers {
  async view(command) { return readFile(command.path, 'utf8'); }
}`,
      [
        {
          toolName: 'memory',
          readCall: '`readFile`',
          fix: ['implements MemoryToolHandlers {', 'implements MemoryToolHandlers {\n  maxResultSizeChars = Infinity;'],
        },
      ],
    ),
    invalid(
      `import { readFile } from 'node:fs/promises';
export function createReadToolDefinition(cwd) {
  return { name: 'read', parameters, async execute(_toolCallId, { path }) { return readFile(path, 'utf8'); } };
}`,
      [{ toolName: 'read', readCall: '`readFile`', fix: ["'utf8'); } };", "'utf8'); }, maxResultSizeChars: Infinity };"] }],
    ),
    invalid(
      `import { readFile } from 'node:fs/promises';
const agent = new Agent({ tools: {
  open_file: tool({ description: 'open', inputSchema, execute: async ({ path }) => readFile(path, 'utf8') }),
  fetch_page: { description: 'fetch', parameters, execute: async ({ url }) => (await fetch(url)).text() },
} });`,
      [
        { toolName: 'open_file', readCall: '`readFile`', fix: ["'utf8') }),", "'utf8'), maxResultSizeChars: Infinity }),"] },
        { toolName: 'fetch_page', readCall: '`fetch`', resource: 'URL', fix: ['.text() },', '.text(), maxResultSizeChars: Infinity },'] },
      ],
    ),
    invalid(
      `import { readFile } from 'node:fs/promises';
const openTool = { type: 'function', name: 'open', parameters, invoke: async (runContext, input) => readFile(input.path, 'utf8') };`,
      [{ toolName: 'open', readCall: '`readFile`', fix: ["'utf8') };", "'utf8'), maxResultSizeChars: Infinity };"] }],
    ),
    invalid(
      `var read = createTool({
  name: "read_file",
  execute: /* @__PURE__ */ __name(async (input) => (await fetch(input.url)).text(), "execute")
});`,
      [
        {
          toolName: 'read_file',
          readCall: '`fetch`',
          resource: 'URL',
          fix: ['"execute")\n});', '"execute"),\n  maxResultSizeChars: Infinity\n});'],
        },
      ],
    ),
  ],
});

// Pages through fetching APIs (issue 12): a model-chosen URL sent to a
// scraping, extraction or reader-proxy API stays model-chosen, because the
// API answers with the page. An API that answers with something else (similar
// links, a site map, a search) or is given ids is not a read.
ruleTester.run('require-unbounded-self-reading-tool: pages through fetching APIs', rule, {
  valid: [
    // The endpoint answers with similar links, not the page.
    `buildTool({ name: 'find_similar', maxResultSizeChars: 1000, async call({ url }) { return this.ky.post('findSimilar', { json: { url } }).json(); } });`,
    // A site map: the SDK method is not named for fetching pages.
    `defineTool({ name: 'map', maxResultSizeChars: 1000, async execute({ url }) { return client.map(String(url)); } });`,
    // Ids to a contents endpoint fill a slot of a fixed API.
    `buildTool({ name: 'get_contents', maxResultSizeChars: 1000, async call({ ids }) { return this.ky.post('contents', { json: { ids } }).json(); } });`,
    // A query to a reader-style client, and a URL looked up in a cache, are not page reads.
    `buildTool({ name: 'search', maxResultSizeChars: 1000, async call({ query }) { return this.kySearch.get(query).text(); } });`,
    `buildTool({ name: 'cached', maxResultSizeChars: 1000, async call({ url }) { return this.cache.get(url); } });`,
    // \`extract\` of an archive path unpacks; only a URL makes it a page read.
    `defineTool({ name: 'unpack', maxResultSizeChars: 1000, async execute({ archivePath }) { return tar.extract(archivePath); } });`,
    // A request helper's opaque body is a read only when the caller names a URL: here an id.
    `class MonitorTool {
  async extract(params) { const response = await this.http.post(this.endpoints.extract, { ...params }); return response.data; }
  async call(input) { return this.extract({ id: input.id }); }
}`,
  ],
  invalid: [
    // A reader proxy: the URL is the request's path on a client with a fixed prefix (r.jina.ai/<url>).
    invalid(`buildTool({ name: 'read_url', async call({ url }) { return this.kyReader.get(url).text(); } });`, [
      {
        toolName: 'read_url',
        readCall: '`this.kyReader.get`',
        resource: 'URL',
        fix: ['.text(); } }', '.text(); }, maxResultSizeChars: Infinity }'],
      },
    ]),
    // A body field to a scrape endpoint, through a local request helper with a fixed origin.
    invalid(
      `async function keylessPost(path, body) { const res = await fetch('https://api.example.com' + path, { method: 'POST', body: JSON.stringify(body) }); return res.json(); }
defineTool({ name: 'scrape', async execute({ url }) { const json = await keylessPost('/v2/scrape', { url: String(url) }); return json.data; } });`,
      [
        {
          toolName: 'scrape',
          readCall: '`keylessPost`',
          resource: 'URL',
          fix: ['json.data; } }', 'json.data; }, maxResultSizeChars: Infinity }'],
        },
      ],
    ),
    // SDK methods named for extracting pages, given URLs.
    invalid(
      `defineTool({ name: 'extract', async execute({ urls }) { return client.extract(urls, { depth: 'basic' }); } });
defineTool({ name: 'extract_objective', async execute({ urls, objective }) { return client.beta.extract({ urls, objective }); } });`,
      [
        {
          toolName: 'extract',
          readCall: '`client.extract`',
          resource: 'URL',
          fix: ["'basic' }); } }", "'basic' }); }, maxResultSizeChars: Infinity }"],
        },
        {
          toolName: 'extract_objective',
          readCall: '`client.beta.extract`',
          resource: 'URL',
          fix: ['objective }); } }', 'objective }); }, maxResultSizeChars: Infinity }'],
        },
      ],
    ),
    // A contents endpoint given a body built as a local with the URLs.
    invalid(
      `defineTool({ name: 'web_fetch', async execute({ urls }) {
  const crawlRequest = { urls, text: { maxCharacters: 3000 } };
  const response = await exa.request('/contents', 'POST', crawlRequest);
  return { content: [{ type: 'text', text: response.results.map((r) => r.text).join('\\n') }] };
} });`,
      [{ toolName: 'web_fetch', readCall: '`exa.request`', resource: 'URL', fix: ['} });', '}, maxResultSizeChars: Infinity });'] }],
    ),
    // The helper spreads its parameter into the body: the caller's \`{ urls }\` makes it a page read.
    invalid(
      `class ExtractTool {
  async extract(params) { const response = await this.http.post(this.endpoints.extract, { ...params }); return response.data; }
  async call(input) { return this.extract({ urls: input.urls }); }
}`,
      [
        {
          toolName: 'ExtractTool',
          readCall: '`this.extract` (→ this.http.post)',
          resource: 'URL',
          fix: ['class ExtractTool {', 'class ExtractTool {\n  maxResultSizeChars = Infinity;'],
        },
      ],
    ),
    // Any HTTP method of a client module reads the response it returns.
    invalid(
      `import got from 'got';
buildTool({ name: 'post_request', async call(input) { const res = await got.post(input.url, { json: input.params }); return res.body; } });`,
      [
        {
          toolName: 'post_request',
          readCall: '`got.post`',
          resource: 'URL',
          fix: ['res.body; } }', 'res.body; }, maxResultSizeChars: Infinity }'],
        },
      ],
    ),
    // A dispatcher case that breaks out of the switch returns through the code after it.
    invalid(
      lowLevelServer(
        `{ name: 'cat', inputSchema: {} }, { name: 'status', inputSchema: {} }`,
        `server.setRequestHandler(CallToolRequestSchema, async (request) => {
  let response;
  switch (request.params.name) {
    case 'cat': response = await readFile(request.params.arguments.path, 'utf8'); break;
    case 'status': response = 'ok'; break;
  }
  return { content: [{ type: 'text', text: response }] };
});`,
      ),
      [
        {
          toolName: 'cat',
          readCall: '`readFile`',
          fix: [
            "{ name: 'cat', inputSchema: {} }",
            "{ name: 'cat', inputSchema: {}, _meta: { 'anthropic/maxResultSizeChars': Infinity } }",
          ],
        },
      ],
    ),
  ],
});

// Registry lookups and service answers: the model's argument only selects
// among the code's own entries, or asks a service whose answer is its own.
ruleTester.run('require-unbounded-self-reading-tool: registry entries and service answers', rule, {
  valid: [
    // A skill file resolved against the skill's declared list: the helper answers with the list's entry.
    `var Skills = class {
  async load(id) { const cached = this.cache.get(id); if (cached) return cached; const entry = this.byId.get(id); this.cache.set(id, entry); return entry; }
  resolveFile(skill, relativePath, allowed) { const matched = allowed.find((entry) => entry === relativePath.trim()); return matched ? joinPaths(skill.root, matched) : null; }
};
createTool({ name: 'read_skill_reference', execute: async (input, context) => {
  const skill = await context.skills.load(input.skill_id);
  const resolvedPath = context.skills.resolveFile(skill, input.reference, skill.references);
  if (!resolvedPath) return 'not allowed';
  return context.skills.readFileContent(resolvedPath);
} });`,
    // A language server's answer names the locations; previews of them are not the model's path.
    `import { readFile } from 'node:fs/promises';
createTool({ name: 'lsp_inspect', execute: async ({ path: filePath, line }, context) => {
  const { client, uri } = await context.lsp.prepareQuery(filePath);
  const definitions = await client.queryDefinition(uri, { line });
  const previews = await Promise.all(definitions.map((loc) => readFile(loc.path, 'utf8')));
  return { definitions: definitions.map((loc, i) => ({ location: loc.path, preview: previews[i] })) };
} });`,
  ],
  invalid: [
    // A helper that groups the model's entries under computed keys answers with them.
    invalid(
      `import { readFile } from 'node:fs/promises';
function groupByFile(matches) { const groups = {}; for (const match of matches) { if (!groups[match.file]) groups[match.file] = []; groups[match.file].push(match); } return groups; }
buildTool({ name: 'context', async call(input) { const groups = groupByFile(input.matches); const texts = []; for (const file in groups) texts.push(await readFile(file, 'utf8')); return texts.join('\\n'); } });`,
      [{ toolName: 'context', readCall: '`readFile`', fix: ["join('\\n'); } }", "join('\\n'); }, maxResultSizeChars: Infinity }"] }],
    ),
    // The same kind of helper returning the model's own path keeps it model-chosen.
    invalid(
      `var Skills = class {
  resolveFile(root, relativePath) { return joinPaths(root, relativePath.trim()); }
};
createTool({ name: 'read_skill_file', execute: async (input, context) => {
  const resolvedPath = context.skills.resolveFile(context.root, input.reference);
  return context.skills.readFileContent(resolvedPath);
} });`,
      [
        {
          toolName: 'read_skill_file',
          readCall: '`context.skills.readFileContent`',
          fix: ['} });', '}, maxResultSizeChars: Infinity });'],
        },
      ],
    ),
  ],
});

// A tool list joined by name to a dispatcher (tool-shapes/name-dispatch.ts): a listed tool whose
// routed branch reads a model-chosen location and returns it is reported at its list entry.
const nameDispatch = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'name-dispatch');
const nameDispatchText = (...segments: string[]): string => readFileSync(path.join(nameDispatch, ...segments), 'utf8');

ruleTester.run('require-unbounded-self-reading-tool: tool lists joined by name', rule, {
  valid: [
    // The dispatcher's file is no tool list: its branches are the listed tools', reported at their entries.
    { code: nameDispatchText('reverse', 'handler.ts'), filename: path.join(nameDispatch, 'reverse', 'handler.ts') },
    // A listed name no dispatcher routes: not a tool, even when every tool must be classified.
    {
      code: `export const TOOLS = [{ name: 'nobody_routes_me', description: 'd', inputSchema: { type: 'object' } }];`,
      filename: path.join(nameDispatch, 'reverse', 'inline.ts'),
      options: [{ requireClassification: true }],
    },
    // The handler map's file defines no tool; a definition no map keys is no tool.
    {
      code: nameDispatchText('handler-map', 'index.ts'),
      filename: path.join(nameDispatch, 'handler-map', 'index.ts'),
      options: [{ requireClassification: true }],
    },
    {
      code: `export const loneTool = { name: 'lone', description: 'd', inputSchema: { type: 'object' } };`,
      filename: path.join(nameDispatch, 'handler-map', 'lone.ts'),
      options: [{ requireClassification: true }],
    },
    // Declared on the entry's `_meta`: the joined tool is classified.
    {
      code: `export const TOOLS = [{ name: 'fetch_page', description: 'd', inputSchema: { type: 'object' }, _meta: { 'anthropic/maxResultSizeChars': Infinity } }];`,
      filename: path.join(nameDispatch, 'reverse', 'inline.ts'),
    },
  ],
  invalid: [
    // Definitions in tools.ts; the dispatcher that imports them fetches the model's URL and returns the text.
    invalid(
      nameDispatchText('reverse', 'tools.ts'),
      [
        {
          toolName: 'fetch_page',
          readCall: '`fetch`',
          resource: 'URL',
          fix: [
            "text', inputSchema: { type: 'object' } }",
            "text', inputSchema: { type: 'object' }, _meta: { 'anthropic/maxResultSizeChars': Infinity } }",
          ],
        },
      ],
      { filename: path.join(nameDispatch, 'reverse', 'tools.ts') },
    ),
    // The definitions import the dispatcher (an `if` chain): one report per tool that reads.
    invalid(
      nameDispatchText('forward', 'server.ts'),
      [
        {
          toolName: 'read_note',
          readCall: '`readFile`',
          fix: [
            "note', inputSchema: { type: 'object' } },\n  { name: 'remember",
            "note', inputSchema: { type: 'object' }, _meta: { 'anthropic/maxResultSizeChars': Infinity } },\n  { name: 'remember",
          ],
        },
      ],
      { filename: path.join(nameDispatch, 'forward', 'server.ts') },
    ),
    // A definition constant joined to its handler by `{ [fetchPageTool.name]: fetchPage }` in another file.
    invalid(
      nameDispatchText('handler-map', 'fetchPage.ts'),
      [
        {
          toolName: 'fetch_mapped',
          readCall: '`fetch`',
          resource: 'URL',
          fix: [
            "text', inputSchema: { type: 'object' } }",
            "text', inputSchema: { type: 'object' }, _meta: { 'anthropic/maxResultSizeChars': Infinity } }",
          ],
        },
      ],
      { filename: path.join(nameDispatch, 'handler-map', 'fetchPage.ts') },
    ),
    // Definitions and dispatcher in one file.
    invalid(
      `import { readFile } from 'node:fs/promises';
export const TOOLS = [
  { name: 'cat', description: 'd', inputSchema: { type: 'object' } },
];
export async function route(name, args) {
  switch (name) {
    case 'cat': return { content: [{ type: 'text', text: await readFile(args.path, 'utf8') }] };
  }
}`,
      [
        {
          toolName: 'cat',
          readCall: '`readFile`',
          fix: [
            "inputSchema: { type: 'object' } }",
            "inputSchema: { type: 'object' }, _meta: { 'anthropic/maxResultSizeChars': Infinity } }",
          ],
        },
      ],
      { filename: path.join(nameDispatch, 'reverse', 'inline.ts') },
    ),
    // With the CallTool handler in the same file the `case` is the tool (the low-level MCP shape)
    // and the entry its `_meta` home: one report, not two.
    invalid(
      `import { readFile } from 'node:fs/promises';
const TOOLS = [{ name: 'cat', description: 'd', inputSchema: { type: 'object' } }];
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  switch (request.params.name) {
    case 'cat': return { content: [{ type: 'text', text: await readFile(request.params.arguments.path, 'utf8') }] };
  }
});`,
      [
        {
          toolName: 'cat',
          readCall: '`readFile`',
          fix: [
            "inputSchema: { type: 'object' } }",
            "inputSchema: { type: 'object' }, _meta: { 'anthropic/maxResultSizeChars': Infinity } }",
          ],
        },
      ],
      { filename: path.join(nameDispatch, 'reverse', 'inline.ts') },
    ),
  ],
});

// Searches, callbacks, closures and dispatchers (issue 12): matched lines are content.
ruleTester.run('require-unbounded-self-reading-tool: searches and helpers', rule, {
  valid: [
    // A file-name search (`fd`) prints names, not content.
    `import { spawn } from 'node:child_process';
buildTool({ name: 'find', async call(input) {
  const proc = spawn('fd', [input.pattern, input.path]);
  let out = '';
  proc.stdout.on('data', (d) => { out += d; });
  await new Promise((r) => proc.on('close', r));
  return out;
} });`,
    // A backend grep answered with a count.
    `buildTool({ name: 'count', async call(input) {
  const result = await this.backend.grep(input.pattern, input.path);
  return result.matches.length + ' matches';
} });`,
    // An edit that previews the text it wrote.
    `import { readFile, writeFile } from 'node:fs/promises';
buildTool({ name: 'edit', async call(input) {
  const before = await readFile(input.path, 'utf8');
  const updated = before.split(input.old).join(input.new);
  await writeFile(input.path, updated);
  return 'Edited:\\n' + updated.split('\\n').slice(0, 20).join('\\n');
} });`,
  ],
  invalid: [
    invalid(
      `import { spawn } from 'node:child_process';
buildTool({ name: 'grep', async call(input) {
  const proc = spawn('rg', ['-n', '-e', input.pattern, '--', input.path]);
  let out = '';
  proc.stdout.on('data', (d) => { out += d; });
  await new Promise((r) => proc.on('close', r));
  return out;
} });`,
      [{ toolName: 'grep', readCall: '`spawn`', fix: ['return out;\n} });', 'return out;\n}, maxResultSizeChars: Infinity });'] }],
    ),
    invalid(
      `buildTool({ name: 'grep', async call(input) {
  const result = await this.backend.grep(input.pattern, input.path);
  return result.matches.map((m) => m.path + ':' + m.text).join('\\n');
} });`,
      [
        {
          toolName: 'grep',
          readCall: '`this.backend.grep`',
          fix: ["join('\\n');\n} });", "join('\\n');\n}, maxResultSizeChars: Infinity });"],
        },
      ],
    ),
    invalid(
      `import fs from 'node:fs';
async function grepFile(file, re, push) {
  const text = await fs.promises.readFile(file, 'utf8');
  for (const line of text.split('\\n')) if (re.test(line)) push(file + ':' + line);
}
buildTool({ name: 'walk_grep', async call(input) {
  const hits = [];
  await grepFile(input.path, new RegExp(input.pattern), (line) => hits.push(line));
  return hits.join('\\n');
} });`,
      [
        {
          toolName: 'walk_grep',
          readCall: '`grepFile` (→ fs.promises.readFile)',
          fix: ["return hits.join('\\n');\n} });", "return hits.join('\\n');\n}, maxResultSizeChars: Infinity });"],
        },
      ],
    ),
  ],
});

// Which read a chain follows, browser pages and service objects (issue 12).
ruleTester.run('require-unbounded-self-reading-tool: read chains, pages and services', rule, {
  valid: [
    // Request options whose host is written in code: the model's id only fills the path of a fixed API.
    `import https from 'node:https';
buildTool({ name: 'item', async call(input) {
  return new Promise((resolve) => {
    https.get({ hostname: 'api.example.com', path: '/items/' + input.id }, (res) => {
      let text = '';
      res.on('data', (chunk) => { text += chunk; });
      res.on('end', () => resolve(text));
    });
  });
} });`,
    // A page navigated to the model's URL, but only a status comes back.
    `buildTool({ name: 'navigate', async call(input) {
  const page = await browser.newPage();
  await page.goto(input.url);
  return 'Navigated to ' + input.url;
} });`,
    // A page navigated to a URL the code fixed.
    `buildTool({ name: 'status', async call() {
  const page = await browser.newPage();
  await page.goto('https://status.example.com/');
  return page.content();
} });`,
    // A dispatcher: the page 'navigate' loads is not what another case returns in the same call.
    `server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const page = await ensurePage();
  switch (request.params.name) {
    case 'navigate':
      await page.goto(request.params.arguments.url);
      return { content: [{ type: 'text', text: 'ok' }] };
    case 'html':
      return { content: [{ type: 'text', text: await page.content() }] };
  }
});`,
  ],
  invalid: [
    // A closure over the model's path, called inside a timeout wrapper, answers with that path.
    invalid(
      `import { realpath, readFile } from 'node:fs/promises';
async function validatePath(requested) {
  const operation = async () => {
    const absolute = path.resolve(requested);
    return realpath(absolute);
  };
  const result = await withTimeout(operation(), 1000, null);
  return result;
}
buildTool({ name: 'ReadMany', async call(input) {
  const valid = await validatePath(input.path);
  return readFile(valid, 'utf8');
} });`,
      [
        {
          toolName: 'ReadMany',
          readCall: '`readFile`',
          fix: ["return readFile(valid, 'utf8');\n} });", "return readFile(valid, 'utf8');\n}, maxResultSizeChars: Infinity });"],
        },
      ],
    ),
    // The read named is the one whose content comes back, not a helper that reads and answers nothing.
    invalid(
      `import fs from 'node:fs';
async function checkReadable(p) { await fs.promises.readFile(p); }
buildTool({ name: 'Read', async call(input) {
  await checkReadable(input.path);
  return fs.readFileSync(input.path, 'utf8');
} });`,
      [
        {
          toolName: 'Read',
          readCall: '`fs.readFileSync`',
          fix: [
            "return fs.readFileSync(input.path, 'utf8');\n} });",
            "return fs.readFileSync(input.path, 'utf8');\n}, maxResultSizeChars: Infinity });",
          ],
        },
      ],
    ),
    // Request options whose host comes from the model's URL: a read of that URL.
    invalid(
      `import https from 'node:https';
buildTool({ name: 'get', async call(input) {
  const target = new URL(input.url);
  return new Promise((resolve) => {
    https.get({ hostname: target.hostname, path: target.pathname }, (res) => {
      let text = '';
      res.on('data', (chunk) => { text += chunk; });
      res.on('end', () => resolve(text));
    });
  });
} });`,
      [{ toolName: 'get', readCall: '`https.get`', resource: 'URL', fix: ['  });\n} });', '  });\n}, maxResultSizeChars: Infinity });'] }],
    ),
    // A page navigated to the model's URL: its content afterwards is what was read.
    invalid(
      `buildTool({ name: 'browse', async call(input) {
  const page = await browser.newPage();
  await page.goto(input.url);
  const html = await page.content();
  await page.close();
  return html;
} });`,
      [
        {
          toolName: 'browse',
          readCall: '`page.goto`',
          resource: 'URL',
          fix: ['return html;\n} });', 'return html;\n}, maxResultSizeChars: Infinity });'],
        },
      ],
    ),
    // A service object built here, whose method navigates the page and a helper given the page returns its content.
    invalid(
      `class PageProcessor {
  async process(page, url) {
    await page.goto(url);
    const { html } = await this.snapshot(page);
    return { content: html };
  }
  async snapshot(page) { return { title: await page.title(), html: await page.content() }; }
}
buildTool({ name: 'fetch_page', async call(input) {
  const processor = new PageProcessor();
  const page = await newPage();
  const result = await processor.process(page, input.url);
  return result.content;
} });`,
      [
        {
          toolName: 'fetch_page',
          readCall: '`processor.process` (→ page.goto)',
          resource: 'URL',
          fix: ['return result.content;\n} });', 'return result.content;\n}, maxResultSizeChars: Infinity });'],
        },
      ],
    ),
    // The same service class imported from another module.
    invalid(
      `import { PageProcessor } from './page-processor.js';
buildTool({ name: 'fetch_page', async call(input) {
  const processor = new PageProcessor();
  const page = await newPage();
  const result = await processor.processPage(page, input.url);
  return result.content;
} });`,
      [
        {
          toolName: 'fetch_page',
          readCall: '`processor.processPage` (→ page.goto)',
          resource: 'URL',
          fix: ['return result.content;\n} });', 'return result.content;\n}, maxResultSizeChars: Infinity });'],
        },
      ],
      { filename: crossFile },
    ),
  ],
});

/** A self-reading class tool in a file whose first lines are `header`; the suggestion inserts `member` and rewrites the header as `fixedHeader`. */
function sentinelCase(header: string, unbounded: string, fixedHeader: string, member: string): InvalidTestCase<MessageIds, Options> {
  const body = `class ReadTool extends BaseTool {\n  async call(input) {\n    return readFile(input.path, 'utf8');\n  }\n}`;
  return {
    code: `${header}\n${body}`,
    errors: [
      {
        messageId: 'missingUnbounded',
        data: { toolName: 'ReadTool', readCall: '`readFile`', resource: 'path', declared: 'without a value', unbounded },
        suggestions: [
          {
            messageId: 'setUnbounded',
            data: { unbounded },
            output: `${fixedHeader}\n${body.replace('{\n  async', `{\n  ${member}\n  async`)}`,
          },
        ],
      },
    ],
  };
}

ruleTester.run('require-unbounded-self-reading-tool: UNBOUNDED where the file imports tool-result-guard', rule, {
  valid: [
    `import { UNBOUNDED } from 'tool-result-guard';
     class ReadTool extends BaseTool { maxResultSizeChars = UNBOUNDED; async call(input) { return readFile(input.path, 'utf8'); } }`,
    `import * as guard from 'tool-result-guard';
     class ReadTool extends BaseTool { maxResultSizeChars = guard.UNBOUNDED; async call(input) { return readFile(input.path, 'utf8'); } }`,
  ],
  invalid: [
    // No import of the package: the plain Infinity, nothing imported.
    sentinelCase(
      `import { readFile } from 'node:fs/promises';`,
      'Infinity',
      `import { readFile } from 'node:fs/promises';`,
      'maxResultSizeChars = Infinity;',
    ),
    // A value import: UNBOUNDED joins it.
    sentinelCase(
      `import { readFile } from 'node:fs/promises';\nimport { markSeen } from 'tool-result-guard';`,
      'UNBOUNDED',
      `import { readFile } from 'node:fs/promises';\nimport { markSeen, UNBOUNDED } from 'tool-result-guard';`,
      'maxResultSizeChars = UNBOUNDED;',
    ),
    // UNBOUNDED already imported, under another name: that name, nothing imported.
    sentinelCase(
      `import { readFile } from 'node:fs/promises';\nimport { UNBOUNDED as NEVER_PERSIST } from 'tool-result-guard';`,
      'NEVER_PERSIST',
      `import { readFile } from 'node:fs/promises';\nimport { UNBOUNDED as NEVER_PERSIST } from 'tool-result-guard';`,
      'maxResultSizeChars = NEVER_PERSIST;',
    ),
    // A namespace import: `guard.UNBOUNDED`.
    sentinelCase(
      `import { readFile } from 'node:fs/promises';\nimport * as guard from 'tool-result-guard';`,
      'guard.UNBOUNDED',
      `import { readFile } from 'node:fs/promises';\nimport * as guard from 'tool-result-guard';`,
      'maxResultSizeChars = guard.UNBOUNDED;',
    ),
    // Only types from the package: they demand the brand, so UNBOUNDED comes with a value import of its own.
    sentinelCase(
      `import { readFile } from 'node:fs/promises';\nimport type { PersistableTool } from 'tool-result-guard';`,
      'UNBOUNDED',
      `import { readFile } from 'node:fs/promises';\nimport type { PersistableTool } from 'tool-result-guard';\nimport { UNBOUNDED } from 'tool-result-guard';`,
      'maxResultSizeChars = UNBOUNDED;',
    ),
    // CommonJS: the binding the `require` gives.
    sentinelCase(
      `const { readFile } = require('node:fs/promises');\nconst guard = require('tool-result-guard');`,
      'guard.UNBOUNDED',
      `const { readFile } = require('node:fs/promises');\nconst guard = require('tool-result-guard');`,
      'maxResultSizeChars = guard.UNBOUNDED;',
    ),
    // A finite bound in such a file is replaced by UNBOUNDED, imported.
    {
      code: `import { markSeen } from 'tool-result-guard';
class ReadTool extends BaseTool { maxResultSizeChars = 30_000; async call(input) { return readFile(input.path, 'utf8'); } }`,
      errors: [
        {
          messageId: 'finiteBound',
          data: { toolName: 'ReadTool', readCall: '`readFile`', resource: 'path', declared: '30_000', unbounded: 'UNBOUNDED' },
          suggestions: [
            {
              messageId: 'setUnbounded',
              output: `import { markSeen, UNBOUNDED } from 'tool-result-guard';
class ReadTool extends BaseTool { maxResultSizeChars = UNBOUNDED; async call(input) { return readFile(input.path, 'utf8'); } }`,
            },
          ],
        },
      ],
    },
    // The unclassified report's suggested limit is the rule's `suggestedLimit` (the codemod's --default-max-chars).
    {
      code: `buildTool({ name: 'Clock', async call() { return new Date().toISOString(); } });`,
      options: [{ requireClassification: true, suggestedLimit: 8000 }],
      errors: [
        {
          messageId: 'unclassified',
          data: { toolName: 'Clock' },
          suggestions: [
            {
              messageId: 'setFiniteLimit',
              data: { limit: '8000' },
              output: `buildTool({ name: 'Clock', async call() { return new Date().toISOString(); }, maxResultSizeChars: 8000 });`,
            },
          ],
        },
      ],
    },
  ],
});

// The verdict's principles on code nobody here wrote (issue 27): each principle, valid and invalid.
ruleTester.run('require-unbounded-self-reading-tool: three answers and the contract', rule, {
  valid: [
    // refuted: the model's path reaches no call at all, and the flow sees everything; the contract says it reads, but refuted stays refuted
    {
      code: "import { tool } from 'ai';\nimport { z } from 'zod';\nexport const readTool = tool({ name: 'read_file', description: 'Read a file', inputSchema: z.object({ path: z.string() }), execute: async ({ path }) => `ok ${path.length}` });",
    },
    // unknown (the path goes to an import), but the contract does not say it reads: `lint_file` / "Lint the file" hands back a verdict, not the file
    {
      code: "import { tool } from 'ai';\nimport { z } from 'zod';\nimport { linter } from './lint.js';\nexport const lintTool = tool({ name: 'lint_file', description: 'Lint the file at path', inputSchema: z.object({ path: z.string() }), execute: async ({ path }) => linter.check(path) });",
    },
    // unknown and the contract says it reads, but the user listed it in `nonReadingTools`
    {
      code: "import { tool } from 'ai';\nimport { z } from 'zod';\nimport { workspace } from './workspace.js';\nexport const readTool = tool({ name: 'read_file', description: 'Read a file', inputSchema: z.object({ path: z.string() }), execute: async ({ path }) => workspace.resolveEntry(path) });",
      settings: { 'tool-result-guard': { nonReadingTools: ['read_file'] } },
    },
  ],
  invalid: [
    // unknown (the path goes to `workspace.resolveEntry`, which the analysis cannot follow), and the name `read_file` says it reads `path`
    {
      code: "import { tool } from 'ai';\nimport { z } from 'zod';\nimport { workspace } from './workspace.js';\nexport const readTool = tool({ name: 'read_file', description: 'Read a file', inputSchema: z.object({ path: z.string() }), execute: async ({ path }) => workspace.resolveEntry(path) });",
      errors: [
        {
          messageId: 'missingUnboundedByContract',
          suggestions: [
            {
              messageId: 'setUnbounded',
              output:
                "import { tool } from 'ai';\nimport { z } from 'zod';\nimport { workspace } from './workspace.js';\nimport { classifyTool, UNBOUNDED } from 'tool-result-guard';\nexport const readTool = classifyTool(tool({ name: 'read_file', description: 'Read a file', inputSchema: z.object({ path: z.string() }), execute: async ({ path }) => workspace.resolveEntry(path) }), { reads: 'path', maxResultSizeChars: UNBOUNDED });",
            },
          ],
        },
      ],
    },
    // unknown, and the description says it returns the contents of what is at `url` (a field the schema describes as a URL)
    {
      code: "import { tool } from 'ai';\nimport { z } from 'zod';\nimport { docs } from './docs.js';\nexport const docTool = tool({ name: 'get_doc', description: 'Returns the contents of the document at the given URL.', inputSchema: z.object({ url: z.string().describe('The URL of the document') }), execute: async ({ url }) => docs.resolveEntry(url) });",
      errors: [
        {
          messageId: 'missingUnboundedByContract',
          suggestions: [
            {
              messageId: 'setUnbounded',
              output:
                "import { tool } from 'ai';\nimport { z } from 'zod';\nimport { docs } from './docs.js';\nimport { classifyTool, UNBOUNDED } from 'tool-result-guard';\nexport const docTool = classifyTool(tool({ name: 'get_doc', description: 'Returns the contents of the document at the given URL.', inputSchema: z.object({ url: z.string().describe('The URL of the document') }), execute: async ({ url }) => docs.resolveEntry(url) }), { reads: 'url', maxResultSizeChars: UNBOUNDED });",
            },
          ],
        },
      ],
    },
    // the user listed it in `selfReadingTools`: reported whatever the flow and the contract say
    {
      code: "import { tool } from 'ai';\nimport { z } from 'zod';\nexport const openTool = tool({ name: 'open_item', description: 'Opens an item', inputSchema: z.object({ id: z.string() }), execute: async ({ id }) => `opened ${id}` });",
      settings: { 'tool-result-guard': { selfReadingTools: ['open_item'] } },
      errors: [
        {
          messageId: 'listedSelfReading',
          suggestions: [
            {
              messageId: 'setUnbounded',
              output:
                "import { tool } from 'ai';\nimport { z } from 'zod';\nimport { classifyTool, UNBOUNDED } from 'tool-result-guard';\nexport const openTool = classifyTool(tool({ name: 'open_item', description: 'Opens an item', inputSchema: z.object({ id: z.string() }), execute: async ({ id }) => `opened ${id}` }), { reads: 'path', maxResultSizeChars: UNBOUNDED });",
            },
          ],
        },
      ],
    },
    // a harness's own helper handed a whole contract and an invocation (`createAction({ name, description, schema, resolver })`): a tool, whatever the helper is called
    {
      code: "import { readFile } from 'node:fs/promises';\nimport { z } from 'zod';\nexport const viewFile = createAction({\n  name: 'view_file',\n  description: 'View a file',\n  schema: z.object({ path: z.string() }),\n  resolver: async ({ input }) => readFile(input.path, 'utf8'),\n});",
      errors: [
        {
          messageId: 'missingUnbounded',
          suggestions: [
            {
              messageId: 'setUnbounded',
              output:
                "import { readFile } from 'node:fs/promises';\nimport { z } from 'zod';\nexport const viewFile = createAction({\n  name: 'view_file',\n  description: 'View a file',\n  schema: z.object({ path: z.string() }),\n  resolver: async ({ input }) => readFile(input.path, 'utf8'),\n  maxResultSizeChars: Infinity,\n});",
            },
          ],
        },
      ],
    },
    // the invocation is wrapped (`execute: withProjectRoot(async …)`): the wrapped function runs with the model's input
    {
      code: "import { readFile } from 'node:fs/promises';\nimport { z } from 'zod';\nserver.addTool({ name: 'read', description: 'Read a file', parameters: z.object({ path: z.string() }), execute: withProjectRoot(async ({ path }) => readFile(path, 'utf8')) });",
      errors: [
        {
          messageId: 'missingUnbounded',
          suggestions: [
            {
              messageId: 'setUnbounded',
              output:
                "import { readFile } from 'node:fs/promises';\nimport { z } from 'zod';\nserver.addTool({ name: 'read', description: 'Read a file', parameters: z.object({ path: z.string() }), execute: withProjectRoot(async ({ path }) => readFile(path, 'utf8')), _meta: { 'anthropic/maxResultSizeChars': Infinity } });",
            },
          ],
        },
      ],
    },
    // an OpenAI-style definition with no invocation, joined by name to a dispatcher that switches on the call record's name field (`toolCall.function.name`)
    {
      code: "import { readFileSync } from 'node:fs';\nexport const TOOLS = [\n  { type: 'function', function: { name: 'view_file', description: 'View a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } } },\n];\nexport class Agent {\n  executeTool(toolCall) {\n    const args = JSON.parse(toolCall.function.arguments);\n    switch (toolCall.function.name) {\n      case 'view_file':\n        return readFileSync(args.path, 'utf8');\n      default:\n        return 'unknown tool';\n    }\n  }\n}",
      errors: [
        {
          messageId: 'missingUnbounded',
          suggestions: [
            {
              messageId: 'setUnbounded',
              output:
                "import { readFileSync } from 'node:fs';\nexport const TOOLS = [\n  { type: 'function', function: { name: 'view_file', description: 'View a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } }, _meta: { 'anthropic/maxResultSizeChars': Infinity } },\n];\nexport class Agent {\n  executeTool(toolCall) {\n    const args = JSON.parse(toolCall.function.arguments);\n    switch (toolCall.function.name) {\n      case 'view_file':\n        return readFileSync(args.path, 'utf8');\n      default:\n        return 'unknown tool';\n    }\n  }\n}",
            },
          ],
        },
      ],
    },
  ],
});
// Tools typed with a harness's own interfaces: the member only where the declared type has it, else the
// classifyTool home; the same edit without and with type information.
const harnessTypedRuleTester = new RuleTester({
  languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: harnessTypesDirectory } },
});
for (const [mode, tester] of [
  ['without types', ruleTester],
  ['with types', harnessTypedRuleTester],
] as const) {
  tester.run(`require-unbounded-self-reading-tool (a harness's own tool types, ${mode})`, rule, {
    valid: classifyCases.map((testCase) => ({ code: testCase.suggestion!.output, filename: harnessTypesFile })),
    invalid: classifyCases.map((testCase) => ({
      name: testCase.name,
      code: testCase.code,
      filename: harnessTypesFile,
      errors: [
        {
          messageId: testCase.messageId as MessageIds,
          suggestions: [{ messageId: 'setUnbounded' as const, output: testCase.suggestion!.output }],
        },
      ],
    })),
  });
  // Unclassified tools (strict): the finite default goes where the declared type has room for it.
  tester.run(`require-unbounded-self-reading-tool (unclassified, a harness's own tool types, ${mode})`, rule, {
    valid: [],
    invalid: [
      {
        code: `import type { Tool } from './types.js';
export const clockTool: Tool<Record<string, never>> = { name: 'clock', description: 'The time', execute: async () => new Date().toISOString() };
`,
        filename: harnessTypesFile,
        options: [{ requireClassification: true }],
        errors: [
          {
            messageId: 'unclassified',
            suggestions: [
              {
                messageId: 'setFiniteLimit',
                output: `import type { Tool } from './types.js';
import { classifyTool } from 'tool-result-guard';
export const clockTool: Tool<Record<string, never>> = classifyTool({ name: 'clock', description: 'The time', execute: async () => new Date().toISOString() }, { maxResultSizeChars: 50_000 });
`,
              },
            ],
          },
        ],
      },
    ],
  });
}

// Principles from first-contact round 3 (issue 27): decorators applied by hand, callbacks named
// like readers, and URL helpers handed a fixed origin. Each valid and invalid.
ruleTester.run('require-unbounded-self-reading-tool: hand-applied decorators, handed-in callbacks, URL helpers', rule, {
  valid: [
    // `fetch` is a parameter: whatever the caller hands in (here an API client's lookup), not the global reader
    {
      code: "import { tool } from 'ai';\nimport { z } from 'zod';\nasync function getResourceByIdOrName(idOrName, fetch) {\n  return fetch(idOrName.trim());\n}\nexport const getTask = tool({ name: 'get_task', description: 'Returns the task', inputSchema: z.object({ id: z.string() }), execute: async ({ id }) => getResourceByIdOrName(id, async (safeId) => client.task(safeId).get()) });\n",
      filename: crossFile,
    },
  ],
  invalid: [
    // `registry.action(description, { param_model })(async function read_file(…))`: the function is the tool, named by itself
    {
      code: "import { readFile } from 'node:fs/promises';\nexport class Controller {\n  register() {\n    this.registry.action('Read a file and return its text.', { param_model: ReadFileSchema })(async function read_file(params, { file_system }) {\n      const text = await readFile(params.path, 'utf8');\n      return { content: text };\n    });\n  }\n}\n",
      filename: crossFile,
      errors: [
        {
          messageId: 'missingUnbounded',
          data: { toolName: 'read_file', readCall: '`readFile`', resource: 'path', unbounded: 'Infinity' },
          suggestions: [
            {
              messageId: 'setUnbounded',
              output:
                "import { readFile } from 'node:fs/promises';\nexport class Controller {\n  register() {\n    this.registry.action('Read a file and return its text.', { param_model: ReadFileSchema, maxResultSizeChars: Infinity })(async function read_file(params, { file_system }) {\n      const text = await readFile(params.path, 'utf8');\n      return { content: text };\n    });\n  }\n}\n",
            },
          ],
        },
      ],
    },
    // `buildUrl(url, …)` of the model's URL reads it; `buildUrl('https://api.github.com/search/code', params)` in the same file does not
    {
      code: "import { tool } from 'ai';\nimport { z } from 'zod';\nfunction buildUrl(baseUrl, params) {\n  const url = new URL(baseUrl);\n  for (const [key, value] of Object.entries(params)) url.searchParams.append(key, String(value));\n  return url.toString();\n}\nasync function githubRequest(url) {\n  const response = await fetch(url);\n  return response.json();\n}\nexport const searchCode = tool({ name: 'search_code', description: 'Search code', inputSchema: z.object({ q: z.string() }), execute: async (params) => githubRequest(buildUrl('https://api.github.com/search/code', params)) });\nexport const fetchUrl = tool({ name: 'fetch_page', description: 'Fetch a page', inputSchema: z.object({ url: z.string() }), execute: async ({ url }) => githubRequest(buildUrl(url, {})) });\n",
      filename: crossFile,
      errors: [
        {
          messageId: 'missingUnbounded',
          suggestions: [
            {
              messageId: 'setUnbounded',
              output:
                "import { tool } from 'ai';\nimport { z } from 'zod';\nimport { classifyTool, UNBOUNDED } from 'tool-result-guard';\nfunction buildUrl(baseUrl, params) {\n  const url = new URL(baseUrl);\n  for (const [key, value] of Object.entries(params)) url.searchParams.append(key, String(value));\n  return url.toString();\n}\nasync function githubRequest(url) {\n  const response = await fetch(url);\n  return response.json();\n}\nexport const searchCode = tool({ name: 'search_code', description: 'Search code', inputSchema: z.object({ q: z.string() }), execute: async (params) => githubRequest(buildUrl('https://api.github.com/search/code', params)) });\nexport const fetchUrl = classifyTool(tool({ name: 'fetch_page', description: 'Fetch a page', inputSchema: z.object({ url: z.string() }), execute: async ({ url }) => githubRequest(buildUrl(url, {})) }), { reads: 'url', maxResultSizeChars: UNBOUNDED });\n",
            },
          ],
        },
      ],
    },
  ],
});

// Principles from first-contact round 4 (issue 27): harness contract objects with `impl`, a handler
// another (CommonJS) module exports, and a path handed to a remote service's client.
const registryFile = path.join(fixtures, 'self-reading', 'registry.js');
ruleTester.run('require-unbounded-self-reading-tool: impl members, imported handlers, remote clients', rule, {
  valid: [
    // the contract says it reads `path`, but the path goes to a remote service's client (`gitApi`): a place in that service
    {
      code: "import { tool } from 'ai';\nimport { z } from 'zod';\nimport { connection } from './helpers.js';\nexport const repoFile = tool({ name: 'repo_file', description: 'Retrieve file data from a repository.', inputSchema: z.object({ path: z.string() }), execute: async ({ path }) => { const gitApi = await connection.getGitApi(); return gitApi.getItemText('repo', path); } });\n",
      filename: crossFile,
    },
  ],
  invalid: [
    // `Read: defineTool({ schema, description, impl: read })` (Letta Code): `impl` is the invocation
    {
      code: "import { readFile } from 'node:fs/promises';\nfunction defineTool<T>(input: T): T { return input; }\nasync function read(args: { file_path: string }) { return { content: await readFile(args.file_path, 'utf8') }; }\nexport const toolDefinitions = {\n  Read: defineTool({ schema: { type: 'object', properties: { file_path: { type: 'string' } } }, description: 'Reads a file from the local filesystem.', impl: read }),\n};\n",
      filename: crossFile,
      errors: [
        {
          messageId: 'missingUnbounded',
          suggestions: [
            {
              messageId: 'setUnbounded',
              output:
                "import { readFile } from 'node:fs/promises';\nfunction defineTool<T>(input: T): T { return input; }\nasync function read(args: { file_path: string }) { return { content: await readFile(args.file_path, 'utf8') }; }\nexport const toolDefinitions = {\n  Read: defineTool({ schema: { type: 'object', properties: { file_path: { type: 'string' } } }, description: 'Reads a file from the local filesystem.', impl: read, maxResultSizeChars: Infinity }),\n};\n",
            },
          ],
        },
      ],
    },
    // the handler lives in another module (`scrape_handler_1.scrapeTool`) and hands the model's URL to a scraping API's client
    {
      code: 'const scrape_handler_1 = require("./scrape-handler");\nserver.tool("scrape_webpage", "Scrape a webpage and return its content as markdown.", { url: z.string() }, scrape_handler_1.scrapeTool);\n',
      filename: registryFile,
      errors: [
        {
          messageId: 'missingUnboundedByContract',
          suggestions: [
            {
              messageId: 'setUnbounded',
              output:
                'const { classifyTool, UNBOUNDED } = require("tool-result-guard");\n\nconst scrape_handler_1 = require("./scrape-handler");\nclassifyTool(server.tool("scrape_webpage", "Scrape a webpage and return its content as markdown.", { url: z.string() }, scrape_handler_1.scrapeTool), { name: "scrape_webpage", reads: "url", maxResultSizeChars: UNBOUNDED });\n',
            },
          ],
        },
      ],
    },
  ],
});

// A file the code names under a folder the model chooses (task-master's
// `path.join(projectRoot, '.taskmaster', 'state.json')`): the model picks the folder, the code the
// file, so a persisted result can never be read back through it. A last segment from the input stays the model's.
ruleTester.run("require-unbounded-self-reading-tool: a file the code names under the model's folder", rule, {
  valid: [
    {
      code: "import { tool } from 'ai';\nimport { z } from 'zod';\nimport { readFileSync } from 'node:fs';\nimport path from 'node:path';\nexport const currentTag = tool({ name: 'current_tag', description: 'Show the current tag', inputSchema: z.object({ projectRoot: z.string() }), execute: async ({ projectRoot }) => { const statePath = path.join(projectRoot, '.taskmaster', 'state.json'); return readFileSync(statePath, 'utf-8'); } });\n",
      filename: crossFile,
    },
  ],
  invalid: [
    {
      code: "import { tool } from 'ai';\nimport { z } from 'zod';\nimport { readFileSync } from 'node:fs';\nimport path from 'node:path';\nexport const currentTag = tool({ name: 'current_tag', description: 'Show the current tag', inputSchema: z.object({ projectRoot: z.string() }), execute: async ({ projectRoot }) => { const statePath = path.join(projectRoot, '.taskmaster', 'state.json'); return readFileSync(statePath, 'utf-8'); } });\nexport const readTasks = tool({ name: 'read_tasks', description: 'Show a tasks file', inputSchema: z.object({ projectRoot: z.string(), file: z.string() }), execute: async ({ projectRoot, file }) => readFileSync(path.join(projectRoot, file), 'utf-8') });\n",
      filename: crossFile,
      errors: [
        {
          messageId: 'missingUnbounded',
          suggestions: [
            {
              messageId: 'setUnbounded',
              output:
                "import { tool } from 'ai';\nimport { z } from 'zod';\nimport { readFileSync } from 'node:fs';\nimport path from 'node:path';\nimport { classifyTool, UNBOUNDED } from 'tool-result-guard';\nexport const currentTag = tool({ name: 'current_tag', description: 'Show the current tag', inputSchema: z.object({ projectRoot: z.string() }), execute: async ({ projectRoot }) => { const statePath = path.join(projectRoot, '.taskmaster', 'state.json'); return readFileSync(statePath, 'utf-8'); } });\nexport const readTasks = classifyTool(tool({ name: 'read_tasks', description: 'Show a tasks file', inputSchema: z.object({ projectRoot: z.string(), file: z.string() }), execute: async ({ projectRoot, file }) => readFileSync(path.join(projectRoot, file), 'utf-8') }), { reads: 'path', maxResultSizeChars: UNBOUNDED });\n",
            },
          ],
        },
      ],
    },
  ],
});

// Shapes harnesses write around the SDKs (first contact rounds 5 and 6, issue 27): a package's own
// registration helper, a handler factory member, a handler map looked up by name, a tool module.
const shapeFixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const helperRegistration = (handler: string, config = "{ description: 'Read a file', inputSchema: { path: z.string() } }") =>
  `import { readFile } from 'node:fs/promises';
function registerToolConditional(toolName, schema, handler) {
  if (isToolEnabled(toolName)) server.registerTool(toolName, schema, handler);
}
registerToolConditional('read_remote', ${config}, ${handler});
`;
const readingHandler = "async ({ path }) => ({ content: [{ type: 'text', text: await readFile(path, 'utf8') }] })";

ruleTester.run('require-unbounded-self-reading-tool: registration helpers, handler factories, looked-up maps, tool modules', rule, {
  valid: [
    // The helper's call hands back a status: no reads of the model's path come back.
    {
      code: helperRegistration("async ({ path }) => ({ content: [{ type: 'text', text: `queued ${path.length}` }] })"),
      filename: crossFile,
    },
    // Declared in the config's `_meta`, which the helper hands to registerTool whole.
    {
      code: helperRegistration(
        readingHandler,
        "{ description: 'Read a file', inputSchema: { path: z.string() }, _meta: { 'anthropic/maxResultSizeChars': Infinity } }",
      ),
      filename: crossFile,
    },
    // A tool module whose handler hands back a status, named by its file.
    {
      code: readFileSync(path.join(shapeFixtures, 'tool-module', 'src', 'tools', 'note_status.ts'), 'utf8'),
      filename: path.join(shapeFixtures, 'tool-module', 'src', 'tools', 'note_status.ts'),
    },
  ],
  invalid: [
    // The call of the helper is the tool; its `_meta` reaches the server, so the suggestion writes it there.
    {
      code: helperRegistration(readingHandler),
      filename: crossFile,
      errors: [
        {
          messageId: 'missingUnbounded',
          data: { toolName: 'read_remote', readCall: '`readFile`', resource: 'path', unbounded: 'Infinity' },
          suggestions: [
            {
              messageId: 'setUnbounded',
              output: helperRegistration(
                readingHandler,
                "{ description: 'Read a file', inputSchema: { path: z.string() }, _meta: { 'anthropic/maxResultSizeChars': Infinity } }",
              ),
            },
          ],
        },
      ],
    },
    // A helper that types its config would reject a `_meta` written into it (TS2353): reported without a suggestion.
    {
      code: `import { readFile } from 'node:fs/promises';
export function registerFileTool(name: string, config: { description: string; inputSchema: object }, handler: (args: { path: string }) => unknown) {
  server.registerTool(name, config, handler);
}
registerFileTool('read_local', { description: 'Read a file', inputSchema: { path: z.string() } }, ${readingHandler});
`,
      filename: crossFile,
      errors: [
        {
          messageId: 'missingUnbounded',
          data: { toolName: 'read_local', readCall: '`readFile`', resource: 'path', unbounded: 'Infinity' },
          suggestions: [],
        },
      ],
    },
    // `factory: (context) => async (input) => …`: the function the factory returns runs on each call.
    {
      code: `import { readFile } from 'node:fs/promises';
export const READ = declareTool({ name: 'read_doc', description: 'Read a doc', inputSchema: { path: z.string() }, factory: (context) => async (input) => readFile(input.path, 'utf8') });
`,
      filename: crossFile,
      errors: [
        {
          messageId: 'missingUnbounded',
          data: { toolName: 'read_doc', readCall: '`readFile`', resource: 'path', unbounded: 'Infinity' },
          suggestions: [
            {
              messageId: 'setUnbounded',
              output: `import { readFile } from 'node:fs/promises';
export const READ = declareTool({ name: 'read_doc', description: 'Read a doc', inputSchema: { path: z.string() }, factory: (context) => async (input) => readFile(input.path, 'utf8'), maxResultSizeChars: Infinity });
`,
            },
          ],
        },
      ],
    },
    // A tool list entry whose handler a map of another module holds under its name, looked up in a third.
    {
      code: nameDispatchText('looked-up-map', 'definitions.ts'),
      filename: path.join(nameDispatch, 'looked-up-map', 'definitions.ts'),
      errors: [
        {
          messageId: 'missingUnbounded',
          data: { toolName: 'read_note', readCall: '`readFile`', resource: 'path', unbounded: 'Infinity' },
          suggestions: [
            {
              messageId: 'setUnbounded',
              output: nameDispatchText('looked-up-map', 'definitions.ts').replace(
                "properties: { path: { type: 'string' } } } },",
                "properties: { path: { type: 'string' } } }, _meta: { 'anthropic/maxResultSizeChars': Infinity } },",
              ),
            },
          ],
        },
      ],
    },
    // A tool module named by its manifest: reported at its handler, with no object to write the member into.
    {
      code: readFileSync(path.join(shapeFixtures, 'tool-module', 'src', 'tools', 'read-note.ts'), 'utf8'),
      filename: path.join(shapeFixtures, 'tool-module', 'src', 'tools', 'read-note.ts'),
      errors: [
        {
          messageId: 'missingUnbounded',
          data: { toolName: 'read_note', readCall: '`readFile`', resource: 'path', unbounded: 'Infinity' },
          suggestions: [],
        },
      ],
    },
  ],
});

const specToolFile = path.join(fixtures, 'self-reading', 'spec-tool.ts');
/** A tool class of a harness whose handlers take the call's context first (`execute(_context, params)`). */
const contextFirstTool = (body: string): string => `import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { BaseTool } from './base-tool.js';
const schema = z.object({ specFile: z.string() });
export class ReadSpecTool extends BaseTool {
  name = 'read_spec';
  description = 'Read a spec file from the specs folder';
  inputSchema = schema;
  async execute(_context, params) {
${body}
  }
}
`;
/** An in-process server class whose dispatcher takes the call record and the transport's extra (`callTool(request, _extra)`). */
const recordServer = (entry: string, branch: string): string => `import { readFile } from 'node:fs/promises';
export class FilesServer {
  async listTools() {
    return { tools: [${entry}] };
  }
  async readAll(paths) {
    const out = [];
    for (const p of paths) out.push(await readFile(p, 'utf8'));
    return { content: [{ type: 'text', text: out.join('\\n') }] };
  }
  async callTool(request, _extra) {
    const { name, arguments: args } = request;
    switch (name) {
      ${branch}
      default: throw new Error('unknown tool');
    }
  }
}
`;
/** tsc's downlevel async around a low-level dispatcher: the handler's body is the generator `__awaiter` runs. */
const awaiterServer = (entry: string, branch: string): string => `"use strict";
var __awaiter = (this && this.__awaiter) || function (thisArg, _arguments, P, generator) { return new P(function (resolve) { resolve(generator.next()); }); };
const fs = require("fs");
const types_js_1 = require("@modelcontextprotocol/sdk/types.js");
server.setRequestHandler(types_js_1.ListToolsRequestSchema, () => __awaiter(void 0, void 0, void 0, function* () { return { tools: [${entry}] }; }));
server.setRequestHandler(types_js_1.CallToolRequestSchema, (request) => __awaiter(void 0, void 0, void 0, function* () {
    const { name, arguments: args } = request.params;
    switch (name) {
        ${branch}
    }
}));
`;
/** A low-level server whose command runner splits the command line inside a Promise executor (mcp-ripgrep's `exec`). */
const commandServer = (entry: string): string => `import { spawn } from 'node:child_process';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
function exec(command) {
  return new Promise((resolve) => {
    const parts = command.split(' ');
    const child = spawn(parts[0], parts.slice(1), { shell: true });
    let stdout = '';
    child.stdout.on('data', (data) => { stdout += data; });
    child.on('close', () => resolve({ stdout }));
  });
}
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [${entry}] }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const args = request.params.arguments;
  switch (request.params.name) {
    case 'search': {
      // (joined at run time: the flow cannot tell which program runs, so the contract decides)
      const command = [process.env.SEARCH_PROGRAM ?? 'rg', '-n', args.pattern, args.path].join(' ');
      const { stdout } = await exec(command);
      return { content: [{ type: 'text', text: stdout }] };
    }
  }
});
`;
/** A low-level server whose git tools hand the model's repository to a manager of another module. */
const gitServer = (
  entry: string,
  tool: string,
): string => `import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { gitManager } from './git-manager.js';
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [${entry}] }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name, arguments: args } = request.params;
  switch (name) {
    case '${tool}': return { content: [{ type: 'text', text: await gitManager.run('${tool}', args.repo_path) }] };
  }
});
`;
const searchEntry = (description: string) =>
  `{ name: 'search', description: '${description}', inputSchema: { type: 'object', properties: { pattern: { type: 'string' }, path: { type: 'string', description: 'Directory or file(s) to search.' } } } }`;
const gitEntry = (name: string, description: string) =>
  `{ name: '${name}', description: '${description}', inputSchema: { type: 'object', properties: { repo_path: { type: 'string' } } } }`;

/** The suggestion that writes the classification at `anchor` (the first occurrence): `anchor` becomes `replacement`. */
const unboundedAt = (code: string, anchor: string, replacement: string) => {
  if (!code.includes(anchor)) throw new Error(`fix anchor not in code: ${anchor}`);
  return [{ messageId: 'setUnbounded' as const, output: code.replace(anchor, replacement) }];
};
/** The context-first spec tool, proven to read `specFile` and fixed with a class field. */
const readSpecCase = (code: string): InvalidTestCase<MessageIds, Options> => ({
  code,
  filename: specToolFile,
  errors: [
    {
      messageId: 'missingUnbounded',
      data: { toolName: 'read_spec', readCall: '`readFile`', resource: 'path', unbounded: 'Infinity' },
      suggestions: classFix(code),
    },
  ],
});
const classFix = (code: string) => unboundedAt(code, 'extends BaseTool {\n', 'extends BaseTool {\n  maxResultSizeChars = Infinity;\n');
const metaFix = (code: string, entryEnd: string) =>
  unboundedAt(code, entryEnd, entryEnd.replace(/ }$/, ", _meta: { 'anthropic/maxResultSizeChars': Infinity } }"));

/**
 * A tool reported at its list entry, whose classification goes in the entry's `_meta` (ending at
 * `entryEnd`): proven, with the reader `data` names, or (without `data`) unknown and said by its contract.
 */
const metaCase = (code: string, entryEnd: string, data?: { toolName: string; readCall: string }): InvalidTestCase<MessageIds, Options> => ({
  code,
  errors: [
    data
      ? { messageId: 'missingUnbounded', data: { ...data, resource: 'path', unbounded: 'Infinity' }, suggestions: metaFix(code, entryEnd) }
      : { messageId: 'missingUnboundedByContract', suggestions: metaFix(code, entryEnd) },
  ],
});

ruleTester.run(
  'require-unbounded-self-reading-tool: context-first handlers, call records, downlevel async, closures, base classes, searches and diffs',
  rule,
  {
    valid: [
      // `execute(context, params)`: the context is no input, so a file it names is the harness's, not the model's (refuted).
      {
        code: contextFirstTool(
          `    const content = await readFile(_context.specFile, 'utf8');\n    return { content: [{ type: 'text', text: content }] };`,
        ),
        filename: specToolFile,
      },
      // The record's branch hands back a count of the model's paths: refuted.
      {
        code: recordServer(
          "{ name: 'count_files', description: 'Count files', inputSchema: { type: 'object', properties: { paths: { type: 'array' } } } }",
          "case 'count_files': return { content: [{ type: 'text', text: String(args.paths.length) }] };",
        ),
      },
      // Under `__awaiter`, a branch that stats the model's file hands back its size only.
      {
        code: awaiterServer(
          "{ name: 'stat_file', inputSchema: {} }",
          "case 'stat_file': { const stats = yield fs.promises.stat(args.path); return { content: [{ type: 'text', text: String(stats.size) }] }; }",
        ),
      },
      // A search that counts what it matches hands back numbers, not the lines: "Count matches in files using ripgrep".
      { code: commandServer(searchEntry('Count matches in files using ripgrep')) },
      // `git_status` of the model's repository: the contract says status, not the files' lines.
      { code: gitServer(gitEntry('git_status', 'Shows the working tree status'), 'git_status') },
      // It writes back the file it read: the text before and after is its own edit's, not a read for the model.
      {
        code: `import { readFile, writeFile } from 'node:fs/promises';
buildTool({ name: 'normalize_file', async call(input) {
  const before = await readFile(input.path, 'utf8');
  const after = before.replace(/\\r\\n/g, '\\n');
  await writeFile(input.path, after);
  return { before, after };
} });`,
      },
    ],
    invalid: [
      // The model's parameters are the second parameter, after the context.
      readSpecCase(
        contextFirstTool(
          `    const content = await readFile(params.specFile, 'utf8');\n    return { content: [{ type: 'text', text: content }] };`,
        ),
      ),
      // The parameters pass through the base class's `parseParams` (another module) and back.
      readSpecCase(
        contextFirstTool(
          `    const { specFile } = this.parseParams(schema, params);\n    const content = await readFile(specFile, 'utf8');\n    return { content: [{ type: 'text', text: content }] };`,
        ),
      ),
      // `callTool(request, _extra)` with `{ name, arguments: args } = request`: the record holds the arguments, and the branch's method reads them.
      metaCase(
        recordServer(
          "{ name: 'read_files', description: 'Read files', inputSchema: { type: 'object', properties: { paths: { type: 'array' } } } }",
          "case 'read_files': return this.readAll(args.paths);",
        ),
        "properties: { paths: { type: 'array' } } } }",
        { toolName: 'read_files', readCall: '`this.readAll` (→ readFile)' },
      ),
      // tsc's `__awaiter` around the dispatcher: the generator's `const { name, arguments: args } = request.params` names the tools.
      metaCase(
        awaiterServer(
          "{ name: 'cat', inputSchema: {} }",
          "case 'cat': { const text = yield fs.promises.readFile(args.path, 'utf8'); return { content: [{ type: 'text', text }] }; }",
        ),
        "{ name: 'cat', inputSchema: {} }",
        { toolName: 'cat', readCall: '`fs.promises.readFile`' },
      ),
      // The command line leaves for `spawn` inside the Promise executor: unknown, and "Search files for patterns" is a content search.
      metaCase(
        commandServer(searchEntry('Search files for patterns using ripgrep (rg)')),
        "description: 'Directory or file(s) to search.' } } } }",
      ),
      // `git_diff` of the model's repository, handed to a manager the analysis cannot follow: a diff hands back lines of the files.
      metaCase(
        gitServer(gitEntry('git_diff', 'Shows changes in the working directory'), 'git_diff'),
        "repo_path: { type: 'string' } } } }",
      ),
      // It writes another file than the one it read (a marker beside it): the text it read comes back.
      invalid(
        `import { readFile, writeFile } from 'node:fs/promises';
buildTool({ name: 'open_file', async call(input) {
  const text = await readFile(input.path, 'utf8');
  await writeFile(input.path + '.seen', 'seen');
  return text;
} });`,
        [
          {
            toolName: 'open_file',
            readCall: '`readFile`',
            fix: ['  return text;\n} });', '  return text;\n}, maxResultSizeChars: Infinity });'],
          },
        ],
      ),
    ],
  },
);

/** MCP SDK 2's low-level server: its request handlers are registered by method name (`'tools/call'`), not by schema. */
const methodServer = (entry: string, branch: string): string => `import { readFile, stat } from 'node:fs/promises';
server.setRequestHandler('tools/list', async () => ({ tools: [${entry}] }));
server.setRequestHandler('tools/call', async (request) => {
  const { name, arguments: args } = request.params;
  switch (name) {
    ${branch}
  }
});
`;
const noteEntry = (name: string, description: string) =>
  `{ name: '${name}', description: '${description}', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } }`;
const NOTE_ENTRY_END = "properties: { path: { type: 'string' } } } }";
/**
 * An esbuild bundle's server: the definition is assigned in a lazy module initialiser, and the
 * handlers sit in a `Map` of `[name, handler]` pairs looked up with `.get(name)`.
 */
const bundledMapServer = (pairs: string): string => `import { readFile } from 'node:fs/promises';
import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
async function handleReadNote(args2) {
  const text = await readFile(args2.path, 'utf8');
  return { content: [{ type: 'text', text }] };
}
var readNoteTool, toolHandlers;
var init_notes = __esm({
  'src/tools/notes.ts'() {
    readNoteTool = ${noteEntry('read_note', 'Read a note')};
    toolHandlers = new Map([${pairs}]);
  }
});
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name, arguments: args } = request.params;
  const handler = toolHandlers.get(name);
  return handler(args);
});
`;
/** A registration helper called with a schema the code names rather than writes out. */
const namedSchemaHelper = (handler: string): string => `import { readFile } from 'node:fs/promises';
import { z } from 'zod';
const noteSchema = { path: z.string().describe('Path of the note') };
function registerTool(server, toolName, inputSchema, handler) {
  return server.registerTool(toolName, { description: toolDocs[toolName], inputSchema }, async (args) => handler(args));
}
registerTool(server, 'read_note', noteSchema, ${handler});
`;
/** A definition whose input schema is a list of parameter records, handing the URL to a library the analysis cannot follow. */
const parameterRecordsTool = (parameter: string): string => `import { httpGet } from 'http-lib';
export const httpGetTool = {
  name: 'http_get',
  description: 'Fetch content from a specific URL via HTTP GET.',
  parameters: [${parameter}],
  execute: async (args) => httpGet(args.url),
};
`;
const scrapeTool = (description: string): string => `import { tool } from 'ai';
import { z } from 'zod';
import { scraper } from 'scraper-lib';
export const batchScrape = tool({
  description: '${description}',
  inputSchema: z.object({ urls: z.array(z.string()) }),
  execute: async (args) => scraper.batch(args.urls),
});
`;
const findCodeTool = (description: string): string => `import { runAstGrep } from 'ast-grep-runner';
import { z } from 'zod';
server.registerTool('find_code', {
  description: '${description}',
  inputSchema: { project_folder: z.string().describe('The absolute path to the project folder.'), pattern: z.string() },
}, async (args) => ({ content: [{ type: 'text', text: await runAstGrep(args.pattern, args.project_folder) }] }));
`;
/** A tool that reads a file named by the model under a root: the package's own data folder, or another. */
const dataFolderTool = (root: string): string => `import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
function dataDirectory() {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../data');
}
const DATA_DIR = ${root};
async function readBundled(file) {
  const full = path.join(DATA_DIR, file);
  return readFile(full, 'utf8');
}
server.registerTool('get_video', { description: 'Get a video transcript', inputSchema: { id: z.string() } }, async (args) => ({ content: [{ type: 'text', text: await readBundled(args.id + '.json') }] }));
`;

/** A tool reported by its contract (unknown flow), with the one suggestion's exact output. */
const contractCase = (code: string, output: string): InvalidTestCase<MessageIds, Options> => ({
  code,
  errors: [{ messageId: 'missingUnboundedByContract', suggestions: [{ messageId: 'setUnbounded', output }] }],
});
/** `code` with the first `anchor` replaced by `replacement` (throws when the anchor is missing). */
const replacedOnce = (code: string, anchor: string, replacement: string): string => unboundedAt(code, anchor, replacement)[0]!.output;

ruleTester.run(
  'require-unbounded-self-reading-tool: method-named handlers, bundled handler maps, named schemas, parameter records, shipped folders',
  rule,
  {
    valid: [
      // `'tools/call'` routes a tool that hands back a size, not what it read (refuted).
      {
        code: methodServer(
          noteEntry('note_size', 'Size of a note'),
          "case 'note_size': { const info = await stat(args.path); return { content: [{ type: 'text', text: String(info.size) }] }; }",
        ),
      },
      // A map of strings is no handler map: nothing runs under the name.
      { code: bundledMapServer("['read_note', 'notes']") },
      // The helper's tool hands back a length, not the note.
      { code: namedSchemaHelper("async ({ path }) => ({ content: [{ type: 'text', text: String(path.length) }] })") },
      // A boolean parameter record is a flag, never a location.
      { code: parameterRecordsTool("{ name: 'url', type: 'boolean', description: 'Whether to fetch.' }") },
      // The status of what it scrapes is metadata, not content.
      { code: scrapeTool('Scrape the status of multiple URLs in a single request.') },
      // Files whose names match: a listing, not the code in them.
      { code: findCodeTool('Find files in a project folder whose names match the given pattern.') },
      // What a directory holds is its names.
      `import { listDir } from 'dir-lib';
import { z } from 'zod';
server.registerTool('read_directory', { description: 'List a directory', inputSchema: { path: z.string() } }, async (args) => ({ content: [{ type: 'text', text: await listDir(args.path) }] }));
`,
      // The model names a file among those the package ships (a folder from import.meta.url): no persisted result is there.
      { code: dataFolderTool('dataDirectory()') },
    ],
    invalid: [
      // `setRequestHandler('tools/call', …)` is the call-tool handler, as `CallToolRequestSchema` is.
      metaCase(
        methodServer(
          noteEntry('read_note', 'Read a note'),
          "case 'read_note': return { content: [{ type: 'text', text: await readFile(args.path, 'utf8') }] };",
        ),
        NOTE_ENTRY_END,
        {
          toolName: 'read_note',
          readCall: '`readFile`',
        },
      ),
      // The definition assigned in a bundle's initialiser, joined by name to the `Map`'s handler.
      metaCase(bundledMapServer("['read_note', handleReadNote]"), NOTE_ENTRY_END, { toolName: 'read_note', readCall: '`readFile`' }),
      // A tool behind a flag: the pair sits in a conditional spread.
      metaCase(bundledMapServer("...(flags.notes ? [['read_note', handleReadNote]] : [])"), NOTE_ENTRY_END, {
        toolName: 'read_note',
        readCall: '`readFile`',
      }),
      // A helper call whose schema is a constant is still a tool; the helper builds its own config, so no fix is offered.
      {
        code: namedSchemaHelper("async ({ path }) => ({ content: [{ type: 'text', text: await readFile(path, 'utf8') }] })"),
        errors: [
          {
            messageId: 'missingUnbounded',
            data: { toolName: 'read_note', readCall: '`readFile`', resource: 'path', unbounded: 'Infinity' },
            suggestions: [],
          },
        ],
      },
      // Parameter records name the location (`url`), and "Fetch content from a specific URL" says it hands it back.
      ((code) =>
        contractCase(
          code,
          replacedOnce(
            code,
            'execute: async (args) => httpGet(args.url),\n',
            'execute: async (args) => httpGet(args.url),\n  maxResultSizeChars: Infinity,\n',
          ),
        ))(parameterRecordsTool("{ name: 'url', type: 'string', description: 'The full URL to fetch.' }")),
      // To scrape URLs is to hand back their pages.
      ((code) =>
        contractCase(
          code,
          replacedOnce(
            replacedOnce(
              code,
              'export const batchScrape = tool({',
              "import { classifyTool, UNBOUNDED } from 'tool-result-guard';\nexport const batchScrape = classifyTool(tool({",
            ),
            'execute: async (args) => scraper.batch(args.urls),\n});',
            "execute: async (args) => scraper.batch(args.urls),\n}), { reads: 'url', maxResultSizeChars: UNBOUNDED });",
          ),
        ))(scrapeTool('Scrape multiple URLs in a single request.')),
      // "Find code … that matches the pattern": the code it finds is what it hands back.
      ((code) =>
        contractCase(
          code,
          replacedOnce(
            code,
            'pattern: z.string() },\n',
            "pattern: z.string() },\n  _meta: { 'anthropic/maxResultSizeChars': Infinity },\n",
          ),
        ))(findCodeTool('Find code in a project folder that matches the given ast-grep pattern.')),
      // A root that is not the package's own folder (the working directory) may hold a persisted result.
      metaCase(dataFolderTool('process.cwd()'), 'inputSchema: { id: z.string() } }', {
        toolName: 'get_video',
        readCall: '`readBundled` (→ readFile)',
      }),
    ],
  },
);

ruleTester.run('require-unbounded-self-reading-tool: a URL that builds a remote client names its host', rule, {
  valid: [
    // `regionUrl` configures where the client talks ("Download attachments from a Sentry event"), not a page to bring back.
    `import { z } from 'zod';
import { SentryApiService } from './api-client.js';
server.registerTool('get_event_attachment', { description: 'Download attachments from a Sentry event.', inputSchema: { eventId: z.string(), regionUrl: z.string().optional() } }, async (params) => {
  const api = new SentryApiService({ host: params.regionUrl });
  return { content: [{ type: 'text', text: await api.getEventAttachment(params.eventId) }] };
});
`,
  ],
  invalid: [
    // A URL handed to a client's method still names anywhere: the scraping service brings that page back.
    ((code) =>
      contractCase(
        code,
        replacedOnce(
          code,
          'inputSchema: { url: z.string() } }',
          "inputSchema: { url: z.string() }, _meta: { 'anthropic/maxResultSizeChars': Infinity } }",
        ),
      ))(`import { z } from 'zod';
import { ScrapeClient } from './api-client.js';
const client = new ScrapeClient({ apiKey: process.env.KEY });
server.registerTool('scrape_page', { description: 'Scrape a page.', inputSchema: { url: z.string() } }, async (params) => ({ content: [{ type: 'text', text: await client.run(params.url) }] }));
`),
  ],
});

/** A tool that hands a helper an object it writes out, with the model's text or path in one field and the code's config in another. */
const fieldsTool = (field: string, helper: string): string => `import { readFileSync } from 'node:fs';
import { z } from 'zod';
function speak(params) {
  ${helper}
}
server.registerTool('speak', { description: 'Say a text', inputSchema: { ${field}: z.string() } }, async (args) => ({ content: [{ type: 'text', text: speak({ ${field}: args.${field}, cfg: loadConfig() }) }] }));
`;

ruleTester.run('require-unbounded-self-reading-tool: only the fields of an object that carry input are the model’s', rule, {
  valid: [
    // The prefs file comes from the code's `cfg`, not from the model's `text`.
    fieldsTool('text', "const prefs = readFileSync(params.cfg.prefsPath, 'utf8'); return params.text + prefs;"),
  ],
  invalid: [
    // `params.path` is the field the model filled.
    metaCase(fieldsTool('path', "return readFileSync(params.path, 'utf8');"), 'inputSchema: { path: z.string() } }', {
      toolName: 'speak',
      readCall: '`speak` (→ readFileSync)',
    }),
  ],
});

/** A tool object whose handler hands the model's input to a package function the analysis cannot follow. */
const requestTool = (name: string, description: string, schema: string): string => `import { perform } from 'operations-lib';
export const requestTool = {
  name: '${name}',
  description: '${description}',
  parameters: { type: 'object', properties: ${schema} },
  execute: async (args) => perform(args),
};
`;
/** `requestTool(…)` reported by its contract, fixed with the member after its invocation. */
const requestCase = (name: string, description: string, schema: string): InvalidTestCase<MessageIds, Options> => {
  const code = requestTool(name, description, schema);
  const invocation = 'execute: async (args) => perform(args),\n';
  return contractCase(code, replacedOnce(code, invocation, `${invocation}  maxResultSizeChars: Infinity,\n`));
};
/** A tool class whose schema a method hands back (`inputSchema() { return z.object(…) }`). */
const methodSchemaTool = (name: string, description: string, shape: string): string => `import { z } from 'zod';
export class SiteTool extends Tool {
  name = '${name}';
  description = '${description}';
  inputSchema() {
    return z.object(${shape});
  }
  async _run(input) {
    return this.client(input);
  }
}
`;

ruleTester.run(
  'require-unbounded-self-reading-tool: schemas handed back by methods, HTTP requests, operations the model chooses, places',
  rule,
  {
    valid: [
      // A `location` made of a city and a country is a place, not a path.
      {
        code: methodSchemaTool(
          'Weather',
          'Retrieve the weather forecast for a location.',
          '{ location: z.object({ name: z.string(), country: z.string() }) }',
        ),
      },
      // Every operation the model may choose changes the file: none hands it back.
      {
        code: requestTool(
          'file_operations',
          'Perform file system operations like writing and deleting files',
          "{ operation: { type: 'string', enum: ['write', 'delete'] }, filepath: { type: 'string', description: 'Path to the file' } }",
        ),
      },
      // A request tool whose input is no URL (a fixed API's id): nothing says a location.
      { code: requestTool('http_request', 'Make HTTP requests to the billing API', "{ invoiceId: { type: 'string' } }") },
    ],
    invalid: [
      // `inputSchema()` hands back the schema; "Retrieves content of …" with a `url` says it reads.
      ((code) => contractCase(code, replacedOnce(code, 'extends Tool {\n', 'extends Tool {\n  maxResultSizeChars = Infinity;\n')))(
        methodSchemaTool('WebCrawler', 'Retrieves content of an arbitrary website.', "{ url: z.string().describe('Website URL') }"),
      ),
      // An HTTP request to the model's URL hands back the response.
      requestCase(
        'http_request',
        'Make HTTP requests to external APIs and web services',
        "{ url: { type: 'string', description: 'The URL to send the request to' }, method: { type: 'string', enum: ['GET', 'POST'] } }",
      ),
      // One of the operations the model may choose (`read`) hands back the file.
      requestCase(
        'file_operations',
        'Perform file system operations like reading, writing, and managing files',
        "{ operation: { type: 'string', description: 'The file operation to perform', enum: ['read', 'write', 'delete'] }, filepath: { type: 'string', description: 'Path to the file or directory' } }",
      ),
    ],
  },
);

/** A tool of a harness whose results name the field the model gets (`forLlm`); `result` is what it returns. */
const forLlmTool = (result: string): string => `import { readFile } from 'node:fs/promises';
import { z } from 'zod';
export const readNote = tool({
  description: 'Open a note',
  inputSchema: z.object({ path: z.string() }),
  execute: async ({ path }) => {
    const text = await readFile(path, 'utf8');
    return ${result};
  },
});
`;

ruleTester.run('require-unbounded-self-reading-tool: a result that names the field the model gets', rule, {
  valid: [
    // The note's text goes to the harness's metadata; the model gets a status line.
    { code: forLlmTool("{ forLlm: 'Opened the note', metadata: { preview: text } }") },
  ],
  invalid: [
    // The model's field carries the note.
    ((code) => ({
      code,
      errors: [
        {
          messageId: 'missingUnbounded' as const,
          suggestions: [
            {
              messageId: 'setUnbounded' as const,
              output: replacedOnce(code, '  },\n});', '  },\n  maxResultSizeChars: Infinity,\n});'),
            },
          ],
        },
      ],
    }))(forLlmTool('{ forLlm: text, metadata: { size: text.length } }')),
  ],
});

/** A tool named by an enum member of another module, imported through the `@/` alias of the package's `src` folder. */
const aliasedNameFile = path.join(fixtures, 'source-alias', 'src', 'tools', 'read.ts');
const aliasedNameTool = `import { readFile } from 'node:fs/promises';
import { tool } from '@langchain/core/tools';
import { Constants } from '@/common';
export const readTool = tool(async (input) => readFile(input.path, 'utf8'), {
  name: Constants.READ_FILE,
  description: 'Read a file',
  schema: ReadSchema,
});
`;

ruleTester.run('require-unbounded-self-reading-tool: a name from an enum of another module, through the source-folder alias', rule, {
  valid: [],
  invalid: [
    {
      code: aliasedNameTool,
      filename: aliasedNameFile,
      errors: [
        {
          messageId: 'missingUnbounded',
          data: { toolName: 'read_file', readCall: '`readFile`', resource: 'path', unbounded: 'UNBOUNDED' },
          suggestions: [
            {
              messageId: 'setUnbounded',
              output: aliasedNameTool
                .replace(
                  'export const readTool = tool(',
                  "import { classifyTool, UNBOUNDED } from 'tool-result-guard';\nexport const readTool = classifyTool(tool(",
                )
                .replace('  schema: ReadSchema,\n});', "  schema: ReadSchema,\n}), { reads: 'path', maxResultSizeChars: UNBOUNDED });"),
            },
          ],
        },
      ],
    },
  ],
});

// Principles from first-contact round 11 (issue 27).

/** A pi-style tool whose handler takes the call's id first (`execute(toolCallId, args, signal)`); `result` is what it returns. */
const callIdFirstTool = (result: string): string => `import { z } from 'zod';
export const extractDocument = {
  name: 'extract_document',
  description: 'Extract the text of a document',
  parameters: z.object({ url: z.string().describe('URL of the document') }),
  execute: async (_toolCallId, args, signal) => {
    const response = await fetch(args.url.trim(), { signal });
    const text = await response.text();
    return ${result};
  },
};
`;

/** A scraping server whose input shape is built by spreading shared shapes (`{ ...scrapeBase, ...screenshotParams }`). */
const spreadShapeServer = (name: string, description: string): string => `import { z } from 'zod';
import { apiRequest } from './spider-api';
const scrapeBase = { url: z.string().describe('The URL to fetch'), limit: z.number().optional() };
const screenshotParams = { full_page: z.boolean().optional() };
const scrapeParams = { ...scrapeBase, ...screenshotParams };
server.tool('${name}', '${description}', scrapeParams, async (params) => {
  const data = await apiRequest('POST', '/${name}', params);
  return { content: [{ type: 'text', text: data }] };
});
`;

ruleTester.run('require-unbounded-self-reading-tool: first-contact round 11', rule, {
  valid: [
    // The call's id comes first and the model's input second: the document's length comes back, not its text.
    { code: callIdFirstTool("{ content: [{ type: 'text', text: String(text.length) }] }") },
    // The spread shape holds a URL, but links found on a page are facts about it, not its content.
    { code: spreadShapeServer('links', 'Extract all links from a page without fetching content.') },
  ],
  invalid: [
    // `execute(toolCallId, args, signal)`: the model's input is `args`, so the document at its URL is read and returned.
    invalid(callIdFirstTool("{ content: [{ type: 'text', text }] }"), [
      {
        toolName: 'extract_document',
        readCall: '`fetch`',
        resource: 'URL',
        fix: [
          "    return { content: [{ type: 'text', text }] };\n  },\n",
          "    return { content: [{ type: 'text', text }] };\n  },\n  maxResultSizeChars: Infinity,\n",
        ],
      },
    ]),
    // The URL field comes from a spread shape; to scrape a page is to hand back its content. A registration has no
    // field for the classification, so the fix wraps it in `classifyTool`.
    ((code) =>
      contractCase(
        code,
        replacedOnce(
          replacedOnce(code, "server.tool('scrape'", "classifyTool(server.tool('scrape'").replace(
            "import { apiRequest } from './spider-api';\n",
            "import { apiRequest } from './spider-api';\nimport { classifyTool, UNBOUNDED } from 'tool-result-guard';\n",
          ),
          "  return { content: [{ type: 'text', text: data }] };\n});",
          "  return { content: [{ type: 'text', text: data }] };\n}), { name: 'scrape', reads: 'url', maxResultSizeChars: UNBOUNDED });",
        ),
      ))(spreadShapeServer('scrape', 'Scrape a single page and extract its content.')),
  ],
});

/** A harness tool whose input goes to an imported runner the analysis cannot follow: its contract decides. */
const unknownFlowTool = (name: string, description: string, field: string): string => `import { run } from './runner';
export const t = buildTool({
  name: '${name}',
  description: '${description}',
  inputSchema: z.object({ ${field} }),
  async call(input) { return run(input); },
});
`;
/** `unknownFlowTool` reported by its contract, fixed with the member after its invocation. */
const unknownFlowCase = (name: string, description: string, field: string): InvalidTestCase<MessageIds, Options> =>
  ((code) =>
    contractCase(
      code,
      replacedOnce(
        code,
        '  async call(input) { return run(input); },\n',
        '  async call(input) { return run(input); },\n  maxResultSizeChars: Infinity,\n',
      ),
    ))(unknownFlowTool(name, description, field));

ruleTester.run('require-unbounded-self-reading-tool: contracts of first-contact round 11', rule, {
  valid: [
    // A crawl job: the pages come back, if ever, from another tool.
    unknownFlowTool(
      'site_crawl',
      'Start a crawl job to extract content from pages. Returns a job ID.',
      "url: z.string().describe('The starting URL to crawl from')",
    ),
    // A field that names the page to audit says nothing of reading it.
    unknownFlowTool('run_audit', 'Run a performance audit.', "url: z.string().describe('URL to audit')"),
    // A grep that counts.
    unknownFlowTool('mgrep', 'Count the matches of several patterns.', "dir: z.string().describe('Directory to search')"),
    // A performance comparison of two devices is no comparison of files.
    unknownFlowTool('compare_devices', 'Compare website performance between mobile and desktop.', 'url: z.string()'),
    // The status of a repository, not its lines.
    unknownFlowTool('git_state', 'Show git status (modified, added, deleted files).', "dir: z.string().describe('Repository directory')"),
  ],
  invalid: [
    // The field says it is the URL to fetch.
    unknownFlowCase('agent_tool', 'Answers a question about a page.', "url: z.string().describe('URL to fetch. Must be http(s).')"),
    // A screenshot of a model-chosen URL is the page, rendered.
    unknownFlowCase('page_capture', 'Capture screenshots of web pages.', "url: z.string().describe('The URL of the page')"),
    // Named for grep: grep hands back the lines it matches.
    unknownFlowCase('mgrep', 'Search multiple patterns.', "dir: z.string().describe('Directory to search')"),
    // A comparison of two files hands back their differing lines; a git diff the changed lines.
    unknownFlowCase('compare', 'Compare two files and show differences.', "file1: z.string().describe('First file to compare')"),
    unknownFlowCase('git_changes', 'Show git diff of uncommitted changes.', "dir: z.string().describe('Repository directory')"),
    // A conversion named for its target format, and a file the field says is queried.
    unknownFlowCase('image-to-markdown', 'Convert an image to markdown, including metadata.', 'filepath: z.string()'),
    unknownFlowCase('jq', 'Query JSON using jq expressions.', "file: z.string().describe('JSON file to query')"),
  ],
});

/** A requests tool whose URL its configuration holds (`this.url`); the model fills `:name` slots and the query. */
const configuredUrlTool = (start: string): string => `export class RequestsGetTool extends DynamicStructuredTool {
  constructor(args) { super({ name: 'requests_get', description: 'Execute HTTP GET requests', schema }); this.url = args.url; }
  async _call(arg) {
    let finalUrl = ${start};
    Object.entries(arg.queryParams ?? {}).forEach(([key, value]) => {
      finalUrl = finalUrl.replace(new RegExp(':' + key), encodeURIComponent(String(value)));
    });
    const url = new URL(finalUrl);
    url.searchParams.append('q', String(arg.q));
    finalUrl = url.toString();
    const res = await fetch(finalUrl);
    return res.text();
  }
}
`;

ruleTester.run('require-unbounded-self-reading-tool: a URL the configuration holds, its slots filled by the model', rule, {
  valid: [
    // The origin is the tool's configured URL; the model's values are encoded into its path slots and query.
    configuredUrlTool('this.url'),
  ],
  invalid: [
    // The model's own URL, with slots filled the same way: it chooses the origin.
    invalid(configuredUrlTool('arg.url'), [
      {
        toolName: 'RequestsGetTool',
        readCall: '`fetch`',
        resource: 'URL',
        fix: ['extends DynamicStructuredTool {\n', 'extends DynamicStructuredTool {\n  maxResultSizeChars = Infinity;\n'],
      },
    ]),
  ],
});

/** A tool module: `metadata` and `inputSchema` name and describe it, `handler` runs it; `body` is the handler's. */
const metadataModule = (body: string): string => `import { readFile } from 'node:fs/promises';
import { z } from 'zod';
export const inputSchema = { path: z.string().describe('The file') };
export const metadata = {
  name: 'show_file',
  description: 'Show a file of the project',
};
export async function handler(args) {
  ${body}
}
`;

ruleTester.run('require-unbounded-self-reading-tool: a module that exports its metadata and its handler', rule, {
  valid: [
    // The handler hands back the file's size, not the file.
    metadataModule("const text = await readFile(args.path, 'utf8'); return { content: [{ type: 'text', text: String(text.length) }] };"),
    // A module that exports metadata but no handler is no tool (a page's metadata).
    `export const metadata = { name: 'home', description: 'The home page' }; export default function Page() { return null; }`,
  ],
  invalid: [
    // The handler hands the file back; the module has no object the server reads a classification from: no fix.
    {
      code: metadataModule("const text = await readFile(args.path, 'utf8'); return { content: [{ type: 'text', text }] };"),
      errors: [
        {
          messageId: 'missingUnbounded',
          data: { toolName: 'show_file', readCall: '`readFile`', resource: 'path', unbounded: 'Infinity' },
          suggestions: [],
        },
      ],
    },
  ],
});

// Principles from first-contact round 12 (issue 27).

/** An MCP server whose handlers are wrapped in a call (`track(async (args) => …)`); `text` is what comes back. */
const wrappedHandlerServer = (text: string): string => `import { readFile } from 'node:fs/promises';
import { z } from 'zod';
const track = (handler) => async (args) => handler(args);
server.registerTool('get', {
  description: 'Get a document',
  inputSchema: z.object({ file: z.string() }),
}, track(async ({ file }) => {
  const body = await readFile(file, 'utf8');
  return { content: [{ type: 'text', text: ${text} }] };
}));
`;

/** A skill class whose constructor hands its base the contract, run by \`process\`; \`body\` is what \`process\` does. */
const contractSkillClass = (body: string): string => `import { readFile } from 'node:fs/promises';
import { z } from 'zod';
export class ReadSkill extends SkillBase {
  constructor(options) {
    super({
      name: 'skill_read',
      description: 'Read a file',
      ...options,
      inputSchema: z.object({ path: z.string() }),
    });
  }
  async process(input) {
    ${body}
  }
}
`;

ruleTester.run('require-unbounded-self-reading-tool: first-contact round 12', rule, {
  valid: [
    // The wrapped handler hands back the document's length, not the document.
    wrappedHandlerServer('String(body.length)'),
    // The skill hands back the file's length.
    contractSkillClass("const text = await readFile(input.path, 'utf8'); return { length: text.length };"),
    // A class that hands its base a contract but has no method that runs a call is no tool.
    `export class Described extends Base { constructor() { super({ name: 'd', description: 'A thing', inputSchema: {} }); } }`,
  ],
  invalid: [
    // The handler a registration wraps (`track(…)`) is still the handler: it reads the model's file and returns it.
    ((code) =>
      invalid(code, [
        {
          toolName: 'get',
          readCall: '`readFile`',
          fix: [
            '  inputSchema: z.object({ file: z.string() }),\n}',
            "  inputSchema: z.object({ file: z.string() }),\n  _meta: { 'anthropic/maxResultSizeChars': Infinity },\n}",
          ],
        },
      ]))(wrappedHandlerServer('body')),
    // `super({ name, description, inputSchema })` and a `process` method: a skill the model calls by that name.
    invalid(contractSkillClass("return { content: await readFile(input.path, 'utf8') };"), [
      {
        toolName: 'skill_read',
        readCall: '`readFile`',
        fix: ['extends SkillBase {\n', 'extends SkillBase {\n  maxResultSizeChars = Infinity;\n'],
      },
    ]),
  ],
});

/**
 * A definition file of a `nameDispatch` fixture whose tool reads with `readFile`: its `_meta` gets the
 * classification after `schemaLine` (the definition's last line, `closing` the line that ends it).
 */
const joinedDefinitionCase = (folder: string, file: string, toolName: string, schemaLine: string, closing: string) =>
  invalid(
    nameDispatchText(folder, file),
    [
      {
        toolName,
        readCall: '`readFile`',
        fix: [
          `${schemaLine}\n${closing}`,
          `${schemaLine}\n${closing.startsWith('  ') ? '    ' : '  '}_meta: { 'anthropic/maxResultSizeChars': Infinity },\n${closing}`,
        ],
      },
    ],
    { filename: path.join(nameDispatch, folder, file) },
  );

const PATH_SCHEMA = "inputSchema: { type: 'object', properties: { path: { type: 'string' } } },";

ruleTester.run('require-unbounded-self-reading-tool: definitions joined to handler instances and to paired handlers', rule, {
  valid: [
    // The instance map's file and the pairing call's file define no tool.
    { code: nameDispatchText('instance-map', 'handlers.ts'), filename: path.join(nameDispatch, 'instance-map', 'handlers.ts') },
    { code: nameDispatchText('paired-handler', 'plugins.ts'), filename: path.join(nameDispatch, 'paired-handler', 'plugins.ts') },
    // Paired with a handler that counts the folder's entries: a tool, but it hands back no content.
    {
      code: nameDispatchText('paired-handler', 'count-docs.ts'),
      filename: path.join(nameDispatch, 'paired-handler', 'count-docs.ts'),
    },
  ],
  invalid: [
    // `{ [TOOL_NAMES.READ_DOC]: new ReadDocHandler() }`: the key is the constant's value, the handler the instance's `execute`.
    joinedDefinitionCase('instance-map', 'definitions.ts', 'read_doc', `    ${PATH_SCHEMA}`, '  },'),
    // `createToolPlugin(readDocTool, handleReadDoc)` pairs the definition with the function that runs it.
    joinedDefinitionCase('paired-handler', 'read-doc.ts', 'read_doc', `  ${PATH_SCHEMA}`, '};'),
  ],
});

ruleTester.run('require-unbounded-self-reading-tool: contracts of first-contact round 12', rule, {
  valid: [
    // A list of paths to delete: the tool hands nothing back.
    unknownFlowTool('remove_docs', 'Delete several documents.', "pattern: z.string().describe('Comma-separated list of file paths')"),
  ],
  invalid: [
    // A field whose description lists the file paths it takes, and a tool that retrieves what is there.
    unknownFlowCase(
      'multi_get',
      'Retrieve multiple documents by glob pattern.',
      "pattern: z.string().describe('Glob pattern or comma-separated list of file paths')",
    ),
    // A field that mentions the paths the tool may show is no destination: the grep still hands back lines.
    unknownFlowCase(
      'grep',
      'Search file contents with a regular expression.',
      "output_mode: z.string().describe('Output mode: content shows matching lines, files_with_matches shows file paths'), path: z.string()",
    ),
  ],
});

// Principles from first-contact round 13 (issue 27).

ruleTester.run('require-unbounded-self-reading-tool: contracts of first-contact round 13', rule, {
  valid: [
    // What it analyses at the URL is facts about the page (its metadata), not the page.
    unknownFlowTool('seo_check', 'Analyze the SEO metadata of a page.', "url: z.string().describe('URL to analyze')"),
    // A question with no location: nothing is read to answer it.
    unknownFlowTool('ask', 'Answer a question.', "question: z.string().describe('Question about the topic')"),
    // A summary of a task list the tool keeps: no location the model picks.
    unknownFlowTool('task_summary', 'Summarize the open tasks.', "status: z.string().describe('Status to filter by')"),
  ],
  invalid: [
    // The field says the tool analyses what is at the URLs: an analysis of a page is made of its content.
    unknownFlowCase('analyze-url', 'Use the URL context of the model.', "urls: z.array(z.string()).describe('URLs to analyze')"),
    // "First URL to compare": a comparison of two pages hands back what they say.
    unknownFlowCase('compare-urls', 'Use the URL context of the model.', "url1: z.string().describe('First URL to compare')"),
    // A question about what is at the URL: the answer is drawn from the video.
    unknownFlowCase(
      'video-qa',
      'Use the video understanding of the model.',
      "url: z.string().describe('Video URL'), question: z.string().describe('Question about the video')",
    ),
    // `youtube_summary` of a URL: a summary of what is there.
    unknownFlowCase('youtube_summary', 'Use the model.', "url: z.string().describe('YouTube video URL')"),
    // "Analyze and describe one or more images": a description of the image at the model's path.
    unknownFlowCase('look', 'Analyze and describe one or more images.', "image: z.string().describe('Image path')"),
  ],
});

/** An MCP server with a docs tool whose folder a bundle builds from `__dirname` through a helper's result; `file` is read. */
const shippedDocsServer = (file: string): string => `import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
var packageRoot = path.resolve(__dirname, '..');
function getPaths() {
  return { docsPath: path.join(packageRoot, 'docs') };
}
server.registerTool('get_doc', {
  description: 'Get the full content of a documentation file.',
  inputSchema: { filepath: z.string().describe('The relative path to the documentation file') },
}, async ({ filepath }) => {
  const paths = getPaths();
  const docsPath = paths.docsPath;
  const fullPath = ${file};
  if (!fs.existsSync(fullPath)) return { content: [{ type: 'text', text: 'not found' }] };
  return { content: [{ type: 'text', text: fs.readFileSync(fullPath, 'utf-8') }] };
});
`;

/** A tool that reads a job of its own store by the model's `${key}`, through a helper that builds the file's path. */
const jobStoreServer = (key: string): string => `import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
function jobsDir() { return path.join(process.env.HOME, '.jobs'); }
function jobFile(${key}) { return path.join(jobsDir(), \`\${${key}}.json\`); }
function readJob(${key}) { return fs.readFileSync(jobFile(${key}), 'utf-8'); }
server.registerTool('get_job', {
  description: 'Get a job.',
  inputSchema: { ${key}: z.string() },
}, async (args) => ({ content: [{ type: 'text', text: readJob(args.${key}) }] }));
`;

/** A tool that hands each of the model's paths to a function of the module (`paths.map(loadOne)`); `loaded` is what comes back. */
const mappedReadServer = (loaded: string): string => `import { readFile } from 'node:fs/promises';
import { z } from 'zod';
async function loadOne(file) {
  const text = await readFile(file, 'utf8');
  return ${loaded};
}
server.registerTool('load', {
  description: 'Load files',
  inputSchema: { paths: z.array(z.string()) },
}, async ({ paths }) => {
  const loaded = await Promise.all(paths.map(loadOne));
  return { content: [{ type: 'text', text: loaded.join('\\n') }] };
});
`;

/** A tool registered through a helper of another package: `registerAppTool(server, name, config, handler)`; `text` comes back. */
const foreignHelperServer = (text: string): string => `import { readFile } from 'node:fs/promises';
import { registerAppTool } from '@modelcontextprotocol/ext-apps/server';
import { z } from 'zod';
export function register(ctx) {
  registerAppTool(ctx.server, 'read_doc', {
    description: 'Read a document',
    inputSchema: { path: z.string() },
  }, async ({ path }) => {
    const body = await readFile(path, 'utf8');
    return { content: [{ type: 'text', text: ${text} }] };
  });
}
`;

/** A registration whose handler a wrapper is handed by name (`wrapHandler(schema, handleRead, service)`); `text` comes back. */
const namedHandlerServer = (text: string): string => `import { readFile } from 'node:fs/promises';
import { z } from 'zod';
const ReadSchema = z.object({ path: z.string() });
function wrapHandler(schema, handler, service) {
  return async (args) => handler(schema.parse(args), service);
}
async function handleRead(args) {
  const body = await readFile(args.path, 'utf8');
  return { content: [{ type: 'text', text: ${text} }] };
}
export function createServer(service) {
  const server = new McpServer({ name: 'docs', version: '1.0.0' });
  server.tool('read', 'Read a file', ReadSchema.shape, wrapHandler(ReadSchema, handleRead, service));
  return server;
}
`;

/** A tool that reads the model's images in a helper and hands the bytes to a service; `description` is its contract. */
const serviceImageServer = (name: string, description: string): string => `import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { imageInput } from './schemas.js';
async function loadImage(image) {
  const buffer = await readFile(image.filePath);
  return { data: buffer.toString('base64') };
}
export function register(ctx) {
  ctx.server.registerTool('${name}', {
    description: '${description}',
    inputSchema: { images: z.array(imageInput) },
  }, async ({ images }) => {
    const loaded = await Promise.all(images.map(loadImage));
    const text = await ctx.vision.run({ images: loaded });
    return { content: [{ type: 'text', text }] };
  });
}
`;

const META_FIX = (line: string): [string, string] => [
  line,
  line.replace(/\n$/, '') + "\n  _meta: { 'anthropic/maxResultSizeChars': Infinity },\n",
];

ruleTester.run('require-unbounded-self-reading-tool: locations of first-contact round 13', rule, {
  valid: [
    // The model names a file in the package's own docs folder, found through a helper's result and a bundle's `var`.
    shippedDocsServer('path.join(docsPath, filepath)'),
    // `${jobId}.json` in the tool's own folder: the model names an entry of its store, not a location.
    jobStoreServer('jobId'),
    // Each path is read, but only its length comes back.
    mappedReadServer('text.length'),
    // The input only goes to `fs.existsSync`: facts about the path, which the analysis knows; nothing comes back.
    `import fs from 'node:fs';
import { z } from 'zod';
server.registerTool('read_file', { description: 'Read a file', inputSchema: { path: z.string() } }, async ({ path }) => ({
  content: [{ type: 'text', text: String(fs.existsSync(path)) }],
}));
`,
    // A foreign helper's tool that hands back the document's length.
    foreignHelperServer('String(body.length)'),
    // The named handler hands back a length.
    namedHandlerServer('String(body.length)'),
    // The service makes a new image from the model's: what the contract says is no reading.
    serviceImageServer('generate_image', 'Generate a new image from reference images.'),
  ],
  invalid: [
    // A file the model names by any name (`${name}.json`) is its choice of location.
    invalid(jobStoreServer('name'), [
      { toolName: 'get_job', readCall: '`readJob` (→ fs.readFileSync)', fix: META_FIX('  inputSchema: { name: z.string() },\n') },
    ]),
    // Each of the model's paths goes to `loadOne`, whose text comes back.
    invalid(mappedReadServer('text'), [
      { toolName: 'load', readCall: '`paths.map` (→ readFile)', fix: META_FIX('  inputSchema: { paths: z.array(z.string()) },\n') },
    ]),
    // The helper is another package's, but the call hands over the whole contract and the handler.
    // (Another package's helper may not pass `_meta` on: no fix is offered, the message says what to declare.)
    unfixedRead(foreignHelperServer('body'), 'read_doc'),
    // `wrapHandler(ReadSchema, handleRead, service)`: `handleRead` runs, and hands back the file.
    ((code) => ({
      code,
      errors: [
        {
          messageId: 'missingUnbounded' as const,
          data: { toolName: 'read', readCall: '`readFile`', resource: 'path', unbounded: 'UNBOUNDED' },
          suggestions: [
            {
              messageId: 'setUnbounded' as const,
              output: replacedOnce(
                replacedOnce(
                  code,
                  "import { z } from 'zod';\n",
                  "import { z } from 'zod';\nimport { classifyTool, UNBOUNDED } from 'tool-result-guard';\n",
                ),
                "  server.tool('read', 'Read a file', ReadSchema.shape, wrapHandler(ReadSchema, handleRead, service));",
                "  classifyTool(server.tool('read', 'Read a file', ReadSchema.shape, wrapHandler(ReadSchema, handleRead, service)), { name: 'read', reads: 'path', maxResultSizeChars: UNBOUNDED });",
              ),
            },
          ],
        },
      ],
    }))(namedHandlerServer('body')),
    // The flow found the model's image read (each image handed to `loadImage`); the tool's description says it
    // hands back what it makes of the images, and that decides the service call the analysis cannot follow.
    ((code) =>
      contractCase(
        code,
        replacedOnce(
          code,
          '    inputSchema: { images: z.array(imageInput) },\n',
          "    inputSchema: { images: z.array(imageInput) },\n    _meta: { 'anthropic/maxResultSizeChars': Infinity },\n",
        ),
      ))(serviceImageServer('describe_image', 'Analyze and describe one or more images.')),
  ],
});

/** A Selenium tool class that navigates its driver to the model's URL; `answer` is what it hands back. */
const seleniumNavigateTool = (answer: string): string => `export class NavigateTool extends BaseTool {
  name = 'navigate_to';
  description = 'Navigate the browser to a URL.';
  async execute(context, params) {
    const driver = await context.ensureBrowser();
    await driver.get(params.url);
    ${answer}
  }
}
`;

ruleTester.run('require-unbounded-self-reading-tool: a Selenium driver navigated to the model URL', rule, {
  valid: [
    // Only a status comes back.
    seleniumNavigateTool("return 'Navigated to ' + params.url;"),
  ],
  invalid: [
    // `driver.get(url)` loads the page; its source, taken afterwards, is what was read.
    invalid(seleniumNavigateTool('return await driver.getPageSource();'), [
      {
        toolName: 'navigate_to',
        readCall: '`driver.get`',
        resource: 'URL',
        fix: ['extends BaseTool {\n', 'extends BaseTool {\n  maxResultSizeChars = Infinity;\n'],
      },
    ]),
  ],
});

// Principles from first-contact round 14 (issue 27).

/** A tool that asks the package's own server, on a port it found itself, for `path`; the host is `host`. */
const ownServerTool = (host: string): string => `import { z } from 'zod';
server.registerTool('get_review', { description: 'Get the review of a file', inputSchema: { path: z.string() } }, async ({ path }) => {
  const info = await readServerInfo();
  const response = await fetch(\`http://${host}:\${info.port}/api/reviews?path=\${encodeURIComponent(path)}\`);
  return { content: [{ type: 'text', text: await response.text() }] };
});
`;

/** LangChain's `tool(fn, config)` through the package's own wrapper (`createFsTool`); `answer` is what the function returns. */
const toolWrapperCall = (answer: string): string => `import { tool } from '@langchain/core/tools';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
function createFsTool(fn, config, kind) {
  const made = tool(fn, config);
  made.kind = kind;
  return made;
}
export const tools = [
  createFsTool(async (args) => {
    const text = await readFile(args.path, 'utf8');
    return ${answer};
  }, {
    name: 'read_file',
    description: 'Read a file',
    schema: z.object({ path: z.string() }),
  }, 'read'),
];
`;

ruleTester.run('require-unbounded-self-reading-tool: first-contact round 14', rule, {
  valid: [
    // The host is written in code, only the port is filled in: a service on that host, not a page the model picks.
    ownServerTool('localhost'),
    // The wrapper's tool hands back a length.
    toolWrapperCall('String(text.length)'),
  ],
  invalid: [
    // A model-chosen host: the model picks where the request goes.
    invalid(ownServerTool('${path}'), [
      {
        toolName: 'get_review',
        readCall: '`fetch`',
        resource: 'URL',
        fix: [
          'inputSchema: { path: z.string() } }',
          "inputSchema: { path: z.string() }, _meta: { 'anthropic/maxResultSizeChars': Infinity } }",
        ],
      },
    ]),
    // `createFsTool(fn, { name, description, schema }, 'read')` makes the tool; the function reads and returns the file.
    invalid(toolWrapperCall('text'), [
      {
        toolName: 'read_file',
        readCall: '`readFile`',
        fix: [
          '    schema: z.object({ path: z.string() }),\n',
          '    schema: z.object({ path: z.string() }),\n    maxResultSizeChars: Infinity,\n',
        ],
      },
    ]),
  ],
});

/** LangChain's `tool(toolImpl, toolDefinition)`, both kept in constants of the module; `answer` is what the fetch hands back. */
const constantConfigTool = (answer: string): string => `import { tool } from '@langchain/core/tools';
import { z } from 'zod';
const toolDefinition = {
  name: 'web_fetch',
  description: 'Fetch content from a web URL',
  schema: z.string(),
};
async function fetchImpl(url) {
  const response = await fetch(url);
  return ${answer};
}
const toolImpl = async (url) => fetchImpl(url);
export function get() {
  return tool(toolImpl, toolDefinition);
}
`;

/**
 * A definition constant run through a map of entries that each carry their handler (`{ validate, execute }`),
 * the handler taking the server first and the model's arguments second; `answer` is what it returns.
 */
const entryMapTool = (answer: string): string => `import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
const READ_URL_TOOL = {
  name: 'web_url_read',
  description: 'Fetch a URL and return it as markdown',
  inputSchema: { type: 'object', properties: { url: { type: 'string' } } },
};
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [READ_URL_TOOL] }));
async function executeUrlRead(mcpServer, args) {
  const response = await fetch(args.url);
  return { content: [{ type: 'text', text: ${answer} }] };
}
const TOOL_DEFINITIONS = {
  web_url_read: { validate: (args) => typeof args.url === 'string', execute: executeUrlRead },
};
export async function executeTool(mcpServer, name, args) {
  const definition = TOOL_DEFINITIONS[name];
  return definition.execute(mcpServer, args);
}
`;

/** An article reader on an API whose address a bundle keeps in a module `var`; `origin` is what the helper builds its URL from. */
const bundledApiTool = (origin: string): string => `import { z } from 'zod';
var API_URL = "https://en.wikipedia.org/w/api.php";
async function fetchFromApi(params) {
  const url = new URL(${origin});
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  const response = await fetch(url);
  return response.json();
}
server.registerTool('read_article', { description: 'Read an article as markdown', inputSchema: { page: z.string() } }, async ({ page }) => {
  const data = await fetchFromApi({ action: 'parse', page });
  return { content: [{ type: 'text', text: data.parse.text }] };
});
`;

/** A wait on the package's own server, the URL built on a base whose host is `host`. */
const reviewWaitTool = (host: string): string => `import { z } from 'zod';
async function waitForDecision(info, id) {
  const base = \`http://${host}:\${info.port}/api/reviews/\${id}\`;
  const response = await fetch(\`\${base}/result\`);
  return response.text();
}
server.registerTool('get_review_result', { description: 'Get the result of a review', inputSchema: { id: z.string() } }, async ({ id }) => {
  const info = await readServerInfo();
  return { content: [{ type: 'text', text: await waitForDecision(info, id) }] };
});
`;

/** A tool whose work runs in a callback handed to the module's own `withSession`; `body` is the callback's. */
const sessionCallbackTool = (body: string): string => `import { readFile } from 'node:fs/promises';
import { z } from 'zod';
async function resolveTarget(info, params) {
  return { sessionId: params.session_id };
}
async function withSession(params, run) {
  const info = await readServerInfo();
  const target = await resolveTarget(info, params);
  return run({ info, sessionId: target.sessionId });
}
server.registerTool(
  'read_file_diff',
  { description: 'Read the diff of a file in an open review', inputSchema: { file: z.string(), session_id: z.string() } },
  async ({ file, session_id }) => withSession({ session_id }, async ({ info, sessionId }) => {
    ${body}
  }),
);
`;

ruleTester.run('require-unbounded-self-reading-tool: first-contact round 14, finished', rule, {
  valid: [
    // The function hands back a status, not the page.
    constantConfigTool("'done'"),
    // The entry's handler hands back a status.
    entryMapTool('String(response.status)'),
    // The address is the bundle's constant: the model's page only fills a query parameter of that API.
    bundledApiTool('API_URL'),
    // The base has a host written in code: `${base}/result` asks the package's own server.
    reviewWaitTool('localhost'),
    // The callback asks the package's own server and keeps only its answer: running it is no escape.
    sessionCallbackTool(
      'const response = await fetch(`http://localhost:${info.port}/api/reviews/${sessionId}`); const data = await response.json(); return { content: [{ type: "text", text: JSON.stringify(data.files.find((f) => f.path === file)) }] };',
    ),
  ],
  invalid: [
    // `tool(toolImpl, toolDefinition)`: the tool is the constant's object, the function reads the model's URL and returns it.
    invalid(constantConfigTool('response.text()'), [
      {
        toolName: 'web_fetch',
        readCall: '`fetchImpl` (→ fetch)',
        resource: 'URL',
        fix: ['  schema: z.string(),\n', '  schema: z.string(),\n  maxResultSizeChars: Infinity,\n'],
      },
    ]),
    // The map's entry runs `executeUrlRead`, whose second parameter holds the model's arguments.
    invalid(entryMapTool('await response.text()'), [
      {
        toolName: 'web_url_read',
        readCall: '`fetch`',
        resource: 'URL',
        fix: [
          "inputSchema: { type: 'object', properties: { url: { type: 'string' } } },\n",
          "inputSchema: { type: 'object', properties: { url: { type: 'string' } } },\n  _meta: { 'anthropic/maxResultSizeChars': Infinity },\n",
        ],
      },
    ]),
    // The model's page is the address itself.
    invalid(bundledApiTool('params.page'), [
      {
        toolName: 'read_article',
        readCall: '`fetchFromApi` (→ fetch)',
        resource: 'URL',
        fix: [
          'inputSchema: { page: z.string() } }',
          "inputSchema: { page: z.string() }, _meta: { 'anthropic/maxResultSizeChars': Infinity } }",
        ],
      },
    ]),
    // The model's id is the host.
    invalid(reviewWaitTool('${id}'), [
      {
        toolName: 'get_review_result',
        readCall: '`waitForDecision` (→ fetch)',
        resource: 'URL',
        fix: [
          'inputSchema: { id: z.string() } }',
          "inputSchema: { id: z.string() }, _meta: { 'anthropic/maxResultSizeChars': Infinity } }",
        ],
      },
    ]),
    // The callback reads the model's file and returns it: followed as part of the handler.
    invalid(sessionCallbackTool('return { content: [{ type: "text", text: await readFile(file, "utf8") }] };'), [
      {
        toolName: 'read_file_diff',
        readCall: '`readFile`',
        fix: [
          'inputSchema: { file: z.string(), session_id: z.string() } }',
          "inputSchema: { file: z.string(), session_id: z.string() }, _meta: { 'anthropic/maxResultSizeChars': Infinity } }",
        ],
      },
    ]),
  ],
});

// Principles from first-contact round 15 (issue 27).

/** A tool class whose static `get_definition()` states the contract; `answer` is what `execute` returns. */
const declaredClassTool = (answer: string): string => `import { readFile } from 'node:fs/promises';
export class ReadNoteImpl {
  async execute({ path }) {
    const text = await readFile(path, 'utf8');
    return ${answer};
  }
  static get_definition() {
    return {
      name: 'read_note',
      description: 'Read a note',
      parameters: [{ name: 'path', description: 'The note file', type: 'string', required: true }],
    };
  }
}
`;

/**
 * A low-level server whose tool names come from a config picked by the client (the default otherwise), reading
 * through a bundled axios (`axios_default`) from the API's endpoint `endpoint`, the model's URL in its query.
 */
const bundledProxyTool = (endpoint: string): string => `var axios_default = axios;
const DEFAULT_CONFIG = { readToolName: 'read_url' };
const OPENAI_CONFIG = { readToolName: 'fetch' };
export function createServer(client) {
  const toolConfig = client === 'openai-mcp' ? OPENAI_CONFIG : DEFAULT_CONFIG;
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    if (request.params.name === toolConfig.readToolName) {
      const target = request.params.arguments.url;
      const response = await axios_default.get(getBaseUrl() + '${endpoint}' + encodeURIComponent(target));
      return { content: [{ type: 'text', text: response.data.content }] };
    }
  });
}
`;

/** A wait on the package's own server, the URL picked by a condition; `withSession` is the branch taken when a session is given. */
const eventStreamTool = (withSession: string): string => `import { z } from 'zod';
const BASE_URL = 'http://localhost:4747';
server.registerTool('watch_events', { description: 'Watch the events of a session', inputSchema: { sessionId: z.string().optional() } }, async ({ sessionId }) => {
  const url = sessionId ? \`${withSession}\` : \`\${BASE_URL}/events\`;
  const response = await fetch(url);
  return { content: [{ type: 'text', text: await response.text() }] };
});
`;

ruleTester.run('require-unbounded-self-reading-tool: first-contact round 15', rule, {
  valid: [
    // Both branches start with the server's own address: the session id only fills a path.
    eventStreamTool('${BASE_URL}/sessions/${sessionId}/events'),
    // The class hands back a status.
    declaredClassTool('{ result: true }'),
    // A search endpoint of the API: its answer is the API's, the model's text only fills its query.
    bundledProxyTool('/search?q='),
  ],
  invalid: [
    // `static get_definition() { return { name, description, parameters } }` and `execute`: a tool whatever the class's name.
    invalid(declaredClassTool('{ result: true, text }'), [
      {
        toolName: 'read_note',
        readCall: '`readFile`',
        fix: ['export class ReadNoteImpl {\n', 'export class ReadNoteImpl {\n  maxResultSizeChars = Infinity;\n'],
      },
    ]),
    // One branch lets the model's text pick the host.
    invalid(eventStreamTool('https://${sessionId}/events'), [
      {
        toolName: 'watch_events',
        readCall: '`fetch`',
        resource: 'URL',
        fix: [
          'inputSchema: { sessionId: z.string().optional() } }',
          "inputSchema: { sessionId: z.string().optional() }, _meta: { 'anthropic/maxResultSizeChars': Infinity } }",
        ],
      },
    ]),
    // `…/read?url=` + the model's URL: a reader proxy, which answers with the page, through esbuild's name for axios.
    {
      code: bundledProxyTool('/read?url='),
      errors: [
        {
          messageId: 'missingUnbounded',
          data: {
            toolName: 'read_url',
            readCall: '`axios_default.get`',
            resource: 'URL',
            declared: 'without a value',
            unbounded: 'Infinity',
          },
        },
      ],
    },
    // `toolWithCallback(readNoteTool, async (params) => …)`: the definition constant paired with the callback written in the call
    // (the file's other pairing, `count_notes`, hands back a number and is not reported).
    joinedDefinitionCase('inline-callback', 'notes.ts', 'read_note', `  ${PATH_SCHEMA}`, '};'),
  ],
});

// Principles from first-contact round 16 (issue 27).

/** A definition of the handed-map fixture reported in `file`, its `_meta` added after its schema. */
const handedMapCase = (file: string, toolName: string, description: string) => {
  const definition = `{ name: '${toolName}', description: '${description}', inputSchema: { type: 'object', properties: { path: { type: 'string' } } }`;
  return invalid(
    nameDispatchText('handed-map', file),
    [
      {
        toolName,
        readCall: '`readFile`',
        fix: [`${definition} }`, `${definition}, _meta: { 'anthropic/maxResultSizeChars': Infinity } }`],
      },
    ],
    { filename: path.join(nameDispatch, 'handed-map', file) },
  );
};

/**
 * A tool over the browser a helper keeps in a module variable (`getBrowser()`), whose class method `method`
 * loads the model's URL into the page the instance holds.
 */
const keptBrowserTool = (method: string): string => `import { chromium } from 'playwright';
class HotelBrowser {
  async init() { this.page = await (await chromium.launch()).newPage(); }
  async getHotel(url) { await this.page.goto(url); return this.page.evaluate(() => document.body.innerText); }
  async hasLinks(url) { await this.page.goto(url); const links = await this.page.evaluate(() => document.links.length); return links > 0 ? 'yes' : 'no'; }
}
let browser = null;
async function getBrowser() {
  if (!browser) { browser = new HotelBrowser(); await browser.init(); }
  return browser;
}
server.registerTool('hotel', { description: 'A hotel', inputSchema: { url: z.string() } }, async ({ url }) => {
  const b = await getBrowser();
  return { content: [{ type: 'text', text: await b.${method}(url) }] };
});
`;

/** A low-level server whose two cases each declare their own \`url\`; \`topUp\` is the second one's. */
const twoUrlsServer = (topUp: string): string => `const API_URL = process.env.PAY_API_URL || 'https://api.pay.example';
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const args = request.params.arguments;
  switch (request.params.name) {
    case 'fetch_page': {
      const url = args.url;
      return { content: [{ type: 'text', text: await (await fetch(url)).text() }] };
    }
    case 'top_up': {
      const url = ${topUp};
      return { content: [{ type: 'text', text: await (await fetch(url)).text() }] };
    }
  }
});
`;

/** A document store's getter whose one input `field` is described as `described`; the store is a package the analysis cannot see. */
const storeGetTool = (field: string, described: string): string => `import { store } from 'document-store';
server.registerTool('get_document', { description: 'Get a document from a collection', inputSchema: { collection: z.string().describe('Collection name'), ${field}: z.string().describe('${described}') } }, async (args) => {
  const doc = await store.collection(args.collection).doc(args.${field}).get();
  return { content: [{ type: 'text', text: JSON.stringify(doc) }] };
});
`;

ruleTester.run('require-unbounded-self-reading-tool: first-contact round 16', rule, {
  valid: [
    // "Document ID" names an entry of the store, as an id does: no location, whatever the store does with it.
    storeGetTool('id', 'Document ID'),
    storeGetTool('ref', 'The file ID'),
    // The page's answer only decides which constant comes back.
    keptBrowserTool('hasLinks'),
    // The registry's file and the module of handlers define no tool of their own.
    { code: nameDispatchText('handed-map', 'registry.ts'), filename: path.join(nameDispatch, 'handed-map', 'registry.ts') },
  ],
  invalid: [
    // `registerModule({ tools: noteTools, handlers: noteToolHandlers })` beside `module.handlers[tool.name]`: the map handed
    // under the looked-up key is the dispatcher. `note_size` hands back a length; `read_draft`'s map is handed under a key
    // nobody looks up: neither is reported.
    handedMapCase('tools.ts', 'read_note', 'Reads a note'),
    // `registry.registerTool({ name, description, inputSchema }, handler)`: the definition and the function that runs it
    // (`doc_size` hands back a length).
    handedMapCase('server.ts', 'read_doc', 'Returns the contents of a doc'),
    // \`const b = await getBrowser()\`: the helper hands back the module's \`browser\`, only ever a \`new HotelBrowser()\`,
    // so \`b.getHotel(url)\` is that class's method; \`this.page.goto(url)\` loads the URL into the page the instance holds,
    // and what \`this.page.evaluate\` answers is that page's text.
    invalid(keptBrowserTool('getHotel'), [
      {
        toolName: 'hotel',
        readCall: '`b.getHotel` (→ this.page.goto)',
        resource: 'URL',
        fix: [
          'inputSchema: { url: z.string() } }',
          "inputSchema: { url: z.string() }, _meta: { 'anthropic/maxResultSizeChars': Infinity } }",
        ],
      },
    ]),
    // "The document to read" names the document itself: the contract says the tool hands back what is there.
    ((code) =>
      contractCase(
        code,
        replacedOnce(
          code,
          "doc: z.string().describe('The document to read') }",
          "doc: z.string().describe('The document to read') }, _meta: { 'anthropic/maxResultSizeChars': Infinity }",
        ),
      ))(storeGetTool('doc', 'The document to read')),
    // An id that may be the file's name too names the file.
    ((code) =>
      contractCase(
        code,
        replacedOnce(
          code,
          "ref: z.string().describe('The file ID or the exact filename') }",
          "ref: z.string().describe('The file ID or the exact filename') }, _meta: { 'anthropic/maxResultSizeChars': Infinity }",
        ),
      ))(storeGetTool('ref', 'The file ID or the exact filename')),
    // Each case's \`url\` is its own: the top-up's is the payment API's, so only \`fetch_page\` reads a model-chosen URL.
    {
      code: twoUrlsServer('`${API_URL}/pay/${args.amount}`'),
      errors: [
        {
          messageId: 'missingUnbounded',
          data: { toolName: 'fetch_page', readCall: '`fetch`', resource: 'URL', declared: 'without a value', unbounded: 'Infinity' },
        },
      ],
    },
    // The same server whose top-up sends the model's URL: both read.
    {
      code: twoUrlsServer('args.url'),
      errors: [
        {
          messageId: 'missingUnbounded',
          data: { toolName: 'fetch_page', readCall: '`fetch`', resource: 'URL', declared: 'without a value', unbounded: 'Infinity' },
        },
        {
          messageId: 'missingUnbounded',
          data: { toolName: 'top_up', readCall: '`fetch`', resource: 'URL', declared: 'without a value', unbounded: 'Infinity' },
        },
      ],
    },
  ],
});

// Principles from first-contact round 17 (issue 27).

/** The delegated fixture's file `file`. */
const delegatedFile = (file: string) => ({
  code: nameDispatchText('delegated', file),
  filename: path.join(nameDispatch, 'delegated', file),
});

/**
 * A low-level server whose handler hands the name and arguments it destructured to `callTool`; `test` picks the reading
 * branch, `listed` is the name its tool list declares.
 */
const destructuredDelegateServer = (test: string, handOn: string, listed = 'cat'): string =>
  lowLevelServer(
    `{ name: '${listed}', inputSchema: {} }`,
    `async function callTool(name, args) {
  if (${test}) { return { content: [{ type: 'text', text: await readFile(args.path, 'utf8') }] }; }
  return undefined;
}
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name, arguments: args } = request.params;
  return ${handOn};
});`,
  );

/** A web driver's navigation tool; `answer` is what it hands back. */
const driverNavigateTool = (answer: string): string => `import { driverManager } from './driver.js';
server.registerTool('navigate', { description: 'Go to a URL', inputSchema: { url: z.string() } }, async ({ url }) => {
  const driver = driverManager.getOrThrow();
  await driver.get(url);
  return { content: [{ type: 'text', text: ${answer} }] };
});
`;

/** An SDK module that exports a provider's definition and the function that runs it; `definition` is the first. */
const definitionModule = (definition: string): string => `import { readFile } from 'node:fs/promises';
var readTool = ${definition};
async function execute(input) {
  return readFile(input.path, 'utf8');
}
export { readTool, execute };
`;

/** A factory that gives a definition its invocation with \`Object.assign\`; \`assigned\` is what it assigns. */
const assignedDefinitionFactory = (assigned: string): string => `import { readFile } from 'node:fs/promises';
export function createReadTool(config) {
  const toolDefinition = {
    type: 'function',
    function: { name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
  };
  return Object.assign(toolDefinition, ${assigned});
}
`;

/** A search tool whose own model picks the files to read; \`pick\` is how the path comes from the query. */
const innerModelSearchTool = (pick: string): string => `import { readFile } from 'node:fs/promises';
import OpenAI from 'openai';
const client = new OpenAI();
export const searchTool = tool({
  description: 'Search the codebase',
  inputSchema: z.object({ query: z.string() }),
  execute: async ({ query }) => {
    ${pick}
    return readFile(path, 'utf8');
  },
});
`;

/** A fetch tool whose schema a function of another module returns (\`schemas.ts\` of the delegated fixture); \`description\` is its own. */
const schemaFunctionTool = (
  variable: string,
  description: string,
  schema = 'fetchInputSchema',
): string => `import { ${schema} } from './schemas.js';
import { fetchPage } from './pages.js';
export const ${variable} = tool({
  description: '${description}',
  inputSchema: ${schema}(),
  execute: async (input) => fetchPage(input),
});
`;

/** A scrape tool whose schema is a constant's rest (\`omitted\` are the keys named beside it) sent to a scraping API. */
const restSchemaServer = (omitted: string): string => `const crawlParams = {
  url: z.string().describe('The page to start from'),
  depth: z.number().optional(),
};
const { ${omitted}, ...scrapeBase } = crawlParams;
const scrapeParams = { ...scrapeBase, screenshot: z.boolean().optional() };
server.tool('spider_scrape', 'Scrape a single page and extract its content', scrapeParams, async (params) => {
  const data = await apiRequest('POST', '/scrape', params);
  return { content: [{ type: 'text', text: data }] };
});
`;

const anthropicReadDefinition =
  "{ name: 'read_file', description: 'Read a file', input_schema: { type: 'object', properties: { path: { type: 'string' } } } }";

ruleTester.run('require-unbounded-self-reading-tool: first-contact round 17', rule, {
  valid: [
    // Handed a constant, not the requested name: `callTool` dispatches nothing.
    destructuredDelegateServer("name === 'cat'", "callTool('cat', args)", 'status'),
    // A switch on a parameter of an exported function the handler calls with a constant is no tool.
    delegatedFile('formats.ts'),
    // The definitions the server lists: the tools are the cases that run them.
    delegatedFile('definitions.ts'),
    delegatedFile('server.ts'),
    // A navigated page's title and address say where it went, not what is there.
    driverNavigateTool('`${await driver.getTitle()} at ${await driver.getCurrentUrl()}`'),
    // A definition that states no input schema is no tool's whole contract; a definition assigned no invocation is no tool.
    definitionModule("{ name: 'read_file', description: 'Read a file' }"),
    assignedDefinitionFactory("{ label: 'Read', formatResult: (result) => String(result) }"),
    // The path is what the tool's own model answered when asked with the query: that model chose it, not the caller.
    innerModelSearchTool(
      "const data = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: query }] }); const path = JSON.parse(data.choices[0].message.content).path;",
    ),
    // The rest leaves the URL out: no input is a location.
    restSchemaServer('url: _url, depth: _depth'),
    // The schema a function of another module returns names a URL, but nothing says the tool hands back what is there.
    {
      code: schemaFunctionTool('pageCheck', 'Check that a page is up', 'pingInputSchema'),
      filename: path.join(nameDispatch, 'delegated', 'web-fetch.ts'),
    },
  ],
  invalid: [
    // `const { name, arguments: args } = request.params; return callTool(name, args)`: the locals are the request's name and
    // arguments, so `callTool` is the dispatcher; a branch answering to two names is named by the first.
    ...["name === 'cat' || name === 'fs.cat'", "name === 'cat'"].map((test) =>
      invalid(destructuredDelegateServer(test, 'callTool(name, args)'), [
        {
          toolName: 'cat',
          readCall: '`readFile`',
          fix: ['inputSchema: {} }', "inputSchema: {}, _meta: { 'anthropic/maxResultSizeChars': Infinity } }"],
        },
      ]),
    ),
    // The handler hands the name and arguments to a method, the method to another module's `executeTool`: its cases are the
    // tools. `file-size` hands back a length. Their definitions are in a third module, so no fix can place a classification.
    {
      ...delegatedFile('tools.ts'),
      errors: [
        {
          messageId: 'missingUnbounded',
          data: { toolName: 'read-file', readCall: '`readFile`', resource: 'path', declared: 'without a value', unbounded: 'Infinity' },
        },
      ],
    },
    // The page's text is what is there.
    ((code) =>
      invalid(code, [
        {
          toolName: 'navigate',
          readCall: '`driver.get`',
          resource: 'URL',
          fix: [
            'inputSchema: { url: z.string() } }',
            "inputSchema: { url: z.string() }, _meta: { 'anthropic/maxResultSizeChars': Infinity } }",
          ],
        },
      ]))(driverNavigateTool('await driver.getPageSource()')),
    // `var readTool = { name, description, input_schema }` exported beside \`execute\`: what an SDK hands its users to pass to
    // their model and run on its calls. No member of the definition reaches a server, so no fix.
    ...[
      anthropicReadDefinition,
      "{ type: 'function', function: { name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } } }",
    ].map((definition) => ({
      code: definitionModule(definition),
      filename: path.join(nameDispatch, 'delegated', 'read-tool.ts'),
      errors: [
        {
          messageId: 'missingUnbounded' as const,
          data: { toolName: 'read_file', readCall: '`readFile`', resource: 'path', declared: 'without a value', unbounded: 'Infinity' },
          suggestions: [],
        },
      ],
    })),
    // `return Object.assign(toolDefinition, { execute })`: the definition is given the function that runs it.
    ((code) =>
      invalid(code, [
        {
          toolName: 'read_file',
          readCall: '`readFile`',
          fix: [
            "parameters: { type: 'object', properties: { path: { type: 'string' } } } },\n  };",
            "parameters: { type: 'object', properties: { path: { type: 'string' } } } },\n    maxResultSizeChars: Infinity,\n  };",
          ],
        },
      ]))(assignedDefinitionFactory("{ execute: async (input) => readFile(input.path, 'utf8') }")),
    // Asked of a query the model wrote, without another model between: the path still comes from the caller.
    ((code) =>
      invalid(code, [
        {
          toolName: 'searchTool',
          readCall: '`readFile`',
          fix: [
            "    return readFile(path, 'utf8');\n  },\n",
            "    return readFile(path, 'utf8');\n  },\n  maxResultSizeChars: Infinity,\n",
          ],
        },
      ]))(innerModelSearchTool('const path = query.trim();')),
    // `inputSchema: fetchInputSchema()`: the schema the function of \`schemas.ts\` returns has a \`url\`, and the description
    // says the tool returns the page: the unknown call of \`fetchPage\` is decided by that contract.
    ((code) => ({
      ...contractCase(
        code,
        code.replace(
          'execute: async (input) => fetchPage(input),\n',
          'execute: async (input) => fetchPage(input),\n  maxResultSizeChars: Infinity,\n',
        ),
      ),
      filename: path.join(nameDispatch, 'delegated', 'web-fetch.ts'),
    }))(schemaFunctionTool('pageReader', 'Fetch a page and return its content as Markdown')),
    // \`const { depth, ...scrapeBase } = crawlParams\`: the rest keeps \`url\`, so the scraper's contract names a location.
    // The server's raw-shape registration takes no \`_meta\`: the fix classifies the registered tool.
    ((code) =>
      contractCase(
        code,
        `import { classifyTool, UNBOUNDED } from 'tool-result-guard';\n\n${code
          .replace("server.tool('spider_scrape'", "classifyTool(server.tool('spider_scrape'")
          .replace(/\n}\);\n$/, "\n}), { name: 'spider_scrape', reads: 'url', maxResultSizeChars: UNBOUNDED });\n")}`,
      ))(restSchemaServer('depth: _depth')),
  ],
});

// Principles from first-contact round 18 (issue 27).

/** A server whose handlers map is declared in its constructor and spreads another; \`listed\` is the tool its list declares. */
const constructorMapServer = (listed: string, lookUp = 'handlers[definition.name]'): string => `import { readFile } from 'node:fs/promises';
const toolDefinitions = [
  { name: '${listed}', description: 'A doc', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } },
];
export class DocServer {
  constructor(registry) {
    const toolHandlers = { read_doc: (a) => readFile(a.path, 'utf8') };
    const handlers = { ...toolHandlers, doc_size: async (a) => String((await readFile(a.path, 'utf8')).length) };
    for (const definition of toolDefinitions) registry.register(definition, ${lookUp});
  }
}
`;

/** A server registering a tool module's handler through a wrapper: \`module\` is the module it imports. */
const wrappedModuleServer = (module: string): string => `import * as fileTool from './${module}.js';
const withNudge = (handler) => async (args) => handler(args);
server.tool('show_file', 'Show a file', fileTool.schema.shape, withNudge(fileTool.handler));
`;

/** A language server's tool class that states its contract through \`getSpec()\`; \`body\` is what \`invoke\` does. */
const specClass = (
  body: string,
  name = 'fsRead',
  description = 'A tool for reading files.',
): string => `import { readFile } from 'node:fs/promises';
import { workspaceUtils } from '@aws/lsp-core';
export class FsRead {
  getSpec() {
    return { name: '${name}', description: '${description}', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } };
  }
  async invoke(params) {
    ${body}
  }
}
`;

ruleTester.run('require-unbounded-self-reading-tool: first-contact round 18', rule, {
  valid: [
    // The list's tool hands back a length.
    constructorMapServer('doc_size'),
    // A map nobody looks up by a computed name dispatches nothing.
    constructorMapServer('read_doc', 'handlers.doc_size'),
    // The wrapped module's handler hands back a size.
    { code: wrappedModuleServer('size-tool'), filename: path.join(nameDispatch, 'delegated', 'wrapped-server.ts') },
    // A folder's listing is names, not what is in the files.
    specClass('return workspaceUtils.readDirectoryWithTreeOutput(params.path);', 'listDirectory', 'Lists the entries under a folder.'),
  ],
  invalid: [
    // `const handlers = { ...toolHandlers, … }` in a constructor, looked up with `handlers[definition.name]`: the map is
    // the dispatcher, and the spread map beside it holds `read_doc`'s handler.
    ((code) =>
      invalid(code, [
        {
          toolName: 'read_doc',
          readCall: '`readFile`',
          fix: [
            "inputSchema: { type: 'object', properties: { path: { type: 'string' } } } },",
            "inputSchema: { type: 'object', properties: { path: { type: 'string' } } }, _meta: { 'anthropic/maxResultSizeChars': Infinity } },",
          ],
        },
      ]))(constructorMapServer('read_doc')),
    // \`getSpec()\` hands back the class's declaration: the class with its \`invoke\` is the tool.
    ((code) =>
      invalid(code, [
        {
          toolName: 'fsRead',
          readCall: '`readFile`',
          fix: ['export class FsRead {\n', 'export class FsRead {\n  maxResultSizeChars = Infinity;\n'],
        },
      ]))(specClass("return readFile(params.path, 'utf8');")),
    // \`withNudge(fileTool.handler)\`: the wrapper is handed the module's handler, which hands the file back.
    ((code) => ({
      code,
      filename: path.join(nameDispatch, 'delegated', 'wrapped-server.ts'),
      errors: [
        {
          messageId: 'missingUnbounded' as const,
          data: { toolName: 'show_file', readCall: '`readFile`', resource: 'path', declared: 'without a value', unbounded: 'UNBOUNDED' },
          // The server's raw-shape registration takes no \`_meta\`: the fix classifies the registered tool.
          suggestions: [
            {
              messageId: 'setUnbounded' as const,
              output: code
                .replace(
                  "from './dump-tool.js';\n",
                  "from './dump-tool.js';\nimport { classifyTool, UNBOUNDED } from 'tool-result-guard';\n",
                )
                .replace("server.tool('show_file'", "classifyTool(server.tool('show_file'")
                .replace(
                  'withNudge(fileTool.handler));',
                  "withNudge(fileTool.handler)), { name: 'show_file', reads: 'path', maxResultSizeChars: UNBOUNDED });",
                ),
            },
          ],
        },
      ],
    }))(wrappedModuleServer('dump-tool')),
  ],
});

// Where a URL's origin is fixed: a parameter is what its callers pass (issue 27; found on round 16's hotelzero,
// whose `getHotelDetails(hotelUrl)` was taken for another method's `const hotelUrl` on booking.com).

/** The fix of a `registerTool` whose config is only `{ description }`: the key goes into a new `_meta`. */
const registerFix = (description: string): [string, string] => [
  `{ description: '${description}' }`,
  `{ description: '${description}', _meta: { 'anthropic/maxResultSizeChars': Infinity } }`,
];

/** A page loader handed the model's URL; another function of the module declares a fixed `pageUrl` of its own. */
const pageLoaderServer = (loader: string): string => `function indexEntry(slug) {
  const pageUrl = \`https://docs.example.com/\${slug}\`;
  return { slug, pageUrl };
}
${loader}
server.registerTool('fetch_page', { description: 'Fetch a page' }, async ({ url }) => ({
  content: [{ type: 'text', text: await loadPage(url) }],
}));
`;

ruleTester.run('require-unbounded-self-reading-tool: parameters and their origins', rule, {
  valid: [
    // A closure of the loader fetches only what its calls give it, and each gives it a URL on a fixed host.
    pageLoaderServer(`async function loadPage(slug) {
  const fetchWithTimeout = (pageUrl) => fetch(pageUrl, { signal: AbortSignal.timeout(5000) });
  for (const branch of ['main', 'master']) {
    const pageUrl = \`https://raw.example.com/docs/\${branch}/\${slug}.md\`;
    const response = await fetchWithTimeout(pageUrl);
    if (response.ok) return response.text();
  }
  throw new Error('not found');
}`),
  ],
  invalid: [
    // \`loadPage(pageUrl)\`: its parameter is the model's URL, not the other function's \`const pageUrl\` on a fixed host.
    invalid(pageLoaderServer('async function loadPage(pageUrl) { return (await fetch(pageUrl)).text(); }'), [
      {
        toolName: 'fetch_page',
        readCall: '`loadPage` (→ fetch)',
        resource: 'URL',
        fix: registerFix('Fetch a page'),
      },
    ]),
    // The closure is called once with the model's URL as it is: what it fetches is the model's choice.
    invalid(
      pageLoaderServer(`async function loadPage(target) {
  const fetchWithTimeout = (pageUrl) => fetch(pageUrl, { signal: AbortSignal.timeout(5000) });
  const mirror = await fetchWithTimeout(\`https://mirror.example.com/\${encodeURIComponent(target)}\`);
  if (mirror.ok) return mirror.text();
  return (await fetchWithTimeout(target)).text();
}`),
      [
        {
          toolName: 'fetch_page',
          readCall: '`loadPage` (→ fetchWithTimeout → fetch)',
          resource: 'URL',
          fix: registerFix('Fetch a page'),
        },
      ],
    ),
  ],
});

// Principles from first-contact round 19 (issue 27).

/** A client whose paths are resolved on its own base; `tools` registers the tools that use it. */
const baseClientServer = (tools: string): string => `const API_URL = process.env.API_URL ?? 'https://api.example.com';
async function apiGet(path, params) {
  const url = new URL(path, API_URL);
  for (const [key, value] of Object.entries(params ?? {})) url.searchParams.set(key, String(value));
  const response = await fetch(url);
  return response.text();
}
${tools}
`;

/** A tool that resolves the model's path on the docs host; \`check\` is what it does before fetching. */
const docPageTool = (
  check: string,
): string => `server.registerTool('get_doc', { description: 'Fetch a documentation page' }, async ({ path }) => {
  const docUrl = new URL(path, 'https://docs.example.com');
  ${check}
  const response = await fetch(docUrl.toString());
  return { content: [{ type: 'text', text: await response.text() }] };
});
`;

/** A low-level server whose \`scenes\` tool dispatches its actions through a map; \`info\` is what that action does. */
const actionMapServer = (info: string): string => `import { readFile, writeFile } from 'node:fs/promises';
const SCENE_ACTIONS = {
  info: async (root, args) => ${info},
  create: async (root, args) => {
    await writeFile(\`\${root}/\${args.scene_path}\`, '');
    return 'created';
  },
};
async function handleScenes(action, args, config) {
  const handler = SCENE_ACTIONS[action];
  if (!handler) throw new Error(\`Unknown action: \${action}\`);
  return handler(config.root, args);
}
const TOOL_HANDLERS = { scenes: handleScenes };
const TOOLS = [
  {
    name: 'scenes',
    description: 'Scene files',
    inputSchema: { type: 'object', properties: { action: { type: 'string' }, scene_path: { type: 'string' } } },
  },
];
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name, arguments: args } = request.params;
  const handler = TOOL_HANDLERS[name];
  const text = await handler(args.action, args, config);
  return { content: [{ type: 'text', text }] };
});
`;

/** A scene tool whose actions each declare their own \`fullPath\`; \`info\` is what its \`info\` action does. */
const caseBlocksTool = (info: string): string => `import { readFile, writeFile } from 'node:fs/promises';
server.registerTool('scenes', { description: 'Scene files' }, async ({ action, path }) => {
  switch (action) {
    case 'create': {
      const fullPath = \`/project/\${path}\`;
      await writeFile(fullPath, '');
      return { content: [{ type: 'text', text: 'created' }] };
    }
    case 'info': {
      const fullPath = \`/project/\${path}\`;
      ${info}
    }
  }
});
`;

/** A reader wrapped in a retry helper that runs what it is handed; \`method\` is the reader's method used. */
const retriedReaderServer = (method: string): string => `import { readFile } from 'node:fs/promises';
function withRetry(fn, retries = 2) {
  return async (...args) => {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await fn(...args);
      } catch (error) {
        if (attempt >= retries) throw error;
      }
    }
  };
}
class FileReader {
  async read(path) { return readFile(path, 'utf8'); }
  async size(path) { return String((await readFile(path)).length); }
}
export function register(server) {
  const reader = new FileReader();
  const retried = withRetry(reader.${method}.bind(reader));
  server.registerTool('read_file', { description: 'A file' }, async ({ path }) => ({ content: [{ type: 'text', text: await retried(path) }] }));
}
`;

/** A server that loads its page module on first use, then hands it the model's URL. */
const lazyModuleServer = `let captureModule;
server.registerTool('capture_page', { description: 'Capture a page' }, async ({ url }) => {
  if (!captureModule) captureModule = await import('./page-capture.js');
  return { content: [{ type: 'text', text: await captureModule.capturePage({ url }) }] };
});
`;

ruleTester.run('require-unbounded-self-reading-tool: first-contact round 19', rule, {
  valid: [
    // `/posts/${id}` and a literal path resolved on the client's base: the API's host, whatever the model sends.
    baseClientServer(`server.registerTool('get_post', { description: 'Get a post' }, async ({ id }) => ({ content: [{ type: 'text', text: await apiGet(\`/posts/\${id}\`) }] }));
server.registerTool('search_posts', { description: 'Search posts' }, async ({ q }) => ({ content: [{ type: 'text', text: await apiGet('/posts/search', { q }) }] }));`),
    // The host is checked against the code's own list before the fetch.
    docPageTool("if (!['docs.example.com', 'develop.example.com'].includes(docUrl.hostname)) throw new Error('Not a documentation page');"),
    // The action the map runs for `info` hands back a length.
    actionMapServer("String((await readFile(`${root}/${args.scene_path}`, 'utf8')).length)"),
    // Its `info` action writes back the file it read: its own edit's read.
    caseBlocksTool(
      "const text = await readFile(fullPath, 'utf8');\n      await writeFile(fullPath, text.trim());\n      return { content: [{ type: 'text', text }] };",
    ),
    // The wrapped method hands back a size.
    retriedReaderServer('size'),
    // The imported client's paths stay on its base: followed, the read is refuted whatever the contract says.
    {
      code: "import { apiGet } from './api-client.js';\nserver.registerTool('read_post', { description: 'Read the post at a URL and return its contents' }, async ({ url }) => ({ content: [{ type: 'text', text: await apiGet('/posts/by-url', { url }) }] }));\n",
      filename: path.join(nameDispatch, 'delegated', 'post-server.ts'),
    },
  ],
  invalid: [
    // The model's URL handed to the client as the path: `new URL(url, API_URL)` is the model's URL when it is absolute.
    invalid(
      baseClientServer(
        "server.registerTool('fetch_page', { description: 'Fetch a page' }, async ({ url }) => ({ content: [{ type: 'text', text: await apiGet(url) }] }));",
      ),
      [{ toolName: 'fetch_page', readCall: '`apiGet` (→ fetch)', resource: 'URL', fix: registerFix('Fetch a page') }],
    ),
    // No host check: `new URL(path, base)` is the model's URL when `path` is absolute.
    invalid(docPageTool('// no check'), [
      { toolName: 'get_doc', readCall: '`fetch`', resource: 'URL', fix: registerFix('Fetch a documentation page') },
    ]),
    // `handler(args.action, args, config)` into `handleScenes(action, args, config)`, then `SCENE_ACTIONS[action]`:
    // the `info` action reads the model's scene and hands it back.
    invalid(actionMapServer("readFile(`${root}/${args.scene_path}`, 'utf8')"), [
      {
        toolName: 'scenes',
        readCall: '`handler` (→ readFile)',
        fix: [
          "inputSchema: { type: 'object', properties: { action: { type: 'string' }, scene_path: { type: 'string' } } },\n  },",
          "inputSchema: { type: 'object', properties: { action: { type: 'string' }, scene_path: { type: 'string' } } },\n    _meta: { 'anthropic/maxResultSizeChars': Infinity },\n  },",
        ],
      },
    ]),
    // `create` writes its own `fullPath`; `info` reads another one and hands it back.
    invalid(caseBlocksTool("const text = await readFile(fullPath, 'utf8');\n      return { content: [{ type: 'text', text }] };"), [
      { toolName: 'scenes', readCall: '`readFile`', fix: registerFix('Scene files') },
    ]),
    // `withRetry(reader.read.bind(reader))` runs `read` with the arguments the tool gives it.
    invalid(retriedReaderServer('read'), [{ toolName: 'read_file', readCall: '`retried` (→ readFile)', fix: registerFix('A file') }]),
    // `captureModule = await import('./page-capture.js')`: its `capturePage` fetches the model's URL.
    {
      ...invalid(lazyModuleServer, [
        {
          toolName: 'capture_page',
          readCall: '`captureModule.capturePage` (→ fetch)',
          resource: 'URL',
          fix: registerFix('Capture a page'),
        },
      ]),
      filename: path.join(nameDispatch, 'delegated', 'capture-server.ts'),
    },
  ],
});

/** A search tool that builds its command line in a local first; \`program\` is what it runs. */
const grepCommandTool = (program: string): string => `import { execSync } from 'node:child_process';
import { resolve } from 'node:path';
server.registerTool('search_content', { description: 'Search files' }, async ({ pattern, path }) => {
  const dir = resolve(path || '.');
  const cmd = \`${program} \${JSON.stringify(pattern)} \${JSON.stringify(dir)} | head -50\`;
  return { content: [{ type: 'text', text: execSync(cmd, { encoding: 'utf-8' }) }] };
});
`;

ruleTester.run('require-unbounded-self-reading-tool: first-contact round 19, command lines and runnable functions', rule, {
  valid: [
    // `find` prints the names of the files there, not what is in them; so does ripgrep asked for `--files`.
    grepCommandTool('find -name'),
    grepCommandTool('rg --files -g'),
    // An OpenAI runnable function whose page read answers only a status.
    `export const createActions = (page) => ({
  page_goto: {
    function: async (args) => { const response = await page.goto(args.url); return { status: response.status() }; },
    name: 'page_goto',
    description: 'Go to a URL',
    parse: (args) => JSON.parse(args),
    parameters: { type: 'object', properties: { url: { type: 'string' } } },
  },
});`,
  ],
  invalid: [
    // `const cmd = `grep -rn …``, then `execSync(cmd)`: grep prints the matched lines of the files at the model's path.
    // An OpenAI runnable function (`{ function, name, description, parse, parameters }`, for `runTools`) is a tool.
    invalid(
      `export const createActions = (page) => ({
  page_read: {
    function: async (args) => { await page.goto(args.url); return { html: await page.content() }; },
    name: 'page_read',
    description: 'Read a page',
    parse: (args) => JSON.parse(args),
    parameters: { type: 'object', properties: { url: { type: 'string' } } },
  },
});`,
      [
        {
          toolName: 'page_read',
          readCall: '`page.goto`',
          resource: 'URL',
          fix: [
            "parameters: { type: 'object', properties: { url: { type: 'string' } } },\n",
            "parameters: { type: 'object', properties: { url: { type: 'string' } } },\n    maxResultSizeChars: Infinity,\n",
          ],
        },
      ],
    ),
    invalid(grepCommandTool('grep -rn'), [{ toolName: 'search_content', readCall: '`execSync`', fix: registerFix('Search files') }]),
  ],
});

/** A server whose tools call a service built once at the top of the module; \`body\` is what its method hands back. */
const moduleServiceServer = (body: string): string => `import { readFile } from 'node:fs/promises';
class DecompilerService {
  async decompileFromPath(classFilePath) {
    const classData = await readFile(classFilePath);
    ${body}
  }
}
const decompilerService = new DecompilerService();
server.registerTool('decompile', { description: 'Decompile a class file' }, async ({ classFilePath }) => {
  const decompiled = await decompilerService.decompileFromPath(classFilePath);
  return { content: [{ type: 'text', text: decompiled }] };
});
`;

/** A tool that reads each document the model lists through the editor's workspace (a package's object); \`description\` is its contract. */
const documentsTool = (description: string): string => `import { workspace } from 'vscode-languageserver-workspace';
server.registerTool('documents', { description: '${description}', inputSchema: { uris: z.array(z.string()) } }, async (params) => {
  const texts = [];
  for (const uri of params.uris) {
    const document = await workspace.getTextDocument(uri);
    texts.push(document.getText());
  }
  return { content: [{ type: 'text', text: texts.join('\\n') }] };
});
`;

/** Speakeasy's generated tool object (`{ name, description, args, tool }`); \`body\` is what its \`tool\` member returns. */
const generatedTool = (body: string): string => `import { readFile } from 'node:fs/promises';
import { z } from 'zod';
export const tool$readAsset = {
  name: 'read-asset',
  description: 'Read an asset file',
  args: { path: z.string() },
  tool: async (client, args, ctx) => {
    const text = await readFile(args.path, 'utf8');
    return ${body};
  },
};
`;

/**
 * A low-level server whose handler hands the name and \`args ?? {}\` to a router, which hands them to
 * another that switches on the name made canonical (\`canonicalToolName(name)\`).
 */
const routedServer = (body: string): string => `import { readFile } from 'node:fs/promises';
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name, arguments: args } = request.params;
  return { content: [{ type: 'text', text: await routeTool(name, args ?? {}) }] };
});
function canonicalToolName(name) {
  return name.replace(/\\./g, '_');
}
async function routeTool(name, args) {
  return routeToolInner(name, args);
}
async function routeToolInner(name, args) {
  const lookupName = canonicalToolName(name);
  switch (lookupName) {
    case 'read_note':
      ${body}
    default:
      throw new Error('unknown tool');
  }
}
`;

/**
 * A tool whose path only meets functions whose work the analysis knows: \`isAbsolute\` imported from
 * \`node:path\`, \`mkdir\` from \`node:fs/promises\`, an error built through an imported module; \`rest\` is the rest.
 */
const knownFunctionsTool = (rest: string): string => `import { isAbsolute, join } from 'node:path';
import { mkdir, readFile } from 'node:fs/promises';
import * as util_1 from './util.js';
import { analyseScene } from 'scene-kit';
server.registerTool('read_scene', { description: 'Read the scene file at a path and return its contents' }, async ({ path }) => {
  if (!isAbsolute(path)) throw util_1.invalidPathError(path);
  await mkdir(join(path, '..', '.cache'), { recursive: true });
  const text = await readFile(path, 'utf8');
  ${rest}
});
`;

/** A REST client on its API's base, asked by a helper for \`url\` (written with the model's \`project\`). */
const relativeQueryServer = (url: string): string => `import { Client } from 'api-kit';
const apiClient = new Client({ urlPrefix: 'https://firestore.googleapis.com' });
async function queryCollection(project, structuredQuery) {
  const basePath = \`projects/\${project}/databases/(default)/documents\`;
  const url = ${url};
  const res = await apiClient.post(url, { structuredQuery });
  const out = { documents: [] };
  res.body.map((r) => { if (r.document) out.documents.push(r.document); });
  return out;
}
server.registerTool('query_collection', { description: 'Query a collection' }, async ({ project, query }) => {
  const result = await queryCollection(project, query);
  return { content: [{ type: 'text', text: JSON.stringify(result) }] };
});
`;

/** A server class whose constructor gives \`this.reader\` a \`new ${reader}()\`; two classes of the module define \`run\`. */
const fieldServiceServer = (reader: string): string => `import { readFile } from 'node:fs/promises';
class CsvReader {
  async run(path) { return readFile(path, 'utf8'); }
}
class SizeReader {
  async run(path) { return String((await readFile(path, 'utf8')).length); }
}
class SheetServer {
  constructor() { this.reader = new ${reader}(); }
  setup(server) {
    server.registerTool('read_sheet', { description: 'A sheet' }, async ({ path }) => ({ content: [{ type: 'text', text: await this.reader.run(path) }] }));
  }
}
`;

// A server that lists definitions kept in their own module and routes calls through a registry the analysis
// cannot read (\`registry.execute(name, args)\`, filled in a loop).
const listedFolder = mkdtempSync(path.join(tmpdir(), 'trg-listed-tools-'));
writeFileSync(path.join(listedFolder, 'package.json'), '{ "name": "listed-fixture", "private": true, "type": "module" }\n');
writeFileSync(
  path.join(listedFolder, 'server.ts'),
  `import { docTools } from './doc-tools.js';
import { registry } from './registry.js';
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [...docTools] }));
server.setRequestHandler(CallToolRequestSchema, async (request) => registry.execute(request.params.name, request.params.arguments));
`,
);
const listedTools = `export const docTools = [
  { name: 'read_doc', description: 'Read the document at a path and return its contents', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } },
];
`;
writeFileSync(path.join(listedFolder, 'doc-tools.ts'), listedTools);

/** A bundled tool whose schema esbuild's lazy initialiser fills (\`var readSchema; … readSchema = { … }\`); \`field\` is its one field. */
const lazySchemaTool = (field: string): string => `import { docs } from 'doc-store';
var readSchema;
var init_schemas = __esm(() => {
  readSchema = { type: 'object', properties: { ${field}: { type: 'string' } } };
});
export const readTool = defineTool({ name: 'read_doc', description: 'Read a document and return its contents', schema: readSchema, impl: (args) => docs.lookup(args.${field}) });
`;

ruleTester.run('require-unbounded-self-reading-tool: first-contact round 20', rule, {
  valid: [
    // The module's service hands back the size of what it read.
    moduleServiceServer('return String(classData.length);'),
    // Each listed URI goes to the workspace, which the analysis cannot follow, and the contract does not say it reads.
    documentsTool('Count the open documents'),
    // A generated tool that hands back a size.
    generatedTool("{ content: [{ type: 'text', text: String(text.length) }] }"),
    // The routed tool hands back a size.
    routedServer("return String((await readFile(args.path, 'utf8')).length);"),
    // The schema the initialiser fills names an entry, not a location.
    lazySchemaTool('docId'),
    // The same definitions in a module no server lists: a list of data, no tool.
    { code: listedTools, filename: path.join(listedFolder, 'unlisted-tools.ts') },
    // \`this.reader\` holds a \`SizeReader\`, whose \`run\` hands back a size.
    fieldServiceServer('SizeReader'),
    // \`projects/\${project}/…:runQuery\`: a relative path, resolved on the client's own base whatever the model's segment.
    relativeQueryServer('`${basePath}:runQuery`'),
    // Everything the path meets is known and what is read does not come back: refuted, whatever the contract says.
    knownFunctionsTool("return { content: [{ type: 'text', text: `${text.length} characters` }] };"),
  ],
  invalid: [
    // `const decompilerService = new DecompilerService()` at the top: its method is the class's, followed like a helper.
    invalid(moduleServiceServer("return classData.toString('utf8');"), [
      { toolName: 'decompile', readCall: '`decompilerService.decompileFromPath` (→ readFile)', fix: registerFix('Decompile a class file') },
    ]),
    // Speakeasy's `tool` member is the invocation; the model's input is its second parameter, `args`.
    invalid(generatedTool("{ content: [{ type: 'text', text }] }"), [
      {
        toolName: 'read-asset',
        readCall: '`readFile`',
        fix: ['  },\n};', '  },\n  maxResultSizeChars: Infinity,\n};'],
      },
    ]),
    // `routeTool(name, args ?? {})` → `routeToolInner(name, args)` → `switch (canonicalToolName(name))`: each case is a tool.
    // (No suggestion: the server lists no definition to put the declaration in.)
    {
      code: routedServer("return readFile(args.path, 'utf8');"),
      errors: [
        {
          messageId: 'missingUnbounded',
          data: { toolName: 'read_note', readCall: '`readFile`', resource: 'path', declared: 'without a value', unbounded: 'Infinity' },
        },
      ],
    },
    // The read content goes to a package's analyser the analysis cannot follow: unknown, and the contract says it reads.
    ((code) =>
      contractCase(
        code,
        code.replace(
          registerFix('Read the scene file at a path and return its contents')[0],
          registerFix('Read the scene file at a path and return its contents')[1],
        ),
      ))(knownFunctionsTool('return analyseScene(text);')),
    // \`readSchema\` is what the initialiser assigns it, once: its \`path\` is a location, and the contract reads it.
    ((code) =>
      contractCase(
        code,
        code.replace(
          'impl: (args) => docs.lookup(args.path) });',
          'impl: (args) => docs.lookup(args.path), maxResultSizeChars: Infinity });',
        ),
      ))(lazySchemaTool('path')),
    // Listed by the server's ListTools answer (\`tools: [...docTools]\`), routed where the analysis cannot see: its contract decides.
    {
      ...contractCase(
        listedTools,
        listedTools.replace(
          "properties: { path: { type: 'string' } } } },",
          "properties: { path: { type: 'string' } } }, _meta: { 'anthropic/maxResultSizeChars': Infinity } },",
        ),
      ),
      filename: path.join(listedFolder, 'doc-tools.ts'),
    },
    // \`this.reader.run(path)\`: the field only ever holds a \`CsvReader\`, whose \`run\` hands back the file.
    invalid(fieldServiceServer('CsvReader'), [
      { toolName: 'read_sheet', readCall: '`this.reader.run` (→ readFile)', fix: registerFix('A sheet') },
    ]),
    // The model's project is the first segment, which may be a host: \`\${project}/…\` names any site.
    invalid(relativeQueryServer('`${project}/runQuery`'), [
      {
        toolName: 'query_collection',
        readCall: '`queryCollection` (→ apiClient.post)',
        resource: 'URL',
        fix: registerFix('Query a collection'),
      },
    ]),
    // `for (const uri of params.uris)`: each item is the model's; it goes where the flow cannot follow, and the contract reads it.
    ((code) =>
      contractCase(
        code,
        code.replace(
          'inputSchema: { uris: z.array(z.string()) } }',
          "inputSchema: { uris: z.array(z.string()) }, _meta: { 'anthropic/maxResultSizeChars': Infinity } }",
        ),
      ))(documentsTool('Read the contents of the documents')),
  ],
});

// A server whose ListTools answer is built by a function of another module: it filters a constant list
// and pushes one more definition onto it (`tools: enabledTools`, `enabledTools = buildToolList(…)`).
const builtListFolder = mkdtempSync(path.join(tmpdir(), 'trg-built-list-'));
writeFileSync(path.join(builtListFolder, 'package.json'), '{ "name": "built-list-fixture", "private": true, "type": "module" }\n');
writeFileSync(
  path.join(builtListFolder, 'server.ts'),
  `import { buildToolList } from './tool-registry.js';
export function startServer(disabled) {
  const enabledTools = buildToolList(disabled);
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: enabledTools }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => handlers.get(request.params.name).handler(request.params.arguments));
}
`,
);
const builtRegistry = `const BASE_TOOLS = [
  { name: 'show_source', description: 'Show the source file at a path', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } },
];
const EXTRA_TOOL = { name: 'read_notes', description: 'Read the notes file at a path', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } };
export function buildToolList(disabled) {
  const tools = BASE_TOOLS.filter((tool) => !disabled.includes(tool.name));
  tools.push(EXTRA_TOOL);
  return tools;
}
`;
writeFileSync(path.join(builtListFolder, 'tool-registry.ts'), builtRegistry);

/** A class handed its definition after it (tsc's output of a static field), run by its static `runnable(client, params)`. */
const attachedDefinitionClass = (description: string, field = "{ type: 'string' }"): string => `class WebsiteScrapeTool {
  static async runnable(hb, params) {
    const resp = await hb.scrape.startAndWait(params);
    return resp.data?.markdown || '';
  }
}
exports.WebsiteScrapeTool = WebsiteScrapeTool;
WebsiteScrapeTool.openaiToolDefinition = {
  type: 'function',
  function: { name: 'scrape_webpage', description: '${description}', parameters: { type: 'object', properties: { url: ${field} } } },
};
`;

/** A tool that hands its \`file\` to an index the analysis cannot follow; \`field\` is the field's description. */
const indexedFileTool = (field: string): string => `import { graph } from 'code-graph';
server.registerTool('file_source', { description: 'Show the source file', inputSchema: { file: z.string().describe('${field}') } }, async ({ file }) => ({
  content: [{ type: 'text', text: graph.lookup(file) }],
}));
`;

ruleTester.run('require-unbounded-self-reading-tool: first-contact round 21', rule, {
  valid: [
    // The same registry in a module no list answer builds from: a list of data, no tool.
    { code: builtRegistry, filename: path.join(builtListFolder, 'other-registry.ts') },
    // A class handed a definition that says it counts what is there: the contract does not say it reads.
    attachedDefinitionClass('Count the links of a webpage'),
    // "File path (partial match supported)": a key the index matches, not a location the tool opens.
    indexedFileTool('File path (partial match supported)'),
    indexedFileTool('Scope to a specific file'),
  ],
  invalid: [
    // Listed by an answer a function builds: `BASE_TOOLS.filter(…)` keeps the array's entries, `push` adds one.
    {
      code: builtRegistry,
      filename: path.join(builtListFolder, 'tool-registry.ts'),
      errors: [
        {
          messageId: 'missingUnboundedByContract',
          suggestions: [
            {
              messageId: 'setUnbounded',
              output: builtRegistry.replace(
                "path: { type: 'string' } } } },\n];",
                "path: { type: 'string' } } }, _meta: { 'anthropic/maxResultSizeChars': Infinity } },\n];",
              ),
            },
          ],
        },
        {
          messageId: 'missingUnboundedByContract',
          suggestions: [
            {
              messageId: 'setUnbounded',
              output: builtRegistry.replace(
                "path: { type: 'string' } } } };",
                "path: { type: 'string' } } }, _meta: { 'anthropic/maxResultSizeChars': Infinity } };",
              ),
            },
          ],
        },
      ],
    },
    // Its definition is handed to it after the class; the client's job goes where the flow cannot follow, and the contract reads the URL.
    // (The sentinel is static, as the methods that run it are: the class is the tool the harness holds.)
    ((code) =>
      contractCase(code, code.replace('class WebsiteScrapeTool {', 'class WebsiteScrapeTool {\n  static maxResultSizeChars = Infinity;')))(
      attachedDefinitionClass('Scrape content from a webpage and return the content in markdown format'),
    ),
    // A file path the tool opens: the index is code the analysis cannot follow, and the contract reads it.
    ((code) =>
      contractCase(
        code,
        code.replace(
          "inputSchema: { file: z.string().describe('File path') } }",
          "inputSchema: { file: z.string().describe('File path') }, _meta: { 'anthropic/maxResultSizeChars': Infinity } }",
        ),
      ))(indexedFileTool('File path')),
  ],
});

/** GenAIScript-style `defTool(name, description, parameters, fn, options)`; `body` is the handler's. */
const positionalTool = (name: string, description: string, body: string): string => `import { readFile } from 'node:fs/promises';
export default function (ctx) {
  const { defTool } = ctx;
  defTool(
    '${name}',
    '${description}',
    { type: 'object', properties: { filename: { type: 'string', description: 'Path of the file' } } },
    async (args) => {
      ${body}
    },
    { maxTokens: 10000 },
  );
}
`;

/** `[name, config, handler]` kept for `registerTool` (`for (const [n, c, f] of tools) server.registerTool(n, c, f)`). */
const registrationTuple = (body: string): string => `import { readFile } from 'node:fs/promises';
import { z } from 'zod';
export const getSourceCode = () => {
  const tool = async (args) => {
    ${body}
  };
  return ['get_source_code', { description: 'Retrieve the source of a component', inputSchema: { filePath: z.string() } }, tool];
};
`;

/** A tool object whose contract sits under \`toolDefinition\`, run by its \`handler(ctx, args)\`. */
const nestedDefinitionTool = (body: string): string => `import { readFile } from 'node:fs/promises';
import { z } from 'zod';
export const readNoteTool = {
  toolDefinition: { name: 'read_note', description: 'Read a note of the vault', inputSchema: { path: z.string() } },
  handler: async (_ctx, args) => {
    ${body}
  },
};
`;

ruleTester.run('require-unbounded-self-reading-tool: first-contact round 22', rule, {
  valid: [
    // The same shapes, handing back facts about the file: nothing read comes back.
    positionalTool('fs_size', 'Returns the size of a file.', 'const text = await readFile(args.filename, "utf8"); return text.length;'),
    registrationTuple(
      'const text = await readFile(args.filePath, "utf8"); return { content: [{ type: "text", text: String(text.length) }] };',
    ),
    nestedDefinitionTool('const text = await readFile(args.path, "utf8"); return { ok: true, size: text.length };'),
    // A package's helper handed the server first and the name second: its calls are not this shape.
    `import { readFile } from 'node:fs/promises';
     registerTool(server, 'read_note', noteSchema, async ({ path }) => readFile(path, 'utf8'));`,
    // "read": one word, not a description; the call does not state a contract.
    `import { readFile } from 'node:fs/promises';
     addTool('read_note', 'read', schema, async ({ path }) => readFile(path, 'utf8'));`,
    // A site's resources or its SEO score analysed: a measure of the page, not what it shows (no medium in the name).
    unknownFlowTool('analyze_resources', 'Resources a page loads', "url: z.string().describe('URL of the website')"),
    // A query that filters what comes back, about no content: the answer is not drawn from the file.
    unknownFlowTool(
      'find_tasks',
      'Find tasks',
      "file: z.string().describe('Path of the tasks file'), query: z.string().describe('Query to filter tasks by')",
    ),
    // A key with no folder it is relative to: an entry of a store, not a path.
    unknownFlowTool('state_read', 'Read state by key', "key: z.string().describe('State key, for example decisions')"),
    // What it makes goes into a file: it hands back where it put it, not what it read.
    unknownFlowTool(
      'video_extract_audio',
      'Extract audio from a video file into an audio file.',
      "filename: z.string().describe('Path of the video')",
    ),
    // The number of rows is a fact about the database, not its rows.
    unknownFlowTool('count_rows', 'Count the rows of a SQLite database file and return the number of rows', 'path: z.string()'),
  ],
  invalid: [
    // `defTool` states the contract positionally, as `server.tool` does; another harness's function takes no `_meta`: no fix.
    {
      code: positionalTool('fs_read_file', 'Reads a file as text from the file system.', 'return await readFile(args.filename, "utf8");'),
      errors: [
        {
          messageId: 'missingUnbounded',
          data: { toolName: 'fs_read_file', readCall: '`readFile`', resource: 'path', declared: 'without a value', unbounded: 'Infinity' },
          suggestions: [],
        },
      ],
    },
    // The tuple's config reaches `registerTool` unchanged: its `_meta` is where the classification goes.
    invalid(registrationTuple('const text = await readFile(args.filePath, "utf8"); return { content: [{ type: "text", text }] };'), [
      {
        toolName: 'get_source_code',
        readCall: '`readFile`',
        fix: [
          'inputSchema: { filePath: z.string() } }',
          "inputSchema: { filePath: z.string() }, _meta: { 'anthropic/maxResultSizeChars': Infinity } }",
        ],
      },
    ]),
    // The contract under `toolDefinition` names the tool; the handler's second parameter is the input.
    invalid(nestedDefinitionTool('return await readFile(args.path, "utf8");'), [
      {
        toolName: 'read_note',
        readCall: '`readFile`',
        fix: [
          '    return await readFile(args.path, "utf8");\n  },\n',
          '    return await readFile(args.path, "utf8");\n  },\n  maxResultSizeChars: Infinity,\n',
        ],
      },
    ]),
    // An analysis of a medium the name names (`analyze_image`, `understand_diagram`) is made of what it shows.
    unknownFlowCase(
      'analyze_image',
      'General-purpose image analysis',
      "image_source: z.string().describe('Local file path or remote URL to the image')",
    ),
    unknownFlowCase(
      'analyze_video',
      'Analyze video content using a vision model',
      "video_source: z.string().describe('Local file path or remote URL to the video')",
    ),
    // A question run over the content of the file at the location: the answer is drawn from that content.
    unknownFlowCase(
      'ask_file',
      'Runs a query over a file',
      "filename: z.string().describe('Path of the file to load'), query: z.string().describe('Query to run over the file content')",
    ),
    // A key "relative to .squad/" is a path under that folder.
    unknownFlowCase(
      'read_state',
      'Read state by key',
      "key: z.string().describe('State key relative to .squad/, for example decisions.md')",
    ),
    // "Get an editor resource by URI": the resource at the URI is what comes back.
    unknownFlowCase('get_resource', 'Get an editor resource by URI', "uri: z.string().describe('A full resource URI')"),
    // "…and return the rows": the rows of the database file are its content.
    unknownFlowCase(
      'query',
      'Run a read-only SQL statement against a SQLite database file and return the rows',
      'path: z.string(), sql: z.string()',
    ),
  ],
});

/** An MCP tool registered with a description, its handler written out. */
const registeredTool = (name: string, body: string, prelude = ''): string => `${prelude}
server.registerTool('${name}', { description: 'Works on a file' }, async (args) => {
  ${body}
});
`;
/** The fix that registration takes: the sentinel in the config's `_meta`. */
const registeredFix: [string, string] = [
  "{ description: 'Works on a file' }",
  "{ description: 'Works on a file', _meta: { 'anthropic/maxResultSizeChars': Infinity } }",
];
/** A package's own `exec(program, args, options)` helper around `execFile`. */
const execHelper = `import { execFile } from 'node:child_process';
async function exec(cmd, args, options = {}) {
  return new Promise((resolve) => execFile(cmd, args, options, (error, stdout) => resolve({ stdout })));
}`;

/** A search SDK's helper of another module that posts the model's folders to its service's API. */
const searchSdkFolder = mkdtempSync(path.join(tmpdir(), 'trg-search-sdk-'));
writeFileSync(
  path.join(searchSdkFolder, 'search.ts'),
  "export async function searchCodebase(client: { post(path: string, body: unknown): Promise<unknown> }, input: { query: string; target_directories: string[] }) {\n  return client.post('/v1/codebase_search', { query: input.query, dirs: input.target_directories });\n}\n",
);
const searchSdkTool = `import { searchCodebase } from './search.js';
export const codebaseSearch = buildTool({
  name: 'codebase_search',
  description: 'Semantic search that finds code by meaning and returns the matching code.',
  inputSchema: z.object({ query: z.string(), target_directories: z.array(z.string()).describe('Prefix directory paths to limit the search') }),
  async call(input) { return searchCodebase(client, input); },
});
`;

/** A REST bridge's low-level server that spells the request's fields its own way (`params.tool`, `params.params`). */
const paramsToolServer = `import { readFile } from 'node:fs/promises';
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: 'read_note', description: 'Read a note', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } }] }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const toolName = request.params.tool;
  const toolParams = request.params.params || {};
  switch (toolName) {
    case 'read_note':
      return { content: [{ type: 'text', text: await readFile(toolParams.path, 'utf8') }] };
    default:
      throw new Error('unknown');
  }
});`;

ruleTester.run('require-unbounded-self-reading-tool: first-contact round 23', rule, {
  valid: [
    // `jq` fed on stdin: its only operand is the model's query, no location.
    registeredTool('jq', "const { stdout } = await exec('jq', [args.filter], { stdin: args.input }); return stdout;", execHelper),
    // `rg --files -g pattern`: file names, not the lines in them.
    registeredTool(
      'glob',
      "const list = ['--files', '-g', args.pattern]; const { stdout } = await exec('rg', list, {}); return stdout;",
      execHelper,
    ),
    // `cat` of a file the code names under the model's folder: no model-chosen file.
    registeredTool(
      'read_state',
      "const out = execSync(`cat ${path.join(args.dir, 'state.json')}`); return String(out);",
      "import path from 'node:path';\nimport { execSync } from 'node:child_process';",
    ),
    // Its contract says it finds code in folders, but a helper of another module posts them to the service's API.
    { code: searchSdkTool, filename: path.join(searchSdkFolder, 'tool.ts') },
    // A program that prints no file (`stat`, `ls`) is no reader.
    registeredTool('stat', "const { stdout } = await exec('stat', [args.path]); return stdout;", execHelper),
    // A request is at its URL: an invite code in its body is data sent to a fixed origin, not where it reads.
    registeredTool(
      'redeem_invite',
      "const request = new Request(`${baseUrl()}/api/redeem`, { method: 'POST', body: JSON.stringify({ code: args.code }) }); return sendJson(request);",
      "import { baseUrl } from './config.js';\nasync function sendJson(request) { const response = await fetch(request); return response.json(); }",
    ),
    // A URL in the body of a request to an endpoint named for something else (a shortener) is not fetched.
    registeredTool(
      'shorten',
      "const response = await fetch('https://api.example.com/v1/shorten', { method: 'POST', body: JSON.stringify({ url: args.url }) }); return response.json();",
    ),
    // An MCP prompt states a contract as a tool does, but the model never calls it.
    `import { readFile } from 'node:fs/promises';
     export default defineMcpPrompt({ description: 'Explain a file', inputSchema: { path: z.string() },
       handler: async ({ path }) => readFile(path, 'utf8') });`,
    // A definition object with no function named for its tool: nothing runs it here.
    `import { readFile } from 'node:fs/promises';
     export const readNoteDefinition = { name: 'read_note', description: 'Read a note', parameters: { type: 'object', properties: { path: { type: 'string' } } } };
     export async function listNotes(params) { return readFile(params.path, 'utf8'); }`,
  ],
  invalid: [
    // `exec('cat', [path])`, `exec('jq', [filter, file])`, `git show ref:path`: programs that print what a file holds.
    invalid(registeredTool('cat', "const { stdout } = await exec('cat', [args.path]); return stdout;", execHelper), [
      { toolName: 'cat', readCall: '`exec`', fix: registeredFix },
    ]),
    invalid(registeredTool('jq', "const { stdout } = await exec('jq', [args.filter ?? '.', args.file]); return stdout;", execHelper), [
      { toolName: 'jq', readCall: '`exec`', fix: registeredFix },
    ]),
    invalid(
      registeredTool(
        'show_at_ref',
        "const { stdout } = await execFile('git', ['show', `${args.ref}:${args.path}`]); return stdout;",
        "import { execFile } from 'node:child_process';",
      ),
      [{ toolName: 'show_at_ref', readCall: '`execFile`', fix: registeredFix }],
    ),
    invalid(
      registeredTool(
        'head',
        "const { stdout } = await execSync('head -n 50 ' + args.path); return stdout;",
        "import { execSync } from 'node:child_process';",
      ),
      [{ toolName: 'head', readCall: '`execSync`', fix: registeredFix }],
    ),
    // The model's URL sent to a reader API's `web_fetch` endpoint: what it answers is the page.
    invalid(
      registeredTool(
        'web_fetch',
        "const response = await fetch('https://ollama.com/api/web_fetch', { method: 'POST', body: JSON.stringify({ url: args.url }) }); return response.json();",
      ),
      [{ toolName: 'web_fetch', readCall: '`fetch`', resource: 'URL', fix: registeredFix }],
    ),
    // A handler handed a client first and the model's arguments after it, named `args`.
    invalid(
      `import { readFile } from 'node:fs/promises';
export const readTool = {
  name: 'read_doc',
  description: 'Read a document',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
  handler: async (client, args, format) => readFile(args.path, 'utf8'),
};`,
      [
        {
          toolName: 'read_doc',
          readCall: '`readFile`',
          fix: ["readFile(args.path, 'utf8'),\n", "readFile(args.path, 'utf8'),\n  maxResultSizeChars: Infinity,\n"],
        },
      ],
    ),
    // A definition object beside the function named for its tool: that function runs it.
    invalid(
      `import { readFile } from 'node:fs/promises';
export async function memoryGet(memory, params) { return { content: await readFile(params.path, 'utf8') }; }
export const memoryGetToolDefinition = {
  name: 'memory_get',
  description: 'Read a memory file',
  parameters: { type: 'object', properties: { path: { type: 'string' } } },
};`,
      [
        {
          toolName: 'memory_get',
          readCall: '`readFile`',
          fix: [
            "properties: { path: { type: 'string' } } },\n};",
            "properties: { path: { type: 'string' } } },\n  maxResultSizeChars: Infinity,\n};",
          ],
        },
      ],
    ),
    // A low-level server that switches on `request.params.tool` and reads `request.params.params`.
    invalid(paramsToolServer, [
      {
        toolName: 'read_note',
        readCall: '`readFile`',
        fix: ["{ type: 'string' } } } }] }", "{ type: 'string' } } }, _meta: { 'anthropic/maxResultSizeChars': Infinity } }] }"],
      },
    ]),
    // "The file content can be returned": said of the file at the location, the content comes back.
    unknownFlowCase(
      'pull_file',
      'Transfers a file from a device. The file content can be returned as base64-encoded data.',
      "remotePath: z.string().describe('Path of the file on the device')",
    ),
  ],
});

/**
 * A server's own cache folder inside its installation, built in steps by helpers of another module:
 * `cacheDir(projectId)` joins the id onto the package root (`resolve(__dirname, '..', '..')`),
 * `keyToPath` joins a key onto that, `cacheMeta` joins a file name the module's constant names.
 */
const cacheFolder = mkdtempSync(path.join(tmpdir(), 'trg-cache-folder-'));
writeFileSync(path.join(cacheFolder, 'package.json'), '{ "name": "cache-fixture", "private": true, "type": "module" }\n');
writeFileSync(
  path.join(cacheFolder, 'cache.ts'),
  `import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
const __dirname = dirname(fileURLToPath(import.meta.url));
const PROJECT_ROOT = resolve(__dirname, '..', '..');
const META_FILE = '_meta.json';
export function cacheDir(projectId: string) { return join(PROJECT_ROOT, '.cache', projectId); }
function keyToPath(projectId: string, fileKey: string) { return join(cacheDir(projectId), \`\${fileKey}.yaml\`); }
export async function cacheRead(projectId: string, fileKey: string) { return readFile(keyToPath(projectId, fileKey), 'utf-8'); }
export async function cacheMeta(projectId: string) { const metaPath = join(cacheDir(projectId), META_FILE); return JSON.parse(await readFile(metaPath, 'utf-8')); }
export function inWorkspace(file: string) { return join(process.cwd(), file); }
`,
);
const cacheTool = (name: string, body: string): { code: string; filename: string } => ({
  code: `import { readFile } from 'node:fs/promises';
import { cacheMeta, cacheRead, inWorkspace } from './cache.js';
server.registerTool('${name}', { description: 'Works on a file' }, async (args) => {
  ${body}
});
`,
  filename: path.join(cacheFolder, 'tool.ts'),
});

/** A service the handler is injected with (`this.toolsService`), whose method switches on the name inside a `try`. */
const injectedFolder = mkdtempSync(path.join(tmpdir(), 'trg-injected-service-'));
writeFileSync(path.join(injectedFolder, 'package.json'), '{ "name": "injected-fixture", "private": true, "type": "module" }\n');
writeFileSync(
  path.join(injectedFolder, 'controller.ts'),
  `import { ToolsService } from './tools.service.js';
export class McpController {
  constructor(private readonly toolsService: ToolsService) {
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const { name, arguments: args } = request.params;
      return this.toolsService.handleToolCall(name, args);
    });
  }
}
`,
);
const injectedService = (body: string): string => `import { readFile } from 'node:fs/promises';
// Agents acknowledge with tools/call { name: "ack" }.
export class ToolsService {
  async handleToolCall(tool: string, params: { path: string }) {
    try {
      const normalized = tool.replace(/[.-]/g, '_');
      switch (normalized) {
        case 'read_note':
          ${body}
        default:
          throw new Error('unknown tool');
      }
    } catch (error) {
      return { error: String(error) };
    }
  }
}
`;

writeFileSync(
  path.join(injectedFolder, 'tools.service.ts'),
  injectedService("return { content: [{ type: 'text', text: await readFile(params.path, 'utf8') }] };"),
);

/** tsc's downlevel \`async\` of a handler that destructures its argument: the generator is handed \`[_a]\`. */
const argumentsAwaiterTool = (body: string): string => `import { readFile } from 'node:fs/promises';
const tslib_1 = require('tslib');
server.registerTool('doc_tool', { description: 'Works on a file' }, (_a) => tslib_1.__awaiter(void 0, [_a], void 0, function* ({ path, encoding }) {
  ${body}
}));
`;

/** A module's handler made by a wrapper that checks the arguments first (`withValidation(schema, async (args) => …)`). */
const wrappedHandlerTool = (body: string): string => `import { readFile } from 'node:fs/promises';
const handleRead = withValidation(readSchema, async (args) => {
  ${body}
});
server.registerTool('doc_tool', { description: 'Works on a file' }, async (args) => handleRead(args));
`;

ruleTester.run('require-unbounded-self-reading-tool: first-contact round 24', rule, {
  valid: [
    // The tool's own cache folder inside its installation, by project id: the file its module names, a key under the id.
    cacheTool('get_meta', 'const meta = await cacheMeta(args.projectId); return JSON.stringify(meta);'),
    cacheTool('get_file', 'return await cacheRead(args.projectId, args.fileName);'),
    // A file the module's constant names, under the model's folder: the model picks the folder, the code the file.
    registeredTool(
      'read_meta',
      "return readFile(path.join(args.dir, META_FILE), 'utf8');",
      "import path from 'node:path';\nimport { readFile } from 'node:fs/promises';\nconst META_FILE = 'meta.json';",
    ),
    // A video service's `fetchVideoInfo(url)` answers with facts about the video, not with it.
    registeredTool('video_title', 'const info = await videoService.fetchVideoInfo(args.url); return info.title;'),
    // A fixed API paged on through the link each answer names for the next page.
    registeredTool(
      'list_items',
      "let url = 'https://graph.example.com/v1.0' + args.path; const all = []; let current = url;\n  while (current) { const response = await fetch(current); const page = await response.json(); all.push(...page.value); current = page.nextLink || null; }\n  return JSON.stringify(all);",
    ),
    // A service asked for one entry by its name: the file the entry names is the service's, not the model's.
    registeredTool(
      'skill_file',
      "const skill = skillService.getSkill(args.skillName); return readFile(skill.location, 'utf8');",
      "import { readFile } from 'node:fs/promises';",
    ),
    // The wrapped handler hands back a size of what it read.
    wrappedHandlerTool("return String((await readFile(args.path, 'utf8')).length);"),
    // The generator hands back a size of what it read.
    argumentsAwaiterTool("const text = yield readFile(path, 'utf8'); return String(text.length);"),
    // The injected service's branch hands back a size.
    {
      code: injectedService("return { size: (await readFile(params.path, 'utf8')).length };"),
      filename: path.join(injectedFolder, 'tools.service.ts'),
    },
  ],
  invalid: [
    // A path joined onto the working folder by a helper of another module stays the model's.
    invalid(
      cacheTool('read_file', "return await readFile(inWorkspace(args.path), 'utf8');").code,
      [{ toolName: 'read_file', readCall: '`readFile`', fix: registeredFix }],
      {
        filename: path.join(cacheFolder, 'tool.ts'),
      },
    ),
    // Paging on from the model's own URL: the first URL decides, and it is the model's.
    invalid(
      registeredTool(
        'crawl',
        'const all = []; let current = args.url;\n  while (current) { const response = await fetch(current); const page = await response.json(); all.push(page); current = page.next || null; }\n  return JSON.stringify(all);',
      ),
      [{ toolName: 'crawl', readCall: '`fetch`', resource: 'URL', fix: registeredFix }],
    ),
    // The handler hands the name and arguments to a service it is injected with; that service's `switch` dispatches.
    // (No suggestion: its definition is elsewhere, in the list the server answers with.)
    {
      code: injectedService("return { content: [{ type: 'text', text: await readFile(params.path, 'utf8') }] };"),
      filename: path.join(injectedFolder, 'tools.service.ts'),
      errors: [
        {
          messageId: 'missingUnbounded',
          data: { toolName: 'read_note', readCall: '`readFile`', resource: 'path', unbounded: 'Infinity' },
          suggestions: [],
        },
      ],
    },
    // The entry a lookup by a path answers with is no registry's: its location stays the model's.
    invalid(
      registeredTool(
        'open_doc',
        "const doc = workspace.getEntry(args.path); return readFile(doc.location, 'utf8');",
        "import { readFile } from 'node:fs/promises';",
      ),
      [{ toolName: 'open_doc', readCall: '`readFile`', fix: registeredFix }],
    ),
    // The function the wrapper is handed runs when the module's handler is called.
    invalid(wrappedHandlerTool("return { content: [{ type: 'text', text: await readFile(args.path, 'utf8') }] };"), [
      { toolName: 'doc_tool', readCall: '`handleRead` (→ readFile)', fix: registeredFix },
    ]),
    // The generator names the handler's argument's fields; the file at `path` comes back.
    invalid(argumentsAwaiterTool("return yield readFile(path, encoding ?? 'utf8');"), [
      { toolName: 'doc_tool', readCall: '`readFile`', fix: registeredFix },
    ]),
  ],
});

/** A low-level server's handler in one module that hands its whole request to a function another module exports. */
const requestDelegateFolder = mkdtempSync(path.join(tmpdir(), 'trg-request-delegate-'));
writeFileSync(
  path.join(requestDelegateFolder, 'package.json'),
  '{ "name": "request-delegate-fixture", "private": true, "type": "module" }\n',
);
writeFileSync(
  path.join(requestDelegateFolder, 'server.ts'),
  `import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { handleTools, listTools } from './tools.js';
server.setRequestHandler(ListToolsRequestSchema, async () => listTools());
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  return handleTools(request);
});
`,
);
/** The delegate's module: the list the server answers with, and the `switch` on the requested name; `body` is the branch. */
const requestDelegate = (body: string): string => `import { readFile } from 'node:fs/promises';
export const listTools = () => ({
  tools: [{ name: 'read_doc', description: 'Reads a document', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } }],
});
export const handleTools = async (request) => {
  const { name, arguments: args } = request.params;
  switch (name) {
    case 'read_doc': {
      ${body}
    }
    default:
      throw new Error('unknown tool');
  }
};
`;
writeFileSync(
  path.join(requestDelegateFolder, 'tools.ts'),
  requestDelegate("return { content: [{ type: 'text', text: await readFile(args.path, 'utf8') }] };"),
);
const requestDelegateFix: [string, string] = [
  "inputSchema: { type: 'object', properties: { path: { type: 'string' } } } }",
  "inputSchema: { type: 'object', properties: { path: { type: 'string' } } }, _meta: { 'anthropic/maxResultSizeChars': Infinity } }",
];

/** A JSON-RPC server's tool that reads a document; `body` is its branch. */
const jsonRpcDocs = (body: string): string =>
  jsonRpcServer({
    prelude: "import { readFile } from 'node:fs/promises';",
    name: 'read_doc',
    contract: "description: 'Reads a document', inputSchema: { type: 'object', properties: { path: { type: 'string' } } }",
    body,
  });

/** A server's assets shipped beside its code, found through a helper; several branches of one handler each declare their own `filePath`. */
const shippedAssetsServer = (readBranch: string): string => `import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
const __dirname = path.dirname(fileURLToPath(import.meta.url));
const ASSETS = path.join(__dirname, 'assets');
function assetPath(kind) {
  switch (kind) {
    case 'components':
      return path.join(ASSETS, 'components');
    case 'logos':
      return path.join(ASSETS, 'logos');
  }
}
function logoPath(name) {
  return path.join(assetPath('logos'), name.replace(/\\.{2,}/g, ''));
}
function smallLogoPath(name) {
  const small = path.join(ASSETS, 'logos-small', name);
  return fs.existsSync(small) ? small : null;
}
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name, arguments: args } = request.params;
  switch (name) {
    case 'save_component': {
      const filePath = args.target;
      fs.writeFileSync(filePath, args.source);
      return { content: [{ type: 'text', text: 'saved' }] };
    }
    case 'get_component': {
      ${readBranch}
    }
  }
});
`;

ruleTester.run('require-unbounded-self-reading-tool: first-contact round 25', rule, {
  valid: [
    // A component shipped with the server, found through its helper; another branch's own `filePath` is another local.
    shippedAssetsServer(
      "const filePath = path.join(assetPath('components'), `${args.component}.tsx`);\n      return { content: [{ type: 'text', text: fs.readFileSync(filePath, 'utf8') }] };",
    ),
    // A shipped logo, its smaller copy when there is one: either is a file the package installed.
    shippedAssetsServer(
      "const source = smallLogoPath(args.logo) || logoPath(args.logo);\n      return { content: [{ type: 'image', data: fs.readFileSync(source).toString('base64'), mimeType: 'image/png' }] };",
    ),
    // The imported delegate's branch hands back a size of what it read.
    {
      code: requestDelegate("return { content: [{ type: 'text', text: String((await readFile(args.path, 'utf8')).length) }] };"),
      filename: path.join(requestDelegateFolder, 'tools.ts'),
    },
    // The JSON-RPC method's branch hands back a size.
    jsonRpcDocs("return { content: [{ type: 'text', text: String((await readFile(args.path, 'utf8')).length) }] };"),
    // A renamed import of the factory whose tool hands back a size.
    `import { tool as b } from '@langchain/core/tools';
import { readFile } from 'node:fs/promises';
async function sizeOf({ path }) { return String((await readFile(path, 'utf8')).length); }
export const sizeTool = b(sizeOf, { name: 'file_size', description: 'Size of a file', schema });`,
  ],
  invalid: [
    // The branch that reads the model's own path is reported, whatever the other branches declare.
    // (No suggestion: the server lists no definition to carry the bound.)
    {
      code: shippedAssetsServer(
        "const filePath = path.join(process.cwd(), args.component);\n      return { content: [{ type: 'text', text: fs.readFileSync(filePath, 'utf8') }] };",
      ),
      errors: [
        {
          messageId: 'missingUnbounded',
          data: { toolName: 'get_component', readCall: '`fs.readFileSync`', resource: 'path', unbounded: 'Infinity' },
          suggestions: [],
        },
      ],
    },
    // The whole request handed to a function of another module: its `switch` dispatches, and its list holds the contract.
    {
      ...invalid(requestDelegate("return { content: [{ type: 'text', text: await readFile(args.path, 'utf8') }] };"), [
        { toolName: 'read_doc', readCall: '`readFile`', fix: requestDelegateFix },
      ]),
      filename: path.join(requestDelegateFolder, 'tools.ts'),
    },
    // The registry's entry is the tool, its branch in the `tools/call` method the invocation.
    invalid(jsonRpcDocs("return { content: [{ type: 'text', text: await readFile(args.path, 'utf8') }] };"), [
      {
        toolName: 'read_doc',
        readCall: '`readFile`',
        fix: [
          "properties: { path: { type: 'string' } } } },",
          "properties: { path: { type: 'string' } } }, _meta: { 'anthropic/maxResultSizeChars': Infinity } },",
        ],
      },
    ]),
    // A minifier's name for LangChain's `tool`: the call is the factory's all the same, and the fix wraps it.
    {
      code: `import { tool as b } from '@langchain/core/tools';
import { readFile } from 'node:fs/promises';
async function readIt({ path }) { return readFile(path, 'utf8'); }
export const readTool = b(readIt, { name: 'read_file', description: 'Reads a file', schema });`,
      errors: [
        {
          messageId: 'missingUnbounded',
          data: { toolName: 'read_file', readCall: '`readFile`', resource: 'path', unbounded: 'UNBOUNDED' },
          suggestions: [
            {
              messageId: 'setUnbounded',
              output: `import { tool as b } from '@langchain/core/tools';
import { readFile } from 'node:fs/promises';
import { classifyTool, UNBOUNDED } from 'tool-result-guard';
async function readIt({ path }) { return readFile(path, 'utf8'); }
export const readTool = classifyTool(b(readIt, { name: 'read_file', description: 'Reads a file', schema }), { reads: 'path', maxResultSizeChars: UNBOUNDED });`,
            },
          ],
        },
      ],
    },
  ],
});

/** A JSON-RPC server of module functions whose `read_doc` branch runs `body` (see `jsonRpcMessageServer`). */
const jsonRpcMessageDocs = (route: 'switch' | 'if', body: string): string =>
  jsonRpcMessageServer({
    prelude: "import { readFile } from 'node:fs/promises';",
    name: 'read_doc',
    contract: "description: 'Reads a document', inputSchema: { type: 'object', properties: { path: { type: 'string' } } }",
    body,
    route,
  });

const jsonRpcMessageFix: [string, string] = [
  "properties: { path: { type: 'string' } } } },",
  "properties: { path: { type: 'string' } } }, _meta: { 'anthropic/maxResultSizeChars': Infinity } },",
];

/** An elizaOS action whose handler takes the model's parameters from its options (`options.parameters`). */
const elizaAction = (body: string): string => `import { readFile } from 'node:fs/promises';
export const readDocAction = {
  name: 'READ_DOC',
  similes: ['OPEN_DOC'],
  description: 'Reads the document at a path',
  validate: async () => true,
  handler: async (_runtime, message, _state, options) => {
    const filePath = options?.parameters?.path;
    ${body}
  },
};
`;

/** A one-tool low-level server whose handler guards with a predicate of the module (`if (!isSupportedToolName(name))`). */
const predicateGuardedServer = (body: string): string => `import { readFile } from 'node:fs/promises';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
const TOOL_NAME = 'read_doc';
const TOOL_ALIASES = ['doc'];
const server = new Server({ name: 'docs', version: '1.0.0' }, { capabilities: { tools: {} } });
function isSupportedToolName(name) {
  return name === TOOL_NAME || TOOL_ALIASES.includes(name);
}
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: TOOL_NAME, description: 'Reads a document', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } }] }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name, arguments: args } = request.params;
  if (!isSupportedToolName(name)) {
    throw new Error(\`Unknown tool: \${name}\`);
  }
  ${body}
});
`;

ruleTester.run('require-unbounded-self-reading-tool: first-contact round 26', rule, {
  valid: [
    // unknown (the paths go to an imported `run`), and what the contract says comes back is the files' commit
    // history, facts about them, not what is in them ("Get git commit history for one or more files").
    "import { tool } from 'ai';\nimport { z } from 'zod';\nimport { run } from './git.js';\nexport const historyTool = tool({ name: 'get_file_history', description: 'Get git commit history for one or more files to understand their evolution', inputSchema: z.object({ filePaths: z.array(z.string()) }), execute: async ({ filePaths }) => run(`git log -- ${filePaths.join(' ')}`) });",
    "import { tool } from 'ai';\nimport { z } from 'zod';\nimport { run } from './git.js';\nexport const commitsTool = tool({ name: 'get_recent_commits', description: 'Get recent commits that modified the same files', inputSchema: z.object({ filePaths: z.array(z.string()) }), execute: async ({ filePaths }) => run(`git log -5 -- ${filePaths.join(' ')}`) });",
    // The one tool past the predicate's guard answers with a size.
    predicateGuardedServer("return { content: [{ type: 'text', text: String((await readFile(args.path, 'utf8')).length) }] };"),
    // The action answers with a size of what it read at the path its options carry.
    elizaAction("const text = await readFile(filePath, 'utf8');\n    return { success: true, text: String(text.length) };"),
    // The `tools/call` method's handler answers with a size of what it read.
    jsonRpcMessageDocs(
      'switch',
      "writeResponse(id, { content: [{ type: 'text', text: String((await readFile(args.path, 'utf8')).length) }] });\n    return;",
    ),
    jsonRpcMessageDocs(
      'if',
      "writeResponse(id, { content: [{ type: 'text', text: String((await readFile(args.path, 'utf8')).length) }] });\n    return;",
    ),
  ],
  invalid: [
    // The same tool whose description says it gets the files' contents: the contract says it reads.
    readByContract(
      "import { tool } from 'ai';\nimport { z } from 'zod';\nimport { run } from './git.js';\nexport const showTool = tool({ name: 'get_files', description: 'Get the contents of one or more files at a revision', inputSchema: z.object({ filePaths: z.array(z.string()) }), execute: async ({ filePaths }) => run(`git show HEAD -- ${filePaths.join(' ')}`) });",
      "from './git.js';\n",
    ),
    // A guard through the module's predicate, which compares the name with one tool's: the rest of the handler is that tool.
    invalid(predicateGuardedServer("return { content: [{ type: 'text', text: await readFile(args.path, 'utf8') }] };"), [
      {
        toolName: 'read_doc',
        readCall: '`readFile`',
        fix: [
          "properties: { path: { type: 'string' } } } }] }));",
          "properties: { path: { type: 'string' } } }, _meta: { 'anthropic/maxResultSizeChars': Infinity } }] }));",
        ],
      },
    ]),
    // The parameters the model filled in are in the handler's options: the path there is the model's.
    ((code) => ({
      code,
      errors: [
        {
          messageId: 'missingUnbounded' as const,
          data: { toolName: 'READ_DOC', readCall: '`readFile`', resource: 'path', unbounded: 'Infinity' },
          suggestions: [
            { messageId: 'setUnbounded' as const, output: code.replace('\n  },\n};', '\n  },\n  maxResultSizeChars: Infinity,\n};') },
          ],
        },
      ],
    }))(elizaAction("const text = await readFile(filePath, 'utf8');\n    return { success: true, text };")),
    // `case 'tools/call': await handleToolCall(message)`: the function handed the message is the call handler,
    // `params.name` of its `const params = message.params || {}` the requested name.
    invalid(
      jsonRpcMessageDocs(
        'switch',
        "writeResponse(id, { content: [{ type: 'text', text: await readFile(args.path, 'utf8') }] });\n    return;",
      ),
      [{ toolName: 'read_doc', readCall: '`readFile`', fix: jsonRpcMessageFix }],
    ),
    // The same routed by `if (message.method === 'tools/call')`.
    invalid(
      jsonRpcMessageDocs('if', "writeResponse(id, { content: [{ type: 'text', text: await readFile(args.path, 'utf8') }] });\n    return;"),
      [{ toolName: 'read_doc', readCall: '`readFile`', fix: jsonRpcMessageFix }],
    ),
  ],
});

/** A tool an SDK's fluent builder makes: `new Tool(name).description(…).input(schema).handler(fn).build()`. */
function builtTool(name: string, description: string, schema: string, handler: string, root = 'new Tool'): string {
  return `import { Tool } from './sdk/tool.js';\nimport { z } from 'zod';\nimport { readFile } from 'node:fs/promises';\nexport const built = ${root}('${name}')\n  .description('${description}')\n  .input(z.object(${schema}))\n  .handler(async (input) => ${handler})\n  .build();`;
}

ruleTester.run('require-unbounded-self-reading-tool: first-contact round 27', rule, {
  valid: [
    // The builder's tool answers with a size of what it read.
    builtTool('read_file', 'Read a file', '{ path: z.string() }', "({ size: (await readFile(input.path, 'utf8')).length })"),
    // A command-line parser's chain is no tool, though its action hands back what it read: its arguments are text,
    // not a schema, and nothing in it spells `tool`. (The builder class itself is the state rule's case: it reads nothing.)
    "import { program } from 'commander';\nimport { readFile } from 'node:fs/promises';\nprogram.command('cat').description('Print a file').arguments('<file>').action(async (file) => readFile(file, 'utf8'));",
    // A slug names one of a fixed site's pages, whatever URL its description speaks of: the service looks it up there.
    "import { tool } from 'ai';\nimport { z } from 'zod';\nexport const problem = tool({ description: 'Retrieves a single problem by titleSlug', inputSchema: z.object({ titleSlug: z.string().describe('Problem URL slug (e.g. two-sum), the path segment after /problems/') }), execute: async ({ titleSlug }) => service.fetchProblem(titleSlug) });",
    // An editor that offers no operation that reads.
    "import { tool } from 'ai';\nimport { z } from 'zod';\nexport const editor = tool({ description: 'Create and edit files', inputSchema: z.object({ command: z.enum(['create', 'str_replace', 'insert']), path: z.string().describe('Path to the file to edit') }), execute: async (params) => instance.edit(params) });",
  ],
  invalid: [
    // The builder's tool hands back what is at the model's path. No object holds its contract: reported without a fix.
    unfixedRead(
      builtTool('read_file', 'Read the contents of a file', '{ path: z.string() }', "({ content: await readFile(input.path, 'utf8') })"),
      'read_file',
    ),
    // Named by a static constructor (`Tool.create(name)`), ending at the handler (no `build()`).
    unfixedRead(
      `import { Tool } from './sdk/tool.js';\nimport { z } from 'zod';\nimport { readFile } from 'node:fs/promises';\nexport const built = Tool.create('view_file')\n  .description('View a file')\n  .input(z.object({ path: z.string() }))\n  .handler(async (input) => ({ content: await readFile(input.path, 'utf8') }));`,
      'view_file',
    ),
    // `str_replace_editor` with `command: view | create | …`: the model may choose `view`, which hands the file back.
    readByContract(
      "import { tool } from 'ai';\nimport { z } from 'zod';\nexport const editor = tool({ name: 'str_replace_editor', description: 'View, create, and edit files in the filesystem', inputSchema: z.object({ command: z.enum(['view', 'create', 'str_replace', 'insert', 'undo_edit']), path: z.string().describe('Path to the file to edit') }), execute: async (params) => instance.edit(params) });",
      "from 'zod';\n",
    ),
  ],
});
