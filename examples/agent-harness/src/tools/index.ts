import { projectConfigTool } from './project-config.js';
import { BashTool } from './bash.js';
import { browserSessionTool } from './browser-session.js';
import { ReadFileTool } from './read-file.js';
import type { Tool } from './tool.js';
import { webFetchTool } from './web-fetch.js';

export function createToolRegistry(): ReadonlyMap<string, Tool> {
  const tools = [
    new ReadFileTool(),
    new BashTool(),
    webFetchTool,
    projectConfigTool,
    browserSessionTool,
  ] as Tool[];
  return new Map(tools.map((tool) => [tool.name, tool]));
}
