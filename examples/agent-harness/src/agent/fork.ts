import type { ContentReplacementState, ReplacementRecord } from '../persistence/state.js';
import { reconstructContentReplacementState } from '../persistence/state.js';
import type { QuerySource } from './query-source.js';

export interface AgentSession {
  id: string;
  querySource: QuerySource;
  state: ContentReplacementState;
  transcript: TranscriptEntry[];
}

export type TranscriptEntry =
  | { type: 'tool_result'; toolUseId: string; content: string }
  | { type: 'text'; role: 'user' | 'assistant'; text: string }
  | { type: 'replacement'; record: ReplacementRecord };

export interface ForkOptions {
  parentSessionId: string;
  querySource: QuerySource;
  prompt: string;
  contentReplacementState: ContentReplacementState;
}

export function forkSubagent(options: ForkOptions): AgentSession {
  return {
    id: `${options.parentSessionId}/fork-${Date.now().toString(36)}`,
    querySource: options.querySource,
    state: options.contentReplacementState,
    transcript: [{ type: 'text', role: 'user', text: options.prompt }],
  };
}

/** Starts a cache-sharing subagent that sees the parent's conversation. */
export function spawnResearchAgent(parent: AgentSession, task: string): AgentSession {
  // DEFECT (flipping fates): the child gets the parent's live state object. Whatever
  // the child decides lands in the parent too, and the two threads' budget
  // passes race on one Set and one Map.
  return forkSubagent({
    parentSessionId: parent.id,
    querySource: `agent:research`,
    prompt: task,
    contentReplacementState: parent.state,
  });
}

/** Resumes a session from its saved transcript (done right: reconstruct). */
export function resumeSession(id: string, querySource: QuerySource, transcript: TranscriptEntry[]): AgentSession {
  const toolUseIds: string[] = [];
  const records: ReplacementRecord[] = [];
  for (const entry of transcript) {
    if (entry.type === 'tool_result') toolUseIds.push(entry.toolUseId);
    else if (entry.type === 'replacement') records.push(entry.record);
  }
  return {
    id,
    querySource,
    state: reconstructContentReplacementState(toolUseIds, records),
    transcript,
  };
}
