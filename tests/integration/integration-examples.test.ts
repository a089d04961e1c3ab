// The runnable examples of examples/integrations/ (README, docs/integrations/)
// run as a user would run them, against the built package: each one's loop
// really previews, reads back and keeps its decisions.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { beforeAll, describe, expect, it } from 'vitest';

import { ensureBuilt, repositoryRoot } from '../runtime/dist.js';

beforeAll(() => {
  ensureBuilt();
});

const load = async (name: string) =>
  (await import(pathToFileURL(path.join(repositoryRoot, 'examples', 'integrations', `${name}.mjs`)).href)) as {
    runExample(log: (line: string) => void): Promise<Record<string, unknown>>;
  };

describe('examples/integrations', () => {
  it('ai-sdk.mjs: the generateText loop previews, reads back, and a fork and a resume see the same bytes', async () => {
    const lines: string[] = [];
    expect(await (await load('ai-sdk')).runExample((line) => lines.push(line))).toEqual({ identical: true, persisted: ['call_bash'] });
    expect(lines).toHaveLength(4);
  });

  it('openai-agents.mjs: the run() loop through budget.wrapModel', async () => {
    expect(await (await load('openai-agents')).runExample(() => undefined)).toEqual({ previewed: true, readBack: true });
  });

  it('mcp-client.mjs: Client.callTool through the guard', async () => {
    expect(await (await load('mcp-client')).runExample(() => undefined)).toEqual({ readBack: true, retrySame: true });
  });

  it('sdk-types.mjs: MessageParam and ResponseInputItem in and out', async () => {
    const { anthropic, openai } = (await (await load('sdk-types')).runExample(() => undefined)) as {
      anthropic: { content: Array<{ content: string }> };
      openai: Array<{ output?: string }>;
    };
    expect(anthropic.content[0]!.content.startsWith('<persisted-output>')).toBe(true);
    expect(openai[2]!.output!.startsWith('<persisted-output>')).toBe(true);
  });
});
