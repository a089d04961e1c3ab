/**
 * The MCP client side (`@modelcontextprotocol/sdk`): a guard around
 * `Client.callTool` that budgets each result where it enters the harness,
 * keyed by the id of the model's tool call.
 *
 * ```ts
 * const guard = guardMcpToolResults({ store, tools: [{ name: 'read_text_file', maxResultSizeChars: UNBOUNDED }, …], querySource });
 * const result = await guard.callTool(client, { name: call.name, arguments: call.input }, { callId: call.id });
 * ```
 *
 * A result whose text is over its tool's threshold (or over
 * `perMessageLimit`) is persisted and its `content` replaced with one text
 * part, the `<persisted-output>` preview; calling again with the same call
 * id (a retry) gets the byte-identical replacement, persisted once. The
 * guard is a session like the other integrations: `state`, `fork()`, and
 * `state` on resume.
 *
 * `@modelcontextprotocol/sdk` is an optional peer: this module imports its types only.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

import { describeValue } from '../errors.js';
import type { ReplacementState } from '../replacement-state.js';
import { ToolResultBudgetSession, type BudgetForkOptions, type ToolResultBudgetSessionOptions } from './session.js';

export type McpToolResultGuardOptions = ToolResultBudgetSessionOptions;

type CallToolParameters = Parameters<Client['callTool']>;
export type McpCallToolParams = CallToolParameters[0];
export type McpCallToolResult = Awaited<ReturnType<Client['callTool']>>;

/** The call a result answers: the id the model gave its tool call, and the tool's name. */
export interface McpToolCall {
  readonly callId: string;
  readonly toolName: string;
}

export interface McpToolResultGuard {
  /** Every decision so far (read-only views). */
  readonly state: ReplacementState;
  /**
   * `client.callTool(params, resultSchema, options)`, its result budgeted
   * under `call.callId`. The tool's name is `params.name`.
   */
  callTool(
    client: Pick<Client, 'callTool'>,
    params: McpCallToolParams,
    call: { readonly callId: string },
    resultSchema?: CallToolParameters[1],
    options?: CallToolParameters[2],
  ): Promise<McpCallToolResult>;
  /** Budgets a result obtained some other way (another client, a cached result). */
  budgetResult<Result extends object>(result: Result, call: McpToolCall): Promise<Result>;
  /** A guard for a fork or subagent: a clone of this state, with `overrides` applied. */
  fork(overrides?: BudgetForkOptions): McpToolResultGuard;
}

/** MCP content types that are not text: never persisted, and not reported. */
const NON_TEXT_CONTENT: ReadonlySet<unknown> = new Set(['image', 'audio', 'resource', 'resource_link']);

/**
 * A guard for MCP tool results. `tools` lists the server's tools by name
 * (`{ name, maxResultSizeChars }`; `UNBOUNDED` for tools that read a path,
 * URL or resource the model names, such as a filesystem server's
 * `read_text_file`). A tool missing from `tools` stays inline and is
 * reported once; so is a content part of a type MCP does not define.
 */
export function guardMcpToolResults(options: McpToolResultGuardOptions): McpToolResultGuard {
  return guardFor(new ToolResultBudgetSession('mcp-client', options));
}

function guardFor(session: ToolResultBudgetSession): McpToolResultGuard {
  const budgetResult = async <Result extends object>(result: Result, call: McpToolCall): Promise<Result> => {
    checkCall(call, 'budgetResult(result, { callId, toolName })');
    if (typeof call.toolName !== 'string' || call.toolName === '') {
      throw new TypeError(
        `budgetResult(result, { callId, toolName }): toolName must be the MCP tool's name, got ${describeValue(call.toolName)}.`,
      );
    }
    const content = typeof result === 'object' && result !== null ? (result as { content?: unknown }).content : undefined;
    if (!Array.isArray(content)) {
      // A legacy `{ toolResult }` (protocol 2024-10-07) or something else: not ours to change.
      session.report({
        reason: 'unknown-output-type',
        type: 'no content array',
        toolCallId: call.callId,
        toolName: call.toolName,
        part: result,
      });
      return result;
    }
    const text = textOfContent(session, content, call);
    if (text === undefined) return result;
    const decided = session.budgetMessage([{ toolUseId: call.callId, toolName: call.toolName, content: text, part: result, type: 'text' }]);
    const [replacement] = Array.isArray(decided) ? decided : await decided;
    if (replacement === undefined) return result;
    // structuredContent is the same data as the text (the spec asks servers to send both): it goes with it.
    const { structuredContent: _dropped, ...rest } = result as Result & { structuredContent?: unknown };
    return { ...rest, content: [{ type: 'text', text: replacement }] } as unknown as Result;
  };
  return Object.freeze({
    get state() {
      return session.state;
    },
    callTool: async (
      client: Pick<Client, 'callTool'>,
      params: McpCallToolParams,
      call: { readonly callId: string },
      resultSchema?: CallToolParameters[1],
      options?: CallToolParameters[2],
    ) => {
      checkCall(call, 'callTool(client, params, { callId })');
      const result = await client.callTool(params, resultSchema, options);
      return budgetResult(result, { callId: call.callId, toolName: params.name });
    },
    budgetResult,
    fork: (overrides?: BudgetForkOptions) => guardFor(new ToolResultBudgetSession('mcp-client', session.forkOptions(overrides))),
  });
}

function checkCall(call: { readonly callId?: unknown } | undefined, signature: string): void {
  const callId = call?.callId;
  if (typeof callId !== 'string' || callId === '') {
    throw new TypeError(
      `${signature}: callId must be the id of the model's tool call (e.g. "toolu_01…", "call_…"), got ${describeValue(callId)}. ` +
        `A result's fate is frozen under it, so a retry of the same call gets the same replacement.`,
    );
  }
}

/** The text parts joined with newlines; undefined when any part is not text (never persisted) or unknown (reported). */
function textOfContent(session: ToolResultBudgetSession, content: readonly unknown[], call: McpToolCall): string | undefined {
  const texts: string[] = [];
  for (const part of content) {
    const candidate = part as { type?: unknown; text?: unknown } | null;
    const type = candidate?.type;
    if (type === 'text' && typeof candidate?.text === 'string') {
      texts.push(candidate.text);
      continue;
    }
    if (!NON_TEXT_CONTENT.has(type)) {
      session.report({ reason: 'unknown-part-type', type: String(type), toolCallId: call.callId, toolName: call.toolName, part });
    }
    return undefined;
  }
  return texts.join('\n');
}
