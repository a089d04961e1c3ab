import rule from '../../src/rules/replace-only-after-persist.js';
import { ledgerSettings, ruleTester, typedRuleTester } from './replacement-state-testers.js';

ruleTester.run('replace-only-after-persist', rule, {
  valid: [
    // the seed's order: persist, await, then store the preview
    `async function f(state, id, content) { state.seenIds.add(id); const result = await persistToolResult(id, content); state.replacements.set(id, result.preview); }`,
    `async function f(state, id, content) { state.replacements.set(id, preview(await store.persist(id, content))); }`,
    // a pending persistence awaited before the write
    `async function f(state, id, content) { const pending = persistToolResult(id, content); const result = await pending; state.replacements.set(id, result.preview); }`,
    // awaited through a chain or Promise.all
    `async function f(state, id, content) { await store.persist(id, content).then(log); state.replacements.set(id, 'p'); }`,
    `async function f(state, a, b) { await Promise.all([persistToolResult(a, x), persistToolResult(b, y)]); state.replacements.set(a, 'p'); state.replacements.set(b, 'q'); }`,
    // stored inside the success handler
    `function f(state, id, content) { persistToolResult(id, content).then((result) => { state.replacements.set(id, result.preview); }); }`,
    // a function that only re-applies stored previews
    `function adopt(state, records) { for (const record of records) { state.seenIds.add(record.toolUseId); state.replacements.set(record.toolUseId, record.replacement); } }`,
    // the persistence of another id does not concern this write
    `function f(state, a, b) { void persistToolResult(a, x); state.replacements.set(b, 'p'); }`,
    // early return when persistence failed
    `async function f(state, id, content) { const result = await maybePersistLargeResult(id, content); if (!result) return; state.replacements.set(id, result.preview); }`,
    // both branches await
    `async function f(state, id, content) { if (big) { await store.persist(id, content); } else { await persistSmall(id, content); } state.replacements.set(id, 'p'); }`,
    // try: the write after the awaited persistence inside try
    `async function f(state, id, content) { try { await persistToolResult(id, content); state.replacements.set(id, 'p'); } catch (error) { log(error); } }`,
    // finally without a write
    `async function f(state, id, content) { try { await persistToolResult(id, content); } finally { release(); } state.replacements.set(id, 'p'); }`,
    // loops: each iteration persists its own element first
    `async function f(state, blocks) { for (const block of blocks) { const r = await persistToolResult(block.id, block.content); state.replacements.set(block.id, r.preview); } }`,
    `async function f(state, stream) { for await (const block of stream) { await store.persist(block.id, block.content); state.replacements.set(block.id, 'p'); } }`,
    `async function f(state, blocks) { for (let i = 0; i < blocks.length; i++) { await persistToolResult(blocks[i].id, x); state.replacements.set(blocks[i].id, 'p'); } }`,
    // an alias of the id
    `async function f(state, block) { await persistToolResult(block.toolUseId, block.content); const id = block.toolUseId; state.replacements.set(id, 'p'); }`,
    // a closure persists and writes on its own
    `function f(state, ids) { ids.forEach(async (id) => { await persistToolResult(id, x); state.replacements.set(id, 'p'); }); }`,
    // owned-session checks and predicates are not persistence
    `function f(state, id, source) { if (shouldPersistForSession(source)) state.replacements.set(id, 'p'); }`,
    `function f(state, id, path) { if (store.isPersistedPath(id)) state.replacements.set(id, 'p'); }`,
    // the runtime's own functions
    `async function f(state, store, id, content) { const seen = markSeen(state, id); recordReplacement(state, seen, await store.persist(id, content)); }`,
    // unrelated maps
    `function f(cache, id) { persistToolResult(id, x); cache.set(id, 'p'); }`,
    // a bare `replacements` in a file that never speaks of a seen set is some other map
    `const replacements = new Map(); function f(id) { persistToolResult(id, x); replacements.set(id, 'p'); }`,
    // a switch whose every case awaits
    `async function f(state, id, kind) { switch (kind) { case 'a': await persistA(id); break; default: await persistB(id); } state.replacements.set(id, 'p'); }`,
  ],
  invalid: [
    {
      // the example harness's replaceInBackground: stored before the write it points to
      code: `function replaceInBackground(state, block) {
  state.seenIds.add(block.toolUseId);
  const pendingWrite = maybePersistLargeResult(block.toolUseId, block.content);
  state.replacements.set(block.toolUseId, preview(block));
  pendingWrite.catch((error) => console.error('background persist failed', error));
}`,
      errors: [
        {
          messageId: 'persistNotAwaited',
          data: {
            write: 'state.replacements.set(block.toolUseId, …)',
            map: 'state.replacements',
            id: 'block.toolUseId',
            callee: 'maybePersistLargeResult',
            stateName: 'state',
          },
        },
      ],
    },
    {
      // stored before the awaited persistence
      code: `async function f(state, id, content) { state.replacements.set(id, 'p'); await persistToolResult(id, content); }`,
      errors: [{ messageId: 'replacementBeforePersist' }],
    },
    {
      code: `async function f(state, id, content) { void persistToolResult(id, content); state.replacements.set(id, 'p'); }`,
      errors: [{ messageId: 'persistNotAwaited' }],
    },
    {
      // a floating promise
      code: `function f(state, id, content) { store.persist(id, content); state.replacements.set(id, 'p'); }`,
      errors: [
        {
          messageId: 'persistNotAwaited',
          data: {
            write: 'state.replacements.set(id, …)',
            map: 'state.replacements',
            id: 'id',
            callee: 'store.persist',
            stateName: 'state',
          },
        },
      ],
    },
    {
      // .then without using its result
      code: `function f(state, id, content) { persistToolResult(id, content).then(() => log('saved')); state.replacements.set(id, 'p'); }`,
      errors: [{ messageId: 'persistNotAwaited' }],
    },
    {
      // the catch of a failed persistence
      code: `async function f(state, id, content) { try { await persistToolResult(id, content); } catch (error) { state.replacements.set(id, 'p'); } }`,
      errors: [{ messageId: 'replacementAfterFailedPersist' }],
    },
    {
      code: `function f(state, id, content) { persistToolResult(id, content).catch(() => state.replacements.set(id, 'p')); }`,
      errors: [{ messageId: 'replacementAfterFailedPersist' }],
    },
    {
      code: `function f(state, id, content) { store.persist(id, content).then(ok, () => { state.replacements.set(id, 'p'); }); }`,
      errors: [{ messageId: 'replacementAfterFailedPersist' }],
    },
    {
      // persisted on one branch only
      code: `async function f(state, id, content) { if (big) await persistToolResult(id, content); state.replacements.set(id, 'p'); }`,
      errors: [{ messageId: 'replacementBeforePersist' }],
    },
    {
      // the catch path reaches the write after the try
      code: `async function f(state, id, content) { try { await persistToolResult(id, content); } catch (error) { log(error); } state.replacements.set(id, 'p'); }`,
      errors: [{ messageId: 'replacementBeforePersist' }],
    },
    {
      // a write in finally runs when persistence threw
      code: `async function f(state, id, content) { try { await persistToolResult(id, content); } finally { state.replacements.set(id, 'p'); } }`,
      errors: [{ messageId: 'replacementBeforePersist' }],
    },
    {
      // a loop that may persist nothing
      code: `async function f(state, id, chunks) { for (const chunk of chunks) { await persistChunk(id, chunk); } state.replacements.set(id, 'p'); }`,
      errors: [{ messageId: 'replacementBeforePersist' }],
    },
    {
      // in the loop, the write before this element's persistence
      code: `async function f(state, blocks) { for (const block of blocks) { state.replacements.set(block.id, 'p'); await persistToolResult(block.id, block.content); } }`,
      errors: [{ messageId: 'replacementBeforePersist' }],
    },
    {
      code: `async function f(state, stream) { for await (const block of stream) { store.persist(block.id, block.content); state.replacements.set(block.id, 'p'); } }`,
      errors: [{ messageId: 'persistNotAwaited' }],
    },
    {
      // a closure's await does not count for its parent
      code: `async function f(state, id, content) { const save = async () => { await persistToolResult(id, content); }; save(); state.replacements.set(id, 'p'); await persistToolResult(id, content); }`,
      errors: [{ messageId: 'replacementBeforePersist' }],
    },
    {
      // an early return skips nothing: the write still comes first on the other path
      code: `async function f(state, id, content) { if (cached(id)) { state.replacements.set(id, 'p'); return; } await persistToolResult(id, content); }`,
      errors: [{ messageId: 'replacementBeforePersist' }],
    },
    {
      // a short-circuit may skip the persistence
      code: `async function f(state, id, content) { big && (await persistToolResult(id, content)); state.replacements.set(id, 'p'); }`,
      errors: [{ messageId: 'replacementBeforePersist' }],
    },
    {
      // a switch case that does not persist
      code: `async function f(state, id, kind) { switch (kind) { case 'a': await persistA(id); break; case 'b': break; } state.replacements.set(id, 'p'); }`,
      errors: [{ messageId: 'replacementBeforePersist' }],
    },
    {
      // a labeled break around the persistence
      code: `async function f(state, id) { save: { if (cached(id)) break save; await persistToolResult(id, x); } state.replacements.set(id, 'p'); }`,
      errors: [{ messageId: 'replacementBeforePersist' }],
    },
    {
      // the runtime's function, before the awaited persistence
      code: `async function f(state, store, id, content) { const seen = markSeen(state, id); const pending = store.persist(id, content); recordReplacement(state, seen, fake); await pending; }`,
      errors: [
        {
          messageId: 'replacementBeforePersist',
          data: { write: 'recordReplacement(state, seen, …)', map: 'state', id: 'seen', callee: 'store.persist', stateName: 'state' },
        },
      ],
    },
    {
      // bare names and a settings-listed persistence call
      code: `const seenIds = new Set(); const replacements = new Map(); function f(id) { seenIds.add(id); saveLargeOutput(id, content); replacements.set(id, 'p'); }`,
      settings: { 'tool-result-guard': { persistenceCalls: ['saveLargeOutput'] } },
      errors: [{ messageId: 'persistNotAwaited' }],
    },
    {
      // an object argument carries the id
      code: `function f(state, block) { persistResult({ id: block.toolUseId, content: block.content }); state.replacements.set(block.toolUseId, 'p'); }`,
      errors: [{ messageId: 'persistNotAwaited' }],
    },
  ],
});

typedRuleTester.run('replace-only-after-persist (type-aware)', rule, {
  valid: [
    {
      code: `import type { BudgetLedger } from './harness-types';
import { persistToolResult } from './harness-types';
async function f(ledger: BudgetLedger, id: string, content: string) {
  ledger.decided.add(id);
  const { preview } = await persistToolResult(id, content);
  ledger.previews.set(id, preview);
}`,
      settings: ledgerSettings,
    },
    {
      // not a state without the setting
      code: `import type { BudgetLedger } from './harness-types';
import { persistToolResult } from './harness-types';
function f(ledger: BudgetLedger, id: string, content: string) { void persistToolResult(id, content); ledger.previews.set(id, 'p'); }`,
    },
  ],
  invalid: [
    {
      code: `import type { BudgetLedger } from './harness-types';
import { persistToolResult } from './harness-types';
function f(books: BudgetLedger, id: string, content: string) { void persistToolResult(id, content); books.previews.set(id, 'p'); }`,
      settings: ledgerSettings,
      errors: [{ messageId: 'persistNotAwaited' }],
    },
    {
      code: `import type { BudgetLedger } from './harness-types';
import { persistToolResult } from './harness-types';
async function f(books: BudgetLedger, id: string, content: string) { books.previews.set(id, 'p'); await persistToolResult(id, content); }`,
      settings: ledgerSettings,
      errors: [{ messageId: 'replacementBeforePersist' }],
    },
  ],
});
