import type { RuleTransform } from '../transform.js';
import { applyRuleSuggestions } from './rule-suggestions.js';

/**
 * `mark-seen`: the frozen-fates rule "never write the replacements map without
 * the seen mark; mark before awaiting persistence". The rule knows the seen
 * set of the same state and the id expression; its suggestions insert
 * `seenIds.add(id)` before the write, or move a late mark before the await.
 */
export const markSeen: RuleTransform<'mark-seen-before-replacement'> = {
  name: 'mark-seen',
  description: 'seenIds.add(id) before replacements.set(id, …), and before the awaited persist when it came after',
  ruleName: 'mark-seen-before-replacement',
  run(input) {
    return applyRuleSuggestions(
      input.findings,
      {
        replacementWithoutSeenMark: ['insertSeenMark'],
        replacementWithoutSeenMarkOnSomePaths: ['insertSeenMark'],
        seenMarkAfterPersist: ['moveSeenMarkBeforePersist'],
      },
      (finding) => `${finding.message} (not fixed automatically: the mark cannot be placed before this point safely)`,
      input,
    );
  },
};
