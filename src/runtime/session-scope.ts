import type { OwnedQuerySource } from '../types/brands.js';

/** Query-source prefixes of sessions that own a stable storage root (circular persistence). */
export const OWNED_QUERY_SOURCE_PREFIXES = ['repl_main_thread', 'agent:'] as const;

/**
 * Whether a query source may persist tool results. An allowlist by prefix:
 * the main thread (`repl_main_thread`, `repl_main_thread:outputStyle:x`) and
 * named agents (`agent:…`) own the session's storage root; ephemeral forks
 * (`compact`, `session_memory`, `agent_summary`, and whatever is added next)
 * share the session id for tracing only, and what they wrote would be
 * orphaned or read back as stale results on resume. Case-sensitive, no
 * trimming: `' agent:x'` is not an agent.
 */
export function shouldPersistForSession(querySource: string): querySource is OwnedQuerySource {
  if (typeof querySource !== 'string') return false;
  return OWNED_QUERY_SOURCE_PREFIXES.some((prefix) => querySource.startsWith(prefix));
}
