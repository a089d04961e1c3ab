// A scripted AI SDK model for the loop tests: the AI SDK's own
// MockLanguageModelV4 (ai/test), answering each step from a script that
// sees the prompt the middleware produced. No network, no timing.
import { MockLanguageModelV4 } from 'ai/test';

export type GenerateResult = Exclude<Awaited<ReturnType<MockLanguageModelV4['doGenerate']>>, undefined>;
export type CallOptions = MockLanguageModelV4['doGenerateCalls'][number];
export type PromptMessage = CallOptions['prompt'][number];

const USAGE = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** A step whose answer is one tool call. */
export function toolCallStep(toolCallId: string, toolName: string, input: unknown): GenerateResult {
  return {
    content: [{ type: 'tool-call', toolCallId, toolName, input: JSON.stringify(input) }],
    finishReason: { unified: 'tool-calls', raw: undefined },
    usage: USAGE,
    warnings: [],
  };
}

/** A step that ends the loop with text. */
export function textStep(text: string): GenerateResult {
  return { content: [{ type: 'text', text }], finishReason: { unified: 'stop', raw: undefined }, usage: USAGE, warnings: [] };
}

/**
 * A model that answers step `n` (counted across every call made to it) with
 * `script(prompt, n)`, and keeps each prompt it was sent.
 */
export function scriptedModel(script: (prompt: CallOptions['prompt'], step: number) => GenerateResult): {
  model: MockLanguageModelV4;
  prompts: Array<CallOptions['prompt']>;
} {
  const prompts: Array<CallOptions['prompt']> = [];
  const model = new MockLanguageModelV4({
    doGenerate: async (options) => {
      prompts.push(options.prompt);
      return script(options.prompt, prompts.length);
    },
  });
  return { model, prompts };
}

/** The tool messages of a prompt, as the bytes a provider would serialise. */
export function toolMessagesOf(prompt: CallOptions['prompt']): string {
  return JSON.stringify(prompt.filter((message) => message.role === 'tool'));
}

/** The text the model was shown for the tool result `toolCallId` (text outputs only). */
export function shownResult(prompt: CallOptions['prompt'], toolCallId: string): string | undefined {
  for (const message of prompt) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type === 'tool-result' && part.toolCallId === toolCallId && part.output.type === 'text') return part.output.value;
    }
  }
  return undefined;
}

/** The path a `<persisted-output>` replacement names. */
export function persistedPathIn(replacement: string | undefined): string | undefined {
  return replacement === undefined ? undefined : /Full output saved to: (.+)$/mu.exec(replacement)?.[1];
}
