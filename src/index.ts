/**
 * tool-result-guard runtime and types. This entry must never load eslint,
 * typescript, @typescript-eslint/* or ts-morph: agent harnesses import it at run time.
 */
export * from './runtime/index.js';
export * from './runtime/state-leakage/index.js';
export * from './types/index.js';
