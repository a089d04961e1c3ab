import { describe, expect, expectTypeOf, it } from 'vitest';
import { shouldPersistForSession } from '../../src/index.js';
import type { OwnedQuerySource } from '../../src/index.js';

describe('shouldPersistForSession', () => {
  it.each(['repl_main_thread', 'repl_main_thread:outputStyle:explanatory', 'repl_main_thread_v2', 'agent:', 'agent:research', 'agent:a:b'])(
    'is true for the owned query source %j',
    (querySource) => {
      expect(shouldPersistForSession(querySource)).toBe(true);
    },
  );

  it.each([
    '',
    'sdk',
    'compact',
    'session_memory',
    'agent_summary',
    'agent',
    'Agent:research',
    'REPL_MAIN_THREAD',
    ' repl_main_thread',
    ' agent:x',
    'subagent:x',
    'repl_main',
    'main_thread',
  ])('is false for %j (prefix allowlist, case-sensitive, no trimming)', (querySource) => {
    expect(shouldPersistForSession(querySource)).toBe(false);
  });

  it('is false for a non-string from JavaScript callers instead of throwing', () => {
    expect(shouldPersistForSession(undefined as unknown as string)).toBe(false);
    expect(shouldPersistForSession(42 as unknown as string)).toBe(false);
  });

  it('narrows the query source to OwnedQuerySource', () => {
    const querySource: string = 'agent:x';
    if (shouldPersistForSession(querySource)) {
      expectTypeOf(querySource).toEqualTypeOf<OwnedQuerySource>();
    }
  });
});
