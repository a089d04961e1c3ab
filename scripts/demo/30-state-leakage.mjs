// Problem 3, state leakage: a tool whose state from earlier calls changes
// what a later call does. The example agent's browser_session tool
// (examples/agent-harness/src/tools/browser-session.ts) keeps cookies, a page
// cache and a request counter; here it runs through the invocation ledger
// against an in-process web app (no network).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import {
  CacheCarrier,
  CookieJarCarrier,
  InvocationLedger,
  InvocationRefusedError,
  SessionRateLimit,
  defineStatefulTool,
} from '../../dist/index.js';
import { printChecks } from './10-circular-persistence.mjs';
import { detail, point, problemHeading, wayHeading } from './print.mjs';

export const name = 'state leakage';

export const plainWords =
  'A tool that keeps state between calls (cookies, a cache, a request counter) behaves differently on call 4 ' +
  "than on call 1: call 1's login rides along, a cache returns a price that has since changed, a per-session " +
  "limit runs out. Each such tool declares its stateScope ('isolated', 'session' or 'agent'); the runtime then " +
  'gives isolated calls fresh state, and records four receipts per call so that drift is visible and refused.';

/** A tiny web app: `/login` sets a session cookie, `/admin/elevate` widens its scope, `/price` changes over time. */
function createWebApp() {
  let price = 100;
  return {
    setPrice: (value) => (price = value),
    request(url, cookieHeader) {
      if (url === '/login') return { body: 'welcome', setCookie: { name: 'sid', value: 'u1', scopes: ['read'] } };
      if (url === '/admin/elevate') return { body: 'elevated', setCookie: { name: 'sid', value: 'u1-admin', scopes: ['admin', 'read'] } };
      if (url === '/price') return { body: `price=${price}` };
      return { body: cookieHeader ? `${url} as ${cookieHeader}` : `${url} as a visitor` };
    },
  };
}

function browserTool(app, { scope, cache, limit }) {
  const jar = new CookieJarCarrier({ name: 'browser-cookies', scope });
  return defineStatefulTool({
    toolId: 'browser_session',
    stateScope: scope,
    carriers: cache ? { jar, cache } : { jar },
    sessionLimit: limit,
    async invoke(input, state) {
      const fetchPage = () => {
        const response = app.request(input.url, state.jar.cookieHeader('app.example'));
        if (response.setCookie) state.jar.set({ ...response.setCookie, domain: 'app.example' });
        return response.body;
      };
      return state.cache ? state.cache.getOrLoad(input.url, fetchPage) : fetchPage();
    },
  });
}

/**
 * The leakage receipt in plain words. The verdict names are the ones every
 * language's implementation shares (docs/state-leakage.md): a call that
 * passes every gate is named ISOLATED_INVOCATIONS even when its state is
 * shared, so the scope is printed beside it.
 */
function describeLeakage(record) {
  const leak = record.receipts.state_leakage_detection_signature;
  const scope = record.receipts.tool_state_scope_receipt.effectiveStateScope;
  const parts = [scope === 'isolated' ? 'fresh state for this call' : `state shared across the ${scope}`];
  if (scope !== 'isolated')
    parts.push(`${leak.priorStateDeltas.count} earlier state change${leak.priorStateDeltas.count === 1 ? '' : 's'}`);
  for (const widening of leak.authScopeWidenings) parts.push(`auth scope widened [${widening.from}] → [${widening.to}]`);
  for (const stale of leak.staleCacheReturns) parts.push(`STALE cache return for ${stale.key}, surfaced`);
  const verdict = {
    STATELESS_TOOL: 'stateless',
    ISOLATED_INVOCATIONS: 'passes every gate',
    STATE_LEAKAGE_DETECTED: 'leakage detected',
    SESSION_LIMIT_EXHAUSTED: 'session limit reached',
  }[leak.verdict];
  return `${parts.join('; ')}: ${verdict} (${leak.verdict})`;
}

/** Why the ledger refused a call, in plain words. */
function describeRefusal(record) {
  const leak = record.receipts.state_leakage_detection_signature;
  const budget = record.receipts.invocation_isolation_policy_receipt.sessionLimit;
  if (leak.verdict === 'SESSION_LIMIT_EXHAUSTED' && budget) {
    return `it would be request ${budget.usedBefore + 1} of ${budget.limit}, which reaches the policy's limit (${leak.verdict})`;
  }
  return `${leak.directive.replace(/^HALT: /, '')} (${leak.verdict})`;
}

async function call(ledger, tool, input, label) {
  try {
    const { result, record } = await ledger.invoke(tool, input);
    point(`${label} → "${result}": ${describeLeakage(record)}`);
    detail(JSON.stringify(record.receipts, null, 2));
    return record;
  } catch (error) {
    if (!(error instanceof InvocationRefusedError)) throw error;
    point(`${label} → refused before it ran: ${describeRefusal(error.record)}`);
    detail(JSON.stringify(error.record.receipts, null, 2));
    return error.record;
  }
}

export async function run(checks) {
  problemHeading(3, 'state leakage', plainWords);
  const counts = printChecks('leakage', checks);

  wayHeading('Runtime', 'the invocation ledger, four receipts per call');
  const folder = mkdtempSync(path.join(tmpdir(), 'trg-demo-leakage-'));
  try {
    const policy = { requireIsolationForCritical: false, maxSessionUsageRatio: 1 };

    point('With a cookie jar shared across the session:');
    const journalPath = path.join(folder, 'session-1.ledger.jsonl');
    const sessionLedger = InvocationLedger.open({ sessionId: 'session-1', policy, journalPath });
    const sessionTool = browserTool(createWebApp(), { scope: 'session' });
    for (const [index, url] of ['/login', '/inbox', '/admin/elevate', '/inbox'].entries()) {
      await call(sessionLedger, sessionTool, { url }, `  call ${index + 1} ${url}`);
    }
    sessionLedger.close();

    point("With an isolated jar, the same four calls: no call sees another's cookie:");
    const isolatedLedger = InvocationLedger.open({ sessionId: 'session-2', policy });
    const isolatedTool = browserTool(createWebApp(), { scope: 'isolated' });
    for (const [index, url] of ['/login', '/inbox', '/admin/elevate', '/inbox'].entries()) {
      await call(isolatedLedger, isolatedTool, { url }, `  call ${index + 1} ${url}`);
    }

    point('With a page cache shared across the session, after the price changed underneath:');
    const cacheApp = createWebApp();
    const pageCache = new CacheCarrier({ name: 'page-cache', scope: 'session', ttlMs: 5 * 60_000 });
    const cacheLedger = InvocationLedger.open({ sessionId: 'session-3', policy });
    const cachedTool = browserTool(cacheApp, { scope: 'session', cache: pageCache });
    await call(cacheLedger, cachedTool, { url: '/price' }, '  call 1 /price');
    cacheApp.setPrice(120);
    pageCache.noteUnderlyingChange('/price');
    await call(cacheLedger, cachedTool, { url: '/price' }, '  call 2 /price');

    point('With a session budget of 4 requests and maxSessionUsageRatio 1.0, usage reported before each call:');
    const limit = new SessionRateLimit({ name: 'app.example requests', limit: 4 });
    const limitLedger = InvocationLedger.open({ sessionId: 'session-4', policy });
    const limitedTool = browserTool(createWebApp(), { scope: 'isolated', limit });
    for (let index = 1; index <= 5; index += 1) {
      const report = limitLedger.sessionLimitReport(limitedTool);
      await call(
        limitLedger,
        limitedTool,
        { url: `/page/${index}` },
        `  call ${index} (${report.usedBefore} of ${report.limit} used so far)`,
      );
    }

    const lines = readFileSync(journalPath, 'utf8').trimEnd().split('\n');
    const resumed = InvocationLedger.open({ sessionId: 'session-1', policy, journalPath });
    point(
      `The first session's journal holds ${lines.length} lines; a new process reloads ${resumed.resumeReport.invocationsLoaded} calls ` +
        `from it (broken last line: ${resumed.resumeReport.brokenLastLine === null ? 'none' : resumed.resumeReport.brokenLastLine.reason}).`,
    );
    resumed.close();
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  return { ...counts, runtime: 'leak flagged and refused, stale cache surfaced, limit reported' };
}
