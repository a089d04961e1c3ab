// The adapters' structural message types against the SDKs' real ones: each
// real type must be accepted as it is, and come back out as itself. Run on
// the installed TypeScript only (tstyche.frameworks.config.json).
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { ChatCompletionMessageParam, ChatCompletionToolMessageParam } from 'openai/resources/chat/completions';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import { describe, expect, test } from 'tstyche';
import {
  anthropicToolNames,
  anthropicToolResultIds,
  applyToolResultBudgetToAnthropicMessage,
  applyToolResultBudgetToOpenAIMessages,
  applyToolResultBudgetToOpenAIResponsesInput,
  createReplacementState,
  openAIResponsesToolCallIds,
  openAIResponsesToolNames,
  openAIToolCallIds,
  openAIToolNames,
} from '../../../src/index.js';
import type {
  AdapterBudgetOptions,
  AnthropicBudgetOutcome,
  AnthropicMessage,
  OpenAIBudgetOutcome,
  OpenAIChatMessage,
  OpenAIResponsesBudgetOutcome,
  OpenAIResponsesInputItem,
} from '../../../src/index.js';

declare const options: AdapterBudgetOptions;
const state = createReplacementState();

describe("@anthropic-ai/sdk's MessageParam", () => {
  test('is an AnthropicMessage', () => {
    expect<MessageParam>().type.toBeAssignableTo<AnthropicMessage>();
  });

  test('goes into the adapter and comes back as MessageParam', () => {
    // Declared, not initialised: an initialiser would narrow it to UserMessageParam.
    const message = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'out' }] } as MessageParam;
    expect(applyToolResultBudgetToAnthropicMessage(message, state, options)).type.toBe<Promise<AnthropicBudgetOutcome<MessageParam>>>();
  });

  test('a transcript of them gives the tool names and ids', () => {
    const history: MessageParam[] = [];
    expect(anthropicToolNames(history)).type.toBe<Map<string, string>>();
    expect(anthropicToolResultIds(history)).type.toBe<string[]>();
  });

  test('a string is not a message', () => {
    expect(applyToolResultBudgetToAnthropicMessage).type.not.toBeCallableWith('hello', state, options);
  });
});

describe("openai's ChatCompletionMessageParam", () => {
  test('is an OpenAIChatMessage, the tool message included', () => {
    expect<ChatCompletionMessageParam>().type.toBeAssignableTo<OpenAIChatMessage>();
    expect<ChatCompletionToolMessageParam>().type.toBeAssignableTo<OpenAIChatMessage>();
  });

  test('goes into the adapter and comes back as ChatCompletionMessageParam', () => {
    const messages: ChatCompletionMessageParam[] = [{ role: 'tool', tool_call_id: 'call_1', content: 'out' }];
    expect(applyToolResultBudgetToOpenAIMessages(messages, state, options)).type.toBe<
      Promise<OpenAIBudgetOutcome<ChatCompletionMessageParam>>
    >();
  });

  test('a transcript of them gives the tool names and ids (custom tool calls too)', () => {
    const history: ChatCompletionMessageParam[] = [
      { role: 'assistant', tool_calls: [{ id: 'call_2', type: 'custom', custom: { name: 'grep', input: 'x' } }] },
    ];
    expect(openAIToolNames(history)).type.toBe<Map<string, string>>();
    expect(openAIToolCallIds(history)).type.toBe<string[]>();
  });
});

describe("openai's Responses ResponseInputItem", () => {
  test('is an OpenAIResponsesInputItem', () => {
    expect<ResponseInputItem>().type.toBeAssignableTo<OpenAIResponsesInputItem>();
  });

  test('goes into the adapter and comes back as ResponseInputItem', () => {
    const items: ResponseInputItem[] = [
      { type: 'function_call', call_id: 'call_1', name: 'bash', arguments: '{}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'out' },
    ];
    expect(applyToolResultBudgetToOpenAIResponsesInput(items, state, options)).type.toBe<
      Promise<OpenAIResponsesBudgetOutcome<ResponseInputItem>>
    >();
    expect(openAIResponsesToolNames(items)).type.toBe<Map<string, string>>();
    expect(openAIResponsesToolCallIds(items)).type.toBe<string[]>();
  });

  test('a number is not an item', () => {
    expect(applyToolResultBudgetToOpenAIResponsesInput).type.not.toBeCallableWith([1], state, options);
  });
});
