import type { RuleTransform } from '../transform.js';
import { applyRuleSuggestions } from './rule-suggestions.js';

/**
 * `clone-on-fork`: the frozen-fates rule "clone or reconstruct the replacement
 * state for forks, subagents and resumes". The rule knows which clone
 * function applies: one already in scope (its autofix), the harness's own
 * `clone…State` from a module the file imports state from, or the runtime's
 * `cloneReplacementState` from tool-result-guard; each comes with its import,
 * merged into an existing one.
 */
export const cloneOnFork: RuleTransform<'clone-state-on-fork'> = {
  name: 'clone-on-fork',
  description: 'wraps replacement state handed to fork/subagent/resume calls in a clone, adding the import once',
  ruleName: 'clone-state-on-fork',
  run(input) {
    return applyRuleSuggestions(
      input.findings,
      // The autofix (a clone in scope) wins; then the codebase's own clone; then the runtime's.
      // A harness's own state gets its own clone, else structuredClone, never the runtime's.
      { stateSharedWithFork: ['wrapWithModuleClone', 'wrapWithRuntimeClone', 'wrapWithStructuredClone'] },
      (finding) => `${finding.message} (no clone function to use here: wrap it by hand)`,
      input,
    );
  },
};
