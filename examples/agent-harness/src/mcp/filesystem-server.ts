import { readFile, readdir } from 'node:fs/promises';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

// The harness exposes its workspace to other agents over MCP.
export const server = new McpServer({ name: 'agent-harness-fs', version: '0.1.0' });

// DEFECT (circular persistence): an MCP resource reader with no maxResultSizeChars at all,
// so the harness applies its finite default and persists what it reads.
server.registerTool(
  'read_text_file',
  {
    title: 'Read text file',
    description: 'Reads a UTF-8 text file from the workspace.',
    inputSchema: { path: z.string().describe('Path of the file to read') },
  },
  async ({ path }: { path: string }) => ({
    content: [{ type: 'text', text: await readFile(path, 'utf8') }],
  }),
);

// Lists names only; its output size is bounded by the folder, not by a file
// the model could point at a persisted result.
server.registerTool(
  'list_directory',
  {
    title: 'List directory',
    description: 'Lists the entries of a workspace folder.',
    inputSchema: { path: z.string() },
  },
  async ({ path }: { path: string }) => {
    const entries = await readdir(path, { withFileTypes: true });
    const lines = entries.map((entry) => `${entry.isDirectory() ? '[DIR]' : '[FILE]'} ${entry.name}`);
    return { content: [{ type: 'text', text: lines.join('\n') }] };
  },
);
