import { withPackageImports } from '../source-edits.js';
import type { RuleFinding, RuleTransform, TextEdit, UnresolvedSite } from '../transform.js';

const RULE = 'require-unbounded-self-reading-tool';

/** `missingUnbounded` and `finiteBound`: the rule's reports for a tool that reads a model-chosen path, URL or resource. */
function isSelfReading(finding: RuleFinding<typeof RULE>): finding is Exclude<RuleFinding<typeof RULE>, { messageId: 'unclassified' }> {
  return finding.messageId !== 'unclassified';
}

/**
 * `classify-tools`: gives every tool the rule reports a `maxResultSizeChars`.
 * The rule's suggestion is the edit, placed (class field, object property,
 * MCP `_meta`, `classifyTool` wrapper) and valued by the rule itself:
 * `Infinity` for self-reading tools, `UNBOUNDED` (imported) where the file
 * imports tool-result-guard, and for the others the finite
 * `--default-max-chars`, which this transform passes to the rule as its
 * `suggestedLimit`. Nothing is read back out of the suggestion's text.
 */
export const classifyTools: RuleTransform<typeof RULE> = {
  name: 'classify-tools',
  description:
    'maxResultSizeChars on every tool: Infinity (UNBOUNDED where the file imports tool-result-guard) ' +
    'when it reads model-chosen paths/URLs, a finite default otherwise',
  ruleName: RULE,
  ruleOptions: (options) => ({ suggestedLimit: options.defaultMaxChars }),
  run(input) {
    const edits: TextEdit[] = [];
    const unresolved: UnresolvedSite[] = [];
    // Names imported from tool-result-guard in this pass: each is imported once per file.
    const imported = new Map<string, TextEdit | undefined>();
    for (const finding of input.findings) {
      const wanted = isSelfReading(finding) ? 'setUnbounded' : 'setFiniteLimit';
      const suggestion = finding.suggestions.find((candidate) => candidate.messageId === wanted);
      if (suggestion) {
        edits.push(...withPackageImports(input, suggestion.edits, imported));
        continue;
      }
      const value = isSelfReading(finding) ? finding.data.unbounded : finding.data.limit;
      unresolved.push({
        line: finding.line,
        column: finding.column,
        reason: `${finding.message} (no place to declare it automatically: add maxResultSizeChars: ${value} by hand)`,
        ...(isSelfReading(finding) ? { selfReadingTool: finding.data.toolName } : {}),
      });
    }
    return { edits, unresolved };
  },
};
