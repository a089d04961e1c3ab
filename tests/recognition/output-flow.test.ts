// Circular persistence needs a tool whose result carries what it read: these
// tests pin the second half of the verdict (the content reaches the output).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { parse } from '@typescript-eslint/parser';
import type { TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';

import {
  DEFAULT_RECOGNITION_SETTINGS,
  type RecognitionContext,
  analyseSelfReading,
  assignParents,
  buildFileIndex,
  findToolDefinitions,
} from '../../src/recognition/index.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'rules', 'fixtures', 'self-reading');

function verdicts(code: string): Record<string, { read: boolean; selfReading: boolean }> {
  const program = parse(code, { range: true, loc: true, sourceType: 'module' }) as TSESTree.Program;
  assignParents(program);
  const file = buildFileIndex(program, path.join(fixtures, 'tool.ts'));
  const settings = DEFAULT_RECOGNITION_SETTINGS;
  const recognition: RecognitionContext = {
    settings,
    filePath: file.filePath,
    file,
    environment: { settings },
    contextualTypeName: undefined,
    hasTypeInformation: false,
  };
  const result: Record<string, { read: boolean; selfReading: boolean }> = {};
  for (const definition of findToolDefinitions(program, settings)) {
    const analysis = analyseSelfReading(definition, recognition);
    result[definition.name ?? '?'] = { read: analysis.read !== undefined, selfReading: analysis.selfReading };
  }
  return result;
}

describe('the content read reaches what the model gets back', () => {
  it('counts content returned directly, through locals, conversions and result fields', () => {
    const result = verdicts(`import { readFile } from 'node:fs/promises';
buildTool({ name: 'Direct', async call(input) { return readFile(input.path, 'utf8'); } });
buildTool({ name: 'Lines', async call(input) {
  const text = await readFile(input.path, 'utf8');
  const lines = text.split('\\n').slice(input.offset, input.limit);
  return lines.map((line, i) => i + ': ' + line).join('\\n');
} });
buildTool({ name: 'Mcp', async call(input) {
  const text = await readFile(input.path, 'utf8');
  return { content: [{ type: 'text', text }] };
} });
buildTool({ name: 'Gemini', async call(input) {
  const text = await readFile(input.path, 'utf8');
  return { llmContent: text, returnDisplay: 'Read 1 file' };
} });
buildTool({ name: 'Web', async call({ url }) { const response = await fetch(url); return { body: await response.text() }; } });
buildTool({ name: 'Many', async call(input) {
  const parts = await Promise.all(input.paths.map(async (p) => readFile(p, 'utf8')));
  return parts.join('\\n');
} });`);
    for (const name of ['Direct', 'Lines', 'Mcp', 'Gemini', 'Web', 'Many']) expect(result[name], name).toEqual({ read: true, selfReading: true });
  });

  it('follows a helper whose return derives from what it read, and a formatter given the content', () => {
    const result = verdicts(`import { readFile } from 'node:fs/promises';
async function load(p) { const raw = await readFile(p, 'utf8'); return { text: raw, size: raw.length }; }
function numbered(text) { return text.split('\\n').map((l, i) => i + ' ' + l).join('\\n'); }
async function sizeOf(p) { const raw = await readFile(p, 'utf8'); return raw.length; }
buildTool({ name: 'ViaHelper', async call(input) { const loaded = await load(input.path); return numbered(loaded.text); } });
buildTool({ name: 'FieldOfHelper', async call(input) { const { size } = await load(input.path); return 'bytes: ' + size; } });
buildTool({ name: 'Count', async call(input) { return 'lines: ' + (await sizeOf(input.path)); } });`);
    expect(result.ViaHelper).toEqual({ read: true, selfReading: true });
    expect(result.FieldOfHelper).toEqual({ read: true, selfReading: false });
    expect(result.Count).toEqual({ read: true, selfReading: false });
  });

  it('does not count a status, a count, a diff of its own edit, a display-only field, or content sent elsewhere', () => {
    const result = verdicts(`import { readFile, writeFile } from 'node:fs/promises';
import { createPatch } from 'diff';
buildTool({ name: 'Edit', async call(input) {
  const before = await readFile(input.path, 'utf8');
  const after = before.replace(input.old_string, input.new_string);
  await writeFile(input.path, after);
  return { llmContent: 'Edited ' + input.path, returnDisplay: createPatch(input.path, before, after) };
} });
buildTool({ name: 'Patch', async call(input) {
  const before = await readFile(input.path, 'utf8');
  const after = before.split(input.old).join(input.new);
  await writeFile(input.path, after);
  return createPatch(input.path, before, after);
} });
buildTool({ name: 'Replace', async call(input) {
  const before = await readFile(input.path, 'utf8');
  const occurrences = before.split(input.old).length - 1;
  await writeFile(input.path, before.replaceAll(input.old, input.new));
  return \`Replaced \${occurrences} occurrences in \${input.path}\`;
} });
buildTool({ name: 'Exists', async call(input) { const text = await readFile(input.path, 'utf8'); return { ok: true, found: text.includes(input.needle) }; } });
buildTool({ name: 'Upload', async call(input) { const data = await readFile(input.path); await this.api.upload(data); return 'uploaded'; } });`);
    for (const name of ['Edit', 'Patch', 'Replace', 'Exists', 'Upload']) expect(result[name], name).toEqual({ read: true, selfReading: false });
  });

  it('follows content stored into an argument by a helper, and a promise settled with it', () => {
    const result = verdicts(`import { readFile, createReadStream } from 'node:fs';
async function addContext(byFile, paths) {
  for (const p of paths) { const lines = (await readFile(p, 'utf8')).split('\\n'); byFile[p] = lines; }
}
function readBase64(p) {
  return new Promise((resolve) => {
    const chunks = [];
    const stream = createReadStream(p);
    stream.on('data', (chunk) => chunks.push(chunk));
    stream.on('end', () => resolve(Buffer.concat(chunks).toString('base64')));
  });
}
buildTool({ name: 'Grep', async call(input) {
  const byFile = {};
  await addContext(byFile, input.paths);
  let out = '';
  for (const p in byFile) byFile[p].forEach((line) => { out += line; });
  return { llmContent: out };
} });
buildTool({ name: 'Media', async call(input) { return { content: [{ type: 'image', data: await readBase64(input.path) }] }; } });`);
    expect(result.Grep).toEqual({ read: true, selfReading: true });
    expect(result.Media).toEqual({ read: true, selfReading: true });
  });

  it('does not count what a service we cannot follow answers about the content', () => {
    const result = verdicts(`import { readFile } from 'node:fs/promises';
buildTool({ name: 'Diagnose', async call(input) {
  const text = await readFile(input.path, 'utf8');
  const diagnostics = await this.languageServer.getDiagnostics(input.path, text);
  return diagnostics.map((d) => d.message).join('\\n');
} });
buildTool({ name: 'Parsed', async call(input) { const text = await readFile(input.path, 'utf8'); return JSON.parse(text); } });`);
    expect(result.Diagnose).toEqual({ read: true, selfReading: false });
    expect(result.Parsed).toEqual({ read: true, selfReading: true });
  });
});

describe('reads whose content arrives in a callback', () => {
  it('follows the response a read hands its callback, also with the module chosen by a condition', () => {
    const result = verdicts(`import http from 'node:http';
import https from 'node:https';
function get(url) {
  return new Promise((resolve) => {
    (url.protocol === 'https:' ? https : http).request(url, (response) => {
      let body = '';
      response.on('data', (chunk) => { body += chunk; });
      response.on('end', () => resolve({ content: body, status: response.statusCode }));
    }).end();
  });
}
buildTool({ name: 'WebFetch', async call({ url }) { return get(new URL(url)); } });
buildTool({ name: 'Ping', async call({ url }) { const { status } = await get(new URL(url)); return 'status ' + status; } });`);
    expect(result.WebFetch).toEqual({ read: true, selfReading: true });
    expect(result.Ping).toEqual({ read: true, selfReading: false });
  });
});
