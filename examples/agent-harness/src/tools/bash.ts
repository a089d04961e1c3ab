import { spawn } from 'node:child_process';
import type { Tool, ToolContext, ToolResult } from './tool.js';

interface BashParams {
  command: string;
  timeout_ms?: number;
}

// Externally bounded: its output comes from the command, not from reading a
// path the model picked, so persisting large output is exactly right.
export class BashTool implements Tool<BashParams> {
  readonly name = 'bash';
  readonly description = 'Runs a shell command in the workspace and returns stdout and stderr.';
  readonly inputSchema = {
    type: 'object',
    properties: { command: { type: 'string' }, timeout_ms: { type: 'number' } },
    required: ['command'],
  };
  readonly maxResultSizeChars = 30_000;

  call(params: BashParams, context: ToolContext): Promise<ToolResult> {
    return new Promise((resolve) => {
      const child = spawn('bash', ['-lc', params.command], {
        cwd: context.cwd,
        timeout: params.timeout_ms ?? 120_000,
      });
      const chunks: string[] = [];
      child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
      child.on('close', (code) => {
        resolve({ content: chunks.join('') + (code === 0 ? '' : `\n[exit code ${code}]`), isError: code !== 0 });
      });
    });
  }
}
