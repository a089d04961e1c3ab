/**
 * Scope analysis of a module the linted file did not come from: a tool
 * joined by name across files (`tool-shapes/name-dispatch.ts`) runs code of
 * other files, and the state analysis asks scopes (what a name refers to,
 * which references a function makes to outer variables). ESLint gives scopes
 * of the linted file only, so a followed module (parsed by `loadModule`) gets
 * the same scope manager ESLint uses, `@typescript-eslint/scope-manager`, run
 * once per parsed tree, and the three `SourceCode` methods the analysis uses.
 */
import { createRequire } from 'node:module';

import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

import { moduleText } from './module-graph.js';

/** What the state analysis asks of a file: ESLint's `SourceCode`, or this stand-in for another file. */
export type ScopeSource = Pick<TSESLint.SourceCode, 'getScope' | 'getText' | 'scopeManager'>;

type ScopeManager = NonNullable<TSESLint.SourceCode['scopeManager']>;

// Resolved from the parser's own location, like typescript-estree in module-graph.ts.
const { analyze } = createRequire(createRequire(import.meta.url).resolve('@typescript-eslint/parser'))(
  '@typescript-eslint/scope-manager',
) as {
  analyze: (tree: TSESTree.Node, options: { sourceType: 'module' | 'script' }) => ScopeManager;
};

const sources = new WeakMap<TSESTree.Program, ScopeSource | null>();

/** The scopes of a module parsed by `loadModule`; undefined when it cannot be analysed. */
export function foreignScopeSource(program: TSESTree.Program): ScopeSource | undefined {
  const cached = sources.get(program);
  if (cached !== undefined) return cached ?? undefined;
  const text = moduleText(program);
  let source: ScopeSource | null = null;
  if (text !== undefined) {
    try {
      const scopeManager = analyze(program, { sourceType: 'module' });
      source = {
        scopeManager,
        // ESLint's own `SourceCode#getScope`: the innermost scope that holds the node.
        getScope(node: TSESTree.Node) {
          const inner = node.type !== 'Program';
          for (let current: TSESTree.Node | undefined = node; current; current = current.parent) {
            const scope = scopeManager.acquire(current, inner);
            if (scope) return scope.type === 'function-expression-name' ? scope.childScopes[0]! : scope;
          }
          return scopeManager.scopes[0]!;
        },
        getText(node?: TSESTree.Node | TSESTree.Token) {
          return node ? text.slice(node.range[0], node.range[1]) : text;
        },
      } as ScopeSource;
    } catch {
      source = null;
    }
  }
  sources.set(program, source);
  return source ?? undefined;
}
