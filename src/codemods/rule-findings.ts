import { dirname, parse as parsePath } from 'node:path';

import * as typescriptParser from '@typescript-eslint/parser';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

import plugin, { PLUGIN_NAMESPACE } from '../eslint-plugin.js';
import { producedFixes } from '../recognition/member-fix.js';
import { SETTINGS_KEY, normalizeRecognitionSettings, type RecognitionSettings } from '../recognition/settings.js';
import { mayProduceFindings } from '../rules/index.js';
import { importEslint } from '../util/import-eslint.js';
import { CodemodUsageError } from '../util/usage-error.js';
import type { RuleFinding, RuleSuggestion, TextEdit } from './transform.js';

type Linter = TSESLint.Linter;
type RuleModule = TSESLint.RuleModule<string, readonly unknown[]>;
type ReportDescriptor = TSESLint.ReportDescriptor<string> & { data?: Record<string, unknown> };

/** The file text could not be parsed; the file is skipped, never half-migrated. */
export class UnparseableFileError extends Error {
  readonly code = 'UNPARSEABLE';

  constructor(
    readonly filePath: string,
    readonly parserMessage: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${filePath}:${line}:${column}: ${parserMessage}`);
    this.name = 'UnparseableFileError';
  }

  /** Where and why, without the path (reports name the file already). */
  get reason(): string {
    return `does not parse (${this.line}:${this.column}: ${this.parserMessage.replace(/^Parsing error: /, '')})`;
  }
}

/** Per rule name, options over the strict config's (a transform's `ruleOptions`). */
export type RuleOptionsByName = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

interface CapturedReport {
  ruleName: string;
  descriptor: ReportDescriptor;
  sourceCode: TSESLint.SourceCode;
  context: Readonly<TSESLint.RuleContext<string, readonly unknown[]>>;
}

export interface RuleFindingsCollector {
  /**
   * Lints `text` as `filePath` with the named rules (strict options, with
   * `ruleOptions[ruleName]` over them) and returns their findings.
   */
  collect(text: string, filePath: string, ruleNames: readonly string[], ruleOptions?: RuleOptionsByName): RuleFinding[];
  /**
   * The named rules that can report anything on `text` at all, by the rules'
   * own text prefilter (`mayReport`, through `mayProduceFindings`): the others need no lint.
   */
  rulesThatMayReport(text: string, ruleNames: readonly string[]): string[];
}

export async function createRuleFindingsCollector(settings: Readonly<Record<string, unknown>> = {}): Promise<RuleFindingsCollector> {
  const eslintModule = await importEslint();
  return new LinterRuleFindingsCollector(eslintModule.Linter as unknown as new (options: object) => Linter, settings);
}

/**
 * A config array ESLint has normalised: `Linter.verify` uses an array that
 * has `getConfig` as it is, and builds one from anything else.
 */
type NormalizedConfigArray = TSESLint.Linter.ConfigType & { getConfig(filePath: string): unknown };

function isNormalizedConfigArray(value: unknown): value is NormalizedConfigArray {
  return Array.isArray(value) && typeof (value as { getConfig?: unknown }).getConfig === 'function';
}

/** A linter, the config array its last `verify` normalised (or reused), and the ones kept, by rule options. */
interface RecordingLinter {
  linter: Linter;
  lastConfigArray: unknown;
  normalizedConfigs: Map<string, NormalizedConfigArray>;
}

/**
 * Given a plain config, `Linter.verify` builds a `FlatConfigArray` from it,
 * normalises it, merges and finalises the file's config and validates every
 * rule's options against its schema, on every call. ESLint exports no way
 * to build that array once, but `verify` hands it to
 * `_verifyWithFlatConfigArray`, and uses an array that has `getConfig` as
 * it is: recording it there lets the next lints reuse it, with its per-file
 * config cache. Should a later ESLint drop that method, nothing is recorded
 * and every lint normalises again, as before: slower, never different.
 */
function recordConfigArrays(linter: Linter): RecordingLinter {
  const recording: RecordingLinter = { linter, lastConfigArray: undefined, normalizedConfigs: new Map() };
  const internals = linter as unknown as { _verifyWithFlatConfigArray?: (...args: unknown[]) => unknown };
  const verifyWithConfigArray = internals._verifyWithFlatConfigArray;
  if (typeof verifyWithConfigArray === 'function') {
    internals._verifyWithFlatConfigArray = function (this: unknown, ...args: unknown[]): unknown {
      recording.lastConfigArray = args[1];
      return verifyWithConfigArray.apply(this, args);
    };
  }
  return recording;
}

class LinterRuleFindingsCollector implements RuleFindingsCollector {
  /** Reports captured during the current `verify`, in the order the rules made them. */
  private captured: CapturedReport[] = [];
  /**
   * The rules the current `verify` runs. The config enables every rule of
   * the plugin, so that it is built and normalised once per run; the others
   * return no listeners, as a rule whose text prefilter fails does.
   */
  private activeRules: ReadonlySet<string> = new Set();
  private readonly wrappedRules: Record<string, RuleModule>;
  private readonly lintersByRoot = new Map<string, RecordingLinter>();
  /** Built once per rule options (one set per run), not once per lint. */
  private readonly configsByOptions = new Map<string, TSESLint.Linter.ConfigType>();
  private readonly recognitionSettings: RecognitionSettings;

  constructor(
    private readonly LinterClass: new (options: object) => Linter,
    private readonly settings: Readonly<Record<string, unknown>>,
  ) {
    this.recognitionSettings = normalizeRecognitionSettings(settings[SETTINGS_KEY]);
    this.wrappedRules = {};
    for (const [name, rule] of Object.entries(plugin.rules)) {
      this.wrappedRules[name] = this.captureReports(name, rule);
    }
  }

  /**
   * The same rule, but every `context.report` is also recorded: ESLint's
   * messages carry no `data`, and the transforms need it (and the node range).
   */
  private captureReports(ruleName: string, rule: RuleModule): RuleModule {
    return {
      ...rule,
      create: (context) => {
        if (!this.activeRules.has(ruleName)) return {};
        const recordingContext = Object.create(context, {
          report: {
            value: (descriptor: ReportDescriptor) => {
              this.captured.push({ ruleName, descriptor, sourceCode: context.sourceCode, context });
              context.report(descriptor);
            },
          },
        }) as typeof context;
        return rule.create(recordingContext);
      },
    };
  }

  /** Flat-config matching is relative to `cwd`; a linter per filesystem root lets any absolute path match. */
  private linterFor(filePath: string): RecordingLinter {
    const root = parsePath(filePath).root || dirname(filePath);
    let linter = this.lintersByRoot.get(root);
    if (!linter) {
      linter = recordConfigArrays(new this.LinterClass({ configType: 'flat', cwd: root }));
      this.lintersByRoot.set(root, linter);
    }
    return linter;
  }

  rulesThatMayReport(text: string, ruleNames: readonly string[]): string[] {
    return ruleNames.filter((ruleName) => mayProduceFindings(text, [ruleName], this.recognitionSettings));
  }

  /** Lints with the config array this linter normalised for these options when there is one, and keeps the one it normalises otherwise. */
  private verify(text: string, filePath: string, ruleOptions: RuleOptionsByName): TSESLint.Linter.LintMessage[] {
    const key = JSON.stringify(ruleOptions);
    const recording = this.linterFor(filePath);
    const normalized = recording.normalizedConfigs.get(key);
    if (normalized) return recording.linter.verify(text, normalized, { filename: filePath });
    let config = this.configsByOptions.get(key);
    if (!config) {
      config = this.buildConfig(ruleOptions);
      this.configsByOptions.set(key, config);
    }
    recording.lastConfigArray = undefined;
    const messages = recording.linter.verify(text, config, { filename: filePath });
    if (isNormalizedConfigArray(recording.lastConfigArray)) recording.normalizedConfigs.set(key, recording.lastConfigArray);
    return messages;
  }

  private buildConfig(ruleOptions: RuleOptionsByName): TSESLint.Linter.ConfigType {
    const ruleEntries: Record<string, TSESLint.Linter.RuleEntry> = {};
    for (const [ruleName, rule] of Object.entries(plugin.rules)) {
      // The codemods migrate to what the strict config accepts; a transform's options go over it.
      const strictOptions = (rule.meta.docs as { strictOptions?: unknown[] } | undefined)?.strictOptions;
      const overrides = ruleOptions[ruleName];
      const options = overrides
        ? [{ ...(strictOptions?.[0] as object | undefined), ...overrides }, ...(strictOptions?.slice(1) ?? [])]
        : strictOptions;
      ruleEntries[`${PLUGIN_NAMESPACE}/${ruleName}`] = options ? ['error', ...options] : 'error';
    }
    const config = [
      {
        // A universal '**/*' alone matches nothing in flat config; every file we lint has an extension.
        files: ['**/*.*'],
        plugins: { [PLUGIN_NAMESPACE]: { rules: this.wrappedRules } },
        languageOptions: {
          parser: typescriptParser,
          sourceType: 'module',
          ecmaVersion: 'latest',
          // The ESTree-to-TypeScript node maps serve type-aware rules only; this lint has no types (about 10% of a parse).
          parserOptions: { preserveNodeMaps: false },
        },
        linterOptions: { reportUnusedDisableDirectives: 'off' },
        settings: this.settings,
        rules: ruleEntries,
      },
    ];
    return config as unknown as TSESLint.Linter.ConfigType;
  }

  collect(text: string, filePath: string, ruleNames: readonly string[], ruleOptions: RuleOptionsByName = {}): RuleFinding[] {
    const missing = ruleNames.find((ruleName) => !Object.hasOwn(plugin.rules, ruleName));
    if (missing !== undefined) {
      throw new CodemodUsageError(
        'RULE_MISSING',
        `The rule "${missing}" is not in this build of tool-result-guard; update the package or drop the transform that needs it.`,
      );
    }
    this.captured = [];
    this.activeRules = new Set(ruleNames);
    let messages: TSESLint.Linter.LintMessage[];
    try {
      messages = this.verify(text, filePath, ruleOptions);
    } finally {
      this.activeRules = new Set();
    }
    const captured = this.captured;
    this.captured = [];

    const fatal = messages.find((message) => message.fatal);
    if (fatal) throw new UnparseableFileError(filePath, fatal.message, fatal.line, fatal.column);

    return pairMessagesWithReports(messages, captured);
  }
}

function locationOf(report: CapturedReport): { start: number; end: number; line: number; column: number } {
  const { descriptor, sourceCode } = report;
  if ('node' in descriptor && descriptor.node && !descriptor.loc) {
    const node = descriptor.node as TSESTree.Node;
    return { start: node.range[0], end: node.range[1], line: node.loc.start.line, column: node.loc.start.column + 1 };
  }
  const loc = descriptor.loc as TSESTree.SourceLocation | TSESTree.Position;
  const startPosition = 'start' in loc ? loc.start : loc;
  const endPosition = 'end' in loc ? loc.end : loc;
  return {
    start: sourceCode.getIndexFromLoc(startPosition),
    end: sourceCode.getIndexFromLoc(endPosition),
    line: startPosition.line,
    column: startPosition.column + 1,
  };
}

type Range = readonly [number, number];
type RangedThing = { range: Range };

/** ESLint's fixer API, recording splices instead of merging them. */
const splitFixer = {
  insertTextAfter: (thing: RangedThing, text: string): TextEdit => ({ start: thing.range[1], end: thing.range[1], text }),
  insertTextAfterRange: (range: Range, text: string): TextEdit => ({ start: range[1], end: range[1], text }),
  insertTextBefore: (thing: RangedThing, text: string): TextEdit => ({ start: thing.range[0], end: thing.range[0], text }),
  insertTextBeforeRange: (range: Range, text: string): TextEdit => ({ start: range[0], end: range[0], text }),
  remove: (thing: RangedThing): TextEdit => ({ start: thing.range[0], end: thing.range[1], text: '' }),
  removeRange: (range: Range): TextEdit => ({ start: range[0], end: range[1], text: '' }),
  replaceText: (thing: RangedThing, text: string): TextEdit => ({ start: thing.range[0], end: thing.range[1], text }),
  replaceTextRange: (range: Range, text: string): TextEdit => ({ start: range[0], end: range[1], text }),
};

/** Runs a rule's fix function with the splitting fixer; `undefined` when it offers nothing. */
export function splitFix(fix: unknown): TextEdit[] | undefined {
  if (typeof fix !== 'function') return undefined;
  const edits = producedFixes((fix as (fixer: typeof splitFixer) => TextEdit | Iterable<TextEdit | null> | null | undefined)(splitFixer));
  return edits.length > 0 ? edits : undefined;
}

/**
 * Messages that survived `eslint-disable` comments are paired with the
 * captured reports by rule, message id and start position; a finding the
 * user disabled therefore never drives an edit. The finding is typed by its
 * rule's protocol (`codemods/rule-protocol.ts`): the rules check their reports'
 * `data` against it, so this is the one place the captured `data` is taken
 * as what the rule declared.
 */
function pairMessagesWithReports(messages: TSESLint.Linter.LintMessage[], captured: CapturedReport[]): RuleFinding[] {
  const unpaired = captured.map((report) => ({ report, location: locationOf(report) }));
  const findings: RuleFinding[] = [];
  for (const message of messages) {
    if (!message.ruleId?.startsWith(`${PLUGIN_NAMESPACE}/`)) continue;
    const ruleName = message.ruleId.slice(PLUGIN_NAMESPACE.length + 1);
    const index = unpaired.findIndex(
      ({ report, location }) =>
        report.ruleName === ruleName &&
        report.descriptor.messageId === message.messageId &&
        location.line === message.line &&
        location.column === message.column,
    );
    const match = index === -1 ? undefined : unpaired.splice(index, 1)[0];
    if (!match) {
      // Every message of these rules comes from a captured report; one that does not is a bug here.
      throw new Error(
        `the ${ruleName} report at ${message.line}:${message.column} (${message.messageId ?? 'no message id'}) was not captured`,
      );
    }
    const { descriptor, context } = match.report;
    const suggestions: RuleSuggestion[] = [];
    for (const suggestion of descriptor.suggest ?? []) {
      const edits = splitFix(suggestion.fix);
      if (!edits) continue;
      const described = message.suggestions?.find((candidate) => candidate.messageId === suggestion.messageId);
      suggestions.push({ messageId: suggestion.messageId, description: described?.desc ?? '', edits });
    }
    findings.push({
      ruleName,
      messageId: descriptor.messageId,
      message: message.message,
      start: match.location.start,
      end: match.location.end,
      line: message.line,
      column: message.column,
      data: descriptor.data ?? {},
      fix: message.fix
        ? (splitFix(descriptor.fix) ?? [{ start: message.fix.range[0], end: message.fix.range[1], text: message.fix.text }])
        : undefined,
      suggestions,
      reportedNode: 'node' in descriptor ? (descriptor.node as TSESTree.Node) : undefined,
      ruleContext: context,
    } as unknown as RuleFinding);
  }
  return findings;
}
