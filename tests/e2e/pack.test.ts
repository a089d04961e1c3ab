// The consumer's view: the package as npm delivers it. `npm pack` a fresh
// copy of the repository (no dist/: its prepack script must build it), install the tarball into a fresh project next to eslint and typescript from
// the registry, and use it there the three ways the README promises (ESLint
// config, compile-time check, codemod CLI), plus the runtime entry's promise
// to load no tooling. publint and arethetypeswrong check the tarball itself.
import { execFileSync, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { REPOSITORY_ROOT } from '../../scripts/corpus.mjs';
import plugin from '../../src/eslint-plugin.js';

// The versions the package is developed and tested with (package.json devDependencies).
const ESLINT_VERSION = '10.15.0';
const TYPESCRIPT_VERSION = '6.0.3';

const workDirectory = mkdtempSync(join(tmpdir(), 'tool-result-guard-e2e-'));
const consumerDirectory = join(workDirectory, 'consumer');
let tarball = '';
let packedFiles: string[] = [];

function run(command: string, args: readonly string[], cwd: string): SpawnSyncReturns<string> {
  return spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } });
}

function describeRun(result: SpawnSyncReturns<string>): string {
  return `exit ${result.status}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`;
}

function writeConsumerFile(relativePath: string, text: string): void {
  const path = join(consumerDirectory, relativePath);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** A tool factory of the user's own: the rules recognise `tool(...)` by name, without configuration. */
const TOOL_FACTORY = `export interface ToolDefinition<Input> {
  name: string;
  description: string;
  maxResultSizeChars?: number;
  execute(input: Input): Promise<string>;
}

export function tool<Input>(definition: ToolDefinition<Input>): ToolDefinition<Input> {
  return definition;
}
`;

/** Reads whatever path the model asks for, with a finite limit: circular persistence. */
const SELF_READING_TOOL = `import { readFile } from 'node:fs/promises';

import { tool } from './tool-factory.js';

export const readFileTool = tool({
  name: 'read_file',
  description: 'Reads a file from the workspace.',
  maxResultSizeChars: 100_000,
  async execute(input: { path: string }) {
    return readFile(input.path, 'utf8');
  },
});
`;

/** The same tool, classified correctly. */
const UNBOUNDED_READING_TOOL = `import { readFile } from 'node:fs/promises';

import { tool } from './tool-factory.js';

export const viewFileTool = tool({
  name: 'view_file',
  description: 'Shows a file from the workspace.',
  maxResultSizeChars: Infinity,
  async execute(input: { path: string }) {
    return readFile(input.path, 'utf8');
  },
});
`;

/** Calls a fixed API: not a self-reading tool, a finite limit is right. */
const API_TOOL = `import { tool } from './tool-factory.js';

export const weatherTool = tool({
  name: 'weather',
  description: 'Current weather for a city.',
  maxResultSizeChars: 20_000,
  async execute(input: { city: string }) {
    const response = await fetch(\`https://api.example.com/weather?city=\${encodeURIComponent(input.city)}\`);
    return response.text();
  },
});
`;

/** The runtime entry, type-checked without skipLibCheck by a consumer that installed none of the frameworks (optional peers). */
const RUNTIME_WITHOUT_FRAMEWORKS = `import { ToolResultBudgetSession, applyToolResultBudgetToOpenAIResponsesInput, type UnhandledPart } from 'tool-result-guard';

export const report = (part: UnhandledPart): string => part.reason;
export const budget = applyToolResultBudgetToOpenAIResponsesInput;
export type Session = ToolResultBudgetSession;
`;

// The consumer has no @types/node: the typed files declare the reader they use.
const DECLARED_READER = 'declare function readTextFile(path: string): Promise<string>;';

/**
 * One defect per recommended rule, in the shapes the rule docs show
 * (docs/rules/*.md, "Incorrect"), as a consumer's harness would have them.
 */
const DEFECT_PER_RECOMMENDED_RULE: Record<string, { file: string; text: string }> = {
  'sentinel-before-override': {
    file: 'src/persistence/threshold.ts',
    text: `export function getEffectivePersistenceThreshold(
  tool: { name: string; maxResultSizeChars: number },
  overrides: Readonly<Record<string, number>> | undefined,
): number {
  const override = overrides?.[tool.name];
  if (typeof override === 'number' && override > 0) return override;
  const declared = tool.maxResultSizeChars;
  if (!Number.isFinite(declared)) return declared;
  return declared;
}
`,
  },
  'persist-only-owned-sessions': {
    file: 'src/persistence/maybe-persist.ts',
    text: `declare function persistToolResult(toolUseId: string, content: string): Promise<string>;

export async function maybePersistLargeResult(querySource: string, toolUseId: string, content: string) {
  if (querySource !== 'compact') {
    return persistToolResult(toolUseId, content);
  }
  return undefined;
}
`,
  },
  'mark-seen-before-replacement': {
    file: 'src/persistence/adopt.ts',
    text: `interface ContentReplacementState {
  seenIds: Set<string>;
  replacements: Map<string, string>;
}

export function adoptSyncedReplacements(
  state: ContentReplacementState,
  records: readonly { toolUseId: string; replacement: string }[],
) {
  for (const record of records) {
    state.replacements.set(record.toolUseId, record.replacement);
  }
}
`,
  },
  'replace-only-after-persist': {
    file: 'src/persistence/background.ts',
    text: `interface ContentReplacementState {
  seenIds: Set<string>;
  replacements: Map<string, string>;
}

declare function maybePersistLargeResult(toolUseId: string, content: string): Promise<unknown>;

export function replaceInBackground(state: ContentReplacementState, block: { toolUseId: string; content: string }): string {
  state.seenIds.add(block.toolUseId);
  const pendingWrite = maybePersistLargeResult(block.toolUseId, block.content);
  const replacement = block.content.slice(0, 2000);
  state.replacements.set(block.toolUseId, replacement);
  pendingWrite.catch(() => undefined);
  return replacement;
}
`,
  },
  'clone-state-on-fork': {
    file: 'src/agents/research.ts',
    text: `interface AgentSession {
  id: string;
  state: unknown;
}

declare function forkSubagent(options: { parentSessionId: string; prompt: string; contentReplacementState: unknown }): AgentSession;

export function spawnResearchAgent(parent: AgentSession, task: string): AgentSession {
  return forkSubagent({
    parentSessionId: parent.id,
    prompt: task,
    contentReplacementState: parent.state,
  });
}
`,
  },
};

const CLASSIFIED_DEFINE_TOOL = `import { UNBOUNDED, defineTool } from 'tool-result-guard';

${DECLARED_READER}

export const readFileTool = defineTool({
  name: 'read_file',
  reads: 'path',
  maxResultSizeChars: UNBOUNDED,
  async call(input: { path: string }) {
    return readTextFile(input.path);
  },
});

export const searchTool = defineTool({
  name: 'search',
  reads: 'none',
  maxResultSizeChars: 50_000,
  async call(input: { query: string }) {
    return \`results for \${input.query}\`;
  },
});
`;

const MISCLASSIFIED_DEFINE_TOOL = `import { defineTool } from 'tool-result-guard';

${DECLARED_READER}

export const readFileTool = defineTool({
  name: 'read_file',
  reads: 'path',
  maxResultSizeChars: 100_000,
  async call(input: { path: string }) {
    return readTextFile(input.path);
  },
});
`;

/**
 * Node's module hooks see every ESM resolution; CommonJS loads land in
 * Module._cache. Between them, any load of the tooling packages shows up.
 */
const FORBID_TOOLING_HOOKS = `const TOOLING = /\\/node_modules\\/(eslint|typescript|ts-morph|@ts-morph|@typescript-eslint|espree|diff|tinyglobby)\\//;
export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (TOOLING.test(resolved.url)) throw new Error('tool-result-guard loaded tooling at run time: ' + resolved.url);
  return resolved;
}
`;

const IMPORT_RUNTIME_SCRIPT = `import Module, { register } from 'node:module';

register('./forbid-tooling-hooks.mjs', import.meta.url);
const runtime = await import('tool-result-guard');
const tooling = /\\/node_modules\\/(eslint|typescript|ts-morph|@ts-morph|@typescript-eslint|espree|diff|tinyglobby)\\//;
const loadedTooling = Object.keys(Module._cache).filter((path) => tooling.test(path));
console.log(JSON.stringify({ exports: Object.keys(runtime).sort(), loadedTooling }));
`;

/**
 * What a fresh clone holds: the files git tracks plus the untracked ones it
 * does not ignore (so a test run sees uncommitted work too), without dist/,
 * .cache/ or node_modules/. The repository's node_modules is linked in, in
 * place of `npm ci`.
 */
function freshCopyOfRepository(): string {
  const copyDirectory = join(workDirectory, 'fresh-clone');
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: REPOSITORY_ROOT,
    encoding: 'utf8',
  });
  for (const file of listed.split('\0').filter(Boolean)) {
    const source = join(REPOSITORY_ROOT, file);
    if (!existsSync(source)) continue; // deleted in the working tree, not yet committed
    mkdirSync(dirname(join(copyDirectory, file)), { recursive: true });
    copyFileSync(source, join(copyDirectory, file));
  }
  symlinkSync(join(REPOSITORY_ROOT, 'node_modules'), join(copyDirectory, 'node_modules'), 'dir');
  return copyDirectory;
}

beforeAll(() => {
  const freshClone = freshCopyOfRepository();
  expect(existsSync(join(freshClone, 'dist'))).toBe(false);
  const packOutput = execFileSync('npm', ['pack', '--json', '--pack-destination', workDirectory], {
    cwd: freshClone,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const [packed] = JSON.parse(packOutput) as [{ filename: string; files: { path: string }[] }];
  tarball = join(workDirectory, packed.filename);
  packedFiles = packed.files.map((file) => file.path);

  writeConsumerFile('package.json', `${JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2)}\n`);
  const install = run(
    'npm',
    [
      'install',
      tarball,
      `eslint@${ESLINT_VERSION}`,
      `typescript@${TYPESCRIPT_VERSION}`,
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      '--loglevel=error',
    ],
    consumerDirectory,
  );
  if (install.status !== 0) throw new Error(`npm install in the consumer project failed:\n${describeRun(install)}`);

  writeConsumerFile(
    'eslint.config.js',
    `import toolResultGuard from 'tool-result-guard/eslint-plugin';\n\nexport default [toolResultGuard.configs.recommended];\n`,
  );
  writeConsumerFile('src/tools/tool-factory.ts', TOOL_FACTORY);
  writeConsumerFile('src/tools/read-file.ts', SELF_READING_TOOL);
  writeConsumerFile('src/tools/view-file.ts', UNBOUNDED_READING_TOOL);
  writeConsumerFile('src/tools/weather.ts', API_TOOL);
  for (const { file, text } of Object.values(DEFECT_PER_RECOMMENDED_RULE)) writeConsumerFile(file, text);
  writeConsumerFile('typed/classified.ts', CLASSIFIED_DEFINE_TOOL);
  writeConsumerFile('typed/misclassified.ts', MISCLASSIFIED_DEFINE_TOOL);
  writeConsumerFile('typed/runtime-without-frameworks.ts', RUNTIME_WITHOUT_FRAMEWORKS);
  writeConsumerFile('forbid-tooling-hooks.mjs', FORBID_TOOLING_HOOKS);
  writeConsumerFile('import-runtime.mjs', IMPORT_RUNTIME_SCRIPT);
}, 600_000);

afterAll(() => {
  rmSync(workDirectory, { recursive: true, force: true });
});

describe('the packed tarball', () => {
  it('holds the build, the docs and the README, and no sources, tests or caches', () => {
    for (const entry of [
      'package.json',
      'README.md',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/eslint-plugin.js',
      'dist/codemods/index.js',
      'dist/cli/bin.js',
    ]) {
      expect(packedFiles).toContain(entry);
    }
    expect(packedFiles.filter((file) => /^(src|tests|scripts|bench|examples|\.cache|node_modules)\//.test(file))).toEqual([]);
  });

  it('passes publint (strict: warnings count as errors)', () => {
    const result = run(join(REPOSITORY_ROOT, 'node_modules', '.bin', 'publint'), ['run', tarball, '--strict'], REPOSITORY_ROOT);
    expect(result.status, describeRun(result)).toBe(0);
  }, 120_000);

  it('passes arethetypeswrong with the ESM-only profile', () => {
    const result = run(
      join(REPOSITORY_ROOT, 'node_modules', '.bin', 'attw'),
      [tarball, '--profile', 'esm-only', '--format', 'table-flipped'],
      REPOSITORY_ROOT,
    );
    expect(result.status, describeRun(result)).toBe(0);
  }, 120_000);
});

describe('installed in a fresh project', () => {
  it('has a defect for every rule of configs.recommended', () => {
    expect(['require-unbounded-self-reading-tool', ...Object.keys(DEFECT_PER_RECOMMENDED_RULE)].sort()).toEqual(
      Object.keys(plugin.configs.recommended.rules)
        .map((ruleId) => ruleId.replace(/^tool-result-guard\//, ''))
        .sort(),
    );
  });

  it('eslint with configs.recommended reports each recommended rule on its defect, and the correct tools not at all', () => {
    const result = run('npx', ['--no-install', 'eslint', '--format', 'json', 'src'], consumerDirectory);
    // 1: lint errors found (2 would be a crash or a config that does not load).
    expect(result.status, describeRun(result)).toBe(1);
    const results = JSON.parse(result.stdout) as {
      filePath: string;
      messages: { ruleId: string | null; message: string; fatal?: boolean }[];
    }[];
    const rulesByFile = Object.fromEntries(
      results
        .filter((file) => file.messages.length > 0)
        .map((file) => [
          file.filePath.slice(consumerDirectory.length + 1),
          [...new Set(file.messages.map((message) => message.ruleId))].sort(),
        ]),
    );
    expect(rulesByFile).toEqual({
      'src/tools/read-file.ts': ['tool-result-guard/require-unbounded-self-reading-tool'],
      ...Object.fromEntries(
        Object.entries(DEFECT_PER_RECOMMENDED_RULE).map(([ruleName, { file }]) => [file, [`tool-result-guard/${ruleName}`]]),
      ),
    });
    const readFileMessages = results.find((file) => file.filePath.endsWith('read-file.ts'))?.messages ?? [];
    expect(readFileMessages).toHaveLength(1);
    expect(readFileMessages[0]?.message).toMatch(/read_file[\s\S]*readFile[\s\S]*Infinity/);
  }, 120_000);

  it("eslint with configs['recommended-type-checked'] lints a project with a tsconfig, its own eslint.config.js included", () => {
    // The README's quick start with the type-checked config: the tsconfig covers
    // src/ only, as most do; the config file and root scripts are outside it.
    writeConsumerFile(
      'type-checked/tsconfig.json',
      `${JSON.stringify({ compilerOptions: { strict: true, module: 'nodenext', target: 'es2023', noEmit: true }, include: ['src'] }, null, 2)}\n`,
    );
    writeConsumerFile(
      'type-checked/eslint.config.js',
      `import toolResultGuard from 'tool-result-guard/eslint-plugin';\n\nexport default [toolResultGuard.configs['recommended-type-checked']];\n`,
    );
    writeConsumerFile('type-checked/scripts.config.mjs', 'export default { name: "a root script outside the tsconfig" };\n');
    writeConsumerFile('type-checked/src/tool-factory.ts', TOOL_FACTORY);
    writeConsumerFile('type-checked/src/read-file.ts', SELF_READING_TOOL);
    const result = run('npx', ['--no-install', 'eslint', '--format', 'json', '.'], join(consumerDirectory, 'type-checked'));
    expect(result.status, describeRun(result)).toBe(1);
    const results = JSON.parse(result.stdout) as {
      filePath: string;
      messages: { ruleId: string | null; message: string; fatal?: boolean }[];
    }[];
    const messagesByFile = Object.fromEntries(
      results.map((file) => [
        file.filePath.slice(consumerDirectory.length + 1),
        file.messages.map((message) => message.ruleId ?? message.message),
      ]),
    );
    expect(messagesByFile).toEqual({
      'type-checked/eslint.config.js': [],
      'type-checked/scripts.config.mjs': [],
      'type-checked/src/tool-factory.ts': [],
      'type-checked/src/read-file.ts': ['tool-result-guard/require-unbounded-self-reading-tool'],
    });
  }, 120_000);

  it('tsc compiles correctly classified defineTool calls', () => {
    const result = run(
      'npx',
      [
        '--no-install',
        'tsc',
        '--noEmit',
        '--strict',
        '--module',
        'nodenext',
        '--target',
        'es2023',
        '--skipLibCheck',
        'typed/classified.ts',
      ],
      consumerDirectory,
    );
    expect(result.status, describeRun(result)).toBe(0);
  }, 120_000);

  it('tsc compiles the runtime entry without skipLibCheck in a project that installed no framework (ai, @openai/agents, MCP, the SDKs)', () => {
    for (const framework of ['ai', '@openai/agents', '@modelcontextprotocol/sdk', '@anthropic-ai/sdk', 'openai']) {
      expect(existsSync(join(consumerDirectory, 'node_modules', framework)), framework).toBe(false);
    }
    const result = run(
      'npx',
      ['--no-install', 'tsc', '--noEmit', '--strict', '--module', 'nodenext', '--target', 'es2023', 'typed/runtime-without-frameworks.ts'],
      consumerDirectory,
    );
    expect(result.status, describeRun(result)).toBe(0);
  }, 120_000);

  it('tsc fails on a misclassified defineTool with the documented message', () => {
    const result = run(
      'npx',
      [
        '--no-install',
        'tsc',
        '--noEmit',
        '--strict',
        '--module',
        'nodenext',
        '--target',
        'es2023',
        '--skipLibCheck',
        '--pretty',
        'false',
        'typed/misclassified.ts',
      ],
      consumerDirectory,
    );
    expect(result.status, describeRun(result)).not.toBe(0);
    const errors = result.stdout.split('\n').filter((line) => /error TS\d+:/.test(line));
    // One error, on the limit, and its text is the instruction (src/types/messages.ts).
    expect(errors, result.stdout).toHaveLength(1);
    expect(errors[0]).toMatch(/^typed\/misclassified\.ts\(\d+,\d+\): error TS\d+:/);
    expect(result.stdout).toContain('A tool that reads a path, URL or resource the model names must declare maxResultSizeChars: UNBOUNDED');
  }, 120_000);

  it('npx tool-result-guard migrate --dry-run prints a unified diff, writes nothing and exits 2', () => {
    const before = readFileSync(join(consumerDirectory, 'src/tools/read-file.ts'), 'utf8');
    const result = run('npx', ['--no-install', 'tool-result-guard', 'migrate', '--dry-run', 'src'], consumerDirectory);
    expect(result.status, describeRun(result)).toBe(2);
    expect(result.stdout).toMatch(/^--- .*src\/tools\/read-file\.ts$/m);
    expect(result.stdout).toMatch(/^\+\+\+ .*src\/tools\/read-file\.ts$/m);
    expect(result.stdout).toMatch(/^@@ -\d+(,\d+)? \+\d+(,\d+)? @@/m);
    expect(result.stdout).toMatch(/^-\s+maxResultSizeChars: 100_000,$/m);
    expect(result.stdout).toMatch(/^\+\s+maxResultSizeChars: Infinity,$/m);
    expect(readFileSync(join(consumerDirectory, 'src/tools/read-file.ts'), 'utf8')).toBe(before);
  }, 180_000);

  it('importing tool-result-guard loads no eslint, typescript, ts-morph or other tooling', () => {
    const result = run(process.execPath, ['import-runtime.mjs'], consumerDirectory);
    expect(result.status, describeRun(result)).toBe(0);
    const { exports, loadedTooling } = JSON.parse(result.stdout) as { exports: string[]; loadedTooling: string[] };
    expect(loadedTooling).toEqual([]);
    expect(exports).toEqual(expect.arrayContaining(['UNBOUNDED', 'defineTool', 'ToolResultStore', 'getEffectivePersistenceThreshold']));
  }, 60_000);
});
