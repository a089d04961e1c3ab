import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import type { SourceFile } from 'ts-morph';

import type { ProtocolRuleName, RuleProtocols } from './rule-protocol.js';

export type { ProtocolRuleName } from './rule-protocol.js';

/** Replace the text in `[start, end)` with `text` (an insertion when `start === end`). */
export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/** The fields every finding has, whatever its rule and message. */
interface RuleFindingBase<RuleName extends string, SuggestionId extends string> {
  /** The rule's name without the plugin prefix, e.g. `clone-state-on-fork`. */
  ruleName: RuleName;
  message: string;
  /** Range of the reported node (or the reported location) in the linted text. */
  start: number;
  end: number;
  line: number;
  column: number;
  /**
   * The rule's autofix as its separate splices (ESLint would merge them into
   * one edit spanning everything in between; kept apart, they stay minimal
   * and do not collide with other edits).
   */
  fix: readonly TextEdit[] | undefined;
  suggestions: readonly RuleSuggestion<SuggestionId>[];
  /**
   * The ESTree node the rule reported and the rule's context, for transforms
   * that ask the recognition core a structural question (which tool owns
   * this invocation, where its members go) instead of re-deriving it.
   */
  reportedNode: TSESTree.Node | undefined;
  ruleContext: Readonly<TSESLint.RuleContext<string, readonly unknown[]>> | undefined;
}

type ReportsOf<Rule extends ProtocolRuleName> = RuleProtocols[Rule]['reports'];

/**
 * One report of a rule, as the codemod sees it: where, why, with what data
 * and fixes. Typed by the rule's own protocol (`codemods/rule-protocol.ts`): a
 * union over its report message ids, each with the `data` the rule passed
 * to `context.report` for it, so a transform narrows on `messageId` and
 * reads its values from `data`, never from the message's text.
 */
export type RuleFinding<Rule extends ProtocolRuleName = ProtocolRuleName> = {
  [R in Rule]: {
    [M in keyof ReportsOf<R> & string]: RuleFindingBase<R, RuleProtocols[R]['suggestionIds']> & {
      messageId: M;
      /** The `data` the rule passed to `context.report`, which the message was built from. */
      data: Readonly<ReportsOf<R>[M]>;
    };
  }[keyof ReportsOf<R> & string];
}[Rule];

/** What every finding is, whichever rule's: the bound of the transforms' type parameters. */
export type AnyRuleFinding = RuleFindingBase<ProtocolRuleName, string> & { messageId: string; data: object };

export interface RuleSuggestion<SuggestionId extends string = string> {
  messageId: SuggestionId;
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

export interface TransformInput<Finding extends AnyRuleFinding = RuleFinding> {
  /**
   * The file as ts-morph sees it; its text is the text the findings were
   * computed on. Parsed on first read (a transform that only replays the
   * rules' fixes never pays for it): read it where it is needed, do not
   * destructure it up front.
   */
  readonly sourceFile: SourceFile;
  findings: readonly Finding[];
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
export interface Transform<Finding extends AnyRuleFinding = RuleFinding> {
  name: string;
  description: string;
  ruleName: Finding['ruleName'];
  /**
   * Options for the rule, over the strict config's, so that its fixes are
   * the ones this transform applies (`classify-tools` passes
   * `--default-max-chars` as the suggested finite limit).
   */
  ruleOptions?(options: TransformOptions): Readonly<Record<string, unknown>>;
  run(input: TransformInput<Finding>): TransformOutput;
}

/** The transform that replays `Rule`'s findings, typed by that rule's protocol. */
export type RuleTransform<Rule extends ProtocolRuleName> = Transform<RuleFinding<Rule>>;
