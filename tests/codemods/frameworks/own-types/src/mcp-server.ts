// And an MCP server for editors.
import { readFile } from 'node:fs/promises';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

export const server = new McpServer({ name: 'workspace', version: '1.0.0' });

server.tool('read_text_file', 'Read a text file', { path: z.string() }, async ({ path }) => ({
  content: [{ type: 'text', text: await readFile(path, 'utf8') }],
}));

server.registerTool('server_time', { description: 'The server time', inputSchema: {} }, async () => ({
  content: [{ type: 'text', text: new Date().toISOString() }],
}));
