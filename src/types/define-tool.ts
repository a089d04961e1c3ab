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
  TOOL_NEEDS_NAME,
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

declare const instructionKey: unique symbol;

/**
 * A type that no plain value has, whose only member holds `Text`. Required
 * of a wrong member (`100_000 & Instruction<…>`), it makes the compiler say
 * "Type '100000' is not assignable to type 'Instruction<"…">'", printing the
 * fix. An object, not a string literal, so the intersection with the wrong
 * value's own literal type never collapses to `never`.
 */
export interface Instruction<Text extends string> {
  readonly [instructionKey]: Text;
}

/**
 * What is wrong with a tool reading `Reads` whose limit is `Limit`, as an
 * instruction, or `never` when nothing is. Anything but exactly `'none'`
 * counts as a reader (a union such as `ToolReads` may read); a generic
 * `Reads` or `Limit` stays unresolved, so it is rejected unless provably right.
 */
export type ResultLimitProblem<Reads, Limit> = [Reads] extends ['none']
  ? IsUnbounded<Limit> extends true
    ? typeof EXTERNALLY_BOUNDED_TOOL_UNBOUNDED
    : [Limit] extends [number]
      ? IsNonPositiveLiteral<Limit> extends true
        ? typeof INVALID_RESULT_LIMIT
        : never
      : typeof INVALID_RESULT_LIMIT
  : IsUnbounded<Limit> extends true
    ? never
    : typeof SELF_READING_TOOL_NOT_UNBOUNDED;

/** `{ [Key]: Instruction<Problem> }` when there is a problem, else `unknown` (no demand). */
type Demand<Key extends string, Problem extends string> = [Problem] extends [never]
  ? unknown
  : { readonly [Member in Key]: Instruction<Problem> };

// `name` is demanded, but its type is checked at run time only: in a
// generic factory it is a type parameter (`name: Name`), and any check on
// it would stay unresolved and reject a correct tool.
type NameProblem<Tool> = Tool extends { readonly name: unknown } ? never : typeof TOOL_NEEDS_NAME;

type ReadsProblem<Tool> = Tool extends { readonly reads: ToolReads } ? never : typeof TOOL_NOT_CLASSIFIED;

type LimitProblem<Tool> = Tool extends { readonly maxResultSizeChars: infer Limit }
  ? ResultLimitProblem<Tool extends { readonly reads: infer Reads } ? Reads : never, Limit>
  : ResultLimitProblem<Tool extends { readonly reads: infer Reads } ? Reads : never, undefined>;

/**
 * What `defineTool` demands of `Tool` beyond `Tool` itself: nothing
 * (`unknown`) for a correctly classified tool, else each wrong or missing
 * member typed as its instruction.
 */
export type ToolClassificationDemands<Tool> = Demand<'name', NameProblem<Tool>> &
  Demand<'reads', ReadsProblem<Tool>> &
  Demand<'maxResultSizeChars', LimitProblem<Tool>>;

/**
 * The parameter type of `defineTool`: `Tool` itself (inferred straight from
 * the argument, so literals, generic methods and class instances with
 * private members keep their exact types) plus the demands, which take no
 * part in inference.
 */
export type CheckedToolDefinition<Tool> = Tool & NoInfer<ToolClassificationDemands<Tool>>;

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
  if (typeof name !== 'string' || name === '') {
    throw new ToolClassificationError('ERR_TOOL_WITHOUT_NAME', `A tool with name ${describeValue(name)}: ${TOOL_NEEDS_NAME}`);
  }
  const label = `Tool "${name}"`;
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
  return value === null ? 'null' : `(${typeof value})`;
}
