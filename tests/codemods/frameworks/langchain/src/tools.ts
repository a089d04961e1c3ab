// A LangChain agent: tool(fn, config) and a DynamicStructuredTool.
import { readFile } from 'node:fs/promises';
import { DynamicStructuredTool, tool } from '@langchain/core/tools';
import { z } from 'zod';

const visited = new Set<string>();

export const readFileTool = tool(async ({ path }) => readFile(path, 'utf8'), {
  name: 'read_file',
  description: 'Read a file',
  schema: z.object({ path: z.string() }),
});

export const browseTool = new DynamicStructuredTool({
  name: 'browse',
  description: 'Fetch a page once per session',
  schema: z.object({ url: z.string() }),
  func: async ({ url }) => {
    visited.add(url);
    return (await fetch(url)).text();
  },
});
