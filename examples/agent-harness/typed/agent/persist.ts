import {
  markSeen,
  persistForOwnedSession,
  recordReplacement,
  shouldPersistForSession,
  type ReplacementState,
  type ToolResultStore,
} from 'tool-result-guard';

// Correct: narrow the query source, mark the id seen, persist, then record.
export async function replaceLargeResult(
  store: ToolResultStore,
  state: ReplacementState,
  querySource: string,
  toolUseId: string,
  content: string,
) {
  if (!shouldPersistForSession(querySource)) return undefined;
  const seenId = markSeen(state, toolUseId);
  const persisted = await persistForOwnedSession(store, querySource, seenId, content);
  return recordReplacement(state, seenId, persisted);
}

// DEFECT (circular persistence), on purpose: a compact summarizer persisting into the
// session's storage root, which it does not own.
export async function persistCompactSummary(store: ToolResultStore, toolUseId: string, content: string) {
  return persistForOwnedSession(store, 'compact', toolUseId, content);
}

// DEFECT (flipping fates), on purpose: a replacement recorded for an id that was never marked seen.
export async function adoptSyncedReplacement(store: ToolResultStore, state: ReplacementState, toolUseId: string, content: string) {
  const persisted = await store.persist(toolUseId, content);
  return recordReplacement(state, toolUseId, persisted);
}
