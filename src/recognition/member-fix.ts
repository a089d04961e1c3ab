/**
 * Where a fix adds a classification member (`maxResultSizeChars`,
 * `stateScope`) a tool does not declare yet: the first member of the class,
 * the last property of the object literal, for MCP `registerTool` a key in
 * `_meta` (`'anthropic/<member>'`, the key MCP clients read), and for tools
 * whose framework type has no such field (AI SDK, LangChain, Mastra, OpenAI
 * Agents, MCP `server.tool`) a `classifyTool(tool, { … })` wrapper, so the
 * fix compiles against the framework's own types. One place, so every
 * rule's fix and the codemods built on them put it in the same spot.
 */
import { AST_NODE_TYPES, AST_TOKEN_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { type ClassNode, getStaticKeyName, getStringValue, isClassNode } from './ast.js';
import { classificationHomeOf, findClassifyToolObjects, toolExpressionOf } from './classification.js';
import type { FileIndex } from './file-index.js';
import type { ProgramTypes } from './program-types.js';
import { CLASSIFY_TOOL_NAME } from './tool-object-type.js';
import { findMcpMetaObject } from './tool-members.js';
import { MCP_META_PREFIX, type ToolDefinition } from './tool-shapes/vocabulary.js';

/** The package fixes import `classifyTool` and `UNBOUNDED` from. */
export const PACKAGE_NAME = 'tool-result-guard';

/** The whitespace that starts the line `node` starts on: what a statement or member inserted before it is indented by. */
export function indentationOf(sourceCode: Readonly<TSESLint.SourceCode>, node: TSESTree.Node): string {
  const line = sourceCode.lines[node.loc.start.line - 1] ?? '';
  return /^\s*/.exec(line)?.[0] ?? '';
}

/** Is `node` the first thing on its line (a layout with one member per line)? */
function startsOwnLine(sourceCode: Readonly<TSESLint.SourceCode>, node: TSESTree.Node): boolean {
  const before = sourceCode.getTokenBefore(node, { includeComments: true });
  return !before || before.loc.end.line < node.loc.start.line;
}

/** Adds `text` as the last property of an object literal, keeping its layout. */
export function insertObjectProperty(
  fixer: TSESLint.RuleFixer,
  sourceCode: Readonly<TSESLint.SourceCode>,
  object: TSESTree.ObjectExpression,
  text: string,
): TSESLint.RuleFix {
  const last = object.properties[object.properties.length - 1];
  if (!last) return fixer.replaceText(object, `{ ${text} }`);
  const separator = startsOwnLine(sourceCode, last) ? `\n${indentationOf(sourceCode, last)}` : ' ';
  const after = sourceCode.getTokenAfter(last);
  if (after?.value === ',') return fixer.insertTextAfter(after, `${separator}${text},`);
  return fixer.insertTextAfter(last, `,${separator}${text}`);
}

export interface InsertMemberOptions {
  /** Class fields get `readonly` (keeps a string literal's literal type, e.g. `'session'`); TypeScript files only. */
  readonlyField?: boolean;
  /**
   * The linted file's index: a tool made by a package's factory, or typed
   * with a type that lacks the member, gets the `classifyTool` wrapper.
   */
  file?: FileIndex;
  /** The parser's type information, when it has a program: the checker then says whether the tool's type has the member. */
  types?: ProgramTypes | undefined;
  /**
   * A self-reading tool's `reads` (`'path'`, `'url'`, `'resource'`). In a
   * `classifyTool` wrapper it is written with `maxResultSizeChars: UNBOUNDED`:
   * the wrapper's types demand the brand, which the plain `Infinity` lacks.
   */
  reads?: 'path' | 'url' | 'resource';
  /** Names from tool-result-guard that `valueText` uses (`UNBOUNDED`): the fix imports the missing ones. */
  imports?: readonly string[];
}

/** The quote a file writes its strings with (its first import, else its first string), so inserted strings match. */
export function quoteOf(sourceCode: Readonly<TSESLint.SourceCode>): "'" | '"' {
  const firstImport = sourceCode.ast.body.find((statement) => statement.type === AST_NODE_TYPES.ImportDeclaration);
  const raw = firstImport?.source.raw ?? sourceCode.ast.tokens.find((token) => token.type === AST_TOKEN_TYPES.String)?.value;
  return raw?.startsWith('"') ? '"' : "'";
}

/** `'session'` in the file's own quote style. */
export function quoted(sourceCode: Readonly<TSESLint.SourceCode>, value: string): string {
  const quote = quoteOf(sourceCode);
  return `${quote}${value.replace(/\\/g, '\\\\').replaceAll(quote, `\\${quote}`)}${quote}`;
}

/**
 * Makes `names` from tool-result-guard available to a fix: the local name of
 * each (an existing import is reused, a namespace import gives `ns.name`) and
 * the fix that imports the missing ones (an existing named import is
 * extended, else an import statement is added after the last import).
 */
export function packageImportFix(
  sourceCode: Readonly<TSESLint.SourceCode>,
  names: readonly string[],
): { references: Record<string, string>; fix: ((fixer: TSESLint.RuleFixer) => TSESLint.RuleFix) | undefined } {
  const program = sourceCode.ast;
  const declarations = program.body.filter(
    (statement): statement is TSESTree.ImportDeclaration =>
      statement.type === AST_NODE_TYPES.ImportDeclaration && statement.source.value === PACKAGE_NAME && statement.importKind !== 'type',
  );
  const references: Record<string, string> = {};
  const missing: string[] = [];
  for (const name of names) {
    let reference: string | undefined;
    for (const declaration of declarations) {
      for (const specifier of declaration.specifiers) {
        if (specifier.type === AST_NODE_TYPES.ImportNamespaceSpecifier) reference ??= `${specifier.local.name}.${name}`;
        if (
          specifier.type === AST_NODE_TYPES.ImportSpecifier &&
          specifier.importKind !== 'type' &&
          getStaticKeyName(specifier.imported, false) === name
        ) {
          reference ??= specifier.local.name;
        }
      }
    }
    references[name] = reference ?? name;
    if (reference === undefined) missing.push(name);
  }
  if (missing.length === 0) return { references, fix: undefined };
  const extendable = declarations.find((declaration) =>
    declaration.specifiers.some((specifier) => specifier.type === AST_NODE_TYPES.ImportSpecifier),
  );
  if (extendable) {
    const last = extendable.specifiers[extendable.specifiers.length - 1]!;
    return { references, fix: (fixer) => fixer.insertTextAfter(last, `, ${missing.join(', ')}`) };
  }
  const source = quoted(sourceCode, PACKAGE_NAME);
  const imports = program.body.filter((statement) => statement.type === AST_NODE_TYPES.ImportDeclaration);
  const lastImport = imports[imports.length - 1];
  // A CommonJS module without imports gets a `require`, as its other dependencies are loaded.
  const usesRequire = !lastImport && /\brequire\(/.test(sourceCode.text);
  const statement = usesRequire
    ? `const { ${missing.join(', ')} } = require(${source});`
    : `import { ${missing.join(', ')} } from ${source};`;
  if (lastImport) return { references, fix: (fixer) => fixer.insertTextAfter(lastImport, `\n${statement}`) };
  const firstStatement = program.body.find((node) => !(node.type === AST_NODE_TYPES.ExpressionStatement && node.directive !== undefined));
  if (!firstStatement) return { references, fix: (fixer) => fixer.insertTextAfterRange(program.range, `\n${statement}\n`) };
  return { references, fix: (fixer) => fixer.insertTextBefore(firstStatement, `${statement}\n\n`) };
}

/** Does the file import anything from tool-result-guard (an `import`, type-only too, or a `require`)? */
export function importsPackage(sourceCode: Readonly<TSESLint.SourceCode>, file: Pick<FileIndex, 'imports'>): boolean {
  if (
    sourceCode.ast.body.some((statement) => statement.type === AST_NODE_TYPES.ImportDeclaration && statement.source.value === PACKAGE_NAME)
  )
    return true;
  for (const binding of file.imports.values()) if (binding.module === PACKAGE_NAME) return true;
  return false;
}

/**
 * How a fix for a self-reading tool writes the never-persist sentinel, and
 * what it must import for it. Where the file imports tool-result-guard, its
 * types are in play, and they demand the branded `UNBOUNDED` (the literal
 * `Infinity` is typed `number`): the file's own reference to it (an
 * existing import, `ns.UNBOUNDED`, a `require`d binding), else `UNBOUNDED`
 * with its import. Elsewhere the plain `Infinity`, which needs no package.
 * `wrapped`: the fix wraps the tool in `classifyTool`, so it imports the
 * package itself and writes `UNBOUNDED` as the wrapper's types demand.
 */
export function unboundedSentinelOf(
  sourceCode: Readonly<TSESLint.SourceCode>,
  file: Pick<FileIndex, 'imports'>,
  { wrapped = false }: { wrapped?: boolean } = {},
): { text: string; imports: readonly string[] } {
  if (!wrapped && !importsPackage(sourceCode, file)) return { text: 'Infinity', imports: [] };
  const { references, fix } = packageImportFix(sourceCode, ['UNBOUNDED']);
  if (!fix || wrapped) return { text: references['UNBOUNDED']!, imports: [] };
  // A CommonJS `require` of the package: its binding, when it has one.
  const importedLocals = new Set(
    sourceCode.ast.body.flatMap((statement) =>
      statement.type === AST_NODE_TYPES.ImportDeclaration ? statement.specifiers.map((specifier) => specifier.local.name) : [],
    ),
  );
  for (const [local, binding] of file.imports) {
    if (binding.module !== PACKAGE_NAME || importedLocals.has(local)) continue;
    if (binding.imported === 'UNBOUNDED') return { text: local, imports: [] };
    if (binding.imported === '*' || binding.imported === 'default') return { text: `${local}.UNBOUNDED`, imports: [] };
  }
  return { text: 'UNBOUNDED', imports: ['UNBOUNDED'] };
}

/** What a fix function produced, as a list: one fix, several (any iterable), or none. */
export function producedFixes<Fix extends object>(produced: Fix | Iterable<Fix | null> | null | undefined): Fix[] {
  if (produced === null || produced === undefined) return [];
  return Symbol.iterator in produced
    ? [...(produced as Iterable<Fix | null>)].filter((fix): fix is Fix => fix !== null)
    : [produced as Fix];
}

/** `fix` and, when `names` are not imported yet, their import from tool-result-guard, as one fix. */
export function withPackageImportFix(
  fix: TSESLint.ReportFixFunction,
  sourceCode: Readonly<TSESLint.SourceCode>,
  names: readonly string[] | undefined,
): TSESLint.ReportFixFunction {
  const importFix = names && names.length > 0 ? packageImportFix(sourceCode, names).fix : undefined;
  if (!importFix) return fix;
  return (fixer) => [...producedFixes(fix(fixer)), importFix(fixer)];
}

/**
 * The `name` entry for a wrapper whose tool object carries no name: the MCP
 * name (a constant is written as that constant, so the two cannot drift
 * apart), an AI SDK `tools` key.
 */
function wrapperNameOf(
  definition: ToolDefinition,
  expression: TSESTree.Node,
  sourceCode: Readonly<TSESLint.SourceCode>,
): string | undefined {
  let name: string | undefined;
  if (definition.isMcpRegistration && definition.reportNode.type === AST_NODE_TYPES.CallExpression) {
    const argument = definition.reportNode.arguments[0];
    if (argument?.type === AST_NODE_TYPES.Identifier) return `name: ${argument.name}`;
    name = getStringValue(argument);
  } else {
    const parent = expression.parent;
    if (parent?.type === AST_NODE_TYPES.Property && parent.value === expression) name = getStaticKeyName(parent.key, parent.computed);
  }
  return name === undefined ? undefined : `name: ${quoted(sourceCode, name)}`;
}

/**
 * A fix that classifies a tool through `classifyTool`: a member added to the
 * wrapper it already has, else the tool expression wrapped. `undefined` when
 * the tool has no expression to wrap.
 */
function classifyToolWrapperFix(
  definition: ToolDefinition,
  memberName: string,
  valueText: string,
  sourceCode: Readonly<TSESLint.SourceCode>,
  options: InsertMemberOptions,
): TSESLint.ReportFixFunction | undefined {
  const [outermost] = findClassifyToolObjects(definition).reverse();
  const expression = toolExpressionOf(definition);
  if (!expression) return undefined;
  const selfReading = memberName === 'maxResultSizeChars' && options.reads !== undefined;
  const { references, fix: importFix } = packageImportFix(
    sourceCode,
    outermost ? (selfReading ? ['UNBOUNDED'] : []) : selfReading ? [CLASSIFY_TOOL_NAME, 'UNBOUNDED'] : [CLASSIFY_TOOL_NAME],
  );
  const entries = selfReading
    ? [`reads: ${quoted(sourceCode, options.reads!)}`, `maxResultSizeChars: ${references['UNBOUNDED']!}`]
    : [`${memberName}: ${valueText}`];
  if (outermost) {
    const present = new Set(
      outermost.properties.map((property) =>
        property.type === AST_NODE_TYPES.Property ? getStaticKeyName(property.key, property.computed) : undefined,
      ),
    );
    const added = entries.filter((entry) => !present.has(entry.slice(0, entry.indexOf(':'))));
    return (fixer) => [
      ...added.map((entry) => insertObjectProperty(fixer, sourceCode, outermost, entry)),
      ...(importFix ? [importFix(fixer)] : []),
    ];
  }
  const nameEntry = wrapperNameOf(definition, expression, sourceCode);
  // The budget finds a classified tool by name; these tool objects carry none of their own.
  const wrapperEntries = nameEntry === undefined ? entries : [nameEntry, ...entries];
  // The import first: when the tool is the file's first statement, both insert at one point.
  return (fixer) => [
    ...(importFix ? [importFix(fixer)] : []),
    fixer.insertTextBefore(expression, `${references[CLASSIFY_TOOL_NAME]!}(`),
    fixer.insertTextAfter(expression, `, { ${wrapperEntries.join(', ')} })`),
  ];
}

/**
 * A fix that declares `memberName = valueText` on a tool that has no such
 * member; `undefined` when the tool has nowhere to put it (an MCP
 * `server.tool(name, handler)` registration without a config object).
 */
export function insertToolMemberFix(
  definition: ToolDefinition,
  memberName: string,
  valueText: string,
  sourceCode: Readonly<TSESLint.SourceCode>,
  options: InsertMemberOptions = {},
): TSESLint.ReportFixFunction | undefined {
  if (!definition.host && !definition.isMcpRegistration) return undefined;
  // A helper that rebuilds the config, or types it, would drop or reject a `_meta` written into it.
  if (definition.registeredThrough !== undefined && !definition.registeredThrough.metaReachesServer) return undefined;
  const home =
    definition.host && isClassNode(definition.host)
      ? 'member'
      : classificationHomeOf(definition, options.file, { name: memberName, types: options.types });
  // The wrapper imports what it writes itself.
  if (home === 'wrapper') return classifyToolWrapperFix(definition, memberName, valueText, sourceCode, options);
  const fix = memberFix(definition, home, memberName, valueText, sourceCode, options);
  return fix && withPackageImportFix(fix, sourceCode, options.imports);
}

/** Are the methods a call runs (the definition's invocation members) all static methods of the class? */
function runsThroughStaticMethods(host: ClassNode, definition: ToolDefinition): boolean {
  const names = definition.invocationMembers;
  if (!names || names.length === 0) return false;
  return names.every((name) =>
    host.body.body.some(
      (member) =>
        member.type === AST_NODE_TYPES.MethodDefinition && member.static && getStaticKeyName(member.key, member.computed) === name,
    ),
  );
}

function memberFix(
  definition: ToolDefinition,
  home: 'member' | 'mcp-meta',
  memberName: string,
  valueText: string,
  sourceCode: Readonly<TSESLint.SourceCode>,
  options: InsertMemberOptions,
): TSESLint.ReportFixFunction | undefined {
  const host = definition.host;
  if (host && isClassNode(host)) {
    return (fixer) => {
      const openBrace = sourceCode.getFirstToken(host.body)!;
      const firstMember = host.body.body[0];
      // A class run through its static methods (`static runnable(client, params)`) is the tool itself: the member is static too.
      const modifier = `${runsThroughStaticMethods(host, definition) ? 'static ' : ''}${options.readonlyField ? 'readonly ' : ''}`;
      const member = `${modifier}${memberName} = ${valueText};`;
      if (firstMember && !startsOwnLine(sourceCode, firstMember)) return fixer.insertTextAfter(openBrace, ` ${member}`);
      const indentation = firstMember ? indentationOf(sourceCode, firstMember) : `${indentationOf(sourceCode, host)}  `;
      return fixer.insertTextAfter(openBrace, `\n${indentation}${member}`);
    };
  }
  if (home === 'mcp-meta') {
    const meta = findMcpMetaObject(definition);
    const metaEntry = `'${MCP_META_PREFIX}${memberName}': ${valueText}`;
    if (!host) return undefined;
    return (fixer) =>
      meta
        ? insertObjectProperty(fixer, sourceCode, meta, metaEntry)
        : insertObjectProperty(fixer, sourceCode, host, `_meta: { ${metaEntry} }`);
  }
  if (!host) return undefined;
  return (fixer) => insertObjectProperty(fixer, sourceCode, host, `${memberName}: ${valueText}`);
}

/** TypeScript files (where `readonly` and `as const` exist), by the linted file's name. */
export function isTypeScriptFile(filename: string): boolean {
  return /\.[cm]?tsx?$/.test(filename);
}
