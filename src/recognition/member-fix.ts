/**
 * Where a fix adds a classification member (`maxResultSizeChars`,
 * `stateScope`) a tool does not declare yet: the first member of the class,
 * the last property of the object literal, or for MCP registrations a key in
 * `_meta` (`'anthropic/<member>'`, the key MCP clients read). One place, so
 * every rule's fix and the codemods built on them put it in the same spot.
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

import { isClassNode } from './ast.js';
import { MCP_META_PREFIX, findMcpMetaObject, type ToolDefinition } from './tool-definitions.js';

function indentationOf(sourceCode: Readonly<TSESLint.SourceCode>, node: TSESTree.Node): string {
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
  const host = definition.host;
  if (!host) return undefined;
  if (isClassNode(host)) {
    return (fixer) => {
      const openBrace = sourceCode.getFirstToken(host.body)!;
      const firstMember = host.body.body[0];
      const modifier = options.readonlyField ? 'readonly ' : '';
      const member = `${modifier}${memberName} = ${valueText};`;
      if (firstMember && !startsOwnLine(sourceCode, firstMember)) return fixer.insertTextAfter(openBrace, ` ${member}`);
      const indentation = firstMember ? indentationOf(sourceCode, firstMember) : `${indentationOf(sourceCode, host)}  `;
      return fixer.insertTextAfter(openBrace, `\n${indentation}${member}`);
    };
  }
  if (definition.isMcpRegistration) {
    const meta = findMcpMetaObject(definition);
    const metaEntry = `'${MCP_META_PREFIX}${memberName}': ${valueText}`;
    return (fixer) =>
      meta ? insertObjectProperty(fixer, sourceCode, meta, metaEntry) : insertObjectProperty(fixer, sourceCode, host, `_meta: { ${metaEntry} }`);
  }
  return (fixer) => insertObjectProperty(fixer, sourceCode, host, `${memberName}: ${valueText}`);
}

/** TypeScript files (where `readonly` and `as const` exist), by the linted file's name. */
export function isTypeScriptFile(filename: string): boolean {
  return /\.[cm]?tsx?$/.test(filename);
}
