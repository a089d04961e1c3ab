// The state analysis's shared vocabulary (state-mutation/expressions.ts): a
// name's words, the root an expression hangs off, the variable an identifier
// means and whether it lives outside the call.
import type { TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';

import {
  describeOuterVariable,
  expressionRoot,
  isPackageImport,
  nameWords,
  outermostMember,
  resolveIdentifier,
  thisBelongsTo,
} from '../../../src/recognition/state-mutation/expressions.js';
import { snippet } from './snippets.js';

describe('nameWords', () => {
  it('splits camelCase, snake_case and kebab-case names into lower-case words', () => {
    expect(nameWords('recordAgentReplayStep')).toEqual(['record', 'agent', 'replay', 'step']);
    expect(nameWords('set_global-Logger')).toEqual(['set', 'global', 'logger']);
    expect(nameWords('v3')).toEqual(['v3']);
  });
});

describe('expressionRoot and outermostMember', () => {
  it('finds the root of a member chain, and whether the value is part of that object', () => {
    const code = snippet(`async function run(v3, tasks, id) {
  const page = await v3.context.awaitActivePage();
  const task = tasks.get(id);
  const field = v3.context.page;
}`);
    const root = (init: string) => {
      const found = expressionRoot(code.node(init));
      return found && { root: code.text(found.root), part: found.part };
    };
    // What a method returns may be anything; a lookup returns the element itself.
    expect(root('await v3.context.awaitActivePage()')).toEqual({ root: 'v3', part: false });
    expect(root('tasks.get(id)')).toEqual({ root: 'tasks', part: true });
    expect(root('v3.context.page')).toEqual({ root: 'v3', part: true });
  });

  it('climbs to the outermost member, through a collection lookup and type wrappers', () => {
    const code = snippet(`function run(tasks, id, x) {
  tasks.get(id).status = 'done';
  (x as any).a.b = 1;
}`);
    expect(code.text(outermostMember(code.identifier('tasks', 1)))).toBe('tasks.get(id).status');
    expect(code.text(outermostMember(code.identifier('x', 1)))).toBe('(x as any).a.b');
  });
});

describe('variables and where they live', () => {
  const code = snippet(`import fs from 'node:fs';
import { remember } from './history.js';
const cache = new Map();
export function make(limit) {
  let count = 0;
  return function run(input) {
    const local = input;
    return [fs, remember, cache, limit, count, local];
  };
}`);
  const run = code.fn('run');
  // The last mention of each name is its use inside `run`.
  const resolved = (name: string) => resolveIdentifier(code.identifier(name, -1), code.sourceCode);

  it('resolves an identifier to the variable of the scope that declares it', () => {
    expect(resolved('cache')).toBe(code.variable('cache'));
    expect(resolved('local')?.defs[0]?.type).toBe('Variable');
  });

  it('describes variables declared outside the invocation, and nothing for its own', () => {
    const words = (name: string) => describeOuterVariable(resolved(name)!, run);
    expect(words('cache')).toEqual({ words: 'module-level `cache`', imported: false });
    expect(words('remember')).toEqual({ words: 'imported `remember`', imported: true });
    expect(words('limit')).toEqual({ words: '`limit`, a parameter of the enclosing function `make`', imported: false });
    expect(words('count')).toEqual({ words: '`count`, a variable of the enclosing function `make`', imported: false });
    expect(words('local')).toBeUndefined();
  });

  it('tells a package import from a relative one', () => {
    expect(isPackageImport(code.variable('fs'))).toBe(true);
    expect(isPackageImport(code.variable('remember'))).toBe(false);
    expect(isPackageImport(code.variable('cache'))).toBe(false);
  });
});

describe('thisBelongsTo', () => {
  it('follows `this` into arrows but not into functions or classes of their own', () => {
    const code = snippet(`class Tool {
  call() {
    const arrow = () => this.a;
    const inner = function () { return this.b; };
    return [arrow, inner];
  }
}`);
    const call = code.fn('call');
    const thisOf = (member: string) => code.node<TSESTree.MemberExpression>(member, 'MemberExpression').object;
    expect(thisBelongsTo(thisOf('this.a'), call)).toBe(true);
    expect(thisBelongsTo(thisOf('this.b'), call)).toBe(false);
  });
});
