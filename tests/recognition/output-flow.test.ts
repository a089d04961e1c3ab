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
    for (const name of ['Direct', 'Lines', 'Mcp', 'Gemini', 'Web', 'Many'])
      expect(result[name], name).toEqual({ read: true, selfReading: true });
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
    // A tool that writes back the file it read: the read is its own edit's, no read of the model's at all.
    for (const name of ['Edit', 'Patch', 'Replace']) expect(result[name], name).toEqual({ read: false, selfReading: false });
    for (const name of ['Exists', 'Upload']) expect(result[name], name).toEqual({ read: true, selfReading: false });
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

  it("follows a callback handed in an options object whose answer is the call's (`Effect.tryPromise({ try })`)", () => {
    const result = verdicts(`import { readFile } from 'node:fs/promises';
buildTool({ name: 'Read', async call(input) { return Effect.tryPromise({ try: async () => readFile(input.path, 'utf8'), catch: (e) => e }); } });
buildTool({ name: 'Touch', async call(input) { return Effect.tryPromise({ try: async () => { await readFile(input.path); return 'ok'; }, catch: (e) => e }); } });`);
    expect(result.Read).toEqual({ read: true, selfReading: true });
    expect(result.Touch).toEqual({ read: true, selfReading: false });
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

describe('searches return the lines they matched', () => {
  it('counts a content-search child process given the model path, through stdout and a parser', () => {
    const result = verdicts(`import { spawn, exec } from 'node:child_process';
function runRipgrep(rg, pattern, dir) {
  return new Promise((resolve) => {
    const proc = spawn(rg, ['-n', '-e', pattern, '--', dir]);
    let out = '';
    proc.stdout.on('data', (d) => { out += d; });
    proc.on('close', () => resolve(out));
  });
}
function parse(output) { return output.split('\\n').map((line) => ({ file: line.split(':')[0], text: line })); }
buildTool({ name: 'Grep', async call(input) {
  const rg = await findExecutable('rg');
  const matches = parse(await runRipgrep(rg, input.pattern, input.path));
  return matches.map((m) => m.text).join('\\n');
} });
buildTool({ name: 'GitGrep', async call(input) {
  const child = spawn('git', ['grep', '-n', input.pattern, '--', input.path]);
  const chunks = [];
  child.stdout.on('data', (c) => chunks.push(c));
  await new Promise((r) => child.on('close', r));
  return Buffer.concat(chunks).toString('utf8');
} });
buildTool({ name: 'Count', async call(input) {
  const proc = spawn('rg', ['-n', input.pattern, input.path]);
  let out = '';
  proc.stdout.on('data', (d) => { out += d; });
  await new Promise((r) => proc.on('close', r));
  return 'found ' + out.length + ' bytes of matches';
} });
buildTool({ name: 'Find', async call(input) {
  const proc = spawn('fd', [input.pattern, input.path]);
  let out = '';
  proc.stdout.on('data', (d) => { out += d; });
  await new Promise((r) => proc.on('close', r));
  return out;
} });`);
    expect(result.Grep).toEqual({ read: true, selfReading: true });
    expect(result.GitGrep).toEqual({ read: true, selfReading: true });
    expect(result.Count).toEqual({ read: true, selfReading: false });
    expect(result.Find).toEqual({ read: false, selfReading: false });
  });

  it('counts programs that print a file, and not a search that prints names or counts', () => {
    /** A tool that runs `program` with `args` and returns all it printed. */
    const printingTool = (name: string, program: string, args: string): string => `buildTool({ name: '${name}', async call(input) {
  const child = spawn('${program}', ${args});
  const chunks = [];
  child.stdout.on('data', (c) => chunks.push(c));
  await new Promise((r) => child.on('close', r));
  return Buffer.concat(chunks).toString('utf8');
} });`;
    const result = verdicts(
      [
        "import { spawn } from 'node:child_process';",
        printingTool('Cat', 'cat', '[input.path]'),
        printingTool('Names', 'rg', "['--files-with-matches', input.pattern, input.path]"),
        printingTool('Query', 'jq', '[input.filter]'),
      ].join('\n'),
    );
    expect(result.Cat).toEqual({ read: true, selfReading: true });
    expect(result.Names).toEqual({ read: false, selfReading: false });
    expect(result.Query).toEqual({ read: false, selfReading: false });
  });

  it('counts matched lines that come back through a callback the reader calls and a closure that formats them', () => {
    const result = verdicts(`import fs from 'node:fs';
import readline from 'node:readline';
async function* batches(input) { let lines = []; for await (const line of input) { lines.push(line); if (lines.length > 10) { yield lines; lines = []; } } yield lines; }
async function grepFile(file, re, push) {
  const rl = readline.createInterface({ input: fs.createReadStream(file, { encoding: 'utf8' }) });
  for await (const lines of batches(rl)) for (const line of lines) if (re.test(line)) push(file + ':' + line);
}
buildTool({ name: 'WalkGrep', async call(input) {
  const hits = [];
  const push = (line) => { hits.push(line); return true; };
  await grepFile(input.path, new RegExp(input.pattern), push);
  return hits.join('\\n');
} });
buildTool({ name: 'WalkCount', async call(input) {
  let count = 0;
  await grepFile(input.path, new RegExp(input.pattern), () => { count += 1; });
  return count + ' matches';
} });
buildTool({ name: 'Emit', async call(input) {
  const out = [];
  const emit = (file, matches, getLine) => { for (const m of matches) out.push(file + ':' + getLine(m)); };
  const text = await fs.promises.readFile(input.path, 'utf8');
  const lines = text.split('\\n');
  emit(input.path, [1, 2], (i) => lines[i]);
  return out.join('\\n');
} });
function withTimeout(operation, ms) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timed out')), ms);
    operation.then((result) => { clearTimeout(timer); resolve(result); }).catch(reject);
  });
}
buildTool({ name: 'Wrapped', async call(input) {
  const operation = async () => { const text = await fs.promises.readFile(input.path, 'utf8'); return { content: [{ type: 'text', text }] }; };
  const result = await withTimeout(operation(), 1000);
  return result;
} });
buildTool({ name: 'SentAway', async call(input) {
  const operation = async () => { const text = await fs.promises.readFile(input.path, 'utf8'); return text; };
  const verdict = await this.reviewer.review(await operation());
  return verdict.summary;
} });`);
    expect(result.WalkGrep).toEqual({ read: true, selfReading: true });
    expect(result.WalkCount).toEqual({ read: true, selfReading: false });
    expect(result.Emit).toEqual({ read: true, selfReading: true });
    expect(result.Wrapped).toEqual({ read: true, selfReading: true });
    expect(result.SentAway).toEqual({ read: true, selfReading: false });
  });

  it('counts a backend or workspace search given the model path, not a query alone', () => {
    const result = verdicts(`buildTool({ name: 'BackendGrep', async call(input) {
  const result = await this.backend.grep(input.pattern, input.path, input.glob);
  return result.matches.map((m) => m.path + ':' + m.line + ': ' + m.text).join('\\n');
} });
buildTool({ name: 'WorkspaceSearch', async call(input) {
  const results = await this.context.search.search(input.query, { topK: 5, path: input.path });
  return { results };
} });
buildTool({ name: 'QuerySearch', async call(input) {
  const results = await this.context.search.search(input.query, { topK: input.top_k });
  return { results };
} });
buildTool({ name: 'WebSearch', async call(input) {
  const response = await this.client.search({ query: input.query, include_images: input.include_images, include_domains: input.domains });
  return response.results.map((r) => r.title + ' ' + r.content).join('\\n');
} });
buildTool({ name: 'SearchCount', async call(input) {
  const result = await this.backend.grep(input.pattern, input.path);
  return result.matches.length + ' matches';
} });`);
    expect(result.BackendGrep).toEqual({ read: true, selfReading: true });
    expect(result.WorkspaceSearch).toEqual({ read: true, selfReading: true });
    expect(result.QuerySearch).toEqual({ read: false, selfReading: false });
    expect(result.WebSearch).toEqual({ read: false, selfReading: false });
    expect(result.SearchCount).toEqual({ read: true, selfReading: false });
  });
});

describe('conversions and dispatchers', () => {
  it('counts content compressed before it comes back', () => {
    const result = verdicts(`import { gzipSync } from 'node:zlib';
buildTool({ name: 'Gzip', async call(input) {
  const response = await fetch(input.url);
  const blob = gzipSync(Buffer.from(await response.arrayBuffer())).toString('base64');
  return { content: [{ type: 'resource', resource: { uri: 'mem://x', blob } }] };
} });`);
    expect(result.Gzip).toEqual({ read: true, selfReading: true });
  });

  it('counts a document sent to an endpoint that converts it, not one sent to any other service', () => {
    const result = verdicts(`import { readFile } from 'node:fs/promises';
buildTool({ name: 'Parse', async call(input) {
  const buffer = await readFile(input.filePath);
  const form = new FormData();
  form.append('file', new Blob([buffer]), 'doc.pdf');
  const endpoint = \`\${process.env.API_URL}/v2/parse\`;
  const response = await fetch(endpoint, { method: 'POST', body: form });
  return JSON.parse(await response.text());
} });
buildTool({ name: 'Describe', async call(input) {
  const buffer = await readFile(input.filePath);
  const response = await fetch('https://vision.example.com/v1/describe', { method: 'POST', body: buffer });
  return (await response.json()).caption;
} });`);
    expect(result.Parse).toEqual({ read: true, selfReading: true });
    expect(result.Describe).toEqual({ read: true, selfReading: false });
  });

  it('counts a stored file a service getter returns for the model path', () => {
    const result = verdicts(`buildTool({ name: 'SkillRead', async call({ skill, path }) {
  const bytes = await this.skills.getAsset(skill, path);
  return bytes.toString('utf-8');
} });
buildTool({ name: 'SkillByName', async call({ name }) {
  const bytes = await this.skills.getAsset(name);
  return bytes.toString('utf-8');
} });`);
    expect(result.SkillRead).toEqual({ read: true, selfReading: true });
    expect(result.SkillByName).toEqual({ read: false, selfReading: false });
  });

  it('does not count a preview of the text the tool itself wrote back', () => {
    const result = verdicts(`import { readFile, writeFile } from 'node:fs/promises';
buildTool({ name: 'EditPreview', async call(input) {
  const before = await readFile(input.path, 'utf8');
  const updated = before.split(input.old).join(input.new);
  await writeFile(input.path, updated);
  const preview = updated.split('\\n').slice(0, 20).join('\\n');
  return { content: [{ type: 'text', text: 'Edited. Preview:\\n' + preview }] };
} });
buildTool({ name: 'Copy', async call(input) {
  const text = await readFile(input.path, 'utf8');
  await writeFile(input.target, text);
  return 'copied';
} });`);
    // It writes the file it read: its own edit's read. A copy reads one file and writes another.
    expect(result.EditPreview).toEqual({ read: false, selfReading: false });
    expect(result.Copy).toEqual({ read: true, selfReading: false });
  });

  it('follows lines grouped into a computed entry of a collection', () => {
    const result =
      verdicts(`function group(matches) { const grouped = {}; for (const m of matches) { if (!grouped[m.path]) grouped[m.path] = []; grouped[m.path].push([m.line, m.text]); } return grouped; }
function format(results) { const lines = []; for (const file of Object.keys(results)) for (const [n, line] of results[file]) lines.push(n + ': ' + line); return lines.join('\\n'); }
buildTool({ name: 'Grouped', async call(input) {
  const result = await this.backend.grep(input.pattern, input.path);
  return format(group(result.matches));
} });`);
    expect(result.Grouped).toEqual({ read: true, selfReading: true });
  });

  it('counts content read in a dispatcher case and returned after the switch, for that case only', () => {
    const result = verdicts(`import { readFile } from 'node:fs/promises';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: 'read_file', inputSchema: {} }, { name: 'stat', inputSchema: {} }] }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name, arguments: args } = request.params;
  let result;
  switch (name) {
    case 'read_file': result = { content: [{ type: 'text', text: await readFile(args.path, 'utf8') }] }; break;
    case 'stat': { const text = await readFile(args.path, 'utf8'); result = { content: [{ type: 'text', text: 'size ' + text.length }] }; break; }
    default: result = { content: [], isError: true };
  }
  return result;
});`);
    expect(result.read_file).toEqual({ read: true, selfReading: true });
    expect(result.stat).toEqual({ read: true, selfReading: false });
  });
});
