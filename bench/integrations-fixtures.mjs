// What both integration benches drive: a store in memory and the AI SDK's
// own mock model calling `bash` on every step but the last, so their figures
// measure the same loop (integrations.bench.mjs, integrations-replay.mjs).
import { MockLanguageModelV4 } from 'ai/test';

import { previewOf } from '../dist/index.js';

export const USAGE = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** A store in memory: the figures measure the integration, not the disk. */
export function memoryStore() {
  return {
    async persist(toolUseId, content) {
      return { path: `/memory/tool-results/${toolUseId}.txt`, size: content.length, preview: previewOf(content) };
    },
  };
}

/** A mock model that calls `bash` on every step but the last of each `steps`. */
export function aiSdkModel(steps) {
  let step = 0;
  return new MockLanguageModelV4({
    doGenerate: async () => {
      step += 1;
      if (step % steps === 0)
        return { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: undefined }, usage: USAGE, warnings: [] };
      return {
        content: [{ type: 'tool-call', toolCallId: `call_${step}`, toolName: 'bash', input: '{"command":"ls"}' }],
        finishReason: { unified: 'tool-calls', raw: undefined },
        usage: USAGE,
        warnings: [],
      };
    },
  });
}
