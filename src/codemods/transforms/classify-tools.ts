import { ensurePackageImport, importsToolResultGuard } from '../source-edits.js';
import type { RuleFinding, TextEdit, Transform, UnresolvedSite } from '../transform.js';

/** The rule's reports for a tool that reads a model-chosen path, URL or resource. */
const SELF_READING_MESSAGES = new Set(['missingUnbounded', 'finiteBound']);
/** The strict config's report for a tool with no classification at all. */
const UNCLASSIFIED_MESSAGE = 'unclassified';

/** The value in the rule's suggestion: `Infinity`, or the placeholder finite limit. */
const SUGGESTED_VALUE = /(?:\bInfinity\b|\b\d[\d_]*\b)(?![\s\S]*(?:\bInfinity\b|\b\d[\d_]*\b))/;

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

    const valueFor = (finding: RuleFinding): string => {
      if (!SELF_READING_MESSAGES.has(finding.messageId ?? '')) return withDigitSeparators(options.defaultMaxChars);
      if (!importsToolResultGuard(sourceFile)) return 'Infinity';
      if (unboundedReference === undefined) {
        const { reference, edit } = ensurePackageImport(sourceFile, 'UNBOUNDED');
        unboundedReference = reference;
        if (edit) edits.push(edit);
      }
      return unboundedReference;
    };

    for (const finding of findings) {
      const isKnownMessage = SELF_READING_MESSAGES.has(finding.messageId ?? '') || finding.messageId === UNCLASSIFIED_MESSAGE;
      const suggestion = finding.suggestions[0];
      const valueEdit = suggestion?.edits.find((edit) => SUGGESTED_VALUE.test(edit.text));
      if (!isKnownMessage || !suggestion || !valueEdit) {
        unresolved.push({
          line: finding.line,
          column: finding.column,
          reason: `${finding.message} (no place to declare it automatically: add maxResultSizeChars by hand)`,
        });
        continue;
      }
      const value = valueFor(finding);
      for (const edit of suggestion.edits) {
        edits.push(edit === valueEdit ? { ...edit, text: edit.text.replace(SUGGESTED_VALUE, value) } : edit);
      }
    }
    return { edits, unresolved };
  },
};
