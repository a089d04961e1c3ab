/**
 * "Fact F holds on every path before this node", on top of ESLint's code-path
 * analysis. Rules such as `mark-seen-before-replacement` and
 * `sentinel-before-override` ask it instead of comparing statement order,
 * because order lies: an `if` without `else`, an early `return`, a `catch`
 * or a `continue` can all skip a statement that comes "before".
 *
 * The shape follows ESLint core's `no-this-before-super`: a stack frame per
 * code path with its current segments (kept in the reachable *and*
 * unreachable segment events), facts per `segment.id` in a Map (never stored
 * on the segment objects, which ESLint shares between rules), facts merged at
 * a segment's start from its previous segments, loops re-merged on
 * `onCodePathSegmentLoop`. `await` does not start a segment, so, as in
 * `require-atomic-updates`, a rule establishes a fact from any node event
 * (`AwaitExpression:exit`, `CallExpression:exit`, …) and it lands in the
 * current segments.
 *
 * Facts are plain keyed strings chosen by the rule (`seen:<base>:<id tokens>`).
 * They are only ever added ("gen" facts, never killed), which keeps the
 * analysis exact in one pass: a loop's back edge can never remove a fact from
 * the loop head, because everything on the back edge was reached through the
 * head.
 *
 * Each function, class field initializer and static block has its own code
 * path, so a fact established inside a closure never counts for its parent.
 *
 * Usage:
 * ```ts
 * const facts = createPathFacts();
 * return withCodePathListeners(facts.listeners, {
 *   'CallExpression:exit'(node) { if (isMark(node)) facts.establish(`marked:${key(node)}`); },
 *   CallExpression(node) { if (isUse(node) && !facts.holdsOnEveryPath(`marked:${key(node)}`)) report(node); },
 * });
 * ```
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

export type CodePathSegment = TSESLint.CodePathSegment;
export type CodePath = TSESLint.CodePath;

/**
 * The code-path listeners of ESLint. typescript-eslint's `RuleListener` leaves
 * them out (typescript-eslint issue #6993), so they are typed here, once.
 */
export interface CodePathListener {
  onCodePathStart?: (codePath: CodePath, node: TSESTree.Node) => void;
  onCodePathEnd?: (codePath: CodePath, node: TSESTree.Node) => void;
  onCodePathSegmentStart?: (segment: CodePathSegment, node: TSESTree.Node) => void;
  onCodePathSegmentEnd?: (segment: CodePathSegment, node: TSESTree.Node) => void;
  onUnreachableCodePathSegmentStart?: (segment: CodePathSegment, node: TSESTree.Node) => void;
  onUnreachableCodePathSegmentEnd?: (segment: CodePathSegment, node: TSESTree.Node) => void;
  onCodePathSegmentLoop?: (fromSegment: CodePathSegment, toSegment: CodePathSegment, node: TSESTree.Node) => void;
}

/** A rule listener that may also hold code-path listeners. */
export type RuleListenerWithCodePaths = TSESLint.RuleListener | CodePathListener;

type AnyListenerFunction = (...args: never[]) => void;

/**
 * Merges listener objects into one `RuleListener`. Listeners for the same key
 * run in argument order, so pass the fact tracker's listeners first: its
 * segment bookkeeping must be done before a rule asks about the segment.
 */
export function withCodePathListeners(...listeners: RuleListenerWithCodePaths[]): TSESLint.RuleListener {
  const handlersByKey = new Map<string, AnyListenerFunction[]>();
  for (const listener of listeners) {
    for (const [key, handler] of Object.entries(listener) as [string, AnyListenerFunction | undefined][]) {
      if (typeof handler !== 'function') continue;
      const handlers = handlersByKey.get(key);
      if (handlers) handlers.push(handler);
      else handlersByKey.set(key, [handler]);
    }
  }
  const merged: Record<string, (...args: never[]) => void> = {};
  for (const [key, handlers] of handlersByKey) {
    const [onlyHandler] = handlers;
    merged[key] =
      handlers.length === 1 && onlyHandler
        ? onlyHandler
        : (...args: never[]): void => {
            for (const handler of handlers) handler(...args);
          };
  }
  // The one place where the code-path listener types meet RuleListener's.
  return merged as unknown as TSESLint.RuleListener;
}

/**
 * What is known on entry to, and within, one reachable segment. The sets are
 * never changed in place: a segment that learns a fact gets new sets. Most
 * segments of most files learn nothing, so they share their predecessors'
 * sets (or the one empty set) instead of allocating three of their own, which
 * was the tracker's whole cost on large files.
 */
interface SegmentFacts {
  /** Facts established inside this segment itself. */
  established: ReadonlySet<string>;
  /** Facts that hold on every path reaching the current point of this segment. */
  mustHold: ReadonlySet<string>;
  /** Facts that hold on at least one path reaching the current point of this segment. */
  mayHold: ReadonlySet<string>;
  /**
   * No previous segment has been analysed yet: ESLint walks a `for` loop's
   * update before its body, and a `for…of` head before its right-hand side,
   * so such a segment starts before anything that leads to it. Until a
   * previous segment is known it is neutral in merges ("everything holds").
   */
  awaitingPrevious: boolean;
}

interface CodePathFrame {
  readonly upper: CodePathFrame | undefined;
  readonly codePath: CodePath;
  /** The Program, function, class field initializer or static block that owns the code path. */
  readonly node: TSESTree.Node;
  readonly currentSegments: Set<CodePathSegment>;
}

/** The facts of one current segment, as seen by `someCurrentPath`. */
export interface CurrentPathFacts {
  /** The fact holds on every path that reaches this segment's current point. */
  holdsOnEveryPath(fact: string): boolean;
  /** The fact holds on at least one path that reaches this segment's current point. */
  holdsOnSomePath(fact: string): boolean;
}

export interface PathFacts {
  /** Code-path listeners that maintain the facts; merge them first with `withCodePathListeners`. */
  readonly listeners: CodePathListener;
  /** Records that `fact` holds from now on, on every path through the current point. */
  establish(fact: string): void;
  /**
   * Records `fact` only in the current segments where `predicate` is true.
   * Facts are kept per segment, so two facts cannot be correlated along one
   * path after a merge; a combined fact can: "persisted while not yet seen"
   * is `establishWhere('persisted-unseen:id', (f) => !f.holdsOnEveryPath('seen:id'))`.
   */
  establishWhere(fact: string, predicate: (facts: CurrentPathFacts) => boolean): void;
  /**
   * True when `fact` holds on every path from the start of the current code
   * path (function) to the current point. Unreachable code answers true:
   * nothing can go wrong there; so does code ESLint walks before anything
   * that leads to it (a `for` loop's update clause, walked before the body).
   */
  holdsOnEveryPath(fact: string): boolean;
  /**
   * True when `fact` holds on at least one path that reaches the current point.
   * Inside a loop body, a fact carried around the loop's back edge is not
   * known yet while the body is being walked (ESLint reports the back edge
   * when the loop closes); after the loop it is. Loop variables get a new
   * value each iteration, so facts about them should not cross the back edge
   * anyway.
   */
  holdsOnSomePath(fact: string): boolean;
  /**
   * True when `predicate` is true for at least one reachable current segment.
   * Finer than combining the two queries above when two facts must be looked
   * at together ("persisted but not yet marked on the same path").
   */
  someCurrentPath(predicate: (facts: CurrentPathFacts) => boolean): boolean;
  /** The node that owns the current code path (Program, function, …), if any. */
  currentCodePathNode(): TSESTree.Node | undefined;
  /** The current code path, if any. */
  currentCodePath(): CodePath | undefined;
}

const NO_FACTS: ReadonlySet<string> = new Set();

function intersectionOf(sets: readonly ReadonlySet<string>[]): ReadonlySet<string> {
  const [first, ...rest] = sets;
  if (!first || first.size === 0) return NO_FACTS;
  if (rest.every((set) => set === first)) return first;
  if (rest.some((set) => set.size === 0)) return NO_FACTS;
  const result = new Set<string>();
  for (const fact of first) {
    if (rest.every((set) => set.has(fact))) result.add(fact);
  }
  return result;
}

function unionOf(sets: readonly ReadonlySet<string>[]): ReadonlySet<string> {
  const nonEmpty = sets.filter((set) => set.size > 0);
  const [first] = nonEmpty;
  if (!first) return NO_FACTS;
  if (nonEmpty.every((set) => set === first)) return first;
  const result = new Set<string>();
  for (const set of nonEmpty) for (const fact of set) result.add(fact);
  return result;
}

/** `set` with `fact` added: the same set when it already holds it, else a new one. */
function withFact(set: ReadonlySet<string>, fact: string): ReadonlySet<string> {
  return set.has(fact) ? set : new Set(set).add(fact);
}

/**
 * Creates a fact tracker for one `create(context)` call (one file). Keep one
 * tracker per rule: facts are per file and per rule.
 */
export function createPathFacts(): PathFacts {
  let frame: CodePathFrame | undefined;
  const factsBySegmentId = new Map<string, SegmentFacts>();

  /**
   * Entry facts of a segment from its previous segments. A previous segment
   * without facts yet is a loop's back edge not analysed yet; it does not
   * constrain (`onCodePathSegmentLoop` merges it once it is known).
   */
  function mergePrevious(segment: CodePathSegment): Pick<SegmentFacts, 'mustHold' | 'mayHold' | 'awaitingPrevious'> {
    const previous = segment.prevSegments
      .map((previousSegment) => factsBySegmentId.get(previousSegment.id))
      .filter((facts): facts is SegmentFacts => facts !== undefined && !facts.awaitingPrevious);
    return {
      mustHold: intersectionOf(previous.map((facts) => facts.mustHold)),
      mayHold: unionOf(previous.map((facts) => facts.mayHold)),
      awaitingPrevious: previous.length === 0 && segment.prevSegments.length > 0,
    };
  }

  function reachableFactsOfCurrentSegments(): SegmentFacts[] {
    if (!frame) return [];
    const result: SegmentFacts[] = [];
    for (const segment of frame.currentSegments) {
      if (!segment.reachable) continue;
      const facts = factsBySegmentId.get(segment.id);
      if (facts) result.push(facts);
    }
    return result;
  }

  const listeners: CodePathListener = {
    onCodePathStart(codePath, node) {
      frame = { upper: frame, codePath, node, currentSegments: new Set() };
    },
    onCodePathEnd() {
      frame = frame?.upper;
    },
    onCodePathSegmentStart(segment) {
      frame?.currentSegments.add(segment);
      factsBySegmentId.set(segment.id, { established: NO_FACTS, ...mergePrevious(segment) });
    },
    onCodePathSegmentEnd(segment) {
      frame?.currentSegments.delete(segment);
    },
    onUnreachableCodePathSegmentStart(segment) {
      frame?.currentSegments.add(segment);
    },
    onUnreachableCodePathSegmentEnd(segment) {
      frame?.currentSegments.delete(segment);
    },
    onCodePathSegmentLoop(_fromSegment, toSegment) {
      // The back edge is known now. Re-merge from the loop head forward until
      // nothing changes: a `for` loop closes in two steps (body → update,
      // update → test), so the segments to refresh are not only those between
      // the two ends of this edge. Sets only grow (may) or shrink (must), so
      // this stops.
      const pending: CodePathSegment[] = [toSegment];
      while (pending.length > 0) {
        const segment = pending.pop();
        const facts = segment && factsBySegmentId.get(segment.id);
        if (!segment || !facts) continue;
        const merged = mergePrevious(segment);
        const mustHold = unionOf([merged.mustHold, facts.established]);
        const mayHold = unionOf([merged.mayHold, facts.established]);
        const unchanged =
          merged.awaitingPrevious === facts.awaitingPrevious &&
          mustHold.size === facts.mustHold.size &&
          mayHold.size === facts.mayHold.size;
        if (unchanged) continue;
        facts.mustHold = mustHold;
        facts.mayHold = mayHold;
        facts.awaitingPrevious = merged.awaitingPrevious;
        pending.push(...segment.nextSegments);
      }
    },
  };

  function addFact(facts: SegmentFacts, fact: string): void {
    facts.established = withFact(facts.established, fact);
    facts.mustHold = withFact(facts.mustHold, fact);
    facts.mayHold = withFact(facts.mayHold, fact);
  }

  const pathFactsOf = (facts: SegmentFacts): CurrentPathFacts => ({
    holdsOnEveryPath: (fact) => facts.awaitingPrevious || facts.mustHold.has(fact),
    holdsOnSomePath: (fact) => facts.mayHold.has(fact),
  });

  return {
    listeners,
    establish(fact) {
      for (const facts of reachableFactsOfCurrentSegments()) addFact(facts, fact);
    },
    establishWhere(fact, predicate) {
      for (const facts of reachableFactsOfCurrentSegments()) {
        if (predicate(pathFactsOf(facts))) addFact(facts, fact);
      }
    },
    holdsOnEveryPath(fact) {
      return reachableFactsOfCurrentSegments().every((facts) => facts.awaitingPrevious || facts.mustHold.has(fact));
    },
    holdsOnSomePath(fact) {
      return reachableFactsOfCurrentSegments().some((facts) => facts.mayHold.has(fact));
    },
    someCurrentPath(predicate) {
      return reachableFactsOfCurrentSegments().some((facts) => predicate(pathFactsOf(facts)));
    },
    currentCodePathNode: () => frame?.node,
    currentCodePath: () => frame?.codePath,
  };
}
