import {
  adoptReplacementState,
  cloneReplacementState,
  type ForkOptions,
  type ReplacementState,
} from 'tool-result-guard';

export interface AgentSession {
  readonly id: string;
  readonly state: ReplacementState;
}

// The child adopts the snapshot it received as its own live state, which it
// cannot hand to a fork of its own without cloning it in turn.
export function forkSubagent(prompt: string, options: ForkOptions): AgentSession {
  const id = `fork:${prompt.length}`;
  return { id, state: adoptReplacementState(options.replacementState, `agent:${id}`) };
}

// Correct: the child starts from a clone of the parent's decisions.
export function spawnSummaryAgent(parent: AgentSession): AgentSession {
  return forkSubagent('summarize', { replacementState: cloneReplacementState(parent.state) });
}

// DEFECT (flipping fates), on purpose: the child gets the parent's live state.
export function spawnResearchAgent(parent: AgentSession, task: string): AgentSession {
  return forkSubagent(task, { replacementState: parent.state });
}
