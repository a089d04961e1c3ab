// What the main thread of `migrate({ concurrency })` and its worker threads
// (migrate-worker.ts) say to each other. Both sides import this module and
// nothing of each other, so neither loads the other's code.
import { CodemodUsageError, type CodemodErrorCode } from '../util/usage-error.js';
import type { TextMigrationResult } from './migrate-file.js';

/** The worker's `workerData`: what it needs to build its own rules and transforms. */
export interface WorkerSetup {
  transformNames: string[];
  settings: Readonly<Record<string, unknown>> | undefined;
  defaultMaxChars: number;
}

/** Main thread → worker: migrate one text (files are read and written by the main thread only). */
export interface WorkerRequest {
  type: 'migrate';
  id: number;
  filePath: string;
  text: string;
}

/** An error as it crosses the thread boundary: a usage error keeps its code. */
export interface SerializedError {
  message: string;
  stack: string | undefined;
  usageCode: CodemodErrorCode | undefined;
}

/** Worker → main thread. */
export type WorkerResponse =
  | { type: 'ready' }
  | { type: 'setup-error'; error: SerializedError }
  | { type: 'result'; id: number; result: TextMigrationResult }
  | { type: 'error'; id: number; error: SerializedError };

export function serializeError(error: unknown): SerializedError {
  return {
    message: error instanceof Error ? error.message : String(error),
    stack: error instanceof Error ? error.stack : undefined,
    usageCode: error instanceof CodemodUsageError ? error.code : undefined,
  };
}

/** The error again on the main thread: a `CodemodUsageError` when it was one, else an `Error` with the worker's stack. */
export function reviveError(error: SerializedError): Error {
  if (error.usageCode) return new CodemodUsageError(error.usageCode, error.message);
  const revived = new Error(error.message);
  if (error.stack) revived.stack = error.stack;
  return revived;
}
