// Shared timing helpers: the median of several runs, so one noisy run does not decide a ratio.
import { performance } from 'node:perf_hooks';

export async function medianTime(task, { runs = 5, warmup = 1 } = {}) {
  for (let index = 0; index < warmup; index += 1) await task();
  const times = [];
  for (let index = 0; index < runs; index += 1) {
    const start = performance.now();
    await task();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

export function formatRatio(label, numerator, denominator, target) {
  const ratio = numerator / denominator;
  const verdict = target === undefined ? '' : ratio <= target ? `  (target <= ${target}: ok)` : `  (target <= ${target}: MISSED)`;
  return `${label}: ${numerator.toFixed(1)} ms / ${denominator.toFixed(1)} ms = ${ratio.toFixed(3)}${verdict}`;
}

/**
 * Median CPU time (user + system, ms) of each task, the tasks run in turn round
 * after round: on a busy shared machine wall time counts the other processes,
 * and running one side's rounds first would let a load spike fall on one side only.
 * With `takeTurns`, each round starts with the next task: whatever one task
 * leaves behind (garbage to collect, warm caches) falls on each side alike.
 */
export async function interleavedMedianCpuTimes(tasks, { rounds = 5, warmup = 1, takeTurns = false } = {}) {
  for (let index = 0; index < warmup; index += 1) for (const task of tasks) await task();
  const times = tasks.map(() => []);
  for (let round = 0; round < rounds; round += 1) {
    for (let turn = 0; turn < tasks.length; turn += 1) {
      const index = takeTurns ? (round + turn) % tasks.length : turn;
      const start = process.cpuUsage();
      await tasks[index]();
      const used = process.cpuUsage(start);
      times[index].push((used.user + used.system) / 1000);
    }
  }
  return times.map((values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]);
}
