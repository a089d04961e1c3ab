/**
 * Interfaces for class-based tools (`class ReadFileTool implements
 * SelfReadingTool`). They carry the same rule as `defineTool`: the compiler
 * rejects a self-reading class whose limit is not `UNBOUNDED`, and a
 * persistable class whose limit is.
 */
import type { FiniteResultLimit, Unbounded } from './brands.js';
import type { SelfReadingKind } from './define-tool.js';

/**
 * A tool that reads a path, URL or resource the model names. Its result is
 * never persisted (circular persistence): `maxResultSizeChars` must be `UNBOUNDED`.
 * Declare the members `readonly` so `reads` keeps its literal type.
 */
export interface SelfReadingTool {
  readonly name: string;
  readonly reads: SelfReadingKind;
  readonly maxResultSizeChars: Unbounded;
}

/**
 * A tool that reads nothing the model chooses; a large result is persisted
 * and replaced by a preview. Any finite `maxResultSizeChars`, never `UNBOUNDED`.
 */
export interface PersistableTool {
  readonly name: string;
  readonly reads: 'none';
  readonly maxResultSizeChars: FiniteResultLimit;
}

/** Either kind: what a tool registry should accept. */
export type ClassifiedTool = SelfReadingTool | PersistableTool;
