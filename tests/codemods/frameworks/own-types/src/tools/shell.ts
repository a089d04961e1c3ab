// A class implementing the harness's own interface: a class may carry members its interface lacks.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

import type { Tool, ToolContext } from '../types.js';

const run = promisify(execFile);

export class ShellTool implements Tool<{ command: string }> {
  readonly name = 'shell';
  readonly description = 'Run a shell command in the workspace';

  async execute({ command }: { command: string }, context: ToolContext): Promise<string> {
    const { stdout } = await run('sh', ['-c', command], { cwd: context.cwd });
    return stdout;
  }
}
