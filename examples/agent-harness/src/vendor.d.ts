// Just enough of the MCP SDK's and zod's surface for this example to
// type-check without an install. The real packages have the same shapes.
declare module '@modelcontextprotocol/sdk/server/mcp.js' {
  export interface CallToolResult {
    content: Array<{ type: 'text'; text: string }>;
    isError?: boolean;
  }
  export class McpServer {
    constructor(info: { name: string; version: string });
    registerTool<Args>(
      name: string,
      config: { title?: string; description?: string; inputSchema?: Record<string, unknown>; _meta?: Record<string, unknown> },
      handler: (args: Args) => Promise<CallToolResult>,
    ): void;
    connect(transport: unknown): Promise<void>;
  }
}

declare module 'zod' {
  interface ZodString {
    describe(description: string): ZodString;
  }
  export const z: { string(): ZodString };
}
