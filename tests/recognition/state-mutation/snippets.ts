// Small source snippets parsed the way ESLint hands a file to a rule (tree,
// scopes, parents, the recognition context over them), for the unit tests of
// the state analysis's concept modules in this folder. Not a test file itself.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import * as typescriptParser from '@typescript-eslint/parser';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { SourceCode } from 'eslint';
import { afterAll } from 'vitest';

import type { ScopeSource } from '../../../src/recognition/foreign-scope.js';
import {
  DEFAULT_RECOGNITION_SETTINGS,
  type FileIndex,
  type FunctionNode,
  type RecognitionContext,
  type ToolDefinition,
  assignParents,
  buildFileIndex,
  findToolDefinitions,
  isFunctionNode,
  walk,
} from '../../../src/recognition/index.js';
import { functionNameOf } from '../../../src/recognition/ast.js';
import { findOutlivingStateUses } from '../../../src/recognition/state-mutation/index.js';

/** Where a snippet pretends to live when it imports nothing from disk. */
export const SNIPPET_PATH = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'rules', 'fixtures', 'state', 'tool.ts');

export const settings = DEFAULT_RECOGNITION_SETTINGS;

export interface Snippet {
  program: TSESTree.Program;
  sourceCode: ScopeSource;
  file: FileIndex;
  recognition: RecognitionContext;
  definitions: ToolDefinition[];
  /** The source text of a node. */
  text(node: TSESTree.Node): string;
  /** The first node, in source order, whose text is `text` (and whose type is `type`, when given). */
  node<T extends TSESTree.Node = TSESTree.Node>(text: string, type?: `${T['type']}`): T;
  /** The `occurrence`-th identifier called `name`, in source order (`-1`: the last). */
  identifier(name: string, occurrence?: number): TSESTree.Identifier;
  /** Every identifier called `name`, in source order. */
  identifiers(name: string): TSESTree.Identifier[];
  /** The variable a scope of the file declares under `name` (the first, outermost first). */
  variable(name: string): TSESLint.Scope.Variable;
  /** The function called `name` (a declaration, or one bound to a const, property or method). */
  fn(name: string): FunctionNode;
  /** Each state use the `toolIndex`-th tool's invocation makes: kind, message words, and reported code. */
  uses(toolIndex?: number): { kind: string; data: Record<string, string>; at: string }[];
}

export function snippet(code: string, filePath = SNIPPET_PATH): Snippet {
  const { ast, scopeManager, visitorKeys } = typescriptParser.parseForESLint(code, {
    range: true,
    loc: true,
    tokens: true,
    comment: true,
    sourceType: 'module',
  });
  const eslintSource = new SourceCode({
    text: code,
    ast: ast as never,
    scopeManager: scopeManager as never,
    visitorKeys: visitorKeys as never,
  });
  const sourceCode = eslintSource as unknown as ScopeSource;
  const program = ast as unknown as TSESTree.Program;
  // ESLint links parents as it traverses; the analysis reads them.
  assignParents(program);
  const file = buildFileIndex(program, filePath);
  const recognition: RecognitionContext = {
    settings,
    filePath,
    file,
    environment: { settings },
    contextualTypeName: undefined,
    hasTypeInformation: false,
  };
  const definitions = findToolDefinitions(program, settings);
  const text = (node: TSESTree.Node) => code.slice(node.range[0], node.range[1]);
  const all: TSESTree.Node[] = [];
  walk(program, (node) => {
    all.push(node);
  });
  all.sort((a, b) => a.range[0] - b.range[0] || b.range[1] - a.range[1]);
  return {
    program,
    sourceCode,
    file,
    recognition,
    definitions,
    text,
    node<T extends TSESTree.Node>(wanted: string, type?: `${T['type']}`): T {
      const found = all.find((node) => text(node) === wanted && (type === undefined || node.type === type));
      if (!found) throw new Error(`no node \`${wanted}\``);
      return found as T;
    },
    identifier(name, occurrence = 0) {
      const found = this.identifiers(name).at(occurrence);
      if (!found) throw new Error(`no identifier ${name} #${occurrence}`);
      return found;
    },
    identifiers(name) {
      return all.filter((node): node is TSESTree.Identifier => node.type === 'Identifier' && node.name === name);
    },
    variable(name) {
      const found = sourceCode.scopeManager?.variables.find((variable) => variable.name === name);
      if (!found) throw new Error(`no variable ${name}`);
      return found;
    },
    fn(name) {
      const found = all.find((node): node is FunctionNode => isFunctionNode(node) && functionNameOf(node) === name);
      if (!found) throw new Error(`no function ${name}`);
      return found;
    },
    uses(toolIndex = 0) {
      const definition = definitions[toolIndex];
      if (!definition) throw new Error('no tool');
      return findOutlivingStateUses(definition, recognition, sourceCode).map((use) => ({
        kind: use.messageId,
        data: use.data,
        at: text(use.node),
      }));
    },
  };
}

const folders: string[] = [];
// The folders go when the test file that made them is done.
afterAll(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/**
 * Writes `files` (relative path → text) into a new temporary folder and returns
 * the path a snippet linted there should claim, so that relative imports from it
 * reach those files on disk (a followed module is read from disk).
 */
export function moduleFolder(files: Record<string, string>): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'trg-state-'));
  folders.push(folder);
  for (const [relative, content] of Object.entries(files)) {
    const target = path.join(folder, relative);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
  return path.join(folder, 'tool.ts');
}
