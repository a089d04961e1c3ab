// RuleTesters shared by the seed-002 rule tests: one syntactic, one with type
// information from the fixture project (`tool-result-guard` mapped to a
// declaration file shaped like the runtime's).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { RuleTester } from '@typescript-eslint/rule-tester';

export const fixtureDirectory = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'replacement-state');

export const ruleTester = new RuleTester();

export const typedRuleTester = new RuleTester({
  languageOptions: {
    parserOptions: {
      projectService: true,
      tsconfigRootDir: fixtureDirectory,
    },
  },
});

/** Settings that name the fixture's own state type. */
export const ledgerSettings = { 'tool-result-guard': { stateTypeNames: ['BudgetLedger'] } };
