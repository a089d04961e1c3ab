/**
 * The runtime's errors. Each has a stable `code` to branch on and a message
 * that says what to do. Input that is simply the wrong type (a threshold that
 * is not a number, a tool nobody classified) is a `TypeError` subclass, so
 * `instanceof TypeError` keeps working for callers who check that.
 */

import { FORK_NEEDS_CLONED_STATE, REPLACEMENT_NEEDS_PERSISTED_RESULT, REPLACEMENT_NEEDS_SEEN_ID } from '../types/messages.js';

export type ToolResultGuardErrorCode =
  | 'ERR_INVALID_TOOL_USE_ID'
  | 'ERR_INVALID_SESSION_ID'
  | 'ERR_PERSIST_FAILED'
  | 'ERR_PERSISTED_RESULT_NOT_FOUND'
  | 'ERR_STORE_SYMLINK'
  | 'ERR_STATE_OWNERSHIP'
  | 'ERR_NOT_A_REPLACEMENT_STATE'
  | 'ERR_READ_ONLY_STATE'
  | 'ERR_REPLACEMENT_WITHOUT_SEEN_MARK'
  | 'ERR_FATE_FROZEN'
  | 'ERR_RECORD_CALLBACK_FAILED'
  | 'ERR_INVALID_THRESHOLD'
  | 'ERR_UNCLASSIFIED_TOOL';

/** Base class of every error the runtime raises on purpose. */
export class ToolResultGuardError extends Error {
  readonly code: ToolResultGuardErrorCode;

  constructor(code: ToolResultGuardErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

export type IdKind = 'tool-use id' | 'session id';

/**
 * An id that would name a file outside the store's folder, or no file at all.
 * Raised by the store before any file-system call, so the caller never sees
 * whatever error fs happened to produce for a hostile name.
 */
export class InvalidIdError extends ToolResultGuardError {
  readonly idKind: IdKind;
  readonly id: unknown;
  readonly reason: string;

  constructor(idKind: IdKind, id: unknown, reason: string) {
    super(
      idKind === 'session id' ? 'ERR_INVALID_SESSION_ID' : 'ERR_INVALID_TOOL_USE_ID',
      `Invalid ${idKind} ${describeValue(id)}: ${reason}. Use the id the model API issued (e.g. "toolu_01A…" or "call_abc…"); ` +
        `ids become file names, so they must be non-empty, well-formed UTF-16, contain no "/", "\\", NUL, ` +
        `control characters (C0, DEL, C1) or bidirectional controls, and not be "." or "..".`,
    );
    this.idKind = idKind;
    this.id = id;
    this.reason = reason;
  }
}

/** Writing a tool result failed; nothing partial is left under the final name. */
export class PersistError extends ToolResultGuardError {
  readonly toolUseId: string;
  readonly path: string;
  /** The fs error code (`ENOSPC`, `EACCES`, …) when there was one. */
  readonly systemCode: string | undefined;

  constructor(toolUseId: string, path: string, cause: unknown) {
    const systemCode = systemErrorCode(cause);
    super(
      'ERR_PERSIST_FAILED',
      `Could not persist tool result ${JSON.stringify(toolUseId)} to ${path}: ` +
        `${persistAdvice(systemCode, cause)} No partial file was left behind; the result can stay inline.`,
      { cause },
    );
    this.toolUseId = toolUseId;
    this.path = path;
    this.systemCode = systemCode;
  }
}

export class PersistedResultNotFoundError extends ToolResultGuardError {
  readonly toolUseId: string;
  readonly path: string;

  constructor(toolUseId: string, path: string, cause?: unknown) {
    super(
      'ERR_PERSISTED_RESULT_NOT_FOUND',
      `No persisted result for tool-use id ${JSON.stringify(toolUseId)} at ${path}. Check the store's root and sessionId: ` +
        `they must match the session that persisted it.`,
      { cause },
    );
    this.toolUseId = toolUseId;
    this.path = path;
  }
}

/**
 * A symbolic link where the store keeps its own folders or files. Following
 * it would let whoever planted it choose the file reported as a persisted
 * result, or the folder that gets chmod-ed, so the store refuses instead.
 */
export class StoreSymlinkError extends ToolResultGuardError {
  readonly path: string;

  constructor(path: string, what: 'session folder' | 'tool-results folder' | 'result file') {
    super(
      'ERR_STORE_SYMLINK',
      `The ${what} ${path} is a symbolic link. ` +
        `The tool-result store never follows links inside its folder (whoever planted it would choose the file reported as a ` +
        `result or the folder that gets chmod-ed). Remove the link; ` +
        `the store creates a real ${what === 'result file' ? 'file' : 'folder'} there.`,
    );
    this.path = path;
  }
}

/** A replacement state handed from one agent to another without a copy (frozen fates). */
export class StateOwnershipError extends ToolResultGuardError {
  readonly ownerAgentId: string;
  readonly agentId: string;

  constructor(ownerAgentId: string, agentId: string) {
    super(
      'ERR_STATE_OWNERSHIP',
      `This replacement state belongs to agent ${JSON.stringify(ownerAgentId)} but was used by agent ` +
        `${JSON.stringify(agentId)}. ${FORK_NEEDS_CLONED_STATE}. Give the other agent its own copy, ` +
        `cloneReplacementState(state) (reconstructReplacementState(toolUseIds, records, inherited) on resume), ` +
        `and have it adopt that copy: adoptReplacementState(snapshot, agentId).`,
    );
    this.ownerAgentId = ownerAgentId;
    this.agentId = agentId;
  }
}

export class NotAReplacementStateError extends ToolResultGuardError {
  constructor(what: string) {
    super(
      'ERR_NOT_A_REPLACEMENT_STATE',
      `${what} is not a replacement state made by this library. Create one with createReplacementState(), ` +
        `cloneReplacementState(state) or reconstructReplacementState(toolUseIds, records).`,
    );
  }
}

export class ReadOnlyStateError extends ToolResultGuardError {
  constructor(view: 'seenIds' | 'replacements', method: string) {
    super(
      'ERR_READ_ONLY_STATE',
      `state.${view} is read-only (${method} was called). Change a replacement state only through markSeen(state, id), ` +
        `recordReplacement(state, seenId, persisted) or applyToolResultBudget(...), so the seen mark and the replacement stay in step.`,
    );
  }
}

export class ReplacementWithoutSeenMarkError extends ToolResultGuardError {
  readonly toolUseId: string;

  constructor(toolUseId: string) {
    super(
      'ERR_REPLACEMENT_WITHOUT_SEEN_MARK',
      `Cannot record a replacement for ${JSON.stringify(toolUseId)}: it was never marked seen. ` +
        `${REPLACEMENT_NEEDS_SEEN_ID} (a replacement without its seen mark is judged again on the next turn).`,
    );
    this.toolUseId = toolUseId;
  }
}

export class FateFrozenError extends ToolResultGuardError {
  readonly toolUseId: string;

  constructor(toolUseId: string, detail: string) {
    super(
      'ERR_FATE_FROZEN',
      `The fate of tool result ${JSON.stringify(toolUseId)} is already frozen: ${detail}. ` +
        `Reuse the replacement already in state.replacements; changing it would change a prompt the model has already seen.`,
    );
    this.toolUseId = toolUseId;
  }
}

export class RecordCallbackError extends ToolResultGuardError {
  readonly toolUseId: string;

  constructor(toolUseId: string, cause: unknown) {
    super(
      'ERR_RECORD_CALLBACK_FAILED',
      `options.onRecord threw for tool result ${JSON.stringify(toolUseId)}: ${errorMessage(cause)}. ` +
        `The result was frozen inline because its replacement could not be recorded for resume; fix the callback (it must not throw).`,
      { cause },
    );
    this.toolUseId = toolUseId;
  }
}

/**
 * `recordReplacement` given something that is not a persisted result: a
 * string (a preview or a `<persisted-output>` built by hand), or an object
 * whose `path`, `size` and `preview` cannot describe a written file. The
 * run-time twin of the compile error on `PersistedResultArgument`, with the
 * same sentence.
 */
export class InvalidPersistedResultError extends TypeError {
  readonly code = 'ERR_INVALID_PERSISTED_RESULT' as const;

  constructor(problem: string) {
    super(`recordReplacement(state, seenId, persisted): persisted ${problem}. ${REPLACEMENT_NEEDS_PERSISTED_RESULT}.`);
    this.name = 'InvalidPersistedResultError';
  }
}

/** A declared `maxResultSizeChars` that is neither `UNBOUNDED` nor a finite number > 0. */
export class InvalidThresholdError extends TypeError {
  readonly code = 'ERR_INVALID_THRESHOLD' as const;
  readonly toolName: string;

  constructor(toolName: string, declared: unknown) {
    super(
      `Tool ${JSON.stringify(toolName)} declares maxResultSizeChars ${describeValue(declared)}: ` +
        `it must be UNBOUNDED (Infinity, for tools that read a path, URL or resource the model names) or a finite number > 0. ` +
        `A NaN from a bad config must never pass as the sentinel.`,
    );
    this.name = 'InvalidThresholdError';
    this.toolName = toolName;
  }
}

/** A tool result whose tool is missing from `options.tools`. */
export class UnclassifiedToolError extends TypeError {
  readonly code = 'ERR_UNCLASSIFIED_TOOL' as const;
  readonly toolName: string;

  constructor(toolName: unknown, toolUseId: unknown) {
    super(
      `Tool ${describeValue(toolName)} (tool result ${describeValue(toolUseId)}) is not in options.tools. ` +
        `Every tool must be classified: add { name, maxResultSizeChars } for it, UNBOUNDED if it reads a path, ` +
        `URL or resource the model names, a finite number otherwise.`,
    );
    this.name = 'UnclassifiedToolError';
    this.toolName = String(toolName);
  }
}

/**
 * A tool of the tool set given to an integration (`toolResultBudget`,
 * `toolResultBudgetFilter`, `guardMcpToolResults`) that nobody classified.
 * Raised when the integration is created, never in the middle of an agent loop.
 */
export class UnclassifiedToolInSetError extends TypeError {
  readonly code = 'ERR_UNCLASSIFIED_TOOL' as const;
  readonly toolName: string;

  constructor(toolName: string, integration: string) {
    super(
      `Tool ${JSON.stringify(toolName)} of the tool set given to ${integration} is not classified. ` +
        `Wrap it where it is defined: classifyTool(tool, { reads: 'path', maxResultSizeChars: UNBOUNDED }) if it reads a path, URL ` +
        `or resource the model names (its results must never be persisted), classifyTool(tool, { reads: 'none', maxResultSizeChars: 50_000 }) ` +
        `otherwise; or list it in tools as { name, maxResultSizeChars }.`,
    );
    this.name = 'UnclassifiedToolInSetError';
    this.toolName = toolName;
  }
}

export function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
  if (typeof value === 'number') return Number.isNaN(value) ? 'NaN' : String(value);
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  return `(${typeof value})`;
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function systemErrorCode(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') {
    return error.code;
  }
  return undefined;
}

function persistAdvice(systemCode: string | undefined, cause: unknown): string {
  switch (systemCode) {
    case 'ENOSPC':
    case 'EDQUOT':
      return 'the disk (or quota) is full; free space under the store root or point the store at another root.';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied; the store root must be writable by this process (folders are created 0700).';
    case 'EROFS':
      return 'the file system is read-only; point the store at a writable root.';
    case 'EMFILE':
    case 'ENFILE':
    case 'EAGAIN':
      return (
        'too many open files, still after every retry with backoff; ' +
        "lower the store's maxConcurrentWrites or raise the open-file limit (ulimit -n)."
      );
    default:
      return `${errorMessage(cause)}.`;
  }
}
