import { Node, SyntaxKind, type ImportDeclaration, type SourceFile } from 'ts-morph';

import type { TextEdit } from './transform.js';

/** The package the codemods import helpers and sentinels from. */
export const PACKAGE_NAME = 'tool-result-guard';

/** True when the two edits touch the same text (two insertions at one point do not). */
function overlaps(first: TextEdit, second: TextEdit): boolean {
  if (first.start === first.end && second.start === second.end) return false;
  return first.start < second.end && second.start < first.end;
}

/**
 * Keeps the edits that can be applied together: no-ops dropped, the first of
 * two overlapping edits kept (the runner lints again and retries the rest).
 */
export function selectCompatibleEdits(text: string, edits: readonly TextEdit[]): { accepted: TextEdit[]; deferred: number } {
  const accepted: TextEdit[] = [];
  let deferred = 0;
  const seen = new Set<string>();
  for (const edit of edits) {
    if (text.slice(edit.start, edit.end) === edit.text) continue;
    const key = `${edit.start}:${edit.end}:${edit.text}`;
    if (seen.has(key)) continue;
    if (accepted.some((other) => overlaps(other, edit))) {
      deferred += 1;
      continue;
    }
    seen.add(key);
    accepted.push(edit);
  }
  return { accepted, deferred };
}

/**
 * Applies the edits (offsets into `text`, none overlapping) as one batch of
 * minimal text splices; the rest of the text is untouched. Edits at one
 * offset keep their order, as ts-morph's `applyTextChanges` keeps it.
 */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  if (edits.length === 0) return text;
  const sorted = edits.map((edit, index) => ({ edit, index })).sort((a, b) => a.edit.start - b.edit.start || a.index - b.index);
  const pieces: string[] = [];
  let position = 0;
  for (const { edit } of sorted) {
    pieces.push(text.slice(position, edit.start), edit.text);
    position = edit.end;
  }
  pieces.push(text.slice(position));
  return pieces.join('');
}

/** The whitespace that starts the line `position` is on. */
export function indentationAt(sourceFile: SourceFile, position: number): string {
  const text = sourceFile.getFullText();
  const lineStart = text.lastIndexOf('\n', position - 1) + 1;
  const match = /^[ \t]*/.exec(text.slice(lineStart, position));
  return match?.[0] ?? '';
}

/** The file's newline, so inserted lines match the lines around them. */
export function newlineOf(sourceFile: SourceFile): string {
  return sourceFile.getFullText().includes('\r\n') ? '\r\n' : '\n';
}

/** The file's indentation unit, guessed from its first indented line. */
export function indentUnitOf(sourceFile: SourceFile): string {
  const match = /\n([ \t]+)\S/.exec(sourceFile.getFullText());
  if (!match?.[1]) return '  ';
  return match[1].startsWith('\t') ? '\t' : match[1].length >= 4 && match[1].length % 4 === 0 ? '    ' : '  ';
}

/** The quote the file writes module names with (its first import, else its first string), so an added import matches. */
export function quoteOfFile(sourceFile: SourceFile): "'" | '"' {
  const first =
    sourceFile.getImportDeclarations()[0]?.getModuleSpecifier() ?? sourceFile.getFirstDescendantByKind(SyntaxKind.StringLiteral);
  return first?.getText().startsWith('"') ? '"' : "'";
}

function importsFromPackage(sourceFile: SourceFile): ImportDeclaration[] {
  return sourceFile.getImportDeclarations().filter((declaration) => declaration.getModuleSpecifierValue() === PACKAGE_NAME);
}

/** Whether the file already imports anything from tool-result-guard (so `UNBOUNDED` is at hand). */
export function importsToolResultGuard(sourceFile: SourceFile): boolean {
  return importsFromPackage(sourceFile).length > 0;
}

/**
 * How to refer to `exportName` from tool-result-guard in this file, and the
 * edit (if any) that makes it available: an existing binding is reused, an
 * existing value import from the package is extended, else one import is added
 * after the last import (a `require` in `.cjs` files).
 */
export function ensurePackageImport(sourceFile: SourceFile, exportName: string): { reference: string; edit: TextEdit | undefined } {
  const declarations = importsFromPackage(sourceFile);
  for (const declaration of declarations) {
    if (declaration.isTypeOnly()) continue;
    const namespaceImport = declaration.getNamespaceImport();
    if (namespaceImport) return { reference: `${namespaceImport.getText()}.${exportName}`, edit: undefined };
    for (const specifier of declaration.getNamedImports()) {
      if (specifier.isTypeOnly()) continue;
      if (specifier.getName() === exportName) {
        return { reference: specifier.getAliasNode()?.getText() ?? exportName, edit: undefined };
      }
    }
  }
  const extendable = declarations.find((declaration) => !declaration.isTypeOnly() && declaration.getNamedImports().length > 0);
  if (extendable) {
    const lastSpecifier = extendable.getNamedImports().at(-1)!;
    return { reference: exportName, edit: { start: lastSpecifier.getEnd(), end: lastSpecifier.getEnd(), text: `, ${exportName}` } };
  }
  const newline = newlineOf(sourceFile);
  const usesRequire = sourceFile.getFilePath().endsWith('.cjs');
  const source = `${quoteOfFile(sourceFile)}${PACKAGE_NAME}${quoteOfFile(sourceFile)}`;
  const statement = usesRequire ? `const { ${exportName} } = require(${source});` : `import { ${exportName} } from ${source};`;
  const lastImport = sourceFile.getImportDeclarations().at(-1);
  if (lastImport) {
    return { reference: exportName, edit: { start: lastImport.getEnd(), end: lastImport.getEnd(), text: `${newline}${statement}` } };
  }
  const start = firstStatementStart(sourceFile);
  const hasFollowingStatement = sourceFile.getStatements().some((statement) => statement.getStart(true) >= start);
  const text = hasFollowingStatement ? `${statement}${newline}${newline}` : `${newline}${statement}${newline}`;
  return { reference: exportName, edit: { start, end: start, text } };
}

/**
 * Where a new first import goes: after a shebang, leading comments that
 * belong to the file (a license header) and directive prologues (`'use strict'`).
 */
function firstStatementStart(sourceFile: SourceFile): number {
  const statements = sourceFile.getStatements();
  let index = 0;
  while (index < statements.length) {
    const statement = statements[index]!;
    if (Node.isExpressionStatement(statement) && statement.getExpression().getKind() === SyntaxKind.StringLiteral) {
      index += 1;
      continue;
    }
    break;
  }
  const next = statements[index];
  // With its JSDoc: an import must not separate a declaration from its doc comment.
  if (next) return next.getStart(true);
  return index > 0 ? statements[index - 1]!.getEnd() : sourceFile.getEnd();
}

/** The node a rule reported: the one spanning exactly the reported range, else the innermost at its start. */
export function nodeAtRange(sourceFile: SourceFile, start: number, end: number): Node | undefined {
  return sourceFile.getDescendantAtStartWithWidth(start, end - start) ?? sourceFile.getDescendantAtPos(start);
}

/** The statement that holds `node` directly in a statement list (a block, a case clause, the file). */
export function statementInListOf(node: Node): Node | undefined {
  let current: Node | undefined = node;
  while (current) {
    const parent: Node | undefined = current.getParent();
    if (!parent) return undefined;
    if (
      (Node.isBlock(parent) ||
        Node.isSourceFile(parent) ||
        Node.isCaseClause(parent) ||
        Node.isDefaultClause(parent) ||
        Node.isModuleBlock(parent)) &&
      Node.isStatement(current)
    ) {
      return current;
    }
    if (
      Node.isFunctionLikeDeclaration(current) ||
      Node.isArrowFunction(current) ||
      Node.isClassDeclaration(current) ||
      Node.isClassExpression(current)
    ) {
      // Statements inside a nested function are not the outer list's.
      if (!Node.isStatement(current)) return undefined;
    }
    current = parent;
  }
  return undefined;
}

/**
 * Where a statement's own text starts: its comments on the lines above it
 * (they describe it and move with it), else the statement itself.
 */
export function startWithOwnComments(statement: Node): number {
  const text = statement.getSourceFile().getFullText();
  const comments = statement.getLeadingCommentRanges();
  for (const comment of comments) {
    // A comment is the statement's own when nothing but indentation precedes it on its line.
    const lineStart = text.lastIndexOf('\n', comment.getPos() - 1) + 1;
    if (/^[ \t]*$/.test(text.slice(lineStart, comment.getPos()))) return comment.getPos();
  }
  return statement.getStart();
}

/**
 * The range that removes a statement with its own comments and its line
 * break, so no blank line is left where it was; `undefined` when it shares a
 * line with other code (then it is not removed at all).
 */
export function wholeLinesOf(statement: Node): { start: number; end: number } | undefined {
  const text = statement.getSourceFile().getFullText();
  const start = startWithOwnComments(statement);
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  if (!/^[ \t]*$/.test(text.slice(lineStart, start))) return undefined;
  const newline = text.indexOf('\n', statement.getEnd());
  const lineEnd = newline === -1 ? text.length : newline + 1;
  const rest = text.slice(statement.getEnd(), newline === -1 ? text.length : newline);
  if (!/^[ \t]*(?:\/\/.*)?\r?$/.test(rest)) return undefined;
  return { start: lineStart, end: lineEnd };
}

/** Re-indents the lines after the first from `from` to `to` (a moved block keeps its shape). */
export function reindent(text: string, from: string, to: string): string {
  return text
    .split('\n')
    .map((line, index) => (index > 0 && line.startsWith(from) ? to + line.slice(from.length) : line))
    .join('\n');
}

/** A `// TODO(tool-result-guard): …` line above `statement`, unless one is there already. */
export const TODO_MARKER = 'TODO(tool-result-guard)';

export function todoCommentEdit(statement: Node, message: string): TextEdit | undefined {
  const alreadyMarked = statement.getLeadingCommentRanges().some((comment) => comment.getText().includes(TODO_MARKER));
  if (alreadyMarked) return undefined;
  const sourceFile = statement.getSourceFile();
  const start = startWithOwnComments(statement);
  const indentation = indentationAt(sourceFile, start);
  return { start, end: start, text: `// ${TODO_MARKER}: ${message}${newlineOf(sourceFile)}${indentation}` };
}

/** What the rules' fixes import from tool-result-guard when they wrap or classify a tool. */
const FIX_IMPORT_NAMES = new Set(['classifyTool', 'UNBOUNDED', 'markSeen', 'cloneReplacementState']);

/**
 * The names a rule's fix imports from tool-result-guard, when `edit` is
 * that import (a new `import { … } from 'tool-result-guard'`, a `require`,
 * or `, name` added to an existing import); `undefined` for any other edit.
 */
function packageImportNamesOf(edit: TextEdit): string[] | undefined {
  const statement = /^\s*(?:import \{([^}]*)\} from|const \{([^}]*)\} = require\()\s*(['"])tool-result-guard\3\)?;\s*$/.exec(edit.text);
  const list = statement ? (statement[1] ?? statement[2]!) : /^, ([\w$]+(?:, [\w$]+)*)$/.exec(edit.text)?.[1];
  if (list === undefined || edit.start !== edit.end) return undefined;
  const names = list
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  return names.length > 0 && names.every((name) => FIX_IMPORT_NAMES.has(name)) ? names : undefined;
}

/**
 * The rules' fixes import what they use, each computed against the text the
 * rule saw; several fixes in one file would import the same name twice. The
 * codemod replaces those imports by one per name (`cache` holds the names
 * already imported in this pass), placed as `ensurePackageImport` places them.
 * `file` is the transform's input (its `sourceFile` is parsed on first use).
 */
export function withPackageImports(
  file: { readonly sourceFile: SourceFile },
  edits: readonly TextEdit[],
  cache: Map<string, TextEdit | undefined>,
): TextEdit[] {
  const kept: TextEdit[] = [];
  for (const edit of edits) {
    const names = packageImportNamesOf(edit);
    if (!names) {
      kept.push(edit);
      continue;
    }
    for (const name of names) {
      if (cache.has(name)) continue;
      // Read here, not before: the file is parsed by ts-morph only when a fix imports something.
      const { edit: importEdit } = ensurePackageImport(file.sourceFile, name);
      cache.set(name, importEdit);
      if (!importEdit) continue;
      // A second name for the same new import joins the first one's braces: one statement, not two.
      const joined = [...cache.values()].find(
        (earlier) =>
          earlier !== importEdit && earlier !== undefined && earlier.start === importEdit.start && earlier.end === importEdit.end,
      );
      if (joined) {
        joined.text = joined.text.includes('}') ? joined.text.replace(/ \}/, `, ${name} }`) : `${joined.text}, ${name}`;
        cache.set(name, joined);
        continue;
      }
      kept.push(importEdit);
    }
  }
  return kept;
}
