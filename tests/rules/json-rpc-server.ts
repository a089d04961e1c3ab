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

/**
 * A JSON-RPC server written with module functions, as a CLI ships one beside its binary: the
 * definitions an array that `getTools()` returns, a message loop routing by `message.method` (a
 * `switch`, or `if (message.method === 'tools/call')`), and a handler that takes the whole message,
 * reads the name from a local holding its params (`const params = message.params || {}`), branches
 * with `if (toolName === …)` and answers through `writeResponse(id, result)`. Both rule tests build one.
 */
export function jsonRpcMessageServer(tool: {
  prelude: string;
  name: string;
  contract: string;
  body: string;
  route: 'switch' | 'if';
}): string {
  const routing =
    tool.route === 'switch'
      ? `switch (message.method) {
    case 'tools/list':
      writeResponse(message.id, { tools: getTools() });
      return;
    case 'tools/call':
      await handleToolCall(message);
      return;
  }`
      : `if (message.method === 'tools/list') {
    writeResponse(message.id, { tools: getTools() });
  } else if (message.method === 'tools/call') {
    await handleToolCall(message);
  }`;
  return `${tool.prelude}
const TOOL_NAME = '${tool.name}';
function getTools() {
  return [
    { name: TOOL_NAME, ${tool.contract} },
  ];
}
function writeResponse(id, result) {
  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id, result }) + '\\n');
}
async function handleToolCall(message) {
  const id = message.id;
  const params = message.params || {};
  const toolName = params.name || '<missing>';
  const args = params.arguments || {};
  if (toolName === TOOL_NAME) {
    ${tool.body}
  }
  writeResponse(id, { content: [{ type: 'text', text: 'Unknown tool' }], isError: true });
}
export async function handleMessage(message) {
  ${routing}
}
`;
}
