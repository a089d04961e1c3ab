import { CodemodUsageError } from './usage-error.js';

/**
 * Loads ESLint lazily: it is a peer dependency, needed only by the codemods
 * and the tool inventory, and a missing install deserves a message that says
 * what to do.
 */
export async function importEslint(): Promise<typeof import('eslint')> {
  try {
    return await import('eslint');
  } catch {
    throw new CodemodUsageError(
      'ESLINT_MISSING',
      'The codemods and the tool inventory run the tool-result-guard ESLint rules, ' +
        'so they need the `eslint` package (a peer dependency): run `npm install --save-dev eslint`.',
    );
  }
}
