import { applyToolResultBudget, type ToolResultBlock } from '../persistence/budget.js';
import type { Tool, ToolContext } from '../tools/tool.js';
import { spawnResearchAgent, type AgentSession } from './fork.js';

export interface ToolCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
}

export interface ModelTurn {
  text: string;
  toolCalls: ToolCall[];
}

export type CallModel = (session: AgentSession) => Promise<ModelTurn>;

const PER_MESSAGE_LIMIT = 200_000;

/** One agent turn: run the model's tool calls, keep the results in budget. */
export async function runTurn(
  session: AgentSession,
  callModel: CallModel,
  tools: ReadonlyMap<string, Tool>,
  projectDir: string,
): Promise<boolean> {
  const turn = await callModel(session);
  session.transcript.push({ type: 'text', role: 'assistant', text: turn.text });
  if (turn.toolCalls.length === 0) return false;

  const context: ToolContext = { sessionId: session.id, cwd: projectDir };
  const blocks: ToolResultBlock[] = await Promise.all(
    turn.toolCalls.filter((call) => call.name !== 'delegate').map(async (call) => {
      const tool = tools.get(call.name);
      if (!tool) return { toolUseId: call.id, toolName: call.name, content: `Unknown tool: ${call.name}` };
      const result = await tool.call(call.input, context);
      return { toolUseId: call.id, toolName: call.name, content: result.content };
    }),
  );

  const budgeted = await applyToolResultBudget(blocks, session.state, {
    projectDir,
    sessionId: session.id,
    querySource: session.querySource,
    tools,
    perMessageLimit: PER_MESSAGE_LIMIT,
    recordReplacement: (record) => session.transcript.push({ type: 'replacement', record }),
  });
  for (const block of budgeted) {
    session.transcript.push({ type: 'tool_result', toolUseId: block.toolUseId, content: block.content });
  }

  const delegate = turn.toolCalls.find((call) => call.name === 'delegate');
  if (delegate) {
    const child = spawnResearchAgent(session, String(delegate.input['task'] ?? ''));
    await runTurn(child, callModel, tools, projectDir);
  }
  return true;
}
