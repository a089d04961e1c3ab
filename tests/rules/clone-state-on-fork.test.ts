import path from 'node:path';

import { RuleTester } from '@typescript-eslint/rule-tester';

import rule from '../../src/rules/clone-state-on-fork.js';
import { forkCases, harnessTypesDirectory, harnessTypesFile } from './harness-types-cases.js';
import { fixtureDirectory, ruleTester, typedRuleTester } from './replacement-state-testers.js';

const importRuntimeClone = "import { cloneReplacementState } from 'tool-result-guard';";

ruleTester.run('clone-state-on-fork', rule, {
  valid: [
    `forkAgent({ replacementState: cloneReplacementState(state) });`,
    `import { cloneReplacementState } from 'tool-result-guard'; spawnSubagent(prompt, cloneReplacementState(replacementState));`,
    `resumeSession({ contentReplacementState: reconstructReplacementState(ids, records) });`,
    `runAgent({ replacementState: structuredClone(replacementState) });`,
    `createSubagentContext({ replacementState: parent.replacementState.clone() });`,
    `forkAgent({ replacementState: cloneContentReplacementState(parent.state) });`,
    // a clone kept in a variable
    `const childState = cloneReplacementState(replacementState); forkAgent({ replacementState: childState });`,
    `const resumed = reconstructContentReplacementState(ids, records); resumeSession({ contentReplacementState: resumed });`,
    // a fresh state is not a shared one
    `runAgent({ replacementState: createReplacementState() });`,
    // not a fork
    `log({ replacementState });`,
    `applyToolResultBudget(blocks, replacementState, options);`,
    `saveState(contentReplacementState);`,
    // other values passed to forks
    `forkAgent({ prompt, querySource: 'agent:research', tools });`,
    `spawn('ls', ['-la'], { cwd });`,
    `git.branch(name, { force: true });`,
    `forkAgent({ replacementState: undefined });`,
    `forkAgent({ replacementState: null });`,
    // a variable named otherwise, never used as a state
    `function f(session) { spawnResearchAgent(session, task); }`,
    // `state` alone is too common a name (redux-saga's fork)
    `function* saga(state) { yield fork(worker, state); }`,
    // settings: another carrier name is only a carrier when listed
    `forkAgent({ budgetLedger: ledger });`,
    // spreads of non-literal objects are not looked into
    `forkAgent({ ...options, prompt });`,
    // the clone function itself matches nothing
    `cloneForkState(replacementState);`,
  ],
  invalid: [
    {
      // the example harness's spawnResearchAgent
      code: `function spawnResearchAgent(parent, task) {
  return forkSubagent({ parentSessionId: parent.id, prompt: task, contentReplacementState: parent.state });
}`,
      errors: [
        {
          messageId: 'stateSharedWithFork',
          data: {
            stateName: 'parent.state',
            callee: 'forkSubagent',
            cloneFunction: 'cloneReplacementState',
            copy: 'cloneReplacementState(parent.state)',
            property: 'contentReplacementState',
          },
          suggestions: [
            {
              messageId: 'wrapWithRuntimeClone',
              output: `${importRuntimeClone}
function spawnResearchAgent(parent, task) {
  return forkSubagent({ parentSessionId: parent.id, prompt: task, contentReplacementState: cloneReplacementState(parent.state) });
}`,
            },
          ],
        },
      ],
    },
    {
      // a shorthand property; the import is added after the last import
      code: `import { runTurn } from './loop.js';
forkAgent({ prompt, replacementState });`,
      errors: [
        {
          messageId: 'stateSharedWithFork',
          suggestions: [
            {
              messageId: 'wrapWithRuntimeClone',
              output: `import { runTurn } from './loop.js';
${importRuntimeClone}
forkAgent({ prompt, replacementState: cloneReplacementState(replacementState) });`,
            },
          ],
        },
      ],
    },
    {
      // merged into an existing import from tool-result-guard
      code: `import { applyToolResultBudget } from 'tool-result-guard';
spawnSubagent(task, replacementState);`,
      errors: [
        {
          messageId: 'stateSharedWithFork',
          suggestions: [
            {
              messageId: 'wrapWithRuntimeClone',
              output: `import { applyToolResultBudget, cloneReplacementState } from 'tool-result-guard';
spawnSubagent(task, cloneReplacementState(replacementState));`,
            },
          ],
        },
      ],
    },
    {
      // a type-only import stays type-only: a new value import is added
      code: `import type { ReplacementState } from 'tool-result-guard';
export function fork(replacementState: ReplacementState) { return runAgent({ replacementState }); }`,
      errors: [
        {
          messageId: 'stateSharedWithFork',
          suggestions: [
            {
              messageId: 'wrapWithRuntimeClone',
              output: `import type { ReplacementState } from 'tool-result-guard';
${importRuntimeClone}
export function fork(replacementState: ReplacementState) { return runAgent({ replacementState: cloneReplacementState(replacementState) }); }`,
            },
          ],
        },
      ],
    },
    {
      // a namespace import is used as is
      code: `import * as guard from 'tool-result-guard';
resumeAgent({ contentReplacementState: session.state });`,
      errors: [
        {
          messageId: 'stateSharedWithFork',
          suggestions: [
            {
              messageId: 'wrapWithRuntimeClone',
              output: `import * as guard from 'tool-result-guard';
resumeAgent({ contentReplacementState: guard.cloneReplacementState(session.state) });`,
            },
          ],
        },
      ],
    },
    {
      // no imports at all: the import goes first
      code: `branchConversation(contentReplacementState);`,
      errors: [
        {
          messageId: 'stateSharedWithFork',
          suggestions: [
            {
              messageId: 'wrapWithRuntimeClone',
              output: `${importRuntimeClone}\nbranchConversation(cloneReplacementState(contentReplacementState));`,
            },
          ],
        },
      ],
    },
    {
      // autofix: the runtime's clone is imported
      code: `import { cloneReplacementState } from 'tool-result-guard';
forkAgent({ replacementState: this.replacementState });`,
      output: `import { cloneReplacementState } from 'tool-result-guard';
forkAgent({ replacementState: cloneReplacementState(this.replacementState) });`,
      errors: [{ messageId: 'stateSharedWithFork' }],
    },
    {
      // autofix: a harness's own clone function is in scope
      code: `function cloneContentReplacementState(s) { return { seenIds: new Set(s.seenIds), replacements: new Map(s.replacements) }; }
function delegate(parent) { return spawnSubagent({ contentReplacementState: parent.state }); }`,
      output: `function cloneContentReplacementState(s) { return { seenIds: new Set(s.seenIds), replacements: new Map(s.replacements) }; }
function delegate(parent) { return spawnSubagent({ contentReplacementState: cloneContentReplacementState(parent.state) }); }`,
      errors: [
        {
          messageId: 'stateSharedWithFork',
          data: {
            stateName: 'parent.state',
            callee: 'spawnSubagent',
            cloneFunction: 'cloneContentReplacementState',
            copy: 'cloneContentReplacementState(parent.state)',
            property: 'contentReplacementState',
          },
        },
      ],
    },
    {
      // autofix of a shorthand property, with the runtime import preferred
      code: `import { cloneReplacementState, cloneSessionState } from 'tool-result-guard';
runAgent({ replacementState });`,
      output: `import { cloneReplacementState, cloneSessionState } from 'tool-result-guard';
runAgent({ replacementState: cloneReplacementState(replacementState) });`,
      errors: [{ messageId: 'stateSharedWithFork' }],
    },
    {
      // inside a spread object literal
      code: `import { cloneReplacementState } from 'tool-result-guard';
forkAgent({ ...defaults, ...{ replacementState } });`,
      output: `import { cloneReplacementState } from 'tool-result-guard';
forkAgent({ ...defaults, ...{ replacementState: cloneReplacementState(replacementState) } });`,
      errors: [{ messageId: 'stateSharedWithFork' }],
    },
    {
      // nested object literal
      code: `import { cloneReplacementState } from 'tool-result-guard';
createSubagentContext({ budget: { replacementState: parent.replacementState } });`,
      output: `import { cloneReplacementState } from 'tool-result-guard';
createSubagentContext({ budget: { replacementState: cloneReplacementState(parent.replacementState) } });`,
      errors: [{ messageId: 'stateSharedWithFork' }],
    },
    {
      // a new expression
      code: `import { cloneReplacementState } from 'tool-result-guard';
const child = new SubagentRunner({ replacementState: parentState });`,
      output: `import { cloneReplacementState } from 'tool-result-guard';
const child = new SubagentRunner({ replacementState: cloneReplacementState(parentState) });`,
      errors: [{ messageId: 'stateSharedWithFork' }],
    },
    {
      // a variable created as a state, under any key
      code: `import { cloneReplacementState, createReplacementState } from 'tool-result-guard';
const budget = createReplacementState();
forkAgent({ decisions: budget });`,
      output: `import { cloneReplacementState, createReplacementState } from 'tool-result-guard';
const budget = createReplacementState();
forkAgent({ decisions: cloneReplacementState(budget) });`,
      errors: [{ messageId: 'stateSharedWithFork' }],
    },
    {
      // a variable used as a state (its .seenIds), passed as an argument
      code: `import { cloneReplacementState } from 'tool-result-guard';
function turn(ledger, id) { ledger.seenIds.add(id); spawnHelper(ledger); }`,
      output: `import { cloneReplacementState } from 'tool-result-guard';
function turn(ledger, id) { ledger.seenIds.add(id); spawnHelper(cloneReplacementState(ledger)); }`,
      errors: [{ messageId: 'stateSharedWithFork' }],
    },
    {
      // a conditional still shares the live object on one branch
      code: `import { cloneReplacementState } from 'tool-result-guard';
forkAgent({ replacementState: inherit ? parent.replacementState : undefined });`,
      output: `import { cloneReplacementState } from 'tool-result-guard';
forkAgent({ replacementState: cloneReplacementState(inherit ? parent.replacementState : undefined) });`,
      errors: [{ messageId: 'stateSharedWithFork' }],
    },
    {
      // a method callee and a type assertion
      code: `import { cloneReplacementState } from 'tool-result-guard';
agents.resume(sessionId, { contentReplacementState: saved as State });`,
      output: `import { cloneReplacementState } from 'tool-result-guard';
agents.resume(sessionId, { contentReplacementState: cloneReplacementState(saved as State) });`,
      errors: [
        {
          messageId: 'stateSharedWithFork',
          data: {
            stateName: 'saved as State',
            callee: 'agents.resume',
            cloneFunction: 'cloneReplacementState',
            copy: 'cloneReplacementState(saved as State)',
            property: 'contentReplacementState',
          },
        },
      ],
    },
    {
      // two forks, two findings
      code: `import { cloneReplacementState } from 'tool-result-guard';
forkAgent({ replacementState }); runSubagent({ replacementState });`,
      output: `import { cloneReplacementState } from 'tool-result-guard';
forkAgent({ replacementState: cloneReplacementState(replacementState) }); runSubagent({ replacementState: cloneReplacementState(replacementState) });`,
      errors: [{ messageId: 'stateSharedWithFork' }, { messageId: 'stateSharedWithFork' }],
    },
    {
      // inside a nested function, the clone in the module scope is found
      code: `import { cloneReplacementState as cloneState } from 'tool-result-guard';
export const delegate = (ctx) => () => forkAgent({ replacementState: ctx.replacementState });`,
      output: `import { cloneReplacementState as cloneState } from 'tool-result-guard';
export const delegate = (ctx) => () => forkAgent({ replacementState: cloneState(ctx.replacementState) });`,
      errors: [
        {
          messageId: 'stateSharedWithFork',
          data: {
            stateName: 'ctx.replacementState',
            callee: 'forkAgent',
            cloneFunction: 'cloneState',
            copy: 'cloneState(ctx.replacementState)',
            property: 'replacementState',
          },
        },
      ],
    },
    {
      // settings add a fork callee and a carrier name
      code: `import { cloneReplacementState } from 'tool-result-guard';
delegateTo(worker, { budgetLedger: ledger });`,
      output: `import { cloneReplacementState } from 'tool-result-guard';
delegateTo(worker, { budgetLedger: cloneReplacementState(ledger) });`,
      settings: { 'tool-result-guard': { forkCallees: ['delegateTo'], stateNames: ['budgetLedger'] } },
      errors: [{ messageId: 'stateSharedWithFork' }],
    },
    {
      // the harness's own state module exports a clone: suggested first, merged into its import; its state
      // (HarnessState, plain data) then gets structuredClone, never tool-result-guard's clone
      code: `import { reconstructHarnessState, type HarnessState } from './harness-state.js';
export function delegate(parent: { state: HarnessState }) { forkAgent({ contentReplacementState: parent.state }); }`,
      filename: path.join(fixtureDirectory, 'file.ts'),
      errors: [
        {
          messageId: 'stateSharedWithFork',
          suggestions: [
            {
              messageId: 'wrapWithModuleClone',
              output: `import { reconstructHarnessState, type HarnessState, cloneHarnessState } from './harness-state.js';
export function delegate(parent: { state: HarnessState }) { forkAgent({ contentReplacementState: cloneHarnessState(parent.state) }); }`,
            },
            {
              messageId: 'wrapWithStructuredClone',
              output: `import { reconstructHarnessState, type HarnessState } from './harness-state.js';
export function delegate(parent: { state: HarnessState }) { forkAgent({ contentReplacementState: structuredClone(parent.state) }); }`,
            },
          ],
        },
      ],
    },
    {
      // a state built by an object literal of Sets and Maps is the harness's plain data
      code: `const replacementState = { seenIds: new Set(), replacements: new Map() };
forkAgent({ replacementState });`,
      errors: [
        {
          messageId: 'stateSharedWithFork',
          suggestions: [
            {
              messageId: 'wrapWithStructuredClone',
              output: `const replacementState = { seenIds: new Set(), replacements: new Map() };
forkAgent({ replacementState: structuredClone(replacementState) });`,
            },
          ],
        },
      ],
    },
    {
      // one holding a function cannot be structured-cloned, nor handed to tool-result-guard's clone
      code: `const replacementState = { seenIds: new Set(), replacements: new Map(), decide(id) { return this.seenIds.has(id); } };
forkAgent({ replacementState });`,
      errors: [
        {
          messageId: 'harnessStateWithoutCopy',
          data: {
            stateName: 'replacementState',
            callee: 'forkAgent',
            typeName: 'state',
            why: "structuredClone throws on the functions it holds, and tool-result-guard's cloneReplacementState only takes the runtime's own state",
            property: 'replacementState',
          },
          suggestions: [],
        },
      ],
    },
    {
      // the file's own class with a clone() method, made by a helper of the file
      code: `class BudgetState { seenIds = new Set(); replacements = new Map(); clone() { return new BudgetState(); } }
function freshState() { return new BudgetState(); }
const replacementState = freshState();
spawnSubagent({ replacementState });`,
      errors: [
        {
          messageId: 'stateSharedWithFork',
          data: {
            stateName: 'replacementState',
            callee: 'spawnSubagent',
            cloneFunction: 'clone',
            copy: 'replacementState.clone()',
            property: 'replacementState',
          },
          suggestions: [
            {
              messageId: 'callCloneMethod',
              output: `class BudgetState { seenIds = new Set(); replacements = new Map(); clone() { return new BudgetState(); } }
function freshState() { return new BudgetState(); }
const replacementState = freshState();
spawnSubagent({ replacementState: replacementState.clone() });`,
            },
          ],
        },
      ],
    },
    {
      // a helper of the file that returns tool-result-guard's state: the library's clone
      code: `import { cloneReplacementState, createReplacementState } from 'tool-result-guard';
function freshState() { return createReplacementState(); }
const live = freshState();
forkAgent({ contentReplacementState: live });`,
      output: `import { cloneReplacementState, createReplacementState } from 'tool-result-guard';
function freshState() { return createReplacementState(); }
const live = freshState();
forkAgent({ contentReplacementState: cloneReplacementState(live) });`,
      errors: [{ messageId: 'stateSharedWithFork' }],
    },
    {
      // a default import is extended with the named one
      code: `import guard from 'tool-result-guard';
forkAgent(replacementState);`,
      errors: [
        {
          messageId: 'stateSharedWithFork',
          suggestions: [
            {
              messageId: 'wrapWithRuntimeClone',
              output: `import guard, { cloneReplacementState } from 'tool-result-guard';
forkAgent(cloneReplacementState(replacementState));`,
            },
          ],
        },
      ],
    },
  ],
});

typedRuleTester.run('clone-state-on-fork (type-aware)', rule, {
  valid: [
    {
      code: `import { cloneReplacementState, type ReplacementState } from 'tool-result-guard';
import { forkAgent } from './harness-types';
export function delegate(budget: ReplacementState) { forkAgent({ decisions: cloneReplacementState(budget) }); }`,
    },
    {
      code: `import { forkAgent } from './harness-types';
export function delegate(budget: Set<string>) { forkAgent({ decisions: budget }); }`,
    },
    {
      // typed as the clone's brand: already a copy, whatever the key says
      code: `import type { ForkableState, ReplacementState } from 'tool-result-guard';
import { forkAgent } from './harness-types';
export function start(replacementState: ForkableState<ReplacementState>) { forkAgent({ replacementState }); }`,
    },
    {
      code: `import { reconstructReplacementState } from 'tool-result-guard';
import { forkAgent } from './harness-types';
export function resume(ids: string[]) { let resumed = reconstructReplacementState(ids, []); forkAgent({ contentReplacementState: resumed }); }`,
    },
  ],
  invalid: [
    {
      // any name, typed as the runtime's state
      code: `import { cloneReplacementState, type ReplacementState } from 'tool-result-guard';
import { forkAgent } from './harness-types';
export function delegate(budget: ReplacementState) { forkAgent({ decisions: budget }); }`,
      output: `import { cloneReplacementState, type ReplacementState } from 'tool-result-guard';
import { forkAgent } from './harness-types';
export function delegate(budget: ReplacementState) { forkAgent({ decisions: cloneReplacementState(budget) }); }`,
      errors: [{ messageId: 'stateSharedWithFork' }],
    },
    {
      // a settings-named type, passed as an argument
      code: `import type { BudgetLedger } from './harness-types';
declare function spawnWorker(ledger: BudgetLedger): void;
export function delegate(books: BudgetLedger | undefined) { spawnWorker(books!); }`,
      settings: { 'tool-result-guard': { stateTypeNames: ['BudgetLedger'] } },
      errors: [
        {
          messageId: 'stateSharedWithFork',
          // The harness's own type: tool-result-guard's clone would reject it (a type error, and
          // ERR_NOT_A_REPLACEMENT_STATE at run time).
          suggestions: [
            {
              messageId: 'wrapWithStructuredClone',
              output: `import type { BudgetLedger } from './harness-types';
declare function spawnWorker(ledger: BudgetLedger): void;
export function delegate(books: BudgetLedger | undefined) { spawnWorker(structuredClone(books!)); }`,
            },
          ],
        },
      ],
    },
    {
      // The harness's own ReplacementState, in a file that also uses the runtime: never our clone, even in scope.
      code: `import { cloneReplacementState, createReplacementState } from 'tool-result-guard';
interface ReplacementState { seenIds: Set<string>; replacements: Map<string, string> }
declare function forkAgent(options: { state: ReplacementState }): void;
export const budgetState = cloneReplacementState(createReplacementState());
export function delegate(state: ReplacementState) { forkAgent({ state }); }`,
      errors: [
        {
          messageId: 'stateSharedWithFork',
          data: {
            stateName: 'state',
            callee: 'forkAgent',
            cloneFunction: 'structuredClone',
            copy: 'structuredClone(state)',
            property: 'state',
          },
          suggestions: [
            {
              messageId: 'wrapWithStructuredClone',
              output: `import { cloneReplacementState, createReplacementState } from 'tool-result-guard';
interface ReplacementState { seenIds: Set<string>; replacements: Map<string, string> }
declare function forkAgent(options: { state: ReplacementState }): void;
export const budgetState = cloneReplacementState(createReplacementState());
export function delegate(state: ReplacementState) { forkAgent({ state: structuredClone(state) }); }`,
            },
          ],
        },
      ],
    },
    {
      // The runtime's own state keeps the runtime's clone as its autofix.
      code: `import { cloneReplacementState, type ReplacementState } from 'tool-result-guard';
declare function forkAgent(options: { state: ReplacementState }): void;
export function delegate(state: ReplacementState) { forkAgent({ state }); }`,
      output: `import { cloneReplacementState, type ReplacementState } from 'tool-result-guard';
declare function forkAgent(options: { state: ReplacementState }): void;
export function delegate(state: ReplacementState) { forkAgent({ state: cloneReplacementState(state) }); }`,
      errors: [
        {
          messageId: 'stateSharedWithFork',
          data: {
            stateName: 'state',
            callee: 'forkAgent',
            cloneFunction: 'cloneReplacementState',
            copy: 'cloneReplacementState(state)',
            property: 'state',
          },
        },
      ],
    },
  ],
});

// The harness's own replacement state, named like tool-result-guard's or not: decided by where its type or
// constructor comes from, the same edit without and with type information.
const harnessTypedRuleTester = new RuleTester({
  languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: harnessTypesDirectory } },
});
for (const [mode, tester] of [
  ['without types', ruleTester],
  ['with types', harnessTypedRuleTester],
] as const) {
  tester.run(`clone-state-on-fork (a harness's own state, ${mode})`, rule, {
    // What the fix leaves is a clone: nothing more to report.
    valid: forkCases.flatMap((testCase) => (testCase.suggestion ? [{ code: testCase.suggestion.output, filename: harnessTypesFile }] : [])),
    invalid: forkCases.map((testCase) => ({
      name: testCase.name,
      code: testCase.code,
      filename: harnessTypesFile,
      errors: [
        {
          messageId: testCase.messageId as 'stateSharedWithFork' | 'harnessStateWithoutCopy',
          suggestions: testCase.suggestion
            ? [{ messageId: testCase.suggestion.messageId as 'callCloneMethod', output: testCase.suggestion.output }]
            : [],
        },
      ],
    })),
  });
}
