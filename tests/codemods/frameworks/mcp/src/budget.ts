// The budget step of the harness, on tool-result-guard's runtime: the seen mark comes only after the
// awaited persist, so a concurrent turn could judge the same id again.
import { markSeen, recordReplacement, type ReplacementState, type ToolResultStore } from 'tool-result-guard';

export async function replaceLarge(state: ReplacementState, store: ToolResultStore, id: string, content: string): Promise<string> {
  const persisted = await store.persist(id, content);
  const seen = markSeen(state, id);
  recordReplacement(state, seen, persisted);
  return persisted.preview;
}
