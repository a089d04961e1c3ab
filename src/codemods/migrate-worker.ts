// A worker thread of `migrate({ concurrency })`: the same `migrateText` as the
// main thread, with its own ESLint and ts-morph, one file per message. Files
// are read and written by the main thread only, so writes stay in one place.
// The messages are worker-protocol.ts's.
import { parentPort, workerData } from 'node:worker_threads';

import { createEditingProject, migrateText } from './migrate-file.js';
import { createRuleFindingsCollector } from './rule-findings.js';
import { selectTransforms } from './transforms/index.js';
import { serializeError, type WorkerRequest, type WorkerResponse, type WorkerSetup } from './worker-protocol.js';

const setup = workerData as WorkerSetup;
let ready: { transforms: ReturnType<typeof selectTransforms>; collector: Awaited<ReturnType<typeof createRuleFindingsCollector>> };
try {
  ready = { transforms: selectTransforms(setup.transformNames), collector: await createRuleFindingsCollector(setup.settings) };
  parentPort!.postMessage({ type: 'ready' } satisfies WorkerResponse);
} catch (error) {
  parentPort!.postMessage({ type: 'setup-error', error: serializeError(error) } satisfies WorkerResponse);
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
    response = { type: 'result', id: request.id, result };
  } catch (error) {
    response = { type: 'error', id: request.id, error: serializeError(error) };
  }
  parentPort!.postMessage(response);
});
