// The rules we ship, linted the way ESLint plugins should be: the project's
// own eslint.config.js applies eslint-plugin-eslint-plugin (meta, schemas,
// messageIds, fixable/hasSuggestions consistency) and typescript-eslint to
// src/rules. `npm run lint` covers the whole repository; this test keeps the
// rules' part inside `npm test`, so a rule cannot land with a meta mistake.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

import { REPOSITORY_ROOT } from '../../scripts/corpus.mjs';

describe("the plugin's own rules", () => {
  it('pass eslint-plugin-eslint-plugin and typescript-eslint with zero errors and warnings', async () => {
    const eslint = new ESLint({ cwd: REPOSITORY_ROOT });
    const config = (await eslint.calculateConfigForFile('src/rules/index.ts')) as { plugins?: Record<string, unknown> };
    // The check is only meaningful if eslint-plugin-eslint-plugin really applies to src/rules.
    expect(Object.keys(config.plugins ?? {})).toContain('eslint-plugin');

    const results = await eslint.lintFiles(['src/rules']);
    expect(results.length).toBeGreaterThan(0);
    const problems = results.flatMap((result) =>
      result.messages.map((message) => `${result.filePath}:${message.line}:${message.column} ${message.ruleId} ${message.message}`),
    );
    expect(problems).toEqual([]);
  }, 120_000);
});
