// What counts as reading a location (input-flow/reader-calls): a reader of
// readers.ts or a content search given the model's location, or a service
// method named for reading it. Each is the read half of circular persistence.
import { describe, expect, it } from 'vitest';

import { namedServiceRead, namesLocation, readerCallRead, unwrapConversion } from '../../../src/recognition/input-flow/reader-calls.js';
import { environment, scopeOf, snippet } from './snippets.js';

/** The parsed `run(input)` of `body`, its scope, and the call that starts with `start`. */
function callIn(
  body: string,
  start: string,
  preamble = "import { readFile } from 'node:fs/promises';\nimport { spawn } from 'node:child_process';",
) {
  const source = snippet(`${preamble}\nasync function run(input) { ${body} }`);
  const fn = source.fn();
  return { source, call: source.call(start, fn.body), scope: scopeOf(source, fn) };
}

describe('readerCallRead', () => {
  it('records a reader given the model’s location as a finding with no helpers passed through', () => {
    const { call, scope } = callIn(`return readFile(input.path, 'utf8');`, 'readFile(');
    const read = readerCallRead(call, scope, environment);
    expect(read?.finding).toEqual({ call, callName: 'readFile', reader: 'readFile', readerKind: 'file', via: [] });
    expect(read?.navigated).toBeUndefined();
  });

  it('names the page a navigation loaded the location into', () => {
    const { source, call, scope } = callIn('await page.goto(input.url); return page.content();', 'page.goto(');
    const read = readerCallRead(call, scope, environment);
    expect(read?.finding.readerKind).toBe('url');
    expect(source.text(read!.navigated!)).toBe('page');
  });

  it('counts a content search process pointed at the model’s folder', () => {
    const { call, scope } = callIn(`return spawn('rg', ['-n', input.pattern, input.dir]);`, 'spawn(');
    expect(readerCallRead(call, scope, environment)?.finding).toMatchObject({ reader: 'spawn', readerKind: 'file' });
  });

  it('answers null for a reader of a location the code fixes, undefined for a call that is no reader', () => {
    const fixed = callIn(`return readFile(CONFIG_PATH, 'utf8');`, 'readFile(');
    expect(readerCallRead(fixed.call, fixed.scope, environment)).toBeNull();
    const api = callIn("return fetch('https://api.example.com/search?q=' + input.query);", 'fetch(');
    expect(readerCallRead(api.call, api.scope, environment)).toBeNull();
    const other = callIn('return transform(input.path);', 'transform(');
    expect(readerCallRead(other.call, other.scope, environment)).toBeUndefined();
  });
});

describe('namedServiceRead', () => {
  const kind = (body: string, start: string) => {
    const { call, scope } = callIn(body, start, '');
    return namedServiceRead(call, scope, environment);
  };

  it('takes a service method named for reading, given a model-chosen location, for a read', () => {
    expect(kind('return backend.read(input.filePath);', 'backend.read(')).toBe('file');
    expect(kind('return session.viewImage({ path: input.path });', 'session.viewImage(')).toBe('file');
    expect(kind('return skills.getAsset(input.skill, input.path);', 'skills.getAsset(')).toBe('file');
    expect(kind('return backend.grep(input.pattern, input.path);', 'backend.grep(')).toBe('file');
    expect(kind('return client.scrapePage({ url: input.url });', 'client.scrapePage(')).toBe('url');
    expect(kind('return archive.extract(input.url);', 'archive.extract(')).toBe('url');
  });

  it('leaves ids, queries, writes, fixed origins and archives alone', () => {
    expect(kind('return backend.read(input.id);', 'backend.read(')).toBeUndefined();
    expect(kind('return backend.write(input.path, input.text);', 'backend.write(')).toBeUndefined();
    expect(kind("return files.open(input.path, 'w');", 'files.open(')).toBeUndefined();
    expect(kind('return search.search(input.query, { domain: input.site });', 'search.search(')).toBeUndefined();
    expect(kind("return client.fetchJson({ url: 'https://api.example.com/items/' + input.id });", 'client.fetchJson(')).toBeUndefined();
    expect(kind('return archive.extract(input.file);', 'archive.extract(')).toBeUndefined();
    // A receiver-free call is no service.
    expect(kind('return readDocument(input.path);', 'readDocument(')).toBeUndefined();
  });
});

describe('location names', () => {
  it('sees through conversions of a location, and names locations, not ids', () => {
    const { source, call } = callIn(
      'return use(String(input.url), encodeURI(await input.href), { filePath: input.p }, { id: input.id }, input.name);',
      'use(',
      '',
    );
    const [converted, encoded, fields, ids, name] = call.arguments;
    expect(source.text(unwrapConversion(converted!))).toBe('input.url');
    expect(source.text(unwrapConversion(encoded!))).toBe('input.href');
    expect([converted, encoded, fields, ids, name].map((argument) => namesLocation(argument!))).toEqual([true, true, true, false, false]);
    expect(namesLocation(fields!, /url/i)).toBe(false);
  });
});
