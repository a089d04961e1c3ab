/**
 * State carriers: the cookie jar, cache, client factory and session rate limit
 * a stateful tool keeps between calls. Their scope makes the isolation policy
 * real: `isolated` hands every invocation a fresh instance, `session` one per
 * session, `agent` one per agent across its sessions. Every change an
 * invocation makes goes through a per-invocation handle, so its delta (cookies
 * set, cache entries added, clients created, counters incremented) is known
 * exactly, even when invocations sharing an instance run concurrently.
 */

/** The `stateScope` a tool declares; the lint rule and the runtime use the same three words. */
export type StateScope = 'isolated' | 'session' | 'agent';

export const STATE_SCOPES: readonly StateScope[] = ['isolated', 'session', 'agent'];

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
  | { readonly kind: 'cache-entry-added'; readonly carrier: string; readonly key: string; readonly replaced: boolean; readonly ttlMs: number | null }
  | { readonly kind: 'cache-entry-evicted'; readonly carrier: string; readonly key: string; readonly reason: 'stale' | 'deleted' }
  | { readonly kind: 'client-created'; readonly carrier: string; readonly client: string }
  | { readonly kind: 'counter-incremented'; readonly carrier: string; readonly counter: string; readonly by: number; readonly value: number }
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
  /** How many earlier invocations changed this instance (their delta digests make the seed's `prior_state_deltas`). */
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
    const sharingKey = this.#sharingKey(key);
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
   * so the next invocation starts fresh. This is the seed's "resets between calls".
   */
  reset(key: Pick<InvocationStateKey, 'agentId' | 'sessionId'>): boolean {
    const sharingKey = this.#sharingKey({ ...key, invocationId: '' });
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

  #sharingKey(key: InvocationStateKey): string | null {
    switch (this.scope) {
      case 'isolated':
        return null;
      case 'session':
        return `session:${key.agentId}\u0000${key.sessionId}`;
      case 'agent':
        return `agent:${key.agentId}`;
    }
  }

  #newInstance(label: string): Instance {
    this.#instancesCreated += 1;
    // `pages#3@session:agent/session-1`: which carrier, which instance, whose.
    return this.createInstance(`${this.name}#${this.#instancesCreated}@${this.scope}:${label}`);
  }
}

// ---------------------------------------------------------------------------
// Cookie jar (cookies and tokens, with their auth scopes)

export interface CredentialInput {
  readonly name: string;
  readonly value: string;
  /** Cookie domain; empty for a bearer token. */
  readonly domain?: string;
  readonly path?: string;
  /** What the credential allows (OAuth scopes, roles). Widening them is what the ledger watches. */
  readonly scopes?: readonly string[];
}

export interface StoredCredential {
  readonly name: string;
  readonly value: string;
  readonly domain: string;
  readonly path: string;
  readonly scopes: readonly string[];
}

interface CookieJarInstance extends CarrierInstance {
  readonly credentials: Map<string, StoredCredential>;
  /** Scopes each credential had when it was created: the baseline when no earlier call saw it. */
  readonly scopesAtCreation: Map<string, readonly string[]>;
}

/** Current and creation-time scopes of every credential in a jar instance, by credential key. */
export interface AuthScopeSnapshot {
  readonly current: Readonly<Record<string, readonly string[]>>;
  readonly atCreation: Readonly<Record<string, readonly string[]>>;
}

export interface CookieJarHandle {
  set(credential: CredentialInput): void;
  get(name: string, domain?: string, path?: string): StoredCredential | undefined;
  delete(name: string, domain?: string, path?: string): boolean;
  list(): StoredCredential[];
  /** `Cookie:` header value for a domain (exact or parent domain match). */
  cookieHeader(domain: string): string;
}

/** Credential key as receipts print it: `name@domain/path` (no value: values are secrets). */
export function credentialKey(name: string, domain = '', path = '/'): string {
  return `${name}@${domain}${path}`;
}

function normaliseScopes(scopes: readonly string[] | undefined): string[] {
  return [...new Set(scopes ?? [])].sort();
}

export class CookieJarCarrier extends StateCarrier<CookieJarInstance, CookieJarHandle> {
  readonly kind = 'cookie-jar' as const;

  constructor(options: { name: string; scope: StateScope }) {
    super(options);
  }

  /** Scopes of every credential the instance holds, by credential key: the auth-scope snapshot. */
  authScopes(instance: CarrierInstance): AuthScopeSnapshot {
    const jar = instance as CookieJarInstance;
    const current: Record<string, readonly string[]> = {};
    const atCreation: Record<string, readonly string[]> = {};
    for (const [key, credential] of jar.credentials) {
      current[key] = credential.scopes;
      atCreation[key] = jar.scopesAtCreation.get(key) ?? credential.scopes;
    }
    return { current, atCreation };
  }

  protected createInstance(instance: string): CookieJarInstance {
    return { instance, deltaHistory: [], credentials: new Map(), scopesAtCreation: new Map() };
  }

  protected createHandle(instance: CookieJarInstance, recorder: InvocationStateRecorder): CookieJarHandle {
    const carrier = this.name;
    return {
      set(input) {
        if (typeof input.name !== 'string' || input.name === '' || typeof input.value !== 'string') {
          throw new StateCarrierError('INVALID_CARRIER_OPTIONS', `Cookie jar "${carrier}": a credential needs a non-empty name and a string value.`);
        }
        const stored: StoredCredential = {
          name: input.name,
          value: input.value,
          domain: input.domain ?? '',
          path: input.path ?? '/',
          scopes: normaliseScopes(input.scopes),
        };
        const key = credentialKey(stored.name, stored.domain, stored.path);
        const previous = instance.credentials.get(key);
        instance.credentials.set(key, stored);
        if (previous === undefined) instance.scopesAtCreation.set(key, stored.scopes);
        const previousScopes = previous === undefined ? null : previous.scopes;
        recorder.recordChange({
          kind: 'cookie-set',
          carrier,
          credential: key,
          scopes: stored.scopes,
          previousScopes,
          widened: previousScopes !== null && stored.scopes.some((scope) => !previousScopes.includes(scope)),
        });
      },
      get(name, domain = '', path = '/') {
        return instance.credentials.get(credentialKey(name, domain, path));
      },
      delete(name, domain = '', path = '/') {
        const key = credentialKey(name, domain, path);
        const existed = instance.credentials.delete(key);
        instance.scopesAtCreation.delete(key);
        if (existed) recorder.recordChange({ kind: 'cookie-deleted', carrier, credential: key });
        return existed;
      },
      list() {
        return [...instance.credentials.values()];
      },
      cookieHeader(domain) {
        return [...instance.credentials.values()]
          .filter((credential) => credential.domain !== '' && (domain === credential.domain || domain.endsWith(`.${credential.domain}`)))
          .map((credential) => `${credential.name}=${credential.value}`)
          .join('; ');
      },
    };
  }
}

// ---------------------------------------------------------------------------
// Cache (TTL and known-change invalidation; stale returns are surfaced)

export type StaleEntryHandling = 'serve-and-mark' | 'refetch';

export interface CacheCarrierOptions {
  readonly name: string;
  readonly scope: StateScope;
  /** Default time to live; `null` (default) means entries age out only by known changes. */
  readonly ttlMs?: number | null;
  /**
   * `serve-and-mark` (default): a stale entry is returned and marked in the
   * receipt, so the caller sees the value *and* that it is stale. `refetch`:
   * it is evicted and the read is a miss (also recorded).
   */
  readonly onStale?: StaleEntryHandling;
  /** Clock in milliseconds; injectable for tests. */
  readonly now?: () => number;
}

interface CacheEntry {
  readonly value: unknown;
  readonly storedAt: number;
  /** Order of the write among writes and known changes: clock-independent staleness. */
  readonly storedSequence: number;
  readonly ttlMs: number | null;
}

interface CacheInstance extends CarrierInstance {
  readonly entries: Map<string, CacheEntry>;
}

export interface CacheLookup<Value> {
  readonly hit: boolean;
  readonly value: Value | undefined;
  readonly stale: StaleCacheReturn | null;
}

export interface CacheHandle {
  get<Value = unknown>(key: string): Value | undefined;
  lookup<Value = unknown>(key: string): CacheLookup<Value>;
  set(key: string, value: unknown, options?: { ttlMs?: number | null }): void;
  delete(key: string): boolean;
  /** Reads through the cache: a fresh hit, or `load()` stored and returned. A stale hit follows `onStale`. */
  getOrLoad<Value>(key: string, load: () => Value | Promise<Value>): Promise<Value>;
}

export class CacheCarrier extends StateCarrier<CacheInstance, CacheHandle> {
  readonly kind = 'cache' as const;
  readonly ttlMs: number | null;
  readonly onStale: StaleEntryHandling;
  readonly #now: () => number;
  #sequence = 0;
  #changedEverythingAt = -1;
  readonly #changedKeysAt = new Map<string, number>();

  constructor(options: CacheCarrierOptions) {
    super(options);
    const ttlMs = options.ttlMs ?? null;
    if (ttlMs !== null && !(Number.isFinite(ttlMs) && ttlMs >= 0)) {
      throw new StateCarrierError('INVALID_CARRIER_OPTIONS', `Cache "${options.name}": ttlMs must be a finite number >= 0 or null, got ${String(ttlMs)}.`);
    }
    const onStale = options.onStale ?? 'serve-and-mark';
    if (onStale !== 'serve-and-mark' && onStale !== 'refetch') {
      throw new StateCarrierError('INVALID_CARRIER_OPTIONS', `Cache "${options.name}": onStale must be 'serve-and-mark' or 'refetch'.`);
    }
    this.ttlMs = ttlMs;
    this.onStale = onStale;
    this.#now = options.now ?? Date.now;
  }

  /**
   * The data behind `key` (or behind every key, when omitted) changed: entries
   * stored before now are stale in every instance, whatever their TTL.
   */
  noteUnderlyingChange(key?: string): void {
    this.#sequence += 1;
    if (key === undefined) this.#changedEverythingAt = this.#sequence;
    else this.#changedKeysAt.set(key, this.#sequence);
  }

  protected createInstance(instance: string): CacheInstance {
    return { instance, deltaHistory: [], entries: new Map() };
  }

  protected createHandle(instance: CacheInstance, recorder: InvocationStateRecorder): CacheHandle {
    const lookup = <Value>(key: string): CacheLookup<Value> => {
      const entry = instance.entries.get(key);
      if (entry === undefined) return { hit: false, value: undefined, stale: null };
      const reason = this.#staleness(key, entry);
      if (reason === null) return { hit: true, value: entry.value as Value, stale: null };
      const handling = this.onStale === 'serve-and-mark' ? 'served' : 'refetched';
      const stale: StaleCacheReturn = {
        carrier: this.name,
        key,
        reason,
        ageMs: this.#now() - entry.storedAt,
        ttlMs: entry.ttlMs,
        handling,
      };
      recorder.recordStaleReturn(stale);
      if (handling === 'served') return { hit: true, value: entry.value as Value, stale };
      instance.entries.delete(key);
      recorder.recordChange({ kind: 'cache-entry-evicted', carrier: this.name, key, reason: 'stale' });
      return { hit: false, value: undefined, stale };
    };
    const set = (key: string, value: unknown, options?: { ttlMs?: number | null }) => {
      const ttlMs = options?.ttlMs === undefined ? this.ttlMs : options.ttlMs;
      if (ttlMs !== null && !(Number.isFinite(ttlMs) && ttlMs >= 0)) {
        throw new StateCarrierError('INVALID_CARRIER_OPTIONS', `Cache "${this.name}": ttlMs for "${key}" must be a finite number >= 0 or null.`);
      }
      this.#sequence += 1;
      const replaced = instance.entries.has(key);
      instance.entries.set(key, { value, storedAt: this.#now(), storedSequence: this.#sequence, ttlMs });
      recorder.recordChange({ kind: 'cache-entry-added', carrier: this.name, key, replaced, ttlMs });
    };
    return {
      lookup,
      get: <Value>(key: string) => lookup<Value>(key).value,
      set,
      delete: (key) => {
        const existed = instance.entries.delete(key);
        if (existed) recorder.recordChange({ kind: 'cache-entry-evicted', carrier: this.name, key, reason: 'deleted' });
        return existed;
      },
      getOrLoad: async <Value>(key: string, load: () => Value | Promise<Value>): Promise<Value> => {
        const found = lookup<Value>(key);
        if (found.hit) return found.value as Value;
        const value = await load();
        set(key, value);
        return value;
      },
    };
  }

  #staleness(key: string, entry: CacheEntry): StaleCacheReturn['reason'] | null {
    const changedAt = Math.max(this.#changedEverythingAt, this.#changedKeysAt.get(key) ?? -1);
    if (changedAt > entry.storedSequence) return 'changed-since-stored';
    if (entry.ttlMs !== null && this.#now() - entry.storedAt > entry.ttlMs) return 'ttl-expired';
    return null;
  }
}

// ---------------------------------------------------------------------------
// Client factory (a connection or SDK client kept between calls)

interface ClientInstance<Client> extends CarrierInstance {
  client: Client | undefined;
  clientsCreated: number;
}

export interface ClientFactoryHandle<Client> {
  /** The client this invocation may use: created on first use within the instance. */
  get(): Client;
}

export interface ClientFactoryOptions<Client> {
  readonly name: string;
  readonly scope: StateScope;
  readonly create: () => Client;
  /** Closes a client whose instance ends (every isolated call, or a reset). */
  readonly dispose?: (client: Client) => void;
}

export class ClientFactoryCarrier<Client> extends StateCarrier<ClientInstance<Client>, ClientFactoryHandle<Client>> {
  readonly kind = 'client-factory' as const;
  readonly #create: () => Client;
  readonly #dispose: ((client: Client) => void) | undefined;

  constructor(options: ClientFactoryOptions<Client>) {
    super(options);
    if (typeof options.create !== 'function') {
      throw new StateCarrierError('INVALID_CARRIER_OPTIONS', `Client factory "${options.name}": \`create\` must be a function returning a client.`);
    }
    this.#create = options.create;
    this.#dispose = options.dispose;
  }

  protected createInstance(instance: string): ClientInstance<Client> {
    return { instance, deltaHistory: [], client: undefined, clientsCreated: 0 };
  }

  protected createHandle(instance: ClientInstance<Client>, recorder: InvocationStateRecorder): ClientFactoryHandle<Client> {
    return {
      get: () => {
        if (instance.client === undefined) {
          instance.client = this.#create();
          instance.clientsCreated += 1;
          recorder.recordChange({ kind: 'client-created', carrier: this.name, client: `${instance.instance}/client-${instance.clientsCreated}` });
        }
        return instance.client;
      },
    };
  }

  protected override disposeInstance(instance: ClientInstance<Client>): void {
    if (instance.client !== undefined) this.#dispose?.(instance.client);
    instance.client = undefined;
  }
}

// ---------------------------------------------------------------------------
// Session rate limit (planning, not surprise)

export interface SessionLimitReport {
  readonly limiter: string;
  readonly limit: number;
  readonly usedBefore: number;
  readonly cost: number;
  /** Usage before this call, 0..1. */
  readonly usageRatioBefore: number;
  /** Usage once this call has run: the seed's `session_usage_ratio`, compared with the policy ceiling. */
  readonly usageRatioAfter: number;
  readonly remainingAfter: number;
}

export interface SessionRateLimitOptions {
  readonly name: string;
  /** Calls (or cost units) one session may spend. */
  readonly limit: number;
  /** Cost of one call; default 1. */
  readonly costPerCall?: number;
  /** `session` (default): each session has its own budget; `agent`: an agent's sessions share one. */
  readonly scope?: 'session' | 'agent';
}

/**
 * A per-session budget of calls (the API's own session limit, mirrored here so
 * the session can see it coming). It reports usage before each call; the ledger
 * decides to refuse or warn when the next call would reach the policy ceiling.
 */
export class SessionRateLimit {
  readonly name: string;
  readonly limit: number;
  readonly costPerCall: number;
  readonly scope: 'session' | 'agent';
  readonly #used = new Map<string, number>();

  constructor(options: SessionRateLimitOptions) {
    if (typeof options.name !== 'string' || options.name === '') {
      throw new StateCarrierError('INVALID_CARRIER_OPTIONS', 'A session rate limit needs a non-empty `name`.');
    }
    if (!(Number.isFinite(options.limit) && options.limit > 0)) {
      throw new StateCarrierError('INVALID_CARRIER_OPTIONS', `Session rate limit "${options.name}": limit must be a finite number > 0, got ${String(options.limit)}.`);
    }
    const cost = options.costPerCall ?? 1;
    if (!(Number.isFinite(cost) && cost > 0)) {
      throw new StateCarrierError('INVALID_CARRIER_OPTIONS', `Session rate limit "${options.name}": costPerCall must be a finite number > 0.`);
    }
    this.name = options.name;
    this.limit = options.limit;
    this.costPerCall = cost;
    this.scope = options.scope ?? 'session';
  }

  /** Usage as it stands and as it would be after one more call. Does not spend anything. */
  report(key: Pick<InvocationStateKey, 'agentId' | 'sessionId'>, cost = this.costPerCall): SessionLimitReport {
    const usedBefore = this.#used.get(this.#key(key)) ?? 0;
    return {
      limiter: this.name,
      limit: this.limit,
      usedBefore,
      cost,
      usageRatioBefore: usedBefore / this.limit,
      usageRatioAfter: (usedBefore + cost) / this.limit,
      remainingAfter: Math.max(0, this.limit - usedBefore - cost),
    };
  }

  /** Spends `cost`; returns the new usage. */
  spend(key: Pick<InvocationStateKey, 'agentId' | 'sessionId'>, cost = this.costPerCall): number {
    const sharingKey = this.#key(key);
    const used = (this.#used.get(sharingKey) ?? 0) + cost;
    this.#used.set(sharingKey, used);
    return used;
  }

  /** Resume: the budget a session already spent before the process restarted (never lowers usage). */
  restoreUsage(key: Pick<InvocationStateKey, 'agentId' | 'sessionId'>, used: number): void {
    const sharingKey = this.#key(key);
    this.#used.set(sharingKey, Math.max(this.#used.get(sharingKey) ?? 0, used));
  }

  #key(key: Pick<InvocationStateKey, 'agentId' | 'sessionId'>): string {
    return this.scope === 'agent' ? `agent:${key.agentId}` : `session:${key.agentId}\u0000${key.sessionId}`;
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
