import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import * as typescriptParser from '@typescript-eslint/parser';
import { RuleTester } from '@typescript-eslint/rule-tester';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

import rule from '../../src/rules/declare-tool-state-scope.js';
import plugin from '../../src/eslint-plugin.js';
import { harnessTypesDirectory, harnessTypesFile, stateScopeCases } from './harness-types-cases.js';
import { jsonRpcMessageServer, jsonRpcServer } from './json-rpc-server.js';

const ruleTester = new RuleTester();

const mutates = 'mutatesOutlivingState' as const;
const uses = 'usesSharedCarrier' as const;

ruleTester.run('declare-tool-state-scope', rule, {
  valid: [
    // declared scopes, every shape
    `let calls = 0; export const t = buildTool({ name: 'a', stateScope: 'session', async call(input) { calls++; return 'x'; } });`,
    `const cache = new Map(); export class CachedTool extends BaseTool { stateScope = 'agent' as const; async execute(input) { cache.set(input.k, 1); } }`,
    `const jar = new CookieJar(); server.registerTool('browse', { description: 'd', _meta: { 'anthropic/stateScope': 'session' } }, async (args) => { await jar.setCookie(args.c, args.u); return { content: [] }; });`,
    `let n = 0; export const t = defineTool({ name: 't', stateScope: 'isolated', execute: async () => { n += 1; } });`,
    `const seen = new Set(); export const t = tool(async (input) => { seen.add(input.id); return 'ok'; }, { name: 't', schema: {}, stateScope: 'session' });`,
    `class Base extends BaseTool { static stateScope = 'session'; } const seen = []; class Child extends Base { async call(input) { seen.push(input); } }`,
    `const SCOPE = 'session'; let n = 0; export const t = buildTool({ name: 'a', stateScope: SCOPE, async call() { n++; } });`,
    // a framework tool classified by the classifyTool wrapper (its type has no stateScope field)
    `import { tool } from 'ai'; import { classifyTool } from 'tool-result-guard'; let n = 0; export const t = classifyTool(tool({ description: 'd', execute: async () => { n += 1; } }), { stateScope: 'session' });`,
    `const jar = new CookieJar(); classifyTool(server.tool('browse', { url: z.string() }, async (args) => { await jar.setCookie(args.c, args.url); return { content: [] }; }), { stateScope: 'session' });`,
    // stateless tools
    `export const t = buildTool({ name: 'a', async call(input) { const r = await fetch(input.url); return r.text(); } });`,
    // reading module state is not reported
    `const cache = new Map(); const LIMIT = 5; export const t = buildTool({ name: 'a', async call(input) { return cache.get(input.k) ?? String(LIMIT); } });`,
    `const config = { retries: 3 }; export const t = defineTool({ name: 'a', execute: async () => config.retries + 1 });`,
    // locals created inside the invocation are not state
    `export const t = buildTool({ name: 'a', async call(input) { const jar = new CookieJar(); await jar.setCookie('a=b', input.url); const seen = new Set(); seen.add(1); let n = 0; n++; const o = {}; o.x = 1; return String(n); } });`,
    `export const t = buildTool({ name: 'a', async call(input) { const client = axios.create({ baseURL: input.base }); return client.get('/'); } });`,
    // a plain client created once and only called: configuration, not state (its requests change nothing a later call sees)
    `const http = axios.create({ withCredentials: true }); export const t = defineTool({ name: 'api', execute: async (input) => (await http.get(input.path)).data });`,
    `export function createSearch(options) { const client = new SearchClient(options); return buildTool({ name: 'search', async call(input) { return client.query(input.q) + client.query(input.q2); } }); }`,
    `export class ApiTool extends BaseTool { constructor({ ky = defaultKy } = {}) { super(); this.client = got.extend({ prefixUrl: 'https://x' }); this.ky = ky.extend({ timeout: 5000 }); } async call(input) { return this.client.get(input.p) + (await this.ky.get(input.p).text()); } }`,
    // a concurrency limit only queues the calls running at once: nothing of it outlives them
    `const limit = pLimit(2); const http = ky.create({ prefixUrl: 'https://x' }); export const t = defineTool({ name: 'api', execute: async (input) => limit(() => http.get(input.p).text()) });`,
    // the input parameter is per call: normalising it is fine
    `export const t = buildTool({ name: 'a', async call(input) { input.path = input.path.trim(); input = { ...input }; return input.path; } });`,
    // imported bindings and injected objects that are only read or called
    `import { client } from './client.js'; export const t = buildTool({ name: 'a', async call(input) { return client.get(input.url); } });`,
    `export class Q extends BaseTool { constructor(private readonly http: HttpClient) { super(); } async call(input) { return this.http.get(input.url); } }`,
    `export function makeTools(http) { return [buildTool({ name: 'a', async call(input) { return http.get(input.url); } })]; }`,
    // a Map created outside but only read; a carrier-like name that is not created here
    `import { jar } from './jar.js'; export const t = buildTool({ name: 'a', async call(input) { return jar.getCookieString(input.url); } });`,
    // `this` in a nested plain function is not the tool
    `export class T extends BaseTool { async call(input) { const helper = { n: 0, bump() { this.n++; } }; helper.bump(); return 'x'; } }`,
    // gemini-style invocation classes are built per call: their fields die with the call
    `class ReadInvocation { constructor(config, params) { this.config = config; this.params = params; } async execute() { this.started = Date.now(); this.attempts = 0; this.attempts++; return 'x'; } }
     export class ReadTool extends BaseDeclarativeTool { maxResultSizeChars = 10; createInvocation(params) { return new ReadInvocation(this.config, params); } }`,
    // not a tool
    `let calls = 0; export function helper() { calls++; }`,
    `const cache = new Map(); export const handlers = { run() { cache.set(1, 2); } };`,
    // MCP handler without state
    `server.tool('echo', { text: z.string() }, async ({ text }) => ({ content: [{ type: 'text', text }] }));`,
    // a client created inside a helper called per invocation is not module state
    `function makeClient() { return new OpenAIClient(); } export const t = buildTool({ name: 'a', async call(input) { return makeClient().send(input); } });`,
    // same-file helpers that only read, and recursive helpers, are followed without findings
    `const cache = new Map(); function lookup(key) { return cache.get(key); } export const t = buildTool({ name: 'a', async call(input) { return lookup(input.k); } });`,
    `const tree = {}; function depth(node) { return node ? 1 + depth(node.child) : 0; } export const t = buildTool({ name: 'a', async call(input) { return String(depth(tree)); } });`,
    // assignments to locals that shadow module names
    `let n = 0; export const t = buildTool({ name: 'a', async call(input) { let n = 1; n++; return String(n); } });`,
  ],
  invalid: [
    // module-level let assigned
    {
      code: `let requests = 0; export const t = buildTool({ name: 'browse', async call(input) { requests += 1; return 'x'; } });`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `let requests = 0; export const t = buildTool({ name: 'browse', async call(input) { requests += 1; return 'x'; }, stateScope: 'session' });`,
            },
          ],
          data: { tool: 'browse', action: 'assigns', state: 'module-level `requests`' },
        },
      ],
    },
    {
      code: `let calls = 0; export const t = buildTool({ name: 'a', async call() { calls++; } });`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `let calls = 0; export const t = buildTool({ name: 'a', async call() { calls++; }, stateScope: 'session' });`,
            },
          ],
          line: 1,
          column: 71,
          endColumn: 78,
        },
      ],
    },
    {
      code: `let client; export const t = defineTool({ name: 'a', execute: async (input) => { client ??= new ApiClient(); return client.get(input); } });`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `let client; export const t = defineTool({ name: 'a', execute: async (input) => { client ??= new ApiClient(); return client.get(input); }, stateScope: 'session' });`,
            },
          ],
        },
      ],
    },
    // module-level collections mutated: set, add, push, delete, clear, index assignment
    {
      code: `const cache = new Map(); export const t = buildTool({ name: 'pages', async call(input) { cache.set(input.url, 'x'); } });`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `const cache = new Map(); export const t = buildTool({ name: 'pages', async call(input) { cache.set(input.url, 'x'); }, stateScope: 'session' });`,
            },
          ],
          data: { tool: 'pages', action: 'calls `.set()` on', state: 'module-level `cache`' },
        },
      ],
    },
    {
      code: `const seen = new Set(); export class SeenTool extends BaseTool { async execute(input) { seen.add(input.id); } }`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `const seen = new Set(); export class SeenTool extends BaseTool { readonly stateScope = 'session'; async execute(input) { seen.add(input.id); } }`,
            },
          ],
          data: { tool: 'SeenTool', action: 'calls `.add()` on', state: 'module-level `seen`' },
        },
      ],
    },
    {
      code: `const history = []; export const t = tool(async (input) => { history.push(input); return 'ok'; }, { name: 'log', schema: {} });`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `const history = []; export const t = tool(async (input) => { history.push(input); return 'ok'; }, { name: 'log', schema: {}, stateScope: 'session' });`,
            },
          ],
        },
      ],
    },
    {
      code: `const sessions = new Map(); server.registerTool('logout', { description: 'd' }, async (args) => { sessions.delete(args.id); return { content: [] }; });`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `const sessions = new Map(); server.registerTool('logout', { description: 'd', _meta: { 'anthropic/stateScope': 'session' } }, async (args) => { sessions.delete(args.id); return { content: [] }; });`,
            },
          ],
          data: { tool: 'logout', action: 'calls `.delete()` on', state: 'module-level `sessions`' },
        },
      ],
    },
    {
      code: `const sessions = new Map(); server.registerTool('reset', { description: 'd' }, async () => { sessions.clear(); return { content: [] }; });`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `const sessions = new Map(); server.registerTool('reset', { description: 'd', _meta: { 'anthropic/stateScope': 'session' } }, async () => { sessions.clear(); return { content: [] }; });`,
            },
          ],
          data: { tool: 'reset', action: 'calls `.clear()` on', state: 'module-level `sessions`' },
        },
      ],
    },
    {
      // One report per state and function: the first mutation asks for the declaration.
      code: `const cache = new Map(); export const t = buildTool({ name: 'a', async call(input) { cache.set(input.k, 1); cache.delete(input.old); cache.clear(); } });`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `const cache = new Map(); export const t = buildTool({ name: 'a', async call(input) { cache.set(input.k, 1); cache.delete(input.old); cache.clear(); }, stateScope: 'session' });`,
            },
          ],
          column: 86,
          data: { tool: 'a', action: 'calls `.set()` on', state: 'module-level `cache`' },
        },
      ],
    },
    {
      code: `const tokens = {}; export const t = buildTool({ name: 'login', async call(input) { tokens[input.user] = input.token; } });`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `const tokens = {}; export const t = buildTool({ name: 'login', async call(input) { tokens[input.user] = input.token; }, stateScope: 'session' });`,
            },
          ],
          data: { tool: 'login', action: 'assigns a property of', state: 'module-level `tokens`' },
        },
      ],
    },
    {
      code: `const state = { count: 0 }; export const t = buildTool({ name: 'a', async call() { state.count++; } });`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `const state = { count: 0 }; export const t = buildTool({ name: 'a', async call() { state.count++; }, stateScope: 'session' });`,
            },
          ],
          data: { tool: 'a', action: 'updates a property of', state: 'module-level `state`' },
        },
      ],
    },
    {
      code: `const state = { last: 1 }; export const t = buildTool({ name: 'a', async call() { delete state.last; } });`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `const state = { last: 1 }; export const t = buildTool({ name: 'a', async call() { delete state.last; }, stateScope: 'session' });`,
            },
          ],
          data: { tool: 'a', action: 'deletes a property of', state: 'module-level `state`' },
        },
      ],
    },
    {
      code: `const defaults = {}; export const t = buildTool({ name: 'a', async call(input) { Object.assign(defaults, input); } });`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `const defaults = {}; export const t = buildTool({ name: 'a', async call(input) { Object.assign(defaults, input); }, stateScope: 'session' });`,
            },
          ],
          data: { tool: 'a', action: 'passes to `Object.assign`', state: 'module-level `defaults`' },
        },
      ],
    },
    // instance fields assigned through this
    {
      code: `export class CounterTool extends BaseTool { calls = 0; async call(input) { this.calls += 1; return String(this.calls); } }`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `export class CounterTool extends BaseTool { readonly stateScope = 'session'; calls = 0; async call(input) { this.calls += 1; return String(this.calls); } }`,
            },
          ],
          data: { tool: 'CounterTool', action: 'assigns', state: 'instance field `this.calls`' },
        },
      ],
    },
    {
      code: `export class CacheTool extends BaseTool { cache = new Map(); async call(input) { this.cache.set(input.k, 1); } }`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `export class CacheTool extends BaseTool { readonly stateScope = 'session'; cache = new Map(); async call(input) { this.cache.set(input.k, 1); } }`,
            },
          ],
          data: { tool: 'CacheTool', action: 'calls `.set()` on', state: 'instance field `this.cache`' },
        },
      ],
    },
    {
      code: `export class Q extends BaseTool { constructor(private readonly store: Store) { super(); } async call(input) { this.store.items.push(input); } }`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `export class Q extends BaseTool { readonly stateScope = 'session'; constructor(private readonly store: Store) { super(); } async call(input) { this.store.items.push(input); } }`,
            },
          ],
        },
      ],
    },
    {
      code: `export const t: Tool = { name: 'typed', async execute(input) { this.lastInput = input; } };`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `export const t: Tool = { name: 'typed', async execute(input) { this.lastInput = input; }, stateScope: 'session' };`,
            },
          ],
          data: { tool: 'typed', action: 'assigns', state: 'property `lastInput` of the tool object' },
        },
      ],
    },
    // closure variables of a factory
    {
      code: `export function createTools() { let calls = 0; const seen = new Set(); return [buildTool({ name: 'a', async call(input) { calls++; seen.add(input.id); } })]; }`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `export function createTools() { let calls = 0; const seen = new Set(); return [buildTool({ name: 'a', async call(input) { calls++; seen.add(input.id); }, stateScope: 'session' })]; }`,
            },
          ],
          data: { tool: 'a', action: 'assigns', state: '`calls`, a variable of the enclosing function `createTools`' },
        },
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `export function createTools() { let calls = 0; const seen = new Set(); return [buildTool({ name: 'a', async call(input) { calls++; seen.add(input.id); }, stateScope: 'session' })]; }`,
            },
          ],
          data: { tool: 'a', action: 'calls `.add()` on', state: '`seen`, a variable of the enclosing function `createTools`' },
        },
      ],
    },
    {
      code: `export const makeTool = (cache) => new DynamicStructuredTool({ name: 'dyn', schema: {}, func: async (input) => { cache.set(input.k, input.v); return 'ok'; } });`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `export const makeTool = (cache) => new DynamicStructuredTool({ name: 'dyn', schema: {}, func: async (input) => { cache.set(input.k, input.v); return 'ok'; }, stateScope: 'session' });`,
            },
          ],
          data: { tool: 'dyn', action: 'calls `.set()` on', state: '`cache`, a parameter of the enclosing function `makeTool`' },
        },
      ],
    },
    // imported bindings mutated
    {
      code: `import { registry } from './registry.js'; export const t = buildTool({ name: 'reg', async call(input) { registry.set(input.k, input.v); } });`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `import { registry } from './registry.js'; export const t = buildTool({ name: 'reg', async call(input) { registry.set(input.k, input.v); }, stateScope: 'session' });`,
            },
          ],
          data: { tool: 'reg', action: 'calls `.set()` on', state: 'imported `registry`' },
        },
      ],
    },
    // process-wide globals
    {
      code: `export const t = buildTool({ name: 'env', async call(input) { process.env.API_TOKEN = input.token; } });`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `export const t = buildTool({ name: 'env', async call(input) { process.env.API_TOKEN = input.token; }, stateScope: 'session' });`,
            },
          ],
          data: { tool: 'env', action: 'assigns a property of', state: 'the process-wide global `process.env.API_TOKEN`' },
        },
      ],
    },
    // cookie jars and clients created outside the invocation, used inside
    {
      code: `const jar = new CookieJar(); export const t = buildTool({ name: 'browse', async call(input) { return fetchWithJar(jar, input.url); } });`,
      errors: [
        {
          messageId: uses,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `const jar = new CookieJar(); export const t = buildTool({ name: 'browse', async call(input) { return fetchWithJar(jar, input.url); }, stateScope: 'session' });`,
            },
          ],
          data: { tool: 'browse', carrier: 'cookie jar', name: 'jar', where: 'at module level' },
        },
      ],
    },
    // a client built around a cookie jar or a rate limiter carries it between calls
    {
      code: `const jar = new CookieJar(); const http = wrapper(axios.create({ jar })); export const t = defineTool({ name: 'api', execute: async (input) => (await http.get(input.path)).data });`,
      errors: [
        {
          messageId: uses,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `const jar = new CookieJar(); const http = wrapper(axios.create({ jar })); export const t = defineTool({ name: 'api', execute: async (input) => (await http.get(input.path)).data, stateScope: 'session' });`,
            },
          ],
          data: { tool: 'api', carrier: 'cookie jar', name: 'http', where: 'at module level' },
        },
      ],
    },
    {
      code: `export function createSearch(options) { const client = new SearchClient({ ...options, limiter: new Bottleneck({ maxConcurrent: 1 }) }); return buildTool({ name: 'search', async call(input) { return client.query(input.q) + client.query(input.q2); } }); }`,
      errors: [
        {
          messageId: uses,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `export function createSearch(options) { const client = new SearchClient({ ...options, limiter: new Bottleneck({ maxConcurrent: 1 }) }); return buildTool({ name: 'search', async call(input) { return client.query(input.q) + client.query(input.q2); }, stateScope: 'session' }); }`,
            },
          ],
          data: { tool: 'search', carrier: 'rate limiter', name: 'client', where: 'in the enclosing function `createSearch`' },
        },
      ],
    },
    {
      code: `const limits = {}; limits.throttle = pThrottle({ limit: 1, interval: 1000 });
       export class SearchClient extends AIFunctionsProvider {
         constructor({ ky = defaultKy, throttle = true } = {}) { super(); const throttledKy = throttle ? throttleKy(ky, limits.throttle) : ky; this.ky = throttledKy.extend({ prefixUrl: 'https://api.x' }); }
         @aiFunction({ name: 'search', description: 'd', inputSchema: z.object({ q: z.string() }) })
         async search({ q }) { return this.ky.get('search', { searchParams: { q } }).json(); }
       }`,
      errors: [
        {
          messageId: uses,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `const limits = {}; limits.throttle = pThrottle({ limit: 1, interval: 1000 });
       export class SearchClient extends AIFunctionsProvider {
         constructor({ ky = defaultKy, throttle = true } = {}) { super(); const throttledKy = throttle ? throttleKy(ky, limits.throttle) : ky; this.ky = throttledKy.extend({ prefixUrl: 'https://api.x' }); }
         @aiFunction({ name: 'search', description: 'd', inputSchema: z.object({ q: z.string() }), stateScope: 'session' })
         async search({ q }) { return this.ky.get('search', { searchParams: { q } }).json(); }
       }`,
            },
          ],
          data: { tool: 'search', carrier: 'rate limiter', name: 'this.ky', where: 'in an instance field' },
        },
      ],
    },
    {
      code: `const throttle = pThrottle({ limit: 5, interval: 60_000 }); const throttledFetch = throttle(fetch); export const t = defineTool({ name: 'api', execute: async (input) => (await throttledFetch(input.url)).text() });`,
      errors: [
        {
          messageId: uses,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `const throttle = pThrottle({ limit: 5, interval: 60_000 }); const throttledFetch = throttle(fetch); export const t = defineTool({ name: 'api', execute: async (input) => (await throttledFetch(input.url)).text(), stateScope: 'session' });`,
            },
          ],
          data: { tool: 'api', carrier: 'rate limiter', name: 'throttledFetch', where: 'at module level' },
        },
      ],
    },
    {
      code: `export class BrowserTool extends BaseTool { private jar = new CookieJar(); async call(input) { return this.jar.getCookieString(input.url); } }`,
      errors: [
        {
          messageId: uses,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `export class BrowserTool extends BaseTool { readonly stateScope = 'session'; private jar = new CookieJar(); async call(input) { return this.jar.getCookieString(input.url); } }`,
            },
          ],
          data: { tool: 'BrowserTool', carrier: 'cookie jar', name: 'this.jar', where: 'in an instance field' },
        },
      ],
    },
    // a mutated carrier is reported once, at the mutation
    {
      code: `const jar = new CookieJar(); server.tool('login', { user: z.string() }, async (args) => { await jar.setCookie('sid=' + args.user, 'https://x'); return { content: [] }; });`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `import { classifyTool } from 'tool-result-guard';

const jar = new CookieJar(); classifyTool(server.tool('login', { user: z.string() }, async (args) => { await jar.setCookie('sid=' + args.user, 'https://x'); return { content: [] }; }), { name: 'login', stateScope: 'session' });`,
            },
          ],
          data: { tool: 'login', action: 'calls `.setCookie()` on', state: 'module-level `jar`' },
        },
      ],
    },
    // Tool.define and createTool shapes; arrays destructured
    {
      code: `let last; export const peek = () => last; export const t = Tool.define({ name: 'd', execute: async (input) => { [last] = [input]; } });`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `let last; export const peek = () => last; export const t = Tool.define({ name: 'd', execute: async (input) => { [last] = [input]; }, stateScope: 'session' });`,
            },
          ],
        },
      ],
    },
    {
      code: `let a = 0; let b = 0; export const sum = () => a + b; export const t = createTool({ id: 'c', execute: async () => { ({ a, b } = next()); } });`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `let a = 0; let b = 0; export const sum = () => a + b; export const t = createTool({ id: 'c', execute: async () => { ({ a, b } = next()); }, stateScope: 'session' });`,
            },
          ],
        },
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `let a = 0; let b = 0; export const sum = () => a + b; export const t = createTool({ id: 'c', execute: async () => { ({ a, b } = next()); }, stateScope: 'session' });`,
            },
          ],
        },
      ],
    },
    // nested callbacks inside the invocation still run during the call
    {
      code: `const cache = new Map(); export const t = buildTool({ name: 'a', async call(input) { input.items.forEach((item) => cache.set(item.id, item)); } });`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `const cache = new Map(); export const t = buildTool({ name: 'a', async call(input) { input.items.forEach((item) => cache.set(item.id, item)); }, stateScope: 'session' });`,
            },
          ],
        },
      ],
    },
    // same-file helpers the invocation calls are followed (a few levels), reported at the call in the invocation
    {
      code: `const visited = new Set(); function remember(url) { visited.add(url); } export const t = buildTool({ name: 'crawl', async call(input) { remember(input.url); return 'ok'; } });`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `const visited = new Set(); function remember(url) { visited.add(url); } export const t = buildTool({ name: 'crawl', async call(input) { remember(input.url); return 'ok'; }, stateScope: 'session' });`,
            },
          ],
          line: 1,
          column: 137,
          endColumn: 156,
          data: { tool: 'crawl', action: 'calls `.add()` on', state: 'module-level `visited` (in `remember`, which the invocation calls)' },
        },
      ],
    },
    {
      code: `let total = 0; const count = (n) => { total += n; }; const track = (input) => count(input.n); export const t = defineTool({ name: 'tally', execute: async (input) => { track(input); } });`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `let total = 0; const count = (n) => { total += n; }; const track = (input) => count(input.n); export const t = defineTool({ name: 'tally', execute: async (input) => { track(input); }, stateScope: 'session' });`,
            },
          ],
          data: { tool: 'tally', action: 'assigns', state: 'module-level `total` (in `count`, which the invocation calls)' },
        },
      ],
    },
    {
      code: `export class HistoryTool extends BaseTool { history = []; record(entry) { this.history.push(entry); } async call(input) { this.record(input); return 'ok'; } }`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `export class HistoryTool extends BaseTool { readonly stateScope = 'session'; history = []; record(entry) { this.history.push(entry); } async call(input) { this.record(input); return 'ok'; } }`,
            },
          ],
          data: {
            tool: 'HistoryTool',
            action: 'calls `.push()` on',
            state: 'instance field `this.history` (in `this.record`, which the invocation calls)',
          },
        },
      ],
    },
    {
      // A helper shared by two tools: each tool is told, at its own call.
      code: `const seen = new Set(); const mark = (id) => seen.add(id); export const a = buildTool({ name: 'a', async call(input) { mark(input.id); } }); export const b = buildTool({ name: 'b', async call(input) { mark(input.id); } });`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `const seen = new Set(); const mark = (id) => seen.add(id); export const a = buildTool({ name: 'a', async call(input) { mark(input.id); }, stateScope: 'session' }); export const b = buildTool({ name: 'b', async call(input) { mark(input.id); } });`,
            },
          ],
          data: { tool: 'a', action: 'calls `.add()` on', state: 'module-level `seen` (in `mark`, which the invocation calls)' },
        },
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `const seen = new Set(); const mark = (id) => seen.add(id); export const a = buildTool({ name: 'a', async call(input) { mark(input.id); } }); export const b = buildTool({ name: 'b', async call(input) { mark(input.id); }, stateScope: 'session' });`,
            },
          ],
          data: { tool: 'b', action: 'calls `.add()` on', state: 'module-level `seen` (in `mark`, which the invocation calls)' },
        },
      ],
    },
    // an invalid declared value
    {
      code: `export const t = buildTool({ name: 'a', stateScope: 'global', async call() {} });`,
      errors: [{ messageId: 'invalidStateScope', data: { value: '"global"' } }],
    },
    // settings add carrier constructors and mutation methods
    {
      code: `const pool = new ConnectionPool(); const counter = makeCounter(); export const t = buildTool({ name: 'db', async call(input) { counter.inc(); return pool.query(input.sql); } });`,
      settings: { 'tool-result-guard': { stateCarrierConstructors: ['ConnectionPool'], stateMutationMethods: ['inc'] } },
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `const pool = new ConnectionPool(); const counter = makeCounter(); export const t = buildTool({ name: 'db', async call(input) { counter.inc(); return pool.query(input.sql); }, stateScope: 'session' });`,
            },
          ],
        },
        {
          messageId: uses,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `const pool = new ConnectionPool(); const counter = makeCounter(); export const t = buildTool({ name: 'db', async call(input) { counter.inc(); return pool.query(input.sql); }, stateScope: 'session' });`,
            },
          ],
          data: { tool: 'db', carrier: 'state carrier', name: 'pool', where: 'at module level' },
        },
      ],
    },
  ],
});

const harnessDirectory = fileURLToPath(new URL('../../examples/agent-harness', import.meta.url));

describe('declare-tool-state-scope on the bundled example harness', () => {
  it.each([false, true])(
    'reports browser_session at each mutation of its module state, and nothing else (type-aware: %s)',
    async (typeAware) => {
      const eslint = new ESLint({
        cwd: harnessDirectory,
        overrideConfigFile: true,
        overrideConfig: [
          {
            files: ['**/*.ts'],
            // typescript-eslint's rule types and ESLint's Plugin type differ only in the context's deprecated members.
            plugins: { guard: plugin as unknown as ESLint.Plugin },
            languageOptions: {
              parser: typescriptParser,
              ...(typeAware ? { parserOptions: { projectService: true, tsconfigRootDir: harnessDirectory } } : {}),
            },
            rules: { 'guard/declare-tool-state-scope': 'error' },
          },
        ],
      });
      const results = await eslint.lintFiles(['src/**/*.ts']);
      const findings = results.flatMap((result) =>
        result.messages.map((message) => ({
          file: path.relative(harnessDirectory, result.filePath),
          ruleId: message.ruleId,
          message: message.message,
        })),
      );
      expect(findings.every((finding) => finding.ruleId === 'guard/declare-tool-state-scope')).toBe(true);
      expect(new Set(findings.map((finding) => finding.file))).toEqual(new Set([path.join('src', 'tools', 'browser-session.ts')]));
      const states = findings.map((finding) => /module-level `(\w+)`/.exec(finding.message)?.[1]);
      expect(states.sort()).toEqual(['cookieJar', 'pageCache', 'requestsThisSession']);
      expect(findings.every((finding) => finding.message.includes("Tool 'browser_session'"))).toBe(true);
    },
  );
});

ruleTester.run('declare-tool-state-scope (shared invocation function)', rule, {
  valid: [],
  invalid: [
    {
      // Two tools built from one `invoke`: the mutation is reported once.
      code: `export function toFunctionTool(server, strict) { const byRun = new WeakMap(); async function invoke(input, runContext) { byRun.set(runContext, input); } return strict ? tool({ name: 'a', execute: invoke }) : tool({ name: 'b', execute: invoke }); }`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `export function toFunctionTool(server, strict) { const byRun = new WeakMap(); async function invoke(input, runContext) { byRun.set(runContext, input); } return strict ? tool({ name: 'a', execute: invoke, stateScope: 'session' }) : tool({ name: 'b', execute: invoke, stateScope: 'session' }); }`,
            },
          ],
          data: { tool: 'a', action: 'calls `.set()` on', state: '`byRun`, a variable of the enclosing function `toFunctionTool`' },
        },
      ],
    },
  ],
});

// MCP and harness shapes: FastMCP `addTool`, single-object `registerTool`, and the
// low-level `CallToolRequestSchema` dispatcher, where each branch is its own tool.
const dispatcher = (body: string): string =>
  `import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
const sessions = new Map();
const history = [];
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name, arguments: args } = request.params;
${body}
});`;

ruleTester.run('declare-tool-state-scope: MCP and harness shapes', rule, {
  valid: [
    `const users = new Map(); server.addTool({ name: 'list_users', execute: async () => [...users.values()].join(',') });`,
    `const users = new Map(); server.addTool({ name: 'create_user', _meta: { 'anthropic/stateScope': 'session' }, execute: async (args) => { users.set(args.id, args); return 'ok'; } });`,
    `const running = new Map(); server.experimental.tasks.registerToolTask('research', { _meta: { 'anthropic/stateScope': 'session' } }, { async createTask(args) { running.set(args.topic, 1); return {}; } });`,
    // The dispatcher's own bookkeeping, outside every branch, belongs to no tool.
    dispatcher(`  history.push(name);
  switch (name) {
    case 'list_sessions': return { content: [{ type: 'text', text: [...sessions.keys()].join(',') }] };
  }`),
    // A one-tool server guarded by `if (name !== 'x') throw …` that keeps nothing.
    dispatcher(`  if (name !== 'list_sessions') throw new Error('unknown tool');
  return { content: [{ type: 'text', text: [...sessions.keys()].join(',') }] };`),
  ],
  invalid: [
    {
      // The rest of the handler after an `if (name !== 'x') throw` guard is tool `x`.
      code: dispatcher(`  if (name !== 'open_session') {
    throw new Error('unknown tool');
  }
  sessions.set(args.id, args);
  return { content: [{ type: 'text', text: 'ok' }] };`),
      errors: [
        {
          messageId: mutates,
          // a branch without its ListTools entry has no place for the scope
          suggestions: [],
          data: { tool: 'open_session', action: 'calls `.set()` on', state: 'module-level `sessions`' },
        },
      ],
    },
    {
      code: `const users = new Map(); server.addTool({ name: 'create_user', execute: async (args) => { users.set(args.id, args); return 'ok'; } });`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `const users = new Map(); server.addTool({ name: 'create_user', execute: async (args) => { users.set(args.id, args); return 'ok'; }, _meta: { 'anthropic/stateScope': 'session' } });`,
            },
          ],
          data: { tool: 'create_user', action: 'calls `.set()` on', state: 'module-level `users`' },
        },
      ],
    },
    {
      code: `let count = 0; app.registerTool({ name: 'count', handler: async () => { count += 1; return String(count); } });`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `let count = 0; app.registerTool({ name: 'count', handler: async () => { count += 1; return String(count); }, _meta: { 'anthropic/stateScope': 'session' } });`,
            },
          ],
          data: { tool: 'count', action: 'assigns', state: 'module-level `count`' },
        },
      ],
    },
    {
      // An MCP task tool: `createTask` runs on the model's call.
      code: `const running = new Map(); server.experimental.tasks.registerToolTask('research', { description: 'd' }, { async createTask(args, extra) { running.set(args.topic, 1); return {}; }, async getTask() { return {}; }, async getTaskResult() { return {}; } });`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `import { classifyTool } from 'tool-result-guard';

const running = new Map(); classifyTool(server.experimental.tasks.registerToolTask('research', { description: 'd' }, { async createTask(args, extra) { running.set(args.topic, 1); return {}; }, async getTask() { return {}; }, async getTaskResult() { return {}; } }), { name: 'research', stateScope: 'session' });`,
            },
          ],
          data: { tool: 'research', action: 'calls `.set()` on', state: 'module-level `running`' },
        },
      ],
    },
    {
      // Each branch is blamed for its own change only: `start` adds, `stop` deletes, `list_sessions` reads.
      code: dispatcher(`  history.push(name);
  switch (name) {
    case 'start': sessions.set(args.id, {}); return { content: [] };
    case 'stop': { sessions.delete(args.id); return { content: [] }; }
    case 'list_sessions': return { content: [{ type: 'text', text: [...sessions.keys()].join(',') }] };
  }`),
      errors: [
        {
          messageId: mutates,
          suggestions: [],
          line: 8,
          data: { tool: 'start', action: 'calls `.set()` on', state: 'module-level `sessions`' },
        },
        {
          messageId: mutates,
          suggestions: [],
          line: 9,
          data: { tool: 'stop', action: 'calls `.delete()` on', state: 'module-level `sessions`' },
        },
      ],
    },
  ],
});

ruleTester.run('declare-tool-state-scope: long-lived objects the tool drives', rule, {
  valid: [
    // a page the invocation launches itself dies with the call
    `import { chromium } from 'playwright'; export const browse = tool({ description: 'd', inputSchema: {}, execute: async ({ url }) => { const browser = await chromium.launch(); const page = await browser.newPage(); await page.goto(url); const text = await page.textContent('body'); await browser.close(); return text; } });`,
    // declared: the session knows the page carries forward
    `export const gotoTool = (v3) => tool({ description: 'd', inputSchema: {}, stateScope: 'session', execute: async ({ url }) => { const page = await v3.context.awaitActivePage(); await page.goto(url); return { ok: true }; } });`,
    // reading a shared page changes nothing
    `export const titleTool = (v3) => tool({ description: 'd', inputSchema: {}, execute: async () => { const page = await v3.context.awaitActivePage(); return page.title(); } });`,
    // per-call output channels: the stream writer, the span, the abort signal
    `export const t = createTool({ id: 'p', description: 'd', execute: async ({ q }, context) => { await context.writer.write({ type: 'progress', q }); context.abortSignal.addEventListener('abort', () => {}); return q; } });`,
    // a driving verb on an object not named like a shared one: a calculator evaluates
    `const math = create(all); export const calc = tool({ description: 'd', inputSchema: {}, execute: async ({ expression }) => String(math.evaluate(expression)) });`,
    // package modules and disk or remote wrappers: what they change is not kept in the process
    `import fs from 'node:fs/promises'; export const write = tool({ description: 'd', inputSchema: {}, execute: async ({ path, content }) => { await fs.writeFile(path, content); return 'ok'; } });`,
    `export const makeTool = (client) => tool({ description: 'd', inputSchema: {}, execute: async ({ id, title }) => { await client.updateIssue(id, { title }); return 'ok'; } });`,
    `export const makeTools = (agent) => [buildTool({ name: 'Write', async call({ path, content }) { await agent.writeTextFile({ path, content }); return 'ok'; } })];`,
    // the model's input is per call
    `export const t = tool({ description: 'd', inputSchema: {}, execute: async (input) => { input.page.goto('x'); return 'ok'; } });`,
  ],
  invalid: [
    {
      // a shared browser page the tool takes from the factory's object and navigates
      code: `export const gotoTool = (v3) => buildTool({ name: 'goto', async call({ url }) { const page = await v3.context.awaitActivePage(); await page.goto(url); return { ok: true }; } });`,
      errors: [
        {
          messageId: 'drivesSharedObject',
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `export const gotoTool = (v3) => buildTool({ name: 'goto', async call({ url }) { const page = await v3.context.awaitActivePage(); await page.goto(url); return { ok: true }; }, stateScope: 'session' });`,
            },
          ],
          data: { tool: 'goto', method: 'goto', object: '`page`, taken from `v3`, a parameter of the enclosing function `gotoTool`' },
        },
      ],
    },
    {
      // a state-changing method on a long-lived object: the replay log grows with every call
      code: `export const searchTool = (v3) => buildTool({ name: 'search', async call({ query }) { v3.recordAgentReplayStep({ type: 'search', query }); return []; } });`,
      errors: [
        {
          messageId: 'drivesSharedObject',
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `export const searchTool = (v3) => buildTool({ name: 'search', async call({ query }) { v3.recordAgentReplayStep({ type: 'search', query }); return []; }, stateScope: 'session' });`,
            },
          ],
          data: { tool: 'search', method: 'recordAgentReplayStep', object: '`v3`, a parameter of the enclosing function `searchTool`' },
        },
      ],
    },
    {
      // the framework's context argument (not the model's input) hands over a shared desktop
      code: `export const click = createTool({ id: 'computer_click', description: 'd', execute: async ({ x, y }, context) => { const { computer } = requireComputer(context); await computer.leftClick(x, y); return 'clicked'; } });`,
      errors: [
        {
          messageId: 'drivesSharedObject',
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `export const click = createTool({ id: 'computer_click', description: 'd', execute: async ({ x, y }, context) => { const { computer } = requireComputer(context); await computer.leftClick(x, y); return 'clicked'; }, stateScope: 'session' });`,
            },
          ],
          data: {
            tool: 'computer_click',
            method: 'leftClick',
            object: "`computer`, taken from `context`, the invocation's context argument",
          },
        },
      ],
    },
    {
      // a file in a shared sandbox: the receiver's name says it is kept
      code: `export const makeWrite = (sandbox) => buildTool({ name: 'write_file', async call({ path, content }) { await sandbox.writeFiles([{ path, content }]); return { success: true }; } });`,
      errors: [
        {
          messageId: 'drivesSharedObject',
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `export const makeWrite = (sandbox) => buildTool({ name: 'write_file', async call({ path, content }) { await sandbox.writeFiles([{ path, content }]); return { success: true }; }, stateScope: 'session' });`,
            },
          ],
          data: { tool: 'write_file', method: 'writeFiles', object: '`sandbox`, a parameter of the enclosing function `makeWrite`' },
        },
      ],
    },
    {
      // a shared page kept in an instance field
      code: `export class ClickTool extends BaseTool { name = 'click'; constructor(page) { super(); this.page = page; } async call({ selector }) { await this.page.click(selector); return 'ok'; } }`,
      errors: [
        {
          messageId: 'drivesSharedObject',
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `export class ClickTool extends BaseTool { readonly stateScope = 'session'; name = 'click'; constructor(page) { super(); this.page = page; } async call({ selector }) { await this.page.click(selector); return 'ok'; } }`,
            },
          ],
          data: { tool: 'click', method: 'click', object: 'instance field `this.page`' },
        },
      ],
    },
    {
      // an element taken from a module-level collection and changed in place
      code: `const tasks = new Map(); export const done = tool({ description: 'd', inputSchema: {}, execute: async ({ id }) => { tasks.get(id).status = 'done'; return 'ok'; } });`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `const tasks = new Map(); export const done = tool({ description: 'd', inputSchema: {}, execute: async ({ id }) => { tasks.get(id).status = 'done'; return 'ok'; }, stateScope: 'session' });`,
            },
          ],
          data: { tool: 'done', action: 'assigns a property of', state: 'module-level `tasks`' },
        },
      ],
    },
    {
      // the same, through a local name
      code: `const tasks = new Map(); export const done = tool({ description: 'd', inputSchema: {}, execute: async ({ id }) => { const task = tasks.get(id); task.attempts++; return 'ok'; } });`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `const tasks = new Map(); export const done = tool({ description: 'd', inputSchema: {}, execute: async ({ id }) => { const task = tasks.get(id); task.attempts++; return 'ok'; }, stateScope: 'session' });`,
            },
          ],
          data: { tool: 'done', action: 'updates a property of', state: '`task`, taken from module-level `tasks`' },
        },
      ],
    },
  ],
});

// Helpers in other modules, written to a temporary folder: the rule follows relative imports.
const helperFolder = mkdtempSync(path.join(tmpdir(), 'trg-state-helpers-'));
writeFileSync(
  path.join(helperFolder, 'history.ts'),
  `const seen: string[] = [];\nexport function remember(url: string) { seen.push(url); }\nexport function format(url: string) { const seen = [url]; seen.push('!'); return seen.join(''); }\n`,
);
writeFileSync(
  path.join(helperFolder, 'thinking.ts'),
  `export class Thinking {\n  history: string[] = [];\n  process(thought: string) { this.history.push(thought); return this.history.length; }\n  peek() { return this.history.length; }\n}\n`,
);
writeFileSync(
  path.join(helperFolder, 'base.ts'),
  `export class MailBaseTool extends StructuredTool {\n  mail: unknown;\n  async getMailClient() { if (this.mail) return this.mail; this.mail = await connect(); return this.mail; }\n  describeClient() { return String(this.mail); }\n}\n`,
);
writeFileSync(
  path.join(helperFolder, 'queue.ts'),
  `const queues = new Map<string, Promise<void>>();\nexport async function withQueue<T>(key: string, fn: () => Promise<T>) {\n  const current = queues.get(key) ?? Promise.resolve();\n  let release!: () => void;\n  const next = new Promise<void>((resolve) => { release = resolve; });\n  const chained = current.then(() => next);\n  queues.set(key, chained);\n  await current;\n  try { return await fn(); } finally { release(); if (queues.get(key) === chained) queues.delete(key); }\n}\nexport async function withLock<T>(key: string, fn: () => Promise<T>) { queues.set(key, Promise.resolve()); return fn(); }\n`,
);
const toolFile = path.join(helperFolder, 'tool.ts');

ruleTester.run('declare-tool-state-scope: state held by helper modules and objects', rule, {
  valid: [
    // an imported helper that keeps nothing (its `seen` is its own local)
    {
      code: `import { format } from './history.js'; export const t = tool({ description: 'd', inputSchema: {}, execute: async ({ url }) => format(url) });`,
      filename: toolFile,
    },
    // a method that only reads its object's fields
    {
      code: `import { Thinking } from './thinking.js'; const thinking = new Thinking(); export const t = tool({ description: 'd', inputSchema: {}, execute: async () => thinking.peek() });`,
      filename: toolFile,
    },
    `class Counter { n = 0; read() { return this.n; } } const counter = new Counter(); export const t = tool({ description: 'd', inputSchema: {}, execute: async () => counter.read() });`,
    // an imported helper whose entry is removed in a finally when the write finishes
    {
      code: `import { withQueue } from './queue.js'; export const t = tool({ description: 'd', inputSchema: {}, execute: async ({ path }) => withQueue(path, () => save(path)) });`,
      filename: toolFile,
    },
    // an inherited method that only reads the instance
    {
      code: `import { MailBaseTool } from './base.js'; export class MailInfo extends MailBaseTool { name = 'mail_info'; async _call() { return this.describeClient(); } }`,
      filename: toolFile,
    },
  ],
  invalid: [
    {
      // the helper's module keeps what every call passes it
      code: `import { remember } from './history.js'; export const t = tool({ description: 'd', inputSchema: {}, execute: async ({ url }) => { remember(url); return 'ok'; } });`,
      filename: toolFile,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `import { remember } from './history.js'; export const t = tool({ description: 'd', inputSchema: {}, execute: async ({ url }) => { remember(url); return 'ok'; }, stateScope: 'session' });`,
            },
          ],
        },
      ],
    },
    {
      // the same module's helper that never removes its entry
      code: `import { withLock } from './queue.js'; export const t = tool({ description: 'd', inputSchema: {}, execute: async ({ path }) => withLock(path, () => save(path)) });`,
      filename: toolFile,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `import { withLock } from './queue.js'; export const t = tool({ description: 'd', inputSchema: {}, execute: async ({ path }) => withLock(path, () => save(path)), stateScope: 'session' });`,
            },
          ],
          data: { tool: 't', action: 'calls imported `withLock`, which changes', state: '`queues`, module state of queue.ts' },
        },
      ],
    },
    {
      // a module-level object whose class (in another file) changes its own fields
      code: `import { Thinking } from './thinking.js'; const thinking = new Thinking(); export const t = tool({ description: 'd', inputSchema: {}, execute: async ({ thought }) => thinking.process(thought) });`,
      filename: toolFile,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `import { Thinking } from './thinking.js'; const thinking = new Thinking(); export const t = tool({ description: 'd', inputSchema: {}, execute: async ({ thought }) => thinking.process(thought), stateScope: 'session' });`,
            },
          ],
        },
      ],
    },
    {
      code: `class Counter { n = 0; bump() { this.n += 1; return this.n; } } const counter = new Counter(); export const t = buildTool({ name: 'bump', async call() { return counter.bump(); } });`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `class Counter { n = 0; bump() { this.n += 1; return this.n; } } const counter = new Counter(); export const t = buildTool({ name: 'bump', async call() { return counter.bump(); }, stateScope: 'session' });`,
            },
          ],
          data: { tool: 'bump', action: 'calls `.bump()`, which changes `this.n` of', state: '`counter`' },
        },
      ],
    },
    {
      // a base class in another file caches its client in an instance field on first use
      code: `import { MailBaseTool } from './base.js'; export class GetMail extends MailBaseTool { name = 'get_mail'; async _call({ id }) { const client = await this.getMailClient(); return client.get(id); } }`,
      filename: toolFile,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `import { MailBaseTool } from './base.js'; export class GetMail extends MailBaseTool { readonly stateScope = 'session'; name = 'get_mail'; async _call({ id }) { const client = await this.getMailClient(); return client.get(id); } }`,
            },
          ],
          data: {
            tool: 'get_mail',
            action: 'calls `this.getMailClient()` (inherited from `MailBaseTool`), which changes',
            state: 'instance field `this.mail`',
          },
        },
      ],
    },
  ],
});

// A long-lived manager several calls away, reached through methods whose names say nothing.
const managerFolder = mkdtempSync(path.join(tmpdir(), 'trg-state-managers-'));
writeFileSync(
  path.join(managerFolder, 'terminal.ts'),
  `class TerminalManager {\n  sessions = new Map();\n  run(command: string) { return this.spawnSession(command); }\n  spawnSession(command: string) { this.sessions.set(1, { command, lastRead: 0 }); return 1; }\n  peek(pid: number) { return this.sessions.get(pid); }\n  readMore(pid: number) { const session = this.sessions.get(pid); session.lastRead = Date.now(); return session; }\n}\nexport const terminalManager = new TerminalManager();\n`,
);
writeFileSync(
  path.join(managerFolder, 'process-tools.ts'),
  `import { terminalManager } from './terminal.js';\nexport async function startProcess(args: { command: string }) { return terminalManager.run(args.command); }\nexport async function peekProcess(pid: number) { return terminalManager.peek(pid); }\n`,
);
mkdirSync(path.join(managerFolder, 'handlers'), { recursive: true });
writeFileSync(path.join(managerFolder, 'handlers', 'index.ts'), `export * from './process-handlers.js';\n`);
writeFileSync(
  path.join(managerFolder, 'handlers', 'process-handlers.ts'),
  `import { startProcess, peekProcess } from '../process-tools.js';\nexport async function handleStart(args: { command: string }) { return startProcess(args); }\nexport async function handlePeek(args: { pid: number }) { return peekProcess(args.pid); }\n`,
);
writeFileSync(
  path.join(managerFolder, 'convert.ts'),
  `let handler: unknown = null;\nlet clientId = 'unknown';\nconst pending: unknown[] = [];\nfunction getHandler() { if (!handler) handler = makeHandler(); return handler; }\nfunction makeHandler() { pending.length = 0; return {}; }\nexport async function convert(text: string) { if (clientId === 'unknown') clientId = await newId(); getHandler(); return text; }\nexport async function capture(event: string) { return queueEvent(event); }\nfunction queueEvent(event: string) { pending.push(event); }\n`,
);
const managerTool = path.join(managerFolder, 'server.ts');

ruleTester.run('declare-tool-state-scope: long-lived managers in other modules', rule, {
  valid: [
    // the same chain, down to a method that only reads the manager
    {
      code: `import * as handlers from './handlers/index.js'; export const t = tool({ description: 'd', inputSchema: {}, execute: async (args) => handlers.handlePeek(args) });`,
      filename: managerTool,
    },
    // made once on first use (an id, a handler): every call gets what the first made
    {
      code: `import { convert } from './convert.js'; export const t = tool({ description: 'd', inputSchema: {}, execute: async ({ text }) => convert(text) });`,
      filename: managerTool,
    },
    // telemetry records the call for someone else: the tool does not behave differently for it
    {
      code: `import { capture } from './convert.js'; export const t = tool({ description: 'd', inputSchema: {}, execute: async ({ text }) => { await capture('called'); return text; } });`,
      filename: managerTool,
    },
  ],
  invalid: [
    {
      // server → handlers barrel → startProcess → terminalManager.run → this.spawnSession → this.sessions.set
      code: `import * as handlers from './handlers/index.js'; export const t = tool({ description: 'd', inputSchema: {}, execute: async (args) => handlers.handleStart(args) });`,
      filename: managerTool,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `import * as handlers from './handlers/index.js'; export const t = tool({ description: 'd', inputSchema: {}, execute: async (args) => handlers.handleStart(args), stateScope: 'session' });`,
            },
          ],
          data: {
            tool: 't',
            action: 'calls `handlers.handleStart()`, which (through `startProcess` → `terminalManager.run` → `this.spawnSession`) changes',
            state: '`this.sessions` of TerminalManager',
          },
        },
      ],
    },
    {
      // an element taken from the manager's registry and changed
      code: `import { terminalManager } from './terminal.js'; export const t = tool({ description: 'd', inputSchema: {}, execute: async ({ pid }) => terminalManager.readMore(pid) });`,
      filename: managerTool,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `import { terminalManager } from './terminal.js'; export const t = tool({ description: 'd', inputSchema: {}, execute: async ({ pid }) => terminalManager.readMore(pid), stateScope: 'session' });`,
            },
          ],
          data: { tool: 't', action: 'calls `terminalManager.readMore()`, which changes', state: '`this.sessions` of TerminalManager' },
        },
      ],
    },
  ],
});

ruleTester.run('declare-tool-state-scope: long-lived objects handed to a helper', rule, {
  valid: [
    // a helper given the context only reads it
    `function threadOf(context) { return context.agent.threadId; } export const t = createTool({ id: 'thread', description: 'd', execute: async (input, context) => threadOf(context) });`,
    // a helper that only wraps the shared sandbox in a function for later: this call changes nothing
    `function adapt(sandbox) { const adapted = {}; adapted.run = (cmd) => sandbox.execute(cmd); return adapted; } export const t = createTool({ id: 'ls', description: 'd', execute: async (input, context) => { const backend = adapt(context.sandbox); return backend; } });`,
    // a helper given the model's input may change it: it is per call
    `function normalise(input) { input.path = input.path.trim(); return input; } export const t = createTool({ id: 'n', description: 'd', execute: async (input) => normalise(input).path });`,
  ],
  invalid: [
    {
      // the helper writes the task list into the framework's request context and the store it takes from it
      code: `async function applyTasks(context, tasks) { const store = await resolveStore(context); await store.setState({ tasks }); context.requestContext.set('tasks', tasks); return tasks; }
export const t = createTool({ id: 'task_write', description: 'd', execute: async ({ tasks }, context) => applyTasks(context, tasks) });`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `async function applyTasks(context, tasks) { const store = await resolveStore(context); await store.setState({ tasks }); context.requestContext.set('tasks', tasks); return tasks; }
export const t = createTool({ id: 'task_write', description: 'd', execute: async ({ tasks }, context) => applyTasks(context, tasks), stateScope: 'session' });`,
            },
          ],
          data: {
            tool: 'task_write',
            action: 'calls `.set()` on',
            state: "`context`, the invocation's context argument (in `applyTasks`, which the invocation calls)",
          },
        },
      ],
    },
  ],
});

ruleTester.run('declare-tool-state-scope: LangGraph state updates', rule, {
  valid: [
    // an update of the messages alone is the tool's own result
    `import { Command } from '@langchain/langgraph'; export const t = tool(async (input, runtime) => new Command({ update: { messages: [new ToolMessage({ content: 'ok', tool_call_id: runtime.toolCallId })] } }), { name: 'note', schema: {} });`,
    // another package's Command is not LangGraph's
    `import { Command } from 'commander'; export const t = tool(async (input) => { const c = new Command({ update: { name: input.name } }); return c.name(); }, { name: 'cli', schema: {} });`,
  ],
  invalid: [
    {
      // the graph writes the files channel every later call reads
      code: `import { Command } from '@langchain/langgraph'; export const t = tool(async ({ path, content }, runtime) => new Command({ update: { files: { [path]: content }, messages: [] } }), { name: 'write_file', schema: {} });`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `import { Command } from '@langchain/langgraph'; export const t = tool(async ({ path, content }, runtime) => new Command({ update: { files: { [path]: content }, messages: [] } }), { name: 'write_file', schema: {}, stateScope: 'session' });`,
            },
          ],
          data: { tool: 'write_file', action: 'returns a LangGraph `Command` whose `update` changes', state: "the agent's graph state" },
        },
      ],
    },
  ],
});

// SDK tool shapes (issue 12): the report names the tool as the model sees it.
ruleTester.run('declare-tool-state-scope: SDK tool shapes', rule, {
  valid: [
    `let opened = 0; const t = defineTabTool({ schema: { name: 'browser_open' }, stateScope: 'session', handle: async (tab, params) => { opened++; } });`,
    `const seen = new Set(); const agent = new Agent({ tools: { remember: tool({ description: 'r', inputSchema, stateScope: 'session', execute: async ({ id }) => { seen.add(id); } }) } });`,
    // Per-call values only: nothing outlives the call.
    `export function createCountToolDefinition() { return { name: 'count', parameters, async execute(toolCallId, params) { let n = 0; n++; return String(n); } }; }`,
    // chrome-devtools-mcp: a define…Tool factory handed a function that returns the config.
    `let selected; export const current = () => selected; export const selectPage = defineTool((args) => ({ name: 'select_page', schema, stateScope: 'session', handler: async (request) => { selected = request.params.pageId; } }));`,
    `export const listPages = definePageTool(() => { return { name: 'list_pages', schema, handler: async (request, response) => { let n = 0; n++; response.appendResponseLine(String(n)); } }; });`,
    // A function returning a config without an invocation, or a call of some other name: no tool.
    `let selected; export const x = defineTool(() => ({ name: 'select_page', schema }));`,
    `let selected; export const x = makeThing(() => ({ name: 'select_page', handler: async (request) => { selected = request.params.pageId; } }));`,
  ],
  invalid: [
    {
      code: `let opened = 0; const t = defineTabTool({ schema: { name: 'browser_open' }, handle: async (tab, params) => { opened++; } });`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `let opened = 0; const t = defineTabTool({ schema: { name: 'browser_open' }, handle: async (tab, params) => { opened++; }, stateScope: 'session' });`,
            },
          ],
          data: { tool: 'browser_open', action: 'assigns', state: 'module-level `opened`' },
        },
      ],
    },
    {
      code: `const seen = new Set(); const agent = new Agent({ tools: { remember: tool({ description: 'r', inputSchema, execute: async ({ id }) => { seen.add(id); } }) } });`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `const seen = new Set(); const agent = new Agent({ tools: { remember: tool({ description: 'r', inputSchema, execute: async ({ id }) => { seen.add(id); }, stateScope: 'session' }) } });`,
            },
          ],
          data: { tool: 'remember', action: 'calls `.add()` on', state: 'module-level `seen`' },
        },
      ],
    },
    {
      code: `const calls = []; class SearchClient extends AIFunctionsProvider {
  @aiFunction({ name: 'web_search', inputSchema })
  async search(input) { calls.push(input.query); return []; }
}`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `const calls = []; class SearchClient extends AIFunctionsProvider {
  @aiFunction({ name: 'web_search', inputSchema, stateScope: 'session' })
  async search(input) { calls.push(input.query); return []; }
}`,
            },
          ],
          data: { tool: 'web_search', action: 'calls `.push()` on', state: 'module-level `calls`' },
        },
      ],
    },
    {
      code: `const log = []; export class NotesTool implements NotesToolHandlers { async append(command) { log.push(command.text); return 'ok'; } }`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `const log = []; export class NotesTool implements NotesToolHandlers { readonly stateScope = 'session'; async append(command) { log.push(command.text); return 'ok'; } }`,
            },
          ],
          data: { tool: 'notes', action: 'calls `.push()` on', state: 'module-level `log`' },
        },
      ],
    },
    {
      code: `let selected; export const current = () => selected; export const selectPage = defineTool((args) => ({ name: 'select_page', schema, handler: async (request) => { selected = request.params.pageId; } }));`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `let selected; export const current = () => selected; export const selectPage = defineTool((args) => ({ name: 'select_page', schema, handler: async (request) => { selected = request.params.pageId; }, stateScope: 'session' }));`,
            },
          ],
          data: { tool: 'select_page', action: 'assigns', state: 'module-level `selected`' },
          line: 1,
        },
      ],
    },
    {
      code: `const seen = new Set();
export const remember = definePageTool(() => {
  return { name: 'remember', schema, handler: async (request) => { seen.add(request.params.id); } };
});`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `const seen = new Set();
export const remember = definePageTool(() => {
  return { name: 'remember', schema, handler: async (request) => { seen.add(request.params.id); }, stateScope: 'session' };
});`,
            },
          ],
          data: { tool: 'remember', action: 'calls `.add()` on', state: 'module-level `seen`' },
          line: 3,
        },
      ],
    },
  ],
});

// Bundled code renames locals (`response` → `response2`): still this call's output channel.
ruleTester.run('declare-tool-state-scope: renamed output channels', rule, {
  valid: [
    `const t = defineTabTool({ schema: { name: 'browser_get_config' }, handle: async (context2, params, response2) => { response2.addTextResult(JSON.stringify(params)); } });`,
  ],
  invalid: [
    {
      code: `const t = defineTabTool({ schema: { name: 'browser_open' }, handle: async (context2, params, response2) => { await context2.page.goto(params.url); response2.addTextResult('ok'); } });`,
      errors: [
        {
          messageId: 'drivesSharedObject',
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `const t = defineTabTool({ schema: { name: 'browser_open' }, handle: async (context2, params, response2) => { await context2.page.goto(params.url); response2.addTextResult('ok'); }, stateScope: 'session' });`,
            },
          ],
        },
      ],
    },
    {
      // …and a renamed tab is still the shared tab the tool drives.
      code: `const t = defineTabTool({ schema: { name: 'browser_click' }, handle: async (tab2, params2, response2) => { response2.setIncludeSnapshot(); await tab2.click(params2.ref); } });`,
      errors: [
        {
          messageId: 'drivesSharedObject',
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `const t = defineTabTool({ schema: { name: 'browser_click' }, handle: async (tab2, params2, response2) => { response2.setIncludeSnapshot(); await tab2.click(params2.ref); }, stateScope: 'session' });`,
            },
          ],
        },
      ],
    },
  ],
});

// What does not outlive the call, though it touches outer state: a warn-once latch, a change
// undone in a `finally`, a logger swapped in; and what does, though no line of the tool names it:
// the traps of a Proxy the tool touches.
ruleTester.run('declare-tool-state-scope: latches, undone changes, loggers, proxies', rule, {
  valid: [
    // a latch that only guards a log line
    `let warned = false; function createClient(key) { const c = new Api(key); if (c.hooks) { c.hooks.add(sign); } else if (!warned) { warned = true; console.warn('no hooks'); } return c; }
     export const t = buildTool({ name: 'a', async call(input) { return createClient(input.key).get(input.q); } });`,
    `let deprecated = false; export const t = buildTool({ name: 'a', async call(input) { if (input.old && !deprecated) { deprecated = true; logger.warn('old is deprecated'); process.emitWarning('old'); } return 'x'; } });`,
    // an entry added and removed under the same key in a finally: a per-path queue
    `const queues = new Map();
     async function withQueue(key, fn) { const prev = queues.get(key) ?? Promise.resolve(); const next = prev.then(fn); queues.set(key, next); try { return await next; } finally { if (queues.get(key) === next) queues.delete(key); } }
     export const t = buildTool({ name: 'write', async call(input) { return withQueue(input.path, () => save(input)); } });`,
    `const inflight = new Set(); export const t = buildTool({ name: 'a', async call(input) { inflight.add(input.id); try { return await run(input); } finally { inflight.delete(input.id); } } });`,
    // a slot taken from a pool and given back in a finally: a semaphore
    `class Pool { items = []; next() { return this.items.shift(); } push(x) { this.items.push(x); } }
     const slots = new Pool(); for (let i = 0; i < 4; i++) slots.push();
     async function search(p) { await slots.next(); try { return await run(p); } finally { slots.push(); } }
     export const t = buildTool({ name: 'grep', async call(input) { return search(input.pattern); } });`,
    // a logger set on a registry: observability, not tool state
    `const registry = Registry.getInstance();
     function getLogger() { const found = registry.getGlobalLogger(); if (found) return found; const made = createLogger(); registry.setGlobalLogger(made); return made; }
     export const t = createTool({ id: 'think', execute: async (input) => { getLogger().info(input.thought); return 'ok'; } });`,
    // a Proxy whose trap changes nothing
    `const env = new Proxy({}, { get(_target, key) { return process.env[String(key)]; } }); export const t = tool({ description: 'd', inputSchema, execute: async () => env.HOME });`,
  ],
  invalid: [
    // a latch that guards real work, or has an else, changes what later calls do
    {
      code: `let warmed = false; export const t = buildTool({ name: 'a', async call(input) { if (!warmed) { warmed = true; await warmUp(); } return run(input); } });`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `let warmed = false; export const t = buildTool({ name: 'a', async call(input) { if (!warmed) { warmed = true; await warmUp(); } return run(input); }, stateScope: 'session' });`,
            },
          ],
          data: { tool: 'a', action: 'assigns', state: 'module-level `warmed`' },
        },
      ],
    },
    {
      code: `let started = false; export const t = buildTool({ name: 'a', async call(input) { if (!started) { started = true; console.log('start'); } else { return 'again'; } return 'first'; } });`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `let started = false; export const t = buildTool({ name: 'a', async call(input) { if (!started) { started = true; console.log('start'); } else { return 'again'; } return 'first'; }, stateScope: 'session' });`,
            },
          ],
          data: { tool: 'a', action: 'assigns', state: 'module-level `started`' },
        },
      ],
    },
    // removed under another key, or not in a finally: the entry stays
    {
      code: `const seen = new Set(); export const t = buildTool({ name: 'a', async call(input) { seen.add(input.id); try { return await run(input); } finally { seen.delete(input.other); } } });`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `const seen = new Set(); export const t = buildTool({ name: 'a', async call(input) { seen.add(input.id); try { return await run(input); } finally { seen.delete(input.other); } }, stateScope: 'session' });`,
            },
          ],
          data: { tool: 'a', action: 'calls `.add()` on', state: 'module-level `seen`' },
        },
      ],
    },
    {
      code: `const pending = new Map(); export const t = buildTool({ name: 'a', async call(input) { pending.set(input.id, 1); const r = await run(input); if (r.ok) pending.delete(input.id); return r; } });`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `const pending = new Map(); export const t = buildTool({ name: 'a', async call(input) { pending.set(input.id, 1); const r = await run(input); if (r.ok) pending.delete(input.id); return r; }, stateScope: 'session' });`,
            },
          ],
          data: { tool: 'a', action: 'calls `.set()` on', state: 'module-level `pending`' },
        },
      ],
    },
    // a state-changing method that names no observability object
    {
      code: `const registry = Registry.getInstance(); export const t = createTool({ id: 'pick', execute: async (input) => { registry.setDefaultModel(input.model); return 'ok'; } });`,
      errors: [
        {
          messageId: 'drivesSharedObject',
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `const registry = Registry.getInstance(); export const t = createTool({ id: 'pick', execute: async (input) => { registry.setDefaultModel(input.model); return 'ok'; }, stateScope: 'session' });`,
            },
          ],
          data: { tool: 'pick', method: 'setDefaultModel', object: 'module-level `registry`' },
        },
      ],
    },
    // a lazily created client behind a Proxy: the first call creates and caches it
    {
      code: `let cached = null; const client = new Proxy({}, { get(_target, prop) { if (!cached) { cached = new Api(process.env.KEY); } return cached[prop]; } });
       export const search = tool({ description: 'd', inputSchema, execute: async ({ q }) => client.search(q) });`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `let cached = null; const client = new Proxy({}, { get(_target, prop) { if (!cached) { cached = new Api(process.env.KEY); } return cached[prop]; } });
       export const search = tool({ description: 'd', inputSchema, execute: async ({ q }) => client.search(q), stateScope: 'session' });`,
            },
          ],
          data: {
            tool: 'search',
            action: 'assigns',
            state: 'module-level `cached` (in `the get trap of client`, which the invocation calls)',
          },
        },
      ],
    },
    {
      code: `let cached = null; const shared = new Proxy({}, { get(_target, prop) { cached ??= new Api(process.env.KEY); return cached[prop]; } });
       export function createSearch({ apiKey } = {}) { const client = apiKey ? new Api(apiKey) : shared; return tool({ description: 'd', inputSchema, execute: async ({ q }) => client.search(q) }); }`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `let cached = null; const shared = new Proxy({}, { get(_target, prop) { cached ??= new Api(process.env.KEY); return cached[prop]; } });
       export function createSearch({ apiKey } = {}) { const client = apiKey ? new Api(apiKey) : shared; return tool({ description: 'd', inputSchema, execute: async ({ q }) => client.search(q), stateScope: 'session' }); }`,
            },
          ],
        },
      ],
    },
  ],
});

// A tool list joined by name to a dispatcher (tool-shapes/name-dispatch.ts): the state of the
// implementation the branch routes to is the list entry's, reported there, and counted once.
const nameDispatch = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'name-dispatch');
const fixtureText = (...segments: string[]): string => readFileSync(path.join(nameDispatch, ...segments), 'utf8');

ruleTester.run('declare-tool-state-scope: tool lists joined by name', rule, {
  valid: [
    // The implementation a listed name routes to is no tool by itself (the list entry is);
    // the dispatcher's own file defines no tool either.
    {
      code: fixtureText('reverse', 'counter.ts').replace(/\/\/ Routed by a name[\s\S]*$/, ''),
      filename: path.join(nameDispatch, 'reverse', 'counter.ts'),
    },
    { code: fixtureText('reverse', 'handler.ts'), filename: path.join(nameDispatch, 'reverse', 'handler.ts') },
    // A listed name no dispatcher routes: not a tool.
    {
      code: `const hits = []; export const TOOLS = [{ name: 'nobody_routes_me', description: 'd', inputSchema: { type: 'object' } }];`,
      filename: path.join(nameDispatch, 'reverse', 'inline.ts'),
    },
  ],
  invalid: [
    // A definition constant joined to its handler by `{ [countTool.name]: count }` (handler-map/index.ts);
    // `unmappedTool` in the same file is keyed by no map and is no tool.
    {
      code: fixtureText('handler-map', 'counter.ts'),
      filename: path.join(nameDispatch, 'handler-map', 'counter.ts'),
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `let calls = 0;
export const countTool = { name: 'count_mapped', description: 'Count calls', inputSchema: { type: 'object' }, _meta: { 'anthropic/stateScope': 'session' } };
// No map keys this definition: not a tool.
export const unmappedTool = { name: 'unmapped', description: 'Nobody handles me', inputSchema: { type: 'object' } };

export function count() {
  calls += 1;
  return { content: [{ type: 'text', text: String(calls) }] };
}
`,
            },
          ],
          data: { tool: 'count_mapped', action: 'assigns', state: 'module-level `calls`' },
        },
      ],
    },
    // Definitions in tools.ts, the dispatcher (which imports them) in handler.ts, the class in counter.ts.
    {
      code: fixtureText('reverse', 'tools.ts'),
      filename: path.join(nameDispatch, 'reverse', 'tools.ts'),
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `// The ListTools answer: definitions only. The dispatcher (handler.ts) imports this file.
export const TOOLS = [
  { name: 'fetch_page', description: 'Fetch a page and return its text', inputSchema: { type: 'object' } },
  { name: 'count_clicks', description: 'Count a click', inputSchema: { type: 'object' }, _meta: { 'anthropic/stateScope': 'session' } },
  { name: 'unrouted', description: 'Listed, but no dispatcher routes it', inputSchema: { type: 'object' } },
];
export const TOOL_NAMES = TOOLS.map((tool) => tool.name);
`,
            },
          ],
          line: 4,
          data: { tool: 'count_clicks', action: 'assigns', state: 'instance field `this.clicks`' },
        },
      ],
    },
    // The definitions import the dispatcher: an `if` chain on the name.
    {
      code: fixtureText('forward', 'server.ts'),
      filename: path.join(nameDispatch, 'forward', 'server.ts'),
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `// The definitions import the dispatcher here (the other direction).
import { dispatch } from './dispatch.js';

export const tools = [
  { name: 'read_note', description: 'Read a note', inputSchema: { type: 'object' } },
  { name: 'remember_note', description: 'Remember a note', inputSchema: { type: 'object' }, _meta: { 'anthropic/stateScope': 'session' } },
];

export function serve(server: any) {
  server.onList(() => ({ tools }));
  server.onCall((request: any) => dispatch(request.params.name, request.params.arguments ?? {}));
}
`,
            },
          ],
          line: 6,
          data: { tool: 'remember_note', action: 'calls `.push()` on', state: 'module-level `opened`' },
        },
      ],
    },
    // Definitions and dispatcher in one file.
    {
      code: `let visits = 0;
export const TOOLS = [
  { name: 'visit', description: 'd', inputSchema: { type: 'object' } },
];
export function route(name, args) {
  switch (name) {
    case 'visit': visits += 1; return { content: [] };
  }
}`,
      filename: path.join(nameDispatch, 'reverse', 'inline.ts'),
      // In the linted file the change itself is reported, as for every dispatcher branch.
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `let visits = 0;
export const TOOLS = [
  { name: 'visit', description: 'd', inputSchema: { type: 'object' }, _meta: { 'anthropic/stateScope': 'session' } },
];
export function route(name, args) {
  switch (name) {
    case 'visit': visits += 1; return { content: [] };
  }
}`,
            },
          ],
          line: 7,
          data: { tool: 'visit', action: 'assigns', state: 'module-level `visits`' },
        },
      ],
    },
    // A class routed by a name no list declares stays a tool of its own.
    {
      code: fixtureText('reverse', 'counter.ts'),
      filename: path.join(nameDispatch, 'reverse', 'counter.ts'),
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `// The implementation the dispatcher routes \`count_clicks\` to: no tool by itself.
export class CounterTool {
  clicks = 0;
  async execute(args: { times?: number }) {
    this.clicks += args.times ?? 1;
    return { content: [{ type: 'text', text: 'counted' }] };
  }
}

// Routed by a name no tool list declares: a tool of its own, as before.
export class OrphanTool {
  readonly stateScope = 'session';
  seen: string[] = [];
  async execute(args: { id: string }) {
    this.seen.push(args.id);
    return { content: [{ type: 'text', text: 'ok' }] };
  }
}
`,
            },
          ],
          data: { tool: 'OrphanTool', action: 'calls `.push()` on', state: 'instance field `this.seen`' },
        },
      ],
    },
  ],
});

// A helper handed the context argument and a callback runs the callback with the context's part:
// a callback parameter named as a shared object is that object (only driving it counts).
ruleTester.run('declare-tool-state-scope: callbacks handed the context', rule, {
  valid: [
    // Not named as a shared object: what the helper passes is unknown.
    `export class SpanTool extends BaseTool { async execute(args, context) { return this.withSpan(context, async (span) => { span.setAttribute('a', args.a); return 'ok'; }); } }`,
    // A request client handed over is only called (`.delete()` on it sends a request, it changes no collection).
    `export class DeleteTool extends BaseTool { async execute(args, context) { return this.safeExecute(context, async (apiContext) => { const r = await apiContext.delete(args.url); return r.status(); }); } }`,
  ],
  invalid: [
    {
      code: `export class ClickTool extends BaseTool { async execute(args, context) { return this.safeExecute(context, async (page) => { await page.click(args.selector); return 'clicked'; }); } }`,
      errors: [
        {
          messageId: 'drivesSharedObject',
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `export class ClickTool extends BaseTool { readonly stateScope = 'session'; async execute(args, context) { return this.safeExecute(context, async (page) => { await page.click(args.selector); return 'clicked'; }); } }`,
            },
          ],
          data: { tool: 'ClickTool', method: 'click', object: "`page`, handed over from `context`, the invocation's context argument" },
        },
      ],
    },
  ],
});

// A tool's confirmation method (`shouldConfirmExecute`, `getConfirmationDetails`) runs on every
// call, and the approval callback it returns records what later calls skip.
const invocationTool = (invocation: string, tool = ''): string =>
  `class ShellInvocation extends BaseToolInvocation { constructor(config, params, allowlist) { super(params); this.config = config; this.allowlist = allowlist; } ${invocation} async execute() { return 'ok'; } }
   export class ShellTool extends BaseDeclarativeTool { allowlist = new Set(); ${tool} createInvocation(params) { return new ShellInvocation(this.config, params, this.allowlist); } }`;

ruleTester.run('declare-tool-state-scope: confirmation callbacks', rule, {
  valid: [
    // a confirmation that records its outcome only on the per-call invocation
    invocationTool(
      `async shouldConfirmExecute() { return { onConfirm: async (outcome) => { this.outcome = outcome; this.answers = []; this.answers.push(outcome); } }; }`,
    ),
    // one that only reads the long-lived allowlist and config
    invocationTool(
      `async shouldConfirmExecute() { if (this.allowlist.has(this.params.command) || this.config.getApprovalMode() === 'yolo') return false; return { onConfirm: async () => {} }; }`,
    ),
    // a method named otherwise is not part of the call
    invocationTool(`rememberLater(command) { this.allowlist.add(command); }`),
    // declared
    invocationTool(
      `async shouldConfirmExecute() { return { onConfirm: async () => { this.allowlist.add(this.params.command); } }; }`,
      `stateScope = 'session';`,
    ),
  ],
  invalid: [
    {
      // "proceed always" adds to the allowlist the tool handed to its invocation
      code: invocationTool(
        `async shouldConfirmExecute() { return { onConfirm: async (outcome) => { if (outcome === 'always') this.allowlist.add(this.params.command); } }; }`,
      ),
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `class ShellInvocation extends BaseToolInvocation { constructor(config, params, allowlist) { super(params); this.config = config; this.allowlist = allowlist; } async shouldConfirmExecute() { return { onConfirm: async (outcome) => { if (outcome === 'always') this.allowlist.add(this.params.command); } }; } async execute() { return 'ok'; } }
   export class ShellTool extends BaseDeclarativeTool { readonly stateScope = 'session'; allowlist = new Set();  createInvocation(params) { return new ShellInvocation(this.config, params, this.allowlist); } }`,
            },
          ],
          data: {
            tool: 'ShellTool',
            action: 'calls `.add()` on',
            state: 'instance field `this.allowlist`, which the tool handed to its invocation',
          },
        },
      ],
    },
    {
      // or changes the shared config's approval mode, through a helper method
      code: invocationTool(
        `async shouldConfirmExecute() { return { onConfirm: async () => { this.setModeSafely('auto_edit'); } }; } setModeSafely(mode) { this.config.setApprovalMode(mode); }`,
      ),
      errors: [
        {
          messageId: 'drivesSharedObject',
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `class ShellInvocation extends BaseToolInvocation { constructor(config, params, allowlist) { super(params); this.config = config; this.allowlist = allowlist; } async shouldConfirmExecute() { return { onConfirm: async () => { this.setModeSafely('auto_edit'); } }; } setModeSafely(mode) { this.config.setApprovalMode(mode); } async execute() { return 'ok'; } }
   export class ShellTool extends BaseDeclarativeTool { readonly stateScope = 'session'; allowlist = new Set();  createInvocation(params) { return new ShellInvocation(this.config, params, this.allowlist); } }`,
            },
          ],
        },
      ],
    },
    {
      // a static allowlist outlives every invocation
      code: `class MemoryInvocation extends BaseToolInvocation { static allowlist = new Set(); async getConfirmationDetails() { return { onConfirm: async () => { MemoryInvocation.allowlist.add(this.params.key); } }; } async execute() { return 'ok'; } }
             export class MemoryTool extends BaseDeclarativeTool { createInvocation(params) { return new MemoryInvocation(params); } }`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `class MemoryInvocation extends BaseToolInvocation { static allowlist = new Set(); async getConfirmationDetails() { return { onConfirm: async () => { MemoryInvocation.allowlist.add(this.params.key); } }; } async execute() { return 'ok'; } }
             export class MemoryTool extends BaseDeclarativeTool { readonly stateScope = 'session'; createInvocation(params) { return new MemoryInvocation(params); } }`,
            },
          ],
        },
      ],
    },
    {
      // a class tool's own confirmation method
      code: `const approved = new Set(); export class DeployTool extends BaseTool { async requestApproval(input) { approved.add(input.target); } async call(input) { return 'ok'; } }`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `const approved = new Set(); export class DeployTool extends BaseTool { readonly stateScope = 'session'; async requestApproval(input) { approved.add(input.target); } async call(input) { return 'ok'; } }`,
            },
          ],
        },
      ],
    },
  ],
});

// A factory whose returned config runs its own function around the tool's invocation (issue 12).
const wrappingFactory = `function defineTabTool(tool) { return { ...tool, handle: async (context, params, response) => { const tab = await context.ensureTab(); return tool.handle(tab, params, response); } }; }`;
ruleTester.run('declare-tool-state-scope: state changed by a factory around the invocation', rule, {
  valid: [
    // a factory that hands the config back unchanged runs nothing of its own
    `function defineTool(tool) { return tool; } const t = defineTool({ schema: { name: 'browser_get_config' }, handle: async (context, params, response) => { response.addTextResult(JSON.stringify(context.config)); } });`,
    // a wrapper that only looks the current tab up changes nothing
    `function defineTabTool(tool) { return { ...tool, handle: async (context, params, response) => tool.handle(context.currentTabOrDie(), params, response) }; } const t = defineTabTool({ schema: { name: 'browser_title' }, handle: async (tab, params, response) => { response.addTextResult(await tab.title()); } });`,
    // declared: the wrapper's state is the tool's, and the tool says so
    `${wrappingFactory} const t = defineTabTool({ schema: { name: 'browser_snapshot' }, stateScope: 'session', handle: async (tab, params, response) => { response.addTextResult(await tab.snapshot()); } });`,
  ],
  invalid: [
    {
      // the wrapper creates and keeps the current tab on the long-lived context, for every tool it defines
      code: `${wrappingFactory} const t = defineTabTool({ schema: { name: 'browser_snapshot' }, handle: async (tab, params, response) => { response.addTextResult(await tab.snapshot()); } });`,
      errors: [
        {
          messageId: 'drivesSharedObject',
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `function defineTabTool(tool) { return { ...tool, handle: async (context, params, response) => { const tab = await context.ensureTab(); return tool.handle(tab, params, response); } }; } const t = defineTabTool({ schema: { name: 'browser_snapshot' }, handle: async (tab, params, response) => { response.addTextResult(await tab.snapshot()); }, stateScope: 'session' });`,
            },
          ],
          data: {
            tool: 'browser_snapshot',
            method: 'ensureTab',
            object: "`context`, the invocation's context argument (in `defineTabTool`, which wraps the invocation)",
          },
        },
      ],
    },
  ],
});

ruleTester.run('declare-tool-state-scope: ensure-style creation on a long-lived object', rule, {
  valid: [
    // an object the invocation creates itself dies with the call
    `export const t = createTool({ id: 'cookies', description: 'd', execute: async (input) => { const session = new BrowserSession(); await session.ensureBrowserContext(); return session.cookies(); } });`,
    // a package's ensure helper writes a folder on disk
    `import fs from 'fs-extra'; export const t = createTool({ id: 'mkdir', description: 'd', execute: async ({ path }) => { await fs.ensureDir(path); return 'ok'; } });`,
  ],
  invalid: [
    {
      // the first call creates the browser context and keeps it on the shared context; later calls find it
      code: `export const t = createTool({ id: 'cookies', description: 'd', execute: async (input, context) => { const browserContext = await context.ensureBrowserContext(); return browserContext.cookies(); } });`,
      errors: [
        {
          messageId: 'drivesSharedObject',
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `export const t = createTool({ id: 'cookies', description: 'd', execute: async (input, context) => { const browserContext = await context.ensureBrowserContext(); return browserContext.cookies(); }, stateScope: 'session' });`,
            },
          ],
          data: { tool: 'cookies', method: 'ensureBrowserContext', object: "`context`, the invocation's context argument" },
        },
      ],
    },
  ],
});

ruleTester.run('declare-tool-state-scope: an object a helper keeps and hands back', rule, {
  valid: [
    // the helper builds a fresh page per call
    `function openPage() { const page = createPage(); return page; } export const t = tool({ description: 'd', inputSchema: {}, execute: async ({ selector }) => { const p = openPage(); await p.click(selector); return 'ok'; } });`,
    // the helper hands back what it is given
    `function same(page) { return page; } export const t = tool({ description: 'd', inputSchema: {}, execute: async ({ selector }) => { const p = same(createPage()); await p.click(selector); return 'ok'; } });`,
  ],
  invalid: [
    {
      // the module keeps one page; the helper returns it, and the tool clicks in it
      code: `let page; function currentPage() { return page; } export const t = tool({ description: 'd', inputSchema: {}, execute: async ({ selector }) => { const p = currentPage(); await p.click(selector); return 'ok'; } });`,
      errors: [
        {
          messageId: 'drivesSharedObject',
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `let page; function currentPage() { return page; } export const t = tool({ description: 'd', inputSchema: {}, execute: async ({ selector }) => { const p = currentPage(); await p.click(selector); return 'ok'; }, stateScope: 'session' });`,
            },
          ],
          data: { tool: 't', method: 'click', object: '`p`, taken from module-level `page`, which `currentPage` returns' },
        },
      ],
    },
  ],
});

ruleTester.run('declare-tool-state-scope: handles taken from a shared object', rule, {
  valid: [
    // reading through the handle changes nothing
    `const t = defineTabTool({ schema: { name: 'browser_text' }, handle: async (tab, params, response) => { const el = await tab.targetLocator(params); response.addTextResult(await el.textContent()); } });`,
    // a handle of an object the invocation creates itself
    `export const t = tool({ description: 'd', inputSchema: {}, execute: async ({ ref }) => { const tab = await openTab(); const el = tab.targetLocator(ref); await el.click(); return 'ok'; } });`,
  ],
  invalid: [
    {
      // the element handle drives the shared tab it was taken from, whatever the local is called
      code: `const t = defineTabTool({ schema: { name: 'browser_click' }, handle: async (tab, params, response) => { const el = await tab.targetLocator(params); await el.click(); } });`,
      errors: [
        {
          messageId: 'drivesSharedObject',
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `const t = defineTabTool({ schema: { name: 'browser_click' }, handle: async (tab, params, response) => { const el = await tab.targetLocator(params); await el.click(); }, stateScope: 'session' });`,
            },
          ],
          data: { tool: 'browser_click', method: 'click', object: "`el`, taken from `tab`, the invocation's context argument" },
        },
      ],
    },
  ],
});

ruleTester.run('declare-tool-state-scope: recordings started and overlays shown on a shared object', rule, {
  valid: [
    // a value read from a shared object is not a handle of it: `indexOf` only looks like a verb
    `export const t = createTool({ id: 'edit', description: 'd', execute: async ({ path, old }, context) => { const content = await context.filesystem.readFile(path); return content.indexOf(old); } });`,
    `export const t = createTool({ id: 'find', description: 'd', execute: async ({ text }, context) => { const html = await context.page.content(); return html.indexOf(text); } });`,
    // a recording the invocation starts and stops on its own recorder ends with the call
    `export const t = createTool({ id: 'rec', description: 'd', execute: async (input) => { const recorder = new Recorder(); recorder.startRecording(); return recorder.stopRecording(); } });`,
  ],
  invalid: [
    {
      // the recording keeps running on the long-lived context after the call
      code: `export const t = createTool({ id: 'start_recording', description: 'd', execute: async (input, context) => { await context.startRecording(); return 'started'; } });`,
      errors: [
        {
          messageId: 'drivesSharedObject',
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `export const t = createTool({ id: 'start_recording', description: 'd', execute: async (input, context) => { await context.startRecording(); return 'started'; }, stateScope: 'session' });`,
            },
          ],
          data: { tool: 'start_recording', method: 'startRecording', object: "`context`, the invocation's context argument" },
        },
      ],
    },
    {
      // an overlay shown on the shared tab's screencast stays for later calls
      code: `export const t = createTool({ id: 'chapter', description: 'd', execute: async ({ title }, context) => { const tab = context.currentTabOrDie(); await tab.page.screencast.showChapter(title); return 'ok'; } });`,
      errors: [
        {
          messageId: 'drivesSharedObject',
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `export const t = createTool({ id: 'chapter', description: 'd', execute: async ({ title }, context) => { const tab = context.currentTabOrDie(); await tab.page.screencast.showChapter(title); return 'ok'; }, stateScope: 'session' });`,
            },
          ],
          data: { tool: 'chapter', method: 'showChapter', object: "`tab`, taken from `context`, the invocation's context argument" },
        },
      ],
    },
  ],
});

// The suggestion declares what the code does today (`stateScope: 'session'`) where the tool's
// classification lives, through the same member-insertion helper as maxResultSizeChars; the
// codemod replays it (with a TODO to review the scope).
ruleTester.run('declare-tool-state-scope: the stateScope suggestion', rule, {
  valid: [],
  invalid: [
    {
      // a class tool in TypeScript: a readonly field
      code: `let count = 0;
export class CounterTool extends BaseTool {
  name = 'counter';
  async call() {
    count++;
  }
}
`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `let count = 0;
export class CounterTool extends BaseTool {
  readonly stateScope = 'session';
  name = 'counter';
  async call() {
    count++;
  }
}
`,
            },
          ],
        },
      ],
    },
    {
      // an MCP registerTool config: `_meta`, never the input shape
      code: `const sessions = new Map();
server.registerTool('logout', { description: 'd' }, async (args) => {
  sessions.delete(args.id);
  return { content: [] };
});
`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `const sessions = new Map();
server.registerTool('logout', { description: 'd', _meta: { 'anthropic/stateScope': 'session' } }, async (args) => {
  sessions.delete(args.id);
  return { content: [] };
});
`,
            },
          ],
        },
      ],
    },
    {
      // an AI SDK tool, whose type has no such field: the classifyTool wrapper, imported
      code: `import { tool } from 'ai';
const history: string[] = [];
export const log = tool({
  description: 'log',
  inputSchema: schema,
  execute: async (input) => {
    history.push(input.text);
    return 'ok';
  },
});
`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `import { tool } from 'ai';
import { classifyTool } from 'tool-result-guard';
const history: string[] = [];
export const log = classifyTool(tool({
  description: 'log',
  inputSchema: schema,
  execute: async (input) => {
    history.push(input.text);
    return 'ok';
  },
}), { stateScope: 'session' });
`,
            },
          ],
        },
      ],
    },
    {
      // two tools sharing one invocation: one report, and its suggestion declares the scope on both
      filename: 'file.js',
      code: `export function toFunctionTool(strict) {
  const byRun = new WeakMap();
  async function invoke(input, runContext) {
    byRun.set(runContext, input);
  }
  return strict ? buildTool({ name: 'a', call: invoke }) : buildTool({ name: 'b', call: invoke });
}
`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `export function toFunctionTool(strict) {
  const byRun = new WeakMap();
  async function invoke(input, runContext) {
    byRun.set(runContext, input);
  }
  return strict ? buildTool({ name: 'a', call: invoke, stateScope: 'session' }) : buildTool({ name: 'b', call: invoke, stateScope: 'session' });
}
`,
            },
          ],
        },
      ],
    },
    {
      // the file's own quote style
      filename: 'file.js',
      code: `const cache = new Map();
export const pages = buildTool({ name: "pages", async call(input) { cache.set(input.url, "x"); } });
`,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: `const cache = new Map();
export const pages = buildTool({ name: "pages", async call(input) { cache.set(input.url, "x"); }, stateScope: "session" });
`,
            },
          ],
        },
      ],
    },
  ],
});

// The verdict's principles on code nobody here wrote (issue 27): each principle, valid and invalid.
ruleTester.run('declare-tool-state-scope: objects the invocation is handed (state a tool drives)', rule, {
  valid: [
    // §3: `getTitle` changes nothing, so a handed-in context read by name is no state
    {
      code: "export const titleTool = defineTool({ name: 'title', description: 'The page title', inputSchema: {}, handle: async (context, params) => { const title = await context.getTitle(); return title; } });",
    },
  ],
  invalid: [
    // §3: `context` is handed in and the analysis cannot follow it; `navigate` says the call changes it
    {
      code: "export const navigateTool = defineTool({ name: 'navigate', description: 'Go to a URL', inputSchema: { url: z.string() }, handle: async (context, params) => { await context.navigate(params.url); return 'ok'; } });",
      errors: [
        {
          messageId: 'drivesSharedObject',
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output:
                "export const navigateTool = defineTool({ name: 'navigate', description: 'Go to a URL', inputSchema: { url: z.string() }, handle: async (context, params) => { await context.navigate(params.url); return 'ok'; }, stateScope: 'session' });",
            },
          ],
        },
      ],
    },
    // §3: in a `{ input, agent }` call record, `agent` is the harness's context beside the model's input; `clickAt` drives it
    {
      code: "export const clickAction = createAction({ name: 'mouse:click', description: 'Click', schema: z.object({ x: z.number() }), resolver: async ({ input, agent }) => { await agent.clickAt(input.x); } });",
      errors: [
        {
          messageId: 'drivesSharedObject',
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output:
                "export const clickAction = createAction({ name: 'mouse:click', description: 'Click', schema: z.object({ x: z.number() }), resolver: async ({ input, agent }) => { await agent.clickAt(input.x); }, stateScope: 'session' });",
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
  tester.run(`declare-tool-state-scope (a harness's own tool types, ${mode})`, rule, {
    valid: stateScopeCases.map((testCase) => ({ code: testCase.suggestion!.output, filename: harnessTypesFile })),
    invalid: stateScopeCases.map((testCase) => ({
      name: testCase.name,
      code: testCase.code,
      filename: harnessTypesFile,
      errors: [
        {
          messageId: testCase.messageId as typeof mutates,
          suggestions: [{ messageId: 'declareSessionScope' as const, output: testCase.suggestion!.output }],
        },
      ],
    })),
  });
}

// A page's element lookups hand back a handle on the page (issue 27, round 3):
// `page.locator(selector).first().click()` drives the shared page.
ruleTester.run('declare-tool-state-scope: driving a shared page through its element lookups', rule, {
  valid: [
    // a page the invocation creates for itself is not shared
    {
      code: "import { tool } from 'ai';\nimport { z } from 'zod';\nexport const clickTool = tool({ name: 'browser_click', description: 'Click an element', inputSchema: z.object({ selector: z.string() }), execute: async ({ selector }) => { const page = createSharedPage(); await page.locator(selector).first().click(); return 'Clicked'; } });",
    },
  ],
  invalid: [
    {
      code: "import { tool } from 'ai';\nimport { z } from 'zod';\nconst page = createSharedPage();\nexport const clickTool = tool({ name: 'browser_click', description: 'Click an element', inputSchema: z.object({ selector: z.string() }), execute: async ({ selector }) => { await page.locator(selector).first().click(); return 'Clicked'; } });\n",
      errors: [
        {
          messageId: 'drivesSharedObject',
          data: { tool: 'browser_click', method: 'click', object: 'module-level `page`' },
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output:
                "import { tool } from 'ai';\nimport { z } from 'zod';\nimport { classifyTool } from 'tool-result-guard';\nconst page = createSharedPage();\nexport const clickTool = classifyTool(tool({ name: 'browser_click', description: 'Click an element', inputSchema: z.object({ selector: z.string() }), execute: async ({ selector }) => { await page.locator(selector).first().click(); return 'Clicked'; } }), { stateScope: 'session' });\n",
            },
          ],
        },
      ],
    },
  ],
});

// A package's registration helper registers its own function around each handler (Pinecone's MCP server keeps a
// client per caller in it), and a handler map another module holds under the tool's name (first contact, issue 27).
const helperFixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'self-reading');
ruleTester.run('declare-tool-state-scope: registration helpers and looked-up handler maps', rule, {
  valid: [
    // The helper registers the handler as it is: nothing of the helper's runs on a call.
    {
      code: `function registerToolConditional(toolName, schema, handler) { server.registerTool(toolName, schema, handler); }
registerToolConditional('status', { description: 'Status', inputSchema: {} }, async () => ({ content: [{ type: 'text', text: 'ok' }] }));`,
      filename: path.join(helperFixtures, 'tool.ts'),
    },
  ],
  invalid: [
    {
      code: `import { registerDatabaseTool } from './register-helper.js';
registerDatabaseTool('describe-index', { description: 'Describe an index', inputSchema: {} }, async (args, client) => String(args.name));`,
      filename: path.join(helperFixtures, 'tool.ts'),
      // The helper types its config: a \`_meta\` written into it would not compile, so no suggestion.
      errors: [
        {
          messageId: mutates,
          data: {
            tool: 'describe-index',
            action: 'calls `.set()` on',
            state: 'module-level `clients` (in `registerDatabaseTool`, which wraps the invocation)',
          },
          suggestions: [],
        },
      ],
    },
    {
      code: fixtureText('looked-up-map', 'definitions.ts'),
      filename: path.join(nameDispatch, 'looked-up-map', 'definitions.ts'),
      errors: [
        {
          messageId: mutates,
          data: { tool: 'note_count', action: 'assigns', state: 'module-level `counted`' },
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: fixtureText('looked-up-map', 'definitions.ts').replace(
                "{ type: 'object', properties: {} } },\n  // No map",
                "{ type: 'object', properties: {} }, _meta: { 'anthropic/stateScope': 'session' } },\n  // No map",
              ),
            },
          ],
        },
      ],
    },
  ],
});

/** A module that keeps its pages in a map and a helper that hands back the current one (mcp-selenium's `getDriver`). */
const keptPages = (tool: string): string => `const state = { pages: new Map(), current: null };
const getPage = () => {
  const page = state.pages.get(state.current);
  if (!page) throw new Error('No active page');
  return page;
};
${tool}`;

ruleTester.run('declare-tool-state-scope: an entry a helper takes from a collection the module keeps', rule, {
  valid: [
    // Reading the kept page's title changes nothing a later call sees.
    {
      code: keptPages(
        "buildTool({ name: 'title', async call() { const page = getPage(); return { content: [{ type: 'text', text: await page.title() }] }; } });",
      ),
    },
    // A helper that builds a fresh page each time hands back nothing that outlives the call.
    {
      code: `const openPage = async (browser) => { const page = await browser.newPage(); return page; };
buildTool({ name: 'navigate', async call({ url }, { browser }) { const page = await openPage(launchFresh()); await page.goto(url); return 'ok'; } });`,
    },
  ],
  invalid: [
    ((code) => ({
      code,
      errors: [
        {
          messageId: 'drivesSharedObject' as const,
          data: { tool: 'navigate', method: 'goto', object: '`page`, taken from module-level `state`, which `getPage` returns' },
          suggestions: [
            {
              messageId: 'declareSessionScope' as const,
              output: code.replace("return 'ok'; } });", "return 'ok'; }, stateScope: 'session' });"),
            },
          ],
        },
      ],
    }))(keptPages("buildTool({ name: 'navigate', async call({ url }) { const page = getPage(); await page.goto(url); return 'ok'; } });")),
  ],
});

const pageStateFile = path.join(helperFixtures, 'tools.ts');
/** Tools a server registers with the one `state` it made, handed to helpers of another module. */
const handedState = (body: string): string => `import { z } from 'zod';
import { ensurePage, pageTitle, removeLabel } from './page-state.js';
export function registerTools(server, state) {
  server.registerTool('tab_tool', { description: 'Work on a tab', inputSchema: { pageId: z.string() } }, async (args) => {
    ${body}
    return { content: [{ type: 'text', text: 'ok' }] };
  });
}
`;

ruleTester.run('declare-tool-state-scope: an imported helper that changes the long-lived object it is handed', rule, {
  valid: [
    // The helper only looks at what it is handed.
    { code: handedState('await pageTitle(state, args.pageId);'), filename: pageStateFile },
    // A client handed to a helper that asks the remote service through it (Gmail's labels): the change lives there.
    { code: handedState('await removeLabel(state, args.pageId);'), filename: pageStateFile },
    // The helper changes what it is handed, but the tool hands it an object it made for this call.
    { code: handedState('await ensurePage({ browser: openBrowser(), pages: new Map() }, args.pageId);'), filename: pageStateFile },
  ],
  invalid: [
    ((code) => ({
      code,
      filename: pageStateFile,
      errors: [
        {
          messageId: mutates,
          data: {
            tool: 'tab_tool',
            action: 'calls imported `ensurePage`, which changes',
            state: '`state`, a parameter of the enclosing function `registerTools`',
          },
          suggestions: [
            {
              messageId: 'declareSessionScope' as const,
              output: code.replace(
                "{ description: 'Work on a tab', inputSchema: { pageId: z.string() } }",
                "{ description: 'Work on a tab', inputSchema: { pageId: z.string() }, _meta: { 'anthropic/stateScope': 'session' } }",
              ),
            },
          ],
        },
      ],
    }))(handedState('await ensurePage(state, args.pageId);')),
  ],
});

/** A tool reported for driving a shared object, with the message's data and the session-scope fix's output. */
const drivesCase = (code: string, data: { tool: string; method: string; object: string }, output: string) => ({
  code,
  errors: [
    {
      messageId: 'drivesSharedObject' as const,
      data,
      suggestions: [{ messageId: 'declareSessionScope' as const, output }],
    },
  ],
});

/** A controller whose actions hand their context on to a helper as an object literal (browser-use's `navigateImpl`). */
const controller = (action: string): string => `export class Controller {
  register() {
    const navigateImpl = async function (params, { browser_session, signal }) {
      await browser_session.navigate_to(params.url, { signal });
      return 'Navigated';
    };
    const waitImpl = async function (params, { seconds }) {
      await sleep(seconds * 1000);
      return 'Waited';
    };
    ${action}
  }
}
`;

ruleTester.run('declare-tool-state-scope: a context handed on to a helper inside an object literal', rule, {
  valid: [
    // The helper is handed values of this call only.
    {
      code: controller(
        "this.registry.action('Wait a moment', { param_model: WaitSchema })(async function wait(params, { browser_session }) { return waitImpl(params, { seconds: params.seconds }); });",
      ),
    },
  ],
  invalid: [
    ((code) =>
      drivesCase(
        code,
        {
          tool: 'go_to_url',
          method: 'navigate_to',
          object: "`browser_session`, the invocation's context argument (in `navigateImpl`, which the invocation calls)",
        },
        code.replace('{ param_model: GoToUrlSchema }', "{ param_model: GoToUrlSchema, stateScope: 'session' }"),
      ))(
      controller(
        "this.registry.action('Navigate to URL', { param_model: GoToUrlSchema })(async function go_to_url(params, { browser_session, signal }) { return navigateImpl(params, { browser_session, signal }); });",
      ),
    ),
  ],
});

/**
 * An esbuild bundle whose handler takes the browser from its dynamic import of the bundle's own
 * module (`await init_index().then(() => index_exports)`): a helper that keeps the browser in a
 * module variable and hands it back.
 */
const bundledBrowserServer = (call: string): string => `import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
async function handleNavigate(args2) {
  const { getBrowser: getBrowser2 } = await init_index().then(() => index_exports);
  const browser3 = await getBrowser2();
  ${call}
  return { content: [{ type: 'text', text: 'ok' }] };
}
var navigateTool = { name: 'navigate_page', description: 'Navigate the selected tab to a URL.', inputSchema: { type: 'object', properties: { url: { type: 'string' } } } };
var index_exports = {};
__export(index_exports, { getBrowser: () => getBrowser });
var browser2;
async function getBrowser() {
  if (!browser2) browser2 = await launchBrowser();
  return browser2;
}
var toolHandlers = new Map([['navigate_page', handleNavigate]]);
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const handler = toolHandlers.get(request.params.name);
  return handler(request.params.arguments);
});
`;

ruleTester.run('declare-tool-state-scope: kept objects through a bundle’s dynamic import, and disk wrappers', rule, {
  valid: [
    // Reading the kept browser's tabs changes nothing.
    { code: bundledBrowserServer('const tabs = browser3.getTabs();') },
    // `fileSystem.writeNote(…)`: a wrapper of the disk; what it changes lives there.
    `import { z } from 'zod';
import { FileSystemService } from './filesystem.js';
export function createServer(root) {
  const fileSystem = new FileSystemService(root);
  server.registerTool('write_note', { description: 'Write a note', inputSchema: { path: z.string(), content: z.string() } }, async (args) => {
    await fileSystem.writeNote(args.path, args.content);
    return { content: [{ type: 'text', text: 'written' }] };
  });
}
`,
  ],
  invalid: [
    // The kept browser's `navigate` is not followed; its verb says it drives the browser every later call gets.
    ((code) =>
      drivesCase(
        code,
        {
          tool: 'navigate_page',
          method: 'navigate',
          object: '`browser3`, taken from module-level `browser2`, which `getBrowser2` returns',
        },
        code.replace(
          "properties: { url: { type: 'string' } } } };",
          "properties: { url: { type: 'string' } } }, _meta: { 'anthropic/stateScope': 'session' } };",
        ),
      ))(bundledBrowserServer('await browser3.navigate(args2.url);')),
  ],
});

// A module that loads the configuration and caches it, beside one that keeps the sessions it loads.
writeFileSync(
  path.join(helperFolder, 'config-io.ts'),
  `let configCache: { value: unknown; at: number } | undefined;\nexport function loadConfig() { if (configCache && Date.now() - configCache.at < 1000) return configCache.value; configCache = { value: readSettingsFile(), at: Date.now() }; return configCache.value; }\nconst sessions = new Map<string, unknown>();\nexport function loadSession(key: string) { const session = openSession(key); sessions.set(key, session); return session; }\n`,
);

/** A tool reported for changing outliving state, with the session-scope fix's output. */
const mutatesCase = (code: string, output: string) => ({
  code,
  errors: [{ messageId: mutates, suggestions: [{ messageId: 'declareSessionScope' as const, output }] }],
});

/** A tool of `toolFile` (beside the helper modules) reported for a change, fixed with `stateScope: 'session'` after its invocation. */
const helperToolCase = (code: string) => ({
  ...mutatesCase(code, code.replace("return 'ok'; } });", "return 'ok'; }, stateScope: 'session' });")),
  filename: toolFile,
});

ruleTester.run('declare-tool-state-scope: a loaded configuration is no state the call leaves', rule, {
  valid: [
    // `loadConfig()` caches what every call would load again: the configuration, not state of this call.
    {
      code: `import { loadConfig } from './config-io.js'; export const t = tool({ description: 'd', inputSchema: {}, execute: async () => { const cfg = loadConfig(); return String(cfg); } });`,
      filename: toolFile,
    },
  ],
  invalid: [
    // A session it loads is kept for the next call.
    helperToolCase(
      `import { loadSession } from './config-io.js'; export const t = tool({ description: 'd', inputSchema: {}, execute: async ({ key }) => { loadSession(key); return 'ok'; } });`,
    ),
  ],
});

/**
 * A controller whose actions hand their context to a handler the analysis cannot follow (one
 * kept in an instance field, `this.clickHandler`): the tool's name decides.
 */
const unfollowedController = (name: string, body: string): string => `export class Controller {
  register() {
    const clickHandler = this.clickHandler;
    this.registry.action('An action', { param_model: ActionSchema, action_name: '${name}' })(async (params, ctx) => {
      ${body}
    });
  }
}
`;

/** A tool reported because its context goes where the analysis cannot follow and its name says it drives it. */
const byContractCase = (code: string, data: { tool: string; verb: string; object: string; callee: string }, output: string) => ({
  code,
  errors: [
    {
      messageId: 'drivesByContract' as const,
      data,
      suggestions: [{ messageId: 'declareSessionScope' as const, output }],
    },
  ],
});

ruleTester.run('declare-tool-state-scope: a context handed to code the analysis cannot follow, decided by the name', rule, {
  valid: [
    // The name says it looks: nothing decides that the unfollowed handler changes the session.
    { code: unfollowedController('get_dropdown_options', 'return await clickHandler(params, ctx);') },
    // The name says it clicks, but what is handed on is this call's input only.
    { code: unfollowedController('click', 'return await clickHandler(params, { index: params.index });') },
    // A global (`JSON.stringify`) and a logger keep nothing of the context.
    { code: unfollowedController('click', 'logger.info(JSON.stringify(ctx)); return "ok";') },
    // A method that only looks at the context (`getCurrentPage`).
    { code: unfollowedController('click', 'const current = await ctx.browser_session.getCurrentPage(); return String(current);') },
    // A function of the file is followed, and it changes nothing.
    {
      code: `function describe(params, ctx) { return String(params.index); }
export class Controller {
  register() {
    this.registry.action('Click', { param_model: ClickSchema, action_name: 'click' })(async (params, ctx) => describe(params, ctx));
  }
}
`,
    },
  ],
  invalid: [
    // `browser-use`: the click handler kept in an instance field is handed the context.
    ((code) =>
      byContractCase(
        code,
        { tool: 'click', verb: 'click', object: "`ctx`, the invocation's context argument", callee: 'clickHandler' },
        code.replace("action_name: 'click' }", "action_name: 'click', stateScope: 'session' }"),
      ))(unfollowedController('click', 'return await clickHandler(params, ctx);')),
    // A method of the context that is neither a change nor a look (`dispatch`), under a name that switches tabs.
    ((code) =>
      byContractCase(
        code,
        {
          tool: 'switch_tab',
          verb: 'switch',
          object: "`ctx`, the invocation's context argument",
          callee: 'ctx.browser_session.dispatch',
        },
        code.replace("action_name: 'switch_tab' }", "action_name: 'switch_tab', stateScope: 'session' }"),
      ))(
      unfollowedController('switch_tab', "await ctx.browser_session.dispatch({ type: 'switch', tab: params.tab_id }); return 'Switched';"),
    ),
  ],
});

/** An MCP server class that registers its tools in a method: the handlers' `this` is the server. */
const serverClass = (name: string, body: string): string => `import { z } from 'zod';
export class BrowserServer {
  session = undefined;
  async ensureSession() {
    if (!this.session) this.session = await launchSession();
    return this.session;
  }
  register() {
    this.server.registerTool('${name}', { description: 'A browser tool', inputSchema: { url: z.string() } }, async (args) => {
      ${body}
    });
  }
}
`;

ruleTester.run('declare-tool-state-scope: an arrow handler registered in a method of a server class', rule, {
  valid: [
    // `this.version` is read, not changed.
    { code: serverClass('browser_version', "return { content: [{ type: 'text', text: String(this.version) }] };") },
  ],
  invalid: [
    // `this.ensureSession()` is the server's own method: followed, it keeps the session in `this.session`.
    ((code) =>
      mutatesCase(
        code,
        code.replace(
          'inputSchema: { url: z.string() } }',
          "inputSchema: { url: z.string() }, _meta: { 'anthropic/stateScope': 'session' } }",
        ),
      ))(serverClass('browser_open', "await this.ensureSession(); return { content: [{ type: 'text', text: 'ok' }] };")),
  ],
});

/** A tool whose helper takes the process's one database connection (`DatabaseConnection.getInstance()`). */
const singletonTool = (body: string): string => `import { DatabaseConnection } from './connection.js';
async function analyze(connectionString) {
  const db = DatabaseConnection.getInstance();
  ${body}
  return 'done';
}
export const analyzeTool = {
  name: 'pg_analyze',
  description: 'Analyze the database',
  inputSchema: { type: 'object', properties: { connectionString: { type: 'string' } } },
  execute: async (args) => ({ content: [{ type: 'text', text: await analyze(args.connectionString) }] }),
};
`;

/** A server class that keeps a session manager in a field; its tools call the manager's methods. */
const managerServer = (name: string, call: string): string => `import { z } from 'zod';
export class DebugServer {
  constructor() {
    this.sessionManager = new SessionManager();
  }
  setup() {
    this.server.registerTool('${name}', { description: 'A debugger tool', inputSchema: { sessionId: z.string() } }, async (args) => {
      const result = await ${call};
      return { content: [{ type: 'text', text: JSON.stringify(result) }] };
    });
  }
}
`;

ruleTester.run('declare-tool-state-scope: a singleton and an object a long-lived instance keeps', rule, {
  valid: [
    // Querying the one connection changes nothing a later call finds.
    { code: singletonTool('await db.query("SELECT version()");') },
    // Looking a session up changes nothing.
    { code: managerServer('get_session', 'this.sessionManager.getSession(args.sessionId)') },
  ],
  invalid: [
    // Connecting it keeps the pool for every later call.
    ((code) =>
      drivesCase(
        code,
        {
          tool: 'pg_analyze',
          method: 'connect',
          object:
            '`db`, taken from the single instance of `DatabaseConnection` (`DatabaseConnection.getInstance()`) (in `analyze`, which the invocation calls)',
        },
        code.replace(
          'await analyze(args.connectionString) }] }),\n',
          "await analyze(args.connectionString) }] }),\n  stateScope: 'session',\n",
        ),
      ))(singletonTool('await db.connect(connectionString);')),
    // Stepping the debuggee the manager holds.
    ((code) =>
      drivesCase(
        code,
        { tool: 'step_over', method: 'stepOver', object: 'instance field `this.sessionManager`' },
        code.replace(
          'inputSchema: { sessionId: z.string() } }',
          "inputSchema: { sessionId: z.string() }, _meta: { 'anthropic/stateScope': 'session' } }",
        ),
      ))(managerServer('step_over', 'this.sessionManager.stepOver(args.sessionId)')),
  ],
});

/** An action definition whose schema says what it does (`.describe(…)`), under a key named for it (`actionParams`). */
const actionDefinition = (run: string): string => `const { z } = require('zod');
exports.GoToUrlAction = z.object({ url: z.string().describe('The URL you want to navigate to.') }).describe('Navigate to a specific URL in the browser');
exports.GoToURLActionDefinition = {
  type: 'goToUrl',
  actionParams: exports.GoToUrlAction,
  run: ${run},
};
`;

ruleTester.run('declare-tool-state-scope: an action whose schema describes it, run with the context first', rule, {
  valid: [
    // The action only reads the page's address.
    { code: actionDefinition('async (ctx, action) => ({ success: true, message: ctx.page.url() })') },
  ],
  invalid: [
    // `ctx` is the harness's context, `action` the model's input: the shared page is navigated.
    ((code) =>
      drivesCase(
        code,
        { tool: 'GoToURLActionDefinition', method: 'goto', object: "`ctx`, the invocation's context argument" },
        code.replace(
          'return { success: true, message: `Navigated to ${action.url}` }; },\n',
          "return { success: true, message: `Navigated to ${action.url}` }; },\n  stateScope: 'session',\n",
        ),
      ))(
      actionDefinition(
        'async (ctx, action) => { await ctx.page.goto(action.url); return { success: true, message: `Navigated to ${action.url}` }; }',
      ),
    ),
  ],
});

/** A compiled class tool (tsup's `_ts_decorate`) whose invocation calls its own method `_geocode`, decorated with `decorator`. */
const decoratedTool = (decorator: string): string => `import { Cache } from './cache.js';
export class WeatherTool extends Tool {
  name = 'Weather';
  description = 'Retrieve the weather forecast for a place.';
  async _run(input) {
    const place = await this._geocode(input.location);
    return String(place.latitude);
  }
  async _geocode(location) {
    const response = await fetch('https://geocoding.example/search?name=' + location);
    return response.json();
  }
}
_ts_decorate([
  ${decorator},
  _ts_metadata('design:type', Function)
], WeatherTool.prototype, '_geocode', null);
`;

ruleTester.run('declare-tool-state-scope: a method whose results a caching decorator keeps', rule, {
  valid: [
    // A decorator that only traces the call keeps nothing of it.
    { code: decoratedTool('Traced()') },
  ],
  invalid: [
    // `Cache()` keeps each place it looked up: a later call finds it instead of asking again.
    ((code) => mutatesCase(code, code.replace('extends Tool {\n', "extends Tool {\n  readonly stateScope = 'session';\n")))(
      decoratedTool('Cache()'),
    ),
  ],
});

/** A bundle's tool factory that hands back `{ name, schema, handler }`, its description kept elsewhere (PostHog's toolkit). */
const namedFactory = (body: string): string => `var schema = SwitchProjectSchema;
var switchHandler = async (context, params) => {
  ${body}
  return { content: [{ type: 'text', text: 'done' }] };
};
var tool = () => ({
  name: 'switch-project',
  schema,
  handler: switchHandler,
});
`;

ruleTester.run('declare-tool-state-scope: a factory that hands back a named tool without a description', rule, {
  valid: [
    // Reading the active project changes nothing.
    { code: namedFactory('const projectId = await context.stateManager.getProjectId();') },
  ],
  invalid: [
    // It switches the project every later call works in.
    ((code) => ({
      code,
      errors: [
        {
          messageId: 'drivesSharedObject' as const,
          suggestions: [
            {
              messageId: 'declareSessionScope' as const,
              output: code.replace('  handler: switchHandler,\n', "  handler: switchHandler,\n  stateScope: 'session',\n"),
            },
          ],
        },
      ],
    }))(namedFactory('await context.stateManager.setActiveProject(params.projectId);')),
    // Handed to a call, the same object is that call's registration, not a second tool: one report, one member.
    ((code) =>
      mutatesCase(code, code.replace('seen.add(request.params.id); } }))', "seen.add(request.params.id); }, stateScope: 'session' }))")))(
      `const seen = new Set(); export const t = defineTool(() => ({ name: 'plain', schema, handler: async (request) => { seen.add(request.params.id); } }));`,
    ),
  ],
});

// An imported telemetry service and an imported history, each a long-lived instance that counts what it is told.
writeFileSync(
  path.join(helperFolder, 'services.ts'),
  `class TelemetryService { lines = 0; recordLinesOfCodeModified(count: number) { this.lines += count; } }\nexport const telemetryService = new TelemetryService();\nclass EditHistory { edits: string[] = []; recordEdit(path: string) { this.edits.push(path); } }\nexport const editHistory = new EditHistory();\n`,
);

ruleTester.run('declare-tool-state-scope: a telemetry service records the call for someone else', rule, {
  valid: [
    // Its counter is observability: no later call behaves differently for it.
    {
      code: `import { telemetryService } from './services.js'; export const t = tool({ description: 'd', inputSchema: {}, execute: async ({ path }) => { telemetryService.recordLinesOfCodeModified(3); return 'ok'; } });`,
      filename: toolFile,
    },
  ],
  invalid: [
    // An edit history the next call reads is state.
    helperToolCase(
      `import { editHistory } from './services.js'; export const t = tool({ description: 'd', inputSchema: {}, execute: async ({ path }) => { editHistory.recordEdit(path); return 'ok'; } });`,
    ),
  ],
});

// Principles from first-contact round 11 (issue 27): what a helper makes once, and the plumbing of a call that waits for an answer.

/** A tool whose invocation calls a same-file helper that keeps `cachedVersion`; `body` is the helper's. */
const memoHelperTool = (params: string, body: string): string => `import { readFileSync } from 'node:fs';
let cachedVersion = null;
function packageVersion(${params}) {
${body}
}
export const t = tool({ description: 'Version', inputSchema: z.object({ name: z.string() }), execute: async ({ name }) => { const v = packageVersion(name); return 'ok'; } });
`;

/** A tool that asks a broker over a socket: `++reqId` numbers the message, `pending` keeps the call's promise until the answer. */
const brokerTool = (entry: string): string => `let reqId = 0;
const pending = new Map();
function brokerRequest(op, payload) {
  const id = ++reqId;
  return new Promise((resolve, reject) => {
    pending.set(${entry});
    socket.write(JSON.stringify({ id, op, payload }));
  });
}
socket.on('data', (message) => { const waiting = pending.get(message.id); pending.delete(message.id); waiting.resolve(message.data); });
export const t = tool({ description: 'Status', inputSchema: z.object({}), execute: async () => { await brokerRequest('status', {}); return 'ok'; } });
`;

ruleTester.run('declare-tool-state-scope: first-contact round 11', rule, {
  valid: [
    // A helper that takes nothing makes the package's version once: every later call gets the same value.
    memoHelperTool(
      '',
      `  if (cachedVersion) return cachedVersion;
  try { cachedVersion = JSON.parse(readFileSync('/pkg/package.json', 'utf8')).version; return cachedVersion; } catch {}
  cachedVersion = 'unknown';
  return cachedVersion;`,
    ),
    // The message's number and the waiting promise: nothing a later call returns depends on them.
    brokerTool('id, { resolve, reject }'),
  ],
  invalid: [
    // A helper handed the model's input keeps what the last call gave it.
    ((code) => mutatesCase(code, code.replace("return 'ok'; } });", "return 'ok'; }, stateScope: 'session' });")))(
      memoHelperTool('name', '  if (name !== cachedVersion) cachedVersion = name;\n  return cachedVersion;'),
    ),
    // A table of what each call sent, kept after the answer: a later call can read it.
    ((code) => mutatesCase(code, code.replace("return 'ok'; } });", "return 'ok'; }, stateScope: 'session' });")))(
      brokerTool('id, { op, payload }'),
    ),
  ],
});

/** A tool that runs its command from the model's directory; `restore` is what its `finally` does. */
const chdirTool = (
  restore: string,
): string => `export const t = tool({ description: 'Deploy', inputSchema: z.object({ directory: z.string() }), execute: async (input) => {
  const previous = process.cwd();
  try { process.chdir(input.directory); await deploy(); } finally { ${restore} }
  return 'ok'; } });
`;

ruleTester.run('declare-tool-state-scope: the process a tool changes', rule, {
  valid: [
    // Back to where it was before the call returns.
    chdirTool('process.chdir(previous);'),
  ],
  invalid: [
    // Every later call, of any tool, resolves relative paths from the model's directory.
    ((code) => mutatesCase(code, code.replace("return 'ok'; } });", "return 'ok'; }, stateScope: 'session' });")))(chdirTool('log();')),
  ],
});

/** A pool a helper makes once; `elsewhere` is what another function of the module does with it. */
const poolTool = (elsewhere: string): string => `let globalPool = null;
function getPool() {
  if (!globalPool) globalPool = new WorkerPool();
  return globalPool;
}
export function resetPool() { ${elsewhere} }
export const t = tool({ description: 'Search', inputSchema: z.object({ q: z.string() }), execute: async (args) => { await getPool().run(args.q); return 'ok'; } });
`;

/** A broker whose table of waiting calls is emptied by a timeout as well as by the answer. */
const timedBrokerTool = (entry: string): string => `const pending = new Map();
function sendCommand(command) {
  const id = crypto.randomUUID();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { pending.delete(id); reject(new Error('timeout')); }, 5000);
    pending.set(${entry});
    socket.send(JSON.stringify({ id, command }));
  });
}
export const t = tool({ description: 'Tabs', inputSchema: z.object({}), execute: async () => { await sendCommand('tabs'); return 'ok'; } });
`;

ruleTester.run('declare-tool-state-scope: memos another function resets, and tables of waiting calls', rule, {
  valid: [
    // Another function only drops the pool; the next call makes a new one, as the first did.
    poolTool('globalPool = null;'),
    // Every entry holds a waiting call's promise: the timeout's `delete` is the same plumbing.
    timedBrokerTool('id, { resolve, reject, timer }'),
  ],
  invalid: [
    // Another function puts a pool of its choosing there: later calls run on it.
    ((code) => mutatesCase(code, code.replace("return 'ok'; } });", "return 'ok'; }, stateScope: 'session' });")))(
      poolTool('globalPool = new WorkerPool({ size: 8 });'),
    ),
    // A table of the commands sent, kept until a timeout: a later call can read it.
    ((code) => mutatesCase(code, code.replace("return 'ok'; } });", "return 'ok'; }, stateScope: 'session' });")))(
      timedBrokerTool('id, { command }'),
    ),
  ],
});

ruleTester.run('declare-tool-state-scope: a connection a helper opens once is kept', rule, {
  valid: [],
  invalid: [
    // `clientPromise` keeps the connection the first call opened: later calls talk over it.
    ((code) => mutatesCase(code, code.replace("return 'ok'; } });", "return 'ok'; }, stateScope: 'session' });")))(
      `let clientPromise = null;
function getClient() {
  if (!clientPromise) clientPromise = connectToDocs();
  return clientPromise;
}
export const t = tool({ description: 'Docs', inputSchema: z.object({ q: z.string() }), execute: async (args) => { await (await getClient()).callTool(args.q); return 'ok'; } });
`,
    ),
  ],
});

// Principles from first-contact round 12 (issue 27): a module object whose class is followed is judged by what its method does.

/** `code` reported for the change it makes, fixed with a session scope on the tool that ends `return 'ok'; } });`. */
const sessionScopedCase = (code: string) =>
  mutatesCase(code, code.replace("return 'ok'; } });", "return 'ok'; }, stateScope: 'session' });"));

/** A module-level store built from a class of the module; `remove` is the body of the method the tool calls. */
const classStoreTool = (remove: string): string => `import { unlinkSync } from 'node:fs';
class Store {
  constructor(dir) { this.dir = dir; this.names = new Set(); }
  deleteProject(name) { ${remove} }
}
const store = new Store('./data');
export const t = tool({ description: 'Delete a project', inputSchema: z.object({ name: z.string() }), execute: async ({ name }) => { store.deleteProject(name); return 'ok'; } });
`;

/** A handoff tool that takes the run's state from its options through a helper; `helper` is the helper's body. */
const handoffTool = (helper: string): string => `function toState(options) { ${helper} }
export const t = tool({ description: 'Transfer control to the writer agent.', inputSchema: z.object({}), execute: async (_, options) => {
  const state = toState(options);
  state.currentActiveAgent = 'writer';
  return 'ok'; } });
`;

ruleTester.run('declare-tool-state-scope: first-contact round 12', rule, {
  valid: [
    // The method only removes a file: what it changes lives on disk, whatever its name (`delete…`) says.
    classStoreTool('unlinkSync(this.dir + "/" + name + ".json");'),
    // The helper builds a fresh object: setting its field changes nothing a later call sees.
    handoffTool('return { agent: options.agent };'),
  ],
  invalid: [
    // The helper hands back a part of the run's context (the state every later step reads): the tool changes it.
    sessionScopedCase(handoffTool('return options.experimental_context;')),
    // The method forgets the name the instance keeps: a later call sees the change.
    sessionScopedCase(classStoreTool('this.names.delete(name);')),
  ],
});

// Principles from first-contact round 13 (issue 27).

/** A server class whose tool calls `method` on a manager it keeps in a field; the manager's class is another package's. */
const managedServerTool = (
  receiver: string,
  method: string,
): string => `import { TransactionManager } from './managers/transaction-manager.js';
export class Server {
  constructor(pool) { this.${receiver} = new TransactionManager(pool); }
  setup(server) {
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const { name, arguments: args } = request.params;
      switch (name) {
        case 'work':
          await this.${receiver}.${method}(args.id);
          return 'ok';
      }
    });
  }
}
`;

/** A tool made by a factory handed a database handle named `receiver`, whose method it calls. */
const databaseHandleTool = (receiver: string): string => `export function setupTools(${receiver}) {
  return tool({ description: 'Delete an entity', inputSchema: z.object({ name: z.string() }), execute: async ({ name }) => { await ${receiver}.delete_entity(name); return 'ok'; } });
}
`;

ruleTester.run('declare-tool-state-scope: first-contact round 13', rule, {
  valid: [
    // A row a database handle deletes lives in the database, as a file lives on disk.
    databaseHandleTool('db'),
    // A transaction's status is read, not changed.
    managedServerTool('transactionManager', 'describeTransaction'),
  ],
  invalid: [
    // The manager holds the transaction open between calls: beginning, running in, committing or rolling back one changes it.
    ...['beginTransaction', 'executeInTransaction', 'commitTransaction', 'rollbackTransaction'].map((method) =>
      // (a branch of a low-level server: its scope has no place to be written, so no fix is offered)
      ({ code: managedServerTool('transactionManager', method), errors: [{ messageId: 'drivesSharedObject' as const }] }),
    ),
    // The same handle, named for a store of the process, is state: `delete…` changes what it keeps.
    ((code) =>
      drivesCase(
        code,
        { tool: 'anonymous tool', method: 'delete_entity', object: '`registry`, a parameter of the enclosing function `setupTools`' },
        code.replace("return 'ok'; } });", "return 'ok'; }, stateScope: 'session' });"),
      ))(databaseHandleTool('registry')),
  ],
});

// Principles from first-contact round 14 (issue 27).

/** A module-level global regular expression the tool's helper matches with; `after` runs after the loop. */
const patternTool = (after: string): string => `const URL_PATTERN = /url\\(([^)]+)\\)/g;
let lastRefs = [];
export const previousRefs = () => lastRefs;
function extractRefs(css) {
  const refs = [];
  let match;
  while ((match = URL_PATTERN.exec(css)) !== null) refs.push(match[1]);
  ${after}
  return refs;
}
export const t = tool({ description: 'List the assets of a stylesheet', inputSchema: z.object({ css: z.string() }), execute: async ({ css }) => { extractRefs(css); return 'ok'; } });
`;

/**
 * A package that maps `#src/*.js` to `./dist/*.js` in its `package.json` (Node's subpath imports), with a store module
 * keeping artifacts in a module-level map.
 */
const subpathPackage = mkdtempSync(path.join(tmpdir(), 'trg-subpath-imports-'));
writeFileSync(
  path.join(subpathPackage, 'package.json'),
  JSON.stringify({ name: 'subpath-fixture', type: 'module', imports: { '#src/*.js': './dist/*.js' } }),
);
mkdirSync(path.join(subpathPackage, 'dist', 'state'), { recursive: true });
mkdirSync(path.join(subpathPackage, 'dist', 'tools'), { recursive: true });
writeFileSync(
  path.join(subpathPackage, 'dist', 'state', 'artifactStore.js'),
  `const artifacts = new Map();\nexport function setArtifact(key, value) { artifacts.set(key, value); }\nexport function describeArtifact(key) { return String(key); }\n`,
);
const subpathTool = (call: string): string => `import { setArtifact, describeArtifact } from '#src/state/artifactStore.js';
export const t = tool({ description: 'Store the review rating', inputSchema: z.object({ rate: z.number() }), execute: async (input) => { ${call}; return 'ok'; } });
`;
const subpathToolFile = path.join(subpathPackage, 'dist', 'tools', 'rate.js');

ruleTester.run('declare-tool-state-scope: first-contact round 14', rule, {
  valid: [
    // `lastIndex` put back after matching: the regular expression's cursor, not state a later call sees.
    patternTool('URL_PATTERN.lastIndex = 0;'),
    // The store module's function only describes the key.
    { code: subpathTool("describeArtifact('rate')"), filename: subpathToolFile },
  ],
  invalid: [
    // The module keeps what the call found.
    sessionScopedCase(patternTool('lastRefs = refs;')),
    // `#src/state/artifactStore.js` is the package's own module (its `imports` map says where): its map keeps the rating.
    { ...sessionScopedCase(subpathTool("setArtifact('rate', input)")), filename: subpathToolFile },
  ],
});

// Principles from first-contact round 15 (issue 27).

/** A tool that prints a banner on its first call; `line` builds the banner's text. */
const bannerTool = (line: string): string => `let isFirstToolUse = true;
export const t = tool({ description: 'Run the agent on a prompt', inputSchema: z.object({ prompt: z.string() }), execute: async ({ prompt }) => {
  if (isFirstToolUse) {
    const banner = ${line};
    console.error(banner);
    isFirstToolUse = false;
  }
  return 'ok'; } });
`;

/** A tool a factory makes over the object it is handed as `receiver`, calling its `method`. */
const handedObjectTool = (receiver: string, method: string): string => `export function createTool(${receiver}) {
  return tool({ description: 'Work the browser', inputSchema: z.object({ url: z.string() }), execute: async ({ url }) => { await ${receiver}.${method}({ url }); return 'ok'; } });
}
`;

/**
 * A helper module that inserts into the index it is handed, and two index classes: one that writes a database's rows,
 * one that keeps the entries in the process.
 */
const indexPackage = mkdtempSync(path.join(tmpdir(), 'trg-handed-index-'));
writeFileSync(
  path.join(indexPackage, 'store.js'),
  `export class SqliteIndex {\n  constructor() { this.db = openDatabase(); }\n  insert(entry) { this.db.prepare('INSERT INTO entries VALUES (?)').run(entry.id); }\n}\nexport class MemoryIndex {\n  constructor() { this.entries = []; }\n  insert(entry) { this.entries.push(entry); }\n}\n`,
);
writeFileSync(path.join(indexPackage, 'save.js'), `export function contextSave(args, index) { index.insert(args); }\n`);
const indexTool = (indexClass: string): string => `import { ${indexClass} } from './store.js';
import { contextSave } from './save.js';
export function createTools() {
  const index = new ${indexClass}();
  return tool({ description: 'Save a note', inputSchema: z.object({ text: z.string() }), execute: async (args) => { contextSave(args, index); return 'ok'; } });
}
`;
const indexToolFile = path.join(indexPackage, 'tools.js');

/** Tools a factory makes over the store a helper hands back from the object the factory is handed, used in place. */
const storeTool = (method: string): string => `async function getStore(memory) {
  const store = await memory.storage.getStore('knowledge');
  if (!store) throw new Error('Configure a knowledge store');
  return store;
}
export function createKnowledgeTools(memory) {
  return tool({ description: 'Change a node', inputSchema: z.object({ id: z.string() }), execute: async ({ id }) => { return (await getStore(memory)).${method}({ id }); } });
}
`;

ruleTester.run('declare-tool-state-scope: first-contact round 15', rule, {
  valid: [
    // The helper calls `insert` on an index the caller built from a class of the package: followed, it only writes rows.
    { code: indexTool('SqliteIndex'), filename: indexToolFile },
    // The banner's text is built from values for the log line beside it: a warn-once latch.
    bannerTool('`agent v1 started at ${startedAt}`'),
    // An API client's request changes what lives on the service, not in the process.
    handedObjectTool('client', 'createIssue'),
    // Only asks.
    handedObjectTool('browser', 'getTitle'),
    // An evaluator is no interpreter session: running it keeps nothing named for a later call.
    handedObjectTool('evaluator', 'executeCode'),
    // The store the helper hands back is only asked.
    storeTool('getNode'),
  ],
  invalid: [
    // The branch does work (a call) before the flag is set: the flag guards more than a log line.
    sessionScopedCase(bannerTool('loadBanner()')),
    // The same `insert` of an index that keeps its entries in the process changes what the next call finds.
    { ...sessionScopedCase(indexTool('MemoryIndex')), filename: indexToolFile },
    // A client handed in that navigates drives the page it holds, wherever the browser runs.
    ...(
      [
        ['client', 'navigate'],
        ['browserClient', 'click'],
        ['session', 'start'],
        // A code interpreter, kernel or REPL keeps what one call's code leaves behind for the next.
        ['interpreter', 'executeCode'],
        ['kernel', 'execute'],
      ] as const
    ).map(([receiver, method]) =>
      ((code) =>
        drivesCase(
          code,
          { tool: 'anonymous tool', method, object: `\`${receiver}\`, a parameter of the enclosing function \`createTool\`` },
          code.replace("return 'ok'; } });", "return 'ok'; }, stateScope: 'session' });"),
        ))(handedObjectTool(receiver, method)),
    ),
    // `(await getStore(memory)).updateNode(…)`: the helper's result used in place is the store it hands back.
    ((code) =>
      drivesCase(
        code,
        {
          tool: 'anonymous tool',
          method: 'updateNode',
          object: 'what `getStore` hands back, taken from `memory`, a parameter of the enclosing function `createKnowledgeTools`',
        },
        code.replace('({ id }); } });', "({ id }); }, stateScope: 'session' });"),
      ))(storeTool('updateNode')),
  ],
});

// Principles from first-contact round 16 (issue 27).

/** A tool that captures what a command prints by swapping `process.stdout.write`; `restore` ends its `finally`. */
const capturingTool = (restore: string): string => `async function captureStdout(run) {
  const lines = [];
  const original = process.stdout.write;
  process.stdout.write = (chunk) => { lines.push(String(chunk)); return true; };
  try {
    await run();
    return lines.join('');
  } finally {
    ${restore}
  }
}
export const t = tool({ description: 'Scaffold a module', inputSchema: z.object({ name: z.string() }), execute: async ({ name }) => { await captureStdout(() => scaffold(name)); return 'ok'; } });
`;

/** A tool that calls `method` on a module-level value `receiver`, made by `init`. */
const moduleValueTool = (init: string, receiver: string, method: string): string => `const ${receiver} = ${init};
export const t = tool({ description: 'Set a key', inputSchema: z.object({ key: z.string(), value: z.string() }), execute: async ({ key, value }) => { await ${receiver}.${method}(key, value); return 'ok'; } });
`;

/** A tool whose helper caches a login token; `guard` decides when the cached one is handed back, `expiry` is kept after a login. */
const tokenCacheTool = (guard: string, expiry = 'tokenExpiry = Date.now() + 50 * 60 * 1000;'): string => `let token = null;
let tokenExpiry = 0;
async function getToken() {
  const now = Date.now();
  if (${guard}) return token;
  token = await login();
  ${expiry}
  return token;
}
export const t = tool({ description: 'List domains', inputSchema: z.object({}), execute: async () => { await listDomains(await getToken()); return 'ok'; } });
`;

/** A class tool whose lookup keeps its pending promise in a field; `after` is what else the class does with it. */
const pendingFieldTool = (after: string): string => `class IpServer {
  pending = null;
  register(server) {
    server.registerTool('ip_lookup', { description: 'Look an IP address up', inputSchema: { ip: z.string() } }, (args) => this.lookup(args));
  }
  lookup(args) {
    this.pending = fetchInfo(args.ip);
    return { content: [{ type: 'text', text: 'Use the CLI for details' }] };
  }
  ${after}
}
`;

/** A tool that keeps its last result in a module variable; `after` is what else the module does with it. */
const lastResultTool = (after: string): string => `let lastResult = null;
${after}
export const t = tool({ description: 'Run a query', inputSchema: z.object({ q: z.string() }), execute: async ({ q }) => { lastResult = await runQuery(q); return 'ok'; } });
`;

ruleTester.run('declare-tool-state-scope: first-contact round 16', rule, {
  valid: [
    // A field nothing reads back, and a module variable nothing reads: no later call is changed by what they hold.
    pendingFieldTool(''),
    lastResultTool(''),
    // Made once, whatever the clock says: every later call gets what the first made.
    tokenCacheTool('token', ''),
    // The property is put back in a \`finally\`: every path leaves the process as it found it.
    capturingTool('process.stdout.write = original;'),
    // \`redisClient.set(key, value)\`: a request to the store the client wraps, which lives there, not in the process.
    moduleValueTool('createClient({ url: process.env.REDIS_URL })', 'redisClient', 'set'),
    moduleValueTool('new CacheService()', 'cacheService', 'delete'),
  ],
  invalid: [
    // The \`finally\` puts back another property: the swap stays for the next call.
    sessionScopedCase(capturingTool('process.stderr.write = original;')),
    // The same \`set\` on a \`Map\` of the module changes what the next call finds.
    sessionScopedCase(moduleValueTool('new Map()', 'values', 'set')),
    // Read back by another method, or by the module: a later call finds what this one left.
    ((code) => ({
      code,
      errors: [
        {
          messageId: mutates,
          suggestions: [
            {
              messageId: 'declareSessionScope' as const,
              output: code.replace(
                'inputSchema: { ip: z.string() } }',
                "inputSchema: { ip: z.string() }, _meta: { 'anthropic/stateScope': 'session' } }",
              ),
            },
          ],
        },
      ],
    }))(pendingFieldTool('status() { return this.pending; }')),
    sessionScopedCase(lastResultTool('export function last() { return lastResult; }')),
    // A cache with an expiry: a later call finds it filled, stale or renewed (the clock asked directly or through a local).
    ...['token && Date.now() < tokenExpiry', 'token && now < tokenExpiry'].map((guard) => {
      const code = tokenCacheTool(guard);
      const suggestions = [
        {
          messageId: 'declareSessionScope' as const,
          output: code.replace("return 'ok'; } });", "return 'ok'; }, stateScope: 'session' });"),
        },
      ];
      return {
        code,
        errors: [
          { messageId: mutates, suggestions },
          { messageId: mutates, suggestions },
        ],
      };
    }),
  ],
});

// Principles from first-contact round 17 (issue 27).

/** A browser tool over the web driver a module keeps (`driverManager`, another module's); `body` drives or looks at it. */
const keptDriverTool = (body: string): string => `import { driverManager } from './driver-manager.js';
import { waitForClickable } from './waits.js';
export const t = tool({ description: 'Act on the page', inputSchema: z.object({ selector: z.string(), index: z.number() }), execute: async ({ selector, index }) => { const driver = driverManager.getOrThrow(); ${body} return 'ok'; } });
`;

/** The same tool with a driver it builds and quits itself. */
const ownDriverTool = (body: string): string => `import { Builder } from 'selenium-webdriver';
import { waitForClickable } from './waits.js';
export const t = tool({ description: 'Act on a page', inputSchema: z.object({ selector: z.string(), index: z.number() }), execute: async ({ selector, index }) => { const driver = await new Builder().forBrowser('chrome').build(); try { ${body} } finally { await driver.quit(); } return 'ok'; } });
`;

/** A class tool run with the harness's objects merged into its input; `schema` is its input schema. */
const mergedInputTool = (schema: string): string => `import { sharedSchema } from './schemas.js';
export class BeginTransactionTool {
  constructor() {
    this.name = 'begin_transaction';
    this.description = 'Begin a transaction';
    this.inputSchema = ${schema};
  }
  async run(params) {
    const { pool, environment, transactionManager } = params;
    await transactionManager.begin(environment, pool);
    return { success: true };
  }
}
`;

ruleTester.run('declare-tool-state-scope: first-contact round 17', rule, {
  valid: [
    // Looking at the kept driver's page changes nothing.
    keptDriverTool('const title = await driver.getTitle(); const cookies = await driver.manage().getCookies(); void [title, cookies];'),
    // A driver the call builds and quits: what it does ends with the call.
    ownDriverTool('const element = await waitForClickable(driver, selector); await element.click(); await driver.switchTo().frame(index);'),
    // A schema not written out here: nothing says which keys of the input the model sends.
    mergedInputTool('sharedSchema'),
    // `({ params }, client)`: the key that names the input record holds the model's input, not the harness's objects.
    `import { resetBranch } from './branches.js';
export const t = tool({ description: 'Reset a branch', inputSchema: { type: 'object', properties: { branch: { type: 'string' } } }, execute: async ({ params }, client) => { await resetBranch(params, client); await params.reset(); return 'ok'; } });`,
  ],
  invalid: [
    // A web driver kept by the module drives one browser session: what a helper hands back from it is a handle on its page
    // (clicking the element, typing into it), its options and input are parts of it (`manage()`, `actions()`), and
    // switching the frame or dialog changes what the next call acts on.
    ...(
      [
        ['const element = await waitForClickable(driver, selector); await element.click();', 'click', '`element`, taken from `driver`'],
        [
          'const element = await waitForClickable(driver, selector); await element.sendKeys(selector);',
          'sendKeys',
          '`element`, taken from `driver`',
        ],
        ["await driver.manage().addCookie({ name: 'seen', value: selector });", 'addCookie', '`driver`'],
        [
          'const actions = driver.actions({ async: true }); await actions.move({ x: index, y: index }).perform();',
          'move',
          '`actions`, taken from `driver`',
        ],
        ['await driver.switchTo().frame(index);', 'switchTo', '`driver`'],
      ] as const
    ).map(([body, method, object]) => {
      const code = keptDriverTool(body);
      return {
        code,
        errors: [
          {
            messageId: 'drivesSharedObject' as const,
            data: { tool: 't', method, object: `${object}, taken from imported \`driverManager\`` },
            suggestions: [
              {
                messageId: 'declareSessionScope' as const,
                output: code.replace("return 'ok'; } });", "return 'ok'; }, stateScope: 'session' });"),
              },
            ],
          },
        ],
      };
    }),
    // The schema declares only `environment`: `transactionManager` is the harness's, and beginning its transaction
    // leaves it open for the next call.
    ((code) => ({
      code,
      errors: [
        {
          messageId: 'drivesSharedObject' as const,
          data: {
            tool: 'begin_transaction',
            method: 'begin',
            object: '`transactionManager`, which the harness hands in with the input (its schema declares no `transactionManager`)',
          },
          suggestions: [
            {
              messageId: 'declareSessionScope' as const,
              output: code.replace(
                'export class BeginTransactionTool {\n',
                "export class BeginTransactionTool {\n  readonly stateScope = 'session';\n",
              ),
            },
          ],
        },
      ],
    }))(mergedInputTool("{ type: 'object', properties: { environment: { type: 'string' } } }")),
  ],
});

// Principles from first-contact round 19 (issue 27).

/** A browser class a helper keeps one instance of; the tool runs \`body\` on what the helper hands back. */
const keptBrowserTool = (body: string): string => `import { chromium } from 'playwright';
class HotelBrowser {
  async init() {
    this.browser = await chromium.launch();
    this.page = await this.browser.newPage();
  }
  async getDetails(url) {
    await this.page.goto(url);
    return this.page.title();
  }
  async getTitle() {
    return this.page.title();
  }
}
let browser = null;
async function getBrowser() {
  if (!browser) {
    browser = new HotelBrowser();
    await browser.init();
  }
  return browser;
}
export const t = tool({ description: 'Hotel pages', inputSchema: z.object({ url: z.string() }), execute: async ({ url }) => { const b = await getBrowser(); ${body} } });
`;

/** A device driver behind a proxy whose getter hands back the current driver; the tool calls \`method\` on it. */
const proxyDriverTool = (method: string): string => `class ProxyDriver {
  current = null;
  ensureDriver() {
    if (!this.current) throw new Error('No device configured');
    return this.current;
  }
  async tap(x, y) {
    return this.ensureDriver().tap(x, y);
  }
  async getScreenshot() {
    return this.ensureDriver().getScreenshot();
  }
}
const driver = new ProxyDriver();
export const t = tool({ description: 'Device', inputSchema: z.object({ x: z.number(), y: z.number() }), execute: async ({ x, y }) => driver.${method}(x, y) });
`;

ruleTester.run('declare-tool-state-scope: first-contact round 19', rule, {
  valid: [
    // The kept browser's method only looks at its page.
    keptBrowserTool('return b.getTitle();'),
    // The proxy's getter hands back the driver, and the screenshot only looks at the device.
    proxyDriverTool('getScreenshot'),
    // A module loaded on first use is the same module on every call.
    `let captureModule;
export const t = tool({ description: 'Capture', inputSchema: z.object({ url: z.string() }), execute: async ({ url }) => { if (!captureModule) captureModule = await import('./capture.js'); return captureModule.capture(url); } });`,
  ],
  invalid: [
    // `b.getDetails(url)` on the one HotelBrowser `getBrowser` keeps: the method navigates the page it holds.
    ((code) => ({
      code,
      errors: [
        {
          messageId: mutates,
          data: {
            tool: 't',
            action: 'calls `.getDetails()`, which changes `this.page` of HotelBrowser, kept in',
            state: '`b`, taken from module-level `browser`, which `getBrowser` returns',
          },
          suggestions: [
            {
              messageId: 'declareSessionScope' as const,
              output: code.replace('return b.getDetails(url); } });', "return b.getDetails(url); }, stateScope: 'session' });"),
            },
          ],
        },
      ],
    }))(keptBrowserTool('return b.getDetails(url);')),
    // `driver.tap(x, y)`: the proxy's method taps the device its getter hands back.
    ((code) => ({
      code,
      errors: [
        {
          messageId: mutates,
          data: { tool: 't', action: 'calls `.tap()`, which changes `this.ensureDriver()` of ProxyDriver, kept in', state: '`driver`' },
          suggestions: [
            {
              messageId: 'declareSessionScope' as const,
              output: code.replace('driver.tap(x, y) });', "driver.tap(x, y), stateScope: 'session' });"),
            },
          ],
        },
      ],
    }))(proxyDriverTool('tap')),
  ],
});

/** OpenAI runnable functions a factory makes over the page it is handed; \`body\` is what `locator_act` does. */
const runnableActions = (body: string): string => `export const createActions = (page) => {
  const getLocator = (elementId) => page.locator(\`[data-element-id="\${elementId}"]\`);
  return {
    locator_act: {
      function: async (args) => {
        ${body}
        return { success: true };
      },
      name: 'locator_act',
      description: 'Act on an element',
      parse: (args) => JSON.parse(args),
      parameters: { type: 'object', properties: { elementId: { type: 'string' } } },
    },
  };
};
`;

/** A low-level server class whose call handler, an arrow in its method, runs \`body\` for \`remember\`. */
const notesServerClass = (
  body: string,
): string => `import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
export class NotesServer {
  notes = [];
  setupHandlers() {
    this.server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [{ name: 'remember', description: 'Remember a note', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }],
    }));
    this.server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const args = request.params.arguments;
      switch (request.params.name) {
        case 'remember': {
          ${body}
          return { content: [{ type: 'text', text: 'ok' }] };
        }
      }
    });
  }
}
`;

ruleTester.run('declare-tool-state-scope: first-contact round 19, handles and servers', rule, {
  valid: [
    // The handle only answers a question about the element.
    runnableActions('await getLocator(args.elementId).isVisible();'),
    // The server's field is only read.
    notesServerClass('const count = this.notes.length;'),
  ],
  invalid: [
    // `getLocator(id)` hands back a handle the kept page makes: clicking it drives that page.
    ((code) => ({
      code,
      errors: [
        {
          messageId: 'drivesSharedObject' as const,
          data: {
            tool: 'locator_act',
            method: 'click',
            object:
              'what `getLocator` hands back, taken from `page`, a parameter of the enclosing function `createActions`, which `getLocator` returns',
          },
          suggestions: [
            {
              messageId: 'declareSessionScope' as const,
              output: code.replace(
                "parameters: { type: 'object', properties: { elementId: { type: 'string' } } },\n",
                "parameters: { type: 'object', properties: { elementId: { type: 'string' } } },\n      stateScope: 'session',\n",
              ),
            },
          ],
        },
      ],
    }))(runnableActions('await getLocator(args.elementId).click();')),
    // The call handler is an arrow in the server's method: \`this\` is the server, which keeps its notes for every later call.
    ((code) => ({
      code,
      errors: [
        {
          messageId: mutates,
          data: { tool: 'remember', action: 'calls `.push()` on', state: 'instance field `this.notes`' },
          suggestions: [
            {
              messageId: 'declareSessionScope' as const,
              output: code.replace(
                "inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }],",
                "inputSchema: { type: 'object', properties: { text: { type: 'string' } } }, _meta: { 'anthropic/stateScope': 'session' } }],",
              ),
            },
          ],
        },
      ],
    }))(notesServerClass('this.notes.push(args.text);')),
  ],
});

/** A client whose calls wait for each other; `body` is what its `run` does besides. */
const queuedClient = (body: string): string => `class CliClient {
  queue = Promise.resolve();
  last = '';
  run(args) {
    ${body}
  }
}
const client = new CliClient();
server.registerTool('status', { description: 'Status' }, async (input) => ({ content: [{ type: 'text', text: await client.run(input.args) }] }));
`;

// A context the invocation is handed, whose site state is a class of the package (another module): each
// method is found by its name, the one class that defines it.
const siteFolder = mkdtempSync(path.join(tmpdir(), 'trg-state-site-'));
writeFileSync(path.join(siteFolder, 'package.json'), '{ "name": "site-fixture", "private": true, "type": "module" }\n');
writeFileSync(
  path.join(siteFolder, 'site-state.ts'),
  `export class SiteState {
  current: { base: string; client: unknown } | undefined;
  ensureSelectedSite() {
    if (!this.current) throw new Error('No site selected. Call select_site first.');
    return this.current;
  }
  ensureConnectedSite(base: string) {
    if (!this.current) this.selectSite(base);
    return this.current;
  }
  selectSite(base: string) {
    this.current = { base, client: {} };
  }
}
`,
);
const siteTool = path.join(siteFolder, 'tools.ts');
const siteToolCode = (method: string): string =>
  `export const t = defineTool({ name: 'get_user', description: 'Get a user', schema: {}, handler: async (input, extra, ctx) => ctx.siteState.${method}().client.get(input.name) });`;

ruleTester.run('declare-tool-state-scope: first-contact round 20', rule, {
  valid: [
    // `this.queue = this.queue.then(…)`: a later call only waits for this one, it finds nothing this call left.
    queuedClient(
      'const result = this.queue.then(() => execute(args));\n    this.queue = result.catch(() => undefined);\n    return result;',
    ),
    queuedClient(
      'return new Promise((resolve) => {\n      this.queue = this.queue.then(async () => resolve(await execute(args))).catch(() => undefined);\n    });',
    ),
    // `ensureSelectedSite()` of the one class that defines it only checks and hands back: its `ensure…` changes nothing.
    { code: siteToolCode('ensureSelectedSite'), filename: siteTool },
    // An API client handed first (Speakeasy's \`tool: async (client, args, ctx)\`): \`reloadConfig\` reloads the service's own
    // configuration, not a page; a page verb counts on a remote client only for the page or a part of it.
    `export const tool$reloadConfig = {
  name: 'reload-config',
  description: 'Reload the configuration',
  args: {},
  tool: async (client, args, ctx) => ({ content: [{ type: 'text', text: JSON.stringify(await client.reloadConfig()) }] }),
};`,
  ],
  invalid: [
    // The last answer kept in the client is what the next call finds.
    ((code) => ({
      code,
      errors: [
        {
          messageId: mutates,
          data: { tool: 'status', action: 'calls `.run()`, which changes', state: '`this.last` of `client`' },
          suggestions: [
            {
              messageId: 'declareSessionScope' as const,
              output: code.replace("{ description: 'Status' }", "{ description: 'Status', _meta: { 'anthropic/stateScope': 'session' } }"),
            },
          ],
        },
      ],
    }))(queuedClient('this.queue = this.queue.then(() => execute(args));\n    this.last = args;\n    return this.queue;')),
    // `ensureConnectedSite()` selects a site when none is: the next call finds it selected.
    {
      code: siteToolCode('ensureConnectedSite'),
      filename: siteTool,
      errors: [
        {
          messageId: 'drivesSharedObject' as const,
          suggestions: [
            {
              messageId: 'declareSessionScope' as const,
              output: siteToolCode('ensureConnectedSite').replace('(input.name) });', "(input.name), stateScope: 'session' });"),
            },
          ],
        },
      ],
    },
  ],
});

/** A case reported for a change (\`mutates\`) or a drive, whose suggestion declares a session scope as \`output\` shows. */
const sessionFixCase = (code: string, kind: 'mutates' | 'drives', output: string) => ({
  code,
  errors: [
    {
      messageId: kind === 'mutates' ? mutates : ('drivesSharedObject' as const),
      suggestions: [{ messageId: 'declareSessionScope' as const, output }],
    },
  ],
});

/** A tool registered with \`{ description }\`, reported for a change or a drive, fixed with a session scope in \`_meta\`. */
const metaScopedCase = (code: string, description: string, kind: 'mutates' | 'drives') =>
  sessionFixCase(
    code,
    kind,
    code.replace(`{ description: '${description}' }`, `{ description: '${description}', _meta: { 'anthropic/stateScope': 'session' } }`),
  );

/** A tool class handed its definition, run by its static `runnable(client, params)`; `call` is what it asks the client. */
const attachedDefinitionTool = (call: string): string => `class WebsiteCrawlTool {
  static async runnable(hb, params) {
    const resp = await hb.crawl.${call}(params);
    return resp.data?.markdown || '';
  }
}
WebsiteCrawlTool.openaiToolDefinition = {
  type: 'function',
  function: { name: 'crawl_website', description: 'Crawl a website', parameters: { type: 'object', properties: { url: { type: 'string' } } } },
};
`;

/** A module map filled on a miss; `made` is what the miss puts under the attribute's name. */
const memoTool = (made: string): string => `const attrRegexCache = new Map();
const attr = (line, name) => {
  let regex = attrRegexCache.get(name);
  if (!regex) {
    regex = ${made};
    attrRegexCache.set(name, regex);
  }
  return line.match(regex)?.[1];
};
server.registerTool('get_attr', { description: 'An attribute' }, async ({ line, name }) => ({ content: [{ type: 'text', text: attr(line, name) ?? '' }] }));
`;

/**
 * A tool class whose file manager is its constructor parameter's default, the class's shared instance; \`save\`
 * is the manager's method body.
 */
const fileManagerTool = (save: string): string => `class FileManager {
  static default = new FileManager();
  async load(filePath) { const text = await readFile(filePath, 'utf8'); return Graph.fromXML(this.extract(text)); }
  extract(text) { return text.trim(); }
  async save(graph, filePath) { ${save} }
}
export class AddNodeTool {
  constructor(fileManager = FileManager.default) { this.fileManager = fileManager; }
  async execute({ file_path, label }) {
    const graph = await this.fileManager.load(file_path);
    graph.addNode({ label });
    await this.fileManager.save(graph, file_path);
    return { content: [{ type: 'text', text: 'ok' }] };
  }
}
`;

/** A module lock each call takes from the one before; \`hand\` is what the call leaves in it. */
const lockedTool = (hand: string): string => `let inferenceLock = Promise.resolve();
function withInferenceLock(fn) {
  let release;
  const next = new Promise((resolve) => { release = resolve; });
  const wait = inferenceLock;
  inferenceLock = ${hand};
  return wait.then(fn).finally(() => release());
}
server.registerTool('embed', { description: 'Embed a text' }, async ({ text }) => ({ content: [{ type: 'text', text: await withInferenceLock(() => embed(text)) }] }));
`;

ruleTester.run('declare-tool-state-scope: first-contact round 21', rule, {
  valid: [
    // A lock handed from call to call: a later call finds only when it may start.
    lockedTool('next'),
    // The manager's methods write the file and keep nothing; \`load\` makes a new graph for each call.
    fileManagerTool('await writeFile(filePath, graph.toXML());'),
    // A regex made from the name alone: a later call with that name gets the same one it would have made.
    memoTool('new RegExp(`${name}="([^"]*)"`, "i")'),
    // \`session.modelStats.keys()\`: the keys of a collection the session keeps, read; no keystrokes sent.
    `const session = { calls: 0, modelStats: new Map() };
server.registerTool('stats', { description: 'Usage' }, async () => ({ content: [{ type: 'text', text: [...session.modelStats.keys()].join(',') }] }));`,
    // `startAndWait`: the job the call starts has ended when it returns; nothing is left running for a later call.
    attachedDefinitionTool('startAndWait'),
  ],
  invalid: [
    // `start`: the crawl the call starts goes on after it, in the client a later call is handed too.
    ((code) =>
      sessionFixCase(
        code,
        'drives',
        code.replace('class WebsiteCrawlTool {', "class WebsiteCrawlTool {\n  static readonly stateScope = 'session';"),
      ))(attachedDefinitionTool('start')),
    // Keystrokes sent to the session's browser: handed the keys, it types them into the page a later call finds.
    ((code) => metaScopedCase(code, 'Press', 'drives'))(`const session = { browser: remote() };
server.registerTool('press', { description: 'Press' }, async ({ key }) => { await session.browser.keys([key]); return { content: [] }; });`),
    // The manager keeps the last graph it saved: the next call's manager holds this call's graph.
    ((code) => ({
      code,
      errors: [
        {
          messageId: mutates,
          data: {
            tool: 'AddNodeTool',
            action: 'calls `this.fileManager.save()`, which changes',
            state: '`this.last` of the `FileManager` in `this.fileManager`',
          },
          suggestions: [
            {
              messageId: 'declareSessionScope' as const,
              output: code.replace('export class AddNodeTool {', "export class AddNodeTool {\n  readonly stateScope = 'session';"),
            },
          ],
        },
      ],
    }))(fileManagerTool('this.last = graph; await writeFile(filePath, graph.toXML());')),
    // What the call leaves is its own function, not a promise it settles: the next call finds this call's value.
    ((code) => metaScopedCase(code, 'Embed a text', 'mutates'))(lockedTool('fn')),
    // What the miss puts there asks the line too: a later call with the same name finds this call's answer.
    ((code) => metaScopedCase(code, 'An attribute', 'mutates'))(memoTool('new RegExp(line)')),
  ],
});

/** Figma-bridge-style tools: `registerTools(server, node)` hands each tool the app connection; `command` is what one sends. */
const commandTool = (tool: string, command: string): string => `export function registerTools(server, node) {
  server.registerTool('${tool}', { description: 'Asks the design app' }, async ({ nodeId }) =>
    renderResponse(() => node.sendWithParams('${command}', [nodeId], {})));
}
`;

ruleTester.run('declare-tool-state-scope: first-contact round 22', rule, {
  valid: [
    // A command named for a read: what the app holds is the same for the next call.
    commandTool('get_node', 'get_node'),
    commandTool('get_screenshot', 'export.get_screenshot'),
    // A command's name is a word or words joined, never a sentence: a query string sent is no command.
    commandTool('run_query', 'set x = 1 where id = 2'),
  ],
  invalid: [
    // The command says it sets, creates or deletes what the app holds: the open document the next call finds.
    ...(
      [
        ['set_text_content', 'set_text_content'],
        ['create_frame', 'createFrame'],
        ['delete_nodes', 'document:delete_nodes'],
        ['group_nodes', 'group_nodes'],
      ] as const
    ).map(([tool, command]) => ({
      code: commandTool(tool, command),
      errors: [
        {
          messageId: 'sendsChangingCommand' as const,
          data: { tool, command, method: 'sendWithParams', object: '`node`, a parameter of the enclosing function `registerTools`' },
          suggestions: [
            {
              messageId: 'declareSessionScope' as const,
              output: commandTool(tool, command).replace(
                "{ description: 'Asks the design app' }",
                "{ description: 'Asks the design app', _meta: { 'anthropic/stateScope': 'session' } }",
              ),
            },
          ],
        },
      ],
    })),
  ],
});

// An accessor in another module of the package that hands back the instance its module keeps (mockserver's rule manager).
writeFileSync(
  path.join(helperFolder, 'rules.ts'),
  `class RulesManager {\n  rules = new Map<string, unknown>();\n  addRule(rule: unknown) { this.rules.set(String(this.rules.size), rule); }\n  setRemoteRule(rule: unknown) { return fetch('http://localhost:8080/rules', { method: 'PUT', body: String(rule) }); }\n  getAllRules() { return [...this.rules.values()]; }\n}\nlet instance: RulesManager | null = null;\nexport function getRulesManager() {\n  if (!instance) instance = new RulesManager();\n  return instance;\n}\nexport function makeRulesManager() {\n  const fresh = new RulesManager();\n  return fresh;\n}\n`,
);
const keptAccessorTool = (accessor: string, call: string): string =>
  `import { ${accessor} } from './rules.js';
server.registerTool('rules', { description: 'Mock rules' }, async ({ rule }) => {
  const manager = ${accessor}();
  ${call};
  return { content: [] };
});
`;

ruleTester.run('declare-tool-state-scope: first-contact round 22, kept instances of other modules', rule, {
  valid: [
    // Reading the kept instance changes nothing.
    { code: keptAccessorTool('getRulesManager', 'manager.getAllRules()'), filename: toolFile },
    // An accessor that builds a new instance on every call hands back the call's own object.
    { code: keptAccessorTool('makeRulesManager', 'manager.addRule(rule)'), filename: toolFile },
    // Its class says the method only asks a server: the kept instance is as it was (its name says `set`).
    { code: keptAccessorTool('getRulesManager', 'manager.setRemoteRule(rule)'), filename: toolFile },
  ],
  invalid: [
    // Every call gets the one instance the module keeps: adding a rule to it is what the next call finds.
    {
      code: keptAccessorTool('getRulesManager', 'manager.addRule(rule)'),
      filename: toolFile,
      errors: [
        {
          messageId: 'drivesSharedObject' as const,
          data: {
            tool: 'rules',
            method: 'addRule',
            object: '`manager`, taken from `instance`, module state of rules.ts, which `getRulesManager` returns',
          },
          suggestions: [
            {
              messageId: 'declareSessionScope' as const,
              output: keptAccessorTool('getRulesManager', 'manager.addRule(rule)').replace(
                "{ description: 'Mock rules' }",
                "{ description: 'Mock rules', _meta: { 'anthropic/stateScope': 'session' } }",
              ),
            },
          ],
        },
      ],
    },
  ],
});

/** A queue server's tools: `registerJobTools(server, backend)` hands every tool the backend the process keeps. */
const queueTool = (tool: string, call: string): string => `export function registerJobTools(server, backend) {
  server.registerTool('${tool}', { description: 'Works on a job' }, async ({ jobId }) => {
    const result = await ${call};
    return { content: [{ type: 'text', text: JSON.stringify({ result, jobId }) }] };
  });
}
`;
/** A class server whose API client keeps caches, and a handler of another module it hands that client. */
writeFileSync(
  path.join(helperFolder, 'clear-cache.ts'),
  `export async function handleClearCache(request: unknown, apiClient: { clearCardsCache(): void }) {\n  apiClient.clearCardsCache();\n  return { content: [{ type: 'text', text: 'cleared' }] };\n}\nexport async function handleDescribe(request: unknown, apiClient: { describeCards(): string }) {\n  return { content: [{ type: 'text', text: apiClient.describeCards() }] };\n}\n`,
);
const cacheServer = (body: string): string => `import { handleClearCache, handleDescribe } from './clear-cache.js';
export class MetabaseServer {
  constructor(apiClient) {
    this.apiClient = apiClient;
    this.server.registerTool('clear_cache', { description: 'Clear the caches' }, async (request) => {
      ${body}
    });
  }
}
`;

ruleTester.run('declare-tool-state-scope: first-contact round 23', rule, {
  valid: [
    // A read of the queue changes nothing.
    queueTool('get_job', 'backend.getJob(jobId)'),
    // A client handed first, asked to delete a model on its server: an awaited answer is a request, not a collection change.
    `export const deleteTool = {
  name: 'delete_model',
  description: 'Delete a model',
  inputSchema: { type: 'object', properties: { model: { type: 'string' } } },
  handler: async (ollama, args) => { const response = await ollama.delete({ model: args.model }); return JSON.stringify(response); },
};`,
    // What the client's cache holds, read: nothing changes.
    { code: cacheServer('return handleDescribe(request, this.apiClient);'), filename: toolFile },
  ],
  invalid: [
    // What is done to the items a queue holds (`cancelJob`, `drainQueue`, `ackJob`): the next call finds them moved.
    ...(
      [
        ['cancel_job', 'cancelJob'],
        ['drain_queue', 'drainQueue'],
        ['ack_job', 'ackJob'],
        ['change_priority', 'changeJobPriority'],
      ] as const
    ).map(([tool, method]) => {
      const code = queueTool(tool, `backend.${method}(jobId)`);
      return {
        code,
        errors: [
          {
            messageId: 'drivesSharedObject' as const,
            data: { tool, method, object: '`backend`, a parameter of the enclosing function `registerJobTools`' },
            suggestions: [
              {
                messageId: 'declareSessionScope' as const,
                output: code.replace(
                  "{ description: 'Works on a job' }",
                  "{ description: 'Works on a job', _meta: { 'anthropic/stateScope': 'session' } }",
                ),
              },
            ],
          },
        ],
      };
    }),
    // A cache is the client's own, kept in the process, whatever service the client fronts: clearing it changes the next call's answer,
    // here or in the handler of another module the client is handed to.
    ...(
      [
        ['this.apiClient.clearCardsCache(); return { content: [] };', ''],
        ['return handleClearCache(request, this.apiClient);', ' (in `handleClearCache`, which the invocation calls)'],
      ] as const
    ).map(([body, where]) => {
      const code = cacheServer(body);
      return {
        code,
        filename: toolFile,
        errors: [
          {
            messageId: 'drivesSharedObject' as const,
            data: { tool: 'clear_cache', method: 'clearCardsCache', object: `instance field \`this.apiClient\`${where}` },
            suggestions: [
              {
                messageId: 'declareSessionScope' as const,
                output: code.replace(
                  "{ description: 'Clear the caches' }",
                  "{ description: 'Clear the caches', _meta: { 'anthropic/stateScope': 'session' } }",
                ),
              },
            ],
          },
        ],
      };
    }),
  ],
});

/** A device class whose own method builds its actions: each action's `call` is an arrow written in that method. */
const deviceActions = (call: string): string => `export class AndroidDevice {
  focused = undefined;
  size() { return { width: 1080, height: 1920, focused: this.focused }; }
  clearInput(element) { this.focused = element; }
  actionSpace() {
    return [
      defineAction({
        name: 'Input',
        description: 'Input text into the input field',
        paramSchema: z.object({ value: z.string() }),
        call: async (param) => { ${call} },
      }),
    ];
  }
}
`;
/** Actions built by a function handed the device. */
const platformActions = (call: string): string => `export function createPlatformActions(device) {
  return {
    Terminate: defineAction({
      name: 'Terminate',
      description: 'Terminate an app',
      paramSchema: z.object({ uri: z.string() }),
      call: async (param) => { ${call} },
    }),
  };
}
`;

/** A module's handler made by a wrapper that checks the arguments first, around a module's sessions. */
const wrappedSessionTool = (body: string): string => `const sessions = new Map();
export function listSessions() { return [...sessions.keys()]; }
const handleOpen = withValidation(openSchema, async (args) => {
  ${body}
});
server.registerTool('open_session', { description: 'Open a session' }, async (args) => handleOpen(args));
`;

ruleTester.run('declare-tool-state-scope: first-contact round 24', rule, {
  valid: [
    // A storage layer in front of a database (`this.storage`, `documentRepository`): the record it updates lives there.
    databaseHandleTool('storage'),
    databaseHandleTool('documentRepository'),
    // \`ensure\` and a condition checks it: the workspace is as it was.
    platformActions('device.ensureAccessible(param.uri); return device.describe(param.uri);'),
    platformActions('device.ensureWithinWorkspace(param.uri); return device.describe(param.uri);'),
    // The wrapped handler only looks a session up.
    wrappedSessionTool("return sessions.has(args.id) ? 'open' : 'closed';"),
    // The class's own method only answers with what it knows.
    deviceActions('return this.size();'),
    // A handed device asked what it holds changes nothing.
    platformActions('return device.terminated;'),
  ],
  invalid: [
    // `this.clearInput(…)` of the class whose method wrote the action: what it changes is the device's, and outlives the call.
    {
      code: deviceActions('await this.clearInput(param.value);'),
      errors: [
        {
          messageId: mutates,
          data: {
            tool: 'Input',
            action: 'assigns',
            state: 'instance field `this.focused` (in `this.clearInput`, which the invocation calls)',
          },
          suggestions: [
            {
              messageId: 'declareSessionScope',
              output: deviceActions('await this.clearInput(param.value);').replace(
                'param.value); },\n',
                "param.value); },\n        stateScope: 'session',\n",
              ),
            },
          ],
        },
      ],
    },
    // The function the wrapper is handed runs when the module's handler is called: it keeps a session.
    ((code) => ({
      code,
      errors: [
        {
          messageId: mutates,
          data: {
            tool: 'open_session',
            action: 'calls `.set()` on',
            state: 'module-level `sessions` (in `handleOpen`, which the invocation calls)',
          },
          suggestions: [
            {
              messageId: 'declareSessionScope' as const,
              output: code.replace(
                "{ description: 'Open a session' }",
                "{ description: 'Open a session', _meta: { 'anthropic/stateScope': 'session' } }",
              ),
            },
          ],
        },
      ],
    }))(wrappedSessionTool("sessions.set(args.id, Date.now());\n  return 'ok';")),
    // \`ensure\` and a thing makes it when it is missing: the next call finds it; terminating an app on a device the
    // actions are handed, as killing a process does, changes what the device runs.
    ...(
      [
        ['ensureSession', 'device.ensureSession(param.uri);'],
        ['terminate', 'await device.terminate(param.uri);'],
      ] as const
    ).map(([method, call]) =>
      drivesCase(
        platformActions(call),
        { tool: 'Terminate', method, object: '`device`, a parameter of the enclosing function `createPlatformActions`' },
        platformActions(call).replace('param.uri); },\n', "param.uri); },\n      stateScope: 'session',\n"),
      ),
    ),
  ],
});

/** A module that checks its shipped assets once: a flag latched on the first check, and the errors that check found. */
const latchedCheck = (check: string): string => `import { existsSync } from 'node:fs';
let checked = false;
let checkErrors = [];
function checkAssets() {
  ${check}
}
server.registerTool('check_assets', { description: 'Checks the assets' }, async () => {
  const { errors } = checkAssets();
  return errors.join('\\n');
});
`;
/** What the check finds: each asset the module lists that is missing. */
const findMissing = 'const errors = ASSETS.filter((asset) => !existsSync(asset));';

/** A JSON-RPC server's tool that keeps notes; `body` is its branch. */
const jsonRpcNotes = (body: string): string =>
  jsonRpcServer({
    prelude: 'const notes = [];',
    name: 'add_note',
    contract: "description: 'Adds a note', inputSchema: { type: 'object', properties: { text: { type: 'string' } } }",
    body,
  });

/** A notes server's case whose list entry is fixed to declare the session scope (`_meta`). */
const notesEntryScoped = (code: string) =>
  mutatesCase(
    code,
    code.replace(
      "properties: { text: { type: 'string' } } } },",
      "properties: { text: { type: 'string' } } }, _meta: { 'anthropic/stateScope': 'session' } },",
    ),
  );

/** LangChain's `tool` under a minifier's name (`import { tool as b }`), around a module's history. */
const renamedFactoryTool = (body: string): string => `import { tool as b } from '@langchain/core/tools';
const history = [];
async function noteImpl({ text }) {
  ${body}
}
export const noteTool = b(noteImpl, { name: 'note', description: 'Takes a note', schema });
`;

ruleTester.run('declare-tool-state-scope: first-contact round 25', rule, {
  valid: [
    // Checked once: the flag latched, every later call answers with what the first check found.
    latchedCheck(
      `if (checked) return { errors: checkErrors };\n  ${findMissing}\n  checked = true;\n  checkErrors = errors;\n  return { errors };`,
    ),
    // The JSON-RPC branch only reads the notes.
    jsonRpcNotes("return { content: [{ type: 'text', text: notes.join('\\\\n') }] };"),
    // The renamed factory's tool only reads the history.
    renamedFactoryTool('return history.join(text);'),
  ],
  invalid: [
    // Checked on every call: each call leaves its own errors for the next to read.
    ((code) =>
      mutatesCase(
        code,
        code.replace(
          "{ description: 'Checks the assets' }",
          "{ description: 'Checks the assets', _meta: { 'anthropic/stateScope': 'session' } }",
        ),
      ))(latchedCheck(`${findMissing}\n  checkErrors = errors;\n  return { errors: checkErrors };`)),
    // The registry's entry is the tool, and its branch in the `tools/call` method keeps a note.
    notesEntryScoped(jsonRpcNotes("notes.push(args.text);\n        return { content: [{ type: 'text', text: 'ok' }] };")),
    // The call of the renamed factory makes a tool, whose invocation keeps the history; the fix wraps it.
    ((code) =>
      mutatesCase(
        code,
        code
          .replace("from '@langchain/core/tools';\n", "from '@langchain/core/tools';\nimport { classifyTool } from 'tool-result-guard';\n")
          .replace(
            "b(noteImpl, { name: 'note', description: 'Takes a note', schema });",
            "classifyTool(b(noteImpl, { name: 'note', description: 'Takes a note', schema }), { stateScope: 'session' });",
          ),
      ))(renamedFactoryTool("history.push(text);\n  return 'ok';")),
  ],
});

/** A JSON-RPC server of module functions whose `add_note` branch runs `body` (see `jsonRpcMessageServer`). */
const jsonRpcMessageNotes = (route: 'switch' | 'if', body: string): string =>
  jsonRpcMessageServer({
    prelude: 'const notes = [];',
    name: 'add_note',
    contract: "description: 'Adds a note', inputSchema: { type: 'object', properties: { text: { type: 'string' } } }",
    body,
    route,
  });

ruleTester.run('declare-tool-state-scope: first-contact round 26', rule, {
  valid: [
    // The branch of the `tools/call` method's handler only reads the notes.
    jsonRpcMessageNotes('switch', "writeResponse(id, { content: [{ type: 'text', text: notes.join('\\\\n') }] });\n    return;"),
    jsonRpcMessageNotes('if', "writeResponse(id, { content: [{ type: 'text', text: notes.join('\\\\n') }] });\n    return;"),
  ],
  invalid: (['switch', 'if'] as const).map((route) =>
    // The function handed the message by the `tools/call` method is the call handler; its branch keeps a note.
    notesEntryScoped(
      jsonRpcMessageNotes(
        route,
        "notes.push(args.text);\n    writeResponse(id, { content: [{ type: 'text', text: 'ok' }] });\n    return;",
      ),
    ),
  ),
});

// A package's result caches kept by other modules, reached through tsc's CommonJS `require` and through an ESM namespace;
// a login's token the request helper renews; a registry loaded once (first contact, round 27).
const resultCaches = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'result-caches');
const cachesToolFile = path.join(resultCaches, 'tool.js');
/** The AI SDK's `tool({…})` wrapped in `classifyTool(…, { stateScope: 'session' })`, the import added as the module writes its own. */
const classifiedSession = (code: string) =>
  (code.startsWith('import')
    ? code.replace(/((?:^import [^\n]*\n)+)/m, "$1import { classifyTool } from 'tool-result-guard';\n")
    : `const { classifyTool } = require('tool-result-guard');\n\n${code}`
  )
    .replace('= tool({', '= classifyTool(tool({')
    .replace("return 'ok'; } });", "return 'ok'; } }), { stateScope: 'session' });");
/** A tool of `cachesToolFile` reported for a change, fixed with `classifyTool(…, { stateScope: 'session' })`. */
const cachesToolCase = (code: string) => ({ ...mutatesCase(code, classifiedSession(code)), filename: cachesToolFile });
/** A CMS client that logs in on demand and keeps the admin token for the requests after. */
const loggedInClient = (toolName: string) => `import { tool } from 'ai';
let adminToken = null;
async function login() {
  const response = await fetch('https://cms.example.com/admin/login', { method: 'POST' });
  adminToken = (await response.json()).token;
}
async function request(path) {
  if (!adminToken) await login();
  const response = await fetch('https://cms.example.com' + path, { headers: { Authorization: 'Bearer ' + adminToken } });
  if (response.status === 401) { adminToken = null; await login(); }
  return response.json();
}
export const t = tool({ name: '${toolName}', description: 'd', inputSchema: {}, execute: async ({ id }) => { await request('/entries/' + id); return 'ok'; } });`;

ruleTester.run('declare-tool-state-scope: first-contact round 27', rule, {
  valid: [
    // A function of one of the package's modules, through tsc's `require`, that keeps nothing.
    {
      code: `const { tool } = require('ai');\nconst search_js_1 = require('./services/search.js');\nexports.t = tool({ description: 'd', inputSchema: {}, execute: async ({ name }) => { await (0, search_js_1.describeDomain)(name); return 'ok'; } });`,
      filename: cachesToolFile,
    },
    // `sites.addSite(…)` on a namespace import: the module's function is followed, and it keeps nothing; `add…` is no state.
    {
      code: `import { tool } from 'ai';\nimport * as sites from './sites.js';\nexport const t = tool({ description: 'd', inputSchema: {}, execute: async ({ siteUrl }) => { await sites.addSite(siteUrl); return 'ok'; } });`,
      filename: cachesToolFile,
    },
    // Recording the call for analytics is bookkeeping, not state.
    {
      code: `import { tool } from 'ai';\nimport * as analytics from './analytics.js';\nexport const t = tool({ description: 'd', inputSchema: {}, execute: async () => { await analytics.trackToolCall('t'); return 'ok'; } });`,
      filename: cachesToolFile,
    },
    // The request helper logs in when the token is missing or rejected: the connection's credential, not the tool's state.
    loggedInClient('get_entry'),
    // The fluent builder tools are made with is no tool: `handler(fn)` keeps the function and hands the builder back.
    'export class Tool {\n  constructor(name) { this.name = name; }\n  description(text) { this.desc = text; return this; }\n  input(schema) { const self = this; self.inputSchema = schema; return self; }\n  handler(fn) { this.handlerFn = fn; return this; }\n  build() { return { name: this.name, description: this.desc, handler: this.handlerFn }; }\n}',
    // A registry loaded once, on first use, through the object the factory is handed: what every later call would load.
    "export function registerModelInfo(server, registry) {\n  server.tool('get_model_info', 'Get a model', {}, async ({ id }) => { await registry.ensureLoaded(); return { content: [{ type: 'text', text: String(registry.find(id)) }] }; });\n}",
  ],
  invalid: [
    // tsc's CommonJS: `(0, search_js_1.searchDomain)(…)` fills the cache another module keeps.
    cachesToolCase(
      `const { tool } = require('ai');\nconst search_js_1 = require('./services/search.js');\nexports.t = tool({ description: 'd', inputSchema: {}, execute: async ({ name }) => { await (0, search_js_1.searchDomain)(name); return 'ok'; } });`,
    ),
    // `googleAnalytics.queryAnalytics(…)` asks for data: the analytics are what the tool reads, and their cache is kept.
    cachesToolCase(
      `import { tool } from 'ai';\nimport * as googleAnalytics from './analytics.js';\nexport const t = tool({ description: 'd', inputSchema: {}, execute: async ({ siteUrl }) => { await googleAnalytics.queryAnalytics({ siteUrl }); return 'ok'; } });`,
    ),
    // A tool whose name says the login is what it does: the token it leaves is its state.
    mutatesCase(loggedInClient('login'), classifiedSession(loggedInClient('login'))),
  ],
});
