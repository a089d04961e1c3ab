// Every rule ships with its doc, its test and its URL, the way typescript-eslint
// (tests/docs.test.mts) and eslint-plugin-eslint-plugin (tests/lib/rule-setup)
// keep theirs honest: the sections a user looks for are there, one heading per
// option, `meta.docs.url` points at the file, the "Incorrect" examples really
// are reported and the "Correct" ones are not, and src/rules, tests/rules and
// docs/rules name the same rules.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import * as typescriptParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';

import { rules } from '../src/rules/index.js';
import { DOCS_BASE_URL } from '../src/util/create-rule.js';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const docsDirectory = path.join(root, 'docs', 'rules');

const REQUIRED_SECTIONS = [/^## Rule details$/im, /^### Incorrect$/im, /^### Correct$/im, /^## Options$/im, /^## When not to use it$/im];

interface CodeBlock {
  section: 'incorrect' | 'correct';
  code: string;
}

/** The ```ts blocks under "### Incorrect" and "### Correct", until the next heading of level 2 or 3. */
function examples(markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  let section: CodeBlock['section'] | undefined;
  const lines = markdown.split('\n');
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index]!;
    if (/^#{2,3} /.test(line)) {
      section = /^### Incorrect$/i.test(line) ? 'incorrect' : /^### Correct$/i.test(line) ? 'correct' : undefined;
      continue;
    }
    if (section && /^```(ts|typescript|js)$/.test(line)) {
      const body: string[] = [];
      for (index += 1; index < lines.length && lines[index] !== '```'; index += 1) body.push(lines[index]!);
      blocks.push({ section, code: body.join('\n') });
    }
  }
  return blocks;
}

function optionNames(rule: (typeof rules)[string]): string[] {
  const schema = rule.meta.schema;
  const first = Array.isArray(schema) ? schema[0] : undefined;
  const properties = (first as { properties?: Record<string, unknown> } | undefined)?.properties;
  return properties ? Object.keys(properties) : [];
}

function lint(ruleName: string, code: string): Linter.LintMessage[] {
  const linter = new Linter({ configType: 'flat' });
  return linter.verify(
    code,
    [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: typescriptParser as Linter.Parser },
        plugins: { 'tool-result-guard': { rules } as never },
        rules: { [`tool-result-guard/${ruleName}`]: 'error' },
      },
    ],
    'example.ts',
  );
}

describe('rule docs', () => {
  for (const [ruleName, rule] of Object.entries(rules)) {
    describe(ruleName, () => {
      const docPath = path.join(docsDirectory, `${ruleName}.md`);
      const markdown = existsSync(docPath) ? readFileSync(docPath, 'utf8') : '';

      it('has a doc that meta.docs.url points at', () => {
        expect(existsSync(docPath), `${docPath} is missing`).toBe(true);
        expect(rule.meta.docs?.url).toBe(`${DOCS_BASE_URL}/${ruleName}.md`);
      });

      it('starts with its name and its description', () => {
        const [title, , description] = markdown.split('\n');
        expect(title).toBe(`# ${ruleName}`);
        // The doc's sentence may end with a period; ESLint's descriptions do not.
        expect(description?.replace(/\.$/, '')).toBe(rule.meta.docs?.description);
      });

      it('has the sections a user looks for', () => {
        for (const section of REQUIRED_SECTIONS) expect(markdown, String(section)).toMatch(section);
      });

      it('has one heading per option, or says it has none', () => {
        const options = optionNames(rule);
        const optionsSection = markdown.split(/^## Options$/m)[1]?.split(/^## /m)[0] ?? '';
        if (options.length === 0) {
          expect(optionsSection).toMatch(/This rule has no options\./);
          return;
        }
        const headings = [...optionsSection.matchAll(/^### `(\w+)`$/gm)].map((match) => match[1]);
        expect(headings.sort()).toEqual([...options].sort());
        // Each option's default is the rule's own (`meta.defaultOptions`, the typescript-eslint 8.72 place).
        const defaults = (rule.meta.defaultOptions?.[0] ?? {}) as Record<string, unknown>;
        for (const option of options) {
          const text = optionsSection.split(`### \`${option}\``)[1]?.split(/^### /m)[0] ?? '';
          expect(text, option).toContain(`Default \`${JSON.stringify(defaults[option])}\``);
        }
      });

      it('keeps its default options in meta (the top-level form is deprecated)', () => {
        expect((rule as { defaultOptions?: unknown }).defaultOptions).toBeUndefined();
        const hasOptions = Array.isArray(rule.meta.schema) ? rule.meta.schema.length > 0 : rule.meta.schema !== undefined;
        expect(rule.meta.defaultOptions !== undefined).toBe(hasOptions);
      });

      it('reports its incorrect examples and not its correct ones', () => {
        const blocks = examples(markdown);
        expect(blocks.some((block) => block.section === 'incorrect')).toBe(true);
        expect(blocks.some((block) => block.section === 'correct')).toBe(true);
        for (const block of blocks) {
          const messages = lint(ruleName, block.code);
          expect(
            messages.filter((message) => message.fatal),
            block.code,
          ).toEqual([]);
          const reported = messages.filter((message) => message.ruleId === `tool-result-guard/${ruleName}`);
          if (block.section === 'incorrect') expect(reported.length, `not reported:\n${block.code}`).toBeGreaterThan(0);
          else expect(reported, `reported:\n${block.code}`).toEqual([]);
        }
      });
    });
  }
});

describe('rule setup', () => {
  const ruleNames = Object.keys(rules).sort();
  const baseNames = (directory: string, extension: string): string[] =>
    readdirSync(path.join(root, directory))
      .filter((file) => file.endsWith(extension))
      .map((file) => file.slice(0, -extension.length))
      .sort();

  it('src/rules holds exactly the rules of the index', () => {
    expect(baseNames('src/rules', '.ts').filter((name) => name !== 'index')).toEqual(ruleNames);
  });

  it('tests/rules holds one test file per rule', () => {
    // Tests that exercise several rules together live in tests/integration.
    const testFiles = readdirSync(path.join(root, 'tests', 'rules')).filter((file) => file.endsWith('.test.ts'));
    expect(testFiles.map((file) => file.slice(0, -'.test.ts'.length)).sort()).toEqual(ruleNames);
  });

  it('docs/rules holds one doc per rule', () => {
    expect(baseNames('docs/rules', '.md').filter((name) => name !== 'README')).toEqual(ruleNames);
  });
});
