import { buildTool } from './tool.js';

interface BrowseInput {
  url: string;
  method?: 'GET' | 'POST';
  body?: string;
}

// DEFECT (state leakage): state that outlives the call. The cookie jar and the page
// cache live at module level and every invocation mutates them, so call N runs
// with cookies (and auth scope) that call 1 set, and may get a stale page from
// the cache, yet the tool declares no stateScope.
const cookieJar = new Map<string, string>();
const pageCache = new Map<string, { body: string; fetchedAt: number }>();
let requestsThisSession = 0;

const SESSION_REQUEST_LIMIT = 50;
const CACHE_TTL_MS = 5 * 60_000;

function cookieHeaderFor(url: URL): string {
  return [...cookieJar.entries()]
    .filter(([key]) => key.startsWith(`${url.host};`))
    .map(([key, value]) => `${key.slice(url.host.length + 1)}=${value}`)
    .join('; ');
}

export const browserSessionTool = buildTool<BrowseInput>({
  name: 'browser_session',
  description: 'Browses a web app as a logged-in user, keeping cookies between calls.',
  inputSchema: {
    type: 'object',
    properties: { url: { type: 'string' }, method: { enum: ['GET', 'POST'] }, body: { type: 'string' } },
    required: ['url'],
  },
  // It fetches whatever URL the model names: self-bounding, never persisted.
  maxResultSizeChars: Number.POSITIVE_INFINITY,
  async call(input) {
    const url = new URL(input.url);
    const cached = pageCache.get(url.href);
    if (input.method !== 'POST' && cached && Date.now() - cached.fetchedAt < CACHE_TTL_MS) {
      return { content: cached.body };
    }
    requestsThisSession += 1;
    if (requestsThisSession > SESSION_REQUEST_LIMIT) {
      return { content: 'Rate limit reached for this session.', isError: true };
    }
    const response = await fetch(url, {
      method: input.method ?? 'GET',
      headers: { cookie: cookieHeaderFor(url) },
      ...(input.body === undefined ? {} : { body: input.body }),
    });
    for (const setCookie of response.headers.getSetCookie()) {
      const [pair = ''] = setCookie.split(';');
      const [name = '', value = ''] = pair.split('=');
      cookieJar.set(`${url.host};${name.trim()}`, value.trim());
    }
    const body = await response.text();
    pageCache.set(url.href, { body, fetchedAt: Date.now() });
    return { content: body };
  },
});
