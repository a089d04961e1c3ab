// Budget application and resume reconstruction at N and 2N tool results:
// the cost must grow linearly (ratio <= 2.3). Persistence goes to an
// in-memory store so the figures measure the runtime, not the disk. Each
// workload runs in a fresh Node process (this file, run with the workload's
// name): otherwise one workload's garbage and grown heap are collected while
// the next one is timed, mostly during its larger 2N samples.
import {
  applyToolResultBudget,
  createReplacementState,
  DEFAULT_MAX_CONCURRENT_WRITES,
  formatPersistedOutput,
  previewOf,
  reconstructReplacementState,
  ToolResultStore,
  UNBOUNDED,
} from '../dist/index.js';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { formatRatio, medianTime } from './measure.mjs';

export const title = 'Runtime: applyToolResultBudget and reconstructReplacementState at N and 2N results';

// BENCH_RUNTIME_N sets N (at least 10,000); at any N a bare Map of the same ids
// is measured too, as the floor the hardware and V8 set for a 2N/N ratio.
const N = Math.max(10_000, Number(process.env.BENCH_RUNTIME_N ?? 10_000));
const RESULTS_PER_MESSAGE = 10;
const LINEAR_TARGET = 2.3;
const TIMING = { runs: 7, warmup: 2 };
const PAIRS = 11;
// Each timed sample repeats its task until it lasts about this long, so one
// scheduler hiccup or young-generation collection does not decide it.
const SAMPLE_MS = 150;

/**
 * Times `sizeN` and `size2N` back to back in pairs, after warming the JIT on
 * both. Each pair sees the same machine load (other processes, CPU
 * frequency), so the ratio is taken per pair and the median ratio reported,
 * with the median times.
 */
async function pairedTimes(taskN, task2N) {
  for (let warm = 0; warm < 2; warm += 1) {
    await taskN();
    await task2N();
  }
  let start = performance.now();
  await taskN();
  const repeats = Math.max(3, Math.ceil(SAMPLE_MS / Math.max(performance.now() - start, 0.01)));
  const sample = async (task) => {
    start = performance.now();
    for (let repeat = 0; repeat < repeats; repeat += 1) await task();
    return (performance.now() - start) / repeats;
  };
  const timesN = [];
  const times2N = [];
  const ratios = [];
  for (let pair = 0; pair < PAIRS; pair += 1) {
    // Alternate which size goes first: the second one also collects the first one's garbage.
    let timeN;
    let time2N;
    if (pair % 2 === 0) {
      timeN = await sample(taskN);
      time2N = await sample(task2N);
    } else {
      time2N = await sample(task2N);
      timeN = await sample(taskN);
    }
    timesN.push(timeN);
    times2N.push(time2N);
    ratios.push(time2N / timeN);
  }
  return { timeN: median(timesN), time2N: median(times2N), ratio: median(ratios) };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function formatPair(label, { timeN, time2N, ratio }, target = LINEAR_TARGET) {
  const verdict = target === null ? '' : ratio <= target ? `  (target <= ${target}: ok)` : `  (target <= ${target}: MISSED)`;
  return `${label}: ${time2N.toFixed(1)} ms / ${timeN.toFixed(1)} ms, median ratio of ${PAIRS} paired runs = ${ratio.toFixed(3)}${verdict}`;
}

const tools = [
  { name: 'bash', maxResultSizeChars: 30_000 },
  { name: 'grep', maxResultSizeChars: 20_000 },
  { name: 'read_file', maxResultSizeChars: UNBOUNDED },
];

// A few shared strings, so the timing is the runtime's and not string building.
const contents = {
  small: 'ok\n'.repeat(100),
  medium: 'm'.repeat(12_000),
  large: 'L'.repeat(45_000),
  read: 'r'.repeat(60_000),
};

function resultAt(index) {
  switch (index % 10) {
    case 0:
      return { toolUseId: `toolu_${index}`, toolName: 'bash', content: contents.large };
    case 1:
    case 2:
      return { toolUseId: `toolu_${index}`, toolName: 'grep', content: contents.medium };
    case 3:
      return { toolUseId: `toolu_${index}`, toolName: 'read_file', content: contents.read };
    default:
      return { toolUseId: `toolu_${index}`, toolName: 'bash', content: contents.small };
  }
}

const memoryStore = {
  async persist(toolUseId, content) {
    return { path: `/sessions/bench/tool-results/${toolUseId}.txt`, size: content.length, preview: previewOf(content) };
  },
};

function messagesOf(count) {
  const messages = [];
  for (let start = 0; start < count; start += RESULTS_PER_MESSAGE) {
    const message = [];
    for (let index = start; index < Math.min(count, start + RESULTS_PER_MESSAGE); index += 1) message.push(resultAt(index));
    messages.push(message);
  }
  return messages;
}

/** A whole session: every message judged once, then every message reapplied (frozen fates). */
async function runSession(messages) {
  const state = createReplacementState();
  const options = { store: memoryStore, tools, perMessageLimit: 100_000, querySource: 'repl_main_thread', onRecord: () => {} };
  for (const message of messages) await applyToolResultBudget(message, state, options);
  for (const message of messages) await applyToolResultBudget(message, state, options);
}

/** One huge message: exercises the largest-first selection. */
async function runOneMessage(results) {
  const options = { store: memoryStore, tools, perMessageLimit: 1_000_000, querySource: 'repl_main_thread' };
  await applyToolResultBudget(results, createReplacementState(), options);
}

/** A JSONL transcript of `count` results: a message line per result, a record line per replacement. */
function transcriptOf(count) {
  const lines = [];
  for (let index = 0; index < count; index += 1) {
    const toolUseId = `toolu_${index}`;
    const replaced = index % 10 === 0;
    const content = replaced
      ? formatPersistedOutput({ path: `/sessions/bench/tool-results/${toolUseId}.txt`, size: 45_000, preview: 'L'.repeat(2_000) })
      : `result ${index}: ${'x'.repeat(200)}`;
    lines.push(
      JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUseId, content }] } }),
    );
    // As applyToolResultBudget writes it: with the replaced content's fingerprint.
    if (replaced)
      lines.push(
        JSON.stringify({
          kind: 'tool-result',
          toolUseId,
          replacement: content,
          contentLength: 45_000,
          contentHash: (index % 1e8).toString(16).padStart(32, '0'),
        }),
      );
  }
  return lines.join('\n');
}

function parseTranscript(text) {
  return text.split('\n').map((line) => JSON.parse(line));
}

function reconstructionInputs(entries) {
  const toolUseIds = [];
  const records = [];
  for (const entry of entries) {
    if (entry.kind === 'tool-result') records.push(entry);
    else for (const block of entry.message.content) if (block.type === 'tool_result') toolUseIds.push(block.tool_use_id);
  }
  return { toolUseIds, records };
}

function reconstructFrom(entries) {
  const { toolUseIds, records } = reconstructionInputs(entries);
  return reconstructReplacementState(toolUseIds, records);
}

const WORKLOADS = {
  async session() {
    const sessionN = messagesOf(N);
    const session2N = messagesOf(2 * N);
    const session = await pairedTimes(
      () => runSession(sessionN),
      () => runSession(session2N),
    );
    console.log(`budget, a session of N=${N} results in messages of ${RESULTS_PER_MESSAGE}, judged then reapplied:`);
    console.log(`  ${formatPair(`2N vs N (${2 * N} / ${N} results)`, session)}`);
  },
  async 'one-message'() {
    const oneN = messagesOf(N).flat();
    const one2N = messagesOf(2 * N).flat();
    const oneMessage = await pairedTimes(
      () => runOneMessage(oneN),
      () => runOneMessage(one2N),
    );
    console.log(`budget, one message of N=${N} results (largest-first selection):`);
    console.log(`  ${formatPair(`2N vs N (${2 * N} / ${N} results)`, oneMessage)}`);
  },
  async reconstruction() {
    const transcriptN = transcriptOf(N);
    const transcript2N = transcriptOf(2 * N);
    const entriesN = parseTranscript(transcriptN);
    const entries2N = parseTranscript(transcript2N);
    const reconstruction = await pairedTimes(
      () => reconstructFrom(entriesN),
      () => reconstructFrom(entries2N),
    );
    const parseTimeN = await medianTime(() => parseTranscript(transcriptN), TIMING);
    console.log(`reconstructReplacementState from a transcript of N=${N} results (${(transcriptN.length / 1e6).toFixed(1)} MB JSONL):`);
    console.log(`  ${formatRatio('reconstruction vs JSON.parse of the same transcript', reconstruction.timeN, parseTimeN)}`);
    // Issue 2 sets the 2.3 target for the budget; this line is compared with its floor below.
    console.log(`  ${formatPair(`2N vs N (${2 * N} / ${N} results)`, reconstruction, null)}`);
    // Parsed ids lie scattered over the transcript's heap, so a Map of them grows
    // faster than one of ids made in order: this is the floor for this line.
    const idsN = reconstructionInputs(entriesN).toolUseIds;
    const ids2N = reconstructionInputs(entries2N).toolUseIds;
    const floor = await pairedTimes(
      () => fillMap(idsN, idsN.length),
      () => fillMap(ids2N, ids2N.length),
    );
    console.log(`  ${formatPair('floor: a bare Map of the same parsed ids, 2N vs N', floor, null)}`);
  },
  // The write queue's effect: one message of N results that all go to a real
  // disk, with the default bound and with none, side by side in one process.
  // `run()` starts this workload under `ulimit -n 1024` (the limit the EMFILE
  // failures were seen with), so the unbounded store runs out of file handles
  // the way a harness does; the results each one left inline are counted.
  async 'write-queue'() {
    const queueTools = [{ name: 'bash', maxResultSizeChars: 2_500 }];
    const message = Array.from({ length: N }, (_, index) => ({
      toolUseId: `toolu_${index}`,
      toolName: 'bash',
      content: `${index}:`.padEnd(3_000, 'w'),
    }));
    const persistOnce = async (maxConcurrentWrites) => {
      const root = mkdtempSync(path.join(tmpdir(), 'trg-bench-queue-'));
      try {
        const store = new ToolResultStore({ root, sessionId: 'bench', maxConcurrentWrites });
        let inline = 0;
        const start = performance.now();
        await applyToolResultBudget(message, createReplacementState(), {
          store,
          tools: queueTools,
          perMessageLimit: Number.MAX_SAFE_INTEGER,
          querySource: 'repl_main_thread',
          onPersistError: () => (inline += 1),
        });
        return { time: performance.now() - start, inline };
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    };
    // One run each (every write is flushed to disk, so a run takes tens of seconds).
    const bounded = await persistOnce(DEFAULT_MAX_CONCURRENT_WRITES);
    const unbounded = await persistOnce(Number.POSITIVE_INFINITY);
    const limit = process.env.BENCH_OPEN_FILE_LIMIT ?? 'not lowered';
    console.log(`write queue, one message of N=${N} results of 3,000 characters persisted to ${tmpdir()}, open-file limit ${limit}:`);
    console.log(
      `  bounded (maxConcurrentWrites ${DEFAULT_MAX_CONCURRENT_WRITES}): ${bounded.time.toFixed(1)} ms, ${bounded.inline} of ${N} left inline`,
    );
    console.log(`  unbounded (maxConcurrentWrites Infinity): ${unbounded.time.toFixed(1)} ms, ${unbounded.inline} of ${N} left inline`);
    console.log(`  ${formatRatio('bounded vs unbounded', bounded.time, unbounded.time)}`);
  },
  // The floor under every figure above: the same ids in a bare Map.
  async 'bare-map'() {
    const ids = messagesOf(2 * N)
      .flat()
      .map((result) => result.toolUseId);
    const bareMap = await pairedTimes(
      () => fillMap(ids, N),
      () => fillMap(ids, 2 * N),
    );
    console.log(`for reference, a bare Map of the same ${N} / ${2 * N} ids (hardware and V8 growth, no runtime code):`);
    console.log(`  ${formatPair('2N vs N', bareMap)}`);
  },
};

export async function run() {
  for (const workload of Object.keys(WORKLOADS)) {
    const child = spawnWorkload(workload);
    if (child.status !== 0) throw new Error(`the ${workload} workload failed (exit ${child.status ?? child.signal})`);
  }
}

const WRITE_QUEUE_OPEN_FILE_LIMIT = 1_024;

function spawnWorkload(workload) {
  const argv = [fileURLToPath(import.meta.url), workload];
  if (workload === 'write-queue' && process.platform !== 'win32') {
    // sh's ulimit lowers the open-file limit for node alone; "$0" "$@" keep the paths unquoted-safe.
    const script = `ulimit -n ${WRITE_QUEUE_OPEN_FILE_LIMIT} && exec "$0" "$@"`;
    return spawnSync('/bin/sh', ['-c', script, process.execPath, ...argv], {
      stdio: 'inherit',
      env: { ...process.env, BENCH_OPEN_FILE_LIMIT: String(WRITE_QUEUE_OPEN_FILE_LIMIT) },
    });
  }
  return spawnSync(process.execPath, argv, { stdio: 'inherit' });
}

function fillMap(ids, count) {
  const map = new Map();
  for (let index = 0; index < count; index += 1) map.set(ids[index], index);
  return map;
}

// Run directly with a workload's name, this file times that workload alone.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const workload = WORKLOADS[process.argv[2]];
  if (!workload) throw new Error(`usage: node bench/runtime.bench.mjs <${Object.keys(WORKLOADS).join(' | ')}>`);
  await workload();
}
