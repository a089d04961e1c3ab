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

/** What a classified tool has; any other members pass through `defineTool` untouched. */
export interface ToolClassification {
  readonly name: string;
  readonly reads: ToolReads;
  readonly maxResultSizeChars: number;
}

type IsUnbounded<Limit> = [Limit] extends [Unbounded] ? true : false;

/** A literal that cannot be a limit: zero or negative. */
type IsNonPositiveLiteral<Limit> = Limit extends number ? (`${Limit}` extends '0' | `-${string}` ? true : false) : false;

/**
 * The type `maxResultSizeChars` must have for a tool that reads `Reads`,
 * given the declared `Limit`: the limit itself when it is right, else the
 * instruction as a string-literal type, so the compiler's "not assignable
 * to" names what to write. Anything but exactly `'none'` counts as a reader
 * (a union such as `ToolReads` may read); a generic `Reads` or `Limit`
 * stays unresolved, so it is rejected unless it is provably right.
 */
export type ResultLimitFor<Reads, Limit> = [Reads] extends ['none']
  ? IsUnbounded<Limit> extends true
    ? typeof EXTERNALLY_BOUNDED_TOOL_UNBOUNDED
    : [Limit] extends [number]
      ? IsNonPositiveLiteral<Limit> extends true
        ? typeof INVALID_RESULT_LIMIT
        : Limit
      : typeof INVALID_RESULT_LIMIT
  : IsUnbounded<Limit> extends true
    ? Limit
    : typeof SELF_READING_TOOL_NOT_UNBOUNDED;

type ReadsOf<Tool> = Tool extends { readonly reads: infer Reads } ? Reads : never;

/** The members a tool lacks, each typed as what to add. */
type MissingClassification<Tool> = ('name' extends keyof Tool ? unknown : { readonly name: string }) &
  ('reads' extends keyof Tool ? unknown : { readonly reads: typeof TOOL_NOT_CLASSIFIED }) &
  ('maxResultSizeChars' extends keyof Tool
    ? unknown
    : { readonly maxResultSizeChars: ResultLimitFor<ReadsOf<Tool>, undefined> });

/**
 * `Tool` as `defineTool` accepts it: `reads` one of `ToolReads`,
 * `maxResultSizeChars` checked against `reads`, missing members demanded.
 * The checks live in a homomorphic mapped type (no intersection with
 * `Tool`'s own members), so TypeScript still infers `Tool` from the
 * argument, and a mismatch is reported on the offending property with the
 * instruction as the type it should have had.
 */
export type CheckedToolDefinition<Tool> = MissingClassification<Tool> & {
  [Key in keyof Tool]: Key extends 'reads'
    ? [Tool[Key]] extends [ToolReads]
      ? Tool[Key]
      : typeof TOOL_NOT_CLASSIFIED
    : Key extends 'maxResultSizeChars'
      ? ResultLimitFor<ReadsOf<Tool>, Tool[Key]>
      : Key extends 'name'
        ? [Tool[Key]] extends [string]
          ? Tool[Key]
          : string
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
export function defineTool<const Tool extends object>(tool: CheckedToolDefinition<Tool>): Tool {
  assertToolClassification(tool);
  return tool as Tool;
}

/**
 * The run-time half of `defineTool`, for a tool that reaches you untyped
 * (a registry fed by plugins, a JavaScript module). Same checks, same messages.
 */
export function assertToolClassification(tool: unknown): asserts tool is ToolClassification {
  if (typeof tool !== 'object' || tool === null) {
    throw new ToolClassificationError('ERR_TOOL_NOT_AN_OBJECT', 'defineTool needs a tool object with name, reads and maxResultSizeChars');
  }
  const { name, reads, maxResultSizeChars } = tool as Record<string, unknown>;
  const label = typeof name === 'string' && name !== '' ? `Tool "${name}"` : 'A tool without a name';
  if (!toolReadsValues.has(reads)) {
    throw new ToolClassificationError('ERR_TOOL_NOT_CLASSIFIED', `${label}: ${TOOL_NOT_CLASSIFIED}`);
  }
  if (reads !== 'none') {
    // Only the exact sentinel opts out: NaN, -Infinity and finite numbers all persist.
    if (maxResultSizeChars !== Number.POSITIVE_INFINITY) {
      throw new ToolClassificationError('ERR_SELF_READING_TOOL_NOT_UNBOUNDED', `${label}: ${SELF_READING_TOOL_NOT_UNBOUNDED}`);
    }
    return;
  }
  if (maxResultSizeChars === Number.POSITIVE_INFINITY) {
    throw new ToolClassificationError('ERR_EXTERNALLY_BOUNDED_TOOL_UNBOUNDED', `${label}: ${EXTERNALLY_BOUNDED_TOOL_UNBOUNDED}`);
  }
  if (typeof maxResultSizeChars !== 'number' || !Number.isFinite(maxResultSizeChars) || maxResultSizeChars <= 0) {
    throw new ToolClassificationError(
      'ERR_INVALID_RESULT_LIMIT',
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
