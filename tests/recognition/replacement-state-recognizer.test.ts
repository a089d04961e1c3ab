// The replacement-state recognizer on its own (recognition/replacement-state/),
// so a change to the core fails here, near its cause, and not only through the
// three rules that use it. It needs a rule context, so each case runs through
// ESLint's Linter with a probe rule that records the recognizer's answers.
import * as typescriptParser from '@typescript-eslint/parser';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';

import {
  RUNTIME_CLONE_FUNCTION,
  RUNTIME_MARK_SEEN,
  RUNTIME_MODULE,
  RUNTIME_RECORD_REPLACEMENT,
} from '../../src/recognition/replacement-state.js';
import { getRecognitionContext } from '../../src/recognition/context.js';
import * as runtime from '../../src/index.js';

interface CallAnswer {
  callee: string;
  seenMark?: string;
  seenCheck?: string;
  replacementWrite?: string;
  persistence?: string[];
  fork: boolean;
  clone: boolean;
}

/** What the recognizer says of every call in `code`. */
function answersFor(code: string, settings: Record<string, unknown> = {}): CallAnswer[] {
  const answers: CallAnswer[] = [];
  const probe: TSESLint.RuleModule<string, []> = {
    meta: { type: 'problem', schema: [], messages: {} },
    defaultOptions: [],
    create(context) {
      const recognizer = getRecognitionContext(context).replacementState;
      return {
        CallExpression(call: TSESTree.CallExpression) {
          const describe = (found: { idKey: string } | undefined) => found?.idKey;
          answers.push({
            callee: context.sourceCode.getText(call.callee),
            ...(recognizer.seenMark(call) ? { seenMark: describe(recognizer.seenMark(call)) } : {}),
            ...(recognizer.seenCheck(call) ? { seenCheck: describe(recognizer.seenCheck(call)) } : {}),
            ...(recognizer.replacementWrite(call) ? { replacementWrite: describe(recognizer.replacementWrite(call)) } : {}),
            ...(recognizer.persistenceCall(call) ? { persistence: [...(recognizer.persistenceCall(call)?.idKeys ?? [])] } : {}),
            fork: recognizer.isForkCall(call),
            clone: recognizer.isCloneCall(call),
          });
        },
      };
    },
  };
  const linter = new Linter({ configType: 'flat' });
  const messages = linter.verify(
    code,
    [
      {
        files: ['**/*.ts'],
        plugins: { probe: { rules: { probe } } } as never,
        languageOptions: { parser: typescriptParser as never },
        settings: { 'tool-result-guard': settings },
        rules: { 'probe/probe': 'error' },
      },
    ],
    { filename: 'harness.ts' },
  );
  expect(messages.filter((message) => message.fatal)).toEqual([]);
  return answers;
}

const byCallee = (answers: CallAnswer[], callee: string) => answers.filter((answer) => answer.callee === callee);

describe('the replacement-state recognizer', () => {
  it('pairs a seen mark, a seen check and a replacement write on the same state by id', () => {
    const answers = answersFor(`
      declare const state: { seenIds: Set<string>; replacements: Map<string, string> };
      export function judge(id: string, preview: string) {
        if (!state.seenIds.has(id)) state.seenIds.add(id);
        state.replacements.set(id, preview);
      }
    `);
    const [check] = byCallee(answers, 'state.seenIds.has');
    const [mark] = byCallee(answers, 'state.seenIds.add');
    const [write] = byCallee(answers, 'state.replacements.set');
    expect(check?.seenCheck).toBeDefined();
    expect(mark?.seenMark).toBeDefined();
    expect(write?.replacementWrite).toBeDefined();
    expect(mark?.seenMark).toBe(write?.replacementWrite);
  });

  it("knows the runtime's own markSeen and recordReplacement", () => {
    const answers = answersFor(`
      import { markSeen, recordReplacement } from 'tool-result-guard';
      declare const state: never; declare const persisted: never;
      export function judge(id: string) {
        const seen = markSeen(state, id);
        recordReplacement(state, seen, persisted);
      }
    `);
    expect(byCallee(answers, 'markSeen')[0]?.seenMark).toBeDefined();
    expect(byCallee(answers, 'recordReplacement')[0]?.replacementWrite).toBeDefined();
  });

  it('does not take a bare `replacements` map for the state in a file that never speaks of a seen set', () => {
    const answers = answersFor(`
      const replacements = new Map<string, string>();
      export function substitute(word: string, other: string) { replacements.set(word, other); }
    `);
    expect(byCallee(answers, 'replacements.set')[0]?.replacementWrite).toBeUndefined();
  });

  it('finds persistence calls with their id, fork calls and clones', () => {
    const answers = answersFor(`
      import { cloneReplacementState } from 'tool-result-guard';
      declare const store: { persist(id: string, content: string): Promise<unknown> };
      declare function forkSubagent(options: object): void;
      declare const state: object;
      export async function run(id: string, content: string) {
        await store.persist(id, content);
        forkSubagent({ state: cloneReplacementState(state) });
        console.log(id);
      }
    `);
    // Every argument is a candidate id, keyed as a later seen mark or write of the same value is.
    const persisted = byCallee(answers, 'store.persist')[0]?.persistence;
    expect(persisted).toHaveLength(2);
    const marks = answersFor(`
      declare const state: { seenIds: Set<string> };
      export function judge(id: string) { state.seenIds.add(id); }
    `);
    expect(persisted).toContain(byCallee(marks, 'state.seenIds.add')[0]?.seenMark);
    expect(byCallee(answers, 'forkSubagent')[0]?.fork).toBe(true);
    expect(byCallee(answers, 'cloneReplacementState')[0]?.clone).toBe(true);
    expect(byCallee(answers, 'console.log')[0]).toMatchObject({ fork: false, clone: false });
    expect(byCallee(answers, 'console.log')[0]?.persistence).toBeUndefined();
  });

  it('takes the names a team teaches it through settings', () => {
    const answers = answersFor(
      `
      declare const ledger: { decided: Set<string>; previews: Map<string, string> };
      export function judge(id: string, preview: string) {
        ledger.decided.add(id);
        ledger.previews.set(id, preview);
      }
    `,
      { seenSetNames: ['decided'], replacementsMapNames: ['previews'] },
    );
    expect(byCallee(answers, 'ledger.decided.add')[0]?.seenMark).toBeDefined();
    expect(byCallee(answers, 'ledger.previews.set')[0]?.replacementWrite).toBeDefined();
  });
});

describe("the core's names for the runtime", () => {
  it('name real exports of the runtime entry, under the package name', async () => {
    const exported = runtime as Record<string, unknown>;
    for (const name of [RUNTIME_CLONE_FUNCTION, RUNTIME_MARK_SEEN, RUNTIME_RECORD_REPLACEMENT]) {
      expect(typeof exported[name], name).toBe('function');
    }
    const packageJson = (await import('../../package.json', { with: { type: 'json' } })).default as { name: string };
    expect(RUNTIME_MODULE).toBe(packageJson.name);
  });
});
