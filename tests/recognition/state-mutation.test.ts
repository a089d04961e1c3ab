// State leakage, asked of the core directly: which outliving state one
// tool's invocation changes (`findOutlivingStateUses`), and where the tool
// declares its scope (`findDeclaredStateScope`). A change to the state
// analysis fails here, next to its cause, before any rule test does.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { findDeclaredStateScope, findOutlivingStateUses } from '../../src/recognition/index.js';
import { snippet } from './state-mutation/snippets.js';

const filePath = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'rules', 'fixtures', 'state', 'tool.ts');

/** The linted file as ESLint would hand it to a rule: its tree, its scopes, and the recognition context over them. */
function analysed(code: string) {
  return snippet(code, filePath);
}

/** Each use one tool's invocation makes: its kind, the words of its message, and the code it is reported at. */
function usesOf(code: string, toolIndex = 0) {
  const { sourceCode, recognition, definitions } = analysed(code);
  const definition = definitions[toolIndex];
  if (!definition) throw new Error('no tool');
  return findOutlivingStateUses(definition, recognition, sourceCode as never).map((use) => ({
    kind: use.messageId,
    data: use.data,
    at: sourceCode.getText(use.node as never),
  }));
}

describe('findOutlivingStateUses: state that outlives the call', () => {
  it('reports module-level collections and variables, and process-wide globals, named for the tool', () => {
    expect(
      usesOf(`const seen = new Set();
let calls = 0;
buildTool({ name: 'remember', async call(input) { seen.add(input.id); calls += 1; process.env.LAST = input.id; return 'ok'; } });`),
    ).toEqual([
      {
        kind: 'mutatesOutlivingState',
        data: { tool: 'remember', action: 'calls `.add()` on', state: 'module-level `seen`' },
        at: 'seen.add(input.id)',
      },
      { kind: 'mutatesOutlivingState', data: { tool: 'remember', action: 'assigns', state: 'module-level `calls`' }, at: 'calls += 1' },
      {
        kind: 'mutatesOutlivingState',
        data: { tool: 'remember', action: 'assigns a property of', state: 'the process-wide global `process.env.LAST`' },
        at: 'process.env.LAST = input.id',
      },
    ]);
  });

  it("reports a class tool's instance fields, and nothing for state the call creates", () => {
    expect(
      usesOf(`class ReadTool extends BaseTool {
  cache = new Map();
  calls = 0;
  async call(input) { this.calls++; this.cache.set(input.path, 1); const local = new Map(); local.set('a', 1); return 'ok'; }
}`),
    ).toEqual([
      {
        kind: 'mutatesOutlivingState',
        data: { tool: 'ReadTool', action: 'assigns', state: 'instance field `this.calls`' },
        at: 'this.calls++',
      },
      {
        kind: 'mutatesOutlivingState',
        data: { tool: 'ReadTool', action: 'calls `.set()` on', state: 'instance field `this.cache`' },
        at: 'this.cache.set(input.path, 1)',
      },
    ]);
  });

  it('leaves state the call undoes before it returns', () => {
    expect(
      usesOf(`const active = new Set();
buildTool({ name: 'lock', async call(input) { active.add(input.id); try { return 'ok'; } finally { active.delete(input.id); } } });`),
    ).toEqual([]);
  });

  it('follows a helper the invocation calls, reports at the call, once per state however many calls', () => {
    expect(
      usesOf(`const history = [];
function record(entry) { history.push(entry); }
buildTool({ name: 'log', async call(input) { record(input.text); record(input.more); return 'ok'; } });`),
    ).toEqual([
      {
        kind: 'mutatesOutlivingState',
        data: { tool: 'log', action: 'calls `.push()` on', state: 'module-level `history` (in `record`, which the invocation calls)' },
        at: 'record(input.text)',
      },
    ]);
  });

  it('counts one state once per function, and names the tool by the constant’s value', () => {
    expect(
      usesOf(`const NAME = 'named_tool';
const store = new Map();
buildTool({ name: NAME, async call(input) { store.set(input.k, input.v); store.set(input.k, 2); return 'ok'; } });`),
    ).toEqual([
      {
        kind: 'mutatesOutlivingState',
        data: { tool: 'named_tool', action: 'calls `.set()` on', state: 'module-level `store`' },
        at: 'store.set(input.k, input.v)',
      },
    ]);
  });

  it('reports a carrier created once (a cookie jar) and a long-lived object the tool drives', () => {
    expect(
      usesOf(`import { CookieJar } from 'tough-cookie';
const jar = new CookieJar();
buildTool({ name: 'get', async call(input) { return fetchWithJar(jar, input.url); } });`),
    ).toEqual([
      { kind: 'usesSharedCarrier', data: { tool: 'get', carrier: 'cookie jar', name: 'jar', where: 'at module level' }, at: 'jar' },
    ]);
    expect(
      usesOf(`export const fill = (v3) => buildTool({ name: 'fill', async call({ text }) {
  const page = await v3.context.awaitActivePage();
  await page.click(10, 20);
  return 'ok';
} });`),
    ).toEqual([
      {
        kind: 'drivesSharedObject',
        data: { tool: 'fill', method: 'click', object: '`page`, taken from `v3`, a parameter of the enclosing function `fill`' },
        at: 'page.click(10, 20)',
      },
    ]);
  });

  it('reports a carrier that the call also changes once, at the change', () => {
    expect(
      usesOf(`import { CookieJar } from 'tough-cookie';
let jar = new CookieJar();
buildTool({ name: 'reset', async call(input) { await fetchWithJar(jar, input.url); jar = new CookieJar(); return 'ok'; } });`),
    ).toEqual([
      {
        kind: 'mutatesOutlivingState',
        data: { tool: 'reset', action: 'assigns', state: 'module-level `jar`' },
        at: 'jar = new CookieJar()',
      },
    ]);
  });

  it("keeps a dispatcher's state to the branch that changes it", () => {
    const code = `import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
const store = new Map();
async function run(request) {
  switch (request.params.name) {
    case 'put': store.set(request.params.arguments.k, 1); return 'ok';
    case 'get': return store.get(request.params.arguments.k);
  }
}
server.setRequestHandler(CallToolRequestSchema, async (request) => run(request));`;
    expect(analysed(code).definitions.map((definition) => definition.name)).toEqual(['put', 'get']);
    expect(usesOf(code, 0)).toEqual([
      {
        kind: 'mutatesOutlivingState',
        data: { tool: 'put', action: 'calls `.set()` on', state: 'module-level `store`' },
        at: 'store.set(request.params.arguments.k, 1)',
      },
    ]);
    expect(usesOf(code, 1)).toEqual([]);
  });
});

describe('findDeclaredStateScope: where the tool declares its scope', () => {
  /** The declared scope's value as written, and where it was found. */
  function declaredScope(code: string, toolName: string) {
    const { recognition, definitions } = analysed(code);
    const definition = definitions.find((candidate) => candidate.name === toolName);
    if (!definition) throw new Error(`no tool ${toolName}`);
    const member = findDeclaredStateScope(definition, recognition);
    return member && { value: member.value && code.slice(...member.value.range), location: member.location };
  }

  it('finds the member on the tool, in a classifyTool wrapper, in a base class of the same file, or nowhere', () => {
    const code = `import { tool } from 'ai';
buildTool({ name: 'own', stateScope: 'session', async call() { return 'ok'; } });
export const wrapped = classifyTool(tool({ name: 'wrapped', execute: async () => 'ok' }), { stateScope: 'isolated' });
abstract class SessionTool extends BaseTool { stateScope = 'agent'; }
class Inherits extends SessionTool { async call() { return 'ok'; } }
buildTool({ name: 'undeclared', async call() { return 'ok'; } });`;
    expect(declaredScope(code, 'own')).toEqual({ value: "'session'", location: 'property' });
    expect(declaredScope(code, 'wrapped')).toEqual({ value: "'isolated'", location: 'property' });
    expect(declaredScope(code, 'Inherits')).toEqual({ value: "'agent'", location: 'class-member' });
    expect(declaredScope(code, 'undeclared')).toBeUndefined();
  });
});
