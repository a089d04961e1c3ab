// The framework integrations' cost per step, as a ratio to the bare loop
// with the same mock model: a generateText loop (AI SDK, MockLanguageModelV4
// from ai/test) and a run() loop (OpenAI Agents, a fake Model), each step a
// tool call whose result is under its tool's threshold (target <= 1.05), and
// for information the same with every result over it (persisted to memory).
//
// Sides take turns round after round and each is timed in CPU time (user +
// system) of this process, so load from other processes falls on both alike;
// the young generation is collected before each timed sample (outside the
// timing), so each side pays for the garbage it makes itself and never for
// what the side before it left. (A full collection there would be wrong: it
// drops compiled code and makes every sample start cold.) The median per-step
// time of each side and the median of the per-round ratios are printed.
import v8 from 'node:v8';
import vm from 'node:vm';

import { generateText, jsonSchema, stepCountIs, tool, wrapLanguageModel } from 'ai';
import { Agent, Usage, run as runAgent, setTracingDisabled, tool as agentTool } from '@openai/agents';
import { z } from 'zod';

import { classifyTool } from '../dist/index.js';
import { toolResultBudget } from '../dist/runtime/integrations/ai-sdk.js';
import { toolResultBudgetFilter } from '../dist/runtime/integrations/openai-agents.js';

import { aiSdkModel, memoryStore } from './integrations-fixtures.mjs';

export const title = 'Integrations: cost per agent-loop step, with the budget vs the bare loop (same mock model)';

const STEPS = 20;
const LOOPS_PER_SAMPLE = 4;
const ROUNDS = Number(process.env.BENCH_INTEGRATIONS_ROUNDS ?? 21);
const TARGET = 1.05;
const WARMUP_SAMPLES = 25;
const UNDER_THRESHOLD = 'u'.repeat(2_000);

// `gc()` without a command-line flag: `npm run bench` runs every bench in one plain `node` process.
// Called as `gc({ type: 'minor' })`: a scavenge of the young generation only.
v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc');
const OVER_THRESHOLD = 'o'.repeat(60_000);

/** How an AI SDK loop runs: `bare` (the mock model itself), `noop` (wrapped in a middleware that changes nothing), `budget`. */
function aiSdkLoop(output, side) {
  const tools = {
    bash: classifyTool(
      tool({
        description: 'Runs a command.',
        inputSchema: jsonSchema({ type: 'object', properties: { command: { type: 'string' } } }),
        execute: async () => output,
      }),
      {
        reads: 'none',
        maxResultSizeChars: 50_000,
      },
    ),
  };
  const middlewareFor = {
    noop: () => ({ transformParams: async ({ params }) => params }),
    // A fresh session per loop, as a new conversation would have.
    budget: () => toolResultBudget({ store: memoryStore(), tools, querySource: 'repl_main_thread' }),
  };
  return async () => {
    for (let loop = 0; loop < LOOPS_PER_SAMPLE; loop += 1) {
      const mock = aiSdkModel(STEPS);
      const model = side === 'bare' ? mock : wrapLanguageModel({ model: mock, middleware: middlewareFor[side]() });
      await generateText({ model, tools, prompt: 'go', stopWhen: stepCountIs(STEPS + 1) });
    }
  };
}

/** A fake Model for the Agents SDK that calls `bash` on every step but the last. */
function agentsModel() {
  let step = 0;
  return {
    async getResponse() {
      step += 1;
      if (step % STEPS === 0) {
        return {
          usage: new Usage(),
          output: [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'done' }] }],
        };
      }
      return {
        usage: new Usage(),
        output: [{ type: 'function_call', callId: `call_${step}`, name: 'bash', arguments: '{"command":"ls"}', status: 'completed' }],
      };
    },
    // eslint-disable-next-line require-yield -- never streamed here
    async *getStreamedResponse() {
      throw new Error('not streamed');
    },
  };
}

/**
 * How an OpenAI Agents run goes: `bare`, `budget` (the model wrapped by
 * `budget.wrapModel`), `filter` (the same budget as callModelInputFilter),
 * `noop-filter` (a callModelInputFilter that changes nothing: what the SDK
 * itself spends on any filter).
 */
function agentsLoop(output, side) {
  const bash = classifyTool(
    agentTool({ name: 'bash', description: 'Runs a command.', parameters: z.object({ command: z.string() }), execute: async () => output }),
    {
      reads: 'none',
      maxResultSizeChars: 50_000,
    },
  );
  return async () => {
    for (let loop = 0; loop < LOOPS_PER_SAMPLE; loop += 1) {
      const budget = toolResultBudgetFilter({ store: memoryStore(), tools: [bash], querySource: 'repl_main_thread' });
      const model = side === 'budget' ? budget.wrapModel(agentsModel()) : agentsModel();
      const options = { maxTurns: STEPS + 1 };
      if (side === 'filter') options.callModelInputFilter = budget;
      if (side === 'noop-filter') options.callModelInputFilter = async ({ modelData }) => modelData;
      await runAgent(new Agent({ name: 'bench', model, tools: [bash] }), 'go', options);
    }
  };
}

/**
 * Median CPU time per step of each side, and the median of the per-round
 * ratios of each side to the first (the verdict: each round's sides ran
 * under the same load); each round starts with the next side.
 */
async function compare(sides) {
  const names = Object.keys(sides);
  // The budget's code is cold until V8 has optimised it: about a hundred loops
  // (two thousand steps) in, on the bench machine. Warm every side as long.
  for (let warm = 0; warm < WARMUP_SAMPLES; warm += 1) for (const name of names) await sides[name]();
  const times = Object.fromEntries(names.map((name) => [name, []]));
  const ratios = Object.fromEntries(names.map((name) => [name, []]));
  const cpuTime = async (task) => {
    collectGarbage({ type: 'minor' });
    const start = process.cpuUsage();
    await task();
    const used = process.cpuUsage(start);
    return (used.user + used.system) / 1000 / (LOOPS_PER_SAMPLE * STEPS);
  };
  for (let round = 0; round < ROUNDS; round += 1) {
    const roundTimes = {};
    for (let turn = 0; turn < names.length; turn += 1) {
      const name = names[(round + turn) % names.length];
      roundTimes[name] = await cpuTime(sides[name]);
      times[name].push(roundTimes[name]);
    }
    for (const name of names) ratios[name].push(roundTimes[name] / roundTimes[names[0]]);
  }
  return Object.fromEntries(names.map((name) => [name, { time: median(times[name]), ratio: median(ratios[name]) }]));
}

function median(values) {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)];
}

function print(label, results, targets = {}) {
  const [bareName, ...others] = Object.keys(results);
  const bare = results[bareName];
  for (const name of others) {
    const { time, ratio } = results[name];
    const target = targets[name];
    const verdict = target === undefined ? '' : ratio <= target ? `  (target <= ${target}: ok)` : `  (target <= ${target}: MISSED)`;
    console.log(
      `${label}, ${name}: ${(time * 1000).toFixed(1)} µs / ${(bare.time * 1000).toFixed(1)} µs per step = ${ratio.toFixed(3)}${verdict}` +
        ` (ratio of the medians ${(time / bare.time).toFixed(3)})`,
    );
  }
}

export async function run() {
  setTracingDisabled(true);
  console.log(
    `${STEPS} steps per loop, ${LOOPS_PER_SAMPLE} loops per sample, ${ROUNDS} rounds; CPU time per step, each side / the bare loop.`,
  );
  for (const [size, output, targets] of [
    ['under the threshold', UNDER_THRESHOLD, { budget: TARGET }],
    ['over the threshold (every result persisted, to memory)', OVER_THRESHOLD, {}],
  ]) {
    const ai = await compare({ bare: aiSdkLoop(output, 'bare'), noop: aiSdkLoop(output, 'noop'), budget: aiSdkLoop(output, 'budget') });
    print(`ai-sdk generateText, results ${size}`, ai, targets);
    const agents = await compare({
      bare: agentsLoop(output, 'bare'),
      budget: agentsLoop(output, 'budget'),
      filter: agentsLoop(output, 'filter'),
      'noop-filter': agentsLoop(output, 'noop-filter'),
    });
    print(`openai-agents run(), results ${size}`, agents, targets);
  }
}
