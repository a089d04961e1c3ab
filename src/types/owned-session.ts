/**
 * Persistence only for sessions that own a storage root (circular persistence, decision
 * 3). `OwnedQuerySource` is the type; `shouldPersistForSession` narrows a
 * `string` to it; the helpers here demand it, so an ephemeral agent's
 * `'compact'` or an unchecked `string` is a compile error that says to
 * narrow first, and the same mistake from JavaScript throws.
 */
import { shouldPersistForSession } from '../runtime/session-scope.js';
import type { PersistedToolResult, ToolResultPersister } from '../runtime/store.js';
import type { OwnedQuerySource } from './brands.js';
import { SessionNotOwnedError } from './errors.js';
import { PERSISTENCE_NEEDS_OWNED_SESSION } from './messages.js';

/**
 * The parameter type of a function that demands an owned query source:
 * `Source` itself when it is provably owned (a `repl_main_thread…` or
 * `agent:…` literal, or a value narrowed by `shouldPersistForSession`),
 * else the instruction, so the compiler's "not assignable to" says what to
 * do. Use it in your own persistence helpers:
 *
 * ```ts
 * function persistFor<const Source extends string>(querySource: OwnedQuerySourceArgument<Source>) { … }
 * ```
 *
 * (A plain `querySource: OwnedQuerySource` parameter rejects the same
 * calls; its error names the type instead of the fix.)
 */
export type OwnedQuerySourceArgument<Source extends string> = [Source] extends [OwnedQuerySource]
  ? Source
  : typeof PERSISTENCE_NEEDS_OWNED_SESSION;

/**
 * Returns `querySource` typed as owned, or throws `SessionNotOwnedError`.
 * For the boundary where an untyped value (a CLI flag, a JavaScript caller)
 * enters code that persists.
 */
export function requireOwnedSession<const Source extends string>(querySource: OwnedQuerySourceArgument<Source>): Source & OwnedQuerySource {
  if (!shouldPersistForSession(querySource)) {
    throw new SessionNotOwnedError(querySource);
  }
  return querySource as Source & OwnedQuerySource;
}

/**
 * `store.persist(toolUseId, content)` for a session that owns the store's
 * root; rejects with `SessionNotOwnedError`, writing nothing, otherwise.
 * This is the deny-list bug's fix at the call site: `querySource !==
 * 'compact'` lets every new ephemeral agent through, this lets none.
 */
export async function persistForOwnedSession<const Source extends string>(
  store: ToolResultPersister,
  querySource: OwnedQuerySourceArgument<Source>,
  toolUseId: string,
  content: string,
): Promise<PersistedToolResult> {
  if (!shouldPersistForSession(querySource)) {
    throw new SessionNotOwnedError(querySource);
  }
  return store.persist(toolUseId, content);
}
