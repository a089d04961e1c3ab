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

/** What the contract of a tool with these fields (no descriptions) says. */
const says = (name: string, description: string | undefined, inputs: string[]) =>
  contractSaysItReads({
    name,
    description,
    statesDescription: description !== undefined,
    inputs: inputs.map((input) => ({ name: input, description: undefined })),
    hasInputSchema: true,
  });

describe('what the contract says', () => {
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

/** What the contract says, for a name, a description and input fields given with their descriptions. */
const saysOfFields = (
  name: string,
  description: string | undefined,
  inputs: { name: string; description?: string; schemaName?: string }[],
) =>
  contractSaysItReads({
    name,
    description,
    statesDescription: description !== undefined,
    inputs: inputs.map((input) => ({ description: undefined, ...input })),
    hasInputSchema: true,
  });

describe('contracts written the ways first contact met (rounds 5 and 6)', () => {
  const says = saysOfFields;

  it('takes a field for a location by the named schema it is built from (`a: RequiredPath.describe(…)`), and reads `input:`', () => {
    const contract =
      contractOf(`const DiffInput = z.strictObject({ a: RequiredPath.describe('First file to compare'), context: PositiveInt.max(50) });
      export const DIFF = defineTool({ name: 'diff', description: 'Compare two text files and return a unified diff.', input: DiffInput, run: async (args) => '' });`);
    expect(contract.inputs[0]).toEqual({ name: 'a', description: 'First file to compare', schemaName: 'RequiredPath' });
    // A diff hands back lines of the files: the name says so before the description does.
    expect(contractSaysItReads(contract)?.evidence).toBe('its name `diff` says it hands back what is at `a`');
    // A field built from zod itself names no schema of the code's.
    expect(
      schemaFields(snippet('const s = { path: z.string() };').node<TSESTree.Expression>('{ path: z.string() }'))[0],
    ).not.toHaveProperty('schemaName');
  });

  it('takes a field for a location by a description that names the file or says where it is', () => {
    expect(
      says('obsidian_get_note', 'Read a note from the vault.', [{ name: 'target', description: 'Where the note lives.' }]),
    ).toBeDefined();
    expect(says('compare', 'Compare and return the diff.', [{ name: 'left', description: 'First file to compare' }])).toBeDefined();
    expect(says('summarise', 'Summarise the text.', [{ name: 'text', description: 'The words to summarise' }])).toBeUndefined();
  });

  it('hears "returns … lines/content" anywhere in the description, but not a list, names or a count of them', () => {
    expect(says('lookup', 'Looks things up. Returns the matching text of the page.', [{ name: 'url' }])).toBeDefined();
    expect(
      says('getMastraExports', 'Lists exports. Returns: List of all exports with their source', [{ name: 'projectPath' }]),
    ).toBeUndefined();
    expect(says('count', 'Returns the number of lines in the file.', [{ name: 'path' }])).toBeUndefined();
  });

  it('lets a search say it reads when its first sentence says it searches contents or returns matching lines', () => {
    expect(
      says('search_text', 'Search file contents for literal text, like grep; returns matching lines with line numbers.', [{ name: 'path' }])
        ?.evidence,
    ).toContain('hands back what is at `path`');
    expect(says('Grep', 'A powerful content search tool built on ripgrep.', [{ name: 'path' }])).toBeDefined();
    // A later sentence that names another tool does not make a file finder read.
    expect(
      says('find_files', 'Find files by glob. For text use search_text, which searches contents.', [{ name: 'path' }]),
    ).toBeUndefined();
  });

  it('does not when the tool saves what it fetched to a destination, opens it in an app, or hands back diagnostics', () => {
    expect(
      says('ssh_download', 'Downloads one remote file to a local destination path.', [
        { name: 'remotePath', description: 'Remote file path' },
        { name: 'localPath', description: 'Local destination path' },
      ]),
    ).toBeUndefined();
    expect(says('download_file', 'Downloads the file.', [{ name: 'url' }])).toBeDefined();
    expect(says('obsidian_open_in_ui', 'Open a file in the Obsidian app UI.', [{ name: 'path' }])).toBeUndefined();
    expect(says('lsp_get_diagnostics', 'Get errors and warnings for a file from the language server.', [{ name: 'path' }])).toBeUndefined();
  });
});

describe('contracts written the ways first contact met (round 7)', () => {
  it('lets a search say it reads when it searches files for a pattern, or runs ripgrep or grep, but not when it counts or lists', () => {
    expect(says('search', 'Search files for patterns using ripgrep (rg)', ['pattern', 'path'])?.evidence).toContain('Search files for');
    expect(says('ripgrep_search', 'Search for patterns in files using ripgrep.', ['pattern', 'path'])).toBeDefined();
    expect(says('advanced-search', 'Advanced search with ripgrep with more options', ['path'])).toBeDefined();
    expect(says('count-matches', 'Count matches in files using ripgrep', ['pattern', 'path'])).toBeUndefined();
    expect(says('list-files', 'List files that would be searched by ripgrep without actually searching them', ['path'])).toBeUndefined();
  });

  it("takes a diff or a blame of the model's repository or file for its lines, but not a status, a log or an edit", () => {
    expect(says('git_diff_unstaged', 'Shows changes in the working directory not yet staged', ['repo_path'])?.evidence).toBe(
      'its name `git_diff_unstaged` says it hands back what is at `repo_path`',
    );
    expect(says('git_blame', 'Show who changed each line', ['repo_path', 'file_path'])).toBeDefined();
    expect(says('git_status', 'Shows the working tree status', ['repo_path'])).toBeUndefined();
    expect(says('diff_edit', 'Apply SEARCH/REPLACE blocks and return the changed regions', ['path'])).toBeUndefined();
  });
});

describe('where a field says something lives', () => {
  it('is a location only when it says where a thing lives or is kept, not where to do something', () => {
    const says = (description: string) =>
      contractSaysItReads({
        name: 'read_thing',
        description: undefined,
        statesDescription: false,
        inputs: [{ name: 'target', description }],
        hasInputSchema: true,
      });
    expect(says('Where the note lives.')).toBeDefined();
    expect(says('Where to show the actions on the screen.')).toBeUndefined();
  });
});

describe('contracts written the ways first contact met (round 8)', () => {
  const says = saysOfFields;

  it('reads an input schema written as a list of parameter records', () => {
    const contract = contractOf(`export const httpGetTool = { name: 'http-get', description: 'Fetch content from a URL.',
      parameters: [{ name: 'url', type: 'string', description: 'The full URL to fetch.' }, { name: 'raw', type: 'boolean' }],
      execute: async (args) => httpGet(args.url) };`);
    expect(contract.inputs).toEqual([
      { name: 'url', description: 'The full URL to fetch.' },
      { name: 'raw', description: undefined, scalar: true },
    ]);
  });

  it('lets read, fetch, scrape, crawl and download hand back what is there without a word for content, but not view', () => {
    expect(says('batchScrape', 'Scrape multiple URLs in a single request.', [{ name: 'urls' }])).toBeDefined();
    expect(says('bulk', 'Download the given URLs in one request.', [{ name: 'urls' }])).toBeDefined();
    expect(says('git_log', 'View git commit history.', [{ name: 'file' }])).toBeUndefined();
    expect(says('bulk', 'Fetch the status of the given URLs.', [{ name: 'urls' }])).toBeUndefined();
  });

  it('takes a search that finds code for one that hands back what it found, and a folder read for a listing', () => {
    const folder = [{ name: 'project_folder', description: 'The absolute path to the project folder.' }];
    expect(says('find_code', 'Find code in a project folder that matches the given pattern.', folder)).toBeDefined();
    expect(says('find_files', 'Find files in a project folder whose names match.', folder)).toBeUndefined();
    expect(says('read_directory', 'Read a directory', [{ name: 'path' }])).toBeUndefined();
  });

  it("judges a field by its description's first sentence, not the examples after it", () => {
    expect(
      says('file-read', 'Read a file and return its full text content.', [
        { name: 'path', description: "Path to the file to read. Examples: './output.txt'." },
      ]),
    ).toBeDefined();
    expect(
      says('fetch_to', 'Fetch a page.', [
        { name: 'url' },
        { name: 'target', description: 'Output path for the page. Relative to the cwd.' },
      ]),
    ).toBeUndefined();
  });
});

describe('contracts written the ways first contact met (round 9)', () => {
  it('reads a schema or a declaration that a class method hands back, and super({ name, description })', () => {
    const crawler = contractOf(`export class WebCrawlerTool extends Tool {
      name = 'WebCrawler';
      description = 'Retrieves content of an arbitrary website.';
      inputSchema() { return z.object({ url: z.string().url().describe('Website URL') }); }
      async _run({ url }) { return this.client(url); }
    }`);
    expect(crawler).toMatchObject({ name: 'WebCrawler', hasInputSchema: true, inputs: [{ name: 'url', description: 'Website URL' }] });
    expect(contractSaysItReads(crawler)?.evidence).toMatch(/its name `WebCrawler` says it hands back/);
    const operations = contractOf(`export class FileOperationsTool extends BaseTool {
      constructor() { super({ name: 'file_operations', description: 'Perform file system operations like reading, writing, and managing files' }); }
      getDeclaration() {
        return { name: this.name, description: this.description, parameters: { type: 'object', properties: {
          operation: { type: 'string', description: 'The file operation to perform', enum: ['read', 'write', 'delete', 'list'] },
          filepath: { type: 'string', description: 'Path to the file or directory' } } } };
      }
      async runAsync(args) { return this.dispatch(args); }
    }`);
    expect(operations).toMatchObject({ name: 'file_operations', description: expect.stringMatching(/^Perform file system/) });
    expect(operations.inputs[0]).toMatchObject({ name: 'operation', choices: ['read', 'write', 'delete', 'list'] });
    expect(contractSaysItReads(operations)?.evidence).toBe('its `operation` input offers `read`, which hands back what is at `filepath`');
  });

  it('says an HTTP request tool hands back the response of the URL; an operation enum without a read does not', () => {
    const request =
      contractOf(`export const http = tool({ name: 'http_request', description: 'Make HTTP requests to external APIs and web services',
      inputSchema: z.object({ url: z.string().describe('The URL to send the request to'), method: z.enum(['GET', 'POST']) }), execute: async () => '' });`);
    expect(contractSaysItReads(request)?.evidence).toMatch(/^it makes an HTTP request to `url`/);
    const writes = contractOf(`export const files = tool({ name: 'file_ops', description: 'Manage files',
      inputSchema: z.object({ action: z.enum(['write', 'delete']), path: z.string() }), execute: async () => '' });`);
    expect(contractSaysItReads(writes)).toBeUndefined();
  });

  it('does not take a place for a path: a `location` record of its own fields (a city, coordinates)', () => {
    const weather = contractOf(`export class OpenMeteoTool extends Tool {
      name = 'OpenMeteo';
      description = 'Retrieve current, past, or future weather forecasts for a location.';
      inputSchema() { return z.object({ location: z.union([z.object({ name: z.string(), country: z.string().optional() }), z.object({ latitude: z.number(), longitude: z.number() })]) }); }
      async _run(input) { return this.fetchForecast(input); }
    }`);
    expect(contractSaysItReads(weather)).toBeUndefined();
  });
});

describe('contracts written the ways first contact met (round 11)', () => {
  it('reads the fields of the shapes an input shape spreads', () => {
    const scrape = contractOf(`const base = { url: z.string().describe('The URL to crawl'), limit: z.number().optional() };
      const shot = { full_page: z.boolean().optional() };
      const params = { ...base, ...shot, format: z.string() };
      server.tool('page_scrape', 'Scrape a single page and extract its content.', params, async (args) => run(args));`);
    expect(scrape.inputs.map((input) => input.name)).toEqual(['url', 'limit', 'full_page', 'format']);
    expect(contractSaysItReads(scrape)?.input.name).toBe('url');
  });

  it("lets a location field's own description say the tool reads it, and a screenshot of a URL hand back the page", () => {
    const fetcher = contractOf(`export const agenticTool = tool({
      inputSchema: z.object({ url: z.string().describe('URL to fetch. Must be http:// or https://.'), prompt: z.string() }), execute: async () => '' });`);
    expect(contractSaysItReads(fetcher)?.evidence).toBe('its `url` input is the location to read ("URL to fetch.")');
    const shot =
      contractOf(`export const shot = tool({ name: 'page_capture', description: 'Capture screenshots of web pages. Returns base64 images.',
      inputSchema: z.object({ url: z.string().describe('The URL of the page') }), execute: async () => '' });`);
    expect(contractSaysItReads(shot)?.evidence).toBe('it hands back a screenshot of the page at `url`');
    // A field that only names the page to act on says nothing of reading it.
    const audit = contractOf(`export const audit = tool({ name: 'run_audit', description: 'Run a performance audit.',
      inputSchema: z.object({ url: z.string().describe('URL to audit') }), execute: async () => '' });`);
    expect(contractSaysItReads(audit)).toBeUndefined();
  });

  it('takes a grep-named tool, "runs grep", a comparison of files and a diff for their lines, but not links or a status', () => {
    const says = (name: string, description: string, field = "dir: z.string().describe('Directory to search')") =>
      contractSaysItReads(
        contractOf(
          `export const t = tool({ name: '${name}', description: '${description}', inputSchema: z.object({ ${field} }), execute: async () => '' });`,
        ),
      );
    expect(says('mgrep', 'Search multiple patterns.')?.evidence).toMatch(/says it greps `dir`/);
    expect(says('multi_search', 'Search multiple patterns (runs grep for each pattern).')).toBeDefined();
    expect(says('mgrep', 'Count the matches of multiple patterns.')).toBeUndefined();
    expect(
      says('compare', 'Compare two files or strings and show differences.', "file1: z.string().describe('First file to compare')"),
    ).toBeDefined();
    expect(says('git_changes', 'Show git diff of uncommitted changes.', "dir: z.string().describe('Repository directory')")).toBeDefined();
    expect(
      says('git_state', 'Show git status (modified, added, deleted files).', "dir: z.string().describe('Repository directory')"),
    ).toBeUndefined();
    expect(says('links', 'Extract all links from a page without fetching content.', "url: z.string().describe('The URL')")).toBeUndefined();
  });
});

describe('contracts that name a conversion or a query of a file (round 11)', () => {
  const says = (name: string, description: string, field: string) =>
    contractSaysItReads(
      contractOf(
        `export const t = tool({ name: '${name}', description: '${description}', inputSchema: z.object({ ${field} }), execute: async () => '' });`,
      ),
    );

  it('takes a `…-to-markdown` name for a conversion of what is at the location, whatever its object', () => {
    // `search` in the name is its object here, not its action: the description decides.
    expect(
      says('bing-search-to-markdown', 'Convert a Bing search results page to markdown', "url: z.string().describe('URL of the page')")
        ?.evidence,
    ).toMatch(/^its description says it hands back what is at `url`/);
    // With nothing else to go on, the name says it.
    const bare = contractOf(
      `export const t = tool({ name: 'pdf_to_text', inputSchema: z.object({ file: z.string() }), execute: async () => '' });`,
    );
    expect(contractSaysItReads(bare)?.evidence).toBe('its name `pdf_to_text` says it converts what is at `file` and hands it back');
    expect(says('image-to-markdown', 'Convert an image to markdown, including metadata', 'filepath: z.string()')).toBeDefined();
    // A name that only mentions a format is no conversion of the location.
    expect(says('save_markdown', 'Save markdown to a file', "path: z.string().describe('Where to save')")).toBeUndefined();
  });

  it('takes a file the field says is to be queried for one the tool reads', () => {
    expect(says('jq', 'Query and manipulate JSON using jq expressions.', "file: z.string().describe('JSON file to query')")?.evidence).toBe(
      'its `file` input is the location to read ("JSON file to query")',
    );
  });
});

describe('data a tool keeps with what it makes is no location (round 20)', () => {
  const says = (fields: string) =>
    contractSaysItReads(
      contractOf(
        `export const t = tool({ name: 'events', description: 'Manages calendar events. Supports reading, creating and deleting events.', inputSchema: z.object({ action: z.enum(['read', 'create', 'delete']), ${fields} }), execute: async () => '' });`,
      ),
    );

  it('takes neither a link the tool stores with an event, the text of its notes nor its place for a location it reads', () => {
    expect(says("url: z.string().describe('A URL to associate with the event.')")).toBeUndefined();
    expect(says("note: z.string().describe('Additional notes for the event.')")).toBeUndefined();
    // Nor is the place where the event happens.
    expect(says("location: z.string().describe('Location text for the event.')")).toBeUndefined();
    // A URL or a note the tool is told to read still is one.
    expect(says("url: z.string().describe('The URL of the calendar feed to read.')")).toBeDefined();
    expect(says("note: z.string().describe('The note to read.')")).toBeDefined();
    expect(says("location: z.string().describe('Location of the text file to read.')")).toBeDefined();
  });
});
