// A browsing tool typed with the harness's own interface: it keeps cookies between calls.
import type { Tool } from '../types.js';

interface BrowseInput {
  url: string;
}

const cookies = new Map<string, string>();

export const browserTool: Tool<BrowseInput> = {
  name: 'browser',
  description: 'Open a web page with the session cookies',
  async execute({ url }) {
    const response = await fetch(url, { headers: { cookie: cookies.get(new URL(url).host) ?? '' } });
    const setCookie = response.headers.get('set-cookie');
    if (setCookie) cookies.set(new URL(url).host, setCookie);
    return response.text();
  },
};
