// The MCP client guard against a real MCP server and Client from
// @modelcontextprotocol/sdk, linked by the SDK's in-memory transport (no
// network): a large result is persisted and replaced by its preview under
// the model's call id; the self-reading read_text_file gets the whole file
// and is never persisted; a retry of the same call gets the same bytes.
import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { ToolResultStore, UNBOUNDED, type ReplacementRecord, type UnhandledPart } from '../../../src/index.js';
import { guardMcpToolResults } from '../../../src/runtime/integrations/mcp-client.js';
import { makeTemporaryRoot } from '../helpers.js';
import { persistedPathIn } from './ai-sdk-mock.js';

const BIG_OUTPUT = Array.from({ length: 4_000 }, (_, line) => `row ${line}: ${'y'.repeat(45)}`).join('\n');

const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

async function connectedClient(): Promise<Client> {
  const server = new McpServer({ name: 'test-server', version: '1.0.0' });
  server.registerTool('query_logs', { description: 'Searches the logs.', inputSchema: { query: z.string() } }, async () => ({
    content: [{ type: 'text', text: BIG_OUTPUT }],
    structuredContent: { rows: BIG_OUTPUT.split('\n') },
  }));
  server.registerTool('read_text_file', { description: 'Reads a file.', inputSchema: { path: z.string() } }, async ({ path }) => ({
    content: [{ type: 'text', text: await readFile(path, 'utf8') }],
  }));
  server.registerTool('screenshot', { description: 'A screenshot.' }, async () => ({
    content: [
      { type: 'text', text: 's'.repeat(80_000) },
      { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
    ],
  }));
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await client.connect(clientTransport);
  clients.push(client);
  return client;
}

const TOOLS = [
  { name: 'query_logs', maxResultSizeChars: 50_000 },
  { name: 'read_text_file', maxResultSizeChars: UNBOUNDED },
  { name: 'screenshot', maxResultSizeChars: 10_000 },
];

const textOf = (result: object) =>
  ((result as { content?: unknown }).content as Array<{ type: string; text?: string }>)
    .map((part) => part.text ?? `[${part.type}]`)
    .join('\n');

describe('guardMcpToolResults around Client.callTool', () => {
  it('persists a large result under the call id and replaces its content with the preview; the read tool gets it back whole', async () => {
    const client = await connectedClient();
    const store = new ToolResultStore({ root: makeTemporaryRoot('trg-mcp-'), sessionId: 'session-1' });
    const records: ReplacementRecord[] = [];
    const guard = guardMcpToolResults({ store, tools: TOOLS, querySource: 'repl_main_thread', onRecord: (record) => records.push(record) });

    const logs = await guard.callTool(client, { name: 'query_logs', arguments: { query: 'error' } }, { callId: 'toolu_logs' });
    const preview = textOf(logs);
    expect(preview.startsWith('<persisted-output>')).toBe(true);
    expect(persistedPathIn(preview)).toBe(store.pathFor('toolu_logs'));
    expect((logs as { content: unknown[] }).content).toHaveLength(1);
    // The structured copy of the same data goes with the text it duplicates.
    expect('structuredContent' in logs).toBe(false);

    const read = await guard.callTool(
      client,
      { name: 'read_text_file', arguments: { path: persistedPathIn(preview) } },
      { callId: 'toolu_read' },
    );
    expect(textOf(read) === BIG_OUTPUT, 'read_text_file got all of the persisted output').toBe(true);
    expect(readdirSync(store.directory)).toEqual(['toolu_logs.txt']);

    // A retry of the same call: the byte-identical replacement, nothing written again.
    const retry = await guard.callTool(client, { name: 'query_logs', arguments: { query: 'error' } }, { callId: 'toolu_logs' });
    expect(textOf(retry)).toBe(preview);
    expect(records.map((record) => record.toolUseId)).toEqual(['toolu_logs']);
    expect(guard.state.replacements.get('toolu_logs')).toBe(preview);
  });

  it('never persists an image-bearing result; reports an unknown content type and an unclassified tool once each', async () => {
    const client = await connectedClient();
    const reports: UnhandledPart[] = [];
    const store = new ToolResultStore({ root: makeTemporaryRoot('trg-mcp-'), sessionId: 's' });
    const guard = guardMcpToolResults({
      store,
      tools: TOOLS.slice(0, 1),
      querySource: 'repl_main_thread',
      onUnhandledPart: (part) => reports.push(part),
    });

    const shot = await client.callTool({ name: 'screenshot' });
    expect(await guard.budgetResult(shot, { callId: 'c1', toolName: 'query_logs' })).toBe(shot);
    const odd = { content: [{ type: 'hologram', text: 'h'.repeat(90_000) }] };
    expect(await guard.budgetResult(odd, { callId: 'c2', toolName: 'query_logs' })).toBe(odd);
    expect(await guard.budgetResult(odd, { callId: 'c2', toolName: 'query_logs' })).toBe(odd);
    const unknownTool = { content: [{ type: 'text', text: 'u'.repeat(90_000) }] };
    expect(await guard.budgetResult(unknownTool, { callId: 'c3', toolName: 'mystery' })).toBe(unknownTool);
    expect(await guard.budgetResult(unknownTool, { callId: 'c3', toolName: 'mystery' })).toBe(unknownTool);
    expect(reports.map(({ reason, type }) => `${reason} ${type}`)).toEqual(['unknown-part-type hologram', 'unclassified-tool text']);
  });

  it('keeps the result inline and reports a failed persist', async () => {
    const client = await connectedClient();
    const failures: string[] = [];
    const guard = guardMcpToolResults({
      store: { persist: async () => Promise.reject(Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' })) },
      tools: TOOLS,
      querySource: 'repl_main_thread',
      onPersistError: (_error, toolUseId) => failures.push(toolUseId),
    });
    const result = await guard.callTool(client, { name: 'query_logs', arguments: { query: 'x' } }, { callId: 'toolu_1' });
    expect(textOf(result) === BIG_OUTPUT).toBe(true);
    expect(failures).toEqual(['toolu_1']);
  });

  it('needs the call id the model issued', async () => {
    const client = await connectedClient();
    const guard = guardMcpToolResults({
      store: new ToolResultStore({ root: makeTemporaryRoot('trg-mcp-'), sessionId: 's' }),
      tools: TOOLS,
      querySource: 'sdk',
    });
    await expect(guard.callTool(client, { name: 'query_logs', arguments: { query: 'x' } }, { callId: '' })).rejects.toThrow(
      /callId must be the id of the model's tool call/u,
    );
  });
});
