/**
 * The recognition state of one linted file, shared by every rule that asks:
 * settings, the file's index (built lazily — most files define no tool), and
 * the type checker when the parser has a program.
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import type * as ts from 'typescript';

import { type FileIndex, buildFileIndex } from './file-index.js';
import type { FlowEnvironment } from './input-flow.js';
import { programSpellsAny } from './program-text.js';
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
}

interface ParserServicesWithProgram {
  program: ts.Program;
  esTreeNodeToTSNodeMap: { get(node: TSESTree.Node): ts.Node | undefined };
}

function programServices(sourceCode: Readonly<TSESLint.SourceCode>): ParserServicesWithProgram | undefined {
  const services = sourceCode.parserServices as Partial<ParserServicesWithProgram> | undefined;
  return services?.program && services.esTreeNodeToTSNodeMap ? (services as ParserServicesWithProgram) : undefined;
}

const contexts = new WeakMap<TSESTree.Program, Map<RecognitionSettings, RecognitionContext>>();

export function getRecognitionContext(
  context: Readonly<TSESLint.RuleContext<string, readonly unknown[]>>,
): RecognitionContext {
  const settings = getRecognitionSettings(context);
  const sourceCode = context.sourceCode;
  const program = sourceCode.ast;
  let bySettings = contexts.get(program);
  const cached = bySettings?.get(settings);
  if (cached) return cached;

  const services = programServices(sourceCode);
  let file: FileIndex | undefined;
  const getFile = (): FileIndex => (file ??= buildFileIndex(program, context.physicalFilename));
  let environment: FlowEnvironment | undefined;
  const recognition: RecognitionContext = {
    settings,
    filePath: context.physicalFilename,
    get file() {
      return getFile();
    },
    get environment(): FlowEnvironment {
      return (environment ??= {
        settings,
        types: services
          ? { program: services.program, esTreeNodeToTSNodeMap: services.esTreeNodeToTSNodeMap, lintedFile: getFile() }
          : undefined,
      });
    },
    contextualTypeName: services
      ? (node) => {
          // Tool types are named `…Tool`/`…ToolDef(inition)` or in settings: a program that spells none has no such type.
          if (!programSpellsAny(services.program, ['Tool', ...settings.toolTypeNames])) return undefined;
          const tsNode = services.esTreeNodeToTSNodeMap.get(node);
          if (!tsNode) return undefined;
          const checker = services.program.getTypeChecker();
          const type = checker.getContextualType(tsNode as ts.Expression);
          const symbol = type?.aliasSymbol ?? type?.getSymbol();
          return symbol?.getName();
        }
      : undefined,
    hasTypeInformation: services !== undefined,
  };
  if (!bySettings) {
    bySettings = new Map();
    contexts.set(program, bySettings);
  }
  bySettings.set(settings, recognition);
  return recognition;
}
