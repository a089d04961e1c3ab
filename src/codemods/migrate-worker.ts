// A worker thread of `migrate({ concurrency })`: the same `migrateText` as the
// main thread, with its own ESLint and ts-morph, one file per message. Files
// are read and written by the main thread only, so writes stay in one place.
import { parentPort, workerData } from 'node:worker_threads';

import { CodemodUsageError } from './errors.js';
import { createEditingProject, migrateText, type TextMigrationResult } from './migrate-file.js';
import { createRuleFindingsCollector } from './rule-findings.js';
import { selectTransforms } from './runner.js';

export interface WorkerSetup {
  transformNames: string[];
  settings: Readonly<Record<string, unknown>> | undefined;
  defaultMaxChars: number;
}

export interface WorkerRequest {
  id: number;
  filePath: string;
  text: string;
}

interface SerializedError {
  message: string;
  stack: string | undefined;
  usageCode: string | undefined;
}

export type WorkerResponse =
  | { ready: true }
  | { setupError: SerializedError }
  | { id: number; result: TextMigrationResult }
  | { id: number; error: SerializedError };

function serialize(error: unknown): SerializedError {
  return {
    message: error instanceof Error ? error.message : String(error),
    stack: error instanceof Error ? error.stack : undefined,
    usageCode: error instanceof CodemodUsageError ? error.code : undefined,
  };
}

const setup = workerData as WorkerSetup;
let ready: { transforms: ReturnType<typeof selectTransforms>; collector: Awaited<ReturnType<typeof createRuleFindingsCollector>> };
try {
  ready = { transforms: selectTransforms(setup.transformNames), collector: await createRuleFindingsCollector(setup.settings) };
  parentPort!.postMessage({ ready: true } satisfies WorkerResponse);
} catch (error) {
  parentPort!.postMessage({ setupError: serialize(error) } satisfies WorkerResponse);
  throw error;
}
const { transforms, collector } = ready;
const project = createEditingProject();

parentPort!.on('message', (request: WorkerRequest) => {
  let response: WorkerResponse;
  try {
    const result = migrateText(request.text, request.filePath, transforms, collector, project, {
      defaultMaxChars: setup.defaultMaxChars,
    });
    response = { id: request.id, result };
  } catch (error) {
    response = { id: request.id, error: serialize(error) };
  }
  parentPort!.postMessage(response);
});
