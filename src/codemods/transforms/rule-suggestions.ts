import type { SourceFile } from 'ts-morph';

import { withPackageImports } from '../source-edits.js';
import type { RuleFinding, TextEdit, TransformOutput, UnresolvedSite } from '../transform.js';

/**
 * For transforms whose edit is exactly what the rule suggests: for each
 * finding, the edits of the suggestion named for its message (or of its
 * autofix), else an unresolved site, so every finding is either fixed or
 * listed for a human.
 */
export function applyRuleSuggestions(
  findings: readonly RuleFinding[],
  suggestionFor: Readonly<Record<string, readonly string[]>>,
  whyUnresolved: (finding: RuleFinding) => string,
  sourceFile?: SourceFile,
): TransformOutput {
  const edits: TextEdit[] = [];
  const unresolved: UnresolvedSite[] = [];
  const imported = new Map<string, TextEdit | undefined>();
  for (const finding of findings) {
    const wanted = suggestionFor[finding.messageId ?? ''] ?? [];
    const suggestion = finding.suggestions.find((candidate) => wanted.includes(candidate.messageId ?? ''));
    // An autofix is what the rule is sure of; a suggestion is the next best.
    const chosen = finding.fix ?? suggestion?.edits;
    // Two fixes in one file that import the same name from tool-result-guard import it once.
    if (chosen) edits.push(...(sourceFile ? withPackageImports(sourceFile, chosen, imported) : chosen));
    else unresolved.push({ line: finding.line, column: finding.column, reason: whyUnresolved(finding) });
  }
  return { edits, unresolved };
}
