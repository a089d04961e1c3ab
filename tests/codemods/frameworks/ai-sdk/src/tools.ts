// A coding agent on the AI SDK: a file reader, a page fetcher, a rate-limited search.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { tool } from 'ai';
import { z } from 'zod';

let searchesThisSession = 0;

export const tools = {
  read_file: tool({
    description: 'Read a file of the workspace',
    inputSchema: z.object({ path: z.string() }),
    execute: async ({ path }) => readFile(resolve(process.cwd(), path), 'utf8'),
  }),
  fetch_page: tool({
    description: 'Fetch a web page',
    inputSchema: z.object({ url: z.string() }),
    execute: async ({ url }) => (await fetch(url)).text(),
  }),
  search: tool({
    description: 'Search the web (20 searches per session)',
    inputSchema: z.object({ query: z.string() }),
    execute: async ({ query }) => {
      searchesThisSession += 1;
      return `results for ${query} (${searchesThisSession} of 20)`;
    },
  }),
};
