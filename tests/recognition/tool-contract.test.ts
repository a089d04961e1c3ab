import type { TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';

import { contractSaysItReads, schemaFields, staticText, toolContract } from '../../src/recognition/tool-contract.js';
import { findToolDefinitions } from '../../src/recognition/tool-definitions.js';
import { snippet, settings } from './input-flow/snippets.js';

/** The contract of the one tool a snippet defines. */
function contractOf(code: string) {
  const { file } = snippet(code);
  const [definition] = findToolDefinitions(file.program, settings);
  if (!definition) throw new Error('no tool');
  return toolContract(definition);
}

describe('the tool contract', () => {
  it('reads name, description and the schema fields of a zod object, with .describe()', () => {
    const contract = contractOf(`export const read = tool({ name: 'read_file', description: 'Reads ' + 'a file.',
      inputSchema: z.object({ path: z.string().describe('The path of the file'), limit: z.number().optional() }), execute: async () => '' });`);
    expect(contract).toEqual({
      name: 'read_file',
      description: 'Reads a file.',
      statesDescription: true,
      inputs: [
        { name: 'path', description: 'The path of the file' },
        { name: 'limit', description: undefined, scalar: true },
      ],
      hasInputSchema: true,
    });
  });

  it('follows spreads, constants and nested contract objects (OpenAI function, schema: definition)', () => {
    const spread =
      contractOf(`const Definitions = { get_page: { description: 'Fetch a page', parameters: { type: 'object', properties: { url: { type: 'string', description: 'Page URL' } } } } };
      export const tools = { get_page: L({ ...Definitions.get_page, execute: async ({ url }) => url }) };`);
    expect(spread.description).toBe('Fetch a page');
    expect(spread.inputs).toEqual([{ name: 'url', description: 'Page URL' }]);
    const nested =
      contractOf(`const navigateSchema = { name: 'nav', description: 'Go to a URL', inputSchema: z.object({ url: z.string() }) };
      export const navigateTool = { capability: 'core', schema: navigateSchema, handle: async (context, params) => params.url };`);
    expect(nested).toMatchObject({ name: 'nav', description: 'Go to a URL', inputs: [{ name: 'url' }] });
  });

  it('spells texts from literals, templates and joined lines, and fields of JSON schema and raw shapes', () => {
    const { node } = snippet("const a = ['Reads', 'the file'].join(' ');\nconst b = `x ${1} y`;\nconst c = { path: z.string() };");
    expect(staticText(node<TSESTree.Expression>("['Reads', 'the file'].join(' ')"))).toBe('Reads the file');
    expect(staticText(node<TSESTree.Expression>('`x ${1} y`'))).toBe('x   y');
    expect(schemaFields(node<TSESTree.Expression>('{ path: z.string() }'))).toEqual([{ name: 'path', description: undefined }]);
  });
});

describe('contracts written the ways first contact met (round 3)', () => {
  it('counts a description the code computes (Apify `description: buildDescription(…)`) as stated, without its text', () => {
    const contract = contractOf(`export const fetchDocs = Object.freeze({ name: 'fetch-docs', description: buildDescription(ALL),
      inputSchema: { type: 'object', properties: { url: { type: 'string' } } }, call: async (args) => load(args.url) });`);
    expect(contract).toMatchObject({ name: 'fetch-docs', description: undefined, statesDescription: true, hasInputSchema: true });
  });

  it('reads the description and schema of a decorator applied by hand', () => {
    const contract = contractOf(
      `registry.action('Read a file from disk.', { param_model: z.object({ file_name: z.string() }) })(async function read_file(params) { return read(params.file_name); });`,
    );
    expect(contract).toMatchObject({ name: 'read_file', description: 'Read a file from disk.', inputs: [{ name: 'file_name' }] });
    expect(contractSaysItReads(contract)?.input.name).toBe('file_name');
  });

  it('takes a flag or a count for no location, whatever its name (`includeChangedFiles: z.boolean()`)', () => {
    const contract = contractOf(`export const pr = tool({ name: 'get_pull_request', description: 'Retrieve pull request data.',
      inputSchema: z.object({ includeChangedFiles: z.boolean().optional(), files: { type: 'number' } }), execute: async (args) => api.get(args) });`);
    expect(contract.inputs.map((input) => input.scalar)).toEqual([true, true]);
    expect(contractSaysItReads(contract)).toBeUndefined();
  });

  it('finds the location inside a list of sources, and says so', () => {
    const contract = contractOf(`export const readPdf = tool({ name: 'read_pdf', description: 'Reads PDFs',
      inputSchema: z.object({ sources: z.array(z.object({ path: z.string().optional(), url: z.string().optional() })) }), execute: async (args) => parse(args) });`);
    expect(contract.inputs).toEqual([{ name: 'sources', description: undefined, locationInside: 'path' }]);
    expect(contractSaysItReads(contract)?.evidence).toBe('its name `read_pdf` says it hands back what is at `sources[].path`');
  });
});

describe('what the contract says', () => {
  const says = (name: string, description: string | undefined, inputs: string[]) =>
    contractSaysItReads({
      name,
      description,
      statesDescription: description !== undefined,
      inputs: inputs.map((input) => ({ name: input, description: undefined })),
      hasInputSchema: true,
    });

  it('says it reads: a location input, and a name or description that hands back what is there', () => {
    expect(says('read_file', undefined, ['path'])?.evidence).toBe('its name `read_file` says it hands back what is at `path`');
    expect(says('get_doc', 'Returns the contents of the document at the URL.', ['url'])?.input.name).toBe('url');
    expect(says('view', undefined, ['filePaths'])).toBeDefined();
    // A conversion of the content is the content: markdownify's `pdf-to-markdown`.
    expect(says('pdf-to-markdown', 'Convert a PDF file to markdown', ['filepath'])?.input.name).toBe('filepath');
  });

  it('does not when the main action is a change, a search or a listing, when facts about the location come back, or without a location', () => {
    expect(says('write_file', 'Write the file', ['path'])).toBeUndefined();
    expect(says('search_files', 'Read matches', ['path'])).toBeUndefined();
    expect(says('get_file_info', 'Retrieve detailed metadata about a file.', ['path'])).toBeUndefined();
    expect(says('read_issue', 'Read an issue', ['issue_id'])).toBeUndefined();
    expect(
      contractSaysItReads({
        name: 'screenshot',
        description: 'Capture',
        statesDescription: true,
        inputs: [{ name: 'target', description: 'Save the image to this path' }],
        hasInputSchema: true,
      }),
    ).toBeUndefined();
  });
});
