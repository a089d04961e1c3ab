/**
 * A server that speaks JSON-RPC itself, with no MCP SDK: its definitions in a registry keyed by
 * each tool's own name (what its `tools/list` method answers with), and a `tools/call` method
 * that hands `params` to a method switching on `params.name`. Both rule tests build one.
 */
export function jsonRpcServer(tool: {
  /** What the module starts with: imports, module state. */
  prelude: string;
  name: string;
  /** The definition's description and input schema, written after its name (`description: '…', inputSchema: {…}`). */
  contract: string;
  /** The tool's branch of the `switch`. */
  body: string;
}): string {
  return `${tool.prelude}
class JsonRpcServer {
  constructor() {
    this.tools = {
      ${tool.name}: { name: '${tool.name}', ${tool.contract} },
    };
  }
  async handleToolsCall(params) {
    const { name, arguments: args = {} } = params;
    switch (name) {
      case '${tool.name}':
        ${tool.body}
      default:
        throw new Error('unknown tool');
    }
  }
  async handleRequest(request) {
    const { method, params } = request;
    switch (method) {
      case 'tools/list':
        return { tools: Object.values(this.tools) };
      case 'tools/call':
        return this.handleToolsCall(params);
    }
  }
}
`;
}
