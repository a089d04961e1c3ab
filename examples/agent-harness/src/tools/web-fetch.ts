import { buildTool } from './tool.js';

interface WebFetchInput {
  url: string;
  prompt?: string;
}

const USER_AGENT = 'agent-harness/0.1 (+https://example.invalid/agent-harness)';

// DEFECT (circular persistence): fetches any URL the model chooses, so it can fetch its
// own persisted output back (file:// or a served session folder); it takes the
// factory's finite default instead of declaring itself self-bounding.
export const webFetchTool = buildTool<WebFetchInput>({
  name: 'web_fetch',
  description: 'Fetches a URL and returns its body as text.',
  inputSchema: {
    type: 'object',
    properties: { url: { type: 'string', format: 'uri' }, prompt: { type: 'string' } },
    required: ['url'],
  },
  async call(input, context) {
    const response = await fetch(input.url, {
      headers: { 'user-agent': USER_AGENT },
      ...(context.signal ? { signal: context.signal } : {}),
    });
    if (!response.ok) {
      return { content: `HTTP ${response.status} ${response.statusText}`, isError: true };
    }
    return { content: await response.text() };
  },
});
