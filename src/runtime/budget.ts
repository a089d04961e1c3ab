import { classifiedThresholdTool } from './classify-tool.js';
import { describeValue, RecordCallbackError, UnclassifiedToolError, errorMessage } from './errors.js';
import { formatPersistedOutput, isPersistResultShape, isPersistedOutput } from './persisted-output.js';
import {
  INLINE,
  bindToAgent,
  createPendingBatch,
  internalsOf,
  setFinalFate,
  type Fate,
  type FinalFate,
  type ReplacementRecord,
  type ReplacementState,
} from './replacement-state.js';
import { shouldPersistForSession } from './session-scope.js';
import { PREVIEW_CHARS, type ToolResultBudgetStore } from './store.js';
import { getEffectivePersistenceThreshold, type PersistenceOverrides, type PersistenceThresholdTool } from './threshold.js';

/** One tool result of a message. Extra fields are carried through untouched. */
export interface ToolResultInput {
  readonly toolUseId: string;
  readonly toolName: string;
  readonly content: string;
}

export interface ToolResultBudgetOptions {
  /** Where replaced results go; `ToolResultStore` or anything with the same `persist`. */
  readonly store: ToolResultBudgetStore;
  /**
   * Every tool that may appear in `results`: `{ name, maxResultSizeChars }`,
   * or a framework's tool object classified with `classifyTool` (its
   * classification is read back).
   */
  readonly tools: Iterable<PersistenceThresholdTool | object>;
  /** The most characters the message may hold; the largest fresh results are replaced until it fits. */
  readonly perMessageLimit: number;
  /** Who is asking; only owned sessions (`repl_main_thread…`, `agent:…`) persist. */
  readonly querySource: string;
  /** Remote per-tool thresholds; see `getEffectivePersistenceThreshold`. */
  readonly overrides?: PersistenceOverrides;
  /** Receives each new replacement's record, in input order; log it to the transcript for resume. */
  readonly onRecord?: (record: ReplacementRecord) => void;
  /**
   * Told about each failed persist (the id is then frozen inline). Without
   * it, each failure becomes a process warning (code `TOOL_RESULT_GUARD_PERSIST_FAILED`).
   */
  readonly onPersistError?: (error: unknown, toolUseId: string) => void;
  /** Binds the state to this agent on first use; another agent id is then rejected. */
  readonly agentId?: string;
}

export interface ToolResultBudgetOutcome<Result extends ToolResultInput> {
  /** The results in input order; replaced ones carry the replacement as `content`. */
  readonly results: Result[];
  /** The records this call created, in input order. */
  readonly newlyReplaced: ReplacementRecord[];
}

/**
 * A generous guess at a replacement's length (tag, size line, path, preview)
 * used while judging, before the store has said what the path is.
 */
const REPLACEMENT_OVERHEAD_ESTIMATE = 400;

/**
 * Keeps one message of tool results within budget, with frozen fates (seed
 * 002) and persistence only where it is safe (seed 000).
 *
 * - A seen id keeps its fate: inline stays inline, a replaced one gets its
 *   byte-identical replacement.
 * - A fresh result over its tool's threshold is persisted and replaced; then,
 *   while the message is over `perMessageLimit`, the largest remaining fresh
 *   results are.
 * - Self-bounding tools (threshold `Infinity`) and content that already is a
 *   `<persisted-output>` are marked seen and stay inline.
 * - Every fresh id is judged, and marked seen, synchronously when the call
 *   starts; one being persisted has a pending fate that a concurrent call
 *   waits for rather than judging it again, so `store.persist` runs once per
 *   id and concurrent calls return identical results.
 * - A failed persist freezes the id inline; the error does not escape.
 * - A query source that does not own storage writes nothing, records
 *   nothing and marks nothing; earlier replacements are still reapplied.
 */
export async function applyToolResultBudget<Result extends ToolResultInput>(
  results: readonly Result[],
  state: ReplacementState,
  options: ToolResultBudgetOptions,
): Promise<ToolResultBudgetOutcome<Result>> {
  const internals = internalsOf(state, 'applyToolResultBudget(results, state, options): state');
  checkOptions(options);
  const thresholds = resolveThresholds(options.tools, options.overrides);
  checkResults(results, thresholds);
  const owned = shouldPersistForSession(options.querySource);
  if (owned && (typeof options.store !== 'object' || options.store === null || typeof options.store.persist !== 'function')) {
    throw new TypeError(`applyToolResultBudget: options.store must have persist(toolUseId, content) for query source ${JSON.stringify(options.querySource)}, which owns storage. Pass a ToolResultStore.`);
  }
  // Last of the checks: a call rejected for bad input must not claim the state.
  bindToAgent(internals, options.agentId);

  // Judge every fresh result now, before the first await, so that a
  // concurrent call already finds each id seen. `judgedNow` marks the ids
  // this call is judging (an inline fate unless chosen below), so a
  // duplicate id in the message is recognised without another set.
  const judgedNow: FinalFate = { kind: 'inline' };
  let messageSize = 0;
  const candidates: number[] = [];
  // Fates as found, by position: a final one cannot change, so it is not looked up again.
  const fatesFound: Array<Fate | undefined> = new Array<Fate | undefined>(results.length);
  for (let index = 0; index < results.length; index += 1) {
    const result = results[index] as Result;
    const fate = internals.fates.get(result.toolUseId);
    messageSize += fate?.kind === 'replaced' ? fate.replacement.length : result.content.length;
    if (fate === judgedNow) continue; // a repeat: its fate is read at the end
    fatesFound[index] = fate;
    if (fate !== undefined || !owned) continue;
    const threshold = thresholds.get(result.toolName) ?? Number.POSITIVE_INFINITY;
    if (threshold === Number.POSITIVE_INFINITY || isPersistedOutput(result.content)) {
      internals.fates.set(result.toolUseId, INLINE);
      fatesFound[index] = INLINE;
      continue;
    }
    internals.fates.set(result.toolUseId, judgedNow);
    // Inline unless chosen below; a chosen one's final fate replaces this once settled.
    fatesFound[index] = judgedNow;
    candidates.push(index);
  }

  const toPersist = chooseReplacements(results, thresholds, candidates, messageSize, options.perMessageLimit);
  const batch = createPendingBatch();
  for (const index of toPersist) internals.fates.set((results[index] as Result).toolUseId, batch.fate);

  const newlyReplaced: ReplacementRecord[] = [];
  let recordFailure: RecordCallbackError | undefined;
  let settledAll = false;
  try {
    // persistOrReport never rejects, so every persist finishes before any fate settles.
    const persisted =
      toPersist.length === 0 ? [] : await Promise.all(toPersist.map((index) => persistOrReport(options, results[index] as Result)));
    let callbackFailure: CallbackFailure | undefined;
    // Settle in input order so records reach the transcript in a stable order.
    for (let index = 0; index < toPersist.length; index += 1) {
      const resultIndex = toPersist[index] as number;
      const toolUseId = (results[resultIndex] as Result).toolUseId;
      const outcome = persisted[index];
      let fate: FinalFate = INLINE;
      if (outcome instanceof CallbackFailure) {
        callbackFailure ??= outcome;
      } else if (outcome !== undefined) {
        const record: ReplacementRecord = Object.freeze({ kind: 'tool-result', toolUseId, replacement: formatPersistedOutput(outcome) });
        try {
          options.onRecord?.(record);
          fate = { kind: 'replaced', replacement: record.replacement };
          newlyReplaced.push(record);
        } catch (error) {
          // Unrecorded, a replacement could not be reapplied on resume: keep it inline.
          recordFailure ??= new RecordCallbackError(toolUseId, error);
        }
      }
      if (internals.fates.get(toolUseId) === batch.fate) {
        setFinalFate(internals, toolUseId, fate);
        fatesFound[resultIndex] = fate;
      } else {
        fatesFound[resultIndex] = undefined; // settled elsewhere meanwhile: read at the end
      }
    }
    settledAll = true;
    if (callbackFailure) throw callbackFailure.error;
  } finally {
    // Whatever went wrong, no id may stay pending forever: concurrent callers are waiting on it.
    if (!settledAll) {
      for (const index of toPersist) {
        const toolUseId = (results[index] as Result).toolUseId;
        if (internals.fates.get(toolUseId) === batch.fate) setFinalFate(internals, toolUseId, INLINE);
      }
    }
    batch.finish();
  }

  // Join decisions other calls (or the parent of a cloned state) still have pending.
  let pendingElsewhere: Set<Promise<void>> | undefined;
  for (const fate of fatesFound) {
    if (fate?.kind === 'pending') (pendingElsewhere ??= new Set()).add(fate.settled);
  }
  if (pendingElsewhere) await Promise.all(pendingElsewhere);
  if (recordFailure) throw recordFailure;

  // Final fates found or made here are used as they are; a repeat or another call's pending one is looked up.
  const output = new Array<Result>(results.length);
  for (let index = 0; index < results.length; index += 1) {
    const result = results[index] as Result;
    const found = fatesFound[index];
    const fate = found === undefined || found.kind === 'pending' ? internals.fates.get(result.toolUseId) : found;
    output[index] = fate?.kind === 'replaced' ? { ...result, content: fate.replacement } : result;
  }
  return { results: output, newlyReplaced };
}

/**
 * Which candidates (positions in `results`) to persist, in input order:
 * those over their tool's threshold, then the largest others while the
 * message is over its limit.
 */
function chooseReplacements(
  results: readonly ToolResultInput[],
  thresholds: ReadonlyMap<string, number>,
  candidates: readonly number[],
  messageSize: number,
  perMessageLimit: number,
): number[] {
  const chosen = new Uint8Array(results.length);
  let size = messageSize;
  const underThreshold: number[] = [];
  for (const index of candidates) {
    const { content, toolName } = results[index] as ToolResultInput;
    if (content.length > (thresholds.get(toolName) as number)) {
      chosen[index] = 1;
      size -= content.length - estimateReplacementLength(content);
    } else if (content.length > estimateReplacementLength(content)) {
      // Replacing a result no longer than its preview would not make the message smaller.
      underThreshold.push(index);
    }
  }
  if (size > perMessageLimit) {
    const lengthAt = (index: number) => (results[index] as ToolResultInput).content.length;
    underThreshold.sort((left, right) => lengthAt(right) - lengthAt(left));
    for (const index of underThreshold) {
      if (size <= perMessageLimit) break;
      chosen[index] = 1;
      size -= lengthAt(index) - estimateReplacementLength((results[index] as ToolResultInput).content);
    }
  }
  return candidates.filter((index) => chosen[index] === 1);
}

function estimateReplacementLength(content: string): number {
  return Math.min(content.length, PREVIEW_CHARS) + REPLACEMENT_OVERHEAD_ESTIMATE;
}

async function persistOrReport(
  options: ToolResultBudgetOptions,
  candidate: ToolResultInput,
): Promise<Awaited<ReturnType<ToolResultBudgetStore['persist']>> | CallbackFailure | undefined> {
  try {
    const persisted = await options.store.persist(candidate.toolUseId, candidate.content);
    if (!isPersistResultShape(persisted)) {
      throw new TypeError(`store.persist(${JSON.stringify(candidate.toolUseId)}, content) resolved to ${describeValue(persisted)}, not { path, size, preview }.`);
    }
    return persisted;
  } catch (error) {
    try {
      reportPersistError(options, error, candidate.toolUseId);
    } catch (callbackError) {
      return new CallbackFailure(callbackError);
    }
    return undefined;
  }
}

/** An `onPersistError` that threw: rethrown once every decision has settled. */
class CallbackFailure {
  constructor(readonly error: unknown) {}
}

function reportPersistError(options: ToolResultBudgetOptions, error: unknown, toolUseId: string): void {
  if (options.onPersistError) {
    options.onPersistError(error, toolUseId);
    return;
  }
  const message = `Tool result ${JSON.stringify(toolUseId)} stays inline: persisting it failed (${errorMessage(error)}). Pass options.onPersistError to handle this yourself.`;
  if (typeof process !== 'undefined' && typeof process.emitWarning === 'function') {
    process.emitWarning(message, { code: 'TOOL_RESULT_GUARD_PERSIST_FAILED' });
  } else {
    console.warn(message);
  }
}

function checkOptions(options: ToolResultBudgetOptions): void {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('applyToolResultBudget(results, state, options): options must be { store, tools, perMessageLimit, querySource }.');
  }
  const limit: unknown = options.perMessageLimit;
  if (typeof limit !== 'number' || Number.isNaN(limit) || limit < 0) {
    throw new TypeError(`applyToolResultBudget: options.perMessageLimit must be a number >= 0 (characters per message), got ${describeValue(limit)}.`);
  }
  if (typeof options.querySource !== 'string') {
    throw new TypeError(`applyToolResultBudget: options.querySource must be a string such as "repl_main_thread" or "agent:<name>", got ${describeValue(options.querySource)}.`);
  }
}

function resolveThresholds(tools: Iterable<PersistenceThresholdTool | object>, overrides: PersistenceOverrides): Map<string, number> {
  if (tools === null || typeof tools !== 'object' || typeof (tools as Partial<Iterable<unknown>>)[Symbol.iterator] !== 'function') {
    throw new TypeError('applyToolResultBudget: options.tools must be a list of { name, maxResultSizeChars } (pass toolMap.values() for a Map).');
  }
  const thresholds = new Map<string, number>();
  for (const listed of tools) {
    // A framework tool wrapped in classifyTool carries its classification beside it, not in its own members.
    const tool = (classifiedThresholdTool(listed) ?? listed) as PersistenceThresholdTool;
    if (typeof tool !== 'object' || tool === null || typeof tool.name !== 'string') {
      throw new TypeError(`applyToolResultBudget: every entry of options.tools needs a string name and maxResultSizeChars, got ${describeValue(tool)}.`);
    }
    const threshold = getEffectivePersistenceThreshold(tool, overrides);
    const earlier = thresholds.get(tool.name);
    if (earlier !== undefined && earlier !== threshold) {
      throw new TypeError(`applyToolResultBudget: tool ${JSON.stringify(tool.name)} is listed twice in options.tools with different thresholds (${earlier} and ${threshold}); list each tool once.`);
    }
    thresholds.set(tool.name, threshold);
  }
  return thresholds;
}

function checkResults(results: readonly ToolResultInput[], thresholds: ReadonlyMap<string, number>): void {
  if (!Array.isArray(results)) {
    throw new TypeError('applyToolResultBudget: results must be an array of { toolUseId, toolName, content } (the tool results of one message).');
  }
  results.forEach((result: ToolResultInput, index) => {
    if (
      typeof result !== 'object' ||
      result === null ||
      typeof result.toolUseId !== 'string' ||
      result.toolUseId.length === 0 ||
      typeof result.content !== 'string'
    ) {
      throw new TypeError(`applyToolResultBudget: results[${index}] must be { toolUseId: non-empty string, toolName: string, content: string }.`);
    }
    if (!thresholds.has(result.toolName)) throw new UnclassifiedToolError(result.toolName, result.toolUseId);
  });
}
