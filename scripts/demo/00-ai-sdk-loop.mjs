// Scene 0, the runtime inside the agent loop people run: the AI SDK's
// generateText with tool-result-guard as its middleware, the loop of
// examples/integrations/ai-sdk.mjs (the AI SDK's own mock model, no network).
import { runExample } from '../../examples/integrations/ai-sdk.mjs';
import { point, sceneHeading, wayHeading } from './print.mjs';

export const name = 'the AI SDK loop';

export const plainWords =
  'Before the three problems, the one line a harness adds: wrapLanguageModel({ model, middleware: toolResultBudget({ store, tools, querySource }) }). ' +
  'A tool returns 200,000 characters; the next step of the loop shows the model a preview and the saved path; the model reads that path ' +
  'with its read tool and gets everything; a fork and a resume see the same bytes.';

export async function run() {
  sceneHeading('First: the runtime in the AI SDK loop', plainWords);
  wayHeading('Runtime', 'node examples/integrations/ai-sdk.mjs');
  return runExample((line) => point(line));
}
