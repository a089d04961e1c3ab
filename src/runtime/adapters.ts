/**
 * Adapters between the budget's `{ toolUseId, toolName, content }` and the
 * message shapes harnesses really keep: Anthropic Messages `tool_result`
 * blocks, OpenAI Chat Completions `role: 'tool'` messages and OpenAI
 * Responses `function_call_output` items. Only text is ever persisted: a
 * result holding an image (or any other non-text part) is left exactly as it
 * is and does not take part in the budget.
 *
 * The message types here are the smallest structural types the SDKs' own
 * satisfy (`@anthropic-ai/sdk`'s `MessageParam`, `openai`'s
 * `ChatCompletionMessageParam` and `ResponseInputItem`; tests/types/sdk-types.tst.ts
 * holds each pairing). Every adapter is generic in the message type, so the
 * SDK's type goes in and comes back out, and neither SDK is needed to
 * import this module: both are optional peers, for their types only.
 */
import { applyToolResultBudget, type ToolResultBudgetOptions } from './budget.js';
import type { ReplacementRecord, ReplacementState } from './replacement-state.js';

/** Tool-use id → tool name, from the assistant messages that made the calls. */
export type ToolNameLookup = ReadonlyMap<string, string>;

export interface AdapterBudgetOptions extends ToolResultBudgetOptions {
  /** Which tool each id belongs to: `anthropicToolNames(history)` or `openAIToolNames(history)`. */
  readonly toolNames: ToolNameLookup;
}

// ---------------------------------------------------------------------------
// Anthropic Messages

export interface AnthropicTextBlock {
  readonly type: 'text';
  readonly text: string;
}

export interface AnthropicToolUseBlock {
  readonly type: 'tool_use';
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
}

/** A content part of a tool result: text, image, document… (only text is persisted). */
export interface AnthropicToolResultContentPart {
  readonly type: string;
  readonly text?: string;
}

export interface AnthropicToolResultBlock {
  readonly type: 'tool_result';
  readonly tool_use_id: string;
  readonly content?: string | readonly AnthropicToolResultContentPart[];
  readonly is_error?: boolean;
}

export interface AnthropicContentBlock {
  readonly type: string;
}

export interface AnthropicMessage {
  /** `'user'` or `'assistant'` (the SDK also has `'system'`); only assistant messages name tools. */
  readonly role: string;
  readonly content: string | readonly AnthropicContentBlock[];
}

export interface AnthropicBudgetOutcome<Message extends AnthropicMessage> {
  readonly message: Message;
  readonly newlyReplaced: ReplacementRecord[];
}

/** Tool names by tool-use id, from the `tool_use` blocks of assistant messages. */
export function anthropicToolNames(messages: Iterable<AnthropicMessage>): Map<string, string> {
  const names = new Map<string, string>();
  for (const message of messages) {
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    for (const block of message.content) {
      if (isToolUseBlock(block)) names.set(block.id, block.name);
    }
  }
  return names;
}

/** The ids of every `tool_result` block, in transcript order: the `toolUseIds` for `reconstructReplacementState`. */
export function anthropicToolResultIds(messages: Iterable<AnthropicMessage>): string[] {
  const ids: string[] = [];
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    for (const block of message.content) {
      if (isToolResultBlock(block)) ids.push(block.tool_use_id);
    }
  }
  return ids;
}

/**
 * Applies the budget to the `tool_result` blocks of one user message and
 * returns the message with replaced results' content swapped for their
 * `<persisted-output>` replacement (a string stays a string, a list of text
 * blocks becomes one text block). Other blocks are kept as they are.
 */
export async function applyToolResultBudgetToAnthropicMessage<Message extends AnthropicMessage>(
  message: Message,
  state: ReplacementState,
  options: AdapterBudgetOptions,
): Promise<AnthropicBudgetOutcome<Message>> {
  if (typeof message.content === 'string') {
    return applyToolResultBudget([], state, options).then(({ newlyReplaced }) => ({ message, newlyReplaced }));
  }
  const inputs: PositionedInput[] = [];
  message.content.forEach((block, position) => {
    if (!isToolResultBlock(block)) return;
    const text = textOfAnthropicResult(block);
    if (text === undefined) return;
    inputs.push({ toolUseId: block.tool_use_id, toolName: toolNameOf(options.toolNames, block.tool_use_id), content: text, position });
  });
  const { replacedAt, newlyReplaced } = await budgetByPosition(inputs, state, options);
  if (replacedAt.size === 0) return { message, newlyReplaced };

  const content = message.content.map((block, position): AnthropicContentBlock => {
    const replacement = replacedAt.get(position);
    if (replacement === undefined || !isToolResultBlock(block)) return block;
    const replaced: AnthropicToolResultBlock = {
      ...block,
      content: typeof block.content === 'string' || block.content === undefined ? replacement : [{ type: 'text', text: replacement }],
    };
    return replaced;
  });
  return { message: { ...message, content }, newlyReplaced };
}

/** The text of a tool result, or undefined when it holds anything but text (never persisted). */
function textOfAnthropicResult(block: AnthropicToolResultBlock): string | undefined {
  if (block.content === undefined) return '';
  if (typeof block.content === 'string') return block.content;
  const texts: string[] = [];
  for (const part of block.content) {
    if (part.type !== 'text' || typeof part.text !== 'string') return undefined;
    texts.push(part.text);
  }
  return texts.join('\n');
}

function isToolUseBlock(block: AnthropicContentBlock): block is AnthropicToolUseBlock {
  return block.type === 'tool_use' && typeof (block as Partial<AnthropicToolUseBlock>).id === 'string';
}

function isToolResultBlock(block: AnthropicContentBlock): block is AnthropicToolResultBlock {
  return block.type === 'tool_result' && typeof (block as Partial<AnthropicToolResultBlock>).tool_use_id === 'string';
}

// ---------------------------------------------------------------------------
// OpenAI-style chat messages

/** A function tool call (`function`) or a custom tool call (`custom`, openai >= 5). */
export interface OpenAIToolCall {
  readonly id: string;
  readonly type?: string;
  readonly function?: { readonly name: string; readonly arguments: string };
  readonly custom?: { readonly name: string };
}

export interface OpenAIContentPart {
  readonly type: string;
  readonly text?: string;
}

export interface OpenAIToolMessage {
  readonly role: 'tool';
  readonly tool_call_id: string;
  readonly content: string | readonly OpenAIContentPart[];
}

export interface OpenAIChatMessage {
  readonly role: string;
  readonly content?: unknown;
  readonly tool_calls?: readonly OpenAIToolCall[];
  readonly tool_call_id?: string;
}

export interface OpenAIBudgetOutcome<Message extends OpenAIChatMessage> {
  readonly messages: Message[];
  readonly newlyReplaced: ReplacementRecord[];
}

/** Tool names by tool-call id, from the `tool_calls` of assistant messages. */
export function openAIToolNames(messages: Iterable<OpenAIChatMessage>): Map<string, string> {
  const names = new Map<string, string>();
  for (const message of messages) {
    if (message.role !== 'assistant' || !Array.isArray(message.tool_calls)) continue;
    for (const call of message.tool_calls) {
      if (typeof call?.id !== 'string') continue;
      const name = call.function?.name ?? call.custom?.name;
      if (typeof name === 'string') names.set(call.id, name);
    }
  }
  return names;
}

/** The `tool_call_id` of every tool message, in transcript order: the `toolUseIds` for `reconstructReplacementState`. */
export function openAIToolCallIds(messages: Iterable<OpenAIChatMessage>): string[] {
  const ids: string[] = [];
  for (const message of messages) {
    if (isOpenAIToolMessage(message)) ids.push(message.tool_call_id);
  }
  return ids;
}

/**
 * Applies the budget to the tool messages that answer one assistant message
 * (the budget's "message" is that group). Other messages in `messages` pass
 * through untouched; a replaced tool message's content becomes the
 * replacement, as a string or a single text part to match its shape.
 */
export async function applyToolResultBudgetToOpenAIMessages<Message extends OpenAIChatMessage>(
  messages: readonly Message[],
  state: ReplacementState,
  options: AdapterBudgetOptions,
): Promise<OpenAIBudgetOutcome<Message>> {
  const inputs: PositionedInput[] = [];
  messages.forEach((message, position) => {
    if (!isOpenAIToolMessage(message)) return;
    const text = textOfParts(message.content, 'text');
    if (text === undefined) return;
    inputs.push({
      toolUseId: message.tool_call_id,
      toolName: toolNameOf(options.toolNames, message.tool_call_id),
      content: text,
      position,
    });
  });
  const { replacedAt, newlyReplaced } = await budgetByPosition(inputs, state, options);
  const output = messages.map((message, position) => {
    const replacement = replacedAt.get(position);
    if (replacement === undefined || !isOpenAIToolMessage(message)) return message;
    return {
      ...message,
      content: typeof message.content === 'string' ? replacement : [{ type: 'text', text: replacement }],
    };
  });
  return { messages: output, newlyReplaced };
}

function isOpenAIToolMessage(message: OpenAIChatMessage): message is OpenAIChatMessage & OpenAIToolMessage {
  return message.role === 'tool' && typeof message.tool_call_id === 'string';
}

/**
 * The text of a string or of a list of text parts (`textType`), joined with
 * newlines; undefined when any part is not text (never persisted).
 */
export function textOfParts(content: unknown, textType: string): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const texts: string[] = [];
  for (const part of content as unknown[]) {
    const candidate = part as Partial<OpenAIContentPart> | null;
    if (candidate?.type !== textType || typeof candidate.text !== 'string') return undefined;
    texts.push(candidate.text);
  }
  return texts.join('\n');
}

// ---------------------------------------------------------------------------
// OpenAI Responses input items

/** Any Responses input item: messages, tool calls, tool outputs, reasoning… (`type` is optional on an easy input message). */
export interface OpenAIResponsesInputItem {
  readonly type?: string | null;
}

/** A `function_call` or `custom_tool_call` item: the call that names the tool. */
export interface OpenAIResponsesToolCallItem extends OpenAIResponsesInputItem {
  readonly type: 'function_call' | 'custom_tool_call';
  readonly call_id: string;
  readonly name: string;
}

/** A content part of a tool output: `input_text`, `input_image`, `input_file` (only text is persisted). */
export interface OpenAIResponsesOutputPart {
  readonly type: string;
  readonly text?: string;
}

/** A `function_call_output` or `custom_tool_call_output` item: a tool's result. */
export interface OpenAIResponsesToolOutputItem extends OpenAIResponsesInputItem {
  readonly type: 'function_call_output' | 'custom_tool_call_output';
  readonly call_id?: string | null;
  readonly output: string | readonly OpenAIResponsesOutputPart[];
}

export interface OpenAIResponsesBudgetOutcome<Item extends OpenAIResponsesInputItem> {
  readonly items: Item[];
  readonly newlyReplaced: ReplacementRecord[];
}

/** Tool names by call id, from the `function_call` and `custom_tool_call` items. */
export function openAIResponsesToolNames(items: Iterable<OpenAIResponsesInputItem>): Map<string, string> {
  const names = new Map<string, string>();
  for (const item of items) {
    if (item.type !== 'function_call' && item.type !== 'custom_tool_call') continue;
    const call = item as Partial<OpenAIResponsesToolCallItem>;
    if (typeof call.call_id === 'string' && typeof call.name === 'string') names.set(call.call_id, call.name);
  }
  return names;
}

/** The `call_id` of every tool output item, in input order: the `toolUseIds` for `reconstructReplacementState`. */
export function openAIResponsesToolCallIds(items: Iterable<OpenAIResponsesInputItem>): string[] {
  const ids: string[] = [];
  for (const item of items) {
    if (isResponsesToolOutput(item)) ids.push(item.call_id);
  }
  return ids;
}

/**
 * Applies the budget to the tool output items that answer one model
 * response (the budget's "message" is that group). Other items pass through
 * untouched; a replaced output becomes the replacement, as a string or a
 * single `input_text` part to match its shape.
 */
export async function applyToolResultBudgetToOpenAIResponsesInput<Item extends OpenAIResponsesInputItem>(
  items: readonly Item[],
  state: ReplacementState,
  options: AdapterBudgetOptions,
): Promise<OpenAIResponsesBudgetOutcome<Item>> {
  const inputs: PositionedInput[] = [];
  items.forEach((item, position) => {
    if (!isResponsesToolOutput(item)) return;
    const text = textOfParts(item.output, 'input_text');
    if (text === undefined) return;
    inputs.push({ toolUseId: item.call_id, toolName: toolNameOf(options.toolNames, item.call_id), content: text, position });
  });
  const { replacedAt, newlyReplaced } = await budgetByPosition(inputs, state, options);
  const output = items.map((item, position) => {
    const replacement = replacedAt.get(position);
    if (replacement === undefined || !isResponsesToolOutput(item)) return item;
    return { ...item, output: typeof item.output === 'string' ? replacement : [{ type: 'input_text', text: replacement }] };
  });
  return { items: output, newlyReplaced };
}

function isResponsesToolOutput(item: OpenAIResponsesInputItem): item is OpenAIResponsesToolOutputItem & { readonly call_id: string } {
  return (
    (item.type === 'function_call_output' || item.type === 'custom_tool_call_output') &&
    typeof (item as Partial<OpenAIResponsesToolOutputItem>).call_id === 'string' &&
    (item as Partial<OpenAIResponsesToolOutputItem>).call_id !== ''
  );
}

/** A budget input and where its block or message sits in what the adapter was given. */
interface PositionedInput {
  readonly toolUseId: string;
  readonly toolName: string;
  readonly content: string;
  readonly position: number;
}

/**
 * Runs the budget and says which positions got a replacement. By position,
 * never by id: two results may share an id (one of them image-bearing, which
 * the budget never sees), and a replacement keyed by id would overwrite the
 * other one.
 */
async function budgetByPosition(
  inputs: readonly PositionedInput[],
  state: ReplacementState,
  options: AdapterBudgetOptions,
): Promise<{ replacedAt: Map<number, string>; newlyReplaced: ReplacementRecord[] }> {
  const { results, newlyReplaced } = await applyToolResultBudget(inputs, state, options);
  const replacedAt = new Map<number, string>();
  results.forEach((result, index) => {
    const input = inputs[index] as PositionedInput;
    if (result.content !== input.content) replacedAt.set(input.position, result.content);
  });
  return { replacedAt, newlyReplaced };
}

function toolNameOf(toolNames: ToolNameLookup, toolUseId: string): string {
  const name = toolNames.get(toolUseId);
  if (name === undefined) {
    throw new TypeError(
      `No tool call with id ${JSON.stringify(toolUseId)} in options.toolNames: ` +
        `build it from the assistant messages with anthropicToolNames(history) or openAIToolNames(history), ` +
        `including the message that made this call.`,
    );
  }
  return name;
}
