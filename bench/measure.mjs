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
