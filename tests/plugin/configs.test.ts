// The plugin object as ESLint and users see it: identity from package.json,
// configs generated from each rule's meta (so no rule can be forgotten in a
// list), and the `tool-result-guard/eslint-plugin` entry of the export map
// serving the same plugin from the build.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import * as typescriptParser from '@typescript-eslint/parser';
import { describe, expect, it } from 'vitest';

import { REPOSITORY_ROOT } from '../../scripts/corpus.mjs';
import plugin, { PLUGIN_NAMESPACE } from '../../src/eslint-plugin.js';
import type { ToolResultGuardRuleDocs } from '../../src/util/create-rule.js';

const packageJson = JSON.parse(readFileSync(join(REPOSITORY_ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
};

const ruleNames = Object.keys(plugin.rules).sort();
const docsOf = (ruleName: string): ToolResultGuardRuleDocs =>
  (plugin.rules[ruleName]?.meta.docs ?? { description: '' }) as ToolResultGuardRuleDocs;
const configuredRuleNames = (configName: keyof typeof plugin.configs): string[] =>
  Object.keys(plugin.configs[configName].rules)
    .map((ruleId) => ruleId.slice(`${PLUGIN_NAMESPACE}/`.length))
    .sort();

describe('the plugin object', () => {
  it('takes its name and version from package.json, so the cache key ESLint builds changes with each release', () => {
    expect(plugin.meta).toEqual({ name: packageJson.name, version: packageJson.version, namespace: PLUGIN_NAMESPACE });
    expect(PLUGIN_NAMESPACE).toBe('tool-result-guard');
  });

  it('ships rules, each with a description, a type and a docs URL named after the rule', () => {
    expect(ruleNames.length).toBeGreaterThan(0);
    for (const ruleName of ruleNames) {
      const rule = plugin.rules[ruleName]!;
      expect(rule.meta.docs?.description, ruleName).toMatch(/\S/);
      expect(['problem', 'suggestion', 'layout'], ruleName).toContain(rule.meta.type);
      expect(rule.meta.docs?.url, ruleName).toMatch(new RegExp(`/docs/rules/${ruleName}\\.md$`));
    }
  });

  it.each(Object.keys(plugin.configs))(
    'config %s is a flat config with the plugin, the TypeScript parser and only its own rules',
    (configName) => {
      const config = plugin.configs[configName as keyof typeof plugin.configs];
      expect(config.name).toBe(`${PLUGIN_NAMESPACE}/${configName}`);
      expect(config.plugins[PLUGIN_NAMESPACE]).toBe(plugin);
      expect(config.languageOptions.parser).toBe(typescriptParser);
      expect(config.files).toEqual(['**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}']);
      for (const [ruleId, entry] of Object.entries(config.rules)) {
        expect(ruleId.startsWith(`${PLUGIN_NAMESPACE}/`), ruleId).toBe(true);
        expect(ruleNames).toContain(ruleId.slice(`${PLUGIN_NAMESPACE}/`.length));
        expect(Array.isArray(entry) ? entry[0] : entry, ruleId).toBe('error');
      }
    },
  );
});

describe('configs generated from rule meta', () => {
  it('recommended: the rules marked recommended that work without type information', () => {
    expect(configuredRuleNames('recommended')).toEqual(
      ruleNames.filter((name) => docsOf(name).recommended === 'recommended' && !docsOf(name).requiresTypeChecking),
    );
  });

  it('strict: recommended and strict rules, with their strict options', () => {
    expect(configuredRuleNames('strict')).toEqual(
      ruleNames.filter((name) => docsOf(name).recommended !== undefined && !docsOf(name).requiresTypeChecking),
    );
    for (const name of configuredRuleNames('strict')) {
      const strictOptions = docsOf(name).strictOptions;
      expect(plugin.configs.strict.rules[`${PLUGIN_NAMESPACE}/${name}`]).toEqual(strictOptions ? ['error', ...strictOptions] : 'error');
    }
  });

  it('recommended-type-checked: every recommended rule, type-aware ones included, with a project service that also covers root-level config files', () => {
    expect(configuredRuleNames('recommended-type-checked')).toEqual(ruleNames.filter((name) => docsOf(name).recommended === 'recommended'));
    expect(plugin.configs['recommended-type-checked'].languageOptions.parserOptions).toEqual({
      // Root-level JavaScript (eslint.config.js, *.config.mjs) is outside most
      // tsconfigs; without a default project the config fails on its own file.
      projectService: { allowDefaultProject: ['*.js', '*.mjs', '*.cjs'] },
    });
  });

  it('all: every rule of the plugin, with the strict options', () => {
    expect(configuredRuleNames('all')).toEqual(ruleNames);
    for (const name of ruleNames) {
      const strictOptions = docsOf(name).strictOptions;
      expect(plugin.configs.all.rules[`${PLUGIN_NAMESPACE}/${name}`]).toEqual(strictOptions ? ['error', ...strictOptions] : 'error');
    }
  });

  it('the configs without a project hold no rule that needs type information', () => {
    for (const configName of ['recommended', 'strict', 'all'] as const) {
      for (const name of configuredRuleNames(configName)) {
        expect(docsOf(name).requiresTypeChecking ?? false, `${configName}: ${name}`).toBe(false);
      }
    }
  });
});

describe('the built entry point tool-result-guard/eslint-plugin', () => {
  it('resolves through the export map to the built plugin with the same rules and configs', async () => {
    // Self-reference by package name: the same resolution a user's eslint.config.js does.
    const { default: builtPlugin } = (await import('tool-result-guard/eslint-plugin')) as { default: typeof plugin };
    expect(builtPlugin.meta).toEqual(plugin.meta);
    expect(Object.keys(builtPlugin.rules).sort()).toEqual(ruleNames);
    expect(Object.keys(builtPlugin.configs).sort()).toEqual(Object.keys(plugin.configs).sort());
    for (const [configName, config] of Object.entries(builtPlugin.configs)) {
      expect(config.rules, configName).toEqual(plugin.configs[configName as keyof typeof plugin.configs].rules);
    }
  });
});
