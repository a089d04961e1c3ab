// Requests to page-fetching APIs (input-flow/api-requests, issue 12): a
// scraping or reader API answers with the page at the URL it was sent, so
// such a request given the model's URL is a read; a search or a job status is not.
import { describe, expect, it } from 'vitest';

import { carriesModelUrl, fetchingApiRequest } from '../../../src/recognition/input-flow/api-requests.js';
import { environment, scopeOf, snippet } from './snippets.js';

function request(body: string, start: string, parameters = [0]) {
  const source = snippet(`async function run(input, params) { ${body} }`);
  const fn = source.fn();
  const call = source.call(start, fn.body);
  const scope = scopeOf(source, fn, parameters);
  return { call, scope, source };
}

describe('fetchingApiRequest', () => {
  it('takes the model’s URL as target of an HTTP client for a read', () => {
    const { call, scope } = request('return this.kyReader.get(input.url);', 'this.kyReader.get(');
    expect(fetchingApiRequest(call, scope, environment)).toBe('named');
    const fixed = request("return this.kyReader.get('https://api.example.com/items/' + input.id);", 'this.kyReader.get(');
    expect(fetchingApiRequest(fixed.call, fixed.scope, environment)).toBeUndefined();
    const cache = request('return cache.get(input.url);', 'cache.get(');
    expect(fetchingApiRequest(cache.call, cache.scope, environment)).toBeUndefined();
  });

  it('takes a URL in the body of a request to a page-fetching endpoint for a read', () => {
    for (const [body, start] of [
      ["return post('/v2/scrape', { url: input.url });", 'post('],
      ["return exa.request('/contents', 'POST', { urls: input.urls });", 'exa.request('],
      ['return axios.post(this.baseURLs.extract, { json: { url: input.url } });', 'axios.post('],
      ["const body = { urls: input.urls, text: true }; return ky.post('contents', { json: body });", 'ky.post('],
    ] as const) {
      const { call, scope } = request(body, start);
      expect(fetchingApiRequest(call, scope, environment), body).toBe('named');
    }
  });

  it('leaves endpoints that answer with something else alone', () => {
    for (const [body, start] of [
      ["return post('/v2/search', { query: input.query });", 'post('],
      ["return post('/v2/findSimilar', { url: input.url });", 'post('],
      ["return post('/v2/search', { url: input.url });", 'post('],
      ["return post('/v2/scrape', { url: 'https://example.com' });", 'post('],
    ] as const) {
      const { call, scope } = request(body, start);
      expect(fetchingApiRequest(call, scope, environment), body).toBeUndefined();
    }
  });

  it('leaves it to the caller when the URL is only in a parameter it filled', () => {
    const { call, scope } = request("return post('/v2/scrape', { ...params });", 'post(', [1]);
    expect(fetchingApiRequest(call, scope, environment)).toBe('opaque');
  });
});

describe('carriesModelUrl', () => {
  it('says how surely an argument carries the model’s URL', () => {
    const { call, scope } = request(
      'return use({ json: { urls: input.urls } }, JSON.stringify({ link: input.link }), { ...input.options }, input.query, { id: LIMIT });',
      'use(',
    );
    expect(call.arguments.map((argument) => carriesModelUrl(argument, scope))).toEqual(['named', 'named', 'opaque', 'opaque', undefined]);
  });
});
