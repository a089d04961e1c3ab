// @ts-check
// An OpenAI Agents run with tool-result-guard, runnable as it is:
//   npm run build && node examples/integrations/openai-agents.mjs
// The model is a fake implementing the SDK's Model interface (no key, no
// network); wrap your real one the same way: budget.wrapModel(await provider.getModel('gpt-5')).
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { Agent, Usage, run, setTracingDisabled, tool } from '@openai/agents';
import { z } from 'zod';

import { ToolResultStore, UNBOUNDED, classifyTool } from 'tool-result-guard';
import { toolResultBudgetFilter } from 'tool-result-guard/openai-agents';

const BIG_LOG = Array.from({ length: 6_500 }, (_, line) => `2026-12-02T10:00:${String(line % 60).padStart(2, '0')} worker-${line % 7} ok`).join('\n');

const bash = classifyTool(tool({ name: 'bash', description: 'Runs a shell command.', parameters: z.object({ command: z.string() }), execute: async () => BIG_LOG }), {
  reads: 'none',
  maxResultSizeChars: 50_000,
});
const readFileTool = classifyTool(
  tool({ name: 'read_file', description: 'Reads a file.', parameters: z.object({ path: z.string() }), execute: async ({ path: file }) => readFile(file, 'utf8') }),
  { reads: 'path', maxResultSizeChars: UNBOUNDED },
);

/** @typedef {import('@openai/agents').AgentInputItem} Item */

/** The text the model was shown for `callId`. @param {Item[]} input @param {string} callId */
function shown(input, callId) {
  for (const item of input) {
    if (item.type !== 'function_call_result' || item.callId !== callId) continue;
    if (typeof item.output === 'string') return item.output;
    if (!Array.isArray(item.output) && item.output.type === 'text') return item.output.text;
  }
  return '';
}

/** A fake model: run bash, read the file the preview names, answer. @returns {import('@openai/agents').Model & { inputs: Item[][] }} */
function scriptedModel() {
  /** @type {Item[][]} */
  const inputs = [];
  return {
    inputs,
    async getResponse(request) {
      const input = typeof request.input === 'string' ? [] : request.input;
      inputs.push(input);
      /** @param {string} callId @param {string} name @param {unknown} args @returns {import('@openai/agents').ModelResponse} */
      const call = (callId, name, args) => ({ usage: new Usage(), output: [{ type: 'function_call', callId, name, arguments: JSON.stringify(args), status: 'completed' }] });
      if (inputs.length === 1) return call('call_bash', 'bash', { command: 'cat worker.log' });
      if (inputs.length === 2) return call('call_read', 'read_file', { path: /Full output saved to: (.+)$/mu.exec(shown(input, 'call_bash'))?.[1] ?? '' });
      return { usage: new Usage(), output: [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'All workers are ok.' }] }] };
    },
    async *getStreamedResponse() {
      throw new Error('not streamed in this example');
    },
  };
}

/** @param {(line: string) => void} log */
export async function runExample(log = console.log) {
  setTracingDisabled(true);
  const root = mkdtempSync(path.join(tmpdir(), 'trg-example-agents-'));
  try {
    const store = new ToolResultStore({ root, sessionId: 'session-1' });
    const budget = toolResultBudgetFilter({ store, tools: [bash, readFileTool], querySource: 'repl_main_thread', agentId: 'main' });
    const model = scriptedModel();
    // The model wrapper; `run(agent, input, { callModelInputFilter: budget })` does the same, at the SDK's cost of copying the input.
    const result = await run(new Agent({ name: 'ops', model: budget.wrapModel(model), tools: [bash, readFileTool] }), 'Are the workers ok?');
    const preview = shown(model.inputs[1] ?? [], 'call_bash');
    log(`bash returned ${BIG_LOG.length} characters; the next model call saw a ${preview.length}-character preview naming ${store.pathFor('call_bash')}.`);
    log(`read_file got ${shown(model.inputs[2] ?? [], 'call_read').length} characters back inline (UNBOUNDED: never persisted). Answer: ${String(result.finalOutput)}`);
    return { previewed: preview.startsWith('<persisted-output>'), readBack: shown(model.inputs[2] ?? [], 'call_read') === BIG_LOG };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await runExample();
