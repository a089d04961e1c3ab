// The agent: its budget state is the harness's own ReplacementState, and it forks subagents.
import { ReplacementState, type ResumeSnapshot } from './state.js';
import { browserTool } from './tools/browser.js';
import { readFileTool } from './tools/read-file.js';
import { ShellTool } from './tools/shell.js';
import type { Tool } from './types.js';

export interface SubagentOptions {
  task: string;
  replacementState: ReplacementState;
}

export function forkSubagent(options: SubagentOptions): Agent {
  return new Agent(options.replacementState);
}

export function resumeSession(snapshot: ResumeSnapshot): Agent {
  return new Agent(new ReplacementState(snapshot.seenIds, snapshot.replacements));
}

export class Agent {
  readonly tools: readonly Tool<never>[] = [browserTool, readFileTool, new ShellTool()];

  constructor(private readonly state: ReplacementState = new ReplacementState()) {}

  delegate(task: string): Agent {
    return forkSubagent({ task, replacementState: this.state });
  }

  resumeFrom(snapshot: ResumeSnapshot): Agent {
    return resumeSession(snapshot);
  }
}
