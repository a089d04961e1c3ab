/**
 * `defineTool`: every tool is classified by what it reads, and a tool that
 * reads a path, URL or resource the model names is self-bounding, so it must
 * declare `maxResultSizeChars: UNBOUNDED` (seed 000). A misclassified tool is
 * a compile error whose text is the instruction, and the same check runs at
 * run time for JavaScript callers and `as any` casts.
 */
import type { Unbounded } from './brands.js';
import { ToolClassificationError } from './errors.js';
import {
  EXTERNALLY_BOUNDED_TOOL_UNBOUNDED,
  INVALID_RESULT_LIMIT,
  SELF_READING_TOOL_NOT_UNBOUNDED,
  TOOL_NOT_CLASSIFIED,
} from './messages.js';

/**
 * What a tool reads. `'path'`, `'url'` and `'resource'`: something the model
 * names in the tool's input (so it could name the tool's own persisted
 * output); `'none'`: nothing the model chooses (a shell, a search, a fixed file).
 */
export type ToolReads = 'path' | 'url' | 'resource' | 'none';

/** The `reads` values of self-bounding tools. */
export type SelfReadingKind = Exclude<ToolReads, 'none'>;

/** The least a tool needs for `defineTool`; any other members pass through untouched. */
export interface ToolClassification {
  readonly name: string;
  /** Optional here only so a missing `reads` gets the instruction instead of a bare "missing property". */
  readonly reads?: ToolReads;
  readonly maxResultSizeChars: number;
}

type IsUnbounded<Limit> = [Limit] extends [Unbounded] ? true : false;

/**
 * The type `maxResultSizeChars` must have for a tool that reads `Reads`,
 * given the declared `Limit`: the limit itself when it is right, else the
 * instruction as a string-literal type, so the compiler's "not assignable
 * to" names what to write. `Reads` must be one literal; a union (or a type
 * parameter) that could be `'none'` and a reader at once is rejected.
 */
export type ResultLimitFor<Reads, Limit> = [Reads] extends ['none']
  ? IsUnbounded<Limit> extends true
    ? typeof EXTERNALLY_BOUNDED_TOOL_UNBOUNDED
    : Limit
  : IsUnbounded<Limit> extends true
    ? Limit
    : typeof SELF_READING_TOOL_NOT_UNBOUNDED;

/**
 * `Tool` with `maxResultSizeChars` checked against `reads`, and `reads`
 * demanded when missing. A homomorphic mapped type (no intersection with
 * `Tool`), so TypeScript still infers `Tool` from the argument and a
 * mismatch is reported on the property with the instruction as its type.
 */
export type CheckedToolDefinition<Tool extends ToolClassification> = ('reads' extends keyof Tool
  ? unknown
  : { readonly reads: typeof TOOL_NOT_CLASSIFIED }) & {
  [Key in keyof Tool]: Key extends 'maxResultSizeChars'
    ? ResultLimitFor<Tool extends { readonly reads?: infer Reads } ? Reads : never, Tool[Key]>
    : Tool[Key];
};

const toolReadsValues: ReadonlySet<unknown> = new Set<ToolReads>(['path', 'url', 'resource', 'none']);

/**
 * Declares a tool and checks its classification. Returns the tool unchanged
 * (same object, same type), so it works for object literals, `as const`
 * objects, objects defined elsewhere and class instances alike.
 *
 * @throws {ToolClassificationError} when the tool is not classified or its
 *   limit contradicts its classification (for callers the compiler cannot see).
 */
export function defineTool<const Tool extends ToolClassification>(tool: CheckedToolDefinition<Tool>): Tool {
  assertToolClassification(tool);
  return tool as Tool;
}

/**
 * The run-time half of `defineTool`, for a tool that reaches you untyped
 * (a registry fed by plugins, a JavaScript module). Same checks, same messages.
 */
export function assertToolClassification(tool: unknown): asserts tool is ToolClassification & { readonly reads: ToolReads } {
  if (typeof tool !== 'object' || tool === null) {
    throw new ToolClassificationError('TOOL_NOT_AN_OBJECT', 'defineTool needs a tool object with name, reads and maxResultSizeChars');
  }
  const { name, reads, maxResultSizeChars } = tool as Record<string, unknown>;
  const label = typeof name === 'string' && name !== '' ? `Tool "${name}"` : 'A tool without a name';
  if (!toolReadsValues.has(reads)) {
    throw new ToolClassificationError('TOOL_NOT_CLASSIFIED', `${label}: ${TOOL_NOT_CLASSIFIED}`);
  }
  if (reads !== 'none') {
    // Only the exact sentinel opts out: NaN, -Infinity and finite numbers all persist.
    if (maxResultSizeChars !== Number.POSITIVE_INFINITY) {
      throw new ToolClassificationError('SELF_READING_TOOL_NOT_UNBOUNDED', `${label}: ${SELF_READING_TOOL_NOT_UNBOUNDED}`);
    }
    return;
  }
  if (maxResultSizeChars === Number.POSITIVE_INFINITY) {
    throw new ToolClassificationError('EXTERNALLY_BOUNDED_TOOL_UNBOUNDED', `${label}: ${EXTERNALLY_BOUNDED_TOOL_UNBOUNDED}`);
  }
  if (typeof maxResultSizeChars !== 'number' || !Number.isFinite(maxResultSizeChars) || maxResultSizeChars <= 0) {
    throw new ToolClassificationError(
      'INVALID_RESULT_LIMIT',
      `${label}: ${INVALID_RESULT_LIMIT} (got ${describeValue(maxResultSizeChars)})`,
    );
  }
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean' || value === undefined) {
    return String(value);
  }
  return value === null ? 'null' : `a ${typeof value}`;
}
