import { createRequire } from 'node:module';

import * as typescriptParser from '@typescript-eslint/parser';
import type { TSESLint } from '@typescript-eslint/utils';

import { rules } from './rules/index.js';
import type { ToolResultGuardRuleDocs } from './util/create-rule.js';

const packageJson = createRequire(import.meta.url)('../package.json') as { name: string; version: string };

export const PLUGIN_NAMESPACE = 'tool-result-guard';

type ConfigName = 'recommended' | 'strict' | 'recommended-type-checked' | 'all';

interface FlatConfig {
  name: string;
  files: string[];
  plugins: Record<string, unknown>;
  languageOptions: {
    parser: unknown;
    parserOptions?: Record<string, unknown>;
  };
  rules: Record<string, TSESLint.Linter.RuleEntry>;
}

const SOURCE_FILES = ['**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}'];

/**
 * The type-checked config asks typescript-eslint's project service for types.
 * A project's tsconfig seldom covers the JavaScript files at its root
 * (`eslint.config.js` itself, `*.config.mjs`), and the project service
 * refuses files no program covers; those get its default project instead, as
 * typescript-eslint's own docs advise. TypeScript files outside every
 * tsconfig are still refused: add them to a tsconfig, or lint them with
 * `configs.recommended`.
 */
const TYPE_CHECKED_PROJECT_SERVICE = { allowDefaultProject: ['*.js', '*.mjs', '*.cjs'] };

interface Plugin {
  meta: { name: string; version: string; namespace: string };
  rules: typeof rules;
  configs: Record<ConfigName, FlatConfig>;
}

const plugin: Plugin = {
  meta: { name: packageJson.name, version: packageJson.version, namespace: PLUGIN_NAMESPACE },
  rules,
  configs: {} as Record<ConfigName, FlatConfig>,
};

function docsOf(rule: (typeof rules)[string]): ToolResultGuardRuleDocs {
  return (rule.meta.docs ?? { description: '' }) as ToolResultGuardRuleDocs;
}

/** Builds a config from the rules' own meta, so no rule can be forgotten in a list. */
function generateConfig(
  name: ConfigName,
  include: (docs: ToolResultGuardRuleDocs) => boolean,
  { strict, typeChecked }: { strict: boolean; typeChecked: boolean },
): FlatConfig {
  const ruleEntries: Record<string, TSESLint.Linter.RuleEntry> = {};
  for (const [ruleName, rule] of Object.entries(rules)) {
    const docs = docsOf(rule);
    if (!include(docs)) continue;
    if (docs.requiresTypeChecking && !typeChecked) continue;
    const options = strict ? docs.strictOptions : undefined;
    ruleEntries[`${PLUGIN_NAMESPACE}/${ruleName}`] = options ? ['error', ...options] : 'error';
  }
  return {
    name: `${PLUGIN_NAMESPACE}/${name}`,
    files: SOURCE_FILES,
    plugins: { [PLUGIN_NAMESPACE]: plugin },
    languageOptions: {
      parser: typescriptParser,
      ...(typeChecked ? { parserOptions: { projectService: TYPE_CHECKED_PROJECT_SERVICE } } : {}),
    },
    rules: ruleEntries,
  };
}

const isRecommended = (docs: ToolResultGuardRuleDocs): boolean => docs.recommended === 'recommended';
const isRecommendedOrStrict = (docs: ToolResultGuardRuleDocs): boolean => docs.recommended !== undefined;

plugin.configs = {
  recommended: generateConfig('recommended', isRecommended, { strict: false, typeChecked: false }),
  strict: generateConfig('strict', isRecommendedOrStrict, { strict: true, typeChecked: false }),
  'recommended-type-checked': generateConfig('recommended-type-checked', isRecommended, {
    strict: false,
    typeChecked: true,
  }),
  all: generateConfig('all', () => true, { strict: true, typeChecked: false }),
};

export default plugin;
