import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, repositoryRoot } from './dist.js';
import { makeTemporaryRoot } from './helpers.js';

// Agent harnesses import `tool-result-guard` at run time: loading it must not
// drag in the linting and codemod stack (megabytes, seconds of start-up).
const FORBIDDEN = /[\\/]node_modules[\\/](eslint|typescript|@typescript-eslint[\\/][^\\/]+|ts-morph|@ts-morph[\\/][^\\/]+)[\\/]/;

let entry = '';
beforeAll(() => {
  entry = ensureBuilt().entry;
});

/**
 * Loads `specifier` in a fresh node process and lists every module it
 * loaded: ESM through a resolve hook (module.register), CommonJS through
 * require.cache (a CJS package's own require calls bypass ESM hooks).
 */
function modulesLoadedBy(specifier: string, alsoImport?: string): string[] {
  const folder = makeTemporaryRoot('trg-entry-');
  const hooks = path.join(folder, 'hooks.mjs');
  writeFileSync(
    hooks,
    `const resolved = [];
export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'trg:resolved-modules') {
    return { url: 'data:text/javascript,export default ' + encodeURIComponent(JSON.stringify(resolved)), shortCircuit: true };
  }
  const result = await nextResolve(specifier, context);
  resolved.push(result.url);
  return result;
}
`,
  );
  const main = path.join(folder, 'main.mjs');
  writeFileSync(
    main,
    `import { register, createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
register(${JSON.stringify(pathToFileURL(hooks).href)});
await import(${JSON.stringify(specifier)});
${alsoImport ? `await import(${JSON.stringify(alsoImport)});` : ''}
const { default: resolved } = await import('trg:resolved-modules');
const esm = resolved.filter((url) => url.startsWith('file:')).map((url) => fileURLToPath(url));
const cjs = Object.keys(createRequire(import.meta.url).cache);
process.stdout.write(JSON.stringify([...esm, ...cjs]));
`,
  );
  const output = execFileSync(process.execPath, [main], { cwd: repositoryRoot, encoding: 'utf8' });
  return JSON.parse(output) as string[];
}

describe('the runtime entry (dist/index.js)', () => {
  it('loads none of eslint, typescript, @typescript-eslint/* or ts-morph', () => {
    const loaded = modulesLoadedBy(pathToFileURL(entry).href);
    expect(loaded.some((file) => file.endsWith(path.join('dist', 'index.js')))).toBe(true);
    expect(loaded.some((file) => file.endsWith(path.join('dist', 'runtime', 'budget.js')))).toBe(true);
    expect(loaded.filter((file) => FORBIDDEN.test(file))).toEqual([]);
  });

  it('would notice if it did (the detector sees typescript when it is imported)', () => {
    const typescriptUrl = pathToFileURL(createRequire(path.join(repositoryRoot, 'package.json')).resolve('typescript')).href;
    const loaded = modulesLoadedBy(pathToFileURL(entry).href, typescriptUrl);
    expect(loaded.filter((file) => FORBIDDEN.test(file)).length).toBeGreaterThan(0);
  });

  it('exports the runtime contract', async () => {
    const runtime = (await import(pathToFileURL(entry).href)) as Record<string, unknown>;
    for (const name of [
      'UNBOUNDED',
      'getEffectivePersistenceThreshold',
      'shouldPersistForSession',
      'ToolResultStore',
      'createReplacementState',
      'cloneReplacementState',
      'reconstructReplacementState',
      'markSeen',
      'recordReplacement',
      'applyToolResultBudget',
      'applyToolResultBudgetToAnthropicMessage',
      'applyToolResultBudgetToOpenAIMessages',
      'applyToolResultBudgetToOpenAIResponsesInput',
      'ToolResultBudgetSession',
    ]) {
      expect(runtime, name).toHaveProperty(name);
    }
    expect(runtime['UNBOUNDED']).toBe(Infinity);
  });
});

// The frameworks are optional peers, used for their types only: neither the
// runtime entry nor an integration's own entry may load one at run time, so
// a harness without `ai` (or @openai/agents, or the MCP SDK) can import them.
const FRAMEWORKS =
  /[\\/]node_modules[\\/](ai|@ai-sdk[\\/][^\\/]+|@openai[\\/][^\\/]+|openai|@anthropic-ai[\\/][^\\/]+|@modelcontextprotocol[\\/][^\\/]+)[\\/]/;

describe('the integrations load no framework', () => {
  it('the runtime entry loads none', () => {
    expect(modulesLoadedBy(pathToFileURL(entry).href).filter((file) => FRAMEWORKS.test(file))).toEqual([]);
  });

  for (const [subpath, exported] of [
    ['ai-sdk', 'toolResultBudget'],
    ['openai-agents', 'toolResultBudgetFilter'],
    ['mcp-client', 'guardMcpToolResults'],
  ] as const) {
    it(`tool-result-guard/${subpath} loads none and exports ${exported}`, async () => {
      const file = path.join(path.dirname(entry), 'runtime', 'integrations', `${subpath}.js`);
      const loaded = modulesLoadedBy(pathToFileURL(file).href);
      expect(loaded.filter((loadedFile) => FRAMEWORKS.test(loadedFile) || FORBIDDEN.test(loadedFile))).toEqual([]);
      expect(await import(pathToFileURL(file).href)).toHaveProperty(exported);
    });
  }

  it('would notice if one did (the detector sees ai when it is imported)', () => {
    const aiUrl = pathToFileURL(createRequire(path.join(repositoryRoot, 'package.json')).resolve('ai')).href;
    expect(modulesLoadedBy(pathToFileURL(entry).href, aiUrl).filter((file) => FRAMEWORKS.test(file)).length).toBeGreaterThan(0);
  });
});
