// The MCP and harness tool shapes on their own: which node is the tool, its
// name as the model sees it, where its classification lives, its invocation
// and which parameter holds the model's input.
import { parse } from '@typescript-eslint/parser';
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';

import {
  DEFAULT_RECOGNITION_SETTINGS,
  assignParents,
  findToolDefinitions,
  findToolMember,
  getInvocation,
  walk,
} from '../../src/recognition/index.js';
import { resolveToolName } from '../../src/recognition/tool-name.js';

function definitionsOf(code: string) {
  const program = parse(code, { range: true, loc: true }) as TSESTree.Program;
  assignParents(program);
  return findToolDefinitions(program, DEFAULT_RECOGNITION_SETTINGS);
}

const lowLevel = `import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
const Names = { Read: 'read_file' };
enum Extra { Stat = 'stat_file' }
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [
  { name: Names.Read, inputSchema: {}, _meta: { 'anthropic/maxResultSizeChars': Infinity } },
  { name: 'ls', inputSchema: {} },
] }));
server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
  switch (request.params.name) {
    case Names.Read: return read(request.params.arguments);
    case 'ls':
    case 'dir': return list(request.params.arguments);
    case Extra.Stat: return stat(request.params.arguments);
    default: throw new Error('unknown');
  }
});`;

describe('low-level MCP dispatcher', () => {
  it('makes each case a tool named by its literal or constant, with the dispatcher and its region', () => {
    const definitions = definitionsOf(lowLevel);
    expect(definitions.map((definition) => [definition.shape, definition.name])).toEqual([
      ['mcp-dispatch', 'read_file'],
      ['mcp-dispatch', 'ls'],
      ['mcp-dispatch', 'dir'],
      ['mcp-dispatch', 'stat_file'],
    ]);
    const [read, ls, dir] = definitions;
    expect(read!.node.type).toBe(AST_NODE_TYPES.SwitchCase);
    expect(read!.inputParameter).toBe(0);
    // `case 'ls': case 'dir': …`: both run the body written under `dir`.
    expect(ls!.invocationRegion).toBe(dir!.node);
    const invocation = getInvocation(read!, DEFAULT_RECOGNITION_SETTINGS);
    expect(invocation.entries).toHaveLength(1);
    expect(invocation.entries[0]!.region).toBe(read!.node);
  });

  it('finds the classification in the matching entry of the tool list', () => {
    const [read, ls, , stat] = definitionsOf(lowLevel);
    expect(findToolMember(read!, 'maxResultSizeChars')?.location).toBe('mcp-meta');
    expect(ls!.host?.type).toBe(AST_NODE_TYPES.ObjectExpression);
    expect(findToolMember(ls!, 'maxResultSizeChars')).toBeUndefined();
    // No list entry in the file: nowhere to read or fix the classification.
    expect(stat!.host).toBeUndefined();
  });

  it('takes the arguments parameter as the input when the handler delegates with name and arguments', () => {
    const [definition] = definitionsOf(`import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
async function handleToolCall(name, args) { switch (name) { case 'navigate': return go(args.url); } }
server.setRequestHandler(CallToolRequestSchema, async (request) => handleToolCall(request.params.name, request.params.arguments ?? {}));`);
    expect(definition?.name).toBe('navigate');
    expect(definition?.inputParameter).toBe(1);
  });

  it('finds `if (name === …)` branches, also inside a callback of the handler', () => {
    const definitions = definitionsOf(`import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
  const { name, arguments: args } = request.params;
  if (name === 'noop' && args) log(name);
  void (async () => {
    if (name === 'confirm') { return ask(args); }
    else if ('haiku' === name) { return write(args); }
  })();
});`);
    expect(definitions.map((definition) => definition.name)).toEqual(['confirm', 'haiku']);
    expect(definitions[0]!.node.type).toBe(AST_NODE_TYPES.IfStatement);
  });

  it('ignores switches that are not on the requested tool name', () => {
    expect(
      definitionsOf(`import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
server.setRequestHandler(CallToolRequestSchema, async (request) => { switch (request.params.mode) { case 'a': return 1; } });
function format(kind) { switch (kind) { case 'json': return '{}'; } }
server.setRequestHandler(ReadResourceRequestSchema, async (request) => { switch (request.params.name) { case 'b': return 2; } });`),
    ).toEqual([]);
  });
});

describe('registrations in a loop over names', () => {
  it('registers one tool per written-out name, the first as its name and the rest beside it', () => {
    const [definition, ...others] = definitionsOf(`for (const toolName of ['nexus_recall', 'agent_memory_recall']) {
  server.tool(toolName, 'Recall from memory', { query: z.string() }, async ({ query }) => recall(query));
}`);
    expect(others).toEqual([]);
    expect(definition?.name).toBe('nexus_recall');
    expect(definition?.alsoNamed).toEqual(['agent_memory_recall']);
  });

  it('leaves a list it cannot read, and a variable of another loop, to the name as written', () => {
    const definitions = definitionsOf(`for (const toolName of loadNames()) server.tool(toolName, 'd', {}, async () => 'ok');
for (const toolName of ['a', 'b']) { for (const other of ['c']) server.tool(other, 'd', {}, async () => 'ok'); }`);
    expect(definitions.map((definition) => [definition.name, definition.alsoNamed])).toEqual([
      ['toolName', undefined],
      ['c', undefined],
    ]);
  });
});

describe('object registrations', () => {
  it('recognises FastMCP addTool and single-object registerTool on any receiver', () => {
    const definitions = definitionsOf(`this.server.addTool({ name: 'scrape', execute: async (args) => args.url });
app.registerTool({ name: 'cat', handler: async (args) => args.path });
server.addTool({ description: 'no name', execute: async () => 1 });
server.addTool({ name: 'no invocation' });`);
    expect(definitions.map((definition) => [definition.shape, definition.name, definition.isMcpRegistration])).toEqual([
      ['object-registration', 'scrape', true],
      ['object-registration', 'cat', true],
    ]);
  });

  it('follows a variable and a spread to the object that defines the tool', () => {
    const [definition] = definitionsOf(`const scrapeTool = { name: 'scrape', execute: async (args) => args.url };
server.addTool({ ...scrapeTool, _meta: { pinned: true } });`);
    expect(definition?.name).toBe('scrape');
    expect(definition?.node.loc.start.line).toBe(1);
    expect(definition?.host?.loc.start.line).toBe(2);
    expect(getInvocation(definition!, DEFAULT_RECOGNITION_SETTINGS).entries).toHaveLength(1);
  });
});

describe('MCP task tools', () => {
  it('recognises registerToolTask with createTask as the invocation and the config as host', () => {
    const [definition] = definitionsOf(`server.experimental.tasks.registerToolTask('delay', { description: 'wait' }, {
  async createTask({ ms }, extra) { return extra.taskStore.createTask({ ttl: ms }); },
  async getTask(args, extra) { return extra.taskStore.getTask(extra.taskId); },
});`);
    expect(definition?.name).toBe('delay');
    expect(definition?.host?.type).toBe(AST_NODE_TYPES.ObjectExpression);
    const entries = getInvocation(definition!, DEFAULT_RECOGNITION_SETTINGS).entries;
    expect(entries).toHaveLength(1);
    expect(entries[0]!.fn.loc.start.line).toBe(2);
  });
});

describe('resolveToolName', () => {
  it('resolves literals, constants, const objects, enums and renamable defaults', () => {
    const program = parse(`const A = 'a'; const N = { B: 'b' }; enum E { C = 'c' } f(A, N.B, E.C, override || 'd', 'e', unknown, N.Z);`, {
      range: true,
      loc: true,
    }) as TSESTree.Program;
    assignParents(program);
    const call = (program.body[3] as TSESTree.ExpressionStatement).expression as TSESTree.CallExpression;
    expect(call.arguments.map((argument) => resolveToolName(argument))).toEqual(['a', 'b', 'c', 'd', 'e', undefined, undefined]);
  });

  /** The names `f(…)` is given in `code`, one list per call, in source order. */
  function namesPassed(code: string): (string | undefined)[][] {
    const program = parse(code, { range: true, loc: true }) as TSESTree.Program;
    assignParents(program);
    const calls: (string | undefined)[][] = [];
    walk(program, (node) => {
      if (node.type === AST_NODE_TYPES.CallExpression && node.callee.type === AST_NODE_TYPES.Identifier && node.callee.name === 'f') {
        calls.push(node.arguments.map((argument) => resolveToolName(argument)));
      }
    });
    return calls;
  }

  it('lets the innermost binding decide: a parameter, catch or loop variable, a let or an import hides a module constant', () => {
    expect(
      namesPassed(`import { IMPORTED } from './names';
const READ = 'read_file';
const IMPORTED2 = 'x';
function byParameter(READ) { f(READ); }
try {} catch (READ) { f(READ); }
for (const READ of list) f(READ);
for (let READ = 0; READ < 1; READ += 1) f(READ);
{ let READ = 'changes'; f(READ); }
f(IMPORTED);
const arrow = (READ) => f(READ);
f(READ);`),
    ).toEqual([[undefined], [undefined], [undefined], [undefined], [undefined], [undefined], [undefined], ['read_file']]);
  });

  it('resolves constants of enclosing blocks, var (bundled), chains of constants and nested objects', () => {
    expect(
      namesPassed(`var BUNDLED = 'bundled';
const Names = { Files: { Read: 'read_file' } };
function register() {
  const LOCAL = 'local';
  const ALIAS = LOCAL;
  if (ok) { var HOISTED = 'hoisted'; }
  f(LOCAL, ALIAS, BUNDLED, Names.Files.Read, HOISTED, Names.Files);
}
function other() { const LOCAL = 'other'; }`),
    ).toEqual([['local', 'local', 'bundled', 'read_file', 'hoisted', undefined]]);
  });

  it("resolves tsc's CommonJS exports of a constant (exports.NAME), assigned once at the module's top", () => {
    expect(
      namesPassed(`"use strict";
exports.TWICE = exports.READ = exports.LIST = void 0;
exports.READ = 'read_file';
module.exports.LIST = 'list_files';
exports.TWICE = 'a';
exports.TWICE = 'b';
f(exports.READ, module.exports.LIST, exports.LIST, exports.TWICE, exports.MISSING);
function wrapped(exports) { f(exports.READ); }`),
    ).toEqual([['read_file', 'list_files', 'list_files', undefined, undefined], [undefined]]);
  });
});
