// Problem 2, flipping fates: a result that is inline on one turn and a
// preview on the next, or differs between a parent and its fork.
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import {
  ToolResultStore,
  applyToolResultBudget,
  adoptReplacementState,
  cloneReplacementState,
  createReplacementState,
  reconstructReplacementState,
} from '../../dist/index.js';
import { printChecks } from './10-circular-persistence.mjs';
import { detail, point, problemHeading, wayHeading } from './print.mjs';

export const name = 'flipping fates';

export const plainWords =
  "Once the harness has decided a result's fate (left inline, or replaced by a preview of the saved file), that " +
  'decision must hold for the rest of the session: on retries, in forked subagents, after a resume. Otherwise ' +
  'the prompt changes from turn to turn, the prompt cache breaks, and a parent and its fork see different things. ' +
  'The harness marks an id as decided before it starts saving, stores the preview only after the save succeeded, ' +
  'and gives each fork a copy of its decisions, never the live ones.';

const sha = (text) => createHash('sha256').update(text).digest('hex').slice(0, 16);

export async function run(checks) {
  problemHeading(2, 'flipping fates', plainWords);
  const counts = printChecks('fates', checks);

  wayHeading('Runtime', 'tool-result-guard, across a retry, a fork and a resume');
  const root = mkdtempSync(path.join(tmpdir(), 'trg-demo-fates-'));
  try {
    const tools = [{ name: 'bash', maxResultSizeChars: 30_000 }];
    const turn = [
      { toolUseId: 'toolu_a', toolName: 'bash', content: 'build log line\n'.repeat(8_000) },
      { toolUseId: 'toolu_b', toolName: 'bash', content: 'test output line\n'.repeat(3_000) },
      { toolUseId: 'toolu_c', toolName: 'bash', content: 'ok\n' },
    ];
    const records = [];
    const store = new ToolResultStore({ root, sessionId: 'demo' });
    const options = {
      store,
      tools,
      perMessageLimit: 100_000,
      querySource: 'repl_main_thread',
      agentId: 'main',
      onRecord: (record) => records.push(record),
    };
    const state = createReplacementState();
    const first = await applyToolResultBudget(turn, state, options);
    const fates = first.results.map((result, index) => (result.content === turn[index].content ? 'inline' : 'preview'));
    point(`Turn 1 decides: ${turn.map((result, index) => `${result.toolUseId} ${fates[index]}`).join(', ')}.`);

    const retry = await applyToolResultBudget(turn, state, { ...options, perMessageLimit: 10_000 });
    const same = (a, b) => a.results.every((result, index) => result.content === b.results[index].content);
    point(
      `A retry with a tighter limit (10,000) changes nothing: prompt byte-identical = ${same(retry, first)}, new saves = ${retry.newlyReplaced.length}.`,
    );

    // The fork gets a snapshot and adopts it as its own live state.
    const child = adoptReplacementState(cloneReplacementState(state), 'researcher');
    const childView = await applyToolResultBudget(turn, child, {
      ...options,
      querySource: 'agent:researcher',
      agentId: 'researcher',
      onRecord: () => {},
    });
    point(`A fork given cloneReplacementState(state) sees exactly what the parent sees: ${same(childView, first)}.`);
    try {
      await applyToolResultBudget([], state, { ...options, agentId: 'researcher' });
      point('Handing the live state to the fork was accepted (wrong).');
    } catch (error) {
      point(`Handing the parent's live state to the fork instead is refused: ${error.code}.`);
      detail(error.message);
    }

    const resumed = adoptReplacementState(
      reconstructReplacementState(
        turn.map((result) => result.toolUseId),
        records,
      ),
      'main-resumed',
    );
    let saves = 0;
    const countingStore = { persist: (id, content) => ((saves += 1), store.persist(id, content)) };
    const afterResume = await applyToolResultBudget(turn, resumed, { ...options, store: countingStore, agentId: 'main-resumed' });
    point(
      `A new process resumes from the ${records.length} transcript record${records.length === 1 ? '' : 's'}: prompt byte-identical = ` +
        `${same(afterResume, first)}, saves on resume = ${saves}, files in the session folder = ${readdirSync(store.directory).length}.`,
    );
    for (const [index, result] of afterResume.results.entries()) {
      detail(`${result.toolUseId}: sha256 ${sha(first.results[index].content)} before, ${sha(result.content)} after`);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return { ...counts, runtime: 'retry, fork and resume byte-identical; live state refused' };
}
