// Types for scripts/corpus.mjs, so TypeScript tests and benches can import it.
export interface CorpusEntry {
  readonly name: string;
  readonly version: string;
  readonly integrity: string;
  /** Folders inside the package whose code the tests lint. */
  readonly lint: string[];
  /** The package ships TypeScript sources (linted with type information too). */
  readonly typescript?: boolean;
}

export const REPOSITORY_ROOT: string;
export const CORPUS_ROOT: string;
export const CORPUS: readonly CorpusEntry[];
export function corpusPackageDirectory(entry: CorpusEntry): string;
export function ensureCorpusPackage(entry: Pick<CorpusEntry, 'name' | 'version' | 'integrity'>): string;
export function ensureCorpus(names?: readonly string[]): { entry: CorpusEntry; directory: string }[];
