import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { buildTool } from './tool.js';

const CONFIG_FILE = '.agent/config.json';

// Reads one fixed file, never a path from the model's input, so it cannot be
// pointed at a persisted result: a finite limit is fine here.
export const projectConfigTool = buildTool<Record<string, never>>({
  name: 'project_config',
  description: 'Shows the agent configuration of the current project.',
  inputSchema: { type: 'object', properties: {} },
  maxResultSizeChars: 20_000,
  async call(_input, context) {
    const configPath = path.join(context.cwd, CONFIG_FILE);
    try {
      return { content: await readFile(configPath, 'utf8') };
    } catch {
      return { content: `No ${CONFIG_FILE} in ${context.cwd}.` };
    }
  },
});
