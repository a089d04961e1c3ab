import { ESLintUtils, type TSESLint } from '@typescript-eslint/utils';

import { type TextTest, ruleMayReport } from '../recognition/findings-prefilter.js';

export const DOCS_BASE_URL = 'https://github.com/tool-result-guard/tool-result-guard/blob/main/docs/rules';

export interface ToolResultGuardRuleDocs {
  description: string;
  /** Which generated config first includes the rule. */
  recommended?: 'recommended' | 'strict';
  requiresTypeChecking?: boolean;
  /** Options the `strict` and `all` configs pass instead of the defaults. */
  strictOptions?: unknown[];
}

const createDocumentedRule = ESLintUtils.RuleCreator<ToolResultGuardRuleDocs>((name) => `${DOCS_BASE_URL}/${name}.md`);

type RuleDefinition<Options extends readonly unknown[], MessageIds extends string> = Parameters<
  typeof createDocumentedRule<Options, MessageIds>
>[0];

/** A rule of the plugin: an ESLint rule that carries its own text prefilter. */
export type ToolResultGuardRule<
  MessageIds extends string = string,
  Options extends readonly unknown[] = readonly unknown[],
> = TSESLint.RuleModule<MessageIds, Options, ToolResultGuardRuleDocs> & {
  /**
   * The cheapest necessary condition of the rule's reports on a file's
   * text (recognition/findings-prefilter.ts): `false` means the rule can
   * report nothing there. The rule applies it itself; the codemods ask it
   * to skip ESLint for files no rule can report on.
   */
  readonly mayReport: TextTest;
};

/**
 * typescript-eslint's `RuleCreator` (docs URL, options with defaults) plus
 * the rule's own prefilter: `create` runs only on files whose text passes
 * `mayReport`, so the rule, its name and its filter cannot drift apart. The
 * filter runs first: the options are merged with their defaults (a deep
 * copy, per rule and file) only for the files a rule can report on.
 */
export function createRule<Options extends readonly unknown[], MessageIds extends string>({
  mayReport,
  ...definition
}: RuleDefinition<Options, MessageIds> & { mayReport: TextTest }): ToolResultGuardRule<MessageIds, Options> {
  const rule = createDocumentedRule<Options, MessageIds>(definition);
  return {
    ...rule,
    create: (context) => (ruleMayReport(context, mayReport) ? rule.create(context) : {}),
    mayReport,
  };
}
