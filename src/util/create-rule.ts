import { ESLintUtils } from '@typescript-eslint/utils';

export const DOCS_BASE_URL = 'https://github.com/tool-result-guard/tool-result-guard/blob/main/docs/rules';

export interface ToolResultGuardRuleDocs {
  description: string;
  /** Which generated config first includes the rule. */
  recommended?: 'recommended' | 'strict';
  requiresTypeChecking?: boolean;
  /** Options the `strict` and `all` configs pass instead of the defaults. */
  strictOptions?: unknown[];
}

export const createRule = ESLintUtils.RuleCreator<ToolResultGuardRuleDocs>(
  (name) => `${DOCS_BASE_URL}/${name}.md`,
);
