/** Codes of `ToolClassificationError`, one per mistake `defineTool` catches. */
export type ToolClassificationErrorCode =
  | 'TOOL_NOT_AN_OBJECT'
  | 'TOOL_NOT_CLASSIFIED'
  | 'SELF_READING_TOOL_NOT_UNBOUNDED'
  | 'EXTERNALLY_BOUNDED_TOOL_UNBOUNDED'
  | 'INVALID_RESULT_LIMIT';

/**
 * Thrown by `defineTool` when a tool's classification and limit disagree.
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
