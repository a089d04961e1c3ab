// What the corpus test and the lint bench share: which files of the corpus
// are linted, the tsconfig that gives the TypeScript packages type
// information, and the rule sets built from the plugin's own configs.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { glob } from 'tinyglobby';

import { CORPUS, corpusPackageDirectory } from './corpus.mjs';

/** The extensions the plugin's configs lint (`SOURCE_FILES` in src/eslint-plugin.ts). */
export const LINTED_FILES_PATTERN = '**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}';

/** Named so nobody mistakes it for the package's own tsconfig (the packages ship none). */
export const GENERATED_TSCONFIG_NAME = 'tsconfig.tool-result-guard.json';

/** Every lintable file under the entry's `lint` folders, absolute, in a stable order. */
export async function corpusFiles(entry, directory = corpusPackageDirectory(entry)) {
  const files = await glob(
    entry.lint.map((folder) => `${folder}/${LINTED_FILES_PATTERN}`),
    { cwd: directory, absolute: true, ignore: ['**/node_modules/**'] },
  );
  return files.sort();
}

/** The corpus entries the lint bench lints in `mode`: all of them untyped, those with TypeScript sources typed. */
export function benchEntries(mode) {
  return mode === 'typed' ? CORPUS.filter((entry) => entry.typescript) : CORPUS;
}

/** `.d.ts`, `.d.mts`, `.d.cts`: declaration files, which the parser treats differently. */
export function isDeclarationFile(file) {
  return /\.d\.[cm]?ts$/.test(file);
}

/**
 * Writes (once, unchanged afterwards) a tsconfig next to the package's
 * sources that covers its `lint` folders, and returns its path. The packages'
 * own dependencies are not installed: imports that do not resolve become
 * `any`, which is exactly the partial type information users have in a
 * half-built workspace, and must not crash anything.
 */
export function writeCorpusTsconfig(entry, directory = corpusPackageDirectory(entry)) {
  const tsconfigPath = join(directory, GENERATED_TSCONFIG_NAME);
  const content = `${JSON.stringify(
    {
      compilerOptions: {
        target: 'ES2023',
        lib: ['ES2023', 'DOM', 'DOM.Iterable'],
        module: 'ESNext',
        moduleResolution: 'Bundler',
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        allowJs: false,
        // Keep the program to the package's own sources: the repository's
        // node_modules above the cache must not leak in through @types.
        types: [],
      },
      include: entry.lint.map((folder) => `${folder}/**/*.ts`),
    },
    null,
    2,
  )}\n`;
  if (!existsSync(tsconfigPath) || readFileSync(tsconfigPath, 'utf8') !== content) {
    writeFileSync(tsconfigPath, content);
  }
  return tsconfigPath;
}

/**
 * The rule entries of a config with every rule of the plugin: `configs.all`,
 * plus the rules that need type information, which `configs.all` leaves out
 * because it sets no project. Added rules get the options `all` would give
 * them (`meta.docs.strictOptions`).
 */
export function everyRuleEntries(plugin) {
  const entries = { ...plugin.configs.all.rules };
  for (const [ruleName, rule] of Object.entries(plugin.rules)) {
    const ruleId = `${plugin.meta.namespace}/${ruleName}`;
    if (ruleId in entries) continue;
    const strictOptions = rule.meta?.docs?.strictOptions;
    entries[ruleId] = strictOptions ? ['error', ...strictOptions] : 'error';
  }
  return entries;
}

/** Turns every rule of a config off, so a "no rules" run does the same parsing work and nothing else. */
export function withoutRules(config) {
  return { ...config, rules: {} };
}
