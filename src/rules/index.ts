import type { TSESLint } from '@typescript-eslint/utils';

import declareToolStateScope from './declare-tool-state-scope.js';
import requireUnboundedSelfReadingTool from './require-unbounded-self-reading-tool.js';

/**
 * Every rule of the plugin, by name. Configs are generated from each rule's
 * `meta.docs`, so adding a rule here is all it takes to ship it.
 */
export const rules: Record<string, TSESLint.RuleModule<string, readonly unknown[]>> = {
  'require-unbounded-self-reading-tool': requireUnboundedSelfReadingTool,
  'declare-tool-state-scope': declareToolStateScope,
};
