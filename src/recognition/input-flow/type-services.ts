/**
 * What every step of the input flow is given: the recognition settings
 * (which calls are readers) and, when the linted file has type information,
 * the type services. With them a call is followed wherever the type checker
 * says its callee is declared (a tsconfig path alias, a method of a typed
 * receiver in another file), so a self-reading tool whose read hides behind
 * such a call is still found: it reads a model-chosen location and returns
 * what it read, and a persisted result read back grows without bound.
 */
import type { TSESTree } from '@typescript-eslint/utils';
import type * as ts from 'typescript';

import { skipTypeWrappers } from '../ast.js';
import type { FileIndex } from '../file-index.js';
import { type ResolvedFunction, findFunctionEndingAt, loadModule } from '../module-graph.js';
import type { RecognitionSettings } from '../settings.js';

/** What the type checker adds, when the linted file has type information. */
export interface TypeServices {
  program: ts.Program;
  esTreeNodeToTSNodeMap: { get(node: TSESTree.Node): ts.Node | undefined };
  /** The linted file's tree, so declarations in it map back to our nodes. */
  lintedFile: FileIndex;
}

/** What the input flow of one linted file is given. */
export interface FlowEnvironment {
  settings: RecognitionSettings;
  /** Type information of the linted file, when the parser has a program. */
  types?: TypeServices | undefined;
}

/** Resolves a callee of the linted file through the type checker. */
export function resolveCalleeWithTypes(
  call: TSESTree.CallExpression | TSESTree.NewExpression,
  types: TypeServices,
): ResolvedFunction | undefined {
  const tsCallee = types.esTreeNodeToTSNodeMap.get(skipTypeWrappers(call.callee));
  if (!tsCallee) return undefined;
  const checker = types.program.getTypeChecker();
  const nameNode = (tsCallee as ts.PropertyAccessExpression).name ?? tsCallee;
  let symbol = checker.getSymbolAtLocation(nameNode);
  // ts.SymbolFlags.Alias = 2097152: follow `import { x as y }` and re-exports to the declaration.
  if (symbol && symbol.flags & 2097152) symbol = checker.getAliasedSymbol(symbol);
  const declaration = symbol?.valueDeclaration ?? symbol?.declarations?.[0];
  if (!declaration) return undefined;
  const sourceFile = declaration.getSourceFile();
  if (sourceFile.isDeclarationFile) return undefined;
  const fileName = sourceFile.fileName;
  const file = fileName === types.lintedFile.filePath ? types.lintedFile : loadModule(fileName);
  return file ? findFunctionEndingAt(file, declaration.end) : undefined;
}
