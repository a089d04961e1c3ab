import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Tool, ToolContext, ToolResult } from './tool.js';

interface ReadFileParams {
  file_path: string;
  offset?: number;
  limit?: number;
}

export class ReadFileTool implements Tool<ReadFileParams> {
  readonly name = 'read_file';
  readonly description = 'Reads a file from the local filesystem. Use offset/limit for long files.';
  readonly inputSchema = {
    type: 'object',
    properties: {
      file_path: { type: 'string', description: 'Absolute or workspace-relative path' },
      offset: { type: 'number' },
      limit: { type: 'number' },
    },
    required: ['file_path'],
  };
  // DEFECT (circular persistence): this tool reads whatever path the model names, including
  // <session>/tool-results/*.txt. A finite limit means its own output gets
  // persisted, and the model reads the persisted file back with this tool.
  readonly maxResultSizeChars = 100_000;

  async call(params: ReadFileParams, context: ToolContext): Promise<ToolResult> {
    const absolutePath = path.resolve(context.cwd, params.file_path);
    const text = await readFile(absolutePath, 'utf8');
    const lines = text.split('\n');
    const start = params.offset ?? 0;
    const end = params.limit === undefined ? lines.length : start + params.limit;
    const numbered = lines
      .slice(start, end)
      .map((line, index) => `${String(start + index + 1).padStart(6)}\t${line}`);
    return { content: numbered.join('\n') };
  }
}
