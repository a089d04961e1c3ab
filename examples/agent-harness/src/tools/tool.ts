// The harness's tool contract. Every tool declares how large a result may get
// before the harness persists it to disk and shows the model a preview instead.
export interface ToolContext {
  readonly sessionId: string;
  readonly cwd: string;
  readonly signal?: AbortSignal;
}

export interface ToolResult {
  readonly content: string;
  readonly isError?: boolean;
}

export interface Tool<Input = Record<string, unknown>> {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  /** Results longer than this are persisted and replaced by a preview. */
  readonly maxResultSizeChars: number;
  call(input: Input, context: ToolContext): Promise<ToolResult>;
}

export interface ToolDefinition<Input> {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  maxResultSizeChars?: number;
  /** What state a call may leave for the next one; declared where a call changes state that outlives it. */
  stateScope?: 'isolated' | 'session' | 'agent';
  call(input: Input, context: ToolContext): Promise<ToolResult>;
}

export const DEFAULT_MAX_RESULT_SIZE_CHARS = 50_000;

/** Object-style tool factory, the shape most of our newer tools use. */
export function buildTool<Input>(definition: ToolDefinition<Input>): Tool<Input> {
  return {
    maxResultSizeChars: DEFAULT_MAX_RESULT_SIZE_CHARS,
    ...definition,
  };
}
