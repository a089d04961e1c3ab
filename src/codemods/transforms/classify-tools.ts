import { ensurePackageImport, importsToolResultGuard, withPackageImports } from '../source-edits.js';
import type { RuleFinding, TextEdit, Transform, UnresolvedSite } from '../transform.js';

/** The rule's reports for a tool that reads a model-chosen path, URL or resource. */
const SELF_READING_MESSAGES = new Set(['missingUnbounded', 'finiteBound']);
/** The strict config's report for a tool with no classification at all. */
const UNCLASSIFIED_MESSAGE = 'unclassified';

/**
 * The value in the rule's suggestion: `Infinity`, or the placeholder finite
 * limit, as the whole edit (a replaced value) or after the member's name (an
 * inserted member, `_meta` key or `classifyTool` classification). A
 * classification that already says `UNBOUNDED` is kept as the rule wrote it.
 */
const SUGGESTED_VALUE = /^(?:Infinity|\d[\d_]*)$|(?<=maxResultSizeChars'?\s*[:=]\s*)(?:Infinity|\d[\d_]*)\b/;
const SUGGESTED_UNBOUNDED_CLASSIFICATION = /maxResultSizeChars:\s*[\w$.]*UNBOUNDED\b/;

/** `50000` → `50_000`, as limits are written in the seed and by the rule's suggestion. */
function withDigitSeparators(value: number): string {
  const digits = String(value);
  return digits.length < 5 ? digits : digits.replace(/\B(?=(\d{3})+$)/g, '_');
}

/**
 * `classify-tools`: gives every tool the rule reports a `maxResultSizeChars`.
 * Where the declaration goes (class field, object property, MCP `_meta`) is
 * the rule's suggestion; this transform only chooses the value: `Infinity`
 * for self-reading tools (`UNBOUNDED` when the file already imports
 * tool-result-guard), the `--default-max-chars` limit for the others.
 */
export const classifyTools: Transform = {
  name: 'classify-tools',
  description: 'maxResultSizeChars on every tool: Infinity when it reads model-chosen paths/URLs, a finite default otherwise',
  ruleName: 'require-unbounded-self-reading-tool',
  run({ sourceFile, findings, options }) {
    const edits: TextEdit[] = [];
    const unresolved: UnresolvedSite[] = [];
    let unboundedReference: string | undefined;
    // Names imported from tool-result-guard in this pass: each is imported once per file.
    const imported = new Map<string, TextEdit | undefined>();

    const valueFor = (finding: RuleFinding): string => {
      if (!SELF_READING_MESSAGES.has(finding.messageId ?? '')) return withDigitSeparators(options.defaultMaxChars);
      if (!importsToolResultGuard(sourceFile)) return 'Infinity';
      if (unboundedReference === undefined) {
        const { reference, edit } = ensurePackageImport(sourceFile, 'UNBOUNDED');
        unboundedReference = reference;
        if (!imported.has('UNBOUNDED')) {
          imported.set('UNBOUNDED', edit);
          if (edit) edits.push(edit);
        }
      }
      return unboundedReference;
    };

    for (const finding of findings) {
      const isKnownMessage = SELF_READING_MESSAGES.has(finding.messageId ?? '') || finding.messageId === UNCLASSIFIED_MESSAGE;
      const suggestion = finding.suggestions[0];
      const suggestionEdits = suggestion ? withPackageImports(sourceFile, suggestion.edits, imported) : [];
      const valueEdit = suggestionEdits.find((edit) => SUGGESTED_VALUE.test(edit.text));
      if (isKnownMessage && suggestion && !valueEdit && suggestionEdits.some((edit) => SUGGESTED_UNBOUNDED_CLASSIFICATION.test(edit.text))) {
        // A classifyTool wrapper for a self-reading tool: `reads` and UNBOUNDED, as its types demand.
        edits.push(...suggestionEdits);
        continue;
      }
      if (!isKnownMessage || !suggestion || !valueEdit) {
        const selfReading = SELF_READING_MESSAGES.has(finding.messageId ?? '');
        unresolved.push({
          line: finding.line,
          column: finding.column,
          reason: `${finding.message} (no place to declare it automatically: add maxResultSizeChars by hand)`,
          ...(selfReading ? { selfReadingTool: String(finding.data?.['toolName'] ?? '<anonymous>') } : {}),
        });
        continue;
      }
      const value = valueFor(finding);
      for (const edit of suggestionEdits) {
        edits.push(edit === valueEdit ? { ...edit, text: edit.text.replace(SUGGESTED_VALUE, value) } : edit);
      }
    }
    return { edits, unresolved };
  },
};
