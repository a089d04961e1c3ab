// Rule 1 on real agent code: the packed packages of gemini-cli-core, the MCP
// filesystem server, LangChain's community tools and an older, tsc-compiled
// LangChain (ES module and CommonJS builds side by side), linted with
// `configs.all` through ESLint's own `ESLint` class. It must finish without
// a crash, report the self-reading tools the seed is about, and leave the
// tools that read nothing the model chose alone.
import path from 'node:path';

import { ESLint, type Linter } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

import { ensureCorpus } from '../../scripts/corpus.mjs';
import plugin from '../../src/eslint-plugin.js';

const RULE_ID = 'tool-result-guard/require-unbounded-self-reading-tool';
const READING_MESSAGES = new Set(['missingUnbounded', 'finiteBound']);

interface Finding {
  file: string;
  line: number;
  messageId: string | undefined;
  message: string;
  /** The source line the finding points at, to tell tools apart. */
  source: string;
}

interface PackageResult {
  fatal: Linter.LintMessage[];
  findings: Finding[];
  filesLinted: number;
}

/** `extension`: the build to lint, `js` (ES modules, most packages' only one) or `cjs`. */
async function lintPackage(directory: string, folders: string[], extension: 'js' | 'cjs' = 'js'): Promise<PackageResult> {
  const eslint = new ESLint({
    cwd: directory,
    overrideConfigFile: true,
    // The packages' own test files (gemini-cli ships `*.test.js` in dist) are
    // left out: they are not tools, only noise and time.
    overrideConfig: [
      { ignores: ['**/*.test.js', '**/*.d.ts', '**/*.d.cts'] },
      // The packages' own `eslint-disable` comments name rules we do not load.
      { linterOptions: { noInlineConfig: true, reportUnusedDisableDirectives: 'off' } },
      plugin.configs.all as Linter.Config,
    ],
  });
  const results = await eslint.lintFiles(folders.map((folder) => `${folder}/**/*.${extension}`));
  const fatal: Linter.LintMessage[] = [];
  const findings: Finding[] = [];
  for (const result of results) {
    const lines = result.source?.split('\n') ?? [];
    for (const message of result.messages) {
      if (message.fatal) fatal.push(message);
      else if (message.ruleId === RULE_ID) {
        findings.push({
          file: path.relative(directory, result.filePath),
          line: message.line,
          messageId: message.messageId,
          message: message.message,
          source: lines[message.line - 1] ?? '',
        });
      }
    }
  }
  return { fatal, findings, filesLinted: results.length };
}

const readingFindings = (result: PackageResult): Finding[] =>
  result.findings.filter((finding) => READING_MESSAGES.has(finding.messageId ?? ''));

describe('require-unbounded-self-reading-tool on real packages', () => {
  const results = new Map<string, PackageResult>();

  beforeAll(async () => {
    for (const { entry, directory } of ensureCorpus([
      '@google/gemini-cli-core',
      '@modelcontextprotocol/server-filesystem',
      '@langchain/community',
    ])) {
      results.set(entry.name, await lintPackage(directory, entry.lint));
    }
    for (const { entry, directory } of ensureCorpus(['langchain'])) {
      results.set(`${entry.name} (ES modules)`, await lintPackage(directory, entry.lint, 'js'));
      results.set(`${entry.name} (CommonJS)`, await lintPackage(directory, entry.lint, 'cjs'));
    }
  }, 600_000);

  it('lints every package with configs.all and no fatal message', () => {
    for (const [name, result] of results) {
      expect(result.filesLinted, name).toBeGreaterThan(0);
      expect(result.fatal, name).toEqual([]);
    }
  });

  it("reports gemini-cli's read_file, read_many_files and web_fetch tools", () => {
    const gemini = readingFindings(results.get('@google/gemini-cli-core')!);
    const reportedClasses = gemini.map((finding) => /class (\w+)/.exec(finding.source)?.[1]);
    expect(reportedClasses).toEqual(expect.arrayContaining(['ReadFileTool', 'ReadManyFilesTool', 'WebFetchTool']));
    const readFile = gemini.find((finding) => finding.source.includes('class ReadFileTool '))!;
    // The message names the helper in another file and the reader it reaches.
    expect(readFile.message).toContain('processSingleFileContent');
    expect(readFile.message).toContain('readFile');
  });

  it("does not report gemini-cli's tools that read nothing the model chose", () => {
    const gemini = readingFindings(results.get('@google/gemini-cli-core')!);
    const reportedClasses = new Set(gemini.map((finding) => /class (\w+)/.exec(finding.source)?.[1]));
    for (const quiet of ['ShellTool', 'WriteTodosTool', 'AskUserTool', 'WebSearchTool', 'LSTool', 'GlobTool', 'ExitPlanModeTool']) {
      expect(reportedClasses.has(quiet), quiet).toBe(false);
    }
  });

  it("reports the filesystem server's read tools", () => {
    const server = readingFindings(results.get('@modelcontextprotocol/server-filesystem')!);
    const reportedTools = server.map((finding) => /registerTool\("(\w+)"/.exec(finding.source)?.[1]);
    expect(reportedTools).toEqual(expect.arrayContaining(['read_file', 'read_text_file', 'read_media_file', 'read_multiple_files']));
    const readMultiple = server.find((finding) => finding.source.includes('"read_multiple_files"'))!;
    expect(readMultiple.message).toContain('readFileContent');
  });

  it("does not report the filesystem server's tools that only write, list or move", () => {
    const server = readingFindings(results.get('@modelcontextprotocol/server-filesystem')!);
    const reportedTools = new Set(server.map((finding) => /registerTool\("(\w+)"/.exec(finding.source)?.[1]));
    for (const quiet of [
      'write_file',
      'create_directory',
      'list_directory',
      'list_directory_with_sizes',
      'move_file',
      'get_file_info',
      'list_allowed_directories',
    ]) {
      expect(reportedTools.has(quiet), quiet).toBe(false);
    }
  });

  // tsc's CommonJS: `const fs_1 = require(…)`, `(0, m_1.f)(…)`, `__importDefault`,
  // `exports.X = X`, and the axios interop alias compiled once more.
  it.each(['ES modules', 'CommonJS'])("reports LangChain 0.1's reading tools in its %s build", (build) => {
    const findings = readingFindings(results.get(`langchain (${build})`)!);
    const reportedClasses = findings.map((finding) => /class (\w+)/.exec(finding.source)?.[1]).sort();
    // WebBrowser reads the model's URL (getHtml → axios.get), but the page text reaches its
    // answer through a cheerio helper the output flow does not follow yet, so since the rule
    // asks for the content to come back it is a known miss: `npm run eval` counts it (its
    // label says self-reading) and docs/accuracy.md lists it.
    expect(reportedClasses).toEqual(['ReadFileTool', 'RequestsGetTool', 'RequestsPostTool']);
    const requestsGet = findings.find((finding) => finding.source.includes('class RequestsGetTool '))!;
    expect(requestsGet.message).toContain('returns what it read');
  });

  it("finds the same tools in LangChain 0.1's ES module and CommonJS builds, reading or not", () => {
    const toolsOf = (build: string) =>
      results
        .get(`langchain (${build})`)!
        .findings.map(
          (finding) => `${finding.file.replace(/\.c?js$/, '')}:${/^Tool '([^']+)'/.exec(finding.message)?.[1]} ${finding.messageId}`,
        )
        .sort();
    expect(toolsOf('ES modules').length).toBeGreaterThan(10);
    expect(toolsOf('CommonJS')).toEqual(toolsOf('ES modules'));
  });

  it('does not report LangChain search tools whose URL host is fixed in code', () => {
    const community = readingFindings(results.get('@langchain/community')!);
    const reportedFiles = new Set(community.map((finding) => path.basename(finding.file)));
    for (const quiet of ['brave_search.js', 'google_custom_search.js', 'serper.js', 'dadjokeapi.js', 'calculator.js']) {
      expect(reportedFiles.has(quiet), quiet).toBe(false);
    }
  });
});
