// Every automatic fix compiles against the framework's real types. Each harness under frameworks/
// type-checks cleanly with the packages installed from npm (ai, @modelcontextprotocol/sdk,
// @langchain/core, @mastra/core, @openai/agents, zod); migrate runs on a copy, and the copy must
// type-check with zero new diagnostics.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

import { migrate, type MigrationReport } from '../../src/codemods/index.js';

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
];

describe('migrate on real framework types: zero new tsc diagnostics', () => {
  for (const { framework, expect: expectMigrated } of cases) {
    it(`${framework}: the harness compiles before and after, and every site is fixed`, async () => {
      const copy = join(scratch, framework);
      cpSync(join(frameworksRoot, framework), copy, { recursive: true });
      const before = typeCheck(copy);
      expect(before.diagnostics).toEqual([]);

      const report = await migrate({ cwd: copy, paths: ['src'] });
      expect(report.summary.errors).toBe(0);
      expect(report.summary.changed).toBeGreaterThan(0);
      expect(report.files.flatMap((file) => file.unresolved.map((site) => `${file.path}:${site.line} ${site.reason}`))).toEqual([]);

      const after = typeCheck(copy, before.program);
      expect(after.diagnostics).toEqual([]);
      expectMigrated(copy, report);
    });
  }
});
