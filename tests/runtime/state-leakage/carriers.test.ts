import { describe, expect, it } from 'vitest';
import {
  CacheCarrier,
  ClientFactoryCarrier,
  CookieJarCarrier,
  SessionRateLimit,
  StateCarrierError,
  widestScope,
  type InvocationStateRecorder,
  type StaleCacheReturn,
  type StateChange,
} from '../../../src/index.js';

function recorder(): InvocationStateRecorder & { changes: StateChange[]; stale: StaleCacheReturn[] } {
  const changes: StateChange[] = [];
  const stale: StaleCacheReturn[] = [];
  return { changes, stale, recordChange: (change) => changes.push(change), recordStaleReturn: (entry) => stale.push(entry) };
}
const key = (invocationId: string, sessionId = 's1', agentId = 'a1') => ({ agentId, sessionId, invocationId });

describe('carrier scopes', () => {
  it('isolated: every invocation gets a fresh instance', () => {
    const jar = new CookieJarCarrier({ name: 'jar', scope: 'isolated' });
    const first = jar.acquire(key('i1'));
    jar.handle(first, recorder()).set({ name: 'sid', value: 'x', domain: 'example.com' });
    const second = jar.acquire(key('i2'));
    expect(second).not.toBe(first);
    expect(jar.handle(second, recorder()).list()).toEqual([]);
  });

  it('session: shared within a session, separate across sessions', () => {
    const jar = new CookieJarCarrier({ name: 'jar', scope: 'session' });
    jar.handle(jar.acquire(key('i1', 's1')), recorder()).set({ name: 'sid', value: 'x' });
    expect(jar.handle(jar.acquire(key('i2', 's1')), recorder()).get('sid')?.value).toBe('x');
    expect(jar.handle(jar.acquire(key('i3', 's2')), recorder()).get('sid')).toBeUndefined();
  });

  it('agent: shared across the sessions of one agent, not across agents', () => {
    const cache = new CacheCarrier({ name: 'cache', scope: 'agent' });
    cache.handle(cache.acquire(key('i1', 's1', 'a1')), recorder()).set('k', 1);
    expect(cache.handle(cache.acquire(key('i2', 's2', 'a1')), recorder()).get('k')).toBe(1);
    expect(cache.handle(cache.acquire(key('i3', 's1', 'a2')), recorder()).get('k')).toBeUndefined();
  });

  it('reset drops the shared instance so the next call starts fresh', () => {
    const jar = new CookieJarCarrier({ name: 'jar', scope: 'session' });
    jar.handle(jar.acquire(key('i1')), recorder()).set({ name: 'sid', value: 'x' });
    expect(jar.reset({ agentId: 'a1', sessionId: 's1' })).toBe(true);
    expect(jar.handle(jar.acquire(key('i2')), recorder()).list()).toEqual([]);
    expect(new CookieJarCarrier({ name: 'jar', scope: 'isolated' }).reset({ agentId: 'a1', sessionId: 's1' })).toBe(false);
  });

  it('rejects a scope outside the three values and an empty name', () => {
    expect(() => new CookieJarCarrier({ name: 'jar', scope: 'global' as never })).toThrow(StateCarrierError);
    expect(() => new CacheCarrier({ name: '', scope: 'session' })).toThrow(/non-empty `name`/);
  });

  it('widestScope orders isolated < session < agent', () => {
    expect(widestScope([])).toBe('isolated');
    expect(widestScope(['session', 'isolated'])).toBe('session');
    expect(widestScope(['session', 'agent', 'isolated'])).toBe('agent');
  });
});

describe('cookie jar deltas', () => {
  it('reports cookies set with their scopes, widening and deletion, never the values', () => {
    const jar = new CookieJarCarrier({ name: 'auth', scope: 'session' });
    const log = recorder();
    const handle = jar.handle(jar.acquire(key('i1')), log);
    handle.set({ name: 'sid', value: 'secret-1', domain: 'example.com', scopes: ['read'] });
    handle.set({ name: 'sid', value: 'secret-2', domain: 'example.com', scopes: ['admin', 'read'] });
    handle.set({ name: 'sid', value: 'secret-3', domain: 'example.com', scopes: ['read'] });
    expect(handle.delete('sid', 'example.com')).toBe(true);
    expect(handle.delete('sid', 'example.com')).toBe(false);
    expect(log.changes).toEqual([
      { kind: 'cookie-set', carrier: 'auth', credential: 'sid@example.com/', scopes: ['read'], previousScopes: null, widened: false },
      {
        kind: 'cookie-set',
        carrier: 'auth',
        credential: 'sid@example.com/',
        scopes: ['admin', 'read'],
        previousScopes: ['read'],
        widened: true,
      },
      {
        kind: 'cookie-set',
        carrier: 'auth',
        credential: 'sid@example.com/',
        scopes: ['read'],
        previousScopes: ['admin', 'read'],
        widened: false,
      },
      { kind: 'cookie-deleted', carrier: 'auth', credential: 'sid@example.com/' },
    ]);
    expect(JSON.stringify(log.changes)).not.toContain('secret');
  });

  it('builds a Cookie header for a domain and its subdomains only', () => {
    const jar = new CookieJarCarrier({ name: 'auth', scope: 'isolated' });
    const handle = jar.handle(jar.acquire(key('i1')), recorder());
    handle.set({ name: 'a', value: '1', domain: 'example.com' });
    handle.set({ name: 'b', value: '2', domain: 'other.org' });
    handle.set({ name: 'token', value: 't' });
    expect(handle.cookieHeader('api.example.com')).toBe('a=1');
    expect(handle.cookieHeader('notexample.com')).toBe('');
  });

  it("keeps each credential's scopes at creation for the widening baseline", () => {
    const jar = new CookieJarCarrier({ name: 'auth', scope: 'session' });
    const instance = jar.acquire(key('i1'));
    const handle = jar.handle(instance, recorder());
    handle.set({ name: 'token', value: 'a', scopes: ['read'] });
    handle.set({ name: 'token', value: 'b', scopes: ['read', 'write'] });
    expect(jar.authScopes(instance)).toEqual({ current: { 'token@/': ['read', 'write'] }, atCreation: { 'token@/': ['read'] } });
  });
});

describe('cache', () => {
  function clock(start = 1_000) {
    let now = start;
    return { now: () => now, advance: (ms: number) => (now += ms) };
  }

  it('reports entries added and replaced', () => {
    const cache = new CacheCarrier({ name: 'pages', scope: 'session', ttlMs: 100 });
    const log = recorder();
    const handle = cache.handle(cache.acquire(key('i1')), log);
    handle.set('a', 1);
    handle.set('a', 2, { ttlMs: null });
    expect(log.changes).toEqual([
      { kind: 'cache-entry-added', carrier: 'pages', key: 'a', replaced: false, ttlMs: 100 },
      { kind: 'cache-entry-added', carrier: 'pages', key: 'a', replaced: true, ttlMs: null },
    ]);
  });

  it('serves an entry older than its TTL but marks it stale', () => {
    const time = clock();
    const cache = new CacheCarrier({ name: 'pages', scope: 'session', ttlMs: 100, now: time.now });
    cache.handle(cache.acquire(key('i1')), recorder()).set('a', 'old');
    time.advance(100);
    const fresh = recorder();
    expect(cache.handle(cache.acquire(key('i2')), fresh).lookup('a')).toEqual({ hit: true, value: 'old', stale: null });
    time.advance(1);
    const log = recorder();
    const lookup = cache.handle(cache.acquire(key('i3')), log).lookup('a');
    expect(lookup.value).toBe('old');
    expect(lookup.stale).toEqual({ carrier: 'pages', key: 'a', reason: 'ttl-expired', ageMs: 101, ttlMs: 100, handling: 'served' });
    expect(log.stale).toEqual([lookup.stale]);
  });

  it('marks entries stored before a known change, whatever their TTL', () => {
    const cache = new CacheCarrier({ name: 'pages', scope: 'session', now: () => 5 });
    const handle = cache.handle(cache.acquire(key('i1')), recorder());
    handle.set('a', 'v1');
    handle.set('b', 'v1');
    cache.noteUnderlyingChange('a');
    const log = recorder();
    const later = cache.handle(cache.acquire(key('i2')), log);
    expect(later.lookup('a').stale?.reason).toBe('changed-since-stored');
    expect(later.lookup('b').stale).toBeNull();
    later.set('a', 'v2');
    expect(later.lookup('a')).toEqual({ hit: true, value: 'v2', stale: null });
    cache.noteUnderlyingChange();
    expect(later.lookup('b').stale?.reason).toBe('changed-since-stored');
  });

  it('refetch handling evicts the stale entry, records the eviction and loads anew', async () => {
    const cache = new CacheCarrier({ name: 'pages', scope: 'session', onStale: 'refetch' });
    cache.handle(cache.acquire(key('i1')), recorder()).set('a', 'v1');
    cache.noteUnderlyingChange('a');
    const log = recorder();
    const handle = cache.handle(cache.acquire(key('i2')), log);
    expect(await handle.getOrLoad('a', () => 'v2')).toBe('v2');
    expect(log.stale.map((entry) => entry.handling)).toEqual(['refetched']);
    expect(log.changes.map((change) => change.kind)).toEqual(['cache-entry-evicted', 'cache-entry-added']);
  });

  it('rejects a negative or infinite TTL', () => {
    expect(() => new CacheCarrier({ name: 'c', scope: 'session', ttlMs: -1 })).toThrow(StateCarrierError);
    expect(() => new CacheCarrier({ name: 'c', scope: 'session', ttlMs: Infinity })).toThrow(/finite/);
  });
});

describe('client factory', () => {
  it('isolated: a new client per invocation, disposed after; delta says so', () => {
    const disposed: number[] = [];
    let made = 0;
    const clients = new ClientFactoryCarrier({
      name: 'http',
      scope: 'isolated',
      create: () => ({ id: ++made }),
      dispose: (client) => disposed.push(client.id),
    });
    for (const id of ['i1', 'i2']) {
      const log = recorder();
      const instance = clients.acquire(key(id));
      const handle = clients.handle(instance, log);
      expect(handle.get()).toBe(handle.get());
      expect(log.changes).toHaveLength(1);
      expect(log.changes[0]?.kind).toBe('client-created');
      clients.release(instance);
    }
    expect(made).toBe(2);
    expect(disposed).toEqual([1, 2]);
  });

  it('session: one client reused, created once, kept on release', () => {
    let made = 0;
    const clients = new ClientFactoryCarrier({ name: 'http', scope: 'session', create: () => ({ id: ++made }) });
    const first = clients.acquire(key('i1'));
    clients.handle(first, recorder()).get();
    clients.release(first);
    const log = recorder();
    expect(clients.handle(clients.acquire(key('i2')), log).get()).toEqual({ id: 1 });
    expect(log.changes).toEqual([]);
  });
});

describe('session rate limit', () => {
  it('reports usage before a call without spending', () => {
    const limit = new SessionRateLimit({ name: 'api', limit: 4 });
    const session = { agentId: 'a', sessionId: 's' };
    expect(limit.report(session)).toEqual({
      limiter: 'api',
      limit: 4,
      usedBefore: 0,
      cost: 1,
      usageRatioBefore: 0,
      usageRatioAfter: 0.25,
      remainingAfter: 3,
    });
    limit.spend(session);
    limit.spend(session);
    expect(limit.report(session)).toMatchObject({ usedBefore: 2, usageRatioBefore: 0.5, usageRatioAfter: 0.75 });
    expect(limit.report({ agentId: 'a', sessionId: 'other' }).usedBefore).toBe(0);
  });

  it('restoreUsage never lowers usage; invalid limits are refused', () => {
    const limit = new SessionRateLimit({ name: 'api', limit: 10, costPerCall: 2 });
    const session = { agentId: 'a', sessionId: 's' };
    limit.spend(session);
    limit.restoreUsage(session, 1);
    expect(limit.report(session).usedBefore).toBe(2);
    limit.restoreUsage(session, 6);
    expect(limit.report(session).usedBefore).toBe(6);
    expect(() => new SessionRateLimit({ name: 'api', limit: 0 })).toThrow(StateCarrierError);
    expect(() => new SessionRateLimit({ name: 'api', limit: Number.NaN })).toThrow(/finite number > 0/);
  });
});
