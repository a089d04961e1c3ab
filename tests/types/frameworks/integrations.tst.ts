// Each integration against its framework's real types: what it returns is
// what the framework's extension point takes. Run on the installed
// TypeScript only (tstyche.frameworks.config.json): the frameworks'
// declarations cost 5-15 s of CPU per TypeScript version, and what is
// checked here is the pairing, not the compiler.
import type { Agent, CallModelInputFilter, Model, RunConfig } from '@openai/agents';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { wrapLanguageModel, type LanguageModelMiddleware } from 'ai';
import type { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, test } from 'tstyche';
import { cloneReplacementState, createReplacementState, type ToolResultStore } from '../../../src/index.js';
import { toolResultBudget, type ToolResultBudgetMiddleware } from '../../../src/runtime/integrations/ai-sdk.js';
import { guardMcpToolResults, type McpCallToolResult } from '../../../src/runtime/integrations/mcp-client.js';
import { toolResultBudgetFilter, type ToolResultBudgetInputFilter } from '../../../src/runtime/integrations/openai-agents.js';

declare const store: ToolResultStore;
declare const model: MockLanguageModelV4;
declare const agent: Agent;
declare const client: Client;
declare const agentModel: Model;
const options = { store, tools: [{ name: 'bash', maxResultSizeChars: 30_000 }], querySource: 'repl_main_thread' };

describe('ai: toolResultBudget', () => {
  test('is a LanguageModelMiddleware that wrapLanguageModel takes', () => {
    expect(toolResultBudget(options)).type.toBe<ToolResultBudgetMiddleware>();
    expect<ToolResultBudgetMiddleware>().type.toBeAssignableTo<LanguageModelMiddleware>();
    expect(wrapLanguageModel).type.toBeCallableWith({ model, middleware: toolResultBudget(options) });
    expect(wrapLanguageModel).type.toBeCallableWith({ model, middleware: [toolResultBudget(options), toolResultBudget(options).fork()] });
  });

  test('starts only from a snapshot (a clone or a reconstruction), never from live state', () => {
    expect(toolResultBudget).type.toBeCallableWith({ ...options, state: cloneReplacementState(createReplacementState()) });
    expect(toolResultBudget).type.not.toBeCallableWith({ ...options, state: createReplacementState() });
  });
});

describe('@openai/agents: toolResultBudgetFilter', () => {
  test("is a CallModelInputFilter that RunConfig's callModelInputFilter takes", () => {
    expect(toolResultBudgetFilter(options)).type.toBe<ToolResultBudgetInputFilter>();
    expect<ToolResultBudgetInputFilter>().type.toBeAssignableTo<CallModelInputFilter>();
    expect<ToolResultBudgetInputFilter>().type.toBeAssignableTo<NonNullable<RunConfig['callModelInputFilter']>>();
    expect<ToolResultBudgetInputFilter>().type.toBeAssignableTo<CallModelInputFilter<{ userId: string }>>();
  });

  test('wraps a Model as a Model (the cheaper way in)', () => {
    expect(toolResultBudgetFilter(options).wrapModel(agentModel)).type.toBe<Model>();
    expect(toolResultBudgetFilter(options).wrapModel).type.not.toBeCallableWith('gpt-5');
  });

  test('is called with the SDK’s own filter arguments', () => {
    expect(toolResultBudgetFilter(options)).type.toBeCallableWith({ modelData: { input: [] }, agent: agent as never, context: undefined });
  });
});

describe('@modelcontextprotocol/sdk: guardMcpToolResults', () => {
  test("wraps a real Client's callTool and returns its result type", () => {
    const guard = guardMcpToolResults(options);
    expect(guard.callTool(client, { name: 'bash', arguments: {} }, { callId: 'call_1' })).type.toBe<Promise<McpCallToolResult>>();
    expect<McpCallToolResult>().type.toBe<Awaited<ReturnType<Client['callTool']>>>();
  });

  test('needs the call id', () => {
    expect(guardMcpToolResults(options).callTool).type.not.toBeCallableWith(client, { name: 'bash' });
  });
});
