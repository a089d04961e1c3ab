/**
 * The cache a tool keeps between calls, with TTL and known-change invalidation.
 * A stale answer is always surfaced (served and marked, or refetched), never
 * returned without a word: cache confusion.
 */
import { StateCarrier, StateCarrierError } from './state-carrier.js';
import type { CarrierInstance, InvocationStateRecorder, StaleCacheReturn, StateScope } from './state-carrier.js';

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
      throw new StateCarrierError(
        'INVALID_CARRIER_OPTIONS',
        `Cache "${options.name}": ttlMs must be a finite number >= 0 or null, got ${String(ttlMs)}.`,
      );
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
        throw new StateCarrierError(
          'INVALID_CARRIER_OPTIONS',
          `Cache "${this.name}": ttlMs for "${key}" must be a finite number >= 0 or null.`,
        );
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
