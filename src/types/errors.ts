/** Codes of `ToolClassificationError`, one per mistake `defineTool` catches. */
export type ToolClassificationErrorCode =
  | 'ERR_TOOL_NOT_AN_OBJECT'
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
