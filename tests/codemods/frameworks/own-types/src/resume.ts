// Resuming a saved session: the snapshot is plain data (Sets and Maps), which structuredClone copies.
import { type Agent, resumeSession } from './agent.js';
import type { ResumeSnapshot } from './state.js';

export function resumeFromSaved(saved: ResumeSnapshot): Agent | undefined {
  if (saved.seenIds.size === 0) return undefined;
  return resumeSession(saved);
}
