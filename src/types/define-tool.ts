/**
 * `defineTool`: every tool is classified by what it reads, and a tool that
 * reads a path, URL or resource the model names is self-bounding, so it must
 * declare `maxResultSizeChars: UNBOUNDED` (circular persistence). A misclassified tool is
 * a compile error whose text is the instruction, and the same check runs at
 * run time for JavaScript callers and `as any` casts.
 */
import type { Unbounded } from './brands.js';
import { ToolClassificationError } from './errors.js';
import {
  EXTERNALLY_BOUNDED_TOOL_UNBOUNDED,
  INVALID_RESULT_LIMIT,
  SELF_READING_TOOL_LIMIT_TYPED_NUMBER,
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

/** `any` proves nothing: an `any` `reads` may read. */
type IsAny<Value> = 0 extends 1 & Value ? true : false;

/** Some member of `Limit` may be the sentinel (`flag ? UNBOUNDED : 30_000`). */
type MayBeUnbounded<Limit> = [Extract<Limit, Unbounded>] extends [never] ? false : IsAny<Limit> extends true ? false : true;

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
 * counts as a reader (a union such as `ToolReads` may read, and so may
 * `any`); a generic `Reads` or `Limit` stays unresolved, so it is rejected
 * unless provably right. A `'none'` tool whose limit may be `UNBOUNDED`
 * (a union with it) is rejected like one that is. A reader's limit typed
 * plain `number` gets a longer sentence, because the usual way to get one is
 * the literal `Infinity`, which TypeScript types as `number`.
 * `UnboundedOnNone` is what `'none'` with `UNBOUNDED` yields (`defineTool`
 * demands that one of `reads`, see `ReadsProblem`).
 */
export type ResultLimitProblem<Reads, Limit, UnboundedOnNone = typeof EXTERNALLY_BOUNDED_TOOL_UNBOUNDED> =
  IsAny<Reads> extends false
    ? [Reads] extends ['none']
      ? MayBeUnbounded<Limit> extends true
        ? UnboundedOnNone
        : [Limit] extends [number]
          ? IsNonPositiveLiteral<Limit> extends true
            ? typeof INVALID_RESULT_LIMIT
            : never
          : typeof INVALID_RESULT_LIMIT
      : [Limit] extends [Unbounded]
        ? never
        : [number] extends [Limit]
          ? typeof SELF_READING_TOOL_LIMIT_TYPED_NUMBER
          : typeof SELF_READING_TOOL_NOT_UNBOUNDED
    : [Limit] extends [Unbounded]
      ? never
      : [number] extends [Limit]
        ? typeof SELF_READING_TOOL_LIMIT_TYPED_NUMBER
        : typeof SELF_READING_TOOL_NOT_UNBOUNDED;

/** `{ [Key]: Instruction<Problem> }` when there is a problem, else `unknown` (no demand). */
type Demand<Key extends string, Problem extends string> = [Problem] extends [never]
  ? unknown
  : { readonly [Member in Key]: Instruction<Problem> };

// `name` is demanded, but its type is checked at run time only: in a
// generic factory it is a type parameter (`name: Name`), and any check on
// it would stay unresolved and reject a correct tool.
type NameProblem<Tool> = Tool extends { readonly name: unknown } ? never : typeof TOOL_NEEDS_NAME;

type ReadsOf<Tool> = Tool extends { readonly reads: infer Reads } ? Reads : never;

type LimitOf<Tool> = Tool extends { readonly maxResultSizeChars: infer Limit } ? Limit : undefined;

/**
 * `'none'` with a limit that may be `UNBOUNDED` is demanded of `reads`, not
 * of the limit: the limit's own type, `Unbounded`, carries the reader's
 * instruction, and the compiler would print that one first, the opposite
 * of the fix.
 */
type ReadsProblem<Tool> = Tool extends { readonly reads: ToolReads }
  ? IsAny<ReadsOf<Tool>> extends true
    ? never
    : [ReadsOf<Tool>] extends ['none']
      ? MayBeUnbounded<LimitOf<Tool>> extends true
        ? typeof EXTERNALLY_BOUNDED_TOOL_UNBOUNDED
        : never
      : never
  : typeof TOOL_NOT_CLASSIFIED;

type LimitProblem<Tool> = ResultLimitProblem<ReadsOf<Tool>, LimitOf<Tool>, never>;

/**
 * What `defineTool` demands of `Tool` beyond `Tool` itself: nothing
 * (`unknown`) for a correctly classified tool, else each wrong or missing
 * member typed as its instruction.
 */
export type ToolClassificationDemands<Tool> = Demand<'name', NameProblem<Tool>> &
  Demand<'reads', ReadsProblem<Tool>> &
  Demand<'maxResultSizeChars', LimitProblem<Tool>>;

/**
 * `Tool`'s own members, once more, as a homomorphic mapped type. It changes
 * no type (`Tool & ToolMembers<Tool>` is `Tool`); it is there for inference.
 * A literal with a context-sensitive member (a method that uses `this`, and
 * on TypeScript before 6.0 every method shorthand) cannot be inferred to a
 * bare `Tool` until that member is checked, and checking it asks for `Tool`,
 * which the compiler then fixes to its constraint, `object`: a correct tool
 * would fail with every instruction at once. A mapped type is inferred from
 * the members that are ready (`name`, `reads`, the limit), so `Tool` is never
 * fixed early, and the whole literal still wins at the end.
 */
type ToolMembers<Tool> = { readonly [Member in keyof Tool]: Tool[Member] };

/**
 * The parameter type of `defineTool`: `Tool` itself (inferred straight from
 * the argument, so literals, generic methods, methods that use `this`,
 * getters and class instances with private members keep their exact types)
 * plus the demands, which take no part in inference.
 */
export type CheckedToolDefinition<Tool> = Tool & ToolMembers<Tool> & NoInfer<ToolClassificationDemands<Tool>>;

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
