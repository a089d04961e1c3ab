// The package-wide name facts the name join reads (recognition/package-files.ts):
// which files are the package's own sources, which names they list and compare,
// and that a bundle is left out of them but still counts as the linted file.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { parse } from '@typescript-eslint/parser';
import type { TSESTree } from '@typescript-eslint/utils';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';

import { DEFAULT_RECOGNITION_SETTINGS, assignParents, findToolDefinitions } from '../../src/recognition/index.js';
import { MAX_SOURCE_FILE_BYTES, clearPackageFileCache, packageNameFacts, packageSourceFiles } from '../../src/recognition/package-files.js';

const root = mkdtempSync(path.join(tmpdir(), 'trg-package-files-'));
const write = (name: string, text: string): string => {
  const file = path.join(root, name);
  writeFileSync(file, text);
  return file;
};
/** A comment that takes a file over the bundle size. */
const padding = `/* ${'x'.repeat(MAX_SOURCE_FILE_BYTES)} */\n`;

const tools = write('tools.ts', `export const TOOLS = [{ name: 'count_clicks', description: 'd', inputSchema: { type: 'object' } }];\n`);
const handler = write(
  'handler.ts',
  `import { CounterTool } from './counter.js';
const counter = new CounterTool();
export async function handleToolCall(name: string, args: any) {
  switch (name) {
    case 'count_clicks': return counter.execute(args);
  }
}
`,
);
write('counter.ts', `export class CounterTool { clicks = 0; async execute(args: any) { this.clicks += 1; return { content: [] }; } }\n`);
write('package.json', '{ "name": "joined-fixture" }\n');
// A vendored dependency tree: thousands of names that are no tool list and no dispatcher.
const vendor = write(
  'vendor.js',
  `${padding}export const ITEMS = [{ name: 'vendored', inputSchema: {} }];\nexport function pick(name, args) { switch (name) { case 'vendored': return args; } }\n`,
);
// A whole server bundled into one file: its list, dispatcher and implementation class together.
const bundleText = `${padding}export const TOOLS = [{ name: 'bundled_count', description: 'd', inputSchema: { type: 'object' } }];
export class BundledCounterTool { hits = 0; async execute(args) { this.hits += 1; return { content: [] }; } }
const bundled = new BundledCounterTool();
export async function route(name, args) {
  switch (name) {
    case 'bundled_count': return bundled.execute(args);
  }
}
`;
const bundle = write('server.bundle.js', bundleText);

afterAll(() => rmSync(root, { recursive: true, force: true }));
beforeEach(() => clearPackageFileCache());

describe('package name facts', () => {
  it('lists the package’s own sources and leaves bundles out', () => {
    const files = packageSourceFiles(root);
    expect(files).toContain(tools);
    expect(files).toContain(handler);
    expect(files).not.toContain(vendor);
    expect(files).not.toContain(bundle);
  });

  it('joins the names the sources list and compare, and finds the dispatchers of listed names', () => {
    const facts = packageNameFacts(root);
    expect([...facts.listed]).toEqual(['count_clicks']);
    expect(facts.comparedIn.get('count_clicks')).toEqual([handler]);
    expect(facts.comparedIn.has('vendored')).toBe(false);
    expect([...facts.dispatchers.keys()]).toEqual([handler]);
  });

  it('is gathered once per process until the cache is cleared', () => {
    const first = packageNameFacts(root);
    expect(packageNameFacts(root)).toBe(first);
    clearPackageFileCache();
    expect(packageNameFacts(root)).not.toBe(first);
  });
});

describe('the name join in a linted bundle', () => {
  function toolNamesOf(code: string, filePath: string): (string | undefined)[] {
    const program = parse(code, { range: true, loc: true }) as TSESTree.Program;
    assignParents(program);
    return findToolDefinitions(program, DEFAULT_RECOGNITION_SETTINGS, { filePath }).map((definition) => definition.name);
  }

  it('makes the list entry the tool and the routed class no second one, though the listing leaves the bundle out', () => {
    expect(toolNamesOf(bundleText, bundle)).toEqual(['bundled_count']);
  });

  it('still joins a class of the package’s sources to a listed name', () => {
    const counterText = `export class CounterTool { clicks = 0; async execute(args: any) { this.clicks += 1; return { content: [] }; } }\n`;
    expect(toolNamesOf(counterText, path.join(root, 'counter.ts'))).toEqual([]);
  });
});
