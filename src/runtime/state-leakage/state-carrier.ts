/**
 * What every state carrier shares: the scope words, the change and stale-return
 * records, and the base class that gives each invocation the instance its scope
 * allows. The carriers themselves (cookie jar, cache, client factory) and the
 * session rate limit live in a file each beside this one.
 *
 * A carrier's scope makes the isolation policy real: `isolated` hands every
 * invocation a fresh instance, `session` one per session, `agent` one per agent
 * across its sessions. Every change an invocation makes goes through a
 * per-invocation handle, so its delta (cookies set, cache entries added, clients
 * created, counters incremented) is known exactly, even when invocations sharing
 * an instance run concurrently; that exact delta is what state leakage is judged on.
 */
import { type DeclaredStateScope, STATE_SCOPES as DECLARED_STATE_SCOPES } from '../../types/classify-tool.js';
import { scopeSharingKey } from './sharing-key.js';

/** The `stateScope` a tool declares; the lint rule and the runtime use the same three words (`STATE_SCOPES`). */
export type StateScope = DeclaredStateScope;

export const STATE_SCOPES: readonly StateScope[] = DECLARED_STATE_SCOPES;

/** Which invocation is asking for state: selects the instance the scope allows it to see. */
export interface InvocationStateKey {
  readonly agentId: string;
  readonly sessionId: string;
  readonly invocationId: string;
}

/** One state change an invocation introduced; JSON-serialisable, never carries secret values. */
export type StateChange =
  | {
      readonly kind: 'cookie-set';
      readonly carrier: string;
      readonly credential: string;
      readonly scopes: readonly string[];
      /** Scopes the credential had before this set; `null` when it is new. */
      readonly previousScopes: readonly string[] | null;
      readonly widened: boolean;
    }
  | { readonly kind: 'cookie-deleted'; readonly carrier: string; readonly credential: string }
  | {
      readonly kind: 'cache-entry-added';
      readonly carrier: string;
      readonly key: string;
      readonly replaced: boolean;
      readonly ttlMs: number | null;
    }
  | { readonly kind: 'cache-entry-evicted'; readonly carrier: string; readonly key: string; readonly reason: 'stale' | 'deleted' }
  | { readonly kind: 'client-created'; readonly carrier: string; readonly client: string }
  | {
      readonly kind: 'counter-incremented';
      readonly carrier: string;
      readonly counter: string;
      readonly by: number;
      readonly value: number;
    }
  | { readonly kind: 'declared-change'; readonly carrier: string; readonly description: string };

/** A cache read whose answer came from state an earlier call left, and why it is stale. */
export interface StaleCacheReturn {
  readonly carrier: string;
  readonly key: string;
  readonly reason: 'ttl-expired' | 'changed-since-stored';
  readonly ageMs: number;
  readonly ttlMs: number | null;
  /** `served`: the stale value was returned (and is marked here); `refetched`: it was evicted and treated as a miss. */
  readonly handling: 'served' | 'refetched';
}

/** Where a handle reports what its invocation did. The ledger supplies one per invocation. */
export interface InvocationStateRecorder {
  recordChange(change: StateChange): void;
  recordStaleReturn(stale: StaleCacheReturn): void;
}

export type CarrierKind = 'cookie-jar' | 'cache' | 'client-factory';

/** What the scope receipt says about one carrier an invocation got. */
export interface CarrierDescription {
  readonly carrier: string;
  readonly kind: CarrierKind;
  readonly scope: StateScope;
  /** Stable name of the instance the invocation saw; a fresh one for every isolated call. */
  readonly instance: string;
  /** How many earlier invocations changed this instance (their delta digests make the reference guard's `prior_state_deltas`). */
  readonly priorDeltaCount: number;
}

export class StateCarrierError extends Error {
  readonly code: 'INVALID_CARRIER_OPTIONS' | 'CARRIER_NAME_CLASH';
  constructor(code: StateCarrierError['code'], message: string) {
    super(message);
    this.name = 'StateCarrierError';
    this.code = code;
  }
}

/** One live copy of a carrier's state, shared by every invocation its scope allows. */
export interface CarrierInstance {
  readonly instance: string;
  /** Digests of the deltas earlier invocations applied to this instance, oldest first. */
  readonly deltaHistory: string[];
}

/**
 * A carrier of some state, by scope. Subclasses say how to build an instance and
 * how to wrap it in a per-invocation handle.
 */
export abstract class StateCarrier<Instance extends CarrierInstance, Handle> {
  abstract readonly kind: CarrierKind;
  readonly name: string;
  readonly scope: StateScope;
  readonly #shared = new Map<string, Instance>();
  #instancesCreated = 0;

  protected constructor(options: { name: string; scope: StateScope }) {
    if (typeof options.name !== 'string' || options.name === '') {
      throw new StateCarrierError('INVALID_CARRIER_OPTIONS', 'A state carrier needs a non-empty `name`: receipts identify it by name.');
    }
    if (!STATE_SCOPES.includes(options.scope)) {
      throw new StateCarrierError(
        'INVALID_CARRIER_OPTIONS',
        `Carrier "${options.name}": scope must be 'isolated', 'session' or 'agent', got ${JSON.stringify(options.scope)}.`,
      );
    }
    this.name = options.name;
    this.scope = options.scope;
  }

  protected abstract createInstance(instanceName: string): Instance;
  protected abstract createHandle(instance: Instance, recorder: InvocationStateRecorder): Handle;
  /** Releases an isolated instance after its invocation (closes clients). */
  protected disposeInstance(_instance: Instance): void {}

  /** The instance the scope gives this invocation: fresh for `isolated`, shared per session or per agent. */
  acquire(key: InvocationStateKey): Instance {
    const sharingKey = scopeSharingKey(this.scope, key);
    if (sharingKey === null) return this.#newInstance(key.invocationId);
    let instance = this.#shared.get(sharingKey);
    if (instance === undefined) {
      instance = this.#newInstance(this.scope === 'agent' ? key.agentId : `${key.agentId}/${key.sessionId}`);
      this.#shared.set(sharingKey, instance);
    }
    return instance;
  }

  /** A handle that forwards to `instance` and reports every change to `recorder`. */
  handle(instance: Instance, recorder: InvocationStateRecorder): Handle {
    return this.createHandle(instance, recorder);
  }

  /** Called by the ledger when the invocation is over. */
  release(instance: Instance): void {
    if (this.scope === 'isolated') this.disposeInstance(instance);
  }

  /**
   * The session (or agent) actively manages its state: drop the shared instance
   * so the next invocation starts fresh. This is the reference guard's "resets between calls".
   */
  reset(key: Pick<InvocationStateKey, 'agentId' | 'sessionId'>): boolean {
    const sharingKey = scopeSharingKey(this.scope, key);
    if (sharingKey === null) return false;
    const instance = this.#shared.get(sharingKey);
    if (instance === undefined) return false;
    this.#shared.delete(sharingKey);
    this.disposeInstance(instance);
    return true;
  }

  describe(instance: Instance): CarrierDescription {
    return {
      carrier: this.name,
      kind: this.kind,
      scope: this.scope,
      instance: instance.instance,
      priorDeltaCount: instance.deltaHistory.length,
    };
  }

  #newInstance(label: string): Instance {
    this.#instancesCreated += 1;
    // `pages#3@session:agent/session-1`: which carrier, which instance, whose.
    return this.createInstance(`${this.name}#${this.#instancesCreated}@${this.scope}:${label}`);
  }
}

/** What the ledger needs of any carrier (method syntax keeps every concrete carrier assignable). */
export interface StateCarrierLike {
  readonly name: string;
  readonly kind: CarrierKind;
  readonly scope: StateScope;
  acquire(key: InvocationStateKey): CarrierInstance;
  handle(instance: CarrierInstance, recorder: InvocationStateRecorder): unknown;
  release(instance: CarrierInstance): void;
  reset(key: Pick<InvocationStateKey, 'agentId' | 'sessionId'>): boolean;
  describe(instance: CarrierInstance): CarrierDescription;
  /**
   * Carriers that hold credentials report their auth scopes, so the ledger can
   * catch a scope an earlier call escalated (auth context accumulation).
   */
  authScopes?(instance: CarrierInstance): AuthScopeSnapshot;
}

/** Current and creation-time scopes of every credential in a carrier instance, by credential key. */
export interface AuthScopeSnapshot {
  readonly current: Readonly<Record<string, readonly string[]>>;
  readonly atCreation: Readonly<Record<string, readonly string[]>>;
}

/** The handle type a carrier hands an invocation. */
export type HandleOf<Carrier> = Carrier extends StateCarrier<infer _Instance, infer Handle> ? Handle : never;

const SCOPE_WIDTH: Readonly<Record<StateScope, number>> = { isolated: 0, session: 1, agent: 2 };

/** The widest of some scopes (`isolated` < `session` < `agent`). */
export function widestScope(scopes: Iterable<StateScope>): StateScope {
  let widest: StateScope = 'isolated';
  for (const scope of scopes) if (SCOPE_WIDTH[scope] > SCOPE_WIDTH[widest]) widest = scope;
  return widest;
}

export function isScopeWider(candidate: StateScope, than: StateScope): boolean {
  return SCOPE_WIDTH[candidate] > SCOPE_WIDTH[than];
}
