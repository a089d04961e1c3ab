// The harness's own replacement state, handed to a subagent.
export interface ReplacementState {
  seenIds: Set<string>;
  replacements: Map<string, string>;
}

export async function forkSubagent(task: string, replacementState: ReplacementState): Promise<string> {
  return `${task}: ${replacementState.seenIds.size} results already judged`;
}

export async function delegate(task: string, replacementState: ReplacementState): Promise<string> {
  return forkSubagent(task, replacementState);
}
