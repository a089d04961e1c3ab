// The seed-002 rule docs stay true: the sections every rule doc has, and each
// code block under "### Incorrect" is reported by its rule while each block
// under "### Correct" is not.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import * as typescriptParser from '@typescript-eslint/parser';
import { type ESLint, Linter } from 'eslint';
import { describe, expect, it } from 'vitest';

import { rules } from '../../src/rules/index.js';

const docsDirectory = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/rules');
const RULE_NAMES = ['mark-seen-before-replacement', 'replace-only-after-persist', 'clone-state-on-fork'];

/** Code blocks by the `###` heading they sit under. */
function codeBlocksUnder(markdown: string, heading: string): string[] {
  const section = markdown.split(/^### /m).find((part) => part.startsWith(`${heading}\n`)) ?? '';
  return [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
}

function findingsOf(ruleName: string, code: string): Linter.LintMessage[] {
  const linter = new Linter();
  return linter.verify(
    code,
    [
      {
        files: ['**/*.ts'],
        plugins: { guard: { rules } as unknown as ESLint.Plugin },
        languageOptions: { parser: typescriptParser },
        rules: { [`guard/${ruleName}`]: 'error' },
      },
    ],
    'example.ts',
  );
}

describe.each(RULE_NAMES)('docs/rules/%s.md', (ruleName) => {
  const markdown = readFileSync(path.join(docsDirectory, `${ruleName}.md`), 'utf8');

  it('starts with the rule name and its description, and has the usual sections', () => {
    expect(markdown.startsWith(`# ${ruleName}\n\n${rules[ruleName]?.meta.docs?.description}.`)).toBe(true);
    for (const section of ['## Rule details', '## Options', '## When Not To Use It']) expect(markdown).toContain(section);
  });

  it('has incorrect examples that are reported', () => {
    const blocks = codeBlocksUnder(markdown, 'Incorrect');
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) {
      const findings = findingsOf(ruleName, block);
      expect(
        findings.filter((finding) => finding.fatal),
        block,
      ).toEqual([]);
      expect(findings.length, block).toBeGreaterThan(0);
    }
  });

  it('has correct examples that are not', () => {
    const blocks = codeBlocksUnder(markdown, 'Correct');
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) expect(findingsOf(ruleName, block), block).toEqual([]);
  });
});
