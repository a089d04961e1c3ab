import { defineTool, UNBOUNDED } from 'tool-result-guard';

// Correct: a URL reader is self-bounding, so it opts out of persistence.
export const webFetchTool = defineTool({
  name: 'web_fetch',
  reads: 'url',
  maxResultSizeChars: UNBOUNDED,
  async call(input: { readonly url: string }): Promise<string> {
    const response = await fetch(input.url);
    return response.text();
  },
});
