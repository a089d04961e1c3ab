// What the budget has decided so far in this session: which tool results were
// judged (seen) and which of them were replaced by a preview.
export interface ContentReplacementState {
  seenIds: Set<string>;
  replacements: Map<string, string>;
}

export interface ReplacementRecord {
  kind: 'tool-result';
  toolUseId: string;
  replacement: string;
}

export function createContentReplacementState(): ContentReplacementState {
  return { seenIds: new Set(), replacements: new Map() };
}

export function cloneContentReplacementState(state: ContentReplacementState): ContentReplacementState {
  return { seenIds: new Set(state.seenIds), replacements: new Map(state.replacements) };
}

/** Rebuilds the state from a transcript: every id in it was judged already. */
export function reconstructContentReplacementState(
  toolUseIds: readonly string[],
  records: readonly ReplacementRecord[],
): ContentReplacementState {
  const state = createContentReplacementState();
  const inTranscript = new Set(toolUseIds);
  for (const id of toolUseIds) state.seenIds.add(id);
  for (const record of records) {
    if (inTranscript.has(record.toolUseId) && !state.replacements.has(record.toolUseId)) {
      state.replacements.set(record.toolUseId, record.replacement);
    }
  }
  return state;
}
