// Problem 1, circular persistence: a tool that reads what the model names,
// whose saved result the model reads back with the same tool.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import {
  UNBOUNDED,
  ToolResultStore,
  applyToolResultBudget,
  createReplacementState,
  getEffectivePersistenceThreshold,
  shouldPersistForSession,
} from '../../dist/index.js';
import { REPOSITORY_ROOT } from '../corpus.mjs';
import { PROBLEM_OF_RULE, editsFor } from './checks.mjs';
import { detail, firstSentence, point, problemHeading, wayHeading } from './print.mjs';

export const name = 'circular persistence';

export const plainWords =
  'A tool that reads whatever file or URL the model names (read_file, web_fetch) returns a large result. ' +
  "The harness saves it to disk and shows the model a short preview with the saved file's path. " +
  'The model reads that path with the same tool; the result is saved again, and again. ' +
  'Such tools must never have their results saved: they declare maxResultSizeChars = Infinity, the harness ' +
  'tests that before any remote override, and only sessions that own a storage folder save anything.';

/** Prints the lint findings, compile errors and codemod edits of one problem; returns their counts. */
export function printChecks(problem, { lint, types, migration }) {
  const findings = lint.findings.filter((finding) => PROBLEM_OF_RULE[finding.rule] === problem);
  wayHeading('Lint', lint.command);
  for (const finding of findings) {
    point(`${finding.file}:${finding.line}  ${firstSentence(finding.message)}  [${finding.rule}]`);
    detail(finding.message);
  }
  if (findings.length === 0) point('nothing to report');

  const caught = types.caught.filter((error) => error.problem === problem);
  wayHeading('Types', caught.length > 0 ? types.command : undefined);
  for (const error of caught) {
    point(`typed/${error.file}:${error.line}  ${error.what}: ${error.code} "${error.says}…"`);
    detail(`> ${error.source}\n${error.text}`);
  }
  if (caught.length === 0) point('no compile-time check for this problem: the runtime below enforces the declaration');

  const edits = editsFor(migration, problem);
  wayHeading('Codemod', `${migration.command}`);
  const diffsShown = new Set();
  for (const edit of edits) {
    point(`${edit.file}: ${edit.transform}, ${edit.count} edit${edit.count === 1 ? '' : 's'}`);
    if (!diffsShown.has(edit.file)) detail(edit.diff.trimEnd());
    diffsShown.add(edit.file);
  }
  if (edits.length === 0) point('nothing to change');
  if (edits.length > 0 && !process.argv.includes('--verbose')) point('(--verbose prints the diffs)');
  return { lint: findings.length, types: caught.length, codemod: edits.reduce((sum, edit) => sum + edit.count, 0) };
}

export async function run(checks) {
  problemHeading(1, 'circular persistence', plainWords);
  const counts = printChecks('circular', checks);

  wayHeading('Runtime', 'tool-result-guard, in the agent loop');
  const root = mkdtempSync(path.join(tmpdir(), 'trg-demo-circular-'));
  try {
    const tools = [
      { name: 'bash', maxResultSizeChars: 30_000 },
      { name: 'read_file', maxResultSizeChars: UNBOUNDED },
    ];
    const threshold = getEffectivePersistenceThreshold(tools[1], { read_file: 5_000 });
    point(`A remote override asks for read_file=5000; the threshold stays ${threshold}: the sentinel is tested before any override.`);

    const bigFile = path.join(REPOSITORY_ROOT, 'node_modules', 'typescript', 'lib', 'lib.es5.d.ts');
    const results = [
      { toolUseId: 'toolu_bash', toolName: 'bash', content: readdirSync(path.join(REPOSITORY_ROOT, 'node_modules')).join('\n').repeat(40) },
      { toolUseId: 'toolu_read', toolName: 'read_file', content: readFileSync(bigFile, 'utf8') },
    ];
    const store = new ToolResultStore({ root, sessionId: 'demo' });
    const options = { store, tools, perMessageLimit: 100_000, querySource: 'repl_main_thread', agentId: 'main' };
    const { results: shown } = await applyToolResultBudget(results, createReplacementState(), options);
    point(
      `One message with a ${results[0].content.length}-character shell listing and a ${results[1].content.length}-character file read, ` +
        'over the 100,000-character limit:',
    );
    point(`  bash: ${shown[0].content === results[0].content ? 'inline' : 'saved to disk, the model sees a preview'}`);
    point(
      `  read_file: ${shown[1].content === results[1].content ? 'inline: it is never saved, so the model never reads its own output back' : 'SAVED (wrong)'}`,
    );
    const savedPath = store.pathFor('toolu_bash');
    point(`store.isPersistedPath(<the saved shell output>) = ${store.isPersistedPath(savedPath)}: a read tool can refuse to read it back.`);
    detail(shown[0].content.split('\n').slice(0, 6).join('\n'));

    const compactState = createReplacementState();
    const before = readdirSync(store.directory).length;
    await applyToolResultBudget([{ toolUseId: 'toolu_compact', toolName: 'bash', content: 'x'.repeat(200_000) }], compactState, {
      ...options,
      querySource: 'compact',
      agentId: 'compact',
    });
    const after = readdirSync(store.directory).length;
    point(
      `The ephemeral 'compact' agent (shouldPersistForSession('compact') = ${shouldPersistForSession('compact')}) ` +
        `gets a 200,000-character result: files in the session folder before/after: ${before}/${after}.`,
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return { ...counts, runtime: 'read_file stays inline, override ignored, compact saves nothing' };
}
