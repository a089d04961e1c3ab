import { PERSISTENCE_NEEDS_OWNED_SESSION } from './messages.js';

/** Codes of `ToolClassificationError`, one per mistake `defineTool` catches. */
export type ToolClassificationErrorCode =
  | 'ERR_TOOL_NOT_AN_OBJECT'
  | 'ERR_TOOL_WITHOUT_NAME'
  | 'ERR_TOOL_NOT_CLASSIFIED'
  | 'ERR_SELF_READING_TOOL_NOT_UNBOUNDED'
  | 'ERR_EXTERNALLY_BOUNDED_TOOL_UNBOUNDED'
  | 'ERR_INVALID_RESULT_LIMIT';

/**
 * Thrown by `defineTool` (codes in the runtime's `ERR_*` style) when a tool's classification and limit disagree.
 * A `TypeError`, because it is the run-time twin of a compile error: the
 * message is the same instruction the compiler prints.
 */
export class ToolClassificationError extends TypeError {
  override readonly name = 'ToolClassificationError';
  readonly code: ToolClassificationErrorCode;

  constructor(code: ToolClassificationErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

/**
 * Thrown by `requireOwnedSession` and `persistForOwnedSession` for a query
 * source that does not own a storage root (the run-time twin of the compile
 * error on `OwnedQuerySourceArgument`).
 */
export class SessionNotOwnedError extends TypeError {
  override readonly name = 'SessionNotOwnedError';
  readonly code = 'ERR_SESSION_NOT_OWNED' as const;
  readonly querySource: unknown;

  constructor(querySource: unknown) {
    super(`Query source ${describeQuerySource(querySource)}: ${PERSISTENCE_NEEDS_OWNED_SESSION}`);
    this.querySource = querySource;
  }
}

function describeQuerySource(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : `(${value === null ? 'null' : typeof value})`;
}
