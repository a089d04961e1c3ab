// ESLint 10 lints in worker threads with `--concurrency`: each worker loads
// eslint.config.js and the plugin on its own, so the plugin and its configs
// must load there (no state shared through the main thread) and every worker
// must reach the same verdicts. Same files, same config, one thread vs two:
// the findings must be identical.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { CORPUS, REPOSITORY_ROOT, corpusPackageDirectory } from '../../scripts/corpus.mjs';

interface EslintJsonMessage {
  ruleId: string | null;
  severity: number;
  fatal?: boolean;
  message: string;
  line?: number;
  column?: number;
  endLine?: number;
  endColumn?: number;
}

interface EslintJsonResult {
  filePath: string;
  messages: EslintJsonMessage[];
}

const workDirectory = join(REPOSITORY_ROOT, '.cache', `eslint-concurrency-${process.pid}`);
const configFile = join(workDirectory, 'eslint.config.mjs');
const eslintBin = join(REPOSITORY_ROOT, 'node_modules', 'eslint', 'bin', 'eslint.js');

// Every package where the rules find things, and the bundled example: about
// 3,500 files, enough for both workers to take many files each. The whole
// corpus runs single-threaded in tests/real-world/corpus.test.ts.
const AGENT_PACKAGES = ['@google/gemini-cli-core', '@modelcontextprotocol/server-filesystem', '@langchain/community', '@mastra/core'];
const targets = [
  ...CORPUS.filter((entry) => AGENT_PACKAGES.includes(entry.name)).flatMap((entry) =>
    entry.lint.map((folder) => relative(REPOSITORY_ROOT, join(corpusPackageDirectory(entry), folder))),
  ),
  'examples/agent-harness',
];

function lintWithConcurrency(concurrency: 'off' | '2'): { results: EslintJsonResult[]; stderr: string; status: number | null } {
  const outputFile = join(workDirectory, `results-${concurrency}.json`);
  const run = spawnSync(
    process.execPath,
    [eslintBin, '--config', configFile, `--concurrency=${concurrency}`, '--format', 'json', '--output-file', outputFile, ...targets],
    { cwd: REPOSITORY_ROOT, encoding: 'utf8' },
  );
  const results = run.status === 0 || run.status === 1 ? (JSON.parse(readFileSync(outputFile, 'utf8')) as EslintJsonResult[]) : [];
  return { results, stderr: run.stderr, status: run.status };
}

/** Order-independent: workers finish files in any order. */
function findingsByFile(results: readonly EslintJsonResult[]): [string, string[]][] {
  return results
    .map((result): [string, string[]] => [
      relative(REPOSITORY_ROOT, result.filePath),
      result.messages.map(
        (message) =>
          `${message.line}:${message.column}-${message.endLine}:${message.endColumn} ${message.ruleId} [${message.severity}] ${message.message}`,
      ),
    ])
    .sort(([a], [b]) => a.localeCompare(b));
}

describe('eslint --concurrency=2 with the built plugin', () => {
  beforeAll(() => {
    mkdirSync(workDirectory, { recursive: true });
    // Imported by package name through the export map, as a user's config does.
    writeFileSync(
      configFile,
      [
        "import toolResultGuard from 'tool-result-guard/eslint-plugin';",
        '',
        'export default [',
        '  toolResultGuard.configs.all,',
        "  { linterOptions: { reportUnusedDisableDirectives: 'off' } },",
        '];',
        '',
      ].join('\n'),
    );
  });

  afterAll(() => {
    rmSync(workDirectory, { recursive: true, force: true });
  });

  it('reports exactly the findings of a single-threaded run', () => {
    const singleThread = lintWithConcurrency('off');
    const twoThreads = lintWithConcurrency('2');

    expect(singleThread.status, singleThread.stderr).toBeOneOf([0, 1]);
    expect(twoThreads.status, twoThreads.stderr).toBeOneOf([0, 1]);
    expect(twoThreads.status).toBe(singleThread.status);

    const single = findingsByFile(singleThread.results);
    const parallel = findingsByFile(twoThreads.results);
    expect(parallel.length).toBe(single.length);
    expect(single.length).toBeGreaterThan(3_400);
    expect(parallel).toEqual(single);

    // Identical and non-empty: the rules really ran in the workers.
    const findings = single.flatMap(([, messages]) => messages);
    console.log(`eslint --concurrency=2 vs off: ${single.length} files, ${findings.length} messages, identical`);
    expect(findings.filter((finding) => / tool-result-guard\//.test(finding)).length).toBeGreaterThan(0);
    expect(findings.filter((finding) => / null /.test(finding))).toEqual([]);
  }, 600_000);
});
