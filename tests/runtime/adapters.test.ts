import { describe, expect, it } from 'vitest';
import {
  anthropicToolNames,
  anthropicToolResultIds,
  applyToolResultBudgetToAnthropicMessage,
  applyToolResultBudgetToOpenAIMessages,
  applyToolResultBudgetToOpenAIResponsesInput,
  adoptReplacementState,
  createReplacementState,
  openAIResponsesToolCallIds,
  openAIResponsesToolNames,
  openAIToolCallIds,
  openAIToolNames,
  reconstructReplacementState,
  UNBOUNDED,
} from '../../src/index.js';
import type { AdapterBudgetOptions, AnthropicMessage, OpenAIChatMessage, ReplacementRecord } from '../../src/index.js';
import { CountingStore, expectedMemoryReplacement } from './helpers.js';

const tools = [
  { name: 'bash', maxResultSizeChars: 30_000 },
  { name: 'read_file', maxResultSizeChars: UNBOUNDED },
  { name: 'screenshot', maxResultSizeChars: 10_000 },
];

describe('Anthropic Messages adapter', () => {
  const bigText = 'x'.repeat(40_000);
  const assistantBlocks = [
    { type: 'text', text: 'Running three tools.' },
    { type: 'tool_use', id: 'toolu_bash', name: 'bash', input: { command: 'find /' } },
    { type: 'tool_use', id: 'toolu_blocks', name: 'bash', input: { command: 'cat big.log' } },
    { type: 'tool_use', id: 'toolu_read', name: 'read_file', input: { file_path: 'huge.ts' } },
    { type: 'tool_use', id: 'toolu_shot', name: 'screenshot', input: {} },
    { type: 'tool_use', id: 'toolu_small', name: 'bash', input: { command: 'pwd' } },
  ];
  const assistant: AnthropicMessage = { role: 'assistant', content: assistantBlocks };
  const userMessage = {
    role: 'user' as const,
    content: [
      { type: 'tool_result', tool_use_id: 'toolu_bash', content: bigText },
      {
        type: 'tool_result',
        tool_use_id: 'toolu_blocks',
        content: [
          { type: 'text', text: bigText },
          { type: 'text', text: 'tail' },
        ],
      },
      { type: 'tool_result', tool_use_id: 'toolu_read', content: 'r'.repeat(80_000) },
      {
        type: 'tool_result',
        tool_use_id: 'toolu_shot',
        content: [
          { type: 'text', text: 's'.repeat(50_000) },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'i'.repeat(200_000) } },
        ],
      },
      { type: 'tool_result', tool_use_id: 'toolu_small', content: '/home/agent', is_error: false },
      { type: 'text', text: 'Continue.' },
    ],
  };

  const options = (store: CountingStore, records: ReplacementRecord[] = []): AdapterBudgetOptions => ({
    store,
    tools,
    perMessageLimit: 100_000,
    querySource: 'repl_main_thread',
    toolNames: anthropicToolNames([assistant]),
    onRecord: (record) => records.push(record),
  });

  it('reads tool names from tool_use blocks and result ids from tool_result blocks', () => {
    expect(anthropicToolNames([assistant, userMessage])).toEqual(
      new Map([
        ['toolu_bash', 'bash'],
        ['toolu_blocks', 'bash'],
        ['toolu_read', 'read_file'],
        ['toolu_shot', 'screenshot'],
        ['toolu_small', 'bash'],
      ]),
    );
    expect(anthropicToolResultIds([assistant, userMessage])).toEqual([
      'toolu_bash',
      'toolu_blocks',
      'toolu_read',
      'toolu_shot',
      'toolu_small',
    ]);
  });

  it('replaces large string and text-block results in their own shape and never persists image results', async () => {
    const store = new CountingStore();
    const { message, newlyReplaced } = await applyToolResultBudgetToAnthropicMessage(userMessage, createReplacementState(), options(store));
    const [bash, blocks, read, shot, small, text] = message.content as typeof userMessage.content;
    expect(bash).toEqual({ type: 'tool_result', tool_use_id: 'toolu_bash', content: expectedMemoryReplacement('toolu_bash', bigText) });
    expect(blocks).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_blocks',
      content: [{ type: 'text', text: expectedMemoryReplacement('toolu_blocks', `${bigText}\ntail`) }],
    });
    expect(read).toBe(userMessage.content[2]);
    expect(shot).toBe(userMessage.content[3]);
    expect(small).toBe(userMessage.content[4]);
    expect(text).toBe(userMessage.content[5]);
    expect([...store.calls.keys()]).toEqual(['toolu_bash', 'toolu_blocks']);
    expect(newlyReplaced.map((record) => record.toolUseId)).toEqual(['toolu_bash', 'toolu_blocks']);
    expect(userMessage.content[0]).toMatchObject({ content: bigText });
  });

  it('returns the same message object when nothing is replaced, and handles string content', async () => {
    const store = new CountingStore();
    const quiet = { role: 'user' as const, content: [{ type: 'tool_result', tool_use_id: 'toolu_small', content: 'ok' }] };
    const outcome = await applyToolResultBudgetToAnthropicMessage(quiet, createReplacementState(), options(store));
    expect(outcome.message).toBe(quiet);
    const plain = { role: 'user' as const, content: 'hello' };
    expect((await applyToolResultBudgetToAnthropicMessage(plain, createReplacementState(), options(store))).message).toBe(plain);
  });

  it('gives a resumed session the byte-identical message', async () => {
    const store = new CountingStore();
    const records: ReplacementRecord[] = [];
    const first = await applyToolResultBudgetToAnthropicMessage(userMessage, createReplacementState(), options(store, records));
    const resumed = adoptReplacementState(reconstructReplacementState(anthropicToolResultIds([assistant, userMessage]), records));
    const again = await applyToolResultBudgetToAnthropicMessage(userMessage, resumed, options(store));
    expect(JSON.stringify(again.message)).toBe(JSON.stringify(first.message));
    expect(store.totalCalls()).toBe(2);
  });

  it('never lets a text result overwrite an image-bearing tool_result that shares its id', async () => {
    const store = new CountingStore();
    const imageBlock = {
      type: 'tool_result',
      tool_use_id: 'toolu_shot',
      content: [
        { type: 'text', text: 'caption' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'i'.repeat(1_000) } },
      ],
    };
    const textBlock = { type: 'tool_result', tool_use_id: 'toolu_shot', content: 't'.repeat(40_000) };
    for (const blocks of [
      [imageBlock, textBlock],
      [textBlock, imageBlock],
    ]) {
      const shared = { role: 'user' as const, content: blocks };
      const { message } = await applyToolResultBudgetToAnthropicMessage(shared, createReplacementState(), options(store));
      const content = message.content as typeof blocks;
      const imageAt = blocks.indexOf(imageBlock);
      expect(content[imageAt]).toBe(imageBlock);
      expect(content[1 - imageAt]).toEqual({ ...textBlock, content: expectedMemoryReplacement('toolu_shot', textBlock.content) });
    }
  });

  it('rejects a tool_result whose tool_use is unknown, saying how to build toolNames', async () => {
    const orphan = { role: 'user' as const, content: [{ type: 'tool_result', tool_use_id: 'toolu_orphan', content: 'x' }] };
    await expect(applyToolResultBudgetToAnthropicMessage(orphan, createReplacementState(), options(new CountingStore()))).rejects.toThrow(
      /"toolu_orphan".*anthropicToolNames/,
    );
  });
});

describe('OpenAI chat adapter', () => {
  const history: OpenAIChatMessage[] = [
    { role: 'user', content: 'Investigate the failing build.' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'bash', arguments: '{"command":"npm test"}' } },
        { id: 'call_2', type: 'function', function: { name: 'read_file', arguments: '{"file_path":"log.txt"}' } },
        { id: 'call_3', type: 'function', function: { name: 'bash', arguments: '{"command":"ls"}' } },
        { id: 'call_4', type: 'function', function: { name: 'bash', arguments: '{"command":"env"}' } },
      ],
    },
  ];
  const toolMessages = [
    { role: 'tool' as const, tool_call_id: 'call_1', content: 'F'.repeat(45_000) },
    { role: 'tool' as const, tool_call_id: 'call_2', content: 'L'.repeat(70_000) },
    { role: 'tool' as const, tool_call_id: 'call_3', content: 'src\ntests' },
    { role: 'tool' as const, tool_call_id: 'call_4', content: [{ type: 'text', text: 'E'.repeat(31_000) }] },
  ];

  it('reads tool names from tool_calls and ids from tool messages', () => {
    expect(openAIToolNames(history)).toEqual(
      new Map([
        ['call_1', 'bash'],
        ['call_2', 'read_file'],
        ['call_3', 'bash'],
        ['call_4', 'bash'],
      ]),
    );
    expect(openAIToolCallIds([...history, ...toolMessages])).toEqual(['call_1', 'call_2', 'call_3', 'call_4']);
  });

  it('budgets the tool messages of one assistant turn as one message', async () => {
    const store = new CountingStore();
    const options: AdapterBudgetOptions = {
      store,
      tools,
      perMessageLimit: 200_000,
      querySource: 'agent:ci-fixer',
      toolNames: openAIToolNames(history),
    };
    const { messages, newlyReplaced } = await applyToolResultBudgetToOpenAIMessages(toolMessages, createReplacementState(), options);
    expect(messages[0]).toEqual({ role: 'tool', tool_call_id: 'call_1', content: expectedMemoryReplacement('call_1', 'F'.repeat(45_000)) });
    expect(messages[1]).toBe(toolMessages[1]);
    expect(messages[2]).toBe(toolMessages[2]);
    expect(messages[3]).toEqual({
      role: 'tool',
      tool_call_id: 'call_4',
      content: [{ type: 'text', text: expectedMemoryReplacement('call_4', 'E'.repeat(31_000)) }],
    });
    expect(newlyReplaced.map((record) => record.toolUseId)).toEqual(['call_1', 'call_4']);
  });

  it('never lets a text result overwrite an image-bearing tool message that shares its id', async () => {
    const store = new CountingStore();
    const image = { role: 'tool' as const, tool_call_id: 'call_1', content: [{ type: 'image_url', text: undefined }] };
    const text = { role: 'tool' as const, tool_call_id: 'call_1', content: 'F'.repeat(45_000) };
    const { messages } = await applyToolResultBudgetToOpenAIMessages([image, text], createReplacementState(), {
      store,
      tools,
      perMessageLimit: 200_000,
      querySource: 'repl_main_thread',
      toolNames: openAIToolNames(history),
    });
    expect(messages[0]).toBe(image);
    expect(messages[1]).toEqual({ ...text, content: expectedMemoryReplacement('call_1', text.content) });
  });

  it('passes non-tool messages through and skips non-text content parts', async () => {
    const store = new CountingStore();
    const mixed: OpenAIChatMessage[] = [
      { role: 'user', content: 'look' },
      {
        role: 'tool',
        tool_call_id: 'call_1',
        content: [
          { type: 'image_url', text: undefined },
          { type: 'text', text: 'F'.repeat(45_000) },
        ],
      },
    ];
    const { messages } = await applyToolResultBudgetToOpenAIMessages(mixed, createReplacementState(), {
      store,
      tools,
      perMessageLimit: 1_000,
      querySource: 'repl_main_thread',
      toolNames: openAIToolNames(history),
    });
    expect(messages).toEqual(mixed);
    expect(store.totalCalls()).toBe(0);
  });
});

describe('OpenAI Responses adapter', () => {
  const big = 'r'.repeat(40_000);
  const items = [
    { role: 'user', content: 'Run them.' },
    { type: 'function_call', call_id: 'call_bash', name: 'bash', arguments: '{}' },
    { type: 'custom_tool_call', call_id: 'call_grep', name: 'grep', input: 'x' },
    { type: 'function_call', call_id: 'call_shot', name: 'screenshot', arguments: '{}' },
    { type: 'function_call_output', call_id: 'call_bash', output: big },
    { type: 'custom_tool_call_output', call_id: 'call_grep', output: [{ type: 'input_text', text: big }] },
    {
      type: 'function_call_output',
      call_id: 'call_shot',
      output: [
        { type: 'input_text', text: big },
        { type: 'input_image', image_url: 'data:image/png;base64,AAAA' },
      ],
    },
    { type: 'item_reference', id: 'msg_1' },
  ];
  const responsesTools = [...tools, { name: 'grep', maxResultSizeChars: 30_000 }];

  it('reads tool names from function and custom tool calls, and ids from their outputs', () => {
    expect(openAIResponsesToolNames(items)).toEqual(
      new Map([
        ['call_bash', 'bash'],
        ['call_grep', 'grep'],
        ['call_shot', 'screenshot'],
      ]),
    );
    expect(openAIResponsesToolCallIds(items)).toEqual(['call_bash', 'call_grep', 'call_shot']);
  });

  it('replaces outputs in their own shape, never persists an image-bearing one, and passes other items through', async () => {
    const store = new CountingStore();
    const state = createReplacementState();
    const options = {
      store,
      tools: responsesTools,
      perMessageLimit: 100_000,
      querySource: 'repl_main_thread',
      toolNames: openAIResponsesToolNames(items),
    };
    const { items: shown, newlyReplaced } = await applyToolResultBudgetToOpenAIResponsesInput(items, state, options);
    expect(shown[4]).toEqual({ ...items[4], output: expectedMemoryReplacement('call_bash', big) });
    expect(shown[5]).toEqual({ ...items[5], output: [{ type: 'input_text', text: expectedMemoryReplacement('call_grep', big) }] });
    expect(shown[6]).toBe(items[6]);
    for (const index of [0, 1, 2, 3, 7]) expect(shown[index]).toBe(items[index]);
    expect(newlyReplaced.map((record) => record.toolUseId)).toEqual(['call_bash', 'call_grep']);

    const again = await applyToolResultBudgetToOpenAIResponsesInput(items, state, options);
    expect(JSON.stringify(again.items)).toBe(JSON.stringify(shown));
    expect(store.totalCalls()).toBe(2);
  });
});
