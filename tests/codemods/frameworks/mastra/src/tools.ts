// A Mastra agent's tools.
import { readFile } from 'node:fs/promises';
import { createTool } from '@mastra/core/tools';
import { z } from 'zod';

const cache = new Map<string, string>();

export const readFileTool = createTool({
  id: 'read-file',
  description: 'Read a file',
  inputSchema: z.object({ path: z.string() }),
  execute: async ({ path }) => readFile(path, 'utf8'),
});

export const weatherTool = createTool({
  id: 'weather',
  description: 'The weather in a city (cached)',
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => {
    const cached = cache.get(city);
    if (cached !== undefined) return cached;
    const report = await (await fetch(`https://wttr.in/${encodeURIComponent(city)}?format=3`)).text();
    cache.set(city, report);
    return report;
  },
});
