import type { TSESLint } from '@typescript-eslint/utils';

import cloneStateOnFork from './clone-state-on-fork.js';
import declareToolStateScope from './declare-tool-state-scope.js';
import markSeenBeforeReplacement from './mark-seen-before-replacement.js';
import replaceOnlyAfterPersist from './replace-only-after-persist.js';
import persistOnlyOwnedSessions from './persist-only-owned-sessions.js';
import requireUnboundedSelfReadingTool from './require-unbounded-self-reading-tool.js';
import sentinelBeforeOverride from './sentinel-before-override.js';

/**
 * Every rule of the plugin, by name. Configs are generated from each rule's
 * `meta.docs`, so adding a rule here is all it takes to ship it.
 */
export const rules: Record<string, TSESLint.RuleModule<string, readonly unknown[]>> = {
  'require-unbounded-self-reading-tool': requireUnboundedSelfReadingTool,
  'sentinel-before-override': sentinelBeforeOverride,
  'persist-only-owned-sessions': persistOnlyOwnedSessions,
  'declare-tool-state-scope': declareToolStateScope,
  'mark-seen-before-replacement': markSeenBeforeReplacement,
  'replace-only-after-persist': replaceOnlyAfterPersist,
  'clone-state-on-fork': cloneStateOnFork,
};
