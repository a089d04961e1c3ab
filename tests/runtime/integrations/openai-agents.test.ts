// The OpenAI Agents input filter in a real run() loop, with a fake Model
// implementing the SDK's Model interface (no network): a 200,000-character
// tool result is persisted and previewed, the model reads it back with the
// self-reading tool and gets all of it (never persisted again), and a fork
// and a resume make byte-identical decisions.
import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

import {
  Agent,
  Usage,
  run,
  setTracingDisabled,
  tool,
  type AgentInputItem,
  type Model,
  type ModelRequest,
  type ModelResponse,
} from '@openai/agents';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

import {
  ToolResultStore,
  UNBOUNDED,
  classifyTool,
  reconstructReplacementState,
  type ReplacementRecord,
  type UnhandledPart,
} from '../../../src/index.js';
import { openAIAgentsToolCallIds, toolResultBudgetFilter } from '../../../src/runtime/integrations/openai-agents.js';
import { makeTemporaryRoot } from '../helpers.js';
import { persistedPathIn } from './ai-sdk-mock.js';

beforeAll(() => setTracingDisabled(true));

const BIG_OUTPUT = Array.from({ length: 4_000 }, (_, line) => `line ${String(line).padStart(5, '0')}: ${'x'.repeat(40)}`).join('\n');

type Input = AgentInputItem[];

/** A Model whose step `n` answers `script(input, n)`; keeps every input it was sent. */
class ScriptedModel implements Model {
  readonly inputs: Input[] = [];

  constructor(readonly script: (input: Input, step: number) => ModelResponse['output']) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const input = typeof request.input === 'string' ? [] : request.input;
    this.inputs.push(input);
    return { usage: new Usage(), output: this.script(input, this.inputs.length) };
  }

  // eslint-disable-next-line require-yield -- the tests never stream
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error('not streamed in these tests');
  }
}

const callTool = (callId: string, name: string, input: unknown): ModelResponse['output'] => [
  { type: 'function_call', callId, name, arguments: JSON.stringify(input), status: 'completed' },
];
const answer = (text: string): ModelResponse['output'] => [
  { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text }] },
];

function resultShown(input: Input, callId: string): string | undefined {
  for (const item of input) {
    if (item.type !== 'function_call_result' || item.callId !== callId) continue;
    if (typeof item.output === 'string') return item.output;
    if (!Array.isArray(item.output) && item.output.type === 'text') return item.output.text;
  }
  return undefined;
}

const resultItems = (input: Input) => JSON.stringify(input.filter((item) => item.type === 'function_call_result'));

function harness() {
  const root = makeTemporaryRoot('trg-agents-');
  const store = new ToolResultStore({ root, sessionId: 'session-1' });
  const records: ReplacementRecord[] = [];
  const reads: string[] = [];
  const bash = classifyTool(
    tool({
      name: 'bash',
      description: 'Runs a shell command.',
      parameters: z.object({ command: z.string() }),
      execute: async () => BIG_OUTPUT,
    }),
    { reads: 'none', maxResultSizeChars: 50_000 },
  );
  const readFileTool = classifyTool(
    tool({
      name: 'read_file',
      description: 'Reads a file.',
      parameters: z.object({ path: z.string() }),
      execute: async ({ path }) => {
        reads.push(path);
        return readFile(path, 'utf8');
      },
    }),
    { reads: 'path', maxResultSizeChars: UNBOUNDED },
  );
  const tools = [bash, readFileTool];
  const filter = toolResultBudgetFilter({
    store,
    tools,
    querySource: 'repl_main_thread',
    agentId: 'main',
    onRecord: (record) => records.push(record),
  });
  return { store, records, reads, tools, filter };
}

const readBack = (input: Input, step: number) => {
  if (step === 1) return callTool('call_bash', 'bash', { command: 'cat big.log' });
  if (step === 2) return callTool('call_read', 'read_file', { path: persistedPathIn(resultShown(input, 'call_bash')) });
  return answer('done');
};

describe('toolResultBudgetFilter in a run() loop', () => {
  it('persists the 200K result, previews it, and the self-reading tool reads it back whole, never persisted again', async () => {
    const { store, records, reads, tools, filter } = harness();
    const model = new ScriptedModel(readBack);
    const result = await run(new Agent({ name: 'main', model, tools }), 'Look at big.log.', { callModelInputFilter: filter });

    expect(result.finalOutput).toBe('done');
    expect(model.inputs).toHaveLength(3);
    const preview = resultShown(model.inputs[1]!, 'call_bash')!;
    expect(preview.startsWith('<persisted-output>')).toBe(true);
    expect(preview).toContain(`Full output saved to: ${store.pathFor('call_bash')}`);
    expect(preview.length).toBeLessThan(3_000);
    expect(reads).toEqual([store.pathFor('call_bash')]);
    expect(resultShown(model.inputs[2]!, 'call_read') === BIG_OUTPUT, 'read_file got all of the persisted output').toBe(true);
    expect(resultShown(model.inputs[2]!, 'call_bash')).toBe(preview);
    expect(readdirSync(store.directory)).toEqual(['call_bash.txt']);
    expect(records.map((record) => record.toolUseId)).toEqual(['call_bash']);
    // The run's history keeps the original output.
    expect(resultShown(result.history, 'call_bash') === BIG_OUTPUT, 'the history holds the full output').toBe(true);
  });

  it('does the same as a model wrapper (budget.wrapModel), which the SDK does not deep-copy the input for', async () => {
    const { store, records, reads, tools, filter } = harness();
    const model = new ScriptedModel(readBack);
    const result = await run(new Agent({ name: 'main', model: filter.wrapModel(model), tools }), 'Look at big.log.');
    expect(result.finalOutput).toBe('done');
    const preview = resultShown(model.inputs[1]!, 'call_bash')!;
    expect(preview).toContain(`Full output saved to: ${store.pathFor('call_bash')}`);
    expect(reads).toEqual([store.pathFor('call_bash')]);
    expect(resultShown(model.inputs[2]!, 'call_read') === BIG_OUTPUT, 'read_file got all of the persisted output').toBe(true);
    expect(readdirSync(store.directory)).toEqual(['call_bash.txt']);
    expect(records).toHaveLength(1);
    expect(() => filter.wrapModel('gpt-5' as never)).toThrow(/budget\.wrapModel\(await provider\.getModel\(name\)\)/u);
  });

  it('a fork (fork()) and a resume (reconstructReplacementState from the saved records) make byte-identical decisions', async () => {
    const { store, records, tools, filter } = harness();
    const parent = new ScriptedModel(readBack);
    const result = await run(new Agent({ name: 'main', model: parent, tools }), 'Look at big.log.', { callModelInputFilter: filter });
    const history: Input = [...result.history, { role: 'user', content: 'Summarise.' }];
    const parentView = resultItems(parent.inputs[2]!);

    const child = filter.fork({ agentId: 'agent:summary', querySource: 'agent:summary', onRecord: () => undefined });
    const forked = new ScriptedModel((_input, step) =>
      step === 1 ? callTool('call_child', 'bash', { command: 'cat other.log' }) : answer('ok'),
    );
    await run(new Agent({ name: 'summary', model: forked, tools }), history, { callModelInputFilter: child });
    expect(resultItems(forked.inputs[0]!) === parentView, 'the fork saw other bytes').toBe(true);
    expect(child.state.seenIds.has('call_child')).toBe(true);
    expect(filter.state.seenIds.has('call_child')).toBe(false);

    const savedHistory: Input = JSON.parse(JSON.stringify(history));
    const resumed = toolResultBudgetFilter({
      store: new ToolResultStore({ root: store.root, sessionId: 'session-1' }),
      tools,
      querySource: 'repl_main_thread',
      agentId: 'main',
      state: reconstructReplacementState(openAIAgentsToolCallIds(savedHistory), JSON.parse(JSON.stringify(records))),
    });
    const after = new ScriptedModel(() => answer('resumed'));
    await run(new Agent({ name: 'main', model: after, tools }), savedHistory, { callModelInputFilter: resumed });
    expect(resultItems(after.inputs[0]!) === parentView, 'the resume saw other bytes').toBe(true);
    expect(readdirSync(store.directory).sort()).toEqual(['call_bash.txt', 'call_child.txt']);
  });

  it('passes unknown and unbudgeted items through unchanged and reports each once', async () => {
    const reports: UnhandledPart[] = [];
    const filter = toolResultBudgetFilter({
      store: new ToolResultStore({ root: makeTemporaryRoot('trg-agents-'), sessionId: 's' }),
      tools: [{ name: 'bash', maxResultSizeChars: 1_000 }],
      querySource: 'repl_main_thread',
      onUnhandledPart: (part) => reports.push(part),
    });
    const input = [
      {
        type: 'shell_call_output',
        callId: 'call_s',
        output: [{ stdout: 's'.repeat(5_000), stderr: '', outcome: { type: 'exit', exitCode: 0 } }],
      },
      { type: 'unknown', providerData: { blob: 'u' } },
      {
        type: 'function_call_result',
        callId: 'call_1',
        name: 'bash',
        status: 'completed',
        output: { type: 'provider_blob', data: 'b'.repeat(5_000) },
      },
    ] as unknown as Input;
    for (let turn = 0; turn < 3; turn += 1) {
      const modelData = { input };
      expect(await filter({ modelData, agent: new Agent({ name: 'a' }), context: undefined })).toBe(modelData);
    }
    expect(reports.map(({ reason, type }) => `${reason} ${type}`)).toEqual([
      'unsupported-result-type shell_call_output',
      'unknown-part-type unknown',
      'unknown-output-type provider_blob',
    ]);
  });

  it('keeps each output’s shape: a string, a text output, a list of input_text parts; an image is never persisted', async () => {
    const filter = toolResultBudgetFilter({
      store: new ToolResultStore({ root: makeTemporaryRoot('trg-agents-'), sessionId: 's' }),
      tools: [{ name: 'bash', maxResultSizeChars: 1_000 }],
      querySource: 'repl_main_thread',
    });
    const big = 'o'.repeat(5_000);
    const item = (callId: string, output: unknown) => ({ type: 'function_call_result', callId, name: 'bash', status: 'completed', output });
    const input = [
      item('call_string', big),
      item('call_text', { type: 'text', text: big }),
      item('call_parts', [{ type: 'input_text', text: big }]),
      item('call_image', [
        { type: 'input_text', text: big },
        { type: 'input_image', image: 'data:image/png;base64,AAAA' },
      ]),
    ] as unknown as Input;
    const { input: shown } = await filter({ modelData: { input }, agent: new Agent({ name: 'a' }), context: undefined });
    const outputs = shown.map((entry) => (entry as { output: unknown }).output);
    expect(typeof outputs[0]).toBe('string');
    expect((outputs[1] as { type: string }).type).toBe('text');
    expect((outputs[2] as Array<{ type: string }>)[0]!.type).toBe('input_text');
    expect(JSON.stringify(outputs.slice(0, 3)).match(/<persisted-output>/gu)).toHaveLength(3);
    expect(shown[3]).toBe(input[3]);
  });
});
