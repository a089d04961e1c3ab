// @ts-check
// The adapters with the SDKs' own types, runnable as it is (no API call):
//   npm run build && node examples/integrations/sdk-types.mjs
// An @anthropic-ai/sdk MessageParam and openai Responses input items go in,
// and the same types come back out, ready for messages.create / responses.create.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import {
  ToolResultStore,
  UNBOUNDED,
  anthropicToolNames,
  applyToolResultBudgetToAnthropicMessage,
  applyToolResultBudgetToOpenAIResponsesInput,
  createReplacementState,
  openAIResponsesToolNames,
} from 'tool-result-guard';

const BIG = 'line\n'.repeat(60_000);
const tools = [
  { name: 'bash', maxResultSizeChars: 50_000 },
  { name: 'read_file', maxResultSizeChars: UNBOUNDED },
];

/** @param {(line: string) => void} log */
export async function runExample(log = console.log) {
  const root = mkdtempSync(path.join(tmpdir(), 'trg-example-sdk-'));
  try {
    const store = new ToolResultStore({ root, sessionId: 'session-1' });
    const options = { store, tools, perMessageLimit: 200_000, querySource: 'repl_main_thread' };

    /** @type {import('@anthropic-ai/sdk/resources/messages').MessageParam[]} */
    const history = [
      { role: 'user', content: 'Count the lines.' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01', name: 'bash', input: { command: 'cat big.txt' } }] },
    ];
    /** @type {import('@anthropic-ai/sdk/resources/messages').MessageParam} */
    const results = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: BIG }] };
    /** @type {{ message: import('@anthropic-ai/sdk/resources/messages').MessageParam }} */
    const anthropic = await applyToolResultBudgetToAnthropicMessage(results, createReplacementState(), { ...options, toolNames: anthropicToolNames(history) });
    log(`Anthropic: a ${BIG.length}-character tool_result becomes ${JSON.stringify(anthropic.message.content).length} characters of MessageParam.`);

    /** @type {import('openai/resources/responses/responses').ResponseInputItem[]} */
    const input = [
      { role: 'user', content: 'Count the lines.' },
      { type: 'function_call', call_id: 'call_01', name: 'bash', arguments: '{"command":"cat big.txt"}' },
      { type: 'function_call_output', call_id: 'call_01', output: BIG },
    ];
    /** @type {{ items: import('openai/resources/responses/responses').ResponseInputItem[] }} */
    const openai = await applyToolResultBudgetToOpenAIResponsesInput(input, createReplacementState(), { ...options, toolNames: openAIResponsesToolNames(input) });
    log(`OpenAI Responses: the function_call_output becomes ${JSON.stringify(openai.items[2]).length} characters of ResponseInputItem.`);
    return { anthropic: anthropic.message, openai: openai.items };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await runExample();
