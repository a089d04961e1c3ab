import type { RuleTransform } from '../transform.js';
import { applyRuleSuggestions } from './rule-suggestions.js';

/**
 * `clone-on-fork`: the frozen-fates rule "clone or reconstruct the replacement
 * state for forks, subagents and resumes". The rule knows whose state it is
 * and which copy applies: one already in scope (its autofix), the state's own
 * `clone()` method, the harness's own `clone…State` from a module the file
 * imports state from, the runtime's `cloneReplacementState` from
 * tool-result-guard (for its own state only), or `structuredClone` (for a
 * harness's plain data); each comes with its import, merged into an existing
 * one. A harness's state that none of them copies safely is listed for review.
 */
export const cloneOnFork: RuleTransform<'clone-state-on-fork'> = {
  name: 'clone-on-fork',
  description: 'wraps replacement state handed to fork/subagent/resume calls in a clone, adding the import once',
  ruleName: 'clone-state-on-fork',
  run(input) {
    return applyRuleSuggestions(
      input.findings,
      // The autofix (a clone in scope) wins; then the state's own clone method; then the codebase's own clone; then
      // the runtime's (for its own state) or structuredClone (for a harness's plain data). The rule offers its
      // suggestions in this order, so the editor's first suggestion is this edit.
      { stateSharedWithFork: ['callCloneMethod', 'wrapWithModuleClone', 'wrapWithRuntimeClone', 'wrapWithStructuredClone'] },
      (finding) =>
        finding.messageId === 'harnessStateWithoutCopy'
          ? finding.message
          : `${finding.message} (no clone function to use here: wrap it by hand)`,
      input,
    );
  },
};
