/**
 * The one place a scope becomes a map key. Carrier instances and session
 * budgets are shared by the same rule (per agent and session, or per agent), so
 * they are keyed the same way; two hand-joined copies could drift and let one
 * session see another's state.
 */
import type { DeclaredStateScope } from '../../types/classify-tool.js';

/** Who asks: the agent and session an invocation belongs to (`InvocationStateKey` has both). */
export interface SharingParty {
  readonly agentId: string;
  readonly sessionId: string;
}

/** `null` for `isolated`: nothing is shared, every invocation gets its own. */
export function scopeSharingKey(scope: DeclaredStateScope, key: SharingParty): string | null {
  switch (scope) {
    case 'isolated':
      return null;
    case 'session':
      return `session:${key.agentId}\u0000${key.sessionId}`;
    case 'agent':
      return `agent:${key.agentId}`;
  }
}
