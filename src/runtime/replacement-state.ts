import * as crypto from 'node:crypto';
import type { ForkableState, LiveState, SeenId } from '../types/brands.js';
import type { PersistedResultArgument } from '../types/replacement.js';
import {
  FateFrozenError,
  InvalidPersistedResultError,
  NotAReplacementStateError,
  ReadOnlyStateError,
  ReplacementWithoutSeenMarkError,
  StateOwnershipError,
  describeValue,
} from './errors.js';
import { formatPersistedOutput, isPersistResultShape } from './persisted-output.js';
import type { PersistedToolResult } from './store.js';

/**
 * What the budget has decided in one agent's session (frozen fates): which tool
 * results were judged (`seenIds`) and which of them were replaced, with the
 * exact replacement text. Both views are read-only; only this module's
 * functions and `applyToolResultBudget` change a state, so the seen mark and
 * the replacement can never drift apart.
 */
export type ReplacementState = LiveState<ReplacementStateViews>;

/** What a replacement state shows, live or as a snapshot (`ForkableState`). */
export interface ReplacementStateViews {
  readonly seenIds: ReadonlySet<string>;
  readonly replacements: ReadonlyMap<string, string>;
}

/** A transcript record of one replacement; a resume reapplies it verbatim. */
export interface ReplacementRecord {
  readonly kind: 'tool-result';
  readonly toolUseId: string;
  readonly replacement: string;
  /**
   * The replaced content's length and hash (`ContentFingerprint`). Records
   * from `applyToolResultBudget` carry them, so a resumed session still
   * recognises other content arriving under the same id.
   */
  readonly contentLength?: number;
  readonly contentHash?: string;
  /**
   * True when `toolUseId` had already been judged with other content: this
   * record is the fate of this content, kept under the id's reused key
   * (`<toolUseId>~<first 16 hex digits of contentHash>`).
   */
  readonly reusedId?: true;
}

/**
 * What a state keeps of a judged result's content, to tell whether the same
 * id later carries the same content: its length and a hash.
 */
export interface ContentFingerprint {
  /** In UTF-16 code units, as `content.length`. */
  readonly length: number;
  /**
   * 32 hex digits: the first 128 bits of SHA-256 over the content's UTF-8,
   * or over its UTF-16LE code units when it holds a lone surrogate (which
   * UTF-8 would turn into U+FFFD, making different contents hash alike).
   */
  readonly hash: string;
}

/** A record that `reconstructReplacementState` could not use, and why. */
export interface CorruptRecord {
  /** Position in the `records` given. */
  readonly index: number;
  readonly record: unknown;
  readonly reason: string;
}

export interface ReconstructOptions {
  /**
   * Receives each record that was skipped because it is malformed (an
   * empty replacement included), contradicts an earlier one, or names an id
   * that is not in `toolUseIds`. Without it, each becomes a process warning
   * (code `TOOL_RESULT_GUARD_CORRUPT_RECORD`): never silently dropped.
   */
  readonly onCorruptRecord?: (problem: CorruptRecord) => void;
}

/** A judged id's fate. `pending`: marked seen, persistence under way; callers wait on `settled`. */
export type Fate =
  | { readonly kind: 'inline' }
  | { readonly kind: 'replaced'; readonly replacement: string }
  | { readonly kind: 'pending'; readonly settled: Promise<void> };

export type FinalFate = Exclude<Fate, { kind: 'pending' }>;
export type PendingFate = Extract<Fate, { kind: 'pending' }>;

export const INLINE: FinalFate = Object.freeze({ kind: 'inline' });

/** The mutable truth behind a state's read-only views. Not exported from the package. */
export interface StateInternals {
  /** By fate key: the tool-use id, or a reused id's key for its later content. */
  readonly fates: Map<string, Fate>;
  readonly replacements: Map<string, string>;
  /** By fate key, the content it was judged with; absent when unknown (`markSeen`, a resume without one). */
  readonly fingerprints: Map<string, ContentFingerprint>;
  /** Tool-use id → the reused keys made for its other contents (a resumed fork inherits them with the id). */
  readonly reusedKeys: Map<string, string[]>;
  ownerAgentId: string | undefined;
}

const internalsByState = new WeakMap<object, StateInternals>();

class SeenIdsView implements ReadonlySet<string> {
  readonly #fates: ReadonlyMap<string, Fate>;

  constructor(fates: ReadonlyMap<string, Fate>) {
    this.#fates = fates;
  }

  get size(): number {
    return this.#fates.size;
  }

  has(id: string): boolean {
    return this.#fates.has(id);
  }

  keys(): SetIterator<string> {
    return this.#fates.keys();
  }

  values(): SetIterator<string> {
    return this.#fates.keys();
  }

  *entries(): SetIterator<[string, string]> {
    for (const id of this.#fates.keys()) yield [id, id];
  }

  forEach(callback: (value: string, key: string, set: ReadonlySet<string>) => void, thisArgument?: unknown): void {
    for (const id of this.#fates.keys()) callback.call(thisArgument, id, id, this);
  }

  [Symbol.iterator](): SetIterator<string> {
    return this.#fates.keys();
  }

  get [Symbol.toStringTag](): string {
    return 'ReadonlySet';
  }

  // Present so that `(state.seenIds as Set<string>).add(id)` fails loudly
  // instead of with "not a function" (or, worse, silently).
  add(): never {
    throw new ReadOnlyStateError('seenIds', 'add');
  }

  delete(): never {
    throw new ReadOnlyStateError('seenIds', 'delete');
  }

  clear(): never {
    throw new ReadOnlyStateError('seenIds', 'clear');
  }
}

class ReplacementsView implements ReadonlyMap<string, string> {
  readonly #replacements: ReadonlyMap<string, string>;

  constructor(replacements: ReadonlyMap<string, string>) {
    this.#replacements = replacements;
  }

  get size(): number {
    return this.#replacements.size;
  }

  get(id: string): string | undefined {
    return this.#replacements.get(id);
  }

  has(id: string): boolean {
    return this.#replacements.has(id);
  }

  keys(): MapIterator<string> {
    return this.#replacements.keys();
  }

  values(): MapIterator<string> {
    return this.#replacements.values();
  }

  entries(): MapIterator<[string, string]> {
    return this.#replacements.entries();
  }

  forEach(callback: (value: string, key: string, map: ReadonlyMap<string, string>) => void, thisArgument?: unknown): void {
    for (const [id, replacement] of this.#replacements) callback.call(thisArgument, replacement, id, this);
  }

  [Symbol.iterator](): MapIterator<[string, string]> {
    return this.#replacements.entries();
  }

  get [Symbol.toStringTag](): string {
    return 'ReadonlyMap';
  }

  set(): never {
    throw new ReadOnlyStateError('replacements', 'set');
  }

  delete(): never {
    throw new ReadOnlyStateError('replacements', 'delete');
  }

  clear(): never {
    throw new ReadOnlyStateError('replacements', 'clear');
  }
}

function newState(): { state: ReplacementState; internals: StateInternals } {
  const internals: StateInternals = {
    fates: new Map(),
    replacements: new Map(),
    fingerprints: new Map(),
    reusedKeys: new Map(),
    ownerAgentId: undefined,
  };
  const views: ReplacementStateViews = Object.freeze({
    seenIds: new SeenIdsView(internals.fates),
    replacements: new ReplacementsView(internals.replacements),
  });
  // The live mark exists only in the type (see LiveState).
  const state = views as ReplacementState;
  internalsByState.set(state, internals);
  return { state, internals };
}

/** The internals of a state this module made; throws for anything else. */
export function internalsOf(state: ReplacementState, what = 'The state given'): StateInternals {
  const internals = typeof state === 'object' && state !== null ? internalsByState.get(state) : undefined;
  if (!internals) throw new NotAReplacementStateError(what);
  return internals;
}

/** A fresh state for a new session's main thread or agent. */
export function createReplacementState(): ReplacementState {
  return newState().state;
}

/**
 * A fully independent copy for a fork or subagent: the child starts with
 * every decision the parent made and its own future ones stay its own. A
 * decision the parent still has pending is inherited when it settles. The
 * copy is a snapshot, bound to no agent yet: the child adopts it
 * (`adoptReplacementState`).
 */
export function cloneReplacementState(state: ReplacementState): ForkableState<ReplacementState> {
  const source = internalsOf(state, 'cloneReplacementState(state): state');
  const copy = newState();
  for (const [id, fate] of source.fates) inheritFate(copy.internals, id, source, fate);
  for (const [key, fingerprint] of source.fingerprints) copy.internals.fingerprints.set(key, fingerprint);
  for (const [id, keys] of source.reusedKeys) copy.internals.reusedKeys.set(id, [...keys]);
  return copy.state as unknown as ForkableState<ReplacementState>;
}

/**
 * Rebuilds a state on resume. Every id in `toolUseIds` (the tool results in
 * the transcript) is seen; replacements come verbatim from `records` for
 * those ids (the first record for an id wins), so a resumed prompt is
 * byte-identical to the one before. `inherited` (a parent's state, for a
 * resumed fork) fills the gaps: ids in the transcript with no record of
 * their own. Malformed records, and records for ids the transcript does
 * not show, are skipped and reported (see `ReconstructOptions`).
 */
export function reconstructReplacementState(
  toolUseIds: Iterable<string>,
  records: Iterable<unknown>,
  inherited?: ReplacementState | null,
  options: ReconstructOptions = {},
): ForkableState<ReplacementState> {
  const parent =
    inherited === undefined || inherited === null ? undefined : internalsOf(inherited, 'reconstructReplacementState: inherited');
  const report = options.onCorruptRecord ?? emitCorruptRecordWarning;

  // By fate key: the tool-use id, or a reused id's key for a later content.
  const recordedReplacements = new Map<string, string>();
  // Where each applied record sits, to report one whose id the transcript lacks.
  const recordIndexes = new Map<string, number>();
  const recordedFingerprints = new Map<string, ContentFingerprint>();
  // Reused key → its tool-use id, applied once the transcript shows that id.
  const reusedRecords = new Map<string, string>();
  const recordList: unknown[] = [];
  let index = 0;
  for (const record of records) {
    const problem = findRecordProblem(record);
    if (problem !== undefined) {
      report({ index, record, reason: problem });
    } else {
      const { toolUseId, replacement, contentLength, contentHash, reusedId } = record as ReplacementRecord;
      const fingerprint =
        contentLength === undefined || contentHash === undefined ? undefined : { length: contentLength, hash: contentHash };
      const key = reusedId === true ? reusedIdKey(toolUseId, fingerprint as ContentFingerprint) : toolUseId;
      const earlier = recordedReplacements.get(key);
      if (earlier === undefined) {
        recordedReplacements.set(key, replacement);
        recordIndexes.set(key, index);
        if (fingerprint) recordedFingerprints.set(key, fingerprint);
        if (key !== toolUseId) reusedRecords.set(key, toolUseId);
      } else if (earlier !== replacement) {
        report({ index, record, reason: `a second, different replacement for ${JSON.stringify(toolUseId)}; the first record wins` });
      }
    }
    recordList.push(record);
    index += 1;
  }

  const { state, internals } = newState();
  let position = 0;
  for (const id of toolUseIds) {
    if (typeof id !== 'string' || id.length === 0) {
      throw new TypeError(
        `reconstructReplacementState: toolUseIds[${position}] is ${describeValue(id)}; ` +
          `every entry must be the non-empty tool-use id of a tool result in the transcript.`,
      );
    }
    position += 1;
    // A repeated id gets the same fate again, so it needs no membership test.
    const replacement = recordedReplacements.size === 0 ? undefined : recordedReplacements.get(id);
    if (replacement !== undefined) {
      setFinalFate(internals, id, { kind: 'replaced', replacement });
      const fingerprint = recordedFingerprints.get(id);
      if (fingerprint) internals.fingerprints.set(id, fingerprint);
      continue;
    }
    const inheritedFate = parent?.fates.get(id);
    if (parent && inheritedFate) {
      if (inheritedFate.kind !== 'pending' || !internals.fates.has(id)) {
        inheritFate(internals, id, parent, inheritedFate);
        inheritContentKeys(internals, id, parent);
      }
    } else {
      internals.fates.set(id, INLINE);
    }
  }
  // A reused id's later contents keep their own fates, for ids the transcript shows.
  for (const [key, toolUseId] of reusedRecords) {
    if (!internals.fates.has(toolUseId)) continue;
    setFinalFate(internals, key, { kind: 'replaced', replacement: recordedReplacements.get(key) as string });
    internals.fingerprints.set(key, recordedFingerprints.get(key) as ContentFingerprint);
    addReusedKey(internals, toolUseId, key);
  }
  // A record for an id the transcript does not show means the two disagree
  // (a truncated transcript, records of another session): say so rather
  // than drop it without a word.
  if (recordIndexes.size > 0) {
    for (const [key, recordIndex] of recordIndexes) {
      if (internals.fates.has(key)) continue;
      const record = recordList[recordIndex] as ReplacementRecord;
      report({
        index: recordIndex,
        record,
        reason:
          `its toolUseId ${JSON.stringify(record.toolUseId)} is not among the transcript's tool results (toolUseIds), ` +
          `so it was not applied`,
      });
    }
  }
  return state as unknown as ForkableState<ReplacementState>;
}

/**
 * Makes a snapshot (a clone or a reconstruction) the live state of the agent
 * that received it: the child of a fork, or the main thread after a resume.
 * At run time it is the same object; with `agentId` it is bound to that
 * agent at once, so any other agent that uses it (a grandchild handed the
 * child's state, a fork handed the resumed main thread's) throws
 * `StateOwnershipError`, the run-time twin of the compile error on
 * `ForkableState`.
 */
export function adoptReplacementState(snapshot: ForkableState<ReplacementState>, agentId?: string): ReplacementState {
  const state = snapshot as unknown as ReplacementState;
  const internals = internalsOf(state, 'adoptReplacementState(snapshot, agentId): snapshot');
  if (agentId !== undefined && (typeof agentId !== 'string' || agentId.length === 0)) {
    throw new TypeError(
      `adoptReplacementState(snapshot, agentId): agentId must be a non-empty string when given, got ${describeValue(agentId)}.`,
    );
  }
  bindToAgent(internals, agentId);
  return state;
}

/**
 * Marks `toolUseId` as judged (frozen fates: as soon as it is eligible, even if
 * it stays inline) and returns it as a `SeenId`, the only id
 * `recordReplacement` accepts. Marking an id again changes nothing.
 */
export function markSeen(state: ReplacementState, toolUseId: string): SeenId {
  const internals = internalsOf(state, 'markSeen(state, id): state');
  if (typeof toolUseId !== 'string' || toolUseId.length === 0) {
    throw new TypeError(`markSeen(state, id): id must be a non-empty tool-use id, got ${describeValue(toolUseId)}.`);
  }
  if (!internals.fates.has(toolUseId)) internals.fates.set(toolUseId, INLINE);
  return toolUseId as SeenId;
}

/**
 * Records the replacement for a seen id from the result of a successful
 * `store.persist` (frozen fates: store the preview only after persistence
 * succeeded) and returns the transcript record to log for resume. Recording
 * the identical replacement again is a no-op; a different one throws
 * `FateFrozenError`.
 */
export function recordReplacement<Persisted extends PersistedToolResult | string>(
  state: ReplacementState,
  seenId: SeenId,
  persisted: PersistedResultArgument<Persisted>,
): ReplacementRecord;
// The signature above is the public one: a string gets a compile error naming store.persist.
export function recordReplacement(state: ReplacementState, seenId: SeenId, persisted: PersistedToolResult): ReplacementRecord {
  const internals = internalsOf(state, 'recordReplacement(state, seenId, persisted): state');
  const fate = internals.fates.get(seenId);
  if (fate === undefined) throw new ReplacementWithoutSeenMarkError(String(seenId));
  const problem = findPersistedResultProblem(persisted);
  if (problem !== undefined) throw new InvalidPersistedResultError(problem);
  const replacement = formatPersistedOutput(persisted);
  if (fate.kind === 'pending') throw new FateFrozenError(seenId, 'applyToolResultBudget is persisting it right now');
  if (fate.kind === 'replaced' && fate.replacement !== replacement) {
    throw new FateFrozenError(seenId, 'it was already replaced with a different preview');
  }
  setFinalFate(internals, seenId, { kind: 'replaced', replacement });
  return Object.freeze({ kind: 'tool-result', toolUseId: seenId, replacement });
}

/**
 * Binds a state to the agent that first uses it; another agent using the
 * same object is the runtime twin of sharing live state with a fork.
 */
export function bindToAgent(internals: StateInternals, agentId: string | undefined): void {
  if (agentId === undefined) return;
  if (typeof agentId !== 'string' || agentId.length === 0) {
    throw new TypeError(`options.agentId must be a non-empty string when given, got ${describeValue(agentId)}.`);
  }
  if (internals.ownerAgentId === undefined) internals.ownerAgentId = agentId;
  else if (internals.ownerAgentId !== agentId) throw new StateOwnershipError(internals.ownerAgentId, agentId);
}

export function setFinalFate(internals: StateInternals, id: string, fate: FinalFate): void {
  internals.fates.set(id, fate);
  if (fate.kind === 'replaced') internals.replacements.set(id, fate.replacement);
}

/**
 * Marks `id` seen with a pending fate, synchronously. `settle` freezes the
 * final fate and wakes every caller waiting on it.
 */
export function beginPendingFate(internals: StateInternals, id: string): (fate: FinalFate) => void {
  let wake!: () => void;
  const pending: Fate = { kind: 'pending', settled: new Promise<void>((resolve) => (wake = resolve)) };
  internals.fates.set(id, pending);
  return (fate) => {
    if (internals.fates.get(id) === pending) setFinalFate(internals, id, fate);
    wake();
  };
}

/**
 * One pending fate shared by every id a budget call is persisting: marking
 * thousands of ids costs one promise, not one each. `finish` wakes every
 * caller waiting on any of them, after the call has frozen their final fates.
 */
export interface PendingBatch {
  readonly fate: PendingFate;
  readonly finish: () => void;
}

export function createPendingBatch(): PendingBatch {
  let wake!: () => void;
  const fate: PendingFate = { kind: 'pending', settled: new Promise<void>((resolve) => (wake = resolve)) };
  return { fate, finish: () => wake() };
}

function inheritFate(target: StateInternals, id: string, source: StateInternals, fate: Fate): void {
  if (fate.kind !== 'pending') {
    setFinalFate(target, id, fate);
    return;
  }
  const settle = beginPendingFate(target, id);
  void fate.settled.then(() => {
    const settled = source.fates.get(id);
    settle(settled === undefined || settled.kind === 'pending' ? INLINE : settled);
  });
}

/** The fingerprint of `content`: its length and a hash (see `ContentFingerprint`). */
export function fingerprintOf(content: string): ContentFingerprint {
  // Domain-separated, so no UTF-8 input can hash like another's UTF-16LE.
  const wellFormed = (content as unknown as WellFormedCheck).isWellFormed();
  // One-shot hashing (Node >= 20.12) costs half of a Hash object for the
  // short results an agent loop judges on every step; same bytes, same digest.
  if (oneShotHash !== undefined) {
    const digest = wellFormed
      ? oneShotHash('sha256', `utf8\0${content}`, 'hex')
      : oneShotHash('sha256', Buffer.concat([Buffer.from('utf16le\0'), Buffer.from(content, 'utf16le')]), 'hex');
    return { length: content.length, hash: digest.slice(0, 32) };
  }
  const hash = crypto.createHash('sha256');
  if (wellFormed) hash.update('utf8\0').update(content, 'utf8');
  else hash.update('utf16le\0').update(content, 'utf16le');
  return { length: content.length, hash: hash.digest('hex').slice(0, 32) };
}

/**
 * Results up to this many characters get a deferred fingerprint: the budget
 * keeps the content and hashes it only when something asks for the hash (a
 * record, a reused key, a later content of the same length that is not the
 * same string). An agent loop judges a fresh result on every step and most
 * of them are never asked about again; above this size the hash is taken at
 * once, so the state never holds a large result's text.
 */
export const DEFERRED_FINGERPRINT_MAX_CHARS = 32_768;

/** A fingerprint whose hash is taken on first use (see `DEFERRED_FINGERPRINT_MAX_CHARS`). */
export class DeferredFingerprint implements ContentFingerprint {
  readonly length: number;
  #content: string | undefined;
  #hash: string | undefined;

  constructor(content: string) {
    this.length = content.length;
    this.#content = content;
  }

  get hash(): string {
    if (this.#hash === undefined) {
      this.#hash = fingerprintOf(this.#content as string).hash;
      this.#content = undefined;
    }
    return this.#hash;
  }

  /** Whether `content` is the content fingerprinted: a string comparison while the text is kept, else the hashes. */
  matches(content: string): boolean {
    if (this.#content !== undefined) return this.#content === content;
    return content.length === this.length && fingerprintOf(content).hash === this.#hash;
  }
}

/** The fingerprint the budget keeps for a fresh result: deferred for results up to `DEFERRED_FINGERPRINT_MAX_CHARS`. */
export function judgedFingerprintOf(content: string): ContentFingerprint {
  return content.length <= DEFERRED_FINGERPRINT_MAX_CHARS ? new DeferredFingerprint(content) : fingerprintOf(content);
}

/** `crypto.hash`, where this Node has it. */
const oneShotHash = (crypto as { hash?: (algorithm: string, data: string | Buffer, outputEncoding: 'hex') => string }).hash;

/** `String.prototype.isWellFormed` (Node >= 20), missing from the ES2023 lib the package compiles against. */
interface WellFormedCheck {
  isWellFormed(): boolean;
}

/**
 * The fate key of a tool-use id's later, different content: the id plus
 * 16 hex digits of the content's hash. Deterministic, so the same content
 * under the same id finds its fate again in every turn, fork and resume.
 */
export function reusedIdKey(toolUseId: string, fingerprint: ContentFingerprint): string {
  return `${toolUseId}~${fingerprint.hash.slice(0, 16)}`;
}

export function addReusedKey(internals: StateInternals, toolUseId: string, key: string): void {
  const keys = internals.reusedKeys.get(toolUseId);
  if (keys === undefined) internals.reusedKeys.set(toolUseId, [key]);
  else if (!keys.includes(key)) keys.push(key);
}

/** Copies what `source` knows of `id`'s content, and the fates of its reused keys. */
function inheritContentKeys(target: StateInternals, id: string, source: StateInternals): void {
  const fingerprint = source.fingerprints.get(id);
  if (fingerprint) target.fingerprints.set(id, fingerprint);
  for (const key of source.reusedKeys.get(id) ?? []) {
    const fate = source.fates.get(key);
    if (fate === undefined || target.fates.has(key)) continue;
    inheritFate(target, key, source, fate);
    const keyFingerprint = source.fingerprints.get(key);
    if (keyFingerprint) target.fingerprints.set(key, keyFingerprint);
    addReusedKey(target, id, key);
  }
}

const CONTENT_HASH = /^[0-9a-f]{32}$/u;

/**
 * Why `persisted` cannot be the result of a successful persist, or
 * undefined. Only the shape and its consistency are checked: the result of
 * a custom persister (any `ToolResultPersister`) is as good as the store's,
 * so a well-formed object is accepted even when no store made it.
 */
function findPersistedResultProblem(persisted: unknown): string | undefined {
  if (!isPersistResultShape(persisted)) return `is ${describeValue(persisted)}, not { path, size, preview }`;
  if (persisted.path.length === 0) return 'has an empty path';
  if (!Number.isSafeInteger(persisted.size) || persisted.size < 0)
    return `has size ${describeValue(persisted.size)}, not a character count`;
  if (persisted.preview.length > persisted.size) {
    return `has a preview of ${persisted.preview.length} characters, longer than the ${persisted.size} characters persisted`;
  }
  return undefined;
}

function findRecordProblem(record: unknown): string | undefined {
  if (typeof record !== 'object' || record === null) return `it is ${describeValue(record)}, not a record object`;
  const candidate = record as Partial<Record<keyof ReplacementRecord, unknown>>;
  if (candidate.kind !== 'tool-result') return `its kind is ${describeValue(candidate.kind)}, not "tool-result"`;
  if (typeof candidate.toolUseId !== 'string' || candidate.toolUseId.length === 0) {
    return `its toolUseId is ${describeValue(candidate.toolUseId)}, not a non-empty string`;
  }
  // An empty replacement would put nothing where a tool result was: as corrupt as a missing one.
  if (typeof candidate.replacement !== 'string' || candidate.replacement.length === 0) {
    return `its replacement is ${describeValue(candidate.replacement)}, not a non-empty string`;
  }
  const { contentLength, contentHash, reusedId } = candidate;
  if (contentLength !== undefined && (typeof contentLength !== 'number' || !Number.isSafeInteger(contentLength) || contentLength < 0)) {
    return `its contentLength is ${describeValue(contentLength)}, not a character count`;
  }
  if (contentHash !== undefined && (typeof contentHash !== 'string' || !CONTENT_HASH.test(contentHash))) {
    return `its contentHash is ${describeValue(contentHash)}, not 32 hex digits`;
  }
  if ((contentLength === undefined) !== (contentHash === undefined)) return 'it has only one of contentLength and contentHash';
  if (reusedId !== undefined && (reusedId !== true || contentHash === undefined)) {
    return `its reusedId is ${describeValue(reusedId)}; it must be true, and only on a record with contentLength and contentHash`;
  }
  return undefined;
}

function emitCorruptRecordWarning(problem: CorruptRecord): void {
  const message =
    `reconstructReplacementState skipped record #${problem.index}: ${problem.reason}. ` +
    `Pass options.onCorruptRecord to handle such records yourself.`;
  if (typeof process !== 'undefined' && typeof process.emitWarning === 'function') {
    process.emitWarning(message, { code: 'TOOL_RESULT_GUARD_CORRUPT_RECORD' });
  } else {
    console.warn(message);
  }
}
