// Every automatic fix compiles against the framework's real types. Each harness under frameworks/
// type-checks cleanly with the packages installed from npm (ai, @modelcontextprotocol/sdk,
// @langchain/core, @mastra/core, @openai/agents, zod); migrate runs on a copy, and the copy must
// type-check with zero new diagnostics. own-types is a harness with its own types besides: its own
// Tool interface (no maxResultSizeChars, no stateScope) and its own class named ReplacementState.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import { ESLint, type Linter } from 'eslint';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

import { migrate, type MigrationReport } from '../../src/codemods/index.js';
import plugin from '../../src/eslint-plugin.js';

const here = dirname(fileURLToPath(import.meta.url));
const repositoryRoot = join(here, '..', '..');
const frameworksRoot = join(here, 'frameworks');
// Inside the repository (its .cache is ignored by git and tsc), so the copies resolve the installed
// frameworks from its node_modules; not inside node_modules, which migrate never scans.
const scratchRoot = join(repositoryRoot, '.cache');
mkdirSync(scratchRoot, { recursive: true });
const scratch = mkdtempSync(join(scratchRoot, 'trg-frameworks-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The harness's own diagnostics and the program, for reuse by the after-migration check. */
function typeCheck(directory: string, oldProgram?: ts.Program): { diagnostics: string[]; program: ts.Program } {
  const configPath = join(directory, 'tsconfig.json');
  const { config } = ts.readConfigFile(configPath, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, directory);
  // The package under test from its sources, as a consumer gets it from its published types.
  const options: ts.CompilerOptions = { ...parsed.options, paths: { 'tool-result-guard': [join(repositoryRoot, 'src', 'index.ts')] } };
  const program = ts.createProgram({ rootNames: parsed.fileNames, options, ...(oldProgram ? { oldProgram } : {}) });
  const diagnostics = ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const where = diagnostic.file
      ? `${relative(directory, diagnostic.file.fileName)}:${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1}`
      : '(global)';
    return `${where} TS${diagnostic.code} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`;
  });
  return { diagnostics, program };
}

function migratedText(copy: string, file: string): string {
  return readFileSync(join(copy, file), 'utf8');
}

interface FrameworkCase {
  framework: string;
  /** What the migrated files must contain: the fixes that compile in this framework. */
  expect: (copy: string, report: MigrationReport) => void;
}

/** The plugin's `strict` config (what migrate replays), with type information when `typed`. */
function strictLinter(directory: string, typed: boolean): ESLint {
  return new ESLint({
    cwd: directory,
    overrideConfigFile: true,
    overrideConfig: [
      plugin.configs.strict as Linter.Config,
      ...(typed ? [{ languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: directory } } }] : []),
    ],
  });
}

/** Every finding of the plugin's strict config in the harness, as `file:line rule`. */
async function findingsOf(directory: string): Promise<string[]> {
  const results = await strictLinter(directory, false).lintFiles(['src']);
  return results.flatMap((result) =>
    result.messages.map((message) => `${relative(directory, result.filePath)}:${message.line} ${message.ruleId}`),
  );
}

function sourceFilesOf(directory: string): string[] {
  return readdirSync(join(directory, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join('src', name))
    .sort();
}

/**
 * What a developer gets by taking, for every finding the editor shows, its first suggestion (or its
 * autofix), pass after pass until nothing is left, as ESLint applies fixes: those that do not overlap
 * in one pass, the rest in the next.
 */
async function applyEditorSuggestions(directory: string, typed: boolean): Promise<void> {
  for (let pass = 0; pass < 10; pass += 1) {
    let applied = 0;
    for (const file of sourceFilesOf(directory)) {
      const path = join(directory, file);
      const text = readFileSync(path, 'utf8');
      const [result] = await strictLinter(directory, typed).lintText(text, { filePath: path });
      const edits = result!.messages
        .map((message) => message.fix ?? message.suggestions?.[0]?.fix)
        .filter((fix) => fix !== undefined)
        .sort((left, right) => left.range[0] - right.range[0] || left.range[1] - right.range[1]);
      // ESLint's rule for fixes in one pass: one that starts where an earlier one ended, or before, waits.
      let output = '';
      let lastEnd = -1;
      let position = 0;
      for (const edit of edits) {
        if (edit.range[0] <= lastEnd) continue;
        output += text.slice(position, edit.range[0]) + edit.text;
        position = lastEnd = edit.range[1];
        applied += 1;
      }
      if (lastEnd !== -1) writeFileSync(path, output + text.slice(position));
    }
    if (applied === 0) return;
  }
  throw new Error('the editor suggestions did not settle in 10 passes');
}

/** The codemod's text without the review notes it adds to a `stateScope` it proposes (the suggestion carries none). */
function withoutReviewNotes(text: string): string {
  return text.replace(/\/\* TODO\(tool-result-guard\): [^*]*\*\/ /g, '').replace(/^[ \t]*\/\/ TODO\(tool-result-guard\): .*\n/gm, '');
}

const cases: FrameworkCase[] = [
  {
    framework: 'ai-sdk',
    expect(copy) {
      const tools = migratedText(copy, 'src/tools.ts');
      expect(tools).toContain('read_file: classifyTool(tool({');
      expect(tools).toContain("{ name: 'read_file', reads: 'path', maxResultSizeChars: UNBOUNDED })");
      expect(tools).toContain("{ name: 'fetch_page', reads: 'url', maxResultSizeChars: UNBOUNDED })");
      expect(tools).toMatch(/stateScope: 'session' \}\)/);
      expect(tools).not.toMatch(/^\s*maxResultSizeChars:/m);
      expect(migratedText(copy, 'src/subagent.ts')).toContain('forkSubagent(task, structuredClone(replacementState))');
    },
  },
  {
    framework: 'mcp',
    expect(copy) {
      const server = migratedText(copy, 'src/server.ts');
      // Never inside the input shape: the SDK throws "Mixed Zod versions detected in object shape".
      expect(server).not.toMatch(/\{ path: z\.string\(\),? _meta/);
      expect(server).toContain("classifyTool(server.tool('read_text_file'");
      expect(server).toContain("{ name: 'read_text_file', reads: 'path', maxResultSizeChars: UNBOUNDED })");
      expect(server).toContain("_meta: { 'anthropic/maxResultSizeChars': Infinity }");
      const budget = migratedText(copy, 'src/budget.ts');
      expect(budget.indexOf('const seen = markSeen(state, id);')).toBeLessThan(budget.indexOf('await store.persist(id, content)'));
    },
  },
  {
    framework: 'langchain',
    expect(copy) {
      const tools = migratedText(copy, 'src/tools.ts');
      expect(tools).toContain('export const readFileTool = classifyTool(tool(');
      expect(tools).toContain("{ reads: 'path', maxResultSizeChars: UNBOUNDED })");
      expect(tools).toContain('export const browseTool = classifyTool(new DynamicStructuredTool({');
    },
  },
  {
    framework: 'mastra',
    expect(copy) {
      const tools = migratedText(copy, 'src/tools.ts');
      expect(tools).toContain('export const readFileTool = classifyTool(createTool({');
      expect(tools).toContain('export const weatherTool = classifyTool(createTool({');
    },
  },
  {
    framework: 'openai-agents',
    expect(copy) {
      const tools = migratedText(copy, 'src/tools.ts');
      expect(tools).toContain("{ reads: 'path', maxResultSizeChars: UNBOUNDED })");
      expect(tools).toContain("{ reads: 'url', maxResultSizeChars: UNBOUNDED })");
    },
  },
  {
    framework: 'own-types',
    expect(copy) {
      // Tools typed with the harness's own Tool<Input>, which has neither field: the classifyTool home.
      const browser = migratedText(copy, 'src/tools/browser.ts');
      expect(browser).toContain('export const browserTool: Tool<BrowseInput> = classifyTool({');
      expect(browser).toMatch(/\{ reads: 'url', maxResultSizeChars: UNBOUNDED, .*stateScope: 'session' \}\);/);
      expect(migratedText(copy, 'src/tools/read-file.ts')).toContain("}, { reads: 'path', maxResultSizeChars: UNBOUNDED });");
      // A class may carry members its interface lacks.
      expect(migratedText(copy, 'src/tools/shell.ts')).toContain('maxResultSizeChars = 50_000;');
      // The harness's own ReplacementState: its clone() method; its plain-data snapshot: structuredClone.
      const agent = migratedText(copy, 'src/agent.ts');
      expect(agent).toContain('replacementState: this.state.clone()');
      expect(agent).not.toContain('cloneReplacementState');
      expect(migratedText(copy, 'src/resume.ts')).toContain('resumeSession(structuredClone(saved))');
    },
  },
];

describe('migrate on real framework types: zero new tsc diagnostics', () => {
  for (const { framework, expect: expectMigrated } of cases) {
    it(`${framework}: the harness compiles before and after, and every site is fixed`, async () => {
      const copy = join(scratch, framework);
      cpSync(join(frameworksRoot, framework), copy, { recursive: true });
      const before = typeCheck(copy);
      expect(before.diagnostics).toEqual([]);
      const findingsBefore = await findingsOf(copy);

      const report = await migrate({ cwd: copy, paths: ['src'] });
      expect(report.summary.errors).toBe(0);
      expect(report.summary.changed).toBeGreaterThan(0);
      expect(report.files.flatMap((file) => file.unresolved.map((site) => `${file.path}:${site.line} ${site.reason}`))).toEqual([]);

      const after = typeCheck(copy, before.program);
      expect(after.diagnostics).toEqual([]);
      // Nothing was left for review, so the rules have nothing left to say.
      expect(findingsBefore.length).toBeGreaterThan(0);
      expect(await findingsOf(copy)).toEqual([]);
      expectMigrated(copy, report);
    });
  }
});

describe("own-types: the editor's suggestions make the codemod's edits", () => {
  for (const typed of [false, true]) {
    it(`${typed ? 'with' : 'without'} type information`, async () => {
      const migrated = join(scratch, `own-types-migrated-${typed}`);
      const edited = join(scratch, `own-types-edited-${typed}`);
      cpSync(join(frameworksRoot, 'own-types'), migrated, { recursive: true });
      cpSync(join(frameworksRoot, 'own-types'), edited, { recursive: true });
      await migrate({ cwd: migrated, paths: ['src'] });
      await applyEditorSuggestions(edited, typed);
      for (const file of sourceFilesOf(migrated)) {
        expect(readFileSync(join(edited, file), 'utf8'), file).toBe(withoutReviewNotes(readFileSync(join(migrated, file), 'utf8')));
      }
    });
  }
});
