// The harness's own tool contract. It has no maxResultSizeChars and no stateScope:
// a member written into a tool typed with it does not compile (TS2353).
export interface ToolContext {
  readonly sessionId: string;
  readonly cwd: string;
}

export interface Tool<Input> {
  readonly name: string;
  readonly description: string;
  execute(input: Input, context: ToolContext): Promise<string>;
}
