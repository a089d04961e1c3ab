// Small parsed snippets for the input flow's concept tests: a file index of
// a code string (placed beside the self-reading fixtures, so `./helpers.js`
// resolves as in a package), its functions, and the nodes in them by their
// source text.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { parse } from '@typescript-eslint/parser';
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import {
  DEFAULT_RECOGNITION_SETTINGS,
  type FileIndex,
  type FunctionNode,
  assignParents,
  buildFileIndex,
  walk,
} from '../../../src/recognition/index.js';
import type { OriginScope } from '../../../src/recognition/input-flow/fixed-locations.js';
import { Taint, propagate, unitOf } from '../../../src/recognition/input-flow/propagation.js';
import { taintParameters } from '../../../src/recognition/input-flow/taint-sources.js';

export const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'rules', 'fixtures', 'self-reading');
export const settings = DEFAULT_RECOGNITION_SETTINGS;
export const environment = { settings };

export interface Snippet {
  code: string;
  file: FileIndex;
  /** The function declared under `name` (throws when there is none). */
  fn(name?: string): FunctionNode;
  /** The first node inside `root` whose source text is `text` (throws when there is none). */
  node<T extends TSESTree.Node = TSESTree.Node>(text: string, root?: TSESTree.Node): T;
  /** The first call inside `root` whose source text starts with `start`. */
  call(start: string, root?: TSESTree.Node): TSESTree.CallExpression | TSESTree.NewExpression;
  /** The source text of a node. */
  text(node: TSESTree.Node): string;
}

export function snippet(code: string, filePath = path.join(fixtures, 'tool.ts')): Snippet {
  const program = parse(code, { range: true, loc: true, sourceType: 'module' }) as TSESTree.Program;
  assignParents(program);
  const file = buildFileIndex(program, filePath);
  const text = (node: TSESTree.Node): string => code.slice(...node.range);
  const find = <T extends TSESTree.Node>(root: TSESTree.Node, test: (node: TSESTree.Node) => boolean, what: string): T => {
    let found: TSESTree.Node | undefined;
    walk(root, (node) => {
      if (found) return false;
      if (test(node)) {
        found = node;
        return false;
      }
      return undefined;
    });
    if (!found) throw new Error(`no ${what}`);
    return found as T;
  };
  return {
    code,
    file,
    text,
    fn(name = 'run') {
      const fn = file.functions.get(name);
      if (!fn) throw new Error(`no function ${name}`);
      return fn;
    },
    node<T extends TSESTree.Node = TSESTree.Node>(source: string, root: TSESTree.Node = program): T {
      return find<T>(root, (node) => text(node) === source, `node \`${source}\``);
    },
    call(start, root = program) {
      return find(
        root,
        (node) =>
          (node.type === AST_NODE_TYPES.CallExpression || node.type === AST_NODE_TYPES.NewExpression) && text(node).startsWith(start),
        `call \`${start}…\``,
      );
    },
  };
}

/** The taint of `fn` with the given input parameters, propagated to its fixed point as the analysis does. */
export function taintOf(fn: FunctionNode, parameters: readonly number[], thisMembers: readonly string[] = []): Taint {
  const taint = new Taint(thisMembers);
  taintParameters(fn, parameters, taint);
  for (let round = 0; round < 50 && propagate(unitOf(fn), taint); round += 1) {
    // Until nothing new is tainted.
  }
  return taint;
}

/** What the fixed-location checks and reader recognition know about `fn` given input at `parameters`. */
export function scopeOf(source: Snippet, fn: FunctionNode, parameters: readonly number[] = [0]): OriginScope {
  return { taint: taintOf(fn, parameters), unit: unitOf(fn), file: source.file, classNode: undefined, fixedOriginNames: new Set() };
}
