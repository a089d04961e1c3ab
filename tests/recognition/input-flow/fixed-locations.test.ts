// Locations the code fixes rather than the model (input-flow/fixed-locations):
// a URL whose scheme and host are written in code is an API call, and a path
// confined to a shipped folder can never be a persisted result, so neither
// makes a tool self-reading even with input in it.
import { describe, expect, it } from 'vitest';

import { hasFixedOrigin, isConfinedToShippedFolder } from '../../../src/recognition/input-flow/fixed-locations.js';
import { environment, scopeOf, snippet } from './snippets.js';

/** Whether the URL `fetch` is given in `run` has a fixed origin. */
function fetchesFixedOrigin(body: string, preamble = ''): boolean {
  const source = snippet(`${preamble}\nasync function run(input) { ${body} }`);
  const fn = source.fn();
  const call = source.call('fetch(', fn.body);
  return hasFixedOrigin(call.arguments[0]!, scopeOf(source, fn), environment);
}

describe('hasFixedOrigin', () => {
  it('takes a URL whose scheme and host are written in code for an API call', () => {
    for (const body of [
      "return fetch('https://api.example.com/search?q=' + input.query);",
      'return fetch(`https://api.example.com/items/${input.id}`);',
      'return fetch(`${this.baseUrl}/search?q=${input.query}`);',
      "return fetch(new URL('/items/' + input.id, BASE));",
      "const url = 'https://api.example.com/items/' + input.id; return fetch(url);",
      'let url = `${BASE}/v2/search`; url += `?q=${input.query}`; return fetch(url);',
      "return fetch({ hostname: 'api.example.com', path: '/items/' + input.id });",
    ]) {
      expect(fetchesFixedOrigin(body), body).toBe(true);
    }
  });

  it('leaves a URL the model chose, or one whose host it can pick, to the model', () => {
    for (const body of [
      'return fetch(input.url);',
      'return fetch(`${input.url}/robots.txt`);',
      "return fetch('https://' + input.host + '/');",
      "let url = 'https://api.example.com/'; url = input.url; return fetch(url);",
      'return fetch({ url: input.url, headers: HEADERS });',
      'return fetch({ ...input.request });',
    ]) {
      expect(fetchesFixedOrigin(body), body).toBe(false);
    }
  });

  it('follows a helper that builds the URL: fixed only when every URL it returns is', () => {
    const fixed = `function buildUrl(id) { return 'https://api.example.com/items/' + id; }`;
    expect(fetchesFixedOrigin('return fetch(buildUrl(input.id));', fixed)).toBe(true);
    const either = `function buildUrl(id, url) { if (url) return url; return 'https://api.example.com/items/' + id; }`;
    expect(fetchesFixedOrigin('return fetch(buildUrl(input.id, input.url));', either)).toBe(false);
  });

  it('reads a module constant for the origin', () => {
    expect(fetchesFixedOrigin('return fetch(API + input.path);', "const API = 'https://api.example.com/';")).toBe(true);
    expect(fetchesFixedOrigin('return fetch(API);', "const API = 'https://api.example.com/';")).toBe(true);
  });
});

describe('isConfinedToShippedFolder', () => {
  const preamble = `import path from 'node:path';
const DOCS = path.join(__dirname, 'docs');
function docsRoot() { return path.join(import.meta.dirname, 'docs'); }`;
  const confined = (body: string): boolean => {
    const source = snippet(`${preamble}\nasync function run(input) { ${body} }`);
    const fn = source.fn();
    const call = source.call('readFile(', fn.body);
    return isConfinedToShippedFolder(call.arguments[0]!, scopeOf(source, fn));
  };

  it('knows a path checked to lie under a folder the package ships', () => {
    expect(
      confined("const p = path.resolve(DOCS, input.name); if (!p.startsWith(DOCS)) throw new Error('outside'); return readFile(p);"),
    ).toBe(true);
    expect(
      confined("const p = path.resolve(input.name); if (path.relative(docsRoot(), p).startsWith('..')) throw 0; return readFile(p);"),
    ).toBe(true);
  });

  it('does not confine a path to a root the model or the configuration picks', () => {
    expect(confined('const p = path.resolve(input.root, input.name); if (!p.startsWith(input.root)) throw 0; return readFile(p);')).toBe(
      false,
    );
    expect(confined('const p = path.resolve(CONFIG.root, input.name); if (!p.startsWith(CONFIG.root)) throw 0; return readFile(p);')).toBe(
      false,
    );
    expect(confined('const p = path.resolve(DOCS, input.name); return readFile(p);')).toBe(false);
  });
});
