import type { TSESLint } from '@typescript-eslint/utils';
import type * as ts from 'typescript';

import { getRecognitionContext } from './context.js';
import { programSpellsAny } from './program-text.js';
import { FORK_CALLEE_PATTERN, RUNTIME_MARK_SEEN, RUNTIME_RECORD_REPLACEMENT } from './replacement-state/names.js';
import type { RecognitionSettings } from './settings.js';
import { anyWordPattern } from './text-patterns.js';
import { mayDefineTools } from './tool-definitions.js';

/**
 * A threshold resolver reads `…maxResultSizeChars` or a `declared…`
 * parameter by name.
 */
const THRESHOLD_SPELLING = /maxResultSizeChars|declared/i;
/** `persist-only-owned-sessions` hangs every report on a query source, found by name. */
const QUERY_SOURCE_SPELLING = /querySource/i;
/** Persistence by name: any callee naming `persist` (the frozen-fates rules' widening). */
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
 * A rule's text prefilter: can a file with this text produce one of the
 * rule's reports at all? Each test is the cheapest necessary condition of the
 * rule's own recognition, so a `false` is certain and a `true` only means
 * "lint it". `typed(names)`: can a value in this file have a type whose name
 * contains one of `names`? `typed()`: is there type information at all? Both
 * `false` without type information. Each rule passes its own to `createRule`
 * (`mayReport`), which applies it.
 */
export type TextTest = (text: string, settings: RecognitionSettings, typed: (names?: Iterable<string>) => boolean) => boolean;

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

/**
 * `(text, settings) => does text contain one of names(settings)?`, as one
 * pattern built once per settings object.
 */
function spellsAnyOf(
  names: (settings: RecognitionSettings) => readonly string[],
): (text: string, settings: RecognitionSettings) => boolean {
  const bySettings = new WeakMap<RecognitionSettings, RegExp>();
  return (text, settings) => {
    let pattern = bySettings.get(settings);
    if (!pattern) {
      pattern = anyWordPattern(names(settings));
      bySettings.set(settings, pattern);
    }
    return pattern.test(text);
  };
}

const lastNames = (dottedNames: readonly string[]): string[] => dottedNames.map((name) => name.split('.').pop()!);
const spellsStateName = spellsAnyOf((settings) => [
  ...settings.replacementsMapNames,
  ...settings.seenSetNames,
  RUNTIME_MARK_SEEN,
  RUNTIME_RECORD_REPLACEMENT,
]);
const spellsReplacementWrite = spellsAnyOf((settings) => [...settings.replacementsMapNames, RUNTIME_RECORD_REPLACEMENT]);
const spellsPersistenceCall = spellsAnyOf((settings) => lastNames(settings.persistenceCalls));
const spellsForkCallee = spellsAnyOf((settings) => lastNames(settings.forkCallees));

/** Can `text` name a persistence call: `persist…` or the last name of a settings entry (`store.persist` → `persist`)? */
function mayPersist(text: string, settings: RecognitionSettings): boolean {
  return PERSIST_SPELLING.test(text) || spellsPersistenceCall(text, settings);
}

/**
 * Reports on tool definitions only (`require-unbounded-self-reading-tool`,
 * `declare-tool-state-scope`). Typed, an object literal is a tool by its
 * contextual type, whatever the file spells.
 */
export const mayDefineToolsInText: TextTest = (text, settings, typed) => typed(toolTypeNamesOf(settings)) || mayDefineTools(text, settings);

/**
 * Every override lookup (`recognition/guards.ts`, `isOverrideLookup`) reads a
 * table or object whose name ends in `override(s)` (so no name character
 * follows it: `overridden`, `overrideConfig` are not such names), or calls or
 * indexes a name from the `overrideLookups` settings, whose last segment the
 * text then spells.
 */
const OVERRIDE_SPELLING = /overrides?(?![\w$])/i;
const spellsOverrideLookup = spellsAnyOf((settings) => lastNames(settings.overrideLookups));

/**
 * `sentinel-before-override` reports an override lookup in a threshold
 * resolver, which reads `…maxResultSizeChars` or a `declared…` parameter by
 * name: the file spells both.
 */
export const mayResolveThresholdInText: TextTest = (text, settings) =>
  THRESHOLD_SPELLING.test(text) && (OVERRIDE_SPELLING.test(text) || spellsOverrideLookup(text, settings));

/** Reports sit on a replacement write or a seen mark (`mark-seen-before-replacement`), recognised by name unless typed. */
export const mayTouchReplacementStateInText: TextTest = (text, settings, typed) =>
  typed(settings.stateTypeNames) || spellsStateName(text, settings);

/**
 * Reports sit on a replacement write (by name unless typed) that has a
 * persistence call to compare with (`replace-only-after-persist`).
 */
export const mayWriteReplacementAndPersistInText: TextTest = (text, settings, typed) =>
  mayPersist(text, settings) && (typed(settings.stateTypeNames) || spellsReplacementWrite(text, settings));

/**
 * Every report of `persist-only-owned-sessions` hangs on a query source,
 * found by name; typed, one may be inferred, so any file that persists counts.
 */
export const mayPersistForQuerySourceInText: TextTest = (text, settings, typed) =>
  QUERY_SOURCE_SPELLING.test(text) || (typed() && mayPersist(text, settings));

/** Reports sit on arguments of a fork call (`clone-state-on-fork`), recognised by its callee's name. */
export const mayForkInText: TextTest = (text, settings) => FORK_CALLEE_PATTERN.test(text) || spellsForkCallee(text, settings);

/**
 * Can linting `text` with a rule whose prefilter is `test` report anything?
 * Rules apply it first thing (through `createRule`) to skip files they have
 * nothing to say about (most files of a codebase); the codemods ask the same
 * test to skip ESLint entirely for such files, so the codemod can never skip
 * a file a rule would report on.
 */
export function passesTextTest(test: TextTest, text: string, settings: RecognitionSettings, options: PrefilterOptions = {}): boolean {
  const hasTypes = options.hasTypeInformation ?? false;
  const program = options.program;
  // Without the program, assume any type name is possible (the conservative answer).
  const typed = (names?: Iterable<string>): boolean =>
    hasTypes && (names === undefined || program === undefined || programSpellsAny(program, names));
  return test(text, settings, typed);
}

/** For `createRule`: `false` when this file cannot produce any report of the rule whose prefilter is `test`. */
export function ruleMayReport(context: Readonly<TSESLint.RuleContext<string, readonly unknown[]>>, test: TextTest): boolean {
  const recognition = getRecognitionContext(context);
  return passesTextTest(test, context.sourceCode.text, recognition.settings, {
    hasTypeInformation: recognition.hasTypeInformation,
    program: recognition.types?.program,
  });
}
