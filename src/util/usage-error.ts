/** Why a migration could not start; the CLI maps every code to exit status 1. */
export type CodemodErrorCode =
  | 'UNKNOWN_TRANSFORM'
  | 'UNKNOWN_OPTION'
  | 'INVALID_OPTION'
  | 'NO_INPUT'
  | 'TSCONFIG_NOT_FOUND'
  | 'TSCONFIG_INVALID'
  | 'PATH_NOT_FOUND'
  | 'ESLINT_MISSING'
  | 'RULE_MISSING'
  | 'WORKER_FAILED';

/** A problem with how the migration was asked for (flags, paths, tsconfig), not with a file. */
export class CodemodUsageError extends Error {
  readonly code: CodemodErrorCode;

  constructor(code: CodemodErrorCode, message: string) {
    super(message);
    this.name = 'CodemodUsageError';
    this.code = code;
  }
}
