import { execFileSync, spawnSync } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CacheCarrier,
  ClientFactoryCarrier,
  CookieJarCarrier,
  defineStatefulTool,
  digestOfJson,
  InvocationLedger,
  InvalidStatePolicyError,
  InvocationRefusedError,
  JournalWriter,
  LedgerJournalError,
  LedgerLockedError,
  SessionRateLimit,
  sealRecord,
  sha256Hex,
  sha256HexSurrogatePass,
  StateScopeMismatchError,
  StateVerdict,
  type InvocationRecord,
  type LedgerPolicy,
  pythonJsonDumps,
  type PythonJsonValue,
  type StateCarrierLike,
} from '../../../src/index.js';

const relaxed: LedgerPolicy = { requireIsolationForCritical: false, maxSessionUsageRatio: 1 };

function cookieTool(scope: 'isolated' | 'session' | 'agent') {
  const jar = new CookieJarCarrier({ name: 'browser-cookies', scope });
  return defineStatefulTool({
    toolId: 'browser_session',
    stateScope: scope,
    carriers: { jar },
    invoke(input: { url: string; login?: string[] }, state) {
      const before = state.jar.cookieHeader('example.com');
      if (input.login !== undefined)
        state.jar.set({ name: 'sid', value: `v-${input.login.join('+')}`, domain: 'example.com', scopes: input.login });
      return `${input.url} cookies=[${before}]`;
    },
  });
}

const signature = (record: InvocationRecord) => record.receipts.state_leakage_detection_signature;

describe('InvocationLedger verdicts', () => {
  it('a tool without state is STATELESS_TOOL and has no delta', async () => {
    const ledger = InvocationLedger.open({ sessionId: 's', policy: relaxed });
    const tool = defineStatefulTool({ toolId: 'echo', invoke: (input: string) => input.toUpperCase() });
    const { result, record } = await ledger.invoke(tool, 'hi');
    expect(result).toBe('HI');
    expect(signature(record)).toMatchObject({ gate: 'stateless', verdict: StateVerdict.STATELESS_TOOL, outcome: 'ran' });
    expect(record.receipts.invocation_state_delta_signature.stateDeltaHash).toBeNull();
    expect(record.receipts.tool_state_scope_receipt).toMatchObject({ hasSessionState: false, isolationPolicy: 'ISOLATED', carriers: [] });
  });

  it('session scope: call 4 sees three prior deltas and is flagged (WARN), calls 2-3 see the cookie', async () => {
    const ledger = InvocationLedger.open({ sessionId: 's', policy: relaxed });
    const tool = cookieTool('session');
    const records: InvocationRecord[] = [];
    const results: unknown[] = [];
    for (let call = 1; call <= 4; call += 1) {
      const { result, record } = await ledger.invoke(tool, { url: `/page/${call}`, login: ['read'] });
      results.push(result);
      records.push(record);
    }
    expect(results[0]).toBe('/page/1 cookies=[]');
    expect(results[1]).toBe('/page/2 cookies=[sid=v-read]');
    expect(records.map((record) => signature(record).priorStateDeltas.count)).toEqual([0, 1, 2, 3]);
    expect(signature(records[0]!).priorStateDeltas.chainDigest).toBeNull();
    expect(new Set(records.slice(1).map((record) => signature(record).priorStateDeltas.chainDigest)).size).toBe(3);
    // chain = sha256(previousChain + ':' + deltaHash), from the empty string: a verifier can recompute it from the journal.
    const deltas = records.map((record) => record.receipts.invocation_state_delta_signature.stateDeltaHash!);
    const chained = deltas.slice(0, 2).reduce((chain, delta) => sha256Hex(`${chain}:${delta}`), '');
    expect(signature(records[2]!).priorStateDeltas.chainDigest).toBe(chained);
    // The scope receipt describes the state each call started with, on the one shared instance.
    expect(records.map((record) => record.receipts.tool_state_scope_receipt.carriers[0]?.priorDeltaCount)).toEqual([0, 1, 2, 3]);
    expect(new Set(records.map((record) => record.receipts.tool_state_scope_receipt.carriers[0]?.instance))).toEqual(
      new Set(['browser-cookies#1@session:agent/s']),
    );
    expect(records.map((record) => signature(record).gate)).toEqual(['isolated', 'isolated', 'isolated', 'accumulated-deltas']);
    expect(signature(records[3]!).directive).toBe('WARN: 3 prior state deltas accumulated for browser_session.');
    expect(records[3]!.warnings).toContain('WARN: 3 prior state deltas accumulated for browser_session.');
    expect(records[0]!.receipts.invocation_isolation_policy_receipt.isolationPolicy).toBe('SESSION_SHARED');
  });

  it('isolated scope: four calls, each with a fresh jar and no prior deltas', async () => {
    const ledger = InvocationLedger.open({ sessionId: 's', policy: relaxed });
    const tool = cookieTool('isolated');
    for (let call = 1; call <= 4; call += 1) {
      const { result, record } = await ledger.invoke(tool, { url: '/p', login: ['read'] });
      expect(result).toBe('/p cookies=[]');
      expect(signature(record)).toMatchObject({
        gate: 'isolated',
        priorStateDeltas: { count: 0, chainDigest: null },
        verdict: StateVerdict.ISOLATED_INVOCATIONS,
      });
      expect(record.receipts.invocation_state_delta_signature.changes).toHaveLength(1);
    }
  });

  it('isolation required for critical tools: a session-shared tool is refused before it runs', async () => {
    const ledger = InvocationLedger.open({ sessionId: 's', policy: { ...relaxed, requireIsolationForCritical: true } });
    let ran = false;
    const jar = new CookieJarCarrier({ name: 'jar', scope: 'session' });
    const tool = defineStatefulTool({ toolId: 'pay', carriers: { jar }, invoke: () => (ran = true) });
    const refusal = await ledger.invoke(tool, undefined).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(InvocationRefusedError);
    expect((refusal as InvocationRefusedError).code).toBe('INVOCATION_REFUSED');
    expect(signature((refusal as InvocationRefusedError).record)).toMatchObject({ gate: 'isolation-policy', outcome: 'refused' });
    expect(ran).toBe(false);
    expect(ledger.records).toHaveLength(1);
    // A tool marked non-critical is exempt.
    await ledger.invoke({ ...tool, critical: false }, undefined);
    expect(ran).toBe(true);
  });

  it('onLeakage: warn runs the call and records the HALT directive as a warning', async () => {
    const ledger = InvocationLedger.open({ sessionId: 's', policy: { ...relaxed, requireIsolationForCritical: true, onLeakage: 'warn' } });
    const { record } = await ledger.invoke(cookieTool('session'), { url: '/x' });
    expect(record.outcome).toBe('ran');
    expect(record.warnings).toEqual(['HALT: Policy requires isolation but tool is SESSION_SHARED.']);
  });

  it('a declared scope narrower than a carrier is a configuration error', async () => {
    const ledger = InvocationLedger.open({ sessionId: 's', policy: relaxed });
    const jar = new CookieJarCarrier({ name: 'jar', scope: 'agent' });
    const tool = defineStatefulTool({ toolId: 't', stateScope: 'session', carriers: { jar }, invoke: () => 1 });
    await expect(ledger.invoke(tool, undefined)).rejects.toThrow(StateScopeMismatchError);
    await expect(ledger.invoke(tool, undefined)).rejects.toThrow(/Declare stateScope 'agent'/);
  });

  it('agent scope: state and its deltas follow the agent into a new session', async () => {
    const tool = cookieTool('agent');
    const first = InvocationLedger.open({ sessionId: 's1', agentId: 'bot', policy: relaxed });
    await first.invoke(tool, { url: '/a', login: ['read'] });
    const second = InvocationLedger.open({ sessionId: 's2', agentId: 'bot', policy: relaxed });
    const { result, record } = await second.invoke(tool, { url: '/b' });
    expect(result).toBe('/b cookies=[sid=v-read]');
    expect(signature(record).priorStateDeltas.count).toBe(1);
    expect(record.receipts.tool_state_scope_receipt.isolationPolicy).toBe('AGENT_SHARED');
  });
});

describe('policy validation', () => {
  // A malformed policy used to fail open: NaN or undefined never reaches the ceiling, 'Refuse' is not 'refuse'.
  const malformed: [field: string, policy: Record<string, unknown>][] = [
    ['maxSessionUsageRatio', { requireIsolationForCritical: false }],
    ['maxSessionUsageRatio', { requireIsolationForCritical: false, maxSessionUsageRatio: Number.NaN }],
    ['maxSessionUsageRatio', { requireIsolationForCritical: false, maxSessionUsageRatio: 0 }],
    ['maxSessionUsageRatio', { requireIsolationForCritical: false, maxSessionUsageRatio: -0.5 }],
    ['maxSessionUsageRatio', { requireIsolationForCritical: false, maxSessionUsageRatio: 1.5 }],
    ['maxSessionUsageRatio', { requireIsolationForCritical: false, maxSessionUsageRatio: '0.9' }],
    ['requireIsolationForCritical', { maxSessionUsageRatio: 0.9 }],
    ['requireIsolationForCritical', { requireIsolationForCritical: 'yes', maxSessionUsageRatio: 0.9 }],
    ['onSessionLimit', { ...relaxed, onSessionLimit: 'Refuse' }],
    ['onLeakage', { ...relaxed, onLeakage: 'block' }],
    ['accumulatedDeltaThreshold', { ...relaxed, accumulatedDeltaThreshold: 1.5 }],
  ];
  it.each(malformed)('a malformed %s is refused when the ledger opens, naming the field', (field, policy) => {
    let failure: unknown;
    try {
      InvocationLedger.open({ sessionId: 's', policy: policy as unknown as LedgerPolicy });
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(InvalidStatePolicyError);
    expect(failure).toMatchObject({ code: 'INVALID_STATE_POLICY', field });
    expect((failure as Error).message).toContain(`policy.${field}`);
  });

  it('a missing policy is refused too', () => {
    expect(() => InvocationLedger.open({ sessionId: 's' } as unknown as Parameters<typeof InvocationLedger.open>[0])).toThrow(
      InvalidStatePolicyError,
    );
  });

  it('the documented values open: ratios in (0, 1], refuse or warn', () => {
    for (const maxSessionUsageRatio of [Number.MIN_VALUE, 0.5, 1]) {
      expect(
        InvocationLedger.open({ sessionId: 's', policy: { ...relaxed, maxSessionUsageRatio, onSessionLimit: 'warn', onLeakage: 'refuse' } })
          .policy.maxSessionUsageRatio,
      ).toBe(maxSessionUsageRatio);
    }
  });
});

describe('auth scope widening', () => {
  it('a credential whose scope widened since the previous call of the tool is a leakage verdict, not a pass', async () => {
    const ledger = InvocationLedger.open({ sessionId: 's', policy: relaxed });
    const tool = cookieTool('session');
    await ledger.invoke(tool, { url: '/login', login: ['read'] });
    const escalate = await ledger.invoke(tool, { url: '/admin-op', login: ['admin', 'read'] });
    expect(escalate.record.receipts.invocation_state_delta_signature.changes[0]).toMatchObject({ widened: true, previousScopes: ['read'] });
    const refusal = (await ledger.invoke(tool, { url: '/next' }).catch((error: unknown) => error)) as InvocationRefusedError;
    expect(refusal).toBeInstanceOf(InvocationRefusedError);
    const leak = signature(refusal.record);
    expect(leak.gate).toBe('auth-scope');
    expect(leak.verdict).toBe(StateVerdict.STATE_LEAKAGE_DETECTED);
    expect(leak.directive).toBe('HALT: Auth scope widened since the previous call of browser_session: sid@example.com/ gained admin.');
    expect(leak.authScopeWidenings).toEqual([
      { carrier: 'browser-cookies', credential: 'sid@example.com/', from: ['read'], to: ['admin', 'read'], added: ['admin'] },
    ]);
    expect(leak.manifestDigest).toBe(
      digestOfJson({
        invocation: 's/3',
        tool: 'browser_session',
        type: 'AUTH_SCOPE_WIDENED',
        widened: leak.authScopeWidenings as unknown as PythonJsonValue,
      }),
    );
    // Refused again until the session takes charge of the state.
    await expect(ledger.invoke(tool, { url: '/next' })).rejects.toThrow(InvocationRefusedError);
    ledger.resetState(tool);
    const { result } = await ledger.invoke(tool, { url: '/next' });
    expect(result).toBe('/next cookies=[]');
  });

  it("escalation by another tool sharing the jar is caught on this tool's first call", async () => {
    const ledger = InvocationLedger.open({ sessionId: 's', policy: { ...relaxed, onLeakage: 'warn' } });
    const jar = new CookieJarCarrier({ name: 'jar', scope: 'session' });
    const login = defineStatefulTool({
      toolId: 'login',
      carriers: { jar },
      invoke(_input: undefined, state) {
        state.jar.set({ name: 'token', value: 'a', scopes: ['read'] });
        state.jar.set({ name: 'token', value: 'b', scopes: ['read', 'write'] });
      },
    });
    const reader = defineStatefulTool({ toolId: 'reader', carriers: { jar }, invoke: () => 'ok' });
    await ledger.invoke(login, undefined);
    const { record } = await ledger.invoke(reader, undefined);
    expect(signature(record).gate).toBe('auth-scope');
    expect(signature(record).authScopeWidenings[0]?.added).toEqual(['write']);
    expect(record.outcome).toBe('ran');
  });

  it('any carrier that reports auth scopes is watched, not only the cookie jar', async () => {
    // A token store of the harness's own: the ledger asks the capability, it does not check the class.
    const granted: Record<string, readonly string[]> = { 'api-token': ['read'] };
    const instance = { instance: 'tokens#1', deltaHistory: [] as string[] };
    const tokens: StateCarrierLike = {
      name: 'tokens',
      kind: 'client-factory',
      scope: 'session',
      acquire: () => instance,
      handle: () => ({ grant: (scope: string) => (granted['api-token'] = [...granted['api-token']!, scope]) }),
      release: () => undefined,
      reset: () => false,
      describe: () => ({ carrier: 'tokens', kind: 'client-factory', scope: 'session', instance: 'tokens#1', priorDeltaCount: 0 }),
      authScopes: () => ({ current: { ...granted }, atCreation: { 'api-token': ['read'] } }),
    };
    const ledger = InvocationLedger.open({ sessionId: 's', policy: relaxed });
    const tool = defineStatefulTool({
      toolId: 'api',
      carriers: { tokens },
      invoke: (scope: string | undefined, state) =>
        scope === undefined ? 'no grant' : (state.tokens as { grant(scope: string): unknown }).grant(scope),
    });
    await ledger.invoke(tool, undefined);
    await ledger.invoke(tool, 'admin');
    const refusal = (await ledger.invoke(tool, undefined).catch((error: unknown) => error)) as InvocationRefusedError;
    expect(refusal).toBeInstanceOf(InvocationRefusedError);
    expect(signature(refusal.record).authScopeWidenings).toEqual([
      { carrier: 'tokens', credential: 'api-token', from: ['read'], to: ['read', 'admin'], added: ['admin'] },
    ]);
  });

  it('a new credential at its creation scope is not a widening', async () => {
    const ledger = InvocationLedger.open({ sessionId: 's', policy: relaxed });
    const tool = cookieTool('session');
    await ledger.invoke(tool, { url: '/1', login: ['read'] });
    const { record } = await ledger.invoke(tool, { url: '/2' });
    expect(signature(record).authScopeWidenings).toEqual([]);
  });

  it('session limit outranks auth widening (gate order)', async () => {
    const ledger = InvocationLedger.open({ sessionId: 's', policy: { ...relaxed, maxSessionUsageRatio: 0.5 } });
    const jar = new CookieJarCarrier({ name: 'jar', scope: 'session' });
    const limit = new SessionRateLimit({ name: 'api', limit: 4 });
    const tool = defineStatefulTool({
      toolId: 't',
      carriers: { jar },
      sessionLimit: limit,
      invoke(input: string[], state) {
        state.jar.set({ name: 'c', value: 'v', scopes: input });
      },
    });
    await ledger.invoke(tool, ['a']);
    await ledger.invoke(tool, ['a', 'b']).catch(() => undefined);
    const refusal = (await ledger.invoke(tool, []).catch((error: unknown) => error)) as InvocationRefusedError;
    expect(signature(refusal.record).gate).toBe('session-limit');
  });
});

describe('stale cache surfacing', () => {
  it('a stale hit is returned and marked in the leakage signature and warnings', async () => {
    let now = 0;
    const cache = new CacheCarrier({ name: 'prices', scope: 'session', ttlMs: 60_000, now: () => now });
    const tool = defineStatefulTool({
      toolId: 'price_lookup',
      carriers: { cache },
      invoke: (sku: string, state) => state.cache.getOrLoad(sku, () => `price-of-${sku}@${now}`),
    });
    const ledger = InvocationLedger.open({ sessionId: 's', policy: relaxed });
    expect((await ledger.invoke(tool, 'A')).result).toBe('price-of-A@0');
    cache.noteUnderlyingChange('A');
    now = 10;
    const { result, record } = await ledger.invoke(tool, 'A');
    expect(result).toBe('price-of-A@0');
    expect(signature(record).staleCacheReturns).toEqual([
      { carrier: 'prices', key: 'A', reason: 'changed-since-stored', ageMs: 10, ttlMs: 60_000, handling: 'served' },
    ]);
    expect(record.warnings.some((warning) => warning.startsWith('Stale cache return from prices for "A"'))).toBe(true);
    now = 70_001;
    const third = await ledger.invoke(tool, 'A');
    expect(signature(third.record).staleCacheReturns[0]?.reason).toBe('changed-since-stored');
  });
});

describe('session limit transparency', () => {
  it('reports usage before each call and refuses the call that would reach the ceiling', async () => {
    const limit = new SessionRateLimit({ name: 'search-api', limit: 4 });
    const tool = defineStatefulTool({
      toolId: 'search',
      stateScope: 'isolated',
      sessionLimit: limit,
      invoke: (query: string) => `results for ${query}`,
    });
    const ledger = InvocationLedger.open({ sessionId: 's', policy: { ...relaxed, maxSessionUsageRatio: 1 } });
    const before: number[] = [];
    for (let call = 1; call <= 3; call += 1) {
      before.push(ledger.sessionLimitReport(tool)!.usageRatioBefore);
      const { record } = await ledger.invoke(tool, `q${call}`);
      expect(record.receipts.invocation_isolation_policy_receipt.sessionLimit).toMatchObject({ usedBefore: call - 1, limit: 4 });
    }
    expect(before).toEqual([0, 0.25, 0.5]);
    expect(ledger.sessionLimitReport(tool)).toMatchObject({ usageRatioBefore: 0.75, usageRatioAfter: 1, remainingAfter: 0 });
    const refusal = (await ledger.invoke(tool, 'q4').catch((error: unknown) => error)) as InvocationRefusedError;
    expect(refusal).toBeInstanceOf(InvocationRefusedError);
    expect(signature(refusal.record)).toMatchObject({
      verdict: StateVerdict.SESSION_LIMIT_EXHAUSTED,
      directive: 'HALT: Session usage 100.00% >= 100.00%.',
    });
    expect(refusal.message).toMatch(/Plan around the session budget/);
    expect(ledger.sessionLimitReport(tool)!.usedBefore).toBe(3);
  });

  it('onSessionLimit: warn spends the budget and records the warning', async () => {
    const limit = new SessionRateLimit({ name: 'api', limit: 3 });
    const tool = defineStatefulTool({ toolId: 'search', sessionLimit: limit, invoke: () => 'ok' });
    const ledger = InvocationLedger.open({ sessionId: 's', policy: { ...relaxed, maxSessionUsageRatio: 2 / 3, onSessionLimit: 'warn' } });
    await ledger.invoke(tool, undefined);
    const { record } = await ledger.invoke(tool, undefined);
    expect(record.outcome).toBe('ran');
    expect(record.warnings).toEqual(['HALT: Session usage 66.67% >= 66.67%.']);
    expect(record.receipts.invocation_state_delta_signature.changes).toEqual([
      { kind: 'counter-incremented', carrier: 'api', counter: 'session-usage', by: 1, value: 2 },
    ]);
  });
});

describe('receipts', () => {
  it('every receipt digest is SHA-256 of Python-style sorted JSON without the digest', async () => {
    const ledger = InvocationLedger.open({ sessionId: 'séance-中文-😀', policy: relaxed });
    const { record } = await ledger.invoke(cookieTool('session'), { url: '/', login: ['read'] });
    for (const receipt of Object.values(record.receipts)) {
      const { digest, ...body } = receipt as unknown as Record<string, PythonJsonValue>;
      expect(digest).toBe(digestOfJson(body));
    }
    expect(Object.keys(record.receipts).sort()).toEqual([
      'invocation_isolation_policy_receipt',
      'invocation_state_delta_signature',
      'state_leakage_detection_signature',
      'tool_state_scope_receipt',
    ]);
    expect(JSON.parse(JSON.stringify(record))).toEqual(record);
  });

  it('a tool that throws is recorded as failed, with the state it changed, and the error propagates', async () => {
    const ledger = InvocationLedger.open({ sessionId: 's', policy: relaxed });
    const jar = new CookieJarCarrier({ name: 'jar', scope: 'session' });
    const tool = defineStatefulTool({
      toolId: 'flaky',
      carriers: { jar },
      invoke(_input: undefined, state) {
        state.jar.set({ name: 'half', value: 'done' });
        throw new Error('network down');
      },
    });
    await expect(ledger.invoke(tool, undefined)).rejects.toThrow('network down');
    expect(ledger.records[0]).toMatchObject({ outcome: 'failed', error: 'Error: network down' });
    expect(ledger.records[0]!.receipts.invocation_state_delta_signature.stateDeltaHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('noteStateChange puts state the ledger cannot see into the delta', async () => {
    const ledger = InvocationLedger.open({ sessionId: 's', policy: relaxed });
    const tool = defineStatefulTool({
      toolId: 'counter',
      stateScope: 'session',
      invoke: (_input: undefined, _state, call) => call.noteStateChange('incremented this.calls'),
    });
    await ledger.invoke(tool, undefined);
    const { record } = await ledger.invoke(tool, undefined);
    expect(signature(record).priorStateDeltas.count).toBe(1);
    expect(record.receipts.invocation_state_delta_signature.changes).toEqual([
      { kind: 'declared-change', carrier: 'counter', description: 'incremented this.calls' },
    ]);
  });

  it('wrap returns only the result and records the call', async () => {
    const ledger = InvocationLedger.open({ sessionId: 's', policy: relaxed });
    const clients = new ClientFactoryCarrier({ name: 'db', scope: 'isolated', create: () => ({ query: (sql: string) => sql.length }) });
    const run = ledger.wrap(
      defineStatefulTool({ toolId: 'sql', carriers: { clients }, invoke: (sql: string, state) => state.clients.get().query(sql) }),
    );
    expect(await run('select 1', { invocationId: 'toolu_01' })).toBe(8);
    expect(ledger.records[0]?.invocationId).toBe('toolu_01');
  });
});

describe('ill-formed text from a tool (half an emoji)', () => {
  const halfEmoji = 'thumbs \uD83D';
  it('a result ending in a lone surrogate reaches the caller unchanged, spends budget once and gets a receipt', async () => {
    const limit = new SessionRateLimit({ name: 'api', limit: 10 });
    const ledger = InvocationLedger.open({ sessionId: 's', policy: relaxed });
    const tool = defineStatefulTool({ toolId: 'emoji', sessionLimit: limit, invoke: () => halfEmoji });
    const { result, record } = await ledger.invoke(tool, undefined);
    expect(result).toBe(halfEmoji);
    expect(record.outcome).toBe('ran');
    expect(ledger.records).toHaveLength(1);
    expect(ledger.sessionLimitReport(tool)?.usedBefore).toBe(1);
    // Python: hashlib.sha256(text.encode("utf-8", "surrogatepass")): the lone surrogate is its own 3 bytes, not U+FFFD.
    expect(signature(record).resultHash).toBe(
      createHash('sha256')
        .update(Buffer.from([...Buffer.from('thumbs '), 0xed, 0xa0, 0xbd]))
        .digest('hex'),
    );
  });

  it('different lone surrogates hash differently, and well-formed text hashes as before', () => {
    expect(sha256HexSurrogatePass('toolu_\uD800')).not.toBe(sha256HexSurrogatePass('toolu_\uDC00'));
    expect(sha256HexSurrogatePass('pair \uD83D\uDE00 ok')).toBe(sha256Hex('pair \uD83D\uDE00 ok'));
  });

  it("a thrown error whose message holds a lone surrogate propagates as the tool's own error and is recorded as failed", async () => {
    const folder = mkdtempSync(join(tmpdir(), 'ledger-'));
    try {
      const path = join(folder, 'ledger.jsonl');
      const ledger = InvocationLedger.open({ sessionId: 's', policy: relaxed, journalPath: path, durability: 'os-buffered' });
      const thrown = new Error(halfEmoji);
      const tool = defineStatefulTool({
        toolId: 'emoji',
        stateScope: 'session',
        invoke: () => {
          throw thrown;
        },
      });
      await expect(ledger.invoke(tool, undefined)).rejects.toBe(thrown);
      expect(ledger.records[0]).toMatchObject({ outcome: 'failed', error: `Error: ${halfEmoji}` });
      expect(signature(ledger.records[0]!).resultHash).toBe(sha256HexSurrogatePass(`error:Error: ${halfEmoji}`));
      ledger.close();
      // The record survives the journal round trip: the chain verifies on resume.
      expect(InvocationLedger.open({ sessionId: 's', policy: relaxed, journalPath: path }).records[0]?.error).toBe(`Error: ${halfEmoji}`);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('whatever a tool throws reaches the caller unchanged', () => {
  it('a thrown value that cannot be turned into a string is still recorded, and is what the caller gets', async () => {
    const ledger = InvocationLedger.open({ sessionId: 's', policy: relaxed });
    const thrown = Object.create(null) as object;
    const tool = defineStatefulTool({
      toolId: 'odd',
      invoke: () => {
        throw thrown;
      },
    });
    await expect(ledger.invoke(tool, undefined)).rejects.toBe(thrown);
    expect(ledger.records[0]).toMatchObject({ outcome: 'failed', error: 'unprintable thrown value (object)' });
  });
});

describe('JSONL journal and resume', () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'ledger-'));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  async function runCalls(path: string, count: number, limit: SessionRateLimit) {
    const ledger = InvocationLedger.open({ sessionId: 's1', policy: relaxed, journalPath: path, durability: 'os-buffered' });
    const tool = defineStatefulTool({ toolId: 'search', sessionLimit: limit, invoke: (query: string) => query });
    for (let call = 0; call < count; call += 1) await ledger.invoke(tool, `q${call}`);
    ledger.close();
    return tool;
  }

  it('appends one sealed line per record, owner-only, and reloads them on resume', async () => {
    const path = join(folder, 'nested', 'ledger.jsonl');
    await runCalls(path, 3, new SessionRateLimit({ name: 'api', limit: 10 }));
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { type: string }).type)).toEqual([
      'ledger-opened',
      'invocation',
      'invocation',
      'invocation',
    ]);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    // A fresh process: a new limiter object learns the spent budget from the journal.
    const limit = new SessionRateLimit({ name: 'api', limit: 10 });
    const resumed = InvocationLedger.open({ sessionId: 's1', policy: relaxed, journalPath: path });
    expect(resumed.resumeReport).toEqual({ resumed: true, recordsLoaded: 4, invocationsLoaded: 3, brokenLastLine: null });
    const tool = defineStatefulTool({ toolId: 'search', sessionLimit: limit, invoke: (query: string) => query });
    expect(resumed.sessionLimitReport(tool)?.usedBefore).toBe(3);
    const { record } = await resumed.invoke(tool, 'next');
    expect(record.sequence).toBe(4);
    expect(record.invocationId).toBe('s1/4');
    expect(resumed.records).toHaveLength(4);
  });

  /** What a writer killed mid-append leaves: the first bytes of a record it never finished (and never checkpointed). */
  function crashMidRecord(path: string, keep: number): { offset: number; text: string } {
    const bytes = readFileSync(path);
    const lastLine = bytes.subarray(bytes.subarray(0, bytes.length - 1).lastIndexOf(0x0a) + 1);
    const partial = lastLine.subarray(0, keep);
    appendFileSync(path, partial);
    return { offset: bytes.length, text: partial.toString('utf8') };
  }

  it('a truncated last line: complete lines are kept, the broken one is reported, saved and cut off', async () => {
    const path = join(folder, 'ledger.jsonl');
    await runCalls(path, 2, new SessionRateLimit({ name: 'api', limit: 10 }));
    const crash = crashMidRecord(path, 40);
    const resumed = InvocationLedger.open({ sessionId: 's1', policy: relaxed, journalPath: path });
    const broken = resumed.resumeReport.brokenLastLine;
    expect(broken).toMatchObject({ lineNumber: 4, byteOffset: crash.offset, byteLength: 40, text: crash.text });
    expect(broken?.reason).toMatch(/cut short/);
    expect(readFileSync(broken!.savedTo!).length).toBe(40);
    expect(resumed.records).toHaveLength(2);
    // The journal continues cleanly after the kept lines.
    await resumed.invoke(defineStatefulTool({ toolId: 'echo', invoke: () => 1 }), undefined);
    resumed.close();
    const again = InvocationLedger.open({ sessionId: 's1', policy: relaxed, journalPath: path });
    expect(again.resumeReport.brokenLastLine).toBeNull();
    expect(again.records.map((record) => record.toolId)).toEqual(['search', 'search', 'echo']);
  });

  it('a second crash at the same line never overwrites the bytes an earlier one saved', async () => {
    const path = join(folder, 'ledger.jsonl');
    await runCalls(path, 2, new SessionRateLimit({ name: 'api', limit: 10 }));
    const firstCrash = crashMidRecord(path, 40);
    const checkpointBefore = readFileSync(`${path}.checkpoint`);
    const first = InvocationLedger.open({ sessionId: 's1', policy: relaxed, journalPath: path });
    first.close();
    // The resuming process dies while writing its resumed header, on the same line: put the files back as it left them.
    truncateSync(path, firstCrash.offset);
    writeFileSync(`${path}.checkpoint`, checkpointBefore);
    const secondCrash = crashMidRecord(path, 25);
    const second = InvocationLedger.open({ sessionId: 's1', policy: relaxed, journalPath: path });
    second.close();
    expect(first.resumeReport.brokenLastLine?.savedTo).toBe(`${path}.broken-line-4`);
    expect(second.resumeReport.brokenLastLine?.savedTo).toBe(`${path}.broken-line-4.2`);
    expect(readFileSync(`${path}.broken-line-4`, 'utf8')).toBe(firstCrash.text);
    expect(readFileSync(`${path}.broken-line-4.2`, 'utf8')).toBe(secondCrash.text);
  });

  it('a complete last record missing only its newline is kept', async () => {
    const path = join(folder, 'ledger.jsonl');
    await runCalls(path, 1, new SessionRateLimit({ name: 'api', limit: 10 }));
    truncateSync(path, statSync(path).size - 1);
    const resumed = InvocationLedger.open({ sessionId: 's1', policy: relaxed, journalPath: path });
    expect(resumed.resumeReport).toMatchObject({ invocationsLoaded: 1, brokenLastLine: null });
    resumed.close();
    expect(InvocationLedger.open({ sessionId: 's1', policy: relaxed, journalPath: path }).records).toHaveLength(1);
  });

  it('a damaged line in the middle is corruption: refused with the line number', async () => {
    const path = join(folder, 'ledger.jsonl');
    await runCalls(path, 3, new SessionRateLimit({ name: 'api', limit: 10 }));
    const lines = readFileSync(path, 'utf8').split('\n');
    lines[2] = lines[2]!.replace('"sequence":2', '"sequence":9');
    writeFileSync(path, lines.join('\n'));
    const opening = () => InvocationLedger.open({ sessionId: 's1', policy: relaxed, journalPath: path });
    expect(opening).toThrow(LedgerJournalError);
    expect(opening).toThrow(/corrupted at line 3 \(its recordDigest does not match/);
  });

  it('a dropped line breaks the chain', async () => {
    const path = join(folder, 'ledger.jsonl');
    await runCalls(path, 3, new SessionRateLimit({ name: 'api', limit: 10 }));
    const lines = readFileSync(path, 'utf8').split('\n');
    lines.splice(2, 1);
    writeFileSync(path, lines.join('\n'));
    expect(() => InvocationLedger.open({ sessionId: 's1', policy: relaxed, journalPath: path })).toThrow(/previousRecordDigest/);
  });

  it('an altered last line that still ends in a newline is corruption, not a crash', async () => {
    const path = join(folder, 'ledger.jsonl');
    await runCalls(path, 2, new SessionRateLimit({ name: 'api', limit: 10 }));
    writeFileSync(path, readFileSync(path, 'utf8').replace(/"sequence":2/, '"sequence":3'));
    expect(() => InvocationLedger.open({ sessionId: 's1', policy: relaxed, journalPath: path })).toThrow(/corrupted at line 3/);
  });

  it('refuses a journal from another session', async () => {
    const path = join(folder, 'ledger.jsonl');
    await runCalls(path, 1, new SessionRateLimit({ name: 'api', limit: 10 }));
    expect(() => InvocationLedger.open({ sessionId: 'other', policy: relaxed, journalPath: path })).toThrow(
      expect.objectContaining({ code: 'LEDGER_SESSION_MISMATCH' }),
    );
  });

  it('a closed ledger refuses calls before the tool runs', async () => {
    const ledger = InvocationLedger.open({ sessionId: 's1', policy: relaxed, journalPath: join(folder, 'l.jsonl') });
    ledger.close();
    let ran = false;
    await expect(ledger.invoke(defineStatefulTool({ toolId: 't', invoke: () => (ran = true) }), undefined)).rejects.toThrow(
      expect.objectContaining({ code: 'LEDGER_CLOSED' }),
    );
    expect(ran).toBe(false);
  });

  it('garbage appended after a crash is treated as the broken last line', async () => {
    const path = join(folder, 'ledger.jsonl');
    await runCalls(path, 1, new SessionRateLimit({ name: 'api', limit: 10 }));
    appendFileSync(path, '{"type":"invocation","seq');
    const resumed = InvocationLedger.open({ sessionId: 's1', policy: relaxed, journalPath: path });
    expect(resumed.resumeReport.brokenLastLine?.text).toBe('{"type":"invocation","seq');
    expect(resumed.records).toHaveLength(1);
  });

  it('deleting the last complete records is detected by the checkpoint, so a resume cannot restore a smaller budget', async () => {
    const path = join(folder, 'ledger.jsonl');
    await runCalls(path, 4, new SessionRateLimit({ name: 'api', limit: 10 }));
    const lines = readFileSync(path, 'utf8').split('\n');
    writeFileSync(path, `${lines.slice(0, 3).join('\n')}\n`);
    const opening = () => InvocationLedger.open({ sessionId: 's1', policy: relaxed, journalPath: path });
    expect(opening).toThrow(expect.objectContaining({ code: 'LEDGER_CORRUPTED' }));
    expect(opening).toThrow(/checkpoint .* 5 records.* 3/);
  });

  it('a checkpointed last record cut short is truncation, not a crash', async () => {
    const path = join(folder, 'ledger.jsonl');
    await runCalls(path, 2, new SessionRateLimit({ name: 'api', limit: 10 }));
    truncateSync(path, statSync(path).size - 30);
    expect(() => InvocationLedger.open({ sessionId: 's1', policy: relaxed, journalPath: path })).toThrow(
      expect.objectContaining({ code: 'LEDGER_CORRUPTED' }),
    );
    expect(existsSync(`${path}.broken-line-3`)).toBe(false);
  });

  it('an edited last line without its newline is LEDGER_CORRUPTED, never a broken last line', async () => {
    const path = join(folder, 'ledger.jsonl');
    await runCalls(path, 2, new SessionRateLimit({ name: 'api', limit: 10 }));
    const text = readFileSync(path, 'utf8').trimEnd();
    writeFileSync(path, text.replace(/"sequence":2/, '"sequence":1'));
    expect(() => InvocationLedger.open({ sessionId: 's1', policy: relaxed, journalPath: path })).toThrow(
      expect.objectContaining({ code: 'LEDGER_CORRUPTED', message: expect.stringMatching(/line 3 \(its recordDigest does not match/) }),
    );
  });

  it('a deleted checkpoint is refused: it is what detects removed records', async () => {
    const path = join(folder, 'ledger.jsonl');
    await runCalls(path, 1, new SessionRateLimit({ name: 'api', limit: 10 }));
    rmSync(`${path}.checkpoint`);
    expect(() => InvocationLedger.open({ sessionId: 's1', policy: relaxed, journalPath: path })).toThrow(
      expect.objectContaining({ code: 'LEDGER_CORRUPTED', message: expect.stringMatching(/checkpoint .* is missing/) }),
    );
  });

  describe('with an hmacKey', () => {
    const hmacKey = 'k3y-from-the-secret-store';
    const openKeyed = (path: string, key: string | undefined = hmacKey) =>
      InvocationLedger.open({ sessionId: 's1', policy: relaxed, journalPath: path, durability: 'os-buffered', hmacKey: key });
    async function keyedCalls(path: string, count: number) {
      const ledger = openKeyed(path);
      for (let call = 0; call < count; call += 1)
        await ledger.invoke(defineStatefulTool({ toolId: 'search', invoke: (query: string) => query }), `q${call}`);
      ledger.close();
    }
    /** What an attacker without the key can do: rewrite a record and recompute every plain SHA-256 digest after it, and the checkpoint. */
    function rewriteWithRecomputedHashes(
      path: string,
      edit: (record: Record<string, PythonJsonValue>, index: number) => void,
      keep?: number,
    ) {
      const records = readFileSync(path, 'utf8')
        .trimEnd()
        .split('\n')
        .slice(0, keep)
        .map((line) => JSON.parse(line) as Record<string, PythonJsonValue>);
      let previous: string | null = null;
      const lines = records.map((record, index) => {
        const { recordDigest: _dropped, previousRecordDigest: _link, ...fields } = record;
        edit(fields, index);
        const sealed = sealRecord(fields, previous);
        previous = sealed.recordDigest;
        return JSON.stringify(sealed);
      });
      writeFileSync(path, `${lines.join('\n')}\n`);
      const checkpoint = JSON.parse(readFileSync(`${path}.checkpoint`, 'utf8')) as Record<string, PythonJsonValue>;
      writeFileSync(`${path}.checkpoint`, JSON.stringify({ ...checkpoint, records: lines.length, head: previous }));
    }

    it('records are chained with HMAC-SHA256 and resume with the same key', async () => {
      const path = join(folder, 'ledger.jsonl');
      await keyedCalls(path, 2);
      const [header] = readFileSync(path, 'utf8')
        .split('\n')
        .map((line) => line && (JSON.parse(line) as Record<string, PythonJsonValue>));
      const { recordDigest, ...linked } = header as Record<string, PythonJsonValue>;
      expect(recordDigest).toBe(createHmac('sha256', hmacKey).update(pythonJsonDumps(linked)).digest('hex'));
      expect(openKeyed(path).records).toHaveLength(2);
    });

    it('a middle record rewritten with recomputed hashes is detected with the key, and accepted without one', async () => {
      const keyed = join(folder, 'keyed.jsonl');
      await keyedCalls(keyed, 3);
      rewriteWithRecomputedHashes(keyed, (record, index) => {
        if (index === 2) record['toolId'] = 'harmless';
      });
      // The rewritten checkpoint claims a plain SHA-256 chain: with the key, that is refused as a key mismatch or corruption.
      expect(() => openKeyed(keyed)).toThrow(expect.objectContaining({ code: expect.stringMatching(/^LEDGER_(CORRUPTED|KEY_MISMATCH)$/) }));
      const plain = join(folder, 'plain.jsonl');
      await runCalls(plain, 3, new SessionRateLimit({ name: 'api', limit: 10 }));
      rewriteWithRecomputedHashes(plain, (record, index) => {
        if (index === 2) record['toolId'] = 'harmless';
      });
      expect(InvocationLedger.open({ sessionId: 's1', policy: relaxed, journalPath: plain }).records[1]?.toolId).toBe('harmless');
    });

    it('truncation with a forged checkpoint is detected with the key', async () => {
      const path = join(folder, 'ledger.jsonl');
      await keyedCalls(path, 3);
      const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
      writeFileSync(path, `${lines.slice(0, 2).join('\n')}\n`);
      const checkpoint = JSON.parse(readFileSync(`${path}.checkpoint`, 'utf8')) as Record<string, PythonJsonValue>;
      const head = (JSON.parse(lines[1]!) as { recordDigest: string }).recordDigest;
      writeFileSync(`${path}.checkpoint`, JSON.stringify({ ...checkpoint, records: 2, head }));
      expect(() => openKeyed(path)).toThrow(
        expect.objectContaining({ code: 'LEDGER_CORRUPTED', message: expect.stringMatching(/checkpoint/) }),
      );
    });

    it('a keyed journal opened without the key, or a plain one opened with a key, is a key mismatch; a wrong key is corruption', async () => {
      const keyed = join(folder, 'keyed.jsonl');
      await keyedCalls(keyed, 1);
      expect(() => InvocationLedger.open({ sessionId: 's1', policy: relaxed, journalPath: keyed })).toThrow(
        expect.objectContaining({ code: 'LEDGER_KEY_MISMATCH', message: expect.stringMatching(/hmacKey/) }),
      );
      expect(() => openKeyed(keyed, 'another key')).toThrow(expect.objectContaining({ code: 'LEDGER_CORRUPTED' }));
      const plain = join(folder, 'plain.jsonl');
      await runCalls(plain, 1, new SessionRateLimit({ name: 'api', limit: 10 }));
      expect(() => openKeyed(plain)).toThrow(expect.objectContaining({ code: 'LEDGER_KEY_MISMATCH' }));
    });

    it('an empty hmacKey is refused', () => {
      expect(() => openKeyed(join(folder, 'l.jsonl'), '')).toThrow(expect.objectContaining({ code: 'LEDGER_KEY_MISMATCH' }));
    });
  });

  const pythonAvailable = spawnSync('python3', ['--version']).status === 0;
  // Runs where python3 exists (the project's machines); proves a Python service can verify our journal.
  it.runIf(pythonAvailable)('Python verifies every receipt digest and the record chain from the JSONL', async () => {
    const path = join(folder, 'ledger.jsonl');
    const ledger = InvocationLedger.open({ sessionId: 'séance-😀', policy: relaxed, journalPath: path });
    const tool = cookieTool('session');
    for (const login of [['read'], ['read'], ['lecture-é', 'read']])
      await ledger.invoke(tool, { url: '/中文', login }).catch(() => undefined);
    ledger.close();
    const script = [
      'import hashlib, json, sys',
      'h = lambda o: hashlib.sha256(json.dumps(o, sort_keys=True).encode("utf-8")).hexdigest()',
      'prev = None; count = 0',
      'for line in open(sys.argv[1], encoding="utf-8"):',
      '    rec = json.loads(line); d = rec.pop("recordDigest")',
      '    assert rec["previousRecordDigest"] == prev and h(rec) == d, rec["type"]',
      '    prev = d',
      '    for name, receipt in rec.get("receipts", {}).items():',
      '        r = dict(receipt); rd = r.pop("digest"); assert h(r) == rd, name; count += 1',
      'print(count)',
    ].join('\n');
    expect(execFileSync('python3', ['-c', script, path], { encoding: 'utf8' }).trim()).toBe('12');
  });
});

describe('one writer per journal (lock file)', () => {
  let folder: string;
  let path: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'ledger-lock-'));
    path = join(folder, 'ledger.jsonl');
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));
  const open = () => InvocationLedger.open({ sessionId: 's1', policy: relaxed, journalPath: path, durability: 'os-buffered' });
  const echo = defineStatefulTool({ toolId: 'echo', invoke: (input: string) => input });

  it('a second open while the first is live is refused, naming the journal and the holder; the first keeps a resumable journal', async () => {
    const first = open();
    const lock = JSON.parse(readFileSync(`${path}.lock`, 'utf8')) as { pid: number; hostname: string };
    expect(lock).toMatchObject({ pid: process.pid, hostname: hostname() });
    let failure: unknown;
    try {
      open();
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(LedgerLockedError);
    expect(failure).toBeInstanceOf(LedgerJournalError);
    expect(failure).toMatchObject({
      code: 'LEDGER_LOCKED',
      path,
      lockPath: `${path}.lock`,
      holder: { pid: process.pid, hostname: hostname() },
    });
    expect((failure as Error).message).toContain(path);
    expect((failure as Error).message).toContain(`pid ${process.pid}`);
    await first.invoke(echo, 'a');
    first.close();
    expect(existsSync(`${path}.lock`)).toBe(false);
    const resumed = open();
    expect(resumed.records.map((record) => record.toolId)).toEqual(['echo']);
    resumed.close();
  });

  it('a lock left by a dead process on this host is taken over', () => {
    const dead = spawnSync(process.execPath, ['-e', '']);
    writeFileSync(`${path}.lock`, JSON.stringify({ pid: dead.pid, hostname: hostname() }));
    const ledger = open();
    expect(JSON.parse(readFileSync(`${path}.lock`, 'utf8'))).toMatchObject({ pid: process.pid });
    ledger.close();
  });

  it('a lock held by a live process, or by one on another host, is not taken over', () => {
    writeFileSync(`${path}.lock`, JSON.stringify({ pid: process.ppid, hostname: hostname() }));
    expect(open).toThrow(expect.objectContaining({ code: 'LEDGER_LOCKED', holder: { pid: process.ppid, hostname: hostname() } }));
    const dead = spawnSync(process.execPath, ['-e', '']);
    writeFileSync(`${path}.lock`, JSON.stringify({ pid: dead.pid, hostname: 'another-host.invalid' }));
    expect(open).toThrow(/another-host\.invalid/);
    expect(readFileSync(`${path}.lock`, 'utf8')).toContain('another-host.invalid');
  });

  it('an open that fails after taking the lock releases it', async () => {
    open().close();
    expect(() => InvocationLedger.open({ sessionId: 'other', policy: relaxed, journalPath: path })).toThrow(
      expect.objectContaining({ code: 'LEDGER_SESSION_MISMATCH' }),
    );
    expect(existsSync(`${path}.lock`)).toBe(false);
    open().close();
  });
});

describe('journal write failures', () => {
  // /dev/full fails every write with ENOSPC, as a full disk does; it cannot be truncated, so the writer
  // must also refuse further appends rather than bury a partial record mid-file.
  it.runIf(process.platform === 'linux')(
    'a full disk is a LEDGER_WRITE_FAILED error that says what to do, and later appends are refused',
    () => {
      const writer = new JournalWriter('/dev/full', 'os-buffered');
      const record = sealRecord({ type: 'probe' }, null);
      let failure: unknown;
      try {
        writer.append(record);
      } catch (error) {
        failure = error;
      }
      expect(failure).toBeInstanceOf(LedgerJournalError);
      expect(failure).toMatchObject({ code: 'LEDGER_WRITE_FAILED', path: '/dev/full' });
      expect((failure as Error).message).toMatch(/ENOSPC/);
      expect((failure as Error).message).toMatch(/Free space or fix permissions/);
      expect(() => writer.append(record)).toThrow(/open a new ledger on the same path to repair it/);
      writer.close();
    },
  );
});

describe('concurrent invocations', () => {
  it('calls sharing one session jar each get exactly their own delta', async () => {
    const ledger = InvocationLedger.open({ sessionId: 's', policy: relaxed });
    const jar = new CookieJarCarrier({ name: 'jar', scope: 'session' });
    const releases: (() => void)[] = [];
    const tool = defineStatefulTool({
      toolId: 'parallel',
      carriers: { jar },
      async invoke(name: string, state) {
        state.jar.set({ name: `${name}-before`, value: '1' });
        await new Promise<void>((resolve) => releases.push(resolve));
        state.jar.set({ name: `${name}-after`, value: '2' });
        return state.jar.list().length;
      },
    });
    const first = ledger.invoke(tool, 'a');
    const second = ledger.invoke(tool, 'b');
    await Promise.resolve();
    releases
      .splice(0)
      .reverse()
      .forEach((release) => release());
    const [a, b] = await Promise.all([first, second]);
    const credentials = (record: InvocationRecord) =>
      record.receipts.invocation_state_delta_signature.changes.map((change) => ('credential' in change ? change.credential : change.kind));
    expect(credentials(a.record)).toEqual(['a-before@/', 'a-after@/']);
    expect(credentials(b.record)).toEqual(['b-before@/', 'b-after@/']);
    expect(a.result + b.result).toBeGreaterThanOrEqual(7);
    expect(new Set([a.record.sequence, b.record.sequence])).toEqual(new Set([1, 2]));
  });
});
