// The AI SDK middleware in a real generateText / streamText loop, driven by
// the AI SDK's own mock model: a 200,000-character tool result is persisted
// and previewed, the model reads it back with the self-reading tool and gets
// all of it (never persisted again), and a fork and a resume make
// byte-identical decisions.
import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

import { generateText, stepCountIs, streamText, tool, wrapLanguageModel, type ModelMessage } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import {
  StateOwnershipError,
  ToolResultBudgetSession,
  ToolResultStore,
  UNBOUNDED,
  applyToolResultBudget,
  classifyTool,
  reconstructReplacementState,
  type ReplacementRecord,
  type UnhandledPart,
} from '../../../src/index.js';
import { aiSdkToolCallIds, toolResultBudget } from '../../../src/runtime/integrations/ai-sdk.js';
import { makeTemporaryRoot } from '../helpers.js';
import { persistedPathIn, scriptedModel, shownResult, textStep, toolCallStep, toolMessagesOf, type CallOptions } from './ai-sdk-mock.js';

const BIG_OUTPUT = Array.from({ length: 4_000 }, (_, line) => `line ${String(line).padStart(5, '0')}: ${'x'.repeat(40)}`).join('\n');

function harness() {
  const root = makeTemporaryRoot('trg-ai-sdk-');
  const store = new ToolResultStore({ root, sessionId: 'session-1' });
  const records: ReplacementRecord[] = [];
  const reads: string[] = [];
  const tools = {
    bash: classifyTool(
      tool({
        description: 'Runs a shell command.',
        inputSchema: z.object({ command: z.string() }),
        execute: async () => BIG_OUTPUT,
      }),
      { reads: 'none', maxResultSizeChars: 50_000 },
    ),
    read_file: classifyTool(
      tool({
        description: 'Reads a file.',
        inputSchema: z.object({ path: z.string() }),
        execute: async ({ path }) => {
          reads.push(path);
          return readFile(path, 'utf8');
        },
      }),
      { reads: 'path', maxResultSizeChars: UNBOUNDED },
    ),
  };
  const budget = toolResultBudget({
    store,
    tools,
    querySource: 'repl_main_thread',
    agentId: 'main',
    onRecord: (record) => records.push(record),
  });
  return { store, records, reads, tools, budget };
}

/** Step 1 runs bash; step 2 reads the path the preview names; step 3 answers. */
function readBackScript(prompt: CallOptions['prompt'], step: number) {
  if (step === 1) return toolCallStep('call_bash', 'bash', { command: 'cat big.log' });
  if (step === 2) return toolCallStep('call_read', 'read_file', { path: persistedPathIn(shownResult(prompt, 'call_bash')) });
  return textStep('done');
}

describe('toolResultBudget in a generateText loop', () => {
  it('persists the 200K result, previews it, and the self-reading tool reads it back whole, never persisted again', async () => {
    const { store, records, reads, tools, budget } = harness();
    const { model, prompts } = scriptedModel(readBackScript);
    const result = await generateText({
      model: wrapLanguageModel({ model, middleware: budget }),
      tools,
      prompt: 'Look at big.log.',
      stopWhen: stepCountIs(5),
    });

    expect(BIG_OUTPUT.length).toBeGreaterThan(200_000);
    expect(prompts).toHaveLength(3);
    const preview = shownResult(prompts[1]!, 'call_bash')!;
    expect(preview.startsWith('<persisted-output>')).toBe(true);
    expect(preview).toContain(`Full output saved to: ${store.pathFor('call_bash')}`);
    expect(preview).toContain(BIG_OUTPUT.slice(0, 1_000));
    expect(preview.length).toBeLessThan(3_000);

    // The read tool got the persisted path and the model got every character, inline.
    expect(reads).toEqual([store.pathFor('call_bash')]);
    expect(shownResult(prompts[2]!, 'call_read') === BIG_OUTPUT, 'read_file got all of the persisted output').toBe(true);
    expect(readdirSync(store.directory)).toEqual(['call_bash.txt']);
    expect(records.map((record) => record.toolUseId)).toEqual(['call_bash']);
    // The earlier preview is byte-identical on the next step (frozen fate).
    expect(shownResult(prompts[2]!, 'call_bash')).toBe(preview);
    expect(budget.state.replacements.get('call_bash')).toBe(preview);
    expect([...budget.state.seenIds]).toEqual(['call_bash', 'call_read']);

    // The AI SDK keeps the originals: the transcript to save holds the full output.
    const saved = JSON.stringify(result.responseMessages);
    expect(saved.includes(JSON.stringify(BIG_OUTPUT)), 'the saved transcript holds the full output').toBe(true);
  });

  it('keeps the state across generateText and streamText calls of one session', async () => {
    const { store, records, tools, budget } = harness();
    const first = scriptedModel(readBackScript);
    const opening: ModelMessage[] = [{ role: 'user', content: 'Look at big.log.' }];
    const result = await generateText({
      model: wrapLanguageModel({ model: first.model, middleware: budget }),
      tools,
      messages: opening,
      stopWhen: stepCountIs(5),
    });
    const history: ModelMessage[] = [...opening, ...result.responseMessages, { role: 'user', content: 'And again?' }];

    const streamed: CallOptions['prompt'][] = [];
    const streaming = new MockLanguageModelV4({
      doStream: async (options) => {
        streamed.push(options.prompt);
        return {
          stream: new ReadableStream({
            start(controller) {
              controller.enqueue({ type: 'text-start', id: 't' });
              controller.enqueue({ type: 'text-delta', id: 't', delta: 'same as before' });
              controller.enqueue({ type: 'text-end', id: 't' });
              controller.enqueue({
                type: 'finish',
                finishReason: { unified: 'stop', raw: undefined },
                usage: {
                  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
                  outputTokens: { total: 1, text: 1, reasoning: 0 },
                },
              });
              controller.close();
            },
          }),
        };
      },
    });
    const stream = streamText({ model: wrapLanguageModel({ model: streaming, middleware: budget }), tools, messages: history });
    expect(await stream.text).toBe('same as before');

    expect(toolMessagesOf(streamed[0]!) === toolMessagesOf(first.prompts[2]!), 'the tool messages differ').toBe(true);
    expect(readdirSync(store.directory)).toEqual(['call_bash.txt']);
    expect(records).toHaveLength(1);
  });

  it('a fork (fork()) and a resume (reconstructReplacementState from the saved records) make byte-identical decisions', async () => {
    const { store, records, tools, budget } = harness();
    const parent = scriptedModel(readBackScript);
    const opening: ModelMessage[] = [{ role: 'user', content: 'Look at big.log.' }];
    const result = await generateText({
      model: wrapLanguageModel({ model: parent.model, middleware: budget }),
      tools,
      messages: opening,
      stopWhen: stepCountIs(5),
    });
    const history: ModelMessage[] = [...opening, ...result.responseMessages, { role: 'user', content: 'Summarise.' }];
    const parentView = toolMessagesOf(parent.prompts[2]!);

    // A fork: a clone of the state; its own new result is its own.
    const child = budget.fork({ agentId: 'agent:summary', querySource: 'agent:summary', onRecord: () => undefined });
    const forked = scriptedModel((_prompt, step) =>
      step === 1 ? toolCallStep('call_child', 'bash', { command: 'cat other.log' }) : textStep('ok'),
    );
    await generateText({
      model: wrapLanguageModel({ model: forked.model, middleware: child }),
      tools,
      messages: history,
      stopWhen: stepCountIs(3),
    });
    expect(toolMessagesOf(forked.prompts[0]!) === parentView, 'the tool messages differ').toBe(true);
    expect(child.state.seenIds.has('call_child')).toBe(true);
    expect(budget.state.seenIds.has('call_child')).toBe(false);

    // A resume: a new process would have only the transcript and the records.
    const savedRecords: unknown[] = JSON.parse(JSON.stringify(records));
    const savedHistory: ModelMessage[] = JSON.parse(JSON.stringify(history));
    const resumed = toolResultBudget({
      store: new ToolResultStore({ root: store.root, sessionId: 'session-1' }),
      tools,
      querySource: 'repl_main_thread',
      agentId: 'main',
      state: reconstructReplacementState(aiSdkToolCallIds(savedHistory), savedRecords),
    });
    const after = scriptedModel(() => textStep('resumed'));
    await generateText({ model: wrapLanguageModel({ model: after.model, middleware: resumed }), tools, messages: savedHistory });
    expect(toolMessagesOf(after.prompts[0]!) === parentView, 'the tool messages differ').toBe(true);
    expect(toolMessagesOf(forked.prompts[0]!) === toolMessagesOf(after.prompts[0]!), 'the tool messages differ').toBe(true);
    // Nothing was written again: the fork's own result went to its own file, the resume wrote nothing.
    expect(readdirSync(store.directory).sort()).toEqual(['call_bash.txt', 'call_child.txt']);
  });
});

describe('toolResultBudget: bad input and limits', () => {
  const store = () => new ToolResultStore({ root: makeTemporaryRoot('trg-ai-sdk-'), sessionId: 's' });
  const bigPrompt = (output: unknown, type = 'tool-result'): CallOptions['prompt'] => [
    { role: 'user', content: [{ type: 'text', text: 'go' }] },
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'call_1', toolName: 'bash', input: {} }] },
    { role: 'tool', content: [{ type, toolCallId: 'call_1', toolName: 'bash', output } as never] },
  ];
  const transform = async (middleware: ReturnType<typeof toolResultBudget>, prompt: CallOptions['prompt']) =>
    (await middleware.transformParams({ type: 'generate', params: { prompt }, model: new MockLanguageModelV4() })).prompt;

  it('passes an unknown output type or part type through unchanged and reports it once', async () => {
    const reports: UnhandledPart[] = [];
    const middleware = toolResultBudget({
      store: store(),
      tools: [{ name: 'bash', maxResultSizeChars: 1_000 }],
      querySource: 'repl_main_thread',
      onUnhandledPart: (part) => reports.push(part),
    });
    const unknownOutput = bigPrompt({ type: 'provider-blob', value: 'b'.repeat(50_000) });
    const unknownPart = bigPrompt({ type: 'text', value: 'c'.repeat(50_000) }, 'tool-result-v9');
    for (let step = 0; step < 3; step += 1) {
      expect(await transform(middleware, unknownOutput)).toBe(unknownOutput);
      expect(await transform(middleware, unknownPart)).toBe(unknownPart);
    }
    expect(reports.map(({ reason, type, toolCallId }) => ({ reason, type, toolCallId }))).toEqual([
      { reason: 'unknown-output-type', type: 'provider-blob', toolCallId: 'call_1' },
      { reason: 'unknown-part-type', type: 'tool-result-v9', toolCallId: undefined },
    ]);
  });

  it('keeps an unclassified tool’s result inline (never persisted) and reports it once', async () => {
    const reports: UnhandledPart[] = [];
    const middleware = toolResultBudget({
      store: store(),
      tools: [{ name: 'other', maxResultSizeChars: 1_000 }],
      querySource: 'repl_main_thread',
      onUnhandledPart: (part) => reports.push(part),
    });
    const prompt = bigPrompt({ type: 'text', value: 'u'.repeat(50_000) });
    expect(await transform(middleware, prompt)).toBe(prompt);
    expect(await transform(middleware, prompt)).toBe(prompt);
    expect(reports.map((report) => report.reason)).toEqual(['unclassified-tool']);
  });

  it('keeps the result inline and reports a failed persist, without stopping the loop', async () => {
    const errors: string[] = [];
    const failing = { persist: async () => Promise.reject(Object.assign(new Error('ENOSPC: no space left'), { code: 'ENOSPC' })) };
    const middleware = toolResultBudget({
      store: failing,
      tools: [{ name: 'bash', maxResultSizeChars: 1_000 }],
      querySource: 'repl_main_thread',
      onPersistError: (_error, toolUseId) => errors.push(toolUseId),
    });
    const prompt = bigPrompt({ type: 'text', value: 'f'.repeat(50_000) });
    expect(await transform(middleware, prompt)).toBe(prompt);
    expect(await transform(middleware, prompt)).toBe(prompt);
    expect(errors).toEqual(['call_1']);
  });

  it('budgets json, error and content outputs, keeping their kind', async () => {
    const middleware = toolResultBudget({
      store: store(),
      tools: [{ name: 'bash', maxResultSizeChars: 1_000 }],
      querySource: 'repl_main_thread',
    });
    const kinds = [
      [{ type: 'json', value: { rows: 'j'.repeat(5_000) } }, 'text'],
      [{ type: 'error-text', value: 'e'.repeat(5_000) }, 'error-text'],
      [{ type: 'error-json', value: { stderr: 'e'.repeat(5_000) } }, 'error-text'],
      [{ type: 'content', value: [{ type: 'text', text: 'c'.repeat(5_000) }] }, 'content'],
    ] as const;
    for (const [index, [output, kind]] of kinds.entries()) {
      const prompt = bigPrompt(output).map((message) =>
        message.role === 'tool'
          ? { ...message, content: message.content.map((part) => ({ ...part, toolCallId: `call_${index}` })) }
          : message,
      ) as CallOptions['prompt'];
      const out = await transform(middleware, prompt);
      const part = (out[2] as Extract<CallOptions['prompt'][number], { role: 'tool' }>).content[0] as { output: { type: string } };
      expect(part.output.type).toBe(kind);
      expect(JSON.stringify(part.output)).toContain('<persisted-output>');
    }
    // An image in a content output is never persisted.
    const image = bigPrompt({
      type: 'content',
      value: [
        { type: 'text', text: 'i'.repeat(5_000) },
        { type: 'file', data: { type: 'data', data: 'AAAA' }, mediaType: 'image/png' },
      ],
    });
    expect(await transform(middleware, image)).toBe(image);
  });

  it('answers a step that persists nothing with a settled promise, and one that persists once it is stored', async () => {
    const middleware = toolResultBudget({
      store: store(),
      tools: [{ name: 'bash', maxResultSizeChars: 1_000 }],
      querySource: 'repl_main_thread',
    });
    // Settled within two microtasks: no chain of awaits between the model and its prompt.
    const settledSoon = async (pending: PromiseLike<unknown>) => {
      let settled = false;
      void pending.then(() => (settled = true));
      await Promise.resolve();
      await Promise.resolve();
      return settled;
    };
    const small = bigPrompt({ type: 'text', value: 's'.repeat(500) });
    expect(
      await settledSoon(middleware.transformParams({ type: 'generate', params: { prompt: small }, model: new MockLanguageModelV4() })),
    ).toBe(true);
    expect([...middleware.state.seenIds]).toEqual(['call_1']);
    // The history re-sent on the next step, with a new small result.
    const next = [
      ...small,
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'call_2', toolName: 'bash', input: {} }] },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'call_2', toolName: 'bash', output: { type: 'text', value: 't'.repeat(500) } }],
      },
    ] as CallOptions['prompt'];
    expect(
      await settledSoon(middleware.transformParams({ type: 'generate', params: { prompt: next }, model: new MockLanguageModelV4() })),
    ).toBe(true);
    // A result over its threshold still waits for its file.
    const big = bigPrompt({ type: 'text', value: 'b'.repeat(5_000) }).map((message) =>
      message.role === 'tool' ? { ...message, content: message.content.map((part) => ({ ...part, toolCallId: 'call_big' })) } : message,
    ) as CallOptions['prompt'];
    const persisted = await transform(middleware, big);
    expect(shownResult(persisted, 'call_big')?.startsWith('<persisted-output>')).toBe(true);
  });

  it('returns a rejected promise, never a synchronous throw, when a step cannot be budgeted', async () => {
    const throwing = toolResultBudget({
      store: store(),
      tools: [{ name: 'other', maxResultSizeChars: 1_000 }],
      querySource: 'repl_main_thread',
      onUnhandledPart: () => {
        throw new Error('reporter failed');
      },
    });
    const prompt = bigPrompt({ type: 'text', value: 'u'.repeat(50) });
    let pending: PromiseLike<unknown> | undefined;
    expect(
      () => (pending = throwing.transformParams({ type: 'generate', params: { prompt }, model: new MockLanguageModelV4() })),
    ).not.toThrow();
    await expect(pending).rejects.toThrow('reporter failed');

    // The state claimed by another agent meanwhile: the session's budgetMessage rejects (StateOwnershipError).
    const session = new ToolResultBudgetSession('ai-sdk', {
      store: store(),
      tools: [{ name: 'bash', maxResultSizeChars: 1_000 }],
      querySource: 'repl_main_thread',
      agentId: 'main',
    });
    const input = { toolUseId: 'call_x', toolName: 'bash', content: 'x', part: undefined, type: 'text' };
    await applyToolResultBudget([{ toolUseId: 'call_w', toolName: 'bash', content: 'w' }], session.state, {
      store: store(),
      tools: [{ name: 'bash', maxResultSizeChars: 1_000 }],
      perMessageLimit: 200_000,
      querySource: 'repl_main_thread',
      agentId: 'intruder',
    });
    let answer: unknown;
    expect(() => (answer = session.budgetMessage([input]))).not.toThrow();
    await expect(answer).rejects.toThrow(StateOwnershipError);
  });

  it('is a frozen middleware whose functions work taken off it, as wrapLanguageModel takes them', async () => {
    const budget = toolResultBudget({
      store: store(),
      tools: [{ name: 'bash', maxResultSizeChars: 50_000 }],
      querySource: 'repl_main_thread',
    });
    expect(Object.isFrozen(budget)).toBe(true);
    expect(budget.specificationVersion).toBe('v4');
    const { transformParams, fork } = budget;
    const params = { prompt: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'go' }] }] };
    await expect(transformParams({ params, type: 'generate', model: undefined as never })).resolves.toBe(params);
    const child = fork({ agentId: 'agent:child', querySource: 'agent:child' });
    expect(child.state).not.toBe(budget.state);
    expect(Object.isFrozen(child)).toBe(true);
  });

  it('throws when created with a tool set entry nobody classified, never during the loop', () => {
    expect(() =>
      toolResultBudget({
        store: store(),
        tools: { bash: tool({ description: 'x', inputSchema: z.object({}), execute: async () => '' }) },
        querySource: 'repl_main_thread',
      }),
    ).toThrow(/Tool "bash" of the tool set given to toolResultBudget is not classified/u);
  });
});
