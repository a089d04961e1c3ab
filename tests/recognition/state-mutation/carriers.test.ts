// Carriers (state-mutation/carriers.ts): cookie jars, rate limiters and the
// fields that hold them keep state between calls although the tool only calls them.
import type { TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';

import {
  carrierFieldsOf,
  carrierKind,
  carrierOfVariable,
  handedFieldsOf,
  whereCreated,
} from '../../../src/recognition/state-mutation/carriers.js';
import { settings, snippet } from './snippets.js';

/** The kind of carrier the initialiser of `const value = …` in `code` creates. */
function kindOf(code: string): string | undefined {
  const parsed = snippet(code);
  return carrierOfVariable(parsed.variable('value'), settings);
}

describe('carrierKind and carrierOfVariable', () => {
  it('knows cookie jars, cookie-carrying fetches and rate limiters', () => {
    expect(kindOf(`const value = new CookieJar();`)).toBe('cookie jar');
    expect(kindOf(`const value = fetchCookie(fetch);`)).toBe('cookie jar');
    expect(kindOf(`const value = new Bottleneck({ maxConcurrent: 1 });`)).toBe('rate limiter');
    expect(kindOf(`const value = throttleKy(ky, 10);`)).toBe('rate limiter');
    expect(kindOf(`const value = new RateLimiter(5);`)).toBe('rate limiter');
  });

  it('leaves a plain client, a concurrency limit and what a function made here would create later', () => {
    expect(kindOf(`const value = axios.create({ baseURL: 'x' });`)).toBeUndefined();
    expect(kindOf(`const value = pLimit(2);`)).toBeUndefined();
    expect(kindOf(`const value = { make: () => new CookieJar() };`)).toBeUndefined();
  });

  it('traces a carrier through the locals it was built from', () => {
    expect(
      kindOf(`const limit = pThrottle({ limit: 1, interval: 1000 });
const throttled = wrap(fetch, limit);
const value = throttled.extend({ prefix: 'x' });`),
    ).toBe('rate limiter');
    // Without a resolver the name says nothing.
    const parsed = snippet(`const value = throttled.extend({});`);
    expect(carrierKind(parsed.node('throttled.extend({})'), settings)).toBeUndefined();
  });

  it('says where a carrier was created', () => {
    const parsed = snippet(`const jar = new CookieJar();
function make() { const limiter = new Bottleneck(); return limiter; }`);
    expect(whereCreated(parsed.variable('jar'))).toBe('at module level');
    expect(whereCreated(parsed.variable('limiter'))).toBe('in the enclosing function `make`');
  });
});

describe('carrier fields and handed fields', () => {
  it('finds fields holding a carrier the class creates, in an initialiser or the constructor', () => {
    const parsed = snippet(`class Client {
  jar = new CookieJar();
  cache = new Map();
  constructor(limit) {
    const limiter = pThrottle({ limit });
    this.ky = throttleKy(ky, limiter);
    this.name = 'x';
  }
}`);
    const classNode = parsed.program.body[0] as TSESTree.ClassDeclaration;
    expect(Object.fromEntries(carrierFieldsOf(classNode, settings))).toEqual({ jar: 'cookie jar', ky: 'rate limiter' });
  });

  it('finds the fields an invocation class takes from what the long-lived tool hands it', () => {
    const parsed = snippet(`class EditInvocation extends BaseToolInvocation {
  constructor(params, private readonly config, allowlist) {
    super(params);
    this.allowlist = allowlist;
    this.copy = params;
  }
}`);
    const classNode = parsed.program.body[0] as TSESTree.ClassDeclaration;
    // `params` (the first parameter, unless the invocation says otherwise) is the model's input:
    // what is taken from it dies with the invocation.
    expect([...handedFieldsOf(classNode)].sort()).toEqual(['allowlist', 'config']);
  });

  it('reports a tool that uses a carrier field, as a carrier in an instance field', () => {
    const parsed = snippet(`class FetchTool extends BaseTool {
  jar = new CookieJar();
  async call(input) { return fetchWithJar(this.jar, input.url); }
}`);
    expect(parsed.uses()).toEqual([
      {
        kind: 'usesSharedCarrier',
        data: { tool: 'FetchTool', carrier: 'cookie jar', name: 'this.jar', where: 'in an instance field' },
        at: 'this.jar',
      },
    ]);
  });
});
