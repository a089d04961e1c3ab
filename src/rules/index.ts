import { type PrefilterOptions, passesTextTest } from '../recognition/findings-prefilter.js';
import type { RecognitionSettings } from '../recognition/settings.js';
import type { ToolResultGuardRule } from '../util/create-rule.js';
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
export const rules: Record<string, ToolResultGuardRule> = {
  'require-unbounded-self-reading-tool': requireUnboundedSelfReadingTool,
  'sentinel-before-override': sentinelBeforeOverride,
  'persist-only-owned-sessions': persistOnlyOwnedSessions,
  'declare-tool-state-scope': declareToolStateScope,
  'mark-seen-before-replacement': markSeenBeforeReplacement,
  'replace-only-after-persist': replaceOnlyAfterPersist,
  'clone-state-on-fork': cloneStateOnFork,
};

/**
 * Can linting `text` with any of the named rules report anything? Each rule
 * answers with its own prefilter (`mayReport`, the one its `create` applies),
 * so the codemods, which skip ESLint for files no rule can report on, can
 * never skip a file a rule would report on. A name that is no rule of the
 * plugin answers `true`.
 */
export function mayProduceFindings(
  text: string,
  ruleNames: readonly string[],
  settings: RecognitionSettings,
  options: PrefilterOptions = {},
): boolean {
  return ruleNames.some((ruleName) => {
    const rule = Object.hasOwn(rules, ruleName) ? rules[ruleName] : undefined;
    return rule === undefined || passesTextTest(rule.mayReport, text, settings, options);
  });
}
