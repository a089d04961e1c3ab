/**
 * The parser's type information for one linted file, worked out once (by
 * `getRecognitionContext`) for every question the core asks of types.
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import type * as ts from 'typescript';

export interface ProgramTypes {
  readonly program: ts.Program;
  readonly esTreeNodeToTSNodeMap: { get(node: TSESTree.Node): ts.Node | undefined };
  /** The type checker, created on first use (about 0.75 s per program): most files never ask for a type. */
  checker(): ts.TypeChecker;
}

interface ParserServicesWithProgram {
  program: ts.Program;
  esTreeNodeToTSNodeMap: { get(node: TSESTree.Node): ts.Node | undefined };
}

/** The program and node map when the parser was given a project, else `undefined`. */
export function programTypesOf(sourceCode: Readonly<TSESLint.SourceCode>): ProgramTypes | undefined {
  const services = sourceCode.parserServices as Partial<ParserServicesWithProgram> | undefined;
  if (!services?.program || !services.esTreeNodeToTSNodeMap) return undefined;
  const { program, esTreeNodeToTSNodeMap } = services;
  let checker: ts.TypeChecker | undefined;
  return { program, esTreeNodeToTSNodeMap, checker: () => (checker ??= program.getTypeChecker()) };
}
