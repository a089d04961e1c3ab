// The name a tool has for the model, spelled through constants the code
// decides: tsc's compiled enums, constants of other modules (named and
// namespace imports), and definition helpers that hand back the object they
// are given. A dispatcher's `case` joins the tool of that name only when the
// constant really holds it, and a message must show the value.
import type { TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';

import { findToolDefinitions } from '../../src/recognition/index.js';
import { contractSaysItReads, toolContract } from '../../src/recognition/tool-contract.js';
import { resolveToolName } from '../../src/recognition/tool-name.js';
import { settings, snippet } from './input-flow/snippets.js';

/** The name `expression` resolves to, written as the last statement of `code`. */
function nameOf(code: string, expression: string): string | undefined {
  const { node } = snippet(`${code}\nconsole.log(${expression});`);
  return resolveToolName(node<TSESTree.Expression>(expression));
}

describe('tool names spelled through constants', () => {
  it("reads tsc's compiled enums, string and numeric members", () => {
    const compiled = `var ToolName;
(function (ToolName) {
    ToolName["BrowserNavigate"] = "browser_navigate";
    ToolName[ToolName["Count"] = 0] = "Count";
})(ToolName || (ToolName = {}));`;
    expect(nameOf(compiled, 'ToolName.BrowserNavigate')).toBe('browser_navigate');
    expect(nameOf(compiled, 'ToolName.Count')).toBeUndefined();
    expect(nameOf(compiled, 'ToolName.Missing')).toBeUndefined();
  });

  it('follows named and namespace imports into relative modules, through definition helpers', () => {
    expect(nameOf(`import { HELPER_TOOLS } from './tool-definitions.js';`, 'HELPER_TOOLS.DOCS_FETCH')).toBe('fetch-docs');
    expect(nameOf(`import * as tools from './tool-definitions.js';`, 'tools.PdfToMarkdownTool.name')).toBe('pdf-to-markdown');
    expect(nameOf(`import { StatusTool } from './tool-definitions.js';`, 'StatusTool.name')).toBe('server-status');
  });

  it("reads a class's static members, tsc's alias of a decorated class, and CommonJS requires", () => {
    const decorated = `var FileContentFunction_1;
const tool_ids_1 = require("./tool-ids");
let FileContentFunction = class FileContentFunction {
    static { FileContentFunction_1 = this; }
    static { this.ID = tool_ids_1.FILE_CONTENT_FUNCTION_ID; }
    getTool() { return { name: FileContentFunction_1.ID }; }
};`;
    expect(nameOf(decorated, 'FileContentFunction_1.ID')).toBe('getFileContent');
    expect(nameOf(`class Names { static READ = 'read_file'; }`, 'Names.READ')).toBe('read_file');
  });

  it('leaves type-only imports, packages and missing modules unresolved', () => {
    expect(nameOf(`import type { HELPER_TOOLS } from './tool-definitions.js';`, 'HELPER_TOOLS.DOCS_FETCH')).toBeUndefined();
    expect(nameOf(`import { HELPER_TOOLS } from 'some-package';`, 'HELPER_TOOLS.DOCS_FETCH')).toBeUndefined();
    expect(nameOf(`import { HELPER_TOOLS } from './missing.js';`, 'HELPER_TOOLS.DOCS_FETCH')).toBeUndefined();
  });
});

describe("a dispatcher's case names the definition object of another module", () => {
  const server = `import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import * as tools from './tool-definitions.js';
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name, arguments: args } = request.params;
  switch (name) {
    case tools.PdfToMarkdownTool.name:
      return { content: [{ type: 'text', text: await Markdownify.toMarkdown({ filePath: args.filepath }) }] };
    case tools.StatusTool.name:
      return { content: [{ type: 'text', text: 'up' }] };
  }
});`;

  it('names each case by the value and reads its contract from that object', () => {
    const { file } = snippet(server);
    const definitions = findToolDefinitions(file.program, settings);
    expect(definitions.map((definition) => definition.name)).toEqual(['pdf-to-markdown', 'server-status']);
    const [pdf, status] = definitions.map((definition) => toolContract(definition));
    expect(pdf).toMatchObject({ description: 'Convert a PDF file to markdown', inputs: [{ name: 'filepath' }] });
    expect(contractSaysItReads(pdf!)?.evidence).toBe(
      'its description says it hands back what is at `filepath` ("Convert a PDF file to markdown")',
    );
    expect(contractSaysItReads(status!)).toBeUndefined();
  });
});
