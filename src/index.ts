/**
 * tool-result-guard runtime and types. This entry must never load eslint,
 * typescript, @typescript-eslint/* or ts-morph: agent harnesses import it at run time.
 */
export type { Brand, OwnedQuerySource, PersistedPreview, SeenId, Unbounded } from './types/brands.js';
