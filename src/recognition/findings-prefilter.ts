import type { TSESLint } from '@typescript-eslint/utils';
import type * as ts from 'typescript';

import { getRecognitionContext } from './context.js';
import { programSpellsAny } from './program-text.js';
import { FORK_CALLEE_PATTERN, RUNTIME_MARK_SEEN, RUNTIME_RECORD_REPLACEMENT } from './replacement-state/names.js';
import type { RecognitionSettings } from './settings.js';
import { mayDefineTools } from './tool-definitions.js';

/**
 * A threshold resolver reads `…maxResultSizeChars` or a `declared…`
 * parameter by name.
 */
const THRESHOLD_SPELLING = /maxResultSizeChars|declared/i;
/** `persist-only-owned-sessions` hangs every report on a query source, found by name. */
const QUERY_SOURCE_SPELLING = /querySource/i;
/** Persistence by name: any callee naming `persist` (the seed-002 rules' widening). */
const PERSIST_SPELLING = /persist/i;

export interface PrefilterOptions {
  /**
   * With type information some shapes are recognised by their type alone
   * (a tool object by its contextual type, a state by its type name), so
   * the spelling tests that rely on names do not hold there.
   */
  hasTypeInformation?: boolean;
  /**
   * The typed program, when there is one: a shape recognised by a type name
   * is possible only if some file of the program spells that name, so the
   * name tests keep holding in programs that spell none (most of them).
   */
  program?: ts.Program;
}

/**
 * `typed(names)`: can a value in this file have a type whose name contains
 * one of `names`? `typed()`: is there type information at all? Both `false`
 * without type information.
 */
type TextTest = (text: string, settings: RecognitionSettings, typed: (names?: Iterable<string>) => boolean) => boolean;

const toolTypeSpellings = new WeakMap<RecognitionSettings, readonly string[]>();
/** The spellings a tool type name must contain: `…Tool`, `…ToolDef(inition)` or a settings name. */
function toolTypeNamesOf(settings: RecognitionSettings): readonly string[] {
  let names = toolTypeSpellings.get(settings);
  if (!names) {
    names = ['Tool', ...settings.toolTypeNames];
    toolTypeSpellings.set(settings, names);
  }
  return names;
}

const stateSpellings = new WeakMap<RecognitionSettings, readonly string[]>();
const forkSpellings = new WeakMap<RecognitionSettings, readonly string[]>();
const replacementWriteSpellings = new WeakMap<RecognitionSettings, readonly string[]>();
const persistenceSpellings = new WeakMap<RecognitionSettings, readonly string[]>();

/** Can `text` name a persistence call: `persist…` or the last name of a settings entry (`store.persist` → `persist`)? */
function mayPersist(text: string, settings: RecognitionSettings): boolean {
  if (PERSIST_SPELLING.test(text)) return true;
  let names = persistenceSpellings.get(settings);
  if (!names) {
    names = settings.persistenceCalls.map((name) => name.split('.').pop()!);
    persistenceSpellings.set(settings, names);
  }
  return names.some((name) => text.includes(name));
}

/**
 * Per rule: can a file with this text produce a report at all? Each test is
 * the cheapest necessary condition of the rule's own recognition, so a
 * `false` is certain and a `true` only means "lint it".
 */
const TEXT_TESTS: Readonly<Record<string, TextTest>> = {
  // Both report on tool definitions only.
  // Typed, an object literal is a tool by its contextual type, whatever the file spells.
  'require-unbounded-self-reading-tool': (text, settings, typed) => typed(toolTypeNamesOf(settings)) || mayDefineTools(text, settings),
  'declare-tool-state-scope': (text, settings, typed) => typed(toolTypeNamesOf(settings)) || mayDefineTools(text, settings),
  'sentinel-before-override': (text) => THRESHOLD_SPELLING.test(text),
  // Reports sit on a replacement write or a seen mark, recognised by name unless typed.
  'mark-seen-before-replacement': (text, settings, typed) => {
    if (typed(settings.stateTypeNames)) return true;
    let names = stateSpellings.get(settings);
    if (!names) {
      names = [...settings.replacementsMapNames, ...settings.seenSetNames, RUNTIME_MARK_SEEN, RUNTIME_RECORD_REPLACEMENT];
      stateSpellings.set(settings, names);
    }
    return names.some((name) => text.includes(name));
  },
  // Reports sit on a replacement write (by name unless typed) that has a persistence call to compare with.
  'replace-only-after-persist': (text, settings, typed) => {
    if (!mayPersist(text, settings)) return false;
    if (typed(settings.stateTypeNames)) return true;
    let names = replacementWriteSpellings.get(settings);
    if (!names) {
      names = [...settings.replacementsMapNames, RUNTIME_RECORD_REPLACEMENT];
      replacementWriteSpellings.set(settings, names);
    }
    return names.some((name) => text.includes(name));
  },
  // Every report hangs on a query source, found by name; typed, one may be inferred, so any file that persists counts.
  'persist-only-owned-sessions': (text, settings, typed) =>
    QUERY_SOURCE_SPELLING.test(text) || (typed() && mayPersist(text, settings)),
  // Reports sit on arguments of a fork call, recognised by its callee's name.
  'clone-state-on-fork': (text, settings) => {
    if (FORK_CALLEE_PATTERN.test(text)) return true;
    let names = forkSpellings.get(settings);
    if (!names) {
      names = settings.forkCallees.map((name) => name.split('.').pop()!);
      forkSpellings.set(settings, names);
    }
    return names.some((name) => text.includes(name));
  },
};

/**
 * Can linting `text` with any of `ruleNames` report anything? Rules call it
 * first thing to skip files they have nothing to say about (most files of a
 * codebase); the codemods call it to skip ESLint entirely for such files.
 * One function for both, so the codemod can never skip a file a rule would
 * report on. A rule without a text test always answers `true`.
 */
export function mayProduceFindings(
  text: string,
  ruleNames: readonly string[],
  settings: RecognitionSettings,
  options: PrefilterOptions = {},
): boolean {
  const hasTypes = options.hasTypeInformation ?? false;
  const program = options.program;
  // Without the program, assume any type name is possible (the conservative answer).
  const typed = (names?: Iterable<string>): boolean =>
    hasTypes && (names === undefined || program === undefined || programSpellsAny(program, names));
  return ruleNames.some((ruleName) => {
    const test = TEXT_TESTS[ruleName];
    return test === undefined || test(text, settings, typed);
  });
}

/** For a rule's `create`: `false` when this file cannot produce any of the rule's reports (return `{}` then). */
export function ruleMayReport(context: Readonly<TSESLint.RuleContext<string, readonly unknown[]>>, ruleName: string): boolean {
  const recognition = getRecognitionContext(context);
  return mayProduceFindings(context.sourceCode.text, [ruleName], recognition.settings, {
    hasTypeInformation: recognition.hasTypeInformation,
    program: recognition.types?.program,
  });
}
