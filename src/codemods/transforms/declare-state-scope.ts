import { TODO_MARKER, withPackageImports } from '../source-edits.js';
import type { RuleTransform, TextEdit, UnresolvedSite } from '../transform.js';

const REVIEW_NOTE =
  "review stateScope ('session': state kept between calls, as the code does today; " +
  "'isolated': fresh per call; 'agent': shared across sessions)";

/** Puts the review note right above the inserted member (a block comment when the layout is one line). */
function withReviewNote(edit: TextEdit): TextEdit {
  const memberAt = edit.text.search(/(?:readonly )?stateScope\b|'[^']*stateScope'/);
  if (memberAt === -1) return edit;
  const lineBreak = edit.text.lastIndexOf('\n', memberAt);
  if (lineBreak !== -1 && /^[ \t]*$/.test(edit.text.slice(lineBreak + 1, memberAt))) {
    const indentation = edit.text.slice(lineBreak + 1, memberAt);
    return {
      ...edit,
      text: `${edit.text.slice(0, memberAt)}// ${TODO_MARKER}: ${REVIEW_NOTE}\n${indentation}${edit.text.slice(memberAt)}`,
    };
  }
  return { ...edit, text: `${edit.text.slice(0, memberAt)}/* ${TODO_MARKER}: ${REVIEW_NOTE} */ ${edit.text.slice(memberAt)}` };
}

/**
 * `declare-state-scope`: the state-leakage rule "a tool whose invocation changes
 * state that outlives the call declares its scope". The codemod cannot know
 * the intended scope, so it writes down what the code does today
 * (`stateScope: 'session'`) with a TODO for a human to confirm or tighten.
 */
export const declareStateScope: RuleTransform<'declare-tool-state-scope'> = {
  name: 'declare-state-scope',
  description: "stateScope: 'session' with a TODO to review, on tools whose calls change state that outlives them",
  ruleName: 'declare-tool-state-scope',
  run(input) {
    const edits: TextEdit[] = [];
    const unresolved: UnresolvedSite[] = [];
    const imported = new Map<string, TextEdit | undefined>();
    // Two findings in one tool suggest the same member: it is written once.
    const written = new Set<string>();
    for (const finding of input.findings) {
      const suggestion =
        finding.messageId === 'invalidStateScope'
          ? undefined
          : finding.suggestions.find((candidate) => candidate.messageId === 'declareSessionScope');
      if (!suggestion) {
        unresolved.push({ line: finding.line, column: finding.column, reason: `${finding.message} (declare stateScope by hand)` });
        continue;
      }
      for (const edit of withPackageImports(input, suggestion.edits, imported)) {
        const key = `${edit.start}:${edit.end}:${edit.text}`;
        if (written.has(key)) continue;
        written.add(key);
        edits.push(withReviewNote(edit));
      }
    }
    return { edits, unresolved };
  },
};
