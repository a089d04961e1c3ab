// @ts-check
// The AI SDK loop with tool-result-guard as its middleware, runnable as it is:
//   npm run build && node examples/integrations/ai-sdk.mjs
// The model is the AI SDK's own mock (ai/test) so the example needs no key and
// no network; put your provider's model (openai('gpt-5'), anthropic(...)) in
// its place and nothing else changes.
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { generateText, stepCountIs, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';

import { ToolResultStore, UNBOUNDED, classifyTool, reconstructReplacementState } from 'tool-result-guard';
import { aiSdkToolCallIds, toolResultBudget } from 'tool-result-guard/ai-sdk';

const BIG_LOG = Array.from({ length: 6_500 }, (_, line) => `2026-12-02T10:00:${String(line % 60).padStart(2, '0')} worker-${line % 7} ok`).join('\n');

// Every tool is classified where it is defined; read_file reads whatever path
// the model names, so it is UNBOUNDED: its results are never persisted.
const tools = {
  bash: classifyTool(
    tool({ description: 'Runs a shell command.', inputSchema: z.object({ command: z.string() }), execute: async () => BIG_LOG }),
    { reads: 'none', maxResultSizeChars: 50_000 },
  ),
  read_file: classifyTool(
    tool({ description: 'Reads a file.', inputSchema: z.object({ path: z.string() }), execute: async ({ path: file }) => readFile(file, 'utf8') }),
    { reads: 'path', maxResultSizeChars: UNBOUNDED },
  ),
};

/** A scripted stand-in for a real model: run bash, read the file the preview names, answer. */
function scriptedModel() {
  const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
  let step = 0;
  return new MockLanguageModelV4({
    doGenerate: async ({ prompt }) => {
      step += 1;
      /** @param {string} toolCallId @param {string} toolName @param {unknown} input */
      const call = (toolCallId, toolName, input) => ({
        content: [{ type: /** @type {const} */ ('tool-call'), toolCallId, toolName, input: JSON.stringify(input) }],
        finishReason: { unified: /** @type {const} */ ('tool-calls'), raw: undefined },
        usage,
        warnings: [],
      });
      if (step === 1) return call('call_bash', 'bash', { command: 'cat worker.log' });
      if (step === 2) return call('call_read', 'read_file', { path: persistedPathIn(prompt) });
      return { content: [{ type: 'text', text: 'All workers are ok.' }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] };
    },
  });
}

/** @typedef {import('ai/test').MockLanguageModelV4['doGenerateCalls'][number]['prompt']} Prompt */

/** The path the `<persisted-output>` preview in the prompt names. @param {Prompt} prompt */
function persistedPathIn(prompt) {
  return /Full output saved to: (.+)$/mu.exec(shownText(prompt))?.[1] ?? '';
}

/** Every tool result text the model was shown, joined. @param {Prompt} prompt */
function shownText(prompt) {
  return prompt
    .flatMap((message) => (message.role === 'tool' ? message.content : []))
    .map((part) => (part.type === 'tool-result' && part.output.type === 'text' ? part.output.value : ''))
    .join('\n');
}

/**
 * Runs the loop, then a fork and a resume, and reports what happened through `log`.
 * @param {(line: string) => void} log
 */
export async function runExample(log = console.log) {
  const root = mkdtempSync(path.join(tmpdir(), 'trg-example-ai-sdk-'));
  try {
    const store = new ToolResultStore({ root, sessionId: 'session-1' });
    /** @type {import('tool-result-guard').ReplacementRecord[]} */
    const records = [];
    // The one line: the budget is the middleware, and the middleware is the session.
    const budget = toolResultBudget({ store, tools, querySource: 'repl_main_thread', agentId: 'main', onRecord: (record) => records.push(record) });
    const model = scriptedModel();
    const result = await generateText({ model: wrapLanguageModel({ model, middleware: budget }), tools, prompt: 'Are the workers ok?', stopWhen: stepCountIs(5) });

    const [, second, third] = model.doGenerateCalls;
    log(`bash returned ${BIG_LOG.length} characters; step 2's prompt carries a ${shownText(second.prompt).length}-character preview naming ${store.pathFor('call_bash')}.`);
    log(`read_file read that path and the model got ${shownText(third.prompt).length - shownText(second.prompt).length - 1} characters inline: it is UNBOUNDED, so never persisted again.`);
    log(`Persisted: ${records.map((record) => record.toolUseId).join(', ')}. Answer: ${result.text}`);

    // A fork: a clone of the state. A resume: rebuilt from the transcript and the records.
    const history = [{ role: /** @type {const} */ ('user'), content: 'Are the workers ok?' }, ...result.responseMessages];
    const fork = budget.fork({ agentId: 'agent:reviewer', querySource: 'agent:reviewer' });
    const resumed = toolResultBudget({ store, tools, querySource: 'repl_main_thread', agentId: 'main', state: reconstructReplacementState(aiSdkToolCallIds(history), records) });
    /** @type {string[]} */
    const views = [];
    for (const middleware of [fork, resumed]) {
      const next = new MockLanguageModelV4({
        doGenerate: async ({ prompt }) => {
          views.push(JSON.stringify(prompt.filter((message) => message.role === 'tool')));
          return { content: [{ type: 'text', text: 'ok' }], finishReason: { unified: 'stop', raw: undefined }, usage: { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } }, warnings: [] };
        },
      });
      await generateText({ model: wrapLanguageModel({ model: next, middleware }), tools, messages: history });
    }
    const parentView = JSON.stringify(third.prompt.filter((message) => message.role === 'tool'));
    log(`A fork and a resume send the tool results byte for byte as the parent's last step did: ${views.every((view) => view === parentView)}.`);
    return { identical: views.every((view) => view === parentView), persisted: records.map((record) => record.toolUseId) };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await runExample();
