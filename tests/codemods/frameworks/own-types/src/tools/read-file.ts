// A file reader typed with the harness's own interface.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';

import type { Tool } from '../types.js';

export const readFileTool: Tool<{ path: string }> = {
  name: 'read_file',
  description: 'Read a file of the workspace',
  async execute({ path }, context) {
    return readFile(resolve(context.cwd, path), 'utf8');
  },
};
