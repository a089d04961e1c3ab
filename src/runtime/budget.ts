import { classifiedThresholdTool } from './classify-tool.js';
import { describeValue, RecordCallbackError, UnclassifiedToolError, errorMessage } from './errors.js';
import { formatPersistedOutput, isPersistResultShape, isPersistedOutput, persistedOutputLength } from './persisted-output.js';
import {
  DeferredFingerprint,
  INLINE,
  addReusedKey,
  bindToAgent,
  createPendingBatch,
  fingerprintOf,
  internalsOf,
  judgedFingerprintOf,
  reusedIdKey,
  setFinalFate,
  type ContentFingerprint,
  type Fate,
  type FinalFate,
  type ReplacementRecord,
  type ReplacementState,
  type StateInternals,
} from './replacement-state.js';
import { shouldPersistForSession } from './session-scope.js';
import { previewLengthOf, type ToolResultBudgetStore } from './store.js';
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
  /**
   * Told when a tool-use id already judged arrives with other content (a
   * provider that numbers calls `call_0`, `call_1`… per turn, or one id twice
   * in a message). That content is judged on its own under the reused key
   * given; the earlier fate is untouched. Without it, each new reuse becomes
   * a process warning (code `TOOL_RESULT_GUARD_TOOL_USE_ID_REUSED`).
   */
  readonly onToolUseIdReused?: (reuse: ToolUseIdReuse) => void;
  /** Binds the state to this agent on first use; another agent id is then rejected. */
  readonly agentId?: string;
}

/** A tool-use id seen again with other content, and where that content's fate is kept. */
export interface ToolUseIdReuse {
  readonly toolUseId: string;
  /** `<toolUseId>~<16 hex digits of the content's hash>`: the new content's fate key and its store id. */
  readonly key: string;
  readonly contentLength: number;
  readonly earlierContentLength: number;
}

export interface ToolResultBudgetOutcome<Result extends ToolResultInput> {
  /** The results in input order; replaced ones carry the replacement as `content`. */
  readonly results: Result[];
  /** The records this call created, in input order. */
  readonly newlyReplaced: ReplacementRecord[];
}

/**
 * A generous guess at the path a store without `pathFor` will report, used
 * while judging. The real replacement is measured once persisted, so a
 * longer path only keeps the result inline, never makes the message grow.
 */
const UNKNOWN_PATH_CHARS = 300;

/**
 * Keeps one message of tool results within budget, with frozen fates and
 * persistence only where it is safe (circular persistence).
 *
 * - A seen id keeps its fate: inline stays inline, a replaced one gets its
 *   byte-identical replacement. The fate is the content's: a seen id that
 *   arrives with other content is judged on its own under a reused key
 *   (`<id>~<hash16>`) and reported, never given the old preview.
 * - A replacement is always shorter than what it replaces, or the result
 *   stays inline.
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
  checkStore(options, owned);
  const outcome = budgetCheckedResults(results, internals, thresholds, owned, options);
  return outcome instanceof Promise ? await outcome : outcome;
}

/**
 * `applyToolResultBudget` once its arguments are checked: `thresholds` are
 * `options.tools` resolved under `options.overrides`, `owned` is
 * `shouldPersistForSession(options.querySource)` (and then `options.store`
 * has `persist`), every result is a `ToolResultInput` of a listed tool. The
 * integrations' sessions check all of it once and call this on every step.
 *
 * The same decisions, state changes, callbacks and errors in the same order
 * as `applyToolResultBudget`; the outcome comes back synchronously when
 * nothing is persisted and no decision is pending elsewhere (most steps of an
 * agent loop), so such a step costs no await. It may throw synchronously
 * (`StateOwnershipError`, a throwing `onToolUseIdReused`) where
 * `applyToolResultBudget` rejects.
 */
export function budgetCheckedResults<Result extends ToolResultInput>(
  results: readonly Result[],
  internals: StateInternals,
  thresholds: ReadonlyMap<string, number>,
  owned: boolean,
  options: ToolResultBudgetOptions,
): ToolResultBudgetOutcome<Result> | Promise<ToolResultBudgetOutcome<Result>> {
  // Last of the checks: a call rejected for bad input must not claim the state.
  bindToAgent(internals, options.agentId);

  // Judge every fresh result now, before the first await, so that a
  // concurrent call already finds each id seen. `judgedNow` marks the ids
  // this call is judging (an inline fate unless chosen below), so a
  // duplicate id in the message is recognised without another set.
  const judgedNow: FinalFate = { kind: 'inline' };
  let messageSize = 0;
  // Positions of the fresh results this call judges; made for the first (a first push into [] reserves room for 17).
  let candidates: number[] | undefined;
  // Fates as found, by position: a final one cannot change, so it is not looked up again.
  const fatesFound: Array<Fate | undefined> = new Array<Fate | undefined>(results.length);
  // By position, the fate key when it is not the tool-use id (a reused id's other content).
  let keyAt: Array<string | undefined> | undefined;
  // By position of a candidate, how many copies of it the message holds beyond the first.
  let extraCopies: Map<number, number> | undefined;
  // Candidates by fate key, built only once a message repeats an id.
  let candidateByKey: Map<string, number> | undefined;
  let reuses: ToolUseIdReuse[] | undefined;
  // By position, the fingerprint of a candidate: its record carries it once persisted.
  let fingerprintsAt: Array<ContentFingerprint | undefined> | undefined;
  for (let index = 0; index < results.length; index += 1) {
    const result = results[index] as Result;
    const threshold = thresholds.get(result.toolName) ?? Number.POSITIVE_INFINITY;
    // A fresh id (most results of a loop) is its own key and has no fate yet: no lookup beyond this one.
    const fateOfId = internals.fates.get(result.toolUseId);
    const found = fateOfId === undefined ? undefined : findFate(internals, result, fateOfId, owned, threshold === Number.POSITIVE_INFINITY);
    const key = found === undefined ? result.toolUseId : found.key;
    const fate = found?.fate;
    if (key !== result.toolUseId) (keyAt ??= new Array<string | undefined>(results.length))[index] = key;
    if (found?.reuse) (reuses ??= []).push(found.reuse);
    messageSize += fate?.kind === 'replaced' ? fate.replacement.length : result.content.length;
    if (fate === judgedNow) {
      // A repeat of a candidate: it shares that candidate's fate, read at the end.
      if (candidateByKey === undefined) {
        candidateByKey = new Map();
        for (const candidate of candidates ?? [])
          candidateByKey.set(keyAt?.[candidate] ?? (results[candidate] as Result).toolUseId, candidate);
      }
      const first = candidateByKey.get(key);
      if (first !== undefined) (extraCopies ??= new Map()).set(first, (extraCopies.get(first) ?? 0) + 1);
      continue;
    }
    fatesFound[index] = fate;
    if (fate !== undefined || !owned) continue;
    const fingerprint =
      found?.fingerprint ??
      (threshold === Number.POSITIVE_INFINITY
        ? { length: result.content.length, hash: SELF_BOUNDING }
        : judgedFingerprintOf(result.content));
    internals.fingerprints.set(key, fingerprint);
    if (key !== result.toolUseId) addReusedKey(internals, result.toolUseId, key);
    if (threshold === Number.POSITIVE_INFINITY || isPersistedOutput(result.content)) {
      internals.fates.set(key, INLINE);
      fatesFound[index] = INLINE;
      continue;
    }
    internals.fates.set(key, judgedNow);
    // Inline unless chosen below; a chosen one's final fate replaces this once settled.
    fatesFound[index] = judgedNow;
    (fingerprintsAt ??= new Array<ContentFingerprint | undefined>(results.length))[index] = fingerprint;
    if (candidates === undefined) candidates = [index];
    else candidates.push(index);
    candidateByKey?.set(key, index);
  }

  // Candidates exist only for an owned source, whose store was checked above.
  const toPersist =
    candidates === undefined
      ? NOTHING_TO_PERSIST
      : chooseReplacements(results, thresholds, candidates, messageSize, options.perMessageLimit, options.store, keyAt, extraCopies);
  // Nothing to persist (most calls of a loop): no pending fate, no await.
  if (toPersist.length === 0) return joinAndFinish(results, internals, options, fatesFound, keyAt, reuses, undefined, []);
  return persistChosen(
    results,
    internals,
    options,
    toPersist,
    fatesFound,
    keyAt,
    reuses,
    fingerprintsAt as Array<ContentFingerprint | undefined>,
  );
}

const NOTHING_TO_PERSIST: readonly number[] = Object.freeze([]);

/** The fate key of the result at `index`: its tool-use id, unless `keyAt` holds a reused key for it. */
function keyOf(results: readonly ToolResultInput[], keyAt: ReadonlyArray<string | undefined> | undefined, index: number): string {
  return keyAt?.[index] ?? (results[index] as ToolResultInput).toolUseId;
}

/** Persists the chosen results and freezes their fates, then finishes the call. */
async function persistChosen<Result extends ToolResultInput>(
  results: readonly Result[],
  internals: StateInternals,
  options: ToolResultBudgetOptions,
  toPersist: readonly number[],
  fatesFound: Array<Fate | undefined>,
  keyAt: ReadonlyArray<string | undefined> | undefined,
  reuses: readonly ToolUseIdReuse[] | undefined,
  fingerprintsAt: ReadonlyArray<ContentFingerprint | undefined>,
): Promise<ToolResultBudgetOutcome<Result>> {
  // One pending fate for every id this call persists.
  const batch = createPendingBatch();
  for (const index of toPersist) internals.fates.set(keyOf(results, keyAt, index), batch.fate);

  const newlyReplaced: ReplacementRecord[] = [];
  let recordFailure: RecordCallbackError | undefined;
  let settledAll = false;
  try {
    // persistOrReport never rejects, so every persist finishes before any fate settles.
    const persisted = await Promise.all(
      toPersist.map((index) => persistOrReport(options, keyOf(results, keyAt, index), (results[index] as Result).content)),
    );
    let callbackFailure: CallbackFailure | undefined;
    // Settle in input order so records reach the transcript in a stable order.
    for (let index = 0; index < toPersist.length; index += 1) {
      const resultIndex = toPersist[index] as number;
      const { toolUseId, content } = results[resultIndex] as Result;
      const key = keyOf(results, keyAt, resultIndex);
      const outcome = persisted[index];
      let fate: FinalFate = INLINE;
      if (outcome instanceof CallbackFailure) {
        callbackFailure ??= outcome;
      } else if (outcome !== undefined) {
        const replacement = formatPersistedOutput(outcome);
        // Measured, not estimated: a long path (or a store that kept other
        // content for this id) can make the replacement no shorter than the
        // result, and a replacement must never make the message grow.
        if (replacement.length < content.length) {
          const fingerprint = fingerprintsAt[resultIndex] as ContentFingerprint;
          const record: ReplacementRecord = Object.freeze({
            kind: 'tool-result',
            toolUseId,
            replacement,
            contentLength: fingerprint.length,
            contentHash: fingerprint.hash,
            ...(key === toolUseId ? {} : { reusedId: true as const }),
          });
          try {
            options.onRecord?.(record);
            fate = { kind: 'replaced', replacement: record.replacement };
            newlyReplaced.push(record);
          } catch (error) {
            // Unrecorded, a replacement could not be reapplied on resume: keep it inline.
            recordFailure ??= new RecordCallbackError(toolUseId, error);
          }
        }
      }
      if (internals.fates.get(key) === batch.fate) {
        setFinalFate(internals, key, fate);
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
        const key = keyOf(results, keyAt, index);
        if (internals.fates.get(key) === batch.fate) setFinalFate(internals, key, INLINE);
      }
    }
    batch.finish();
  }
  const outcome = joinAndFinish(results, internals, options, fatesFound, keyAt, reuses, recordFailure, newlyReplaced);
  return outcome instanceof Promise ? await outcome : outcome;
}

/**
 * Waits for the decisions other calls (or the parent of a cloned state)
 * still have pending, then finishes the call; synchronously when there are none.
 */
function joinAndFinish<Result extends ToolResultInput>(
  results: readonly Result[],
  internals: StateInternals,
  options: ToolResultBudgetOptions,
  fatesFound: ReadonlyArray<Fate | undefined>,
  keyAt: ReadonlyArray<string | undefined> | undefined,
  reuses: readonly ToolUseIdReuse[] | undefined,
  recordFailure: RecordCallbackError | undefined,
  newlyReplaced: ReplacementRecord[],
): ToolResultBudgetOutcome<Result> | Promise<ToolResultBudgetOutcome<Result>> {
  let pendingElsewhere: Set<Promise<void>> | undefined;
  // Index loops on the per-step path: an iterator that is not optimised away is an allocation per call.
  for (let index = 0; index < fatesFound.length; index += 1) {
    const fate = fatesFound[index];
    if (fate?.kind === 'pending') (pendingElsewhere ??= new Set()).add(fate.settled);
  }
  if (pendingElsewhere === undefined)
    return finishBudget(results, internals, options, fatesFound, keyAt, reuses, recordFailure, newlyReplaced);
  return Promise.all(pendingElsewhere).then(() =>
    finishBudget(results, internals, options, fatesFound, keyAt, reuses, recordFailure, newlyReplaced),
  );
}

/** The outcome, once every fate the call found or made has settled. */
function finishBudget<Result extends ToolResultInput>(
  results: readonly Result[],
  internals: StateInternals,
  options: ToolResultBudgetOptions,
  fatesFound: ReadonlyArray<Fate | undefined>,
  keyAt: ReadonlyArray<string | undefined> | undefined,
  reuses: readonly ToolUseIdReuse[] | undefined,
  recordFailure: RecordCallbackError | undefined,
  newlyReplaced: ReplacementRecord[],
): ToolResultBudgetOutcome<Result> {
  if (recordFailure) throw recordFailure;
  // Told only now, with every fate settled: a throwing callback leaves nothing pending.
  if (reuses) for (const reuse of reuses) reportReuse(options, reuse);

  // Final fates found or made here are used as they are; a repeat or another call's pending one is looked up.
  const output = new Array<Result>(results.length);
  for (let index = 0; index < results.length; index += 1) {
    const result = results[index] as Result;
    const found = fatesFound[index];
    const fate = found === undefined || found.kind === 'pending' ? internals.fates.get(keyOf(results, keyAt, index)) : found;
    output[index] = fate?.kind === 'replaced' ? { ...result, content: fate.replacement } : result;
  }
  return { results: output, newlyReplaced };
}

/**
 * Which candidates (positions in `results`) to persist, in input order:
 * those over their tool's threshold, then the largest others while the
 * message is over its limit; only ever one whose replacement is shorter.
 */
function chooseReplacements(
  results: readonly ToolResultInput[],
  thresholds: ReadonlyMap<string, number>,
  candidates: readonly number[],
  messageSize: number,
  perMessageLimit: number,
  store: ToolResultBudgetStore,
  keyAt: ReadonlyArray<string | undefined> | undefined,
  extraCopies: ReadonlyMap<number, number> | undefined,
): readonly number[] {
  // A message under its limit whose results are all under their thresholds
  // (most steps of a loop) has nothing to replace: say so before measuring any replacement.
  if (messageSize <= perMessageLimit && !anyOverThreshold(results, thresholds, candidates)) return NOTHING_TO_PERSIST;
  const pathLengthOf = pathLengthsOf(store);
  const chosen = new Uint8Array(results.length);
  // What replacing each candidate saves, in characters.
  const savings = new Float64Array(results.length);
  let size = messageSize;
  const underThreshold: number[] = [];
  for (const index of candidates) {
    const { content, toolName } = results[index] as ToolResultInput;
    const saving =
      content.length - persistedOutputLength(content.length, pathLengthOf(keyOf(results, keyAt, index)), previewLengthOf(content));
    // A replacement no shorter than the result would make the message grow.
    if (saving <= 0) continue;
    // Every copy of a repeated id shares its fate, so every copy shrinks.
    savings[index] = saving * (1 + (extraCopies?.get(index) ?? 0));
    if (content.length > (thresholds.get(toolName) as number)) {
      chosen[index] = 1;
      size -= savings[index] as number;
    } else {
      underThreshold.push(index);
    }
  }
  if (size > perMessageLimit) {
    const lengthAt = (index: number) => (results[index] as ToolResultInput).content.length;
    underThreshold.sort((left, right) => lengthAt(right) - lengthAt(left));
    for (const index of underThreshold) {
      if (size <= perMessageLimit) break;
      chosen[index] = 1;
      size -= savings[index] as number;
    }
  }
  return candidates.filter((index) => chosen[index] === 1);
}

function anyOverThreshold(
  results: readonly ToolResultInput[],
  thresholds: ReadonlyMap<string, number>,
  candidates: readonly number[],
): boolean {
  for (let at = 0; at < candidates.length; at += 1) {
    const { content, toolName } = results[candidates[at] as number] as ToolResultInput;
    if (content.length > (thresholds.get(toolName) as number)) return true;
  }
  return false;
}

/**
 * The length of the path a replacement will name: exact for a store that
 * says where an id goes (`ToolResultStore.pathFor`), a generous guess otherwise.
 */
function pathLengthsOf(store: ToolResultBudgetStore): (toolUseId: string) => number {
  const pathFor: unknown = (store as { pathFor?: unknown }).pathFor;
  if (typeof pathFor !== 'function') return () => UNKNOWN_PATH_CHARS;
  return (toolUseId) => {
    try {
      const candidatePath: unknown = pathFor.call(store, toolUseId);
      return typeof candidatePath === 'string' ? candidatePath.length : UNKNOWN_PATH_CHARS;
    } catch {
      // A bad id: persist will reject it and report it; judge it as any other.
      return UNKNOWN_PATH_CHARS;
    }
  };
}

async function persistOrReport(
  options: ToolResultBudgetOptions,
  key: string,
  content: string,
): Promise<Awaited<ReturnType<ToolResultBudgetStore['persist']>> | CallbackFailure | undefined> {
  try {
    const persisted = await options.store.persist(key, content);
    if (!isPersistResultShape(persisted)) {
      throw new TypeError(
        `store.persist(${JSON.stringify(key)}, content) resolved to ${describeValue(persisted)}, not { path, size, preview }.`,
      );
    }
    return persisted;
  } catch (error) {
    try {
      reportPersistError(options, error, key);
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

/**
 * The hash kept for a self-bounding tool's result: any content of it stays
 * inline, so it is not hashed (those results are the largest a harness
 * has); never equal to a real hash, so the id arriving from another tool is
 * a reuse.
 */
const SELF_BOUNDING = '';

interface FoundFate {
  /** The tool-use id, or its reused key when the id was judged with other content. */
  readonly key: string;
  readonly fate: Fate | undefined;
  /** The content's fingerprint, when finding the fate needed it. */
  readonly fingerprint?: ContentFingerprint;
  /** Set when this call is the first to meet this content under a reused id. */
  readonly reuse?: ToolUseIdReuse;
}

/**
 * The fate a result's content has under its id, which has `fate`. A fate is frozen for the
 * content it was judged with (its fingerprint): other content under the same
 * id has its own fate, under the reused key, so it never gets the old preview
 * while the new output is saved nowhere, and the earlier message keeps its
 * bytes. An id whose content is unknown (marked by hand, resumed without a
 * fingerprint) adopts the first content it meets, unless that content
 * already has a reused key of its own.
 */
function findFate(internals: StateInternals, result: ToolResultInput, fate: Fate, owned: boolean, selfBounding: boolean): FoundFate {
  const { toolUseId, content } = result;
  const known = internals.fingerprints.get(toolUseId);
  // A fingerprint still holding its text answers by comparing strings (the same string, for a re-sent history).
  const deferred = known instanceof DeferredFingerprint;
  // Inline whatever it holds, a self-bounding tool's result is never hashed.
  if (!deferred && known?.hash === SELF_BOUNDING && selfBounding) return { key: toolUseId, fate };
  // A different length tells content apart without hashing it.
  if (known !== undefined && known.length !== content.length)
    return findReusedFate(internals, result, known, fingerprintOf(result.content), owned);
  if (deferred && known.matches(content)) return { key: toolUseId, fate, fingerprint: known };
  const fingerprint = fingerprintOf(result.content);
  if (known === undefined) {
    const key = internals.reusedKeys.has(toolUseId) ? reusedIdKey(toolUseId, fingerprint) : undefined;
    const reusedFate = key === undefined ? undefined : internals.fates.get(key);
    if (key !== undefined && reusedFate !== undefined) return { key, fate: reusedFate, fingerprint };
    if (owned) internals.fingerprints.set(toolUseId, fingerprint);
    return { key: toolUseId, fate, fingerprint };
  }
  if (known.hash === fingerprint.hash) return { key: toolUseId, fate, fingerprint };
  return findReusedFate(internals, result, known, fingerprint, owned);
}

function findReusedFate(
  internals: StateInternals,
  { toolUseId, content }: ToolResultInput,
  known: ContentFingerprint,
  fingerprint: ContentFingerprint,
  owned: boolean,
): FoundFate {
  const key = reusedIdKey(toolUseId, fingerprint);
  const fate = internals.fates.get(key);
  if (fate !== undefined || !owned) return { key, fate, fingerprint };
  return { key, fate, fingerprint, reuse: { toolUseId, key, contentLength: content.length, earlierContentLength: known.length } };
}

function reportReuse(options: ToolResultBudgetOptions, reuse: ToolUseIdReuse): void {
  if (options.onToolUseIdReused) {
    options.onToolUseIdReused(reuse);
    return;
  }
  const message =
    `Tool-use id ${JSON.stringify(reuse.toolUseId)} was seen again with other content ` +
    `(${reuse.contentLength} characters, earlier ${reuse.earlierContentLength}); ` +
    `that content is judged on its own under ${JSON.stringify(reuse.key)}, and the earlier result keeps its fate. ` +
    `Pass options.onToolUseIdReused to handle this yourself.`;
  if (typeof process !== 'undefined' && typeof process.emitWarning === 'function') {
    process.emitWarning(message, { code: 'TOOL_RESULT_GUARD_TOOL_USE_ID_REUSED' });
  } else {
    console.warn(message);
  }
}

function reportPersistError(options: ToolResultBudgetOptions, error: unknown, toolUseId: string): void {
  if (options.onPersistError) {
    options.onPersistError(error, toolUseId);
    return;
  }
  const message =
    `Tool result ${JSON.stringify(toolUseId)} stays inline: persisting it failed (${errorMessage(error)}). ` +
    `Pass options.onPersistError to handle this yourself.`;
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
    throw new TypeError(
      `applyToolResultBudget: options.perMessageLimit must be a number >= 0 (characters per message), got ${describeValue(limit)}.`,
    );
  }
  if (typeof options.querySource !== 'string') {
    throw new TypeError(
      `applyToolResultBudget: options.querySource must be a string such as "repl_main_thread" or "agent:<name>", ` +
        `got ${describeValue(options.querySource)}.`,
    );
  }
}

/** A query source that owns storage needs a store that can persist. */
export function checkStore(options: ToolResultBudgetOptions, owned: boolean): void {
  if (owned && (typeof options.store !== 'object' || options.store === null || typeof options.store.persist !== 'function')) {
    throw new TypeError(
      `applyToolResultBudget: options.store must have persist(toolUseId, content) ` +
        `for query source ${JSON.stringify(options.querySource)}, which owns storage. Pass a ToolResultStore.`,
    );
  }
}

/**
 * Thresholds already resolved for a frozen tool list (the integrations'
 * sessions pass one on every step), with the overrides they were resolved
 * under. A list or an overrides map that is not frozen could change between
 * calls (flags refreshed in place): then they are resolved every time.
 */
const resolvedThresholds = new WeakMap<object, { readonly overrides: PersistenceOverrides; readonly thresholds: Map<string, number> }>();

export function resolveThresholds(
  tools: Iterable<PersistenceThresholdTool | object>,
  overrides: PersistenceOverrides,
): ReadonlyMap<string, number> {
  const frozen =
    Array.isArray(tools) && Object.isFrozen(tools) && (overrides === null || overrides === undefined || Object.isFrozen(overrides));
  const cached = frozen ? resolvedThresholds.get(tools) : undefined;
  if (cached !== undefined && cached.overrides === overrides) return cached.thresholds;
  const thresholds = resolveThresholdsOnce(tools, overrides);
  if (frozen) resolvedThresholds.set(tools, { overrides, thresholds });
  return thresholds;
}

function resolveThresholdsOnce(tools: Iterable<PersistenceThresholdTool | object>, overrides: PersistenceOverrides): Map<string, number> {
  if (tools === null || typeof tools !== 'object' || typeof (tools as Partial<Iterable<unknown>>)[Symbol.iterator] !== 'function') {
    throw new TypeError(
      'applyToolResultBudget: options.tools must be a list of { name, maxResultSizeChars } (pass toolMap.values() for a Map).',
    );
  }
  const thresholds = new Map<string, number>();
  for (const listed of tools) {
    // A framework tool wrapped in classifyTool carries its classification beside it, not in its own members.
    const tool = (classifiedThresholdTool(listed) ?? listed) as PersistenceThresholdTool;
    if (typeof tool !== 'object' || tool === null || typeof tool.name !== 'string') {
      throw new TypeError(
        `applyToolResultBudget: every entry of options.tools needs a string name and maxResultSizeChars, got ${describeValue(tool)}.`,
      );
    }
    const threshold = getEffectivePersistenceThreshold(tool, overrides);
    const earlier = thresholds.get(tool.name);
    if (earlier !== undefined && earlier !== threshold) {
      throw new TypeError(
        `applyToolResultBudget: tool ${JSON.stringify(tool.name)} is listed twice in options.tools ` +
          `with different thresholds (${earlier} and ${threshold}); list each tool once.`,
      );
    }
    thresholds.set(tool.name, threshold);
  }
  return thresholds;
}

export function checkResults(results: readonly ToolResultInput[], thresholds: ReadonlyMap<string, number>): void {
  if (!Array.isArray(results)) {
    throw new TypeError(
      'applyToolResultBudget: results must be an array of { toolUseId, toolName, content } (the tool results of one message).',
    );
  }
  for (let index = 0; index < results.length; index += 1) {
    const result = results[index] as ToolResultInput | undefined;
    // A hole is skipped, as forEach skipped it.
    if (result === undefined && !(index in results)) continue;
    if (
      typeof result !== 'object' ||
      result === null ||
      typeof result.toolUseId !== 'string' ||
      result.toolUseId.length === 0 ||
      typeof result.content !== 'string'
    ) {
      throw new TypeError(
        `applyToolResultBudget: results[${index}] must be { toolUseId: non-empty string, toolName: string, content: string }.`,
      );
    }
    if (!thresholds.has(result.toolName)) throw new UnclassifiedToolError(result.toolName, result.toolUseId);
  }
}
