import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { RuleTester } from '@typescript-eslint/rule-tester';

import rule from '../../src/rules/persist-only-owned-sessions.js';

const ruleTester = new RuleTester();
const typedDirectory = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'self-reading-typed');
const typedRuleTester = new RuleTester({
  languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: typedDirectory } },
});
const typedFile = path.join(typedDirectory, 'file.ts');

const unguarded = (call: string, querySource = 'querySource') => ({ messageId: 'unguardedPersist', data: { call, querySource } }) as const;

ruleTester.run('persist-only-owned-sessions', rule, {
  valid: [
    // The seed's guard, as an early exit.
    `async function maybePersist(querySource, id, content) {
       if (!shouldPersistForSession(querySource)) return undefined;
       return persistToolResult(id, content);
     }`,
    `async function maybePersist(querySource, store, id, content) {
       if (!shouldPersistForSession(querySource)) { log('not owned'); throw new Error('not owned'); }
       return store.persist(id, content);
     }`,
    // Wrapping the call in the owned branch, ternary, &&.
    `async function f(querySource, id, c) { if (shouldPersistForSession(querySource)) { await persistToolResult(id, c); } }`,
    `const f = (querySource, id, c) => shouldPersistForSession(querySource) ? persistToolResult(id, c) : undefined;`,
    `const f = (querySource, id, c) => shouldPersistForSession(querySource) && maybePersistLargeToolResult(id, c);`,
    `const f = (querySource, id, c) => !shouldPersistForSession(querySource) || persistToolResult(id, c);`,
    // startsWith tests on the owned prefixes, directly and through a local boolean.
    `function f(querySource, id, c) { if (querySource.startsWith('repl_main_thread') || querySource.startsWith('agent:')) return persistToolResult(id, c); }`,
    `function f(querySource, id, c) { const owned = querySource.startsWith('agent:') || querySource.startsWith('repl_main_thread'); if (!owned) return; return persistToolResult(id, c); }`,
    `function f(querySource, id, c) { const canPersist = shouldPersistForSession(querySource); if (canPersist) persistToolResult(id, c); }`,
    // if/else.
    `function f(querySource, id, c) { if (!shouldPersistForSession(querySource)) { return; } else { persistToolResult(id, c); } }`,
    // A query source on an options object, and a parameter typed as a query source.
    `function f(options, id, c) { if (!shouldPersistForSession(options.querySource)) return; persistToolResult(id, c); }`,
    `function f(source: QuerySource, id: string, c: string) { if (!shouldPersistForSession(source)) return; void persistToolResult(id, c); }`,
    // Both branches of an earlier if exit or check.
    `function f(querySource, id, c, strict) {
       if (strict) { if (!shouldPersistForSession(querySource)) return; } else { if (!querySource.startsWith('agent:')) return; }
       persistToolResult(id, c);
     }`,
    // The check itself is never a persistence call.
    `function f(querySource) { return shouldPersistForSession(querySource); }`,
    // No query source in scope: the caller decided.
    `async function persistLarge(store, id, content) { return store.persist(id, content); }`,
    `async function persistAll(results) { for (const r of results) await persistToolResult(r.id, r.content); }`,
    // Comparisons elsewhere are not deny lists when nothing is persisted there.
    `function label(querySource) { return querySource !== 'sdk' ? 'interactive' : 'sdk'; }`,
    `function isCompact(querySource) { return querySource === 'compact'; }`,
    // Loops after the exit.
    `async function f(querySource, results) { if (!shouldPersistForSession(querySource)) return; for (const r of results) await persistToolResult(r.id, r.c); }`,
    // Settings add checks and persistence calls.
    {
      code: `function f(querySource, id, c) { if (!ownsStorageRoot(querySource)) return; writeResultToDisk(id, c); }`,
      settings: { 'tool-result-guard': { ownedSessionChecks: ['ownsStorageRoot'], persistenceCalls: ['writeResultToDisk'] } },
    },
    // Settings add owned prefixes.
    {
      code: `function f(querySource, id, c) { if (querySource.startsWith('ide_main')) persistToolResult(id, c); }`,
      settings: { 'tool-result-guard': { ownedQuerySourcePrefixes: ['ide_main'] } },
    },
  ],
  invalid: [
    // The seed's anti-pattern: persisting for every agent that shares the session id.
    {
      code: `async function maybePersist(querySource, id, content) { return persistToolResult(id, content); }`,
      errors: [unguarded('persistToolResult')],
    },
    // A deny list: reported, and the persistence it guards is still unguarded.
    {
      code: `async function maybePersist(querySource, id, c) { if (querySource !== 'compact') { return persistToolResult(id, c); } }`,
      errors: [
        { messageId: 'denyListGuard', data: { guard: "querySource !== 'compact'", querySource: 'querySource' } },
        unguarded('persistToolResult'),
      ],
    },
    {
      code: `async function f(querySource, id, c) { if (querySource === 'compact' || querySource === 'session_memory') return; await persistToolResult(id, c); }`,
      errors: [unguarded('persistToolResult')],
    },
    {
      code: `async function f(querySource, id, c) { if (!['compact', 'session_memory'].includes(querySource)) await persistToolResult(id, c); }`,
      errors: [
        { messageId: 'denyListGuard', data: { guard: "!['compact', 'session_memory'].includes(querySource)", querySource: 'querySource' } },
        unguarded('persistToolResult'),
      ],
    },
    // Equality where a prefix is meant: one report, at the comparison, with a suggestion.
    {
      code: `function f(querySource, id, c) { if (querySource === 'repl_main_thread') persistToolResult(id, c); }`,
      errors: [
        {
          messageId: 'prefixEquality',
          data: {
            guard: "querySource === 'repl_main_thread'",
            prefix: 'repl_main_thread',
            replacement: "querySource.startsWith('repl_main_thread')",
            querySource: 'querySource',
          },
          suggestions: [
            {
              messageId: 'useStartsWith',
              data: { replacement: "querySource.startsWith('repl_main_thread')" },
              output: `function f(querySource, id, c) { if (querySource.startsWith('repl_main_thread')) persistToolResult(id, c); }`,
            },
          ],
        },
      ],
    },
    {
      code: `function f(options, id, c) { if (options.querySource !== 'repl_main_thread') return; persistToolResult(id, c); }`,
      errors: [
        {
          messageId: 'prefixEquality',
          data: {
            guard: "options.querySource !== 'repl_main_thread'",
            prefix: 'repl_main_thread',
            replacement: "!options.querySource.startsWith('repl_main_thread')",
            querySource: 'options.querySource',
          },
          suggestions: [
            {
              messageId: 'useStartsWith',
              data: { replacement: "!options.querySource.startsWith('repl_main_thread')" },
              output: `function f(options, id, c) { if (!options.querySource.startsWith('repl_main_thread')) return; persistToolResult(id, c); }`,
            },
          ],
        },
      ],
    },
    // A check on one branch only.
    {
      code: `async function f(querySource, id, c, interactive) {
  if (interactive) {
    if (!shouldPersistForSession(querySource)) return;
  }
  await persistToolResult(id, c);
}`,
      errors: [unguarded('persistToolResult')],
    },
    // The check computed but not used to exit.
    {
      code: `async function f(querySource, id, c) { const owned = shouldPersistForSession(querySource); log(owned); await persistToolResult(id, c); }`,
      errors: [unguarded('persistToolResult')],
    },
    // An exit that does not exit.
    {
      code: `async function f(querySource, id, c) { if (!shouldPersistForSession(querySource)) { log('skip'); } await persistToolResult(id, c); }`,
      errors: [unguarded('persistToolResult')],
    },
    // Persisted before the check.
    {
      code: `async function f(querySource, id, c) { const r = await persistToolResult(id, c); if (!shouldPersistForSession(querySource)) return; return r; }`,
      errors: [unguarded('persistToolResult')],
    },
    // A startsWith on a prefix that is not owned.
    {
      code: `function f(querySource, id, c) { if (querySource.startsWith('compact')) persistToolResult(id, c); }`,
      errors: [unguarded('persistToolResult')],
    },
    // `&&` of a non-owned test is not an owned check.
    {
      code: `function f(querySource, id, c, big) { if (big && querySource.length > 0) persistToolResult(id, c); }`,
      errors: [unguarded('persistToolResult')],
    },
    // Every persistence call form: store.persist, any …Store.persist, maybePersistLargeToolResult.
    {
      code: `async function f(querySource, store, id, c) { await store.persist(id, c); }`,
      errors: [unguarded('store.persist')],
    },
    {
      code: `class Budget { async apply(querySource, id, c) { await this.toolResultStore.persist(id, c); } }`,
      errors: [unguarded('this.toolResultStore.persist')],
    },
    {
      code: `async function f(querySource, id, c) { return maybePersistLargeToolResult(id, c); }`,
      errors: [unguarded('maybePersistLargeToolResult')],
    },
    // A query source found on an options object or by its type.
    {
      code: `async function f(options, id, c) { log(options.querySource); await persistToolResult(id, c); }`,
      errors: [unguarded('persistToolResult', 'options.querySource')],
    },
    {
      code: `async function f(source: QuerySource, id: string, c: string) { await persistToolResult(id, c); }`,
      errors: [unguarded('persistToolResult', 'source')],
    },
    // In a loop, and inside try where the check may be skipped by a throw.
    {
      code: `async function f(querySource, results) { for (const r of results) await persistToolResult(r.id, r.c); }`,
      errors: [unguarded('persistToolResult')],
    },
    {
      code: `async function f(querySource, id, c) { try { prepare(); if (!shouldPersistForSession(querySource)) return; } catch {} await persistToolResult(id, c); }`,
      errors: [unguarded('persistToolResult')],
    },
    // A closure does not inherit the check's path.
    {
      code: `function f(querySource, ids) { if (!shouldPersistForSession(querySource)) return; return () => ids.map((id) => persistToolResult(id, '')); }`,
      errors: [unguarded('persistToolResult')],
    },
    // Settings add persistence calls.
    {
      code: `function f(querySource, id, c) { writeResultToDisk(id, c); }`,
      settings: { 'tool-result-guard': { persistenceCalls: ['writeResultToDisk'] } },
      errors: [unguarded('writeResultToDisk')],
    },
    // A typed `: QuerySource` variable at module level is in scope.
    {
      code: `let currentSource: QuerySource = 'sdk'; export async function save(id: string, c: string) { await persistToolResult(id, c); }`,
      errors: [unguarded('persistToolResult', 'currentSource')],
    },
  ],
});

typedRuleTester.run('persist-only-owned-sessions (type-aware)', rule, {
  valid: [
    {
      code: `import { currentSource } from './query-source.js';
declare function persistToolResult(id: string, content: string): Promise<void>;
declare function shouldPersistForSession(source: string): boolean;
export async function save(id: string, content: string) {
  const origin = currentSource();
  if (!shouldPersistForSession(origin)) return;
  await persistToolResult(id, content);
}`,
      filename: typedFile,
    },
    {
      // A plain string is not a query source.
      code: `declare function persistToolResult(id: string, content: string): Promise<void>;
export async function save(id: string, content: string, label: string) { await persistToolResult(id, content); void label; }`,
      filename: typedFile,
    },
  ],
  invalid: [
    {
      // Only the checker knows `origin` is a QuerySource: the file never spells the name.
      code: `import { currentSource } from './query-source.js';
declare function persistToolResult(id: string, content: string): Promise<void>;
export async function save(id: string, content: string) {
  const origin = currentSource();
  void origin;
  await persistToolResult(id, content);
}`,
      filename: typedFile,
      errors: [unguarded('persistToolResult', 'origin')],
    },
  ],
});
