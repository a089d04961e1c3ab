/**
 * The rule↔codemod protocol, by rule name: what each rule a codemod
 * transform replays passes as `data` per message id, and the ids of its
 * suggestions. The rules declare these types beside their messages (and
 * check their `context.report` calls against them); the codemods read the
 * captured findings typed by them (`RuleFinding<'rule-name'>` in
 * `codemods/transform.ts`), so a value travels in `data`, never parsed back
 * out of a message or a suggestion's text.
 */
import type * as cloneStateOnFork from '../rules/clone-state-on-fork.js';
import type * as declareToolStateScope from '../rules/declare-tool-state-scope.js';
import type * as markSeenBeforeReplacement from '../rules/mark-seen-before-replacement.js';
import type * as requireUnboundedSelfReadingTool from '../rules/require-unbounded-self-reading-tool.js';
import type * as sentinelBeforeOverride from '../rules/sentinel-before-override.js';

/** One rule's side: `data` per report message id, and the suggestion message ids. */
export interface RuleProtocol {
  reports: object;
  suggestionIds: string;
}

export interface RuleProtocols {
  'require-unbounded-self-reading-tool': Protocol<
    requireUnboundedSelfReadingTool.ReportData,
    requireUnboundedSelfReadingTool.SuggestionIds
  >;
  'sentinel-before-override': Protocol<sentinelBeforeOverride.ReportData, never>;
  'mark-seen-before-replacement': Protocol<markSeenBeforeReplacement.ReportData, markSeenBeforeReplacement.SuggestionIds>;
  'clone-state-on-fork': Protocol<cloneStateOnFork.ReportData, cloneStateOnFork.SuggestionIds>;
  'declare-tool-state-scope': Protocol<declareToolStateScope.ReportData, declareToolStateScope.SuggestionIds>;
}

interface Protocol<Reports extends object, SuggestionIds extends string> extends RuleProtocol {
  reports: Reports;
  suggestionIds: SuggestionIds;
}

/** The rules a codemod transform can replay. */
export type ProtocolRuleName = keyof RuleProtocols;
