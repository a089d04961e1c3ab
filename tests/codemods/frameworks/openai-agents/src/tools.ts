// An OpenAI Agents SDK agent's tools.
import { readFile } from 'node:fs/promises';
import { tool } from '@openai/agents';
import { z } from 'zod';

export const readFileTool = tool({
  name: 'read_file',
  description: 'Read a file',
  parameters: z.object({ path: z.string() }),
  execute: async ({ path }) => readFile(path, 'utf8'),
});

export const fetchTool = tool({
  name: 'fetch_url',
  description: 'Fetch a URL',
  parameters: z.object({ url: z.string() }),
  execute: async ({ url }) => (await fetch(url)).text(),
});
