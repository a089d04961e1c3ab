import rule from '../../src/rules/mark-seen-before-replacement.js';
import { ledgerSettings, ruleTester, typedRuleTester } from './replacement-state-testers.js';

ruleTester.run('mark-seen-before-replacement', rule, {
  valid: [
    // the seen mark right before the write
    `state.seenIds.add(id); state.replacements.set(id, preview);`,
    `function f(state, id, preview) { state.seenIds.add(id); state.replacements.set(id, preview); }`,
    // bare names, on the same (absent) base
    `const seenIds = new Set(); const replacements = new Map(); seenIds.add(id); replacements.set(id, p);`,
    // marked on both branches
    `function f(state, id) { if (big) { state.seenIds.add(id); } else { state.seenIds.add(id); } state.replacements.set(id, 'p'); }`,
    // marked before the branch, written in one of them
    `function f(state, id) { state.seenIds.add(id); if (big) state.replacements.set(id, 'p'); }`,
    // early return for the unmarked path
    `function f(state, id) { if (!eligible(id)) return; state.seenIds.add(id); state.replacements.set(id, 'p'); }`,
    // the mark in try, the write after a catch that rethrows
    `function f(state, id) { try { state.seenIds.add(id); } catch (error) { throw error; } state.replacements.set(id, 'p'); }`,
    // the mark in finally covers every path
    `function f(state, id) { try { risky(); } finally { state.seenIds.add(id); } state.replacements.set(id, 'p'); }`,
    // loops: marked in each iteration before the write
    `function f(state, blocks) { for (const block of blocks) { state.seenIds.add(block.toolUseId); if (big(block)) state.replacements.set(block.toolUseId, 'p'); } }`,
    `async function f(state, stream) { for await (const block of stream) { state.seenIds.add(block.id); state.replacements.set(block.id, await preview(block)); } }`,
    // a for…of variable and its array element are the same id
    `function f(state, blocks) { for (const block of blocks) state.seenIds.add(block.toolUseId); for (let i = 0; i < blocks.length; i++) state.replacements.set(blocks[i].toolUseId, 'p'); }`,
    `function f(state, ids) { for (const id of ids) { state.seenIds.add(id); } for (const id of ids) state.replacements.set(id, 'p'); }`,
    `function f(state, blocks) { for (const { toolUseId } of blocks) { state.seenIds.add(toolUseId); state.replacements.set(toolUseId, 'p'); } }`,
    // a const alias of the id
    `function f(state, block) { const id = block.toolUseId; state.seenIds.add(id); state.replacements.set(block.toolUseId, 'p'); }`,
    // aliases of the collections
    `function f(state, id) { const { seenIds, replacements } = state; seenIds.add(id); replacements.set(id, 'p'); }`,
    `function f(state, id) { const seen = state.seenIds; const map = state.replacements; seen.add(id); map.set(id, 'p'); }`,
    // writing only ids already seen
    `function f(state, id, p) { if (state.seenIds.has(id)) state.replacements.set(id, p); }`,
    `function f(state, id, p) { state.seenIds.has(id) && state.replacements.set(id, p); }`,
    // marked before the awaited persistence on the path that persists, and again after: not late
    `async function f(state, id, content) { if (big(content)) { state.seenIds.add(id); await store.persist(id, content); } state.seenIds.add(id); }`,
    // marked before awaiting persistence: the seed's order
    `async function f(state, id, content) { state.seenIds.add(id); const result = await persistToolResult(id, content); state.replacements.set(id, result.preview); }`,
    // a clone or reconstruction copies frozen decisions
    `function reconstructContentReplacementState(ids, records) { const state = create(); for (const id of ids) state.seenIds.add(id); for (const r of records) state.replacements.set(r.toolUseId, r.replacement); return state; }`,
    `const cloneBudgetState = (s) => { const copy = create(); for (const [id, p] of s.replacements) copy.replacements.set(id, p); return copy; };`,
    // unrelated maps and sets
    `cache.set(id, value); headers.set('a', 'b'); seen.add(id);`,
    // a bare `replacements` in a file that never speaks of a seen set (text substitution, a guardrail's result map)
    `const replacements = new Map(); for (const result of results) replacements.set(result, sanitize(result));`,
    `function f(state, id) { state.otherMap.set(id, 'p'); }`,
    // a closure marks and writes on its own
    `function f(state, ids) { ids.forEach((id) => { state.seenIds.add(id); state.replacements.set(id, 'p'); }); }`,
    // unreachable code is not judged
    `function f(state, id) { return; state.replacements.set(id, 'p'); }`,
    // switch where every case marks
    `function f(state, id, kind) { switch (kind) { case 'a': state.seenIds.add(id); break; default: state.seenIds.add(id); } state.replacements.set(id, 'p'); }`,
    // class members, optional chaining and TypeScript wrappers
    `class Budget { state = createState(); judge(id: string) { this.state.seenIds.add(id as string); this.state?.replacements.set(id!, 'p'); } }`,
    `function f<T extends { seenIds: Set<string>; replacements: Map<string, string> }>(state: T, id: string) { state.seenIds.add(id); (state.replacements satisfies Map<string, string>).set(id, 'p'); }`,
    // the runtime's functions: the SeenId from markSeen is the id
    `async function f(state, store, id, content) { const seen = markSeen(state, id); recordReplacement(state, seen, await store.persist(id, content)); }`,
    `async function f(state, store, id, content) { markSeen(state, id); const persisted = await store.persist(id, content); recordReplacement(state, id, persisted); }`,
    // settings rename the collections
    {
      code: `function f(budget, id) { budget.decided.add(id); budget.previews.set(id, 'p'); }`,
      settings: { 'tool-result-guard': { seenSetNames: ['decided'], replacementsMapNames: ['previews'] } },
    },
  ],
  invalid: [
    {
      // the example harness's adoptSyncedReplacements
      code: `function adopt(state, records) {
  for (const record of records) {
    state.replacements.set(record.toolUseId, record.replacement);
  }
}`,
      errors: [
        {
          messageId: 'replacementWithoutSeenMark',
          suggestions: [
            {
              messageId: 'insertSeenMark',
              output: `function adopt(state, records) {
  for (const record of records) {
    state.seenIds.add(record.toolUseId);
    state.replacements.set(record.toolUseId, record.replacement);
  }
}`,
            },
          ],
        },
      ],
    },
    {
      // marked on one branch only
      code: `function f(state, id) {
  if (small) state.seenIds.add(id);
  state.replacements.set(id, 'p');
}`,
      errors: [
        {
          messageId: 'replacementWithoutSeenMarkOnSomePaths',
          suggestions: [
            {
              messageId: 'insertSeenMark',
              output: `function f(state, id) {
  if (small) state.seenIds.add(id);
  state.seenIds.add(id);
  state.replacements.set(id, 'p');
}`,
            },
          ],
        },
      ],
    },
    {
      // marked after the write
      code: `function f(state, id) { state.replacements.set(id, 'p'); state.seenIds.add(id); }`,
      errors: [
        {
          messageId: 'replacementWithoutSeenMark',
          suggestions: [
            {
              messageId: 'insertSeenMark',
              output: `function f(state, id) { state.seenIds.add(id);\nstate.replacements.set(id, 'p'); state.seenIds.add(id); }`,
            },
          ],
        },
      ],
    },
    {
      // a lone if body gets braces
      code: `function f(state, id) { if (big) state.replacements.set(id, 'p'); }`,
      errors: [
        {
          messageId: 'replacementWithoutSeenMark',
          suggestions: [
            {
              messageId: 'insertSeenMark',
              output: `function f(state, id) { if (big) { state.seenIds.add(id); state.replacements.set(id, 'p'); } }`,
            },
          ],
        },
      ],
    },
    {
      // a different id
      code: `function f(state, a, b) { state.seenIds.add(a); state.replacements.set(b, 'p'); }`,
      errors: [
        {
          messageId: 'replacementWithoutSeenMark',
          suggestions: [
            {
              messageId: 'insertSeenMark',
              output: `function f(state, a, b) { state.seenIds.add(a); state.seenIds.add(b);
state.replacements.set(b, 'p'); }`,
            },
          ],
        },
      ],
    },
    {
      // a different base
      code: `function f(parent, child, id) { parent.seenIds.add(id); child.replacements.set(id, 'p'); }`,
      errors: [
        {
          messageId: 'replacementWithoutSeenMark',
          suggestions: [
            {
              messageId: 'insertSeenMark',
              output: `function f(parent, child, id) { parent.seenIds.add(id); child.seenIds.add(id);
child.replacements.set(id, 'p'); }`,
            },
          ],
        },
      ],
    },
    {
      // the catch path skips the mark
      code: `function f(state, id) { try { state.seenIds.add(id); } catch (error) { log(error); } state.replacements.set(id, 'p'); }`,
      errors: [
        {
          messageId: 'replacementWithoutSeenMarkOnSomePaths',
          suggestions: [
            {
              messageId: 'insertSeenMark',
              output: `function f(state, id) { try { state.seenIds.add(id); } catch (error) { log(error); } state.seenIds.add(id);
state.replacements.set(id, 'p'); }`,
            },
          ],
        },
      ],
    },
    {
      // a write in finally may run before the mark in try
      code: `function f(state, id) { try { state.seenIds.add(id); } finally { state.replacements.set(id, 'p'); } }`,
      errors: [
        {
          messageId: 'replacementWithoutSeenMarkOnSomePaths',
          suggestions: [
            {
              messageId: 'insertSeenMark',
              output: `function f(state, id) { try { state.seenIds.add(id); } finally { state.seenIds.add(id);
state.replacements.set(id, 'p'); } }`,
            },
          ],
        },
      ],
    },
    {
      // a loop that may run zero times
      code: `function f(state, id, xs) { for (const x of xs) { state.seenIds.add(id); } state.replacements.set(id, 'p'); }`,
      errors: [
        {
          messageId: 'replacementWithoutSeenMarkOnSomePaths',
          suggestions: [
            {
              messageId: 'insertSeenMark',
              output: `function f(state, id, xs) { for (const x of xs) { state.seenIds.add(id); } state.seenIds.add(id);
state.replacements.set(id, 'p'); }`,
            },
          ],
        },
      ],
    },
    {
      // continue before the mark skips it in this iteration
      code: `function f(state, blocks) { for (const block of blocks) { if (small(block)) continue; state.seenIds.add(block.id); } for (const block of blocks) state.replacements.set(block.id, 'p'); }`,
      errors: [
        {
          messageId: 'replacementWithoutSeenMarkOnSomePaths',
          suggestions: [
            {
              messageId: 'insertSeenMark',
              output: `function f(state, blocks) { for (const block of blocks) { if (small(block)) continue; state.seenIds.add(block.id); } for (const block of blocks) { state.seenIds.add(block.id); state.replacements.set(block.id, 'p'); } }`,
            },
          ],
        },
      ],
    },
    {
      // in the same loop the write comes first
      code: `function f(state, blocks) { for (const block of blocks) { state.replacements.set(block.id, 'p'); state.seenIds.add(block.id); } }`,
      errors: [
        {
          messageId: 'replacementWithoutSeenMark',
          suggestions: [
            {
              messageId: 'insertSeenMark',
              output: `function f(state, blocks) { for (const block of blocks) { state.seenIds.add(block.id);
state.replacements.set(block.id, 'p'); state.seenIds.add(block.id); } }`,
            },
          ],
        },
      ],
    },
    {
      code: `async function f(state, stream) { for await (const block of stream) { if (big(block)) state.replacements.set(block.id, 'p'); } }`,
      errors: [
        {
          messageId: 'replacementWithoutSeenMark',
          suggestions: [
            {
              messageId: 'insertSeenMark',
              output: `async function f(state, stream) { for await (const block of stream) { if (big(block)) { state.seenIds.add(block.id); state.replacements.set(block.id, 'p'); } } }`,
            },
          ],
        },
      ],
    },
    {
      // a closure's mark does not count for its parent
      code: `function f(state, id) { const mark = () => state.seenIds.add(id); state.replacements.set(id, 'p'); }`,
      errors: [
        {
          messageId: 'replacementWithoutSeenMark',
          suggestions: [
            {
              messageId: 'insertSeenMark',
              output: `function f(state, id) { const mark = () => state.seenIds.add(id); state.seenIds.add(id);
state.replacements.set(id, 'p'); }`,
            },
          ],
        },
      ],
    },
    {
      // nor the parent's mark for a callback that runs later, elsewhere
      code: `function f(state, ids) { ids.forEach((id) => state.replacements.set(id, 'p')); }`,
      errors: [{ messageId: 'replacementWithoutSeenMark' }],
    },
    {
      // a short-circuit may skip the mark
      code: `function f(state, id) { eligible(id) && state.seenIds.add(id); state.replacements.set(id, 'p'); }`,
      errors: [
        {
          messageId: 'replacementWithoutSeenMarkOnSomePaths',
          suggestions: [
            {
              messageId: 'insertSeenMark',
              output: `function f(state, id) { eligible(id) && state.seenIds.add(id); state.seenIds.add(id);
state.replacements.set(id, 'p'); }`,
            },
          ],
        },
      ],
    },
    {
      // a switch case without the mark
      code: `function f(state, id, kind) { switch (kind) { case 'a': state.seenIds.add(id); break; case 'b': break; } state.replacements.set(id, 'p'); }`,
      errors: [
        {
          messageId: 'replacementWithoutSeenMarkOnSomePaths',
          suggestions: [
            {
              messageId: 'insertSeenMark',
              output: `function f(state, id, kind) { switch (kind) { case 'a': state.seenIds.add(id); break; case 'b': break; } state.seenIds.add(id);
state.replacements.set(id, 'p'); }`,
            },
          ],
        },
      ],
    },
    {
      // a labeled break jumps over the mark
      code: `function f(state, id) { check: { if (cached(id)) break check; state.seenIds.add(id); } state.replacements.set(id, 'p'); }`,
      errors: [
        {
          messageId: 'replacementWithoutSeenMarkOnSomePaths',
          suggestions: [
            {
              messageId: 'insertSeenMark',
              output: `function f(state, id) { check: { if (cached(id)) break check; state.seenIds.add(id); } state.seenIds.add(id);
state.replacements.set(id, 'p'); }`,
            },
          ],
        },
      ],
    },
    {
      // a has-check on another id proves nothing
      code: `function f(state, id, other) { if (state.seenIds.has(other)) state.replacements.set(id, 'p'); }`,
      errors: [
        {
          messageId: 'replacementWithoutSeenMark',
          suggestions: [
            {
              messageId: 'insertSeenMark',
              output: `function f(state, id, other) { if (state.seenIds.has(other)) { state.seenIds.add(id); state.replacements.set(id, 'p'); } }`,
            },
          ],
        },
      ],
    },
    {
      // the seed's anti-pattern: the mark only after awaiting persistence (example harness, applyToolResultBudget)
      code: `async function f(state, block) {
  const persisted = await maybePersistLargeResult(block.toolUseId, block.content);
  state.seenIds.add(block.toolUseId);
  state.replacements.set(block.toolUseId, persisted.preview);
}`,
      errors: [
        {
          messageId: 'seenMarkAfterPersist',
          data: {
            mark: 'state.seenIds.add(block.toolUseId)',
            seen: 'state.seenIds',
            id: 'block.toolUseId',
            callee: 'maybePersistLargeResult',
            stateName: 'state',
          },
          suggestions: [
            {
              messageId: 'moveSeenMarkBeforePersist',
              output: `async function f(state, block) {
  state.seenIds.add(block.toolUseId);
  const persisted = await maybePersistLargeResult(block.toolUseId, block.content);
  state.replacements.set(block.toolUseId, persisted.preview);
}`,
            },
          ],
        },
      ],
    },
    {
      // persisted on one path, marked after
      code: `async function f(state, id, content) {
  if (big(content)) {
    await store.persist(id, content);
  }
  state.seenIds.add(id);
}`,
      errors: [
        {
          messageId: 'seenMarkAfterPersist',
          suggestions: [
            {
              messageId: 'moveSeenMarkBeforePersist',
              output: `async function f(state, id, content) {
  if (big(content)) {
    state.seenIds.add(id);
    await store.persist(id, content);
  }
  state.seenIds.add(id);
}`,
            },
          ],
        },
      ],
    },
    {
      // awaiting a pending persistence kept in a variable; the id is declared after it, so no move
      code: `async function f(state, block) { const pending = persistToolResult(block.toolUseId, block.content); await pending; const id = block.toolUseId; state.seenIds.add(id); }`,
      errors: [{ messageId: 'seenMarkAfterPersist', suggestions: [] }],
    },
    {
      // for…of ids: the persisted element marked late
      code: `async function f(state, blocks) { for (const block of blocks) { await persistToolResult(block.id, block.content); state.seenIds.add(block.id); } }`,
      errors: [
        {
          messageId: 'seenMarkAfterPersist',
          suggestions: [
            {
              messageId: 'moveSeenMarkBeforePersist',
              output: `async function f(state, blocks) { for (const block of blocks) { state.seenIds.add(block.id);
await persistToolResult(block.id, block.content); } }`,
            },
          ],
        },
      ],
    },
    {
      // bare names
      code: `const seenIds = new Set(); const replacements = new Map(); replacements.set(id, p);`,
      errors: [
        {
          messageId: 'replacementWithoutSeenMark',
          suggestions: [
            {
              messageId: 'insertSeenMark',
              output: `const seenIds = new Set(); const replacements = new Map(); seenIds.add(id);\nreplacements.set(id, p);`,
            },
          ],
        },
      ],
    },
    {
      // an alias of the map
      code: `function f(state, id) { const map = state.replacements; map.set(id, 'p'); }`,
      errors: [
        {
          messageId: 'replacementWithoutSeenMark',
          suggestions: [
            {
              messageId: 'insertSeenMark',
              output: `function f(state, id) { const map = state.replacements; state.seenIds.add(id);\nmap.set(id, 'p'); }`,
            },
          ],
        },
      ],
    },
    {
      // a class method, the mark in another method
      code: `class Budget { mark(id: string) { this.state.seenIds.add(id); } store(id: string) { this.state.replacements.set(id, 'p'); } }`,
      errors: [
        {
          messageId: 'replacementWithoutSeenMark',
          suggestions: [
            {
              messageId: 'insertSeenMark',
              output: `class Budget { mark(id: string) { this.state.seenIds.add(id); } store(id: string) { this.state.seenIds.add(id);\nthis.state.replacements.set(id, 'p'); } }`,
            },
          ],
        },
      ],
    },
    {
      // persisted first, then written without a mark: the mark goes before the awaited persist, not between
      // it and the write, where it would be late (seenMarkAfterPersist)
      code: `async function f(state, store, id, content) {
  const persisted = await store.persist(id, content);
  state.replacements.set(id, persisted.preview);
}`,
      errors: [
        {
          messageId: 'replacementWithoutSeenMark',
          suggestions: [
            {
              messageId: 'insertSeenMark',
              output: `async function f(state, store, id, content) {
  state.seenIds.add(id);
  const persisted = await store.persist(id, content);
  state.replacements.set(id, persisted.preview);
}`,
            },
          ],
        },
      ],
    },
    {
      // the same with the runtime's functions (the example harness's adoptSyncedReplacement)
      code: `async function adopt(store, state, toolUseId, content) {
  const persisted = await store.persist(toolUseId, content);
  return recordReplacement(state, toolUseId, persisted);
}`,
      errors: [
        {
          messageId: 'replacementWithoutSeenMark',
          suggestions: [
            {
              messageId: 'insertSeenMark',
              output: `import { markSeen } from 'tool-result-guard';

async function adopt(store, state, toolUseId, content) {
  const seen = markSeen(state, toolUseId);
  const persisted = await store.persist(toolUseId, content);
  return recordReplacement(state, seen, persisted);
}`,
            },
          ],
        },
      ],
    },
    {
      // the state is declared after the persist: the mark can only go before the write
      code: `async function f(store, id, content) {
  const persisted = await store.persist(id, content);
  const state = currentState();
  state.replacements.set(id, persisted.preview);
}`,
      errors: [
        {
          messageId: 'replacementWithoutSeenMark',
          suggestions: [
            {
              messageId: 'insertSeenMark',
              output: `async function f(store, id, content) {
  const persisted = await store.persist(id, content);
  const state = currentState();
  state.seenIds.add(id);
  state.replacements.set(id, persisted.preview);
}`,
            },
          ],
        },
      ],
    },
    {
      // the runtime's functions: a record without markSeen gets the mark, and the SeenId it returns is what
      // recordReplacement is given (its types accept nothing else)
      code: `function f(state, id, persisted) { recordReplacement(state, id, persisted); }`,
      errors: [
        {
          messageId: 'replacementWithoutSeenMark',
          data: {
            write: 'recordReplacement(state, id, …)',
            mark: 'markSeen(state, id)',
            map: 'state',
            seen: '',
            id: 'id',
            stateName: 'state',
          },
          suggestions: [
            {
              messageId: 'insertSeenMark',
              output: `import { markSeen } from 'tool-result-guard';

function f(state, id, persisted) { const seen = markSeen(state, id);\nrecordReplacement(state, seen, persisted); }`,
            },
          ],
        },
      ],
    },
    {
      // a harness that imports markSeen: the late bare mark moves before the persist and keeps its SeenId
      code: `import { markSeen, recordReplacement } from 'tool-result-guard';
async function f(state, store, id, content) {
  const seen = 1;
  const persisted = await store.persist(id, content);
  markSeen(state, id);
  recordReplacement(state, id, persisted);
}`,
      errors: [
        {
          messageId: 'seenMarkAfterPersist',
          suggestions: [
            {
              messageId: 'moveSeenMarkBeforePersist',
              output: `import { markSeen, recordReplacement } from 'tool-result-guard';
async function f(state, store, id, content) {
  const seen = 1;
  const seenId = markSeen(state, id);
  const persisted = await store.persist(id, content);
  recordReplacement(state, seenId, persisted);
}`,
            },
          ],
        },
      ],
    },
    {
      // a declared SeenId moves with its declaration
      code: `async function f(state, store, id, content) {
  const persisted = await store.persist(id, content);
  const seen = markSeen(state, id);
  recordReplacement(state, seen, persisted);
}`,
      errors: [
        {
          messageId: 'seenMarkAfterPersist',
          suggestions: [
            {
              messageId: 'moveSeenMarkBeforePersist',
              output: `async function f(state, store, id, content) {
  const seen = markSeen(state, id);
  const persisted = await store.persist(id, content);
  recordReplacement(state, seen, persisted);
}`,
            },
          ],
        },
      ],
    },
    {
      code: `async function f(state, store, id, content) {
  const persisted = await store.persist(id, content);
  markSeen(state, id);
}`,
      errors: [
        {
          messageId: 'seenMarkAfterPersist',
          data: { mark: 'markSeen(state, id)', seen: '', id: 'id', callee: 'store.persist', stateName: 'state' },
          suggestions: [
            {
              messageId: 'moveSeenMarkBeforePersist',
              output: `async function f(state, store, id, content) {
  markSeen(state, id);
  const persisted = await store.persist(id, content);
}`,
            },
          ],
        },
      ],
    },
    {
      // settings rename the collections
      code: `function f(budget, id) { budget.previews.set(id, 'p'); }`,
      settings: { 'tool-result-guard': { seenSetNames: ['decided'], replacementsMapNames: ['previews'] } },
      errors: [
        {
          messageId: 'replacementWithoutSeenMark',
          suggestions: [
            { messageId: 'insertSeenMark', output: `function f(budget, id) { budget.decided.add(id);\nbudget.previews.set(id, 'p'); }` },
          ],
        },
      ],
    },
  ],
});

typedRuleTester.run('mark-seen-before-replacement (type-aware)', rule, {
  valid: [
    {
      code: `import type { BudgetLedger } from './harness-types';
function f(ledger: BudgetLedger, id: string) { ledger.decided.add(id); ledger.previews.set(id, 'p'); }`,
      settings: ledgerSettings,
    },
    {
      // without the setting the ledger is not a state
      code: `import type { BudgetLedger } from './harness-types';
function f(ledger: BudgetLedger, id: string) { ledger.previews.set(id, 'p'); }`,
    },
    {
      code: `interface ContentReplacementState { seenIds: Set<string>; replacements: Map<string, string> }
function f(s: ContentReplacementState, id: string) { s.seenIds.add(id); s.replacements.set(id, 'p'); }`,
    },
  ],
  invalid: [
    {
      code: `import type { BudgetLedger } from './harness-types';
function f(ledger: BudgetLedger, id: string) { ledger.previews.set(id, 'p'); }`,
      settings: ledgerSettings,
      errors: [
        {
          messageId: 'replacementWithoutSeenMark',
          suggestions: [
            {
              messageId: 'insertSeenMark',
              output: `import type { BudgetLedger } from './harness-types';
function f(ledger: BudgetLedger, id: string) { ledger.decided.add(id);\nledger.previews.set(id, 'p'); }`,
            },
          ],
        },
      ],
    },
    {
      code: `import type { BudgetLedger } from './harness-types';
import { persistToolResult } from './harness-types';
async function f(books: BudgetLedger, id: string, content: string) {
  const { preview } = await persistToolResult(id, content);
  books.decided.add(id);
  books.previews.set(id, preview);
}`,
      settings: ledgerSettings,
      errors: [
        {
          messageId: 'seenMarkAfterPersist',
          suggestions: [
            {
              messageId: 'moveSeenMarkBeforePersist',
              output: `import type { BudgetLedger } from './harness-types';
import { persistToolResult } from './harness-types';
async function f(books: BudgetLedger, id: string, content: string) {
  books.decided.add(id);
  const { preview } = await persistToolResult(id, content);
  books.previews.set(id, preview);
}`,
            },
          ],
        },
      ],
    },
    {
      // the other name's marks do not count for this one
      code: `import type { BudgetLedger } from './harness-types';
function f(a: BudgetLedger, b: BudgetLedger, id: string) { a.decided.add(id); b.previews.set(id, 'p'); }`,
      settings: ledgerSettings,
      errors: [
        {
          messageId: 'replacementWithoutSeenMark',
          suggestions: [
            {
              messageId: 'insertSeenMark',
              output: `import type { BudgetLedger } from './harness-types';
function f(a: BudgetLedger, b: BudgetLedger, id: string) { a.decided.add(id); b.decided.add(id);
b.previews.set(id, 'p'); }`,
            },
          ],
        },
      ],
    },
  ],
});
