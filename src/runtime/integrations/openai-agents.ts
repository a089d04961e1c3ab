/**
 * The OpenAI Agents SDK (`@openai/agents`): a `callModelInputFilter`, the
 * run option the SDK calls with the input items just before every model
 * call, that budgets the `function_call_result` items.
 *
 * ```ts
 * const budget = toolResultBudgetFilter({ store, tools: [readFile, bash], querySource: 'repl_main_thread' });
 * await run(agent, input, { callModelInputFilter: budget });
 * ```
 *
 * The filter is the session: its state carries every decision across the
 * turns of one run and across runs (frozen fates), `fork()` gives a
 * subagent a clone, and `state` (with `openAIAgentsToolCallIds` and the
 * records from `onRecord`) rebuilds it on resume. The run's `history`
 * keeps the original outputs; the model sees the replacements.
 *
 * `@openai/agents` is an optional peer: this module imports its types only.
 */
import type { AgentInputItem, CallModelInputFilter, FunctionCallResultItem, Model, ModelRequest } from '@openai/agents';

import type { ReplacementState } from '../replacement-state.js';
import { textOfParts } from '../adapters.js';
import { ToolResultBudgetSession, type BudgetForkOptions, type SessionInput, type ToolResultBudgetSessionOptions } from './session.js';

export type ToolResultBudgetFilterOptions = ToolResultBudgetSessionOptions;

// The filter never reads the run's context, so it fits a run of any context
// type (`run<Context>(…)`); `unknown` would fit only runs without one.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyContextFilter = CallModelInputFilter<any>;
type FilterArguments = Parameters<AnyContextFilter>[0];
type ModelInputData = FilterArguments['modelData'];

/** The input filter, and the session it keeps. */
export type ToolResultBudgetInputFilter = AnyContextFilter & {
  /** The filter treats every item as immutable (it builds new items for replacements), so the SDK need not copy them. */
  readonly preserveInputIdentity: true;
  /** Every decision so far (read-only views). */
  readonly state: ReplacementState;
  /** A filter for a fork or subagent: a clone of this state, with `overrides` applied. */
  fork(overrides?: BudgetForkOptions): ToolResultBudgetInputFilter;
  /**
   * The same session as a model wrapper: `new Agent({ model: budget.wrapModel(model) })`
   * budgets `request.input` before every call of `model`. Use one or the
   * other for a run, not both. Cheaper than the filter: the SDK deep-copies
   * the input (twice per turn) for any `callModelInputFilter`, none for a
   * model (`npm run bench`, docs/performance.md).
   */
  wrapModel(model: Model): Model;
};

/**
 * Items that carry no tool output the budget could shrink: passed through
 * without a report. Any other item but `function_call_result` is reported
 * once (`onUnhandledPart`).
 */
const ITEMS_WITHOUT_TEXT_RESULTS: ReadonlySet<unknown> = new Set([
  undefined,
  'message',
  'function_call',
  'reasoning',
  'compaction',
  'hosted_tool_call',
  'computer_call',
  // A screenshot: an image, never persisted.
  'computer_call_result',
  'shell_call',
  'apply_patch_call',
  'apply_patch_call_output',
  'tool_search_call',
  'tool_search_output',
  'program',
]);

/** Tool results the SDK knows that this filter does not budget (yet): reported, left as they are. */
const UNBUDGETED_RESULTS: ReadonlySet<unknown> = new Set(['shell_call_output', 'program_output']);

/**
 * A `callModelInputFilter` for `run(agent, input, { callModelInputFilter })`
 * (or `new Runner({ callModelInputFilter })`) that budgets the
 * `function_call_result` items of every model call: a result over its tool's
 * threshold, or the largest of one response's results over
 * `perMessageLimit`, is persisted and replaced by its `<persisted-output>`
 * preview; self-reading tools (classified `UNBOUNDED`) are never persisted.
 *
 * `tools` lists the agent's tools wrapped in `classifyTool` (or `{ name,
 * maxResultSizeChars }`). An item the filter does not understand passes
 * through unchanged and is reported once (`onUnhandledPart`); a failed
 * persist keeps the result inline and is reported (`onPersistError`).
 */
export function toolResultBudgetFilter(options: ToolResultBudgetFilterOptions): ToolResultBudgetInputFilter {
  return filterFor(new ToolResultBudgetSession('openai-agents', options));
}

function filterFor(session: ToolResultBudgetSession): ToolResultBudgetInputFilter {
  // A turn whose results need no persisting is answered without awaiting anything.
  const filter = async ({ modelData }: FilterArguments): Promise<ModelInputData> => {
    const budgeted = budgetItems(session, modelData.input, 0, undefined);
    const input = Array.isArray(budgeted) ? budgeted : await budgeted;
    return input === modelData.input ? modelData : { ...modelData, input };
  };
  const budgetRequest = (request: ModelRequest): ModelRequest | Promise<ModelRequest> => {
    if (typeof request.input === 'string') return request;
    const budgeted = budgetItems(session, request.input, 0, undefined);
    if (Array.isArray(budgeted)) return budgeted === request.input ? request : { ...request, input: budgeted };
    return budgeted.then((input) => (input === request.input ? request : { ...request, input }));
  };
  return Object.freeze(
    Object.defineProperties(filter, {
      preserveInputIdentity: { value: true, enumerable: true },
      state: { get: () => session.state, enumerable: true },
      fork: {
        value: (overrides?: BudgetForkOptions) => filterFor(new ToolResultBudgetSession('openai-agents', session.forkOptions(overrides))),
        enumerable: true,
      },
      wrapModel: { value: (model: Model) => wrapModel(model, budgetRequest), enumerable: true },
    }),
  ) as unknown as ToolResultBudgetInputFilter;
}

/**
 * A Model that budgets each request's input, then calls `model`. Every
 * member of the Model interface is delegated to `model` itself (bound), so a
 * model class with private fields keeps working.
 */
function wrapModel(model: Model, budgetRequest: (request: ModelRequest) => ModelRequest | Promise<ModelRequest>): Model {
  if (typeof model !== 'object' || model === null || typeof model.getResponse !== 'function') {
    throw new TypeError(
      'wrapModel(model): model must be a Model instance (getResponse, getStreamedResponse); ' +
        'for a model name, wrap what the provider returns: budget.wrapModel(await provider.getModel(name)).',
    );
  }
  const wrapped: Model = {
    // Async, so that a request that cannot be budgeted rejects rather than throws.
    getResponse: async (request) => {
      const budgeted = budgetRequest(request);
      return model.getResponse(budgeted instanceof Promise ? await budgeted : budgeted);
    },
    getStreamedResponse: async function* (request) {
      const budgeted = budgetRequest(request);
      yield* model.getStreamedResponse(budgeted instanceof Promise ? await budgeted : budgeted);
    },
  };
  if (model.supportsPromptModelSelection !== undefined) {
    Object.defineProperty(wrapped, 'supportsPromptModelSelection', { get: () => model.supportsPromptModelSelection, enumerable: true });
  }
  if (typeof model.getRetryAdvice === 'function') wrapped.getRetryAdvice = model.getRetryAdvice.bind(model);
  return wrapped;
}

/**
 * The `callId` of every `function_call_result` in `items` (a run's
 * `history`, or the session's items), in order: the `toolUseIds` for
 * `reconstructReplacementState` on resume.
 */
export function openAIAgentsToolCallIds(items: Iterable<AgentInputItem>): string[] {
  const ids: string[] = [];
  for (const item of items) {
    if (item.type === 'function_call_result' && typeof item.callId === 'string' && item.callId !== '') ids.push(item.callId);
  }
  return ids;
}

/**
 * The items with each run of consecutive `function_call_result` items (the
 * results of one model response: the budget's "message") budgeted, from
 * `items[from]` on (`output`: the replacements made before it); the same
 * array when nothing was replaced. Runs go to the budget in order, each once
 * the one before is done; synchronous unless one of them persists.
 */
function budgetItems(
  session: ToolResultBudgetSession,
  items: AgentInputItem[],
  from: number,
  output: AgentInputItem[] | undefined,
): AgentInputItem[] | Promise<AgentInputItem[]> {
  let runStart = -1;
  for (let index = from; index <= items.length; index += 1) {
    const item = items[index] as { type?: unknown } | undefined;
    const type = item?.type;
    if (index < items.length && type === 'function_call_result') {
      if (runStart < 0) runStart = index;
      continue;
    }
    if (runStart >= 0) {
      const replaced = budgetRun(session, items, runStart, index);
      if (replaced instanceof Promise) return budgetItemsLater(session, items, index, output, replaced);
      output = withReplaced(items, output, replaced);
      runStart = -1;
    }
    reportUnbudgeted(session, items, index);
  }
  return output ?? items;
}

/** `budgetItems` once the run that ends before `items[end]` is budgeted. */
async function budgetItemsLater(
  session: ToolResultBudgetSession,
  items: AgentInputItem[],
  end: number,
  output: AgentInputItem[] | undefined,
  pending: Promise<Map<number, AgentInputItem> | undefined>,
): Promise<AgentInputItem[]> {
  const replaced = withReplaced(items, output, await pending);
  reportUnbudgeted(session, items, end);
  return budgetItems(session, items, end + 1, replaced);
}

function withReplaced(
  items: AgentInputItem[],
  output: AgentInputItem[] | undefined,
  replaced: Map<number, AgentInputItem> | undefined,
): AgentInputItem[] | undefined {
  if (replaced === undefined) return output;
  const replacedItems = output ?? items.slice();
  for (const [position, replacement] of replaced) replacedItems[position] = replacement;
  return replacedItems;
}

/** Reports `items[index]` when it is an item whose text this filter does not budget. */
function reportUnbudgeted(session: ToolResultBudgetSession, items: AgentInputItem[], index: number): void {
  if (index >= items.length) return;
  const item = items[index] as { type?: unknown };
  const type = item.type;
  if (ITEMS_WITHOUT_TEXT_RESULTS.has(type)) return;
  const reason = UNBUDGETED_RESULTS.has(type) ? 'unsupported-result-type' : 'unknown-part-type';
  const callId = (item as { callId?: unknown }).callId;
  session.report({ reason, type: String(type), toolCallId: typeof callId === 'string' ? callId : undefined, part: item });
}

/** The replaced items of `items[start..end)`, by position; undefined when none was replaced. Synchronous unless one is persisted. */
function budgetRun(
  session: ToolResultBudgetSession,
  items: readonly AgentInputItem[],
  start: number,
  end: number,
): Map<number, AgentInputItem> | undefined | Promise<Map<number, AgentInputItem> | undefined> {
  const inputs: SessionInput[] = [];
  const positions: number[] = [];
  for (let position = start; position < end; position += 1) {
    const item = items[position] as FunctionCallResultItem;
    if (typeof item.callId !== 'string' || item.callId === '' || typeof item.name !== 'string') {
      session.report({ reason: 'malformed-part', type: 'function_call_result', part: item });
      continue;
    }
    const content = textOfOutput(session, item);
    if (content === undefined) continue;
    inputs.push({ toolUseId: item.callId, toolName: item.name, content, part: item, type: outputType(item.output) });
    positions.push(position);
  }
  if (inputs.length === 0) return undefined;
  const decided = session.budgetMessage(inputs);
  if (Array.isArray(decided)) return replacedItems(items, positions, decided);
  return decided.then((shown) => replacedItems(items, positions, shown));
}

function replacedItems(
  items: readonly AgentInputItem[],
  positions: readonly number[],
  shown: ReadonlyArray<string | undefined>,
): Map<number, AgentInputItem> | undefined {
  let replaced: Map<number, AgentInputItem> | undefined;
  for (let index = 0; index < shown.length; index += 1) {
    const replacement = shown[index];
    if (replacement === undefined) continue;
    const position = positions[index] as number;
    const item = items[position] as FunctionCallResultItem;
    (replaced ??= new Map()).set(position, { ...item, output: replacedOutput(item.output, replacement) });
  }
  return replaced;
}

/** The text of a tool's output, or undefined for an image or file (never persisted) or an unknown shape (reported). */
function textOfOutput(session: ToolResultBudgetSession, item: FunctionCallResultItem): string | undefined {
  const output: unknown = item.output;
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) {
    const text = textOfParts(output, 'input_text');
    if (text !== undefined) return text;
    const known = (output as unknown[]).every((part) =>
      ['input_text', 'input_image', 'input_file'].includes(String((part as { type?: unknown } | null)?.type)),
    );
    return known ? undefined : unknownOutput(session, item);
  }
  const type = (output as { type?: unknown } | null)?.type;
  if (type === 'text' && typeof (output as { text?: unknown }).text === 'string') return (output as { text: string }).text;
  if (type === 'image' || type === 'file') return undefined;
  return unknownOutput(session, item);
}

function unknownOutput(session: ToolResultBudgetSession, item: FunctionCallResultItem): undefined {
  session.report({
    reason: 'unknown-output-type',
    type: outputType(item.output),
    toolCallId: item.callId,
    toolName: item.name,
    part: item,
  });
  return undefined;
}

function outputType(output: unknown): string {
  if (typeof output === 'string') return 'string';
  if (Array.isArray(output)) return 'array';
  return String((output as { type?: unknown } | null)?.type);
}

/** The output carrying the replacement, in the shape it replaces (a string, a text output, a list of input parts). */
function replacedOutput(output: FunctionCallResultItem['output'], replacement: string): FunctionCallResultItem['output'] {
  if (typeof output === 'string') return replacement;
  if (Array.isArray(output)) return [{ type: 'input_text', text: replacement }];
  return { ...output, type: 'text', text: replacement };
}
