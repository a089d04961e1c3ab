// Demo part 5: seed 003, tool side-state leakage. The example agent's browser_session
// tool (examples/agent-harness/src/tools/browser-session.ts) keeps cookies, a page cache
// and a request counter at module level. Here it runs through the invocation ledger,
// against an in-process web app (no network), with its state in scoped carriers:
// four calls under a session-shared jar and four under an isolated one, a login whose
// scope escalates, a stale cache hit, and a session budget running out. Each call's four
// receipts go to an append-only JSONL journal, which is then reloaded as on resume.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Linter } from 'eslint';
import * as typescriptParser from '@typescript-eslint/parser';
import {
  CacheCarrier,
  CookieJarCarrier,
  InvocationLedger,
  InvocationRefusedError,
  SessionRateLimit,
  defineStatefulTool,
  evaluateInvocation,
} from '../../dist/index.js';
import plugin from '../../dist/eslint-plugin.js';

export const title = 'State leakage (seed 003): receipts for a stateful browser tool, and the lint rule that asks for its stateScope';

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const short = (hash) => (hash === null ? 'null' : `${hash.slice(0, 12)}…`);

/** A tiny web app: `/login` sets a session cookie, `/admin/elevate` widens its scope, `/price` changes over time. */
function createWebApp() {
  let price = 100;
  return {
    setPrice: (value) => (price = value),
    request(url, cookieHeader) {
      if (url === '/login') return { body: 'welcome', setCookie: { name: 'sid', value: 'u1', scopes: ['read'] } };
      if (url === '/admin/elevate') return { body: 'elevated', setCookie: { name: 'sid', value: 'u1-admin', scopes: ['admin', 'read'] } };
      if (url === '/price') return { body: `price=${price}` };
      return { body: `page ${url} seen with cookies [${cookieHeader}]` };
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

function printCall(label, record) {
  const scope = record.receipts.tool_state_scope_receipt;
  const delta = record.receipts.invocation_state_delta_signature;
  const policy = record.receipts.invocation_isolation_policy_receipt;
  const leak = record.receipts.state_leakage_detection_signature;
  console.log(`  ${label}  [${record.outcome}] ${leak.verdict} via gate "${leak.gate}"`);
  console.log(`      directive: ${leak.directive}`);
  console.log(`      scope: ${scope.effectiveStateScope} (${scope.isolationPolicy}), carriers: ${scope.carriers.map((c) => `${c.carrier}=${c.instance}`).join(', ')}`);
  console.log(`      delta: ${delta.changes.map((change) => change.kind + (change.credential ? ` ${change.credential} [${change.scopes}]` : change.key ? ` ${change.key}` : change.counter ? ` ${change.counter}=${change.value}` : '')).join('; ') || 'none'} → state_delta_hash ${short(delta.stateDeltaHash)}`);
  console.log(`      prior deltas: ${leak.priorStateDeltas.count}, manifest ${short(leak.manifestDigest)}`);
  if (policy.sessionLimit) {
    const budget = policy.sessionLimit;
    console.log(`      session budget before the call: ${budget.usedBefore}/${budget.limit} used (${(budget.usageRatioBefore * 100).toFixed(0)}%), after it: ${(budget.usageRatioAfter * 100).toFixed(0)}%`);
  }
  for (const widening of leak.authScopeWidenings) console.log(`      auth scope widened: ${widening.credential} [${widening.from}] → [${widening.to}]`);
  for (const stale of leak.staleCacheReturns) console.log(`      STALE cache return: ${stale.key} (${stale.reason}, ${stale.handling})`);
}

async function call(ledger, tool, input, label) {
  try {
    const { result, record } = await ledger.invoke(tool, input);
    printCall(`${label} → ${JSON.stringify(result)}`, record);
  } catch (error) {
    if (!(error instanceof InvocationRefusedError)) throw error;
    printCall(`${label} → refused`, error.record);
  }
}

export async function run() {
  const folder = mkdtempSync(path.join(tmpdir(), 'trg-state-leakage-'));
  try {
    // 1. The lint rule on the example agent's tool.
    const examplePath = path.join(repositoryRoot, 'examples/agent-harness/src/tools/browser-session.ts');
    const messages = new Linter().verify(
      readFileSync(examplePath, 'utf8'),
      [{ files: ['**/*.ts'], languageOptions: { parser: typescriptParser }, plugins: { 'tool-result-guard': plugin }, rules: { 'tool-result-guard/declare-tool-state-scope': 'error' } }],
      { filename: examplePath },
    );
    console.log(`declare-tool-state-scope on ${path.relative(repositoryRoot, examplePath)}: ${messages.length} finding(s)`);
    for (const message of messages) console.log(`  ${message.line}:${message.column} ${message.message.split('. Call N')[0]}`);

    // 2. The seed's own gates, byte-identical to its Python reference.
    const manifest = evaluateInvocation(
      { invocationId: 'inv-中文-😀', toolId: 'browser_session', hasSessionState: true, stateDeltaHash: null, sessionUsageRatio: 1 / 3, resultHash: 'r' },
      { priorStateDeltas: [], isolationPolicy: 'SESSION_SHARED' },
      { requireIsolationForCritical: false, maxSessionUsageRatio: 0.9 },
    );
    console.log(`\nevaluateInvocation (same digest as the seed's Python): ${manifest.verdict}, "${manifest.directive}", ${short(manifest.manifestDigest)}`);

    const policy = { requireIsolationForCritical: false, maxSessionUsageRatio: 1 };

    // 3. Session-shared jar, four calls: call 2 inherits call 1's cookie, call 3 escalates it,
    //    call 4 is refused because the scope widened since the previous call.
    console.log('\nbrowser_session with a SESSION-scoped cookie jar, 4 calls:');
    const journalPath = path.join(folder, 'session-1.ledger.jsonl');
    const app = createWebApp();
    const sessionLedger = InvocationLedger.open({ sessionId: 'session-1', policy, journalPath });
    const sessionTool = browserTool(app, { scope: 'session' });
    await call(sessionLedger, sessionTool, { url: '/login' }, 'call 1 /login');
    await call(sessionLedger, sessionTool, { url: '/inbox' }, 'call 2 /inbox');
    await call(sessionLedger, sessionTool, { url: '/admin/elevate' }, 'call 3 /admin/elevate');
    await call(sessionLedger, sessionTool, { url: '/inbox' }, 'call 4 /inbox');
    sessionLedger.close();

    // 4. The same four calls with an isolated jar: no call sees another's cookies.
    console.log('\nbrowser_session with an ISOLATED cookie jar, the same 4 calls:');
    const isolatedLedger = InvocationLedger.open({ sessionId: 'session-2', policy });
    const isolatedTool = browserTool(createWebApp(), { scope: 'isolated' });
    for (const [index, url] of ['/login', '/inbox', '/admin/elevate', '/inbox'].entries()) {
      await call(isolatedLedger, isolatedTool, { url }, `call ${index + 1} ${url}`);
    }

    // 5. A session cache: the price changes underneath, the cached page is returned and marked stale.
    console.log('\nbrowser_session with a session page cache, after the price changed:');
    const cacheApp = createWebApp();
    const pageCache = new CacheCarrier({ name: 'page-cache', scope: 'session', ttlMs: 5 * 60_000 });
    const cachedTool = browserTool(cacheApp, { scope: 'session', cache: pageCache });
    const cacheLedger = InvocationLedger.open({ sessionId: 'session-3', policy });
    await call(cacheLedger, cachedTool, { url: '/price' }, 'call 1 /price');
    cacheApp.setPrice(120);
    pageCache.noteUnderlyingChange('/price');
    await call(cacheLedger, cachedTool, { url: '/price' }, 'call 2 /price');

    // 6. A per-session budget of 4 requests: usage is reported before every call and the call
    //    that would exhaust it is refused instead of failing at the server.
    console.log('\nbrowser_session with a session budget of 4 requests (maxSessionUsageRatio 1.0):');
    const limit = new SessionRateLimit({ name: 'app.example requests', limit: 4 });
    const limitedTool = browserTool(createWebApp(), { scope: 'isolated', limit });
    const limitLedger = InvocationLedger.open({ sessionId: 'session-4', policy });
    for (let index = 1; index <= 4; index += 1) {
      const report = limitLedger.sessionLimitReport(limitedTool);
      console.log(`  before call ${index}: ${report.usedBefore}/${report.limit} used; after it ${(report.usageRatioAfter * 100).toFixed(0)}%`);
      await call(limitLedger, limitedTool, { url: `/page/${index}` }, `call ${index}`);
    }

    // 7. Resume: the journal holds one sealed line per record; a new process reloads it.
    const lines = readFileSync(journalPath, 'utf8').trimEnd().split('\n');
    console.log(`\njournal ${path.basename(journalPath)}: ${lines.length} lines (${lines.map((line) => JSON.parse(line).type).join(', ')})`);
    const firstInvocation = JSON.parse(lines[1]);
    console.log('the four receipts of call 1, as written:');
    console.log(JSON.stringify(firstInvocation.receipts, null, 2).split('\n').map((line) => `    ${line}`).join('\n'));
    const resumed = InvocationLedger.open({ sessionId: 'session-1', policy, journalPath });
    console.log(`resumed: ${resumed.resumeReport.invocationsLoaded} invocations reloaded, broken last line: ${resumed.resumeReport.brokenLastLine === null ? 'none' : resumed.resumeReport.brokenLastLine.reason}`);
    resumed.close();
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
