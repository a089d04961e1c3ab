// Tool shapes harnesses write around the SDKs (first contact rounds 5 and 6): a package's own
// registration helper, a handler factory member, an action that states when to use it instead of a
// schema, a handler map the package indexes by name, and a tool module named by its manifest.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { findToolDefinitions, getInvocation } from '../../src/recognition/index.js';
import { loadModule, rememberProgramText } from '../../src/recognition/module-graph.js';
import { toolContract } from '../../src/recognition/tool-contract.js';
import { manifestOfModule } from '../../src/recognition/tool-manifests.js';
import { settings, snippet } from './input-flow/snippets.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'rules', 'fixtures');

function definitionsOf(code: string) {
  const parsed = snippet(code);
  const { file } = parsed;
  return { file, text: parsed.text, definitions: findToolDefinitions(file.program, settings, { filePath: file.filePath }) };
}

function definitionsInFixture(...parts: string[]) {
  const filePath = path.join(fixtures, ...parts);
  const file = loadModule(filePath);
  if (!file) throw new Error(`no fixture ${filePath}`);
  return { file, definitions: findToolDefinitions(file.program, settings, { filePath }) };
}

describe("a package's registration helper", () => {
  const helper = `function registerToolConditional(toolName, schema, handler) {
  if (isToolEnabled(toolName)) server.registerTool(toolName, schema, handler);
}
registerToolConditional('ssh_tail', { description: 'Tail a remote file', inputSchema: { path: z.string() } }, async ({ path }) => tail(path));
registerToolConditional('ssh_status', { description: 'Connection status' }, async () => status());`;

  it('makes each call a tool, named by the argument the helper passes on, with its config and handler', () => {
    const { definitions } = definitionsOf(helper);
    expect(definitions.map((definition) => [definition.shape, definition.name])).toEqual([
      ['mcp-registration', 'ssh_tail'],
      ['mcp-registration', 'ssh_status'],
    ]);
    expect(toolContract(definitions[0]!)).toMatchObject({ description: 'Tail a remote file', inputs: [{ name: 'path' }] });
  });

  it('does not make the registration inside the helper a tool (its name is a parameter)', () => {
    const { definitions } = definitionsOf(helper);
    expect(definitions.some((definition) => definition.name === 'toolName')).toBe(false);
    // A registration named by a constant inside a function is still a tool.
    const own = definitionsOf(`function setup(server) { server.tool('read', 'Read', {}, async (args) => read(args)); }`);
    expect(own.definitions.map((definition) => definition.name)).toEqual(['read']);
  });

  it('follows an imported helper and runs the function it registers around the handler on every call', () => {
    const { file, definitions } = definitionsOf(`import { registerDatabaseTool } from './register-helper.js';
registerDatabaseTool('describe-index', { description: 'Describe an index', inputSchema: {} }, async (args, client) => client.describe(args.name));`);
    expect(definitions.map((definition) => definition.name)).toEqual(['describe-index']);
    const [definition] = definitions;
    expect(definition!.registrationWrapper).toMatchObject({ helper: 'registerDatabaseTool' });
    expect(definition!.registrationWrapper!.file.filePath).toBe(path.join(fixtures, 'self-reading', 'register-helper.ts'));
    expect(getInvocation(definition!, settings, file).entries).toHaveLength(1);
  });

  it('is no helper when the function does not hand a parameter on as the name and another as the handler', () => {
    const { definitions } = definitionsOf(`function log(name, fn) { console.log(name); return fn; }
log('read', async () => read());`);
    expect(definitions).toEqual([]);
  });
});

describe('a handler factory member', () => {
  it('takes the function the factory returns as the invocation, inline or declared in the module', () => {
    const { file, text, definitions } =
      definitionsOf(`export const READ = declareTool({ name: 'read_doc', description: 'Read a doc', inputSchema: { path: z.string() },
  factory: (context) => async (input) => readFile(input.path, 'utf8') });
function createSearchHandler(context) { let key; return async (input) => search(input.query, (key ??= context.key)); }
export const SEARCH = declareTool({ name: 'search_docs', description: 'Search', inputSchema: { query: z.string() }, factory: createSearchHandler });`);
    expect(definitions.map((definition) => definition.name)).toEqual(['read_doc', 'search_docs']);
    const [read, search] = definitions.map((definition) => getInvocation(definition, settings, file).entries);
    expect(read!.map((entry) => text(entry.fn))).toEqual(["async (input) => readFile(input.path, 'utf8')"]);
    expect(search).toHaveLength(1);
  });

  it('is no factory when the member returns no function', () => {
    const { definitions } = definitionsOf(
      `export const X = declareTool({ name: 'x', description: 'X', inputSchema: {}, factory: () => ({ ready: true }) });`,
    );
    expect(definitions).toEqual([]);
  });
});

describe('an action that states when to use it instead of a schema', () => {
  it('is a tool with its name, description and handler (ElizaOS actions)', () => {
    const { definitions } =
      definitionsOf(`var followRoomAction = { name: 'FOLLOW_ROOM', similes: ['FOLLOW_CHAT'], description: 'Start following this channel',
  validate: async (runtime, message) => true, handler: async (runtime, message, state, options, callback) => callback({ text: 'ok' }) };`);
    expect(definitions.map((definition) => [definition.shape, definition.name])).toEqual([['plain-object', 'FOLLOW_ROOM']]);
  });

  it('is no tool without a way to tell when to use it (a command object of a CLI)', () => {
    const { definitions } = definitionsOf(
      `const build = { name: 'build', description: 'Build the project', handler: async (argv) => run(argv) };`,
    );
    expect(definitions).toEqual([]);
  });
});

describe('a handler map the package indexes by name', () => {
  it('joins each tool list entry to the function the map holds under its name', () => {
    const { definitions } = definitionsInFixture('name-dispatch', 'looked-up-map', 'definitions.ts');
    expect(definitions.map((definition) => [definition.shape, definition.name])).toEqual([
      ['mcp-dispatch', 'read_note'],
      ['mcp-dispatch', 'note_count'],
    ]);
    const entries = definitions[0]!.joinedInvocation!();
    expect(entries.map((entry) => path.basename(entry.file.filePath))).toEqual(['handlers.ts']);
  });
});

describe('a handler map of the linted file itself (a bundle)', () => {
  it("joins a `{ toolName, inputSchema }` definition to the map's function, a bundle's `var`s included", () => {
    const code = `var toolName10 = 'read_files';
var readFilesParams = { toolName: toolName10, description: 'Read files', inputSchema: { paths: z.array(z.string()) } };
var toolHandlers = { read_files: handleReadFiles, end_turn: handleEndTurn, spawn: makeSpawnHandler() };
async function handleReadFiles(params) { return Promise.all(params.paths.map((p) => readFile(p, 'utf8'))); }
async function handleEndTurn() { return 'done'; }
function runTool(toolName, input) { const handler = toolHandlers[toolName]; return handler(input); }`;
    const parsed = snippet(code);
    rememberProgramText(parsed.file.program, code, parsed.file.filePath);
    const definitions = findToolDefinitions(parsed.file.program, settings, { filePath: parsed.file.filePath });
    expect(definitions.map((definition) => [definition.shape, definition.name])).toEqual([['mcp-dispatch', 'read_files']]);
    expect(definitions[0]!.joinedInvocation!().map((entry) => parsed.text(entry.fn).slice(0, 30))).toEqual([
      'async function handleReadFiles',
    ]);
  });
});

describe('a tool module', () => {
  it('is the exported handler, named and described by the manifest that names its module', () => {
    const { file, definitions } = definitionsInFixture('tool-module', 'src', 'tools', 'read-note.ts');
    expect(definitions.map((definition) => [definition.shape, definition.name])).toEqual([['module', 'read_note']]);
    expect(toolContract(definitions[0]!)).toMatchObject({
      description: 'Reads the note at the path and returns its text.',
      hasInputSchema: true,
      inputs: [{ name: 'path' }],
    });
    expect(getInvocation(definitions[0]!, settings, file).entries).toHaveLength(1);
  });

  it('is named by its file without a manifest, and runs the logic its options name', () => {
    const { file, definitions } = definitionsInFixture('tool-module', 'src', 'tools', 'note_status.ts');
    expect(definitions.map((definition) => definition.name)).toEqual(['note_status']);
    expect(getInvocation(definitions[0]!, settings, file).entries.map((entry) => entry.fn.type)).toEqual(['ArrowFunctionExpression']);
  });

  it('is none when the module exports no schema beside its handler', () => {
    expect(definitionsInFixture('tool-module', 'src', 'tools', 'helpers.ts').definitions).toEqual([]);
  });

  it('reads block scalars and nested names of a YAML manifest', () => {
    expect(manifestOfModule(path.join(fixtures, 'tool-module', 'src', 'tools', 'read-note.ts'))).toEqual({
      name: 'read_note',
      description: 'Reads the note at the path and returns its text.',
    });
    expect(manifestOfModule(path.join(fixtures, 'tool-module', 'src', 'tools', 'note_status.ts'))).toBeUndefined();
  });
});
