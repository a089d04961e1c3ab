// A file server on the MCP SDK: server.tool with an input shape, and registerTool with a config.
import { readFile } from 'node:fs/promises';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

const server = new McpServer({ name: 'files', version: '1.0.0' });
const TRIGGER_TOOL = 'trigger-sampling-request';

server.tool('read_text_file', 'Read a text file', { path: z.string() }, async ({ path }) => ({
  content: [{ type: 'text', text: await readFile(path, 'utf8') }],
}));

server.registerTool(
  'read_media_file',
  { description: 'Read a media file as base64', inputSchema: { path: z.string() } },
  async ({ path }) => ({ content: [{ type: 'text', text: (await readFile(path)).toString('base64') }] }),
);

server.tool(TRIGGER_TOOL, 'Fetch a URL', { url: z.string() }, async ({ url }) => ({
  content: [{ type: 'text', text: await (await fetch(url)).text() }],
}));

export { server };
