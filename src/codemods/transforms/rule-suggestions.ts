import { withPackageImports } from '../source-edits.js';
import type { RuleFinding, TextEdit, TransformInput, TransformOutput, UnresolvedSite } from '../transform.js';

/**
 * For transforms whose edit is exactly what the rule suggests: for each
 * finding, the edits of the suggestion named for its message (or of its
 * autofix), else an unresolved site, so every finding is either fixed or
 * listed for a human.
 */
export function applyRuleSuggestions<Finding extends RuleFinding>(
  findings: readonly Finding[],
  suggestionFor: { readonly [M in Finding['messageId']]?: readonly Finding['suggestions'][number]['messageId'][] },
  whyUnresolved: (finding: Finding) => string,
  file?: Pick<TransformInput, 'sourceFile'>,
): TransformOutput {
  const edits: TextEdit[] = [];
  const unresolved: UnresolvedSite[] = [];
  const imported = new Map<string, TextEdit | undefined>();
  for (const finding of findings) {
    const wanted: readonly string[] = suggestionFor[finding.messageId as Finding['messageId']] ?? [];
    const suggestion = finding.suggestions.find((candidate) => wanted.includes(candidate.messageId));
    // An autofix is what the rule is sure of; a suggestion is the next best.
    const chosen = finding.fix ?? suggestion?.edits;
    // Two fixes in one file that import the same name from tool-result-guard import it once.
    if (chosen) edits.push(...(file ? withPackageImports(file, chosen, imported) : chosen));
    else unresolved.push({ line: finding.line, column: finding.column, reason: whyUnresolved(finding) });
  }
  return { edits, unresolved };
}
