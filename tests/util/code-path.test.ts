import { RuleTester } from '@typescript-eslint/rule-tester';
import type { TSESTree } from '@typescript-eslint/utils';

import { createPathFacts, withCodePathListeners } from '../../src/util/code-path.js';
import { createRule } from '../../src/util/create-rule.js';

/**
 * A tiny rule over the helper: `mark('x')` establishes fact `x` when the call
 * completes (`markUnless('x', 'y')` only where `y` does not hold on every
 * path), every `await` establishes `awaited`, and `need('x')` reports where
 * `x` does not hold on every path (`missingOnSomePath` when it holds on some
 * of them, `missingOnEveryPath` when on none); `late('x', 'y')` reports where
 * some path may have `x` while `y` is missing on some way in.
 */
function factNameOf(node: TSESTree.CallExpression, callee: string): string | undefined {
  if (node.callee.type !== 'Identifier' || node.callee.name !== callee) return undefined;
  const [argument] = node.arguments;
  return argument?.type === 'Literal' && typeof argument.value === 'string' ? argument.value : undefined;
}

const pathFactsRule = createRule({
  name: 'path-facts-test',
  meta: {
    type: 'problem',
    docs: { description: 'Test rule for the code-path fact helper.' },
    messages: {
      lateOnSomePath: '{{fact}} may hold here on a path where {{other}} does not.',
      missingOnEveryPath: '{{fact}} holds on no path here.',
      missingOnSomePath: '{{fact}} holds on some paths here, not all.',
    },
    schema: [],
  },
  defaultOptions: [],
  // A test rule: every file may report.
  mayReport: () => true,
  create(context) {
    const facts = createPathFacts();
    return withCodePathListeners(facts.listeners, {
      'CallExpression:exit'(node: TSESTree.CallExpression) {
        const fact = factNameOf(node, 'mark');
        if (fact) facts.establish(fact);
        // markUnless('a', 'b'): establishes a only where b does not hold on every path
        const conditional = factNameOf(node, 'markUnless');
        const unless = node.arguments[1]?.type === 'Literal' ? String(node.arguments[1].value) : undefined;
        if (conditional && unless !== undefined) {
          facts.establishWhere(conditional, (pathFacts) => !pathFacts.holdsOnEveryPath(unless));
        }
      },
      'AwaitExpression:exit'() {
        facts.establish('awaited');
      },
      CallExpression(node: TSESTree.CallExpression) {
        // late('a', 'b'): some current path may have a but lacks b on some of its ways in
        const late = factNameOf(node, 'late');
        const other = node.arguments[1]?.type === 'Literal' ? String(node.arguments[1].value) : undefined;
        if (late && other !== undefined) {
          const isLate = facts.someCurrentPath((pathFacts) => pathFacts.holdsOnSomePath(late) && !pathFacts.holdsOnEveryPath(other));
          if (isLate) context.report({ node, messageId: 'lateOnSomePath', data: { fact: late, other } });
          return;
        }
        const fact = factNameOf(node, 'need');
        if (!fact || facts.holdsOnEveryPath(fact)) return;
        context.report({
          node,
          messageId: facts.holdsOnSomePath(fact) ? 'missingOnSomePath' : 'missingOnEveryPath',
          data: { fact },
        });
      },
    });
  },
});

const ruleTester = new RuleTester();
const none = (count = 1) => Array.from({ length: count }, () => ({ messageId: 'missingOnEveryPath' as const }));
const some = (count = 1) => Array.from({ length: count }, () => ({ messageId: 'missingOnSomePath' as const }));

ruleTester.run('code-path facts', pathFactsRule, {
  valid: [
    `mark('a'); need('a');`,
    `function f() { mark('a'); need('a'); }`,
    // if/else
    `if (c) { mark('a'); } else { mark('a'); } need('a');`,
    `if (c) { mark('a'); } else { return; } need('a');`,
    `function f() { if (!c) return; mark('a'); need('a'); }`,
    `function f() { if (c) { mark('a'); } else { throw new Error('x'); } need('a'); }`,
    `const x = c ? mark('a') : mark('a'); need('a');`,
    // try/catch/finally
    `try { mark('a'); } catch { mark('a'); } need('a');`,
    `try { mark('a'); } finally { cleanup(); } need('a');`,
    `try { risky(); } finally { mark('a'); } need('a');`,
    `try { risky(); } catch (error) { throw error; } finally { mark('a'); } need('a');`,
    `try { mark('a'); } catch (error) { mark('b'); need('b'); }`,
    // loops
    `mark('a'); while (c) { need('a'); }`,
    `mark('a'); for (const x of xs) { if (x) continue; need('a'); }`,
    `do { mark('a'); } while (c); need('a');`,
    // ESLint walks a for loop's update before its body, and a for…of head before its array
    `mark('a'); for (let i = 0; i < n; i++) { need('a'); } need('a');`,
    `for (let i = 0; i < n; i++, need('a')) { mark('a'); }`,
    `mark('a'); for (const x of (need('a'), xs)) { need('a'); } need('a');`,
    `mark('a'); for (const x in object) { need('a'); }`,
    `for (;;) { mark('a'); break; } need('a');`,
    `while (true) { if (c) { mark('a'); break; } } need('a');`,
    `async function f() { for await (const x of xs) { mark('a'); need('a'); } }`,
    // switch
    `switch (x) { case 1: mark('a'); break; default: mark('a'); } need('a');`,
    `switch (x) { case 1: case 2: mark('a'); break; default: return; } need('a');`,
    // logical expressions
    `mark('a') || other(); need('a');`,
    `if (mark('a') && c) { need('a'); } need('a');`,
    `c && mark('a') && need('a');`,
    // labeled breaks
    `outer: { mark('a'); if (c) break outer; other(); } need('a');`,
    `outer: for (;;) { for (const y of ys) { mark('a'); break outer; } mark('a'); break; } need('a');`,
    // unreachable code asks nothing
    `function f() { return; need('a'); }`,
    `function f() { throw new Error('x'); need('a'); }`,
    // await is an event in the current segment
    `async function f() { await x; need('awaited'); }`,
    `async function f() { if (c) { await x; } else { await y; } need('awaited'); }`,
    // a nested function's facts start fresh; its own marks count
    `function f() { const g = () => { mark('a'); need('a'); }; }`,
    // someCurrentPath: b marked before a on every path
    `mark('b'); if (c) mark('a'); late('a', 'b');`,
    // establishWhere: a combined fact keeps two facts together along one path
    `if (c) { mark('b'); markUnless('a', 'b'); } late('a', 'b');`,
    `markUnless('a', 'b'); need('a');`,
    `function f() { mark('a'); } late('a', 'b');`,
    // class field initializers and static blocks are code paths of their own
    `class A { x = (mark('a'), need('a')); static { mark('b'); need('b'); } }`,
  ],
  invalid: [
    { code: `need('a');`, errors: none() },
    // if without else
    { code: `if (c) { mark('a'); } need('a');`, errors: some() },
    { code: `if (c) { mark('a'); } else { other(); } need('a');`, errors: some() },
    { code: `function f() { if (c) return need('a'); mark('a'); }`, errors: none() },
    { code: `const x = c ? mark('a') : other(); need('a');`, errors: some() },
    // early return skips nothing here, but marks after the use do not count
    { code: `function f() { need('a'); mark('a'); }`, errors: none() },
    // try/catch/finally: the catch path may miss the mark
    { code: `try { mark('a'); } catch { other(); } need('a');`, errors: some() },
    { code: `try { mark('a'); } finally { need('a'); }`, errors: some() },
    { code: `try { mark('a'); } catch { need('a'); }`, errors: some() },
    { code: `try { risky(); mark('a'); } catch (error) { log(error); } finally { need('a'); }`, errors: some() },
    // loops: the body may run zero times
    { code: `while (c) { mark('a'); } need('a');`, errors: some() },
    { code: `for (const x of xs) { mark('a'); } need('a');`, errors: some() },
    { code: `for (let i = 0; i < n; i++) { mark('a'); } need('a');`, errors: some() },
    { code: `async function f() { for await (const x of xs) { mark('a'); } need('a'); }`, errors: some() },
    { code: `while (c) { need('a'); mark('a'); }`, errors: none() },
    // a back edge's facts reach the loop body only once the loop has closed
    { code: `while (c) { if (d) need('a'); mark('a'); } need('a');`, errors: [...none(), ...some()] },
    { code: `do { need('a'); mark('a'); } while (c);`, errors: none() },
    { code: `for (const x of xs) { if (x) continue; mark('a'); } need('a');`, errors: some() },
    // switch: a case without the mark, or no default
    { code: `switch (x) { case 1: mark('a'); break; case 2: break; default: mark('a'); } need('a');`, errors: some() },
    { code: `switch (x) { case 1: mark('a'); break; } need('a');`, errors: some() },
    // logical expressions short-circuit
    { code: `c && mark('a'); need('a');`, errors: some() },
    { code: `c || mark('a'); need('a');`, errors: some() },
    { code: `c ?? mark('a'); need('a');`, errors: some() },
    { code: `x?.y(mark('a')); need('a');`, errors: some() },
    // labeled breaks jump over the mark; the outer loop may run zero times
    {
      code: `outer: for (const x of xs) { for (const y of ys) { mark('a'); break outer; } mark('a'); } need('a');`,
      errors: some(),
    },
    { code: `outer: { if (c) break outer; mark('a'); } need('a');`, errors: some() },
    {
      code: `outer: for (const x of xs) { for (const y of ys) { if (y) break outer; mark('a'); } } need('a');`,
      errors: some(),
    },
    // nested functions: a closure's facts do not count for its parent, nor the parent's for it
    { code: `async function f() { const g = async () => { await x; }; need('awaited'); }`, errors: none() },
    { code: `function f() { mark('a'); function g() { need('a'); } }`, errors: none() },
    { code: `function f() { [1].forEach(() => mark('a')); need('a'); }`, errors: none() },
    { code: `async function f() { if (c) await x; need('awaited'); }`, errors: some() },
    // someCurrentPath: a reached on a path without b
    { code: `mark('a'); late('a', 'b');`, errors: [{ messageId: 'lateOnSomePath' }] },
    { code: `if (c) mark('a'); else mark('b'); late('a', 'b');`, errors: [{ messageId: 'lateOnSomePath' }] },
    { code: `try { mark('a'); mark('b'); } finally { late('a', 'b'); }`, errors: [{ messageId: 'lateOnSomePath' }] },
    // per-segment facts do not correlate: after the merge, a may hold and b may be missing (establishWhere fixes this)
    { code: `if (c) { mark('b'); mark('a'); } late('a', 'b');`, errors: [{ messageId: 'lateOnSomePath' }] },
    { code: `if (c) { markUnless('a', 'b'); } need('a');`, errors: [{ messageId: 'missingOnSomePath' }] },
    {
      code: `if (c) { mark('b'); markUnless('a', 'b'); } else { markUnless('a', 'b'); } need('a');`,
      errors: [{ messageId: 'missingOnSomePath' }],
    },
    // several uses, each judged at its own point
    { code: `need('a'); if (c) mark('a'); need('a'); mark('a'); need('a');`, errors: [...none(), ...some()] },
  ],
});
