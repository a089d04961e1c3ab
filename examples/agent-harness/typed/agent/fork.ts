import {
  cloneReplacementState,
  type ForkOptions,
  type ReplacementState,
} from 'tool-result-guard';

export interface AgentSession {
  readonly id: string;
  readonly state: ReplacementState;
}

export function forkSubagent(prompt: string, options: ForkOptions): AgentSession {
  return { id: `fork:${prompt.length}`, state: options.replacementState };
}

// Correct: the child starts from a clone of the parent's decisions.
export function spawnSummaryAgent(parent: AgentSession): AgentSession {
  return forkSubagent('summarize', { replacementState: cloneReplacementState(parent.state) });
}

// DEFECT (seed 002), on purpose: the child gets the parent's live state.
export function spawnResearchAgent(parent: AgentSession, task: string): AgentSession {
  return forkSubagent(task, { replacementState: parent.state });
}
