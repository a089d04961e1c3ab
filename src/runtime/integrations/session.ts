/**
 * One budget session: what every framework integration (AI SDK middleware,
 * OpenAI Agents input filter, MCP client guard) keeps between the steps of
 * an agent loop. It owns the replacement state (frozen fates across steps,
 * calls, forks and resumes), the tools' classification, and the reports of
 * parts it does not understand; the integrations only translate their
 * framework's shapes to `{ toolUseId, toolName, content }` and back.
 *
 * Imports no framework: each integration module imports its framework's
 * types only (`import type`), so none of them is loaded at run time.
 */
import {
  budgetCheckedResults,
  checkResults,
  checkStore,
  resolveThresholds,
  type ToolResultBudgetOptions,
  type ToolResultInput,
  type ToolUseIdReuse,
} from '../budget.js';
import { classifiedThresholdTool, getToolClassification } from '../classify-tool.js';
import { UnclassifiedToolInSetError, describeValue } from '../errors.js';
import { isPersistedOutput } from '../persisted-output.js';
import {
  adoptReplacementState,
  cloneReplacementState,
  createReplacementState,
  internalsOf,
  type ReplacementRecord,
  type ReplacementState,
  type StateInternals,
} from '../replacement-state.js';
import { shouldPersistForSession } from '../session-scope.js';
import type { ToolResultBudgetStore } from '../store.js';
import { UNBOUNDED, getEffectivePersistenceThreshold, type PersistenceOverrides, type PersistenceThresholdTool } from '../threshold.js';
import type { ForkableState } from '../../types/brands.js';

/** The per-message limit when none is given: 200,000 characters, about 50,000 tokens. */
export const DEFAULT_PER_MESSAGE_LIMIT = 200_000;

/**
 * The tools: a list (`{ name, maxResultSizeChars }` entries, or framework
 * tools wrapped in `classifyTool`), or a framework's tool set keyed by the
 * names the model calls them by (the AI SDK's `tools`), every entry
 * classified with `classifyTool`.
 */
export type BudgetTools = Iterable<PersistenceThresholdTool | object> | Readonly<Record<string, object>>;

/** Which integration met a part it left alone. */
export type BudgetIntegration = 'ai-sdk' | 'openai-agents' | 'mcp-client';

/**
 * Why a part was left as it is:
 * - `unknown-part-type`: a part or item type the integration does not know
 *   (a newer SDK, a provider-specific shape);
 * - `unknown-output-type`: a tool result whose output has a shape the
 *   integration does not know;
 * - `unsupported-result-type`: a kind of tool result the integration knows
 *   but does not budget (e.g. an OpenAI Agents `shell_call_output`);
 * - `malformed-part`: a tool result without a usable call id;
 * - `unclassified-tool`: a result of a tool missing from `tools` (it stays
 *   inline and counts toward the message, as a self-reading tool would:
 *   what nobody classified is never persisted).
 */
export type UnhandledPartReason =
  'unknown-part-type' | 'unknown-output-type' | 'unsupported-result-type' | 'malformed-part' | 'unclassified-tool';

/** A part passed through unchanged, reported once per session. */
export interface UnhandledPart {
  readonly integration: BudgetIntegration;
  readonly reason: UnhandledPartReason;
  /** The part's, item's or output's `type` as found (`String(...)` of it). */
  readonly type: string;
  readonly toolCallId?: string;
  readonly toolName?: string;
  /** The part itself, as found. */
  readonly part: unknown;
}

export interface ToolResultBudgetSessionOptions {
  /** Where replaced results go; `ToolResultStore` or anything with the same `persist`. */
  readonly store: ToolResultBudgetStore;
  readonly tools: BudgetTools;
  /** Who is asking; only owned sessions (`repl_main_thread…`, `agent:…`) persist. */
  readonly querySource: string;
  /** Characters one message of tool results may hold; default `DEFAULT_PER_MESSAGE_LIMIT`. */
  readonly perMessageLimit?: number;
  readonly overrides?: PersistenceOverrides;
  /** Receives each new replacement's record; log it to the transcript for resume. */
  readonly onRecord?: (record: ReplacementRecord) => void;
  readonly onPersistError?: (error: unknown, toolUseId: string) => void;
  readonly onToolUseIdReused?: (reuse: ToolUseIdReuse) => void;
  /** Binds the state to this agent on first use. */
  readonly agentId?: string;
  /**
   * The state to start from: `cloneReplacementState(parent)` for a fork
   * (or the integration's own `fork()`), `reconstructReplacementState(ids,
   * records)` on resume. Without it, a fresh state.
   */
  readonly state?: ForkableState<ReplacementState>;
  /**
   * Told once per session about each part left as it is (see
   * `UnhandledPart`). Without it, each becomes a process warning (code
   * `TOOL_RESULT_GUARD_UNHANDLED_PART`). Never thrown: an agent loop does not
   * stop for a shape it could not budget.
   */
  readonly onUnhandledPart?: (part: UnhandledPart) => void;
}

/** What a fork may change; everything else is the parent's. */
export type BudgetForkOptions = Partial<Omit<ToolResultBudgetSessionOptions, 'state' | 'store' | 'tools'>>;

/** `decided(…)`: never judged with this content (a fresh result, or an id reused with other content). */
export const UNDECIDED: unique symbol = Symbol('undecided');
/** `decided(…)`: judged, and shown as it is. */
export const INLINE_AS_IS: unique symbol = Symbol('inline as is');

/** One result of a message, as an integration found it. */
export interface SessionInput {
  readonly toolUseId: string;
  readonly toolName: string;
  readonly content: string;
  /** The framework part it came from, for a report. */
  readonly part: unknown;
  readonly type: string;
}

/**
 * The last content seen under an id and what the model was shown for it:
 * the content itself when it stays inline (most results: no object to make
 * for them), or the content and its replacement.
 */
type Decided = string | { readonly content: string; readonly shown: string };

export class ToolResultBudgetSession {
  readonly integration: BudgetIntegration;
  readonly options: ToolResultBudgetSessionOptions;
  readonly #state: ReplacementState;
  readonly #internals: StateInternals;
  #budgetOptions: ToolResultBudgetOptions;
  /** `shouldPersistForSession(querySource)`: the query source never changes. */
  readonly #owned: boolean;
  /**
   * The tools the budget resolves, one entry per name, frozen (so the budget
   * resolves their thresholds once); replaced by a longer list when an
   * unclassified name arrives.
   */
  #tools: readonly PersistenceThresholdTool[];
  /**
   * Each tool's threshold by name (every classified name, and each
   * unclassified one met since, `UNBOUNDED`), resolved under the overrides
   * when the session was made: the budget's thresholds on every step unless
   * the overrides may change in place (`#overridesMayChange`).
   */
  #thresholds: ReadonlyMap<string, number>;
  /** Overrides that are not frozen (flags refreshed in place): resolved on every call, as the budget itself would. */
  readonly #overridesMayChange: boolean;
  /** Made on the first report: most sessions never make one. */
  #reported: Set<string> | undefined;
  /**
   * Decisions already taken, by id. An agent loop sends the whole history on
   * every step; a fate is frozen, so the same id with the same content (the
   * same string, compared by reference first) needs no second judgement, no
   * hashing and no await. Any other content goes back to the budget.
   */
  readonly #decided = new Map<string, Decided>();

  constructor(integration: BudgetIntegration, options: ToolResultBudgetSessionOptions) {
    if (typeof options !== 'object' || options === null) {
      throw new TypeError(`${integration}: options must be { store, tools, querySource, perMessageLimit? }.`);
    }
    this.integration = integration;
    this.options = options;
    const { tools, thresholds } = normalizeTools(options.tools, options.overrides, integration);
    this.#tools = Object.freeze(tools);
    this.#thresholds = thresholds;
    this.#overridesMayChange = options.overrides !== null && options.overrides !== undefined && !Object.isFrozen(options.overrides);
    const perMessageLimit = options.perMessageLimit ?? DEFAULT_PER_MESSAGE_LIMIT;
    if (typeof perMessageLimit !== 'number' || Number.isNaN(perMessageLimit) || perMessageLimit < 0) {
      throw new TypeError(
        `${integration}: perMessageLimit must be a number >= 0 (characters per message), got ${describeValue(perMessageLimit)}.`,
      );
    }
    if (typeof options.querySource !== 'string') {
      throw new TypeError(
        `${integration}: querySource must be a string such as "repl_main_thread" or "agent:<name>", got ${describeValue(options.querySource)}.`,
      );
    }
    this.#owned = shouldPersistForSession(options.querySource);
    if (this.#owned && lacksPersist(options.store)) {
      throw new TypeError(`${integration}: store must have persist(toolUseId, content); pass a ToolResultStore.`);
    }
    this.#state = options.state === undefined ? createReplacementState() : adoptReplacementState(options.state, options.agentId);
    this.#internals = internalsOf(this.#state);
    this.#budgetOptions = {
      store: options.store,
      tools: this.#tools,
      perMessageLimit,
      querySource: options.querySource,
      overrides: options.overrides,
      onRecord: options.onRecord,
      onPersistError: options.onPersistError,
      onToolUseIdReused: options.onToolUseIdReused,
      agentId: options.agentId,
    };
  }

  /** The session's replacement state (read-only views); fork with `fork()`, never by sharing it. */
  get state(): ReplacementState {
    return this.#state;
  }

  /** The options of a child session: this one's, with `overrides` applied and a clone of the state. */
  forkOptions(overrides: BudgetForkOptions = {}): ToolResultBudgetSessionOptions {
    if (overrides.agentId !== undefined && overrides.agentId === this.options.agentId) {
      throw new TypeError(
        `${this.integration}: fork({ agentId }) needs the child's own agentId; ${JSON.stringify(overrides.agentId)} is the parent's.`,
      );
    }
    return { ...this.options, ...stripAgentId(this.options, overrides), state: cloneReplacementState(this.#state) };
  }

  /**
   * The replacement for each result of one message, by position (undefined:
   * inline). When every result was decided before with the same content, the
   * answer is synchronous; otherwise the whole message goes to the budget, so
   * its size accounting is the same as on the first step, a fork or a resume.
   */
  budgetMessage(inputs: readonly SessionInput[]): Array<string | undefined> | Promise<Array<string | undefined>> {
    // Made for the first replacement found: a message of fresh results goes to the budget without one.
    let shown: Array<string | undefined> | undefined;
    let allDecided = true;
    for (let index = 0; index < inputs.length; index += 1) {
      const input = inputs[index] as SessionInput;
      if (!this.#thresholds.has(input.toolName)) this.#addUnclassified(input);
      if (!allDecided) continue;
      const decided = this.#decided.get(input.toolUseId);
      if (decided === input.content) continue;
      if (decided !== undefined && typeof decided !== 'string' && decided.content === input.content) {
        (shown ??= new Array<string | undefined>(inputs.length))[index] = decided.shown;
      } else {
        allDecided = false;
      }
    }
    if (allDecided) return shown ?? new Array<string | undefined>(inputs.length);
    try {
      return this.#judge(inputs);
    } catch (error) {
      // As the budget's own promise would: a step that cannot be judged rejects, it does not throw.
      return Promise.reject(error);
    }
  }

  /**
   * What the model was shown for `content` under `toolUseId` when it was
   * decided before (the replacement, or `INLINE_AS_IS`), or `UNDECIDED`. Lets
   * an integration skip building the budget's input for the history it
   * re-sends on every step.
   */
  decided(toolUseId: string, content: string): string | typeof UNDECIDED | typeof INLINE_AS_IS {
    const decided = this.#decided.get(toolUseId);
    if (decided === content) return INLINE_AS_IS;
    if (decided === undefined || typeof decided === 'string' || decided.content !== content) return UNDECIDED;
    return decided.shown;
  }

  /** Reports a part left alone, once per session for the same reason, type, call and tool. */
  report(part: Omit<UnhandledPart, 'integration'>): void {
    const key = `${part.reason}\0${part.type}\0${part.toolCallId ?? ''}\0${part.toolName ?? ''}`;
    this.#reported ??= new Set();
    if (this.#reported.has(key)) return;
    this.#reported.add(key);
    const report: UnhandledPart = { integration: this.integration, ...part };
    if (this.options.onUnhandledPart) {
      this.options.onUnhandledPart(report);
      return;
    }
    const message =
      `${this.integration}: a ${part.reason.replaceAll('-', ' ')} (${JSON.stringify(part.type)}` +
      `${part.toolCallId === undefined ? '' : `, call ${JSON.stringify(part.toolCallId)}`}` +
      `${part.toolName === undefined ? '' : `, tool ${JSON.stringify(part.toolName)}`}) was passed through unchanged. ` +
      (part.reason === 'unclassified-tool'
        ? 'Classify the tool (classifyTool, or { name, maxResultSizeChars } in tools) to budget its results. '
        : '') +
      'Pass onUnhandledPart to handle this yourself.';
    if (typeof process !== 'undefined' && typeof process.emitWarning === 'function') {
      process.emitWarning(message, { code: 'TOOL_RESULT_GUARD_UNHANDLED_PART' });
    } else {
      console.warn(message);
    }
  }

  /**
   * The budget's answer for a message, as `applyToolResultBudget` would give
   * it with this session's options (the same checks, decisions and errors),
   * synchronously when nothing is persisted and nothing is pending elsewhere.
   */
  #judge(inputs: readonly SessionInput[]): Array<string | undefined> | Promise<Array<string | undefined>> {
    // The replacement itself, from a history that stored what the model was
    // shown (an OpenAI Agents session does): it is what the model saw, not new content.
    let toJudge: readonly SessionInput[] = inputs;
    let positions: number[] | undefined;
    for (let index = 0; index < inputs.length; index += 1) {
      const input = inputs[index] as SessionInput;
      if (!(isPersistedOutput(input.content) && this.#internals.replacements.get(input.toolUseId) === input.content)) {
        if (positions !== undefined) {
          (toJudge as SessionInput[]).push(input);
          positions.push(index);
        }
      } else if (positions === undefined) {
        toJudge = inputs.slice(0, index);
        positions = Array.from({ length: index }, (_, position) => position);
      }
    }
    // What applyToolResultBudget checks on every call; the rest (the state,
    // the limit, the query source, the tools) was checked when the session was made.
    const thresholds = this.#currentThresholds();
    checkResults(toJudge, thresholds);
    checkStore(this.#budgetOptions, this.#owned);
    const outcome = budgetCheckedResults(toJudge, this.#internals, thresholds, this.#owned, this.#budgetOptions);
    if (outcome instanceof Promise) return outcome.then(({ results }) => this.#shown(inputs.length, toJudge, positions, results));
    return this.#shown(inputs.length, toJudge, positions, outcome.results);
  }

  /** What the model is shown for each input, by position; remembers each judged id's decision. */
  #shown(
    length: number,
    judged: readonly SessionInput[],
    positions: readonly number[] | undefined,
    results: readonly ToolResultInput[],
  ): Array<string | undefined> {
    const shown = new Array<string | undefined>(length);
    for (let index = 0; index < results.length; index += 1) {
      const input = judged[index] as SessionInput;
      const content = (results[index] as ToolResultInput).content;
      const replacement = content === input.content ? undefined : content;
      shown[positions === undefined ? index : (positions[index] as number)] = replacement;
      // Only a judged id has a frozen fate; a source that owns no storage marks nothing.
      if (this.#internals.fates.has(input.toolUseId)) {
        this.#decided.set(input.toolUseId, replacement === undefined ? input.content : { content: input.content, shown: replacement });
      }
    }
    return shown;
  }

  #currentThresholds(): ReadonlyMap<string, number> {
    return this.#overridesMayChange ? resolveThresholds(this.#tools, this.#budgetOptions.overrides) : this.#thresholds;
  }

  #addUnclassified(input: SessionInput): void {
    // Never persisted, still counted: for all anyone knows, it reads what the model names.
    this.#tools = Object.freeze([...this.#tools, { name: input.toolName, maxResultSizeChars: UNBOUNDED }]);
    this.#budgetOptions = { ...this.#budgetOptions, tools: this.#tools };
    // A new map: a budget call still persisting keeps the one it was given.
    this.#thresholds = new Map(this.#thresholds).set(input.toolName, UNBOUNDED);
    this.report({ reason: 'unclassified-tool', type: input.type, toolCallId: input.toolUseId, toolName: input.toolName, part: input.part });
  }
}

function lacksPersist(store: unknown): boolean {
  return typeof store !== 'object' || store === null || typeof (store as { persist?: unknown }).persist !== 'function';
}

/** A fork without its own agentId is bound to no agent yet (the parent's id would make it the parent). */
function stripAgentId(parent: ToolResultBudgetSessionOptions, overrides: BudgetForkOptions): BudgetForkOptions {
  if (overrides.agentId !== undefined || parent.agentId === undefined) return overrides;
  return { ...overrides, agentId: undefined };
}

/**
 * The tools as `{ name, maxResultSizeChars }`, checked now: a bad threshold
 * or an unclassified entry of a tool set is an error when the integration is
 * created, not in the middle of a loop. With them, each one's threshold
 * under `overrides` (what the budget would resolve for the list).
 */
function normalizeTools(
  tools: BudgetTools,
  overrides: PersistenceOverrides,
  integration: BudgetIntegration,
): { tools: PersistenceThresholdTool[]; thresholds: Map<string, number> } {
  if (typeof tools !== 'object' || tools === null) {
    throw new TypeError(
      `${integration}: tools must be a list of { name, maxResultSizeChars } or a tool set { name: classifyTool(tool, …) }, got ${describeValue(tools)}.`,
    );
  }
  const normalized = new Map<string, PersistenceThresholdTool>();
  const thresholds = new Map<string, number>();
  const add = (tool: PersistenceThresholdTool) => {
    // Resolving now checks the declared value (InvalidThresholdError) before any step runs.
    const threshold = getEffectivePersistenceThreshold(tool, overrides);
    const earlier = normalized.get(tool.name);
    if (earlier !== undefined && earlier.maxResultSizeChars !== tool.maxResultSizeChars) {
      throw new TypeError(
        `${integration}: tool ${JSON.stringify(tool.name)} is listed twice with different thresholds; list each tool once.`,
      );
    }
    normalized.set(tool.name, { name: tool.name, maxResultSizeChars: tool.maxResultSizeChars });
    thresholds.set(tool.name, threshold);
  };
  if (typeof (tools as Partial<Iterable<unknown>>)[Symbol.iterator] === 'function') {
    for (const listed of tools as Iterable<PersistenceThresholdTool | object>) {
      const tool = (classifiedThresholdTool(listed) ?? listed) as PersistenceThresholdTool;
      if (typeof tool !== 'object' || tool === null || typeof tool.name !== 'string') {
        throw new TypeError(`${integration}: every entry of tools needs a string name and maxResultSizeChars, got ${describeValue(tool)}.`);
      }
      add(tool);
    }
    return { tools: [...normalized.values()], thresholds };
  }
  // A tool set: the key is the name the model calls the tool by.
  for (const [name, tool] of Object.entries(tools as Readonly<Record<string, object>>)) {
    const declared = getToolClassification(tool)?.maxResultSizeChars ?? ownLimit(tool);
    if (declared === undefined) throw new UnclassifiedToolInSetError(name, integrationLabel(integration));
    add({ name, maxResultSizeChars: declared });
  }
  return { tools: [...normalized.values()], thresholds };
}

/** A tool that declares its own limit (`defineTool`, a class with the member). */
function ownLimit(tool: unknown): number | undefined {
  const declared = typeof tool === 'object' && tool !== null ? (tool as { maxResultSizeChars?: unknown }).maxResultSizeChars : undefined;
  return typeof declared === 'number' ? declared : undefined;
}

function integrationLabel(integration: BudgetIntegration): string {
  switch (integration) {
    case 'ai-sdk':
      return 'toolResultBudget';
    case 'openai-agents':
      return 'toolResultBudgetFilter';
    case 'mcp-client':
      return 'guardMcpToolResults';
  }
}
