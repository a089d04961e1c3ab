import { describe, expect, test } from 'tstyche';
import {
  persistForOwnedSession,
  requireOwnedSession,
  shouldPersistForSession,
  ToolResultStore,
  type OwnedQuerySource,
  type OwnedQuerySourceArgument,
  type PersistedToolResult,
} from '../../src/index.js';

const store = new ToolResultStore({ root: '/tmp/agent', sessionId: 'session-1' });
declare const querySource: string;

describe('OwnedQuerySource', () => {
  test('owned sources by prefix, including suffixed main threads', () => {
    expect<'repl_main_thread'>().type.toBeAssignableTo<OwnedQuerySource>();
    expect<'repl_main_thread:outputStyle:concise'>().type.toBeAssignableTo<OwnedQuerySource>();
    expect<'agent:researcher'>().type.toBeAssignableTo<OwnedQuerySource>();
    expect<`agent:${string}`>().type.toBeAssignableTo<OwnedQuerySource>();
  });

  test('ephemeral and unknown sources are not owned', () => {
    expect<'compact'>().type.not.toBeAssignableTo<OwnedQuerySource>();
    expect<'session_memory'>().type.not.toBeAssignableTo<OwnedQuerySource>();
    expect<'agent_summary'>().type.not.toBeAssignableTo<OwnedQuerySource>();
    expect<'sdk'>().type.not.toBeAssignableTo<OwnedQuerySource>();
    expect<''>().type.not.toBeAssignableTo<OwnedQuerySource>();
    expect<string>().type.not.toBeAssignableTo<OwnedQuerySource>();
  });

  test('shouldPersistForSession is a type guard to OwnedQuerySource', () => {
    if (shouldPersistForSession(querySource)) {
      expect(querySource).type.toBe<OwnedQuerySource>();
    } else {
      expect(querySource).type.toBe<string>();
    }
  });
});

describe('helpers that demand ownership', () => {
  test('an owned literal or a narrowed string compiles', async () => {
    expect(requireOwnedSession('agent:researcher')).type.toBe<'agent:researcher'>();
    expect(requireOwnedSession('repl_main_thread:outputStyle:x')).type.toBe<'repl_main_thread:outputStyle:x'>();
    if (shouldPersistForSession(querySource)) {
      expect(requireOwnedSession(querySource)).type.toBe<OwnedQuerySource>();
      expect(await persistForOwnedSession(store, querySource, 'toolu_01', 'output')).type.toBe<PersistedToolResult>();
    }
  });

  test("'compact' fails, saying to narrow with shouldPersistForSession", () => {
    // @ts-expect-error narrow the query source with if (shouldPersistForSession(querySource)) first
    requireOwnedSession('compact');
    // @ts-expect-error Persist only for sessions that own a storage root
    void persistForOwnedSession(store, 'compact', 'toolu_01', 'output');
    // @ts-expect-error Persist only for sessions that own a storage root
    void persistForOwnedSession(store, 'session_memory', 'toolu_01', 'output');
  });

  test('an unchecked string fails the same way', () => {
    // @ts-expect-error narrow the query source with if (shouldPersistForSession(querySource)) first
    void persistForOwnedSession(store, querySource, 'toolu_01', 'output');
  });

  test('a union that mixes owned and ephemeral sources fails', () => {
    const source = Math.random() > 0.5 ? 'repl_main_thread' : 'compact';
    // @ts-expect-error Persist only for sessions that own a storage root
    requireOwnedSession(source);
  });

  test('your own helper adopts OwnedQuerySourceArgument', () => {
    function persistFor<const Source extends string>(source: OwnedQuerySourceArgument<Source>): Source {
      return requireOwnedSession<Source>(source);
    }
    expect(persistFor('agent:x')).type.toBe<'agent:x'>();
    // @ts-expect-error Persist only for sessions that own a storage root
    persistFor('compact');
  });

  test('a plain OwnedQuerySource parameter also rejects it (naming the type)', () => {
    const persistPlain = (source: OwnedQuerySource) => source;
    // @ts-expect-error Argument of type '"compact"' is not assignable to parameter of type 'OwnedQuerySource'
    persistPlain('compact');
  });
});
