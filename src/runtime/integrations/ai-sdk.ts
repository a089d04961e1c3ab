/**
 * The AI SDK (`ai`): a language-model middleware that applies the budget to
 * the tool results of every step's prompt.
 *
 * ```ts
 * const budget = toolResultBudget({ store, tools, querySource: 'repl_main_thread' });
 * const model = wrapLanguageModel({ model: openai('gpt-5'), middleware: budget });
 * await generateText({ model, tools, prompt, stopWhen: stepCountIs(20) });
 * ```
 *
 * The middleware is the session: its state carries every decision across
 * the steps of one call and across calls (frozen fates), `fork()` gives a
 * subagent a clone, and `state` (with `aiSdkToolCallIds` and the records
 * from `onRecord`) rebuilds it on resume. The AI SDK keeps the original
 * results in `response.messages`; the model sees the replacements.
 *
 * `ai` is an optional peer: this module imports its types only.
 */
import type { LanguageModelMiddleware } from 'ai';

import type { ReplacementState } from '../replacement-state.js';
import {
  INLINE_AS_IS,
  ToolResultBudgetSession,
  UNDECIDED,
  type BudgetForkOptions,
  type SessionInput,
  type ToolResultBudgetSessionOptions,
} from './session.js';

type TransformParams = NonNullable<LanguageModelMiddleware['transformParams']>;
/** The call options a middleware receives (`LanguageModelV4CallOptions` of the installed `ai`). */
export type AiSdkCallOptions = Parameters<TransformParams>[0]['params'];
export type AiSdkPrompt = AiSdkCallOptions['prompt'];
export type AiSdkPromptMessage = AiSdkPrompt[number];
type ToolMessage = Extract<AiSdkPromptMessage, { role: 'tool' }>;
type ToolMessagePart = ToolMessage['content'][number];
export type AiSdkToolResultPart = Extract<ToolMessagePart, { type: 'tool-result' }>;
type ToolResultOutput = AiSdkToolResultPart['output'];

export type ToolResultBudgetMiddlewareOptions = ToolResultBudgetSessionOptions;

/** The middleware, and the session it keeps. */
export interface ToolResultBudgetMiddleware extends LanguageModelMiddleware {
  readonly specificationVersion: 'v4';
  readonly transformParams: TransformParams;
  /** Every decision so far (read-only views). */
  readonly state: ReplacementState;
  /**
   * A middleware for a fork or subagent: a clone of this state (the child
   * starts with every decision made here; its own stay its own), with
   * `overrides` applied (its `agentId`, `querySource`, `onRecord`…).
   */
  fork(overrides?: BudgetForkOptions): ToolResultBudgetMiddleware;
}

/**
 * A middleware for `wrapLanguageModel` that budgets the tool results of each
 * step's prompt: a result over its tool's threshold, or the largest ones of
 * a message over `perMessageLimit`, is persisted and replaced by its
 * `<persisted-output>` preview; self-reading tools (classified
 * `UNBOUNDED`) are never persisted.
 *
 * `tools` is the tool set given to `generateText` (every entry wrapped in
 * `classifyTool`) or a list of `{ name, maxResultSizeChars }`. A part the
 * middleware does not understand passes through unchanged and is reported
 * once (`onUnhandledPart`); a failed persist keeps the result inline and is
 * reported (`onPersistError`). Neither stops the loop.
 */
export function toolResultBudget(options: ToolResultBudgetMiddlewareOptions): ToolResultBudgetMiddleware {
  return new BudgetMiddleware(new ToolResultBudgetSession('ai-sdk', options));
}

/**
 * The middleware over its session. A class, frozen once made: a conversation
 * makes one, and an object literal with a getter, frozen, costs ten times as
 * much to make (the `state` getter lives on the prototype here).
 */
class BudgetMiddleware implements ToolResultBudgetMiddleware {
  readonly specificationVersion = 'v4' as const;
  readonly transformParams: TransformParams;
  /** An own function too, as before: it still works taken off the middleware (`const { fork } = budget`). */
  readonly fork: (overrides?: BudgetForkOptions) => ToolResultBudgetMiddleware;
  readonly #session: ToolResultBudgetSession;

  constructor(session: ToolResultBudgetSession) {
    this.#session = session;
    const jsonText: JsonTexts = { byOutput: undefined };
    // Not an async function: a step whose results need no persisting is
    // answered with one settled promise (an async function with an await in it
    // costs its suspended frame on every call, awaited or not). Whatever goes
    // wrong still comes back as a rejection, never as a throw. An own property,
    // not a method: `wrapLanguageModel` takes it off the middleware.
    this.transformParams = ({ params }) => {
      try {
        const prompt = budgetPrompt(session, params.prompt, jsonText);
        if (Array.isArray(prompt)) return Promise.resolve(withPrompt(params, prompt));
        return (prompt as Promise<AiSdkPrompt>).then((budgeted) => withPrompt(params, budgeted));
      } catch (error) {
        return Promise.reject(error);
      }
    };
    this.fork = (overrides) => new BudgetMiddleware(new ToolResultBudgetSession('ai-sdk', session.forkOptions(overrides)));
    Object.freeze(this);
  }

  get state(): ReplacementState {
    return this.#session.state;
  }
}

function withPrompt(params: AiSdkCallOptions, prompt: AiSdkPrompt): AiSdkCallOptions {
  return prompt === params.prompt ? params : { ...params, prompt };
}

/**
 * The text `JSON.stringify` gave for each output object: the AI SDK hands the
 * same object to every step. The map is made for the first JSON output; a
 * loop whose tools return text never makes one.
 */
interface JsonTexts {
  byOutput: WeakMap<object, string | null> | undefined;
}

/**
 * The tool-call id of every tool result in `messages` (`response.messages`
 * of each call, or the prompt), in order: the `toolUseIds` for
 * `reconstructReplacementState` on resume.
 */
export function aiSdkToolCallIds(messages: Iterable<{ readonly role: string; readonly content: unknown }>): string[] {
  const ids: string[] = [];
  for (const message of messages) {
    if (message.role !== 'tool' || !Array.isArray(message.content)) continue;
    for (const part of message.content as unknown[]) {
      const candidate = part as { type?: unknown; toolCallId?: unknown } | null;
      if (candidate?.type === 'tool-result' && typeof candidate.toolCallId === 'string' && candidate.toolCallId !== '') {
        ids.push(candidate.toolCallId);
      }
    }
  }
  return ids;
}

/**
 * The prompt with each tool message budgeted; the same array when nothing
 * was replaced. The history the loop re-sends on every step was decided on
 * an earlier step: answered at once, without building the budget's input;
 * only the messages with new results go to the budget, in order, each once
 * the one before is done. Synchronous unless one of them persists.
 */
function budgetPrompt(session: ToolResultBudgetSession, prompt: AiSdkPrompt, jsonText: JsonTexts): AiSdkPrompt | Promise<AiSdkPrompt> {
  let output: AiSdkPromptMessage[] | undefined;
  let undecided: number[] | undefined;
  for (let index = 0; index < prompt.length; index += 1) {
    const message = prompt[index] as AiSdkPromptMessage;
    if (message.role !== 'tool') continue;
    const reapplied = reapplyDecided(session, message, jsonText);
    if (reapplied === undefined) undecided = withItem(undecided, index);
    else if (reapplied !== message) (output ??= prompt.slice())[index] = reapplied;
  }
  if (undecided === undefined) return output ?? prompt;
  for (let at = 0; at < undecided.length; at += 1) {
    const index = undecided[at] as number;
    const message = prompt[index] as ToolMessage;
    const budgeted = budgetToolMessage(session, message, jsonText);
    if (!isToolMessage(budgeted)) return budgetRestLater(session, prompt, jsonText, output, undecided, at, budgeted);
    if (budgeted !== message) (output ??= prompt.slice())[index] = budgeted;
  }
  return output ?? prompt;
}

function isToolMessage(budgeted: ToolMessage | Promise<ToolMessage>): budgeted is ToolMessage {
  return !(budgeted instanceof Promise);
}

/** `budgetPrompt` from `undecided[at]` on, once that message's persisting is done. */
async function budgetRestLater(
  session: ToolResultBudgetSession,
  prompt: AiSdkPrompt,
  jsonText: JsonTexts,
  output: AiSdkPromptMessage[] | undefined,
  undecided: readonly number[],
  at: number,
  pending: Promise<ToolMessage>,
): Promise<AiSdkPrompt> {
  let budgeted: ToolMessage | Promise<ToolMessage> = pending;
  for (let next = at; next < undecided.length; next += 1) {
    const index = undecided[next] as number;
    const message = prompt[index] as ToolMessage;
    if (next > at) budgeted = budgetToolMessage(session, message, jsonText);
    const shown = isToolMessage(budgeted) ? budgeted : await budgeted;
    if (shown !== message) (output ??= prompt.slice())[index] = shown;
  }
  return output ?? prompt;
}

/** The message with every result's earlier decision applied, or undefined when one of them has none. */
function reapplyDecided(session: ToolResultBudgetSession, message: ToolMessage, jsonText: JsonTexts): ToolMessage | undefined {
  let content: ToolMessagePart[] | undefined;
  const parts = message.content;
  for (let position = 0; position < parts.length; position += 1) {
    const part = parts[position] as ToolMessagePart;
    if (part.type !== 'tool-result') return undefined;
    const output = part.output as ToolResultOutput | null | undefined;
    const text =
      output?.type === 'text' ? output.value : output === null || typeof output !== 'object' ? undefined : jsonText.byOutput?.get(output);
    if (typeof text !== 'string') return undefined;
    const shown = session.decided(part.toolCallId, text);
    if (shown === UNDECIDED) return undefined;
    if (shown === INLINE_AS_IS) continue;
    content ??= parts.slice();
    content[position] = { ...part, output: replacedOutput(part.output, shown) };
  }
  return content === undefined ? message : { ...message, content };
}

/** The message with its results budgeted; synchronous unless one of them is persisted. */
function budgetToolMessage(
  session: ToolResultBudgetSession,
  message: ToolMessage,
  jsonText: JsonTexts,
): ToolMessage | Promise<ToolMessage> {
  let inputs: SessionInput[] | undefined;
  let positions: number[] | undefined;
  const parts = message.content as readonly unknown[];
  for (let position = 0; position < parts.length; position += 1) {
    const part = parts[position] as { type?: unknown } | null;
    const type = typeof part === 'object' && part !== null ? part.type : undefined;
    if (type === 'tool-approval-response') continue;
    if (type !== 'tool-result') {
      session.report({ reason: 'unknown-part-type', type: String(type), part });
      continue;
    }
    const result = part as AiSdkToolResultPart;
    if (typeof result.toolCallId !== 'string' || result.toolCallId === '' || typeof result.toolName !== 'string') {
      session.report({ reason: 'malformed-part', type: 'tool-result', part });
      continue;
    }
    const content = textOfOutput(session, result, jsonText);
    if (content === undefined) continue;
    inputs = withItem(inputs, { toolUseId: result.toolCallId, toolName: result.toolName, content, part, type: outputType(result) });
    positions = withItem(positions, position);
  }
  if (inputs === undefined) return message;
  const at = positions as number[];
  const decided = session.budgetMessage(inputs);
  if (Array.isArray(decided)) return withReplacements(message, at, decided);
  return decided.then((shown) => withReplacements(message, at, shown));
}

/**
 * `list` with `item` pushed, or a list of `item` alone: a message usually
 * holds one new result, and a first push into `[]` reserves room for 17.
 */
function withItem<Item>(list: Item[] | undefined, item: Item): Item[] {
  if (list === undefined) return [item];
  list.push(item);
  return list;
}

/** The message with the replacements shown for its results (by input position) in place; the same message when none was. */
function withReplacements(message: ToolMessage, positions: readonly number[], shown: ReadonlyArray<string | undefined>): ToolMessage {
  let content: ToolMessagePart[] | undefined;
  for (let index = 0; index < shown.length; index += 1) {
    const replacement = shown[index];
    if (replacement === undefined) continue;
    const position = positions[index] as number;
    content ??= message.content.slice();
    const part = content[position] as AiSdkToolResultPart;
    content[position] = { ...part, output: replacedOutput(part.output, replacement) };
  }
  return content === undefined ? message : { ...message, content };
}

/**
 * The text the model gets for a tool result, or undefined when it is not
 * text (a file or image part: never persisted) or there is none. JSON is
 * measured as the providers send it, `JSON.stringify`, once per output
 * object: the AI SDK hands the same object to every step.
 */
function textOfOutput(session: ToolResultBudgetSession, part: AiSdkToolResultPart, jsonText: JsonTexts): string | undefined {
  const output = part.output as ToolResultOutput | null | undefined;
  switch (output?.type) {
    case 'text':
    case 'error-text':
      return typeof output.value === 'string' ? output.value : unknownOutput(session, part);
    case 'json':
    case 'error-json':
    case 'content': {
      let text = jsonText.byOutput?.get(output);
      if (text === undefined) {
        text = output.type === 'content' ? textOfContent(output.value) : (JSON.stringify(output.value) ?? null);
        (jsonText.byOutput ??= new WeakMap()).set(output, text);
      }
      return text ?? undefined;
    }
    case 'execution-denied':
      return undefined;
    default:
      return unknownOutput(session, part);
  }
}

function unknownOutput(session: ToolResultBudgetSession, part: AiSdkToolResultPart): undefined {
  session.report({ reason: 'unknown-output-type', type: outputType(part), toolCallId: part.toolCallId, toolName: part.toolName, part });
  return undefined;
}

function outputType(part: AiSdkToolResultPart): string {
  const output = part.output as { type?: unknown } | null | undefined;
  return String(output?.type);
}

/** The text of a `content` output that holds only text parts, joined with newlines; null otherwise. */
function textOfContent(value: unknown): string | null {
  if (!Array.isArray(value)) return null;
  const texts: string[] = [];
  for (const item of value as unknown[]) {
    const candidate = item as { type?: unknown; text?: unknown } | null;
    if (candidate?.type !== 'text' || typeof candidate.text !== 'string') return null;
    texts.push(candidate.text);
  }
  return texts.join('\n');
}

/** The output that carries the replacement, in the kind of output it replaces (text, error text, content). */
function replacedOutput(output: ToolResultOutput, replacement: string): ToolResultOutput {
  const providerOptions =
    'providerOptions' in output && output.providerOptions !== undefined ? { providerOptions: output.providerOptions } : {};
  switch (output.type) {
    case 'error-text':
    case 'error-json':
      return { type: 'error-text', value: replacement, ...providerOptions };
    case 'content':
      return { type: 'content', value: [{ type: 'text', text: replacement }] };
    default:
      return { type: 'text', value: replacement, ...providerOptions };
  }
}
