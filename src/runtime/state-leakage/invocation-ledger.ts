/**
 * The invocation ledger: one per session. It wraps a stateful tool's calls,
 * hands each call the state its scope allows, evaluates the reference guard's gates before
 * the call runs, and records per call the reference guard's four receipts:
 *
 * - `tool_state_scope_receipt`: what state the call could carry forward;
 * - `invocation_state_delta_signature`: what state the call changed;
 * - `invocation_isolation_policy_receipt`: the policy and session budget it ran under;
 * - `state_leakage_detection_signature`: the verdict, prior deltas, auth-scope
 *   widening and stale cache returns: the leakage and its impact.
 *
 * Each receipt carries `digest`: SHA-256 of Python's `json.dumps(receipt without
 * digest, sort_keys=True)`, so a Python service can verify it from the JSONL line.
 */
import { isScopeWider, STATE_SCOPES, widestScope } from './state-carrier.js';
import type {
  AuthScopeSnapshot,
  CarrierDescription,
  CarrierInstance,
  HandleOf,
  InvocationStateKey,
  InvocationStateRecorder,
  StaleCacheReturn,
  StateCarrierLike,
  StateChange,
  StateScope,
} from './state-carrier.js';
import type { SessionLimitReport, SessionRateLimit } from './session-rate-limit.js';
import {
  directiveAction,
  evaluateGates,
  InvalidStatePolicyError,
  resolveAccumulatedDeltaThreshold,
  StateVerdict,
  type IsolationPolicy,
  type StateGate,
  type StateLeakPolicy,
  type ToolInvocation,
} from './evaluate-invocation.js';
import { JournalWriter, LEDGER_FORMAT, LedgerJournalError, loadJournal, sealRecord } from './journal.js';
import type { BrokenJournalLine, JournalDurability, JournalRecordBase, LedgerHmacKey, LoadedJournal } from './journal.js';
import { JournalLock } from './journal-lock.js';
import { describeValue } from '../errors.js';
import { digestOfJson, sha256Hex, sha256HexSurrogatePass, type PythonJsonValue } from './python-json.js';

export const ISOLATION_POLICY_OF_SCOPE: Readonly<Record<StateScope, IsolationPolicy>> = {
  isolated: 'ISOLATED',
  session: 'SESSION_SHARED',
  agent: 'AGENT_SHARED',
};

export type HaltHandling = 'refuse' | 'warn';

export interface LedgerPolicy extends StateLeakPolicy {
  /** When the next call would reach `maxSessionUsageRatio`: `refuse` (default) does not run it; `warn` runs it and records the warning. */
  readonly onSessionLimit?: HaltHandling;
  /** When isolation is required but missing, or auth scope widened: `refuse` (default) or `warn`. */
  readonly onLeakage?: HaltHandling;
}

/** Everything the ledger needs to know about a stateful tool. */
export interface StatefulTool<Input, Result, Carriers extends Readonly<Record<string, StateCarrierLike>>> {
  readonly toolId: string;
  /** What the tool declares (the lint rule asks for it). Must be at least as wide as every carrier's scope. */
  readonly stateScope?: StateScope;
  readonly carriers?: Carriers;
  readonly sessionLimit?: SessionRateLimit;
  /** `false` exempts the tool from `requireIsolationForCritical`. Default true. */
  readonly critical?: boolean;
  invoke(input: Input, state: CarrierHandles<Carriers>, call: InvocationCall): Result | Promise<Result>;
}

export type CarrierHandles<Carriers> = { readonly [Name in keyof Carriers]: HandleOf<Carriers[Name]> };

/** What one call may know about itself. */
export interface InvocationCall {
  readonly invocationId: string;
  readonly toolId: string;
  readonly sessionId: string;
  readonly agentId: string;
  /** For state the ledger cannot see (the tool's own fields): describe the change so it lands in the delta. */
  noteStateChange(description: string): void;
}

/** Identity helper that keeps the carriers' handle types. */
export function defineStatefulTool<Input, Result, Carriers extends Readonly<Record<string, StateCarrierLike>> = Record<never, never>>(
  tool: StatefulTool<Input, Result, Carriers>,
): StatefulTool<Input, Result, Carriers> {
  return tool;
}

export interface AuthScopeWidening {
  readonly carrier: string;
  readonly credential: string;
  readonly from: readonly string[];
  readonly to: readonly string[];
  readonly added: readonly string[];
}

export type LedgerGate = StateGate | 'auth-scope';
export type InvocationOutcome = 'ran' | 'refused' | 'failed';

export interface ToolStateScopeReceipt {
  readonly invocationId: string;
  readonly toolId: string;
  readonly declaredStateScope: StateScope | null;
  readonly effectiveStateScope: StateScope;
  readonly isolationPolicy: IsolationPolicy;
  readonly hasSessionState: boolean;
  readonly carriers: readonly CarrierDescription[];
  readonly sessionLimiter: string | null;
  readonly digest: string;
}

export interface InvocationStateDeltaSignature {
  readonly invocationId: string;
  readonly toolId: string;
  readonly changes: readonly StateChange[];
  /** The reference guard's `state_delta_hash`: `null` when the call changed no state. */
  readonly stateDeltaHash: string | null;
  readonly digest: string;
}

export interface InvocationIsolationPolicyReceipt {
  readonly invocationId: string;
  readonly toolId: string;
  readonly isolationPolicy: IsolationPolicy;
  readonly requireIsolationForCritical: boolean;
  readonly critical: boolean;
  readonly maxSessionUsageRatio: number;
  readonly accumulatedDeltaThreshold: number;
  readonly onSessionLimit: HaltHandling;
  readonly onLeakage: HaltHandling;
  /** The budget as seen *before* the call: the session can plan with it. */
  readonly sessionLimit: SessionLimitReport | null;
  readonly digest: string;
}

export interface StateLeakageDetectionSignature {
  readonly invocationId: string;
  readonly toolId: string;
  readonly gate: LedgerGate;
  readonly verdict: StateVerdict;
  readonly directive: string;
  readonly manifestDigest: string;
  readonly outcome: InvocationOutcome;
  /** The deltas earlier calls left in this call's state: how many, and a digest that commits to all of them. */
  readonly priorStateDeltas: PriorStateDeltas;
  readonly authScopeWidenings: readonly AuthScopeWidening[];
  readonly staleCacheReturns: readonly StaleCacheReturn[];
  readonly resultHash: string;
  readonly digest: string;
}

/**
 * Prior deltas, summarised so a receipt stays small however long the session:
 * every delta hash is in the delta signature of the call that made it, and
 * `chainDigest` commits to the sequence (per instance, `chain = sha256(previousChain + ':' + deltaHash)`
 * starting from the empty string; several instances: SHA-256 of the Python-sorted JSON list of their chains).
 */
export interface PriorStateDeltas {
  readonly count: number;
  readonly chainDigest: string | null;
}

/** Running chain digests of each instance's delta history; lives with the instance (agent-scoped ones span sessions). */
const deltaChains = new WeakMap<object, string>();

function appendDeltaChain(owner: object, deltaHash: string): void {
  deltaChains.set(owner, sha256Hex(`${deltaChains.get(owner) ?? ''}:${deltaHash}`));
}

export interface InvocationReceipts {
  readonly tool_state_scope_receipt: ToolStateScopeReceipt;
  readonly invocation_state_delta_signature: InvocationStateDeltaSignature;
  readonly invocation_isolation_policy_receipt: InvocationIsolationPolicyReceipt;
  readonly state_leakage_detection_signature: StateLeakageDetectionSignature;
}

export interface InvocationRecord extends JournalRecordBase {
  readonly type: 'invocation';
  readonly sequence: number;
  readonly sessionId: string;
  readonly agentId: string;
  readonly invocationId: string;
  readonly toolId: string;
  readonly outcome: InvocationOutcome;
  readonly warnings: readonly string[];
  readonly error: string | null;
  readonly receipts: InvocationReceipts;
}

export class InvocationRefusedError extends Error {
  readonly code = 'INVOCATION_REFUSED';
  readonly record: InvocationRecord;
  constructor(record: InvocationRecord) {
    const signature = record.receipts.state_leakage_detection_signature;
    super(
      `Tool ${record.toolId} was not called (${signature.verdict}): ${signature.directive} ` +
        (signature.gate === 'session-limit'
          ? 'Plan around the session budget, start a new session, or set onSessionLimit: "warn".'
          : 'Reset the tool state (ledger.resetState), isolate the tool, or set onLeakage: "warn".'),
    );
    this.name = 'InvocationRefusedError';
    this.record = record;
  }
}

export class StateScopeMismatchError extends Error {
  readonly code = 'STATE_SCOPE_MISMATCH';
  constructor(message: string) {
    super(message);
    this.name = 'StateScopeMismatchError';
  }
}

export interface InvocationLedgerOptions {
  readonly sessionId: string;
  /** Agent-scoped carriers are shared by every session of the same agent. Default `'agent'`. */
  readonly agentId?: string;
  readonly policy: LedgerPolicy;
  /** Append-only JSONL journal; on open, an existing journal is reloaded (resume). */
  readonly journalPath?: string;
  readonly durability?: JournalDurability;
  /**
   * Secret for an HMAC-SHA256 record chain and checkpoint: without it, anyone
   * who can write the journal can rewrite a record and recompute every digest.
   * A journal written with a key must be opened with the same key.
   */
  readonly hmacKey?: LedgerHmacKey;
  /** Called with every record once it is written. */
  readonly onRecord?: (record: InvocationRecord) => void;
}

export interface ResumeReport {
  readonly resumed: boolean;
  readonly recordsLoaded: number;
  readonly invocationsLoaded: number;
  readonly brokenLastLine: BrokenJournalLine | null;
}

interface AcquiredCarrier {
  readonly name: string;
  readonly carrier: StateCarrierLike;
  readonly instance: CarrierInstance;
}

type LedgerManifest = { gate: LedgerGate; verdict: StateVerdict; directive: string; manifestDigest: string };

/** One call from its start to its receipts: what the gates see before it runs and what it changed. */
interface CallInProgress {
  readonly tool: AnyTool;
  readonly sequence: number;
  readonly invocationId: string;
  readonly key: InvocationStateKey;
  readonly effectiveScope: StateScope;
  readonly isolationPolicy: IsolationPolicy;
  readonly hasSessionState: boolean;
  readonly critical: boolean;
  readonly acquired: readonly AcquiredCarrier[];
  readonly carrierDescriptions: CarrierDescription[];
  readonly priorStateDeltaCount: number;
  readonly priorStateDeltas: PriorStateDeltas;
  readonly sessionLimit: SessionLimitReport | null;
  /** Auth scopes of the credentials the call starts with: the next call's widening baseline. */
  readonly authStart: readonly { carrier: StateCarrierLike; snapshot: AuthScopeSnapshot }[];
  readonly authScopeWidenings: AuthScopeWidening[];
  readonly changes: StateChange[];
  readonly staleCacheReturns: StaleCacheReturn[];
  readonly recorder: InvocationStateRecorder;
  readonly warnings: string[];
}

/** The auth baseline is kept per tool and carrier: two tools sharing a jar each compare with their own previous call. */
function carrierKey(toolId: string, carrierName: string): string {
  return `${toolId}\u0000${carrierName}`;
}

type AnyTool = StatefulTool<never, unknown, Readonly<Record<string, StateCarrierLike>>>;

export class InvocationLedger {
  readonly sessionId: string;
  readonly agentId: string;
  readonly policy: Required<LedgerPolicy>;
  readonly resumeReport: ResumeReport;
  readonly #records: InvocationRecord[] = [];
  readonly #journal: JournalWriter | null;
  readonly #onRecord: ((record: InvocationRecord) => void) | undefined;
  readonly #hmacKey: LedgerHmacKey | undefined;
  #sequence = 0;
  #lastRecordDigest: string | null = null;
  /** Auth scopes each tool's previous call started with, per carrier: the reference for widening. */
  readonly #authScopesAtPreviousCall = new Map<string, Readonly<Record<string, readonly string[]>>>();
  /** Delta digests of tools whose state the ledger cannot see (declared scope, no carriers). */
  readonly #undeclaredStateHistory = new Map<string, string[]>();
  /** Session budget already spent before a resume, by limiter name. */
  readonly #restoredUsage = new Map<string, number>();
  readonly #limitersRestored = new WeakSet<SessionRateLimit>();
  #closed = false;

  private constructor(options: InvocationLedgerOptions) {
    if (typeof options.sessionId !== 'string' || options.sessionId === '') {
      throw new TypeError('InvocationLedger needs a non-empty sessionId: receipts and shared state are keyed by it.');
    }
    this.sessionId = options.sessionId;
    this.agentId = options.agentId ?? 'agent';
    this.policy = resolveLedgerPolicy(options.policy);
    this.#onRecord = options.onRecord;
    this.#hmacKey = checkHmacKey(options.hmacKey, options.journalPath ?? '');
    if (options.journalPath === undefined) {
      this.#journal = null;
      this.resumeReport = { resumed: false, recordsLoaded: 0, invocationsLoaded: 0, brokenLastLine: null };
      return;
    }
    // Locked before the journal is read: a second writer must neither repair its tail nor append to it.
    const lock = JournalLock.acquire(options.journalPath);
    let loaded: LoadedJournal;
    try {
      loaded = loadJournal(options.journalPath, { hmacKey: this.#hmacKey });
      for (const record of loaded.records) this.#replay(record, options.journalPath);
      this.#journal = new JournalWriter(options.journalPath, options.durability ?? 'fsync', {
        lock,
        checkpoint: { records: loaded.records.length, head: this.#lastRecordDigest },
        hmacKey: this.#hmacKey,
      });
    } catch (error) {
      lock.release();
      throw error;
    }
    this.resumeReport = {
      resumed: loaded.records.length > 0,
      recordsLoaded: loaded.records.length,
      invocationsLoaded: this.#records.length,
      brokenLastLine: loaded.brokenLastLine,
    };
    try {
      this.#write({
        type: loaded.records.length > 0 ? 'ledger-resumed' : 'ledger-opened',
        format: LEDGER_FORMAT,
        sessionId: this.sessionId,
        agentId: this.agentId,
        discardedBrokenLine:
          loaded.brokenLastLine === null
            ? null
            : {
                lineNumber: loaded.brokenLastLine.lineNumber,
                reason: loaded.brokenLastLine.reason,
                savedTo: loaded.brokenLastLine.savedTo,
              },
      });
    } catch (error) {
      this.#journal.close();
      throw error;
    }
  }

  /** Opens a ledger; with `journalPath`, reloads what an earlier process recorded for this session. */
  static open(options: InvocationLedgerOptions): InvocationLedger {
    return new InvocationLedger(options);
  }

  /** Every invocation recorded in this session, oldest first (including those reloaded on resume). */
  get records(): readonly InvocationRecord[] {
    return this.#records;
  }

  /** The tool's session budget before its next call (`null` when it has no limiter). */
  sessionLimitReport(tool: Pick<AnyTool, 'sessionLimit'>): SessionLimitReport | null {
    const limiter = tool.sessionLimit;
    if (limiter === undefined) return null;
    this.#restoreLimiter(limiter);
    return limiter.report({ agentId: this.agentId, sessionId: this.sessionId });
  }

  /**
   * The session takes charge of the tool's state: its shared carrier instances
   * are dropped and the auth baseline forgotten, so the next call starts fresh.
   */
  resetState(tool: Pick<AnyTool, 'toolId' | 'carriers'>): void {
    const dropped: string[] = [];
    for (const [name, carrier] of Object.entries(tool.carriers ?? {})) {
      if (carrier.reset({ agentId: this.agentId, sessionId: this.sessionId })) dropped.push(name);
      this.#authScopesAtPreviousCall.delete(carrierKey(tool.toolId, carrier.name));
    }
    this.#undeclaredStateHistory.delete(tool.toolId);
    if (this.#journal !== null) this.#write({ type: 'state-reset', sessionId: this.sessionId, toolId: tool.toolId, carriers: dropped });
  }

  /** Wraps a tool so every call goes through the ledger; resolves to the tool's result. */
  wrap<Input, Result, Carriers extends Readonly<Record<string, StateCarrierLike>>>(
    tool: StatefulTool<Input, Result, Carriers>,
  ): (input: Input, options?: { invocationId?: string }) => Promise<Result> {
    return async (input, options) => (await this.invoke(tool, input, options)).result;
  }

  /** Calls the tool under the policy; resolves to its result and the call's record. Throws `InvocationRefusedError` on refusal. */
  async invoke<Input, Result, Carriers extends Readonly<Record<string, StateCarrierLike>>>(
    tool: StatefulTool<Input, Result, Carriers>,
    input: Input,
    options?: { invocationId?: string },
  ): Promise<{ result: Result; record: InvocationRecord }> {
    if (this.#closed) {
      throw new LedgerJournalError(
        'LEDGER_CLOSED',
        this.#journal?.path ?? '',
        'This ledger is closed; open a new one (same journalPath) to resume the session.',
      );
    }
    const call = this.#begin(tool, options?.invocationId);
    // The gates run before the tool: a halted call must never spend budget or touch state.
    const preflight = this.#evaluate(call, null, '');
    if (directiveAction(preflight.directive) !== 'PROCEED') call.warnings.push(preflight.directive);
    if (this.#refuses(preflight)) throw new InvocationRefusedError(this.#finish(call, 'refused', '', null));

    this.#spendSessionBudget(call);
    let result: Result;
    try {
      result = await tool.invoke(input, this.#handles<Carriers>(call), this.#callInfo(call));
    } catch (error) {
      this.#finish(call, 'failed', sha256HexSurrogatePass(`error:${describeError(error)}`), describeError(error));
      throw error;
    }
    return { result, record: this.#finish(call, 'ran', hashResult(result), null) };
  }

  /** Everything about the call that is fixed before it runs: its state, its prior deltas, its budget, its auth baseline. */
  #begin(tool: AnyTool, requestedInvocationId: string | undefined): CallInProgress {
    const effectiveScope = checkDeclaredScope(tool);
    this.#sequence += 1;
    const sequence = this.#sequence;
    const invocationId = requestedInvocationId ?? `${this.sessionId}/${sequence}`;
    const key: InvocationStateKey = { agentId: this.agentId, sessionId: this.sessionId, invocationId };
    const acquired: AcquiredCarrier[] = Object.entries(tool.carriers ?? {}).map(([name, carrier]) => ({
      name,
      carrier,
      instance: carrier.acquire(key),
    }));
    const authStart = acquired.flatMap(({ carrier, instance }) =>
      carrier.authScopes === undefined ? [] : [{ carrier, snapshot: carrier.authScopes(instance) }],
    );
    const changes: StateChange[] = [];
    const staleCacheReturns: StaleCacheReturn[] = [];
    return {
      tool,
      sequence,
      invocationId,
      key,
      effectiveScope,
      isolationPolicy: ISOLATION_POLICY_OF_SCOPE[effectiveScope],
      hasSessionState: tool.stateScope !== undefined || acquired.length > 0 || tool.sessionLimit !== undefined,
      critical: tool.critical ?? true,
      acquired,
      // Described before the call: the scope receipt says what state the call *starts* with.
      carrierDescriptions: acquired.map(({ carrier, instance }) => carrier.describe(instance)),
      ...this.#priorStateDeltas(tool, effectiveScope, acquired),
      sessionLimit: tool.sessionLimit === undefined ? null : this.sessionLimitReport(tool),
      authStart,
      authScopeWidenings: authStart.flatMap(({ carrier, snapshot }) =>
        findWidenings(carrier.name, snapshot, this.#authScopesAtPreviousCall.get(carrierKey(tool.toolId, carrier.name))),
      ),
      changes,
      staleCacheReturns,
      recorder: {
        recordChange: (change) => changes.push(change),
        recordStaleReturn: (stale) => staleCacheReturns.push(stale),
      },
      warnings: [],
    };
  }

  /** The deltas earlier calls left in the state this call is handed, counted now: concurrent calls may add more while it runs. */
  #priorStateDeltas(
    tool: AnyTool,
    effectiveScope: StateScope,
    acquired: readonly AcquiredCarrier[],
  ): { priorStateDeltaCount: number; priorStateDeltas: PriorStateDeltas } {
    const histories: { owner: object; history: readonly string[] }[] = acquired.map(({ instance }) => ({
      owner: instance,
      history: instance.deltaHistory,
    }));
    if (acquired.length === 0 && effectiveScope !== 'isolated') {
      const history = this.#undeclaredStateHistory.get(tool.toolId);
      if (history !== undefined) histories.push({ owner: history, history });
    }
    // One call's delta can sit in several instances: count it once.
    const count = histories.length === 1 ? histories[0]!.history.length : new Set(histories.flatMap(({ history }) => history)).size;
    const chains = histories.filter(({ history }) => history.length > 0).map(({ owner }) => deltaChains.get(owner) ?? null);
    return {
      priorStateDeltaCount: count,
      priorStateDeltas: { count, chainDigest: chains.length === 0 ? null : chains.length === 1 ? chains[0]! : digestOfJson(chains) },
    };
  }

  #refuses(preflight: { gate: LedgerGate; directive: string }): boolean {
    const handling = preflight.gate === 'session-limit' ? this.policy.onSessionLimit : this.policy.onLeakage;
    return directiveAction(preflight.directive) === 'HALT' && handling === 'refuse';
  }

  #spendSessionBudget(call: CallInProgress): void {
    const limiter = call.tool.sessionLimit;
    if (limiter === undefined || call.sessionLimit === null) return;
    const used = limiter.spend(call.key, call.sessionLimit.cost);
    call.recorder.recordChange({
      kind: 'counter-incremented',
      carrier: limiter.name,
      counter: 'session-usage',
      by: call.sessionLimit.cost,
      value: used,
    });
  }

  #handles<Carriers>(call: CallInProgress): CarrierHandles<Carriers> {
    return Object.fromEntries(
      call.acquired.map(({ name, carrier, instance }) => [name, carrier.handle(instance, call.recorder)]),
    ) as CarrierHandles<Carriers>;
  }

  #callInfo(call: CallInProgress): InvocationCall {
    return {
      invocationId: call.invocationId,
      toolId: call.tool.toolId,
      sessionId: this.sessionId,
      agentId: this.agentId,
      noteStateChange: (description) =>
        call.recorder.recordChange({ kind: 'declared-change', carrier: call.tool.toolId, description: String(description) }),
    };
  }

  /** The call is over (ran, failed or refused): its delta joins the state's history, its receipts are written, its state released. */
  #finish(call: CallInProgress, outcome: InvocationOutcome, resultHash: string, error: string | null): InvocationRecord {
    const { tool, changes } = call;
    const stateDeltaHash =
      changes.length === 0 ? null : digestOfJson({ invocation: call.invocationId, tool: tool.toolId, changes: toJson(changes) });
    const manifest = this.#evaluate(call, stateDeltaHash, resultHash);
    if (stateDeltaHash !== null) this.#appendDeltaHistory(call, stateDeltaHash);
    // A refused call does not move the auth baseline: the tool stays refused until the session resets its state.
    if (outcome !== 'refused') {
      for (const { carrier, snapshot } of call.authStart)
        this.#authScopesAtPreviousCall.set(carrierKey(tool.toolId, carrier.name), snapshot.current);
    }
    for (const stale of call.staleCacheReturns) {
      call.warnings.push(
        `Stale cache return from ${stale.carrier} for "${stale.key}" (${stale.reason}, ${stale.ageMs} ms old, ${stale.handling}).`,
      );
    }
    const receipts = buildReceipts({
      invocationId: call.invocationId,
      toolId: tool.toolId,
      declaredStateScope: tool.stateScope ?? null,
      effectiveScope: call.effectiveScope,
      isolationPolicy: call.isolationPolicy,
      hasSessionState: call.hasSessionState,
      carriers: call.carrierDescriptions,
      sessionLimiter: tool.sessionLimit?.name ?? null,
      changes,
      stateDeltaHash,
      policy: this.policy,
      critical: call.critical,
      sessionLimit: call.sessionLimit,
      manifest,
      outcome,
      priorStateDeltas: call.priorStateDeltas,
      authScopeWidenings: call.authScopeWidenings,
      staleCacheReturns: call.staleCacheReturns,
      resultHash,
    });
    const record = this.#write({
      type: 'invocation',
      sequence: call.sequence,
      sessionId: this.sessionId,
      agentId: this.agentId,
      invocationId: call.invocationId,
      toolId: tool.toolId,
      outcome,
      warnings: call.warnings,
      error,
      receipts: toJson(receipts),
    }) as InvocationRecord;
    for (const { carrier, instance } of call.acquired) carrier.release(instance);
    return record;
  }

  /** Shared state remembers the deltas left in it; isolated state dies with the call, so its deltas are nobody's prior. */
  #appendDeltaHistory(call: CallInProgress, stateDeltaHash: string): void {
    const changedCarriers = new Set(call.changes.map((change) => change.carrier));
    for (const { carrier, instance } of call.acquired) {
      if (changedCarriers.has(carrier.name) && carrier.scope !== 'isolated') {
        instance.deltaHistory.push(stateDeltaHash);
        appendDeltaChain(instance, stateDeltaHash);
      }
    }
    if (call.changes.some((change) => change.kind === 'declared-change') && call.effectiveScope !== 'isolated') {
      const history = this.#undeclaredStateHistory.get(call.tool.toolId) ?? [];
      history.push(stateDeltaHash);
      appendDeltaChain(history, stateDeltaHash);
      this.#undeclaredStateHistory.set(call.tool.toolId, history);
    }
  }

  /** Closes the journal; later calls are refused before the tool runs. */
  close(): void {
    this.#journal?.close();
    this.#closed = true;
  }

  #evaluate(call: CallInProgress, stateDeltaHash: string | null, resultHash: string): LedgerManifest {
    const invocation: ToolInvocation = {
      invocationId: call.invocationId,
      toolId: call.tool.toolId,
      hasSessionState: call.hasSessionState,
      stateDeltaHash,
      sessionUsageRatio: call.sessionLimit?.usageRatioAfter ?? 0,
      resultHash,
    };
    const manifest = evaluateGates(invocation, call.priorStateDeltaCount, call.isolationPolicy, {
      requireIsolationForCritical: this.policy.requireIsolationForCritical && call.critical,
      maxSessionUsageRatio: this.policy.maxSessionUsageRatio,
      accumulatedDeltaThreshold: this.policy.accumulatedDeltaThreshold,
    });
    const { authScopeWidenings } = call;
    // Auth-scope widening ranks with the reference guard's halting gates: after stateless, session limit
    // and isolation, before accumulation; an escalated credential is leakage, not a warning.
    if (authScopeWidenings.length === 0 || (manifest.gate !== 'accumulated-deltas' && manifest.gate !== 'isolated')) return manifest;
    const described = authScopeWidenings.map((widening) => `${widening.credential} gained ${widening.added.join(', ')}`).join('; ');
    return {
      gate: 'auth-scope',
      verdict: StateVerdict.STATE_LEAKAGE_DETECTED,
      directive: `HALT: Auth scope widened since the previous call of ${invocation.toolId}: ${described}.`,
      manifestDigest: digestOfJson({
        invocation: invocation.invocationId,
        tool: invocation.toolId,
        type: 'AUTH_SCOPE_WIDENED',
        widened: toJson(authScopeWidenings),
      }),
    };
  }

  #write(fields: Record<string, PythonJsonValue | undefined>): JournalRecordBase {
    const record = sealRecord(fields, this.#lastRecordDigest, this.#hmacKey) as unknown as JournalRecordBase;
    this.#journal?.append(record);
    this.#lastRecordDigest = record.recordDigest;
    if (record.type === 'invocation') {
      this.#records.push(record as InvocationRecord);
      this.#onRecord?.(record as InvocationRecord);
    }
    return record;
  }

  #replay(record: JournalRecordBase, path: string): void {
    this.#lastRecordDigest = record.recordDigest;
    if (record.type === 'ledger-opened' || record.type === 'ledger-resumed') {
      const journalSession = (record as JournalRecordBase & { sessionId?: unknown }).sessionId;
      if (journalSession !== this.sessionId) {
        throw new LedgerJournalError(
          'LEDGER_SESSION_MISMATCH',
          path,
          `Invocation ledger ${path} belongs to session ${JSON.stringify(journalSession)}, ` +
            `not ${JSON.stringify(this.sessionId)}; use one journal per session.`,
        );
      }
      return;
    }
    if (record.type !== 'invocation') return;
    const invocation = record as InvocationRecord;
    this.#records.push(invocation);
    this.#sequence = Math.max(this.#sequence, invocation.sequence);
    const limit = invocation.receipts.invocation_isolation_policy_receipt.sessionLimit;
    // A call that ran (or failed after starting) spent session budget on the server; refused calls did not.
    if (limit !== null && invocation.outcome !== 'refused') {
      this.#restoredUsage.set(limit.limiter, Math.max(this.#restoredUsage.get(limit.limiter) ?? 0, limit.usedBefore + limit.cost));
    }
  }

  #restoreLimiter(limiter: SessionRateLimit): void {
    if (this.#limitersRestored.has(limiter)) return;
    this.#limitersRestored.add(limiter);
    const used = this.#restoredUsage.get(limiter.name);
    if (used !== undefined) limiter.restoreUsage({ agentId: this.agentId, sessionId: this.sessionId }, used);
  }
}

function checkHmacKey(key: unknown, journalPath: string): LedgerHmacKey | undefined {
  if (key === undefined) return undefined;
  if ((typeof key === 'string' || key instanceof Uint8Array) && key.length > 0) return key;
  throw new LedgerJournalError(
    'LEDGER_KEY_MISMATCH',
    journalPath,
    'hmacKey must be a non-empty string or Uint8Array (or left out for a plain SHA-256 chain); an empty key would protect nothing.',
  );
}

const HALT_HANDLINGS: readonly HaltHandling[] = ['refuse', 'warn'];

/**
 * Checks the policy once, when the ledger opens. Every malformed field used to
 * fail open: `undefined` or `NaN` never reaches the ceiling, and `'Refuse'` is
 * not `'refuse'`, so calls ran that the policy meant to stop.
 */
function resolveLedgerPolicy(policy: LedgerPolicy | undefined): Required<LedgerPolicy> {
  if (typeof policy !== 'object' || policy === null) {
    throw new InvalidStatePolicyError(
      'policy',
      'InvocationLedger.open needs a policy: { requireIsolationForCritical, maxSessionUsageRatio }.',
    );
  }
  if (typeof policy.requireIsolationForCritical !== 'boolean') {
    throw new InvalidStatePolicyError(
      'requireIsolationForCritical',
      `policy.requireIsolationForCritical must be true or false, got ${describeValue(policy.requireIsolationForCritical)}.`,
    );
  }
  const ratio: unknown = policy.maxSessionUsageRatio;
  if (typeof ratio !== 'number' || !(ratio > 0 && ratio <= 1)) {
    throw new InvalidStatePolicyError(
      'maxSessionUsageRatio',
      `policy.maxSessionUsageRatio must be a number in (0, ` +
        `1] (1 refuses the call that would spend the last unit of the budget), got ${describeValue(ratio)}.`,
    );
  }
  for (const field of ['onSessionLimit', 'onLeakage'] as const) {
    const handling: unknown = policy[field];
    if (handling !== undefined && !HALT_HANDLINGS.includes(handling as HaltHandling)) {
      throw new InvalidStatePolicyError(field, `policy.${field} must be 'refuse' (the default) or 'warn', got ${describeValue(handling)}.`);
    }
  }
  return {
    requireIsolationForCritical: policy.requireIsolationForCritical,
    maxSessionUsageRatio: ratio,
    accumulatedDeltaThreshold: resolveAccumulatedDeltaThreshold(policy),
    onSessionLimit: policy.onSessionLimit ?? 'refuse',
    onLeakage: policy.onLeakage ?? 'refuse',
  };
}

function checkDeclaredScope(tool: AnyTool | StatefulTool<never, unknown, Readonly<Record<string, StateCarrierLike>>>): StateScope {
  if (typeof tool.toolId !== 'string' || tool.toolId === '') throw new TypeError('A stateful tool needs a non-empty toolId.');
  if (tool.stateScope !== undefined && !STATE_SCOPES.includes(tool.stateScope)) {
    throw new StateScopeMismatchError(
      `Tool ${tool.toolId}: stateScope must be 'isolated', 'session' or 'agent', got ${JSON.stringify(tool.stateScope)}.`,
    );
  }
  const carriers = Object.values(tool.carriers ?? {});
  const widest = widestScope(carriers.map((carrier) => carrier.scope));
  if (tool.stateScope !== undefined && isScopeWider(widest, tool.stateScope)) {
    const offender = carriers.find((carrier) => carrier.scope === widest);
    throw new StateScopeMismatchError(
      `Tool ${tool.toolId} declares stateScope '${tool.stateScope}' but carrier "${offender?.name ?? '?'}" is ${widest}-scoped: ` +
        `its state outlives the call. Declare stateScope '${widest}' or make the carrier '${tool.stateScope}'.`,
    );
  }
  return tool.stateScope ?? widest;
}

function findWidenings(
  carrier: string,
  snapshot: AuthScopeSnapshot,
  previousCallStart: Readonly<Record<string, readonly string[]>> | undefined,
): AuthScopeWidening[] {
  const widenings: AuthScopeWidening[] = [];
  for (const [credential, scopes] of Object.entries(snapshot.current)) {
    const baseline = previousCallStart?.[credential] ?? snapshot.atCreation[credential] ?? scopes;
    const added = scopes.filter((scope) => !baseline.includes(scope));
    if (added.length > 0) widenings.push({ carrier, credential, from: baseline, to: scopes, added });
  }
  return widenings;
}

/** Never throws: the tool has run, so its receipt is written whatever it returned (even half an emoji). */
function hashResult(result: unknown): string {
  if (typeof result === 'string') return sha256HexSurrogatePass(result);
  let serialised: string | undefined;
  try {
    serialised = JSON.stringify(result);
  } catch (error) {
    // A result that cannot be serialised still gets a receipt; its hash says so instead of failing the call after it ran.
    serialised = `unserialisable:${describeError(error)}`;
  }
  return sha256HexSurrogatePass(serialised ?? 'undefined');
}

/** Never throws: a value that cannot be printed (a null-prototype object) must not replace the tool's own error. */
function describeError(error: unknown): string {
  try {
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  } catch {
    return `unprintable thrown value (${typeof error})`;
  }
}

/** Receipts hold only JSON values; this drops readonly-ness for the digest helpers. */
function toJson<Value>(value: Value): PythonJsonValue {
  return value as unknown as PythonJsonValue;
}

function sealReceipt<Body extends Record<string, unknown>>(body: Body): Body & { digest: string } {
  return { ...body, digest: digestOfJson(toJson(body)) };
}

function buildReceipts(facts: {
  invocationId: string;
  toolId: string;
  declaredStateScope: StateScope | null;
  effectiveScope: StateScope;
  isolationPolicy: IsolationPolicy;
  hasSessionState: boolean;
  carriers: CarrierDescription[];
  sessionLimiter: string | null;
  changes: StateChange[];
  stateDeltaHash: string | null;
  policy: Required<LedgerPolicy>;
  critical: boolean;
  sessionLimit: SessionLimitReport | null;
  manifest: LedgerManifest;
  outcome: InvocationOutcome;
  priorStateDeltas: PriorStateDeltas;
  authScopeWidenings: AuthScopeWidening[];
  staleCacheReturns: StaleCacheReturn[];
  resultHash: string;
}): InvocationReceipts {
  const { invocationId, toolId } = facts;
  return {
    tool_state_scope_receipt: sealReceipt({
      invocationId,
      toolId,
      declaredStateScope: facts.declaredStateScope,
      effectiveStateScope: facts.effectiveScope,
      isolationPolicy: facts.isolationPolicy,
      hasSessionState: facts.hasSessionState,
      carriers: facts.carriers,
      sessionLimiter: facts.sessionLimiter,
    }),
    invocation_state_delta_signature: sealReceipt({
      invocationId,
      toolId,
      changes: facts.changes,
      stateDeltaHash: facts.stateDeltaHash,
    }),
    invocation_isolation_policy_receipt: sealReceipt({
      invocationId,
      toolId,
      isolationPolicy: facts.isolationPolicy,
      requireIsolationForCritical: facts.policy.requireIsolationForCritical,
      critical: facts.critical,
      maxSessionUsageRatio: facts.policy.maxSessionUsageRatio,
      accumulatedDeltaThreshold: facts.policy.accumulatedDeltaThreshold,
      onSessionLimit: facts.policy.onSessionLimit,
      onLeakage: facts.policy.onLeakage,
      sessionLimit: facts.sessionLimit,
    }),
    state_leakage_detection_signature: sealReceipt({
      invocationId,
      toolId,
      gate: facts.manifest.gate,
      verdict: facts.manifest.verdict,
      directive: facts.manifest.directive,
      manifestDigest: facts.manifest.manifestDigest,
      outcome: facts.outcome,
      priorStateDeltas: facts.priorStateDeltas,
      authScopeWidenings: facts.authScopeWidenings,
      staleCacheReturns: facts.staleCacheReturns,
      resultHash: facts.resultHash,
    }),
  };
}
