// @ts-check
// MCP tool results budgeted where they enter the harness, runnable as it is:
//   npm run build && node examples/integrations/mcp-client.mjs
// A real MCP server and Client from @modelcontextprotocol/sdk, linked in memory.
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

import { ToolResultStore, UNBOUNDED } from 'tool-result-guard';
import { guardMcpToolResults } from 'tool-result-guard/mcp-client';

const BIG_LOG = Array.from({ length: 6_500 }, (_, line) => `2026-12-02T10:00:${String(line % 60).padStart(2, '0')} worker-${line % 7} ok`).join('\n');

/** @param {unknown} result */
const textOf = (result) => /** @type {{ content: Array<{ text?: string }> }} */ (result).content.map((part) => part.text ?? '').join('\n');

/** @param {(line: string) => void} log */
export async function runExample(log = console.log) {
  const server = new McpServer({ name: 'ops', version: '1.0.0' });
  server.registerTool('query_logs', { description: 'Searches the logs.', inputSchema: { query: z.string() } }, async () => ({ content: [{ type: 'text', text: BIG_LOG }] }));
  server.registerTool('read_text_file', { description: 'Reads a file.', inputSchema: { path: z.string() } }, async ({ path: file }) => ({
    content: [{ type: 'text', text: await readFile(file, 'utf8') }],
  }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'harness', version: '1.0.0' });
  await client.connect(clientSide);

  const root = mkdtempSync(path.join(tmpdir(), 'trg-example-mcp-'));
  try {
    const guard = guardMcpToolResults({
      store: new ToolResultStore({ root, sessionId: 'session-1' }),
      // The server's tools by name; a filesystem reader is UNBOUNDED.
      tools: [
        { name: 'query_logs', maxResultSizeChars: 50_000 },
        { name: 'read_text_file', maxResultSizeChars: UNBOUNDED },
      ],
      querySource: 'repl_main_thread',
    });
    // callId: the id of the model's tool call this result answers.
    const logs = await guard.callTool(client, { name: 'query_logs', arguments: { query: 'worker' } }, { callId: 'toolu_01' });
    const savedTo = /Full output saved to: (.+)$/mu.exec(textOf(logs))?.[1] ?? '';
    log(`query_logs returned ${BIG_LOG.length} characters; the harness keeps a ${textOf(logs).length}-character preview naming ${savedTo}.`);
    const file = await guard.callTool(client, { name: 'read_text_file', arguments: { path: savedTo } }, { callId: 'toolu_02' });
    log(`read_text_file on that path: ${textOf(file).length} characters, inline (UNBOUNDED: never persisted).`);
    const retry = await guard.callTool(client, { name: 'query_logs', arguments: { query: 'worker' } }, { callId: 'toolu_01' });
    log(`A retry of toolu_01 gets the same preview, byte for byte: ${textOf(retry) === textOf(logs)}.`);
    return { readBack: textOf(file) === BIG_LOG, retrySame: textOf(retry) === textOf(logs) };
  } finally {
    await client.close();
    rmSync(root, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await runExample();
