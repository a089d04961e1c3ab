/**
 * The recognition state of one linted file, shared by every rule that asks:
 * settings, the file's index (built lazily — most files define no tool), the
 * replacement-state recognizer (lazily too), and the parser's type
 * information when it has a program (worked out here, once).
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import type * as ts from 'typescript';

import { type FileIndex, programFileIndex } from './file-index.js';
import type { FlowEnvironment } from './input-flow/index.js';
import { rememberProgramText } from './module-graph.js';
import { programSpellsAny } from './program-text.js';
import { type ProgramTypes, programTypesOf } from './program-types.js';
import { type ReplacementStateRecognizer, buildReplacementStateRecognizer } from './replacement-state/recognizer.js';
import { type RecognitionSettings, getRecognitionSettings } from './settings.js';

export interface RecognitionContext {
  settings: RecognitionSettings;
  /** The linted file's path as ESLint gives it (absolute in a real run). */
  filePath: string;
  /** The linted file's index (imports, functions, classes, constants, exports). */
  readonly file: FileIndex;
  readonly environment: FlowEnvironment;
  /** Type-aware mode: the name of an object literal's contextual type. */
  contextualTypeName: ((node: TSESTree.ObjectExpression) => string | undefined) | undefined;
  hasTypeInformation: boolean;
  /** The parser's program, node map and (lazy) checker; `undefined` without type information. */
  readonly types?: ProgramTypes | undefined;
}

/** What `getRecognitionContext` builds for a linted file: the context, and the recognizers built on it. */
export interface FileRecognitionContext extends RecognitionContext {
  /** Seen sets, replacement maps, persistence calls, forks and clones of this file (frozen fates), built on first use. */
  readonly replacementState: ReplacementStateRecognizer;
}

const contexts = new WeakMap<TSESTree.Program, Map<RecognitionSettings, FileRecognitionContext>>();

export function getRecognitionContext(context: Readonly<TSESLint.RuleContext<string, readonly unknown[]>>): FileRecognitionContext {
  const settings = getRecognitionSettings(context);
  const sourceCode = context.sourceCode;
  const program = sourceCode.ast;
  let bySettings = contexts.get(program);
  const cached = bySettings?.get(settings);
  if (cached) return cached;

  rememberProgramText(program, sourceCode.text, context.physicalFilename);
  const programTypes = programTypesOf(sourceCode);
  let file: FileIndex | undefined;
  let replacementState: ReplacementStateRecognizer | undefined;
  // The same index the shapes ask for by program (`programFileIndex`): one walk of the file, whoever asks first.
  const getFile = (): FileIndex => (file ??= programFileIndex(program, context.physicalFilename));
  let environment: FlowEnvironment | undefined;
  const recognition: FileRecognitionContext = {
    settings,
    filePath: context.physicalFilename,
    get file() {
      return getFile();
    },
    get environment(): FlowEnvironment {
      return (environment ??= {
        settings,
        types: programTypes
          ? { program: programTypes.program, esTreeNodeToTSNodeMap: programTypes.esTreeNodeToTSNodeMap, lintedFile: getFile() }
          : undefined,
      });
    },
    contextualTypeName: programTypes
      ? (node) => {
          // Tool types are named `…Tool`/`…ToolDef(inition)` or in settings: a program that spells none has no such type.
          if (!programSpellsAny(programTypes.program, ['Tool', ...settings.toolTypeNames])) return undefined;
          const tsNode = programTypes.esTreeNodeToTSNodeMap.get(node);
          if (!tsNode) return undefined;
          const checker = programTypes.checker();
          const type = checker.getContextualType(tsNode as ts.Expression);
          const symbol = type?.aliasSymbol ?? type?.getSymbol();
          return symbol?.getName();
        }
      : undefined,
    hasTypeInformation: programTypes !== undefined,
    types: programTypes,
    get replacementState(): ReplacementStateRecognizer {
      return (replacementState ??= buildReplacementStateRecognizer(settings, sourceCode, programTypes, getFile));
    },
  };
  if (!bySettings) {
    bySettings = new Map();
    contexts.set(program, bySettings);
  }
  bySettings.set(settings, recognition);
  return recognition;
}
