// State-leakage runtime: a session of N and 2N calls of a stateful tool through the
// invocation ledger (in memory) must cost linearly (ratio <= 2.3): receipts
// summarise prior deltas instead of growing with the session. So must a session
// written to the JSONL journal (one append and one checkpoint replacement per
// record, the lock taken once). Also prints the per-record cost of the journal
// with fdatasync per record and OS-buffered, with and without an hmacKey.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CookieJarCarrier, InvocationLedger, defineStatefulTool, evaluateInvocation } from '../dist/index.js';
import { formatRatio, interleavedMedianCpuTimes, medianTime } from './measure.mjs';

export const title = 'State leakage: ledger sessions at N and 2N calls, journal cost per record, evaluateInvocation';

const N = 2_000;
const LINEAR_TARGET = 2.3;
const policy = { requireIsolationForCritical: false, maxSessionUsageRatio: 1 };

function statefulTool() {
  const jar = new CookieJarCarrier({ name: 'jar', scope: 'session' });
  return defineStatefulTool({
    toolId: 'browser_session',
    stateScope: 'session',
    carriers: { jar },
    invoke(input, state) {
      state.jar.set({ name: `c${input % 16}`, value: String(input), domain: 'app.example', scopes: ['read'] });
      return `page ${input}`;
    },
  });
}

async function session(calls, journalPath, durability, hmacKey) {
  const ledger = InvocationLedger.open({ sessionId: `bench-${calls}`, policy, journalPath, durability, hmacKey });
  const tool = statefulTool();
  for (let index = 0; index < calls; index += 1) await ledger.invoke(tool, index);
  ledger.close();
}

export async function run() {
  // Linearity in CPU time, N and 2N interleaved: the machine is shared, and wall time would count the others.
  const [timeN, time2N] = await interleavedMedianCpuTimes([() => session(N), () => session(2 * N)], { rounds: 5 });
  console.log(formatRatio(`ledger session, ${2 * N} calls vs ${N} calls (in memory, CPU time)`, time2N, timeN, LINEAR_TARGET));
  console.log(`  ${((timeN / N) * 1000).toFixed(1)} µs per call (four receipts, digests, carrier deltas)`);

  const folder = mkdtempSync(path.join(tmpdir(), 'trg-ledger-bench-'));
  try {
    const journalN = 400;
    let run = 0;
    const [journalTimeN, journalTime2N] = await interleavedMedianCpuTimes(
      [
        () => session(journalN, path.join(folder, `linear-${run++}.jsonl`), 'os-buffered'),
        () => session(2 * journalN, path.join(folder, `linear-${run++}.jsonl`), 'os-buffered'),
      ],
      { rounds: 5 },
    );
    console.log(
      formatRatio(
        `journal session, ${2 * journalN} calls vs ${journalN} calls (os-buffered, checkpoint per record, CPU time)`,
        journalTime2N,
        journalTimeN,
        LINEAR_TARGET,
      ),
    );

    const records = 300;
    const buffered = await medianTime(() => session(records, path.join(folder, `buffered-${run++}.jsonl`), 'os-buffered'), {
      runs: 3,
      warmup: 1,
    });
    const synced = await medianTime(() => session(records, path.join(folder, `fsync-${run++}.jsonl`), 'fsync'), { runs: 3, warmup: 1 });
    const keyed = await medianTime(() => session(records, path.join(folder, `keyed-${run++}.jsonl`), 'os-buffered', 'bench-key'), {
      runs: 3,
      warmup: 1,
    });
    const memory = await medianTime(() => session(records), { runs: 3, warmup: 1 });
    console.log(
      `journal, ${records} calls: in memory ${memory.toFixed(1)} ms, os-buffered ${buffered.toFixed(1)} ms (with hmacKey ${keyed.toFixed(1)} ms), fsync per record ${synced.toFixed(1)} ms`,
    );
    console.log(formatRatio('  fsync per record vs os-buffered', synced, buffered));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }

  const invocation = {
    invocationId: 'inv-1',
    toolId: 'browser_session',
    hasSessionState: true,
    stateDeltaHash: null,
    sessionUsageRatio: 1 / 3,
    resultHash: 'r',
  };
  const context = { priorStateDeltas: ['a', 'b'], isolationPolicy: 'SESSION_SHARED' };
  const evaluations = 20_000;
  const evaluateTime = await medianTime(() => {
    for (let index = 0; index < evaluations; index += 1) evaluateInvocation(invocation, context, policy);
  });
  console.log(
    `evaluateInvocation: ${((evaluateTime / evaluations) * 1000).toFixed(2)} µs per call (Python-exact json.dumps, :.2% and SHA-256)`,
  );
}
