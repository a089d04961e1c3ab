import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import type { SourceFile } from 'ts-morph';

/** Replace the text in `[start, end)` with `text` (an insertion when `start === end`). */
export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/** One report of a rule, as the codemod sees it: where, why, with what data and fixes. */
export interface RuleFinding {
  /** The rule's name without the plugin prefix, e.g. `clone-state-on-fork`. */
  ruleName: string;
  messageId: string | undefined;
  message: string;
  /** Range of the reported node (or the reported location) in the linted text. */
  start: number;
  end: number;
  line: number;
  column: number;
  /** The `data` the rule passed to `context.report`, which the message was built from. */
  data: Readonly<Record<string, unknown>> | undefined;
  /**
   * The rule's autofix as its separate splices (ESLint would merge them into
   * one edit spanning everything in between; kept apart, they stay minimal
   * and do not collide with other edits).
   */
  fix: readonly TextEdit[] | undefined;
  suggestions: readonly RuleSuggestion[];
  /**
   * The ESTree node the rule reported and the rule's context, for transforms
   * that ask the recognition core a structural question (which tool owns
   * this invocation, where its members go) instead of re-deriving it.
   */
  reportedNode: TSESTree.Node | undefined;
  ruleContext: Readonly<TSESLint.RuleContext<string, readonly unknown[]>> | undefined;
}

export interface RuleSuggestion {
  messageId: string | undefined;
  description: string;
  /** The suggestion's splices, kept apart like `RuleFinding.fix`. */
  edits: readonly TextEdit[];
}

/** Settings every transform may read. */
export interface TransformOptions {
  /** The finite `maxResultSizeChars` given to tools that do not read input-chosen paths or URLs. */
  defaultMaxChars: number;
}

/** A finding the transform would not fix by itself; it is reported so a human looks at it. */
export interface UnresolvedSite {
  line: number;
  column: number;
  reason: string;
  /**
   * The tool's name, when the site is a self-reading tool left without
   * `maxResultSizeChars: Infinity`: circular persistence stays possible there,
   * so the report lists these first and `--fail-on-error` fails on them.
   */
  selfReadingTool?: string;
}

export interface TransformInput {
  /** The file as ts-morph sees it; its text is the text the findings were computed on. */
  sourceFile: SourceFile;
  findings: readonly RuleFinding[];
  options: TransformOptions;
}

export interface TransformOutput {
  edits: TextEdit[];
  unresolved: UnresolvedSite[];
}

/**
 * A codemod transform in the ts-migrate/jscodeshift shape: a name and a `run`.
 * It never detects anything itself: `ruleName` names the lint rule whose
 * findings drive it, so the codemod and the rule cannot disagree.
 */
export interface Transform {
  name: string;
  description: string;
  ruleName: string;
  run(input: TransformInput): TransformOutput;
}
