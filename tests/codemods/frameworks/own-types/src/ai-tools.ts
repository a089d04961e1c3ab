// The same harness also exposes AI SDK tools.
import { readdir } from 'node:fs/promises';
import { tool } from 'ai';
import { z } from 'zod';

export const aiTools = {
  fetch_page: tool({
    description: 'Fetch a web page',
    inputSchema: z.object({ url: z.string() }),
    execute: async ({ url }) => (await fetch(url)).text(),
  }),
  list_directory: tool({
    description: 'List a directory',
    inputSchema: z.object({ path: z.string() }),
    execute: async ({ path }) => (await readdir(path)).join('\n'),
  }),
};
