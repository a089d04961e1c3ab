/**
 * Cheap questions about a file's text, asked before any tree is looked at.
 * Every rule's prefilter asks whether the text spells some words, several of
 * them regardless of case; over a whole codebase that is every rule scanning
 * every file. A case-insensitive regular expression of alternatives scans
 * slowly, so the text is lower-cased once per file (the rules of one lint
 * run ask about the same text one after the other) and each word is found
 * with `includes`.
 */

let lastText: string | undefined;
let lastLowerCase = '';

/** `text` in lower case, worked out once for consecutive questions about the same text. */
function lowerCaseOf(text: string): string {
  if (text !== lastText) {
    lastText = text;
    lastLowerCase = text.toLowerCase();
  }
  return lastLowerCase;
}

/** Words in lower case, for `spellsAnyIgnoringCase`. */
export function lowerCaseWords(words: Iterable<string>): readonly string[] {
  return [...new Set([...words].map((word) => word.toLowerCase()))];
}

/** Does `text` contain one of `lowerCaseWords` (already lower-cased), in any case? */
export function spellsAnyIgnoringCase(text: string, lowerCaseWords: readonly string[]): boolean {
  const lowerCase = lowerCaseOf(text);
  return lowerCaseWords.some((word) => lowerCase.includes(word));
}
