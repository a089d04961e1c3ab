// Recognition of the SDK tool shapes (issue 12 section 2): each shape with the
// name the model sees and an invocation whose input parameter is right, so
// the flow analysis can judge it. The snippets are written for these tests in
// the shape of each SDK's public API.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { parse } from '@typescript-eslint/parser';
import type { TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';

import {
  DEFAULT_RECOGNITION_SETTINGS,
  assignParents,
  buildFileIndex,
  findToolDefinitions,
  getInvocation,
  readsInputChosenResource,
} from '../../src/recognition/index.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'rules', 'fixtures', 'self-reading');
const settings = DEFAULT_RECOGNITION_SETTINGS;

function tools(code: string) {
  const program = parse(code, { range: true, loc: true, sourceType: 'module' }) as TSESTree.Program;
  assignParents(program);
  const file = buildFileIndex(program, path.join(fixtures, 'tool.ts'));
  return findToolDefinitions(program, settings).map((definition) => {
    const invocation = getInvocation(definition, settings, file);
    const reads = readsInputChosenResource(invocation, file, { settings });
    return {
      name: definition.name,
      shape: definition.shape,
      line: definition.node.loc.start.line,
      entries: invocation.entries.length,
      inputParameters: invocation.entries.map((entry) => entry.inputParameters),
      reads: reads.map((finding) => finding.callName),
    };
  });
}

describe('playwright MCP: defineTool / defineTabTool with schema and handle', () => {
  it('names the tool by schema.name and takes its input from handle’s second parameter', () => {
    const found = tools(`import { readFile } from 'node:fs/promises';
const openFile = defineTabTool({
  capability: 'core',
  schema: { name: 'browser_open_file', title: 'Open', inputSchema: schema, type: 'readOnly' },
  handle: async (tab, params, response) => { response.addResult(await readFile(params.path, 'utf8')); },
});
const close = defineTool({
  schema: { name: 'browser_close', inputSchema: schema, type: 'action' },
  async handle(context) { await context.closeBrowserContext(); },
});`);
    expect(found.map(({ name, line, inputParameters }) => ({ name, line, inputParameters }))).toEqual([
      { name: 'browser_open_file', line: 2, inputParameters: [[1]] },
      { name: 'browser_close', line: 7, inputParameters: [[1]] },
    ]);
    expect(found[0]!.reads).toEqual(['readFile']);
  });

  it('leaves a defineTool whose config has neither schema.name nor handle to the other shapes', () => {
    expect(
      tools(`const x = defineTabTool({ schema: { title: 'no name' }, handle: async () => {} });
const y = defineTabTool({ schema: { name: 'no_handle' } });`),
    ).toEqual([]);
  });
});

describe('bundler output: esbuild keep-names wrappers and renamed imports', () => {
  it('sees through __name(fn, "execute") and a factory renamed tool2 by the bundler', () => {
    const found = tools(`var createReadTool = /* @__PURE__ */ __name((context) => createTool({
  name: "read_file",
  parameters: schema,
  execute: /* @__PURE__ */ __name(async (input) => context.fs.read(input.file_path), "execute")
}), "createReadTool");
function extract(client) {
  return tool2({ description: 'extract', inputSchema, execute: async ({ urls }) => client.extract(urls) });
}`);
    expect(found.map(({ name, entries }) => ({ name, entries }))).toEqual([
      { name: 'read_file', entries: 1 },
      { name: undefined, entries: 1 },
    ]);
  });

  it('does not take any call ending in digits for a factory', () => {
    expect(tools(`tools2({ description: 'x', execute: async () => 1 }); v2({ execute: async () => 1 });`)).toEqual([]);
  });
});

describe('@agentic: @aiFunction methods of an AIFunctionsProvider and createAIFunction', () => {
  it('recognises the TypeScript decorator on a method, named by the decorator', () => {
    const found = tools(`import { readFile } from 'node:fs/promises';
class FilesClient extends AIFunctionsProvider {
  @aiFunction({ name: 'files_read', description: 'read', inputSchema: schema })
  async read(input) { return readFile(input.path, 'utf8'); }
}`);
    expect(found.map(({ name, shape, line, reads }) => ({ name, shape, line, reads }))).toEqual([
      { name: 'files_read', shape: 'decorator', line: 3, reads: ['readFile'] },
    ]);
  });

  it('recognises the compiled forms: esbuild decorator elements and tsc __decorate', () => {
    const found = tools(`var _read_dec, _search_dec, _a, _init;
var FilesClient = class extends (_a = AIFunctionsProvider, _read_dec = [aiFunction({
  name: "files_read",
  inputSchema: schema
})], _search_dec = [aiFunction({ name: "files_search", inputSchema: schema })], _a) {
  async read(input) { return readFile(input.path, "utf8"); }
  async search(query) { return this.index.find(query); }
};
_init = __decoratorStart(_a);
__decorateElement(_init, 1, "read", _read_dec, FilesClient);
__decorateElement(_init, 1, "search", _search_dec, FilesClient);
class Other extends AIFunctionsProvider {
  async lookup(input) { return readFile(input.path, "utf8"); }
}
__decorate([aiFunction({ name: "other_lookup", inputSchema: schema }), __metadata("design:type", Function)], Other.prototype, "lookup", null);`);
    expect(found.map(({ name, reads }) => ({ name, reads }))).toEqual([
      { name: 'files_read', reads: ['readFile'] },
      { name: 'files_search', reads: [] },
      { name: 'other_lookup', reads: ['readFile'] },
    ]);
  });

  it('recognises createAIFunction(config, fn) and ignores an aiFunction with no method to bind', () => {
    const found = tools(`const calc = createAIFunction({ name: 'calculator', inputSchema: schema }, async (input) => evaluate(input.expr));
const loose = [aiFunction({ name: 'nowhere' })];`);
    expect(found.map(({ name, entries }) => ({ name, entries }))).toEqual([{ name: 'calculator', entries: 1 }]);
  });
});

describe('Anthropic SDK: betaTool / betaZodTool and tool classes', () => {
  it('recognises betaTool and betaZodTool with run', () => {
    const found = tools(`export function readTool(ctx) {
  return betaTool({ name: 'read', inputSchema: schema, description: 'read', run: async (input) => readFile(input.file_path, 'utf8') });
}
const grep = betaZodTool({ name: 'grep', inputSchema: z.object({}), description: 'grep', run: async ({ path }) => search(path) });`);
    expect(found.map(({ name, reads }) => ({ name, reads }))).toEqual([
      { name: 'read', reads: ['readFile'] },
      { name: 'grep', reads: [] },
    ]);
  });

  it('recognises a class implementing a …ToolHandlers interface: every method is a command of one tool', () => {
    const found = tools(`export class LocalMemoryTool implements MemoryToolHandlers {
  constructor(root) { this.root = root; }
  async view(command) { return readFile(command.path, 'utf8'); }
  async create(command) { await writeFile(command.path, command.file_text); return 'ok'; }
  private check(p) { return p; }
}`);
    expect(found.map(({ name, shape, entries, reads }) => ({ name, shape, entries, reads }))).toEqual([
      { name: 'memory', shape: 'class', entries: 2, reads: ['readFile'] },
    ]);
  });

  it('recognises a class named …Tool by its invocation method, not one without it', () => {
    const found = tools(`var CalendarViewTool = class extends CalendarBase {
  name = "calendar_view";
  async _call(query) { return this.client.list(query); }
};
class ToolboxTool { describe() { return 'no invocation'; } }
class Unrelated extends CalendarBase { async _call(q) { return q; } }`);
    expect(found.map(({ name, shape }) => ({ name, shape }))).toEqual([{ name: 'calendar_view', shape: 'class' }]);
  });
});

describe('harness factories: create…Tool functions returning { name, execute }', () => {
  it('takes the object a create…ToolDefinition factory returns, input after a toolCallId', () => {
    const found = tools(`export function createReadToolDefinition(cwd, options) {
  const ops = options?.operations ?? defaultOps;
  return {
    name: "read",
    parameters: readSchema,
    async execute(_toolCallId, { path }, signal) { return ops.readFile(resolve(cwd, path)); },
  };
}
const createLsTool = (cwd) => ({ name: 'ls', parameters: lsSchema, execute: async (params) => list(params.path) });
function describeTool() { return { name: 'not a factory', execute: () => 1 }; }`);
    expect(found.map(({ name, shape, line, inputParameters }) => ({ name, shape, line, inputParameters }))).toEqual([
      { name: 'read', shape: 'plain-object', line: 3, inputParameters: [[1]] },
      { name: 'ls', shape: 'plain-object', line: 9, inputParameters: [[0]] },
    ]);
  });
});

describe('tool maps, LlamaIndex, LangChain and AI SDK variants', () => {
  it('names a tool in a tools map by its key, factory calls and plain objects alike', () => {
    const found = tools(`const agent = new Agent({
  tools: {
    submit: tool({ description: 'submit', inputSchema, execute: async (input) => save(input) }),
    lookup: { description: 'look up', parameters: schema, execute: async ({ url }) => (await fetch(url)).text() },
    named: tool({ name: 'explicit_name', execute: async () => 1 }),
  },
});
const other = { helper: { description: 'outside a tools map, but its whole contract is stated', parameters: schema, execute: async () => 1 } };
const data = { row: { description: 'no input schema, handed to no call: data, not a tool', execute: async () => 1 } };`);
    // An object that states a description and an input schema and carries an invocation is a
    // tool wherever it sits (tool-shapes/contract-objects.ts); without the schema, only a tools map makes it one.
    expect(found.map(({ name, reads }) => ({ name, reads }))).toEqual([
      { name: 'submit', reads: [] },
      { name: 'lookup', reads: ['fetch'] },
      { name: 'explicit_name', reads: [] },
      { name: 'helper', reads: [] },
    ]);
  });

  it('recognises dynamicTool, LangChain tool(namedFunction, config) and FunctionTool.from', () => {
    const found = tools(`const dyn = dynamicTool({ description: 'dyn', inputSchema, execute: async (input) => run(input) });
const genkitDyn = ai.dynamicTool({ name: 'gk_dyn', inputJsonSchema: schema }, async (input) => run(input));
async function runTask(input) { return input.description; }
const task = tool(runTask, { name: 'task', schema });
class Actions {
  async getRequest(input) { return (await fetch(input.url)).text(); }
  toTools() {
    return [FunctionTool.from(this.getRequest.bind(this), this.metadata('GET')),
            FunctionTool.from(async (input) => input, { name: 'echo', description: 'echo' })];
  }
}`);
    expect(found.map(({ name, entries, reads }) => ({ name, entries, reads }))).toEqual([
      { name: 'dyn', entries: 1, reads: [] },
      { name: 'gk_dyn', entries: 1, reads: [] },
      { name: 'task', entries: 1, reads: [] },
      { name: undefined, entries: 1, reads: ['fetch'] },
      { name: 'echo', entries: 1, reads: [] },
    ]);
  });
});

describe('OpenAI Agents SDK and AI SDK provider-defined tools', () => {
  it('recognises FunctionTool objects (input is invoke’s second parameter) and built-in tools with a local executor', () => {
    const found = tools(`function patchTool(editor) {
  const fallback = { type: 'function', name: 'apply_patch', parameters, invoke: async (runContext, input) => editor.apply(input) };
  return fallback;
}
const tools = [applyPatchTool({ editor }), shellTool({ name: 'sh', shell: localShell }), shellTool({ environment: remote })];
const agentTool = tool({ name: 'lookup', parameters, execute: async (input) => readFile(input.path, 'utf8') });
const data = { type: 'function', name: 'schema_only' };`);
    expect(found.map(({ name, inputParameters }) => ({ name, inputParameters }))).toEqual([
      { name: 'apply_patch', inputParameters: [[1]] },
      { name: 'apply_patch', inputParameters: [] },
      { name: 'sh', inputParameters: [] },
      { name: 'lookup', inputParameters: [[0]] },
    ]);
  });

  it('recognises provider-defined tools with a local execute, named by the map key or the provider’s tool', () => {
    const found = tools(`const result = await generateText({
  tools: { run_shell: openai.tools.shell({ execute: async ({ action }) => exec(action.command) }) },
});
const bash = anthropic.tools.bash_20250124({ execute: async ({ command }) => exec(command) });
const hosted = openai.tools.webSearch({ searchContextSize: 'high' });`);
    expect(found.map(({ name, shape }) => ({ name, shape }))).toEqual([
      { name: 'run_shell', shape: 'factory' },
      { name: 'bash_20250124', shape: 'factory' },
    ]);
  });
});
