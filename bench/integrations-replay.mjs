// The AI SDK middleware's own cost per step, away from the loop: the
// prompts of one 20-step generateText loop (results under the threshold)
// are captured once, then replayed through transformParams with a fresh
// middleware per loop, as a new conversation would get one. Prints the CPU
// time per step (against a middleware that does nothing) and, with V8's
// sampling heap profiler, the bytes allocated per step and where.
//
// Not part of `npm run bench` (the loop figures there are the verdict);
// a tool for finding what a change to the per-step path costs:
// `npm run build && node bench/integrations-replay.mjs`.
import { Session } from 'node:inspector/promises';

import { generateText, jsonSchema, stepCountIs, tool, wrapLanguageModel } from 'ai';

import { classifyTool } from '../dist/index.js';
import { toolResultBudget } from '../dist/runtime/integrations/ai-sdk.js';

import { aiSdkModel, memoryStore } from './integrations-fixtures.mjs';

const STEPS = 20;
const LOOPS = Number(process.env.BENCH_REPLAY_LOOPS ?? 20_000);
const OUTPUT = 'u'.repeat(2_000);

const tools = {
  bash: classifyTool(
    tool({
      description: 'Runs a command.',
      inputSchema: jsonSchema({ type: 'object', properties: { command: { type: 'string' } } }),
      execute: async () => OUTPUT,
    }),
    { reads: 'none', maxResultSizeChars: 50_000 },
  ),
};

const model = aiSdkModel(STEPS);

const captured = [];
await generateText({
  model: wrapLanguageModel({
    model,
    middleware: {
      transformParams: async ({ params }) => {
        captured.push(params);
        return params;
      },
    },
  }),
  tools,
  prompt: 'go',
  stopWhen: stepCountIs(STEPS + 1),
});

const noop = () => ({ transformParams: async ({ params }) => params });
const budget = () => toolResultBudget({ store: memoryStore(), tools, querySource: 'repl_main_thread' });

async function replay(makeMiddleware) {
  const middleware = makeMiddleware();
  for (const params of captured) await middleware.transformParams({ params, type: 'generate', model });
}

async function cpuPerStep(makeMiddleware, loops) {
  const start = process.cpuUsage();
  for (let loop = 0; loop < loops; loop += 1) await replay(makeMiddleware);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / (loops * captured.length);
}

async function bytesPerStep(makeMiddleware, loops) {
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 64,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  for (let loop = 0; loop < loops; loop += 1) await replay(makeMiddleware);
  const { profile } = await session.post('HeapProfiler.stopSampling');
  session.disconnect();
  const byFunction = new Map();
  let total = 0;
  const walk = (node) => {
    const { functionName, url, lineNumber } = node.callFrame;
    const key = `${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${lineNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + node.selfSize);
    total += node.selfSize;
    node.children.forEach(walk);
  };
  walk(profile.head);
  const perStep = (bytes) => bytes / (loops * captured.length);
  return {
    total: perStep(total),
    top: [...byFunction]
      .sort((left, right) => right[1] - left[1])
      .slice(0, 8)
      .map(([key, bytes]) => [key, perStep(bytes)]),
  };
}

for (let warm = 0; warm < 3_000; warm += 1) {
  await replay(budget);
  await replay(noop);
}
console.log(`${captured.length} prompts per loop (a ${STEPS}-step loop), ${LOOPS} loops per figure, a fresh middleware per loop.`);
for (let round = 0; round < 3; round += 1) {
  const withBudget = await cpuPerStep(budget, LOOPS);
  const withNoop = await cpuPerStep(noop, LOOPS);
  console.log(`CPU per step: toolResultBudget ${withBudget.toFixed(2)} µs, no-op middleware ${withNoop.toFixed(2)} µs`);
}
const budgetBytes = await bytesPerStep(budget, LOOPS / 4);
const noopBytes = await bytesPerStep(noop, LOOPS / 4);
console.log(
  `Allocated per step: toolResultBudget about ${budgetBytes.total.toFixed(0)} bytes, no-op middleware about ${noopBytes.total.toFixed(0)} bytes`,
);
for (const [where, bytes] of budgetBytes.top) console.log(`  ${bytes.toFixed(0).padStart(6)} bytes  ${where}`);
