// The runtime's public signatures carry the brands the type-level guards
// build on (src/types/brands.ts). `tsc -p tsconfig.json` checks these; at run
// time they only prove the values exist.
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  cloneReplacementState,
  createReplacementState,
  markSeen,
  reconstructReplacementState,
  recordReplacement,
  ReplacementWithoutSeenMarkError,
  shouldPersistForSession,
  ToolResultStore,
  UNBOUNDED,
} from '../../src/index.js';
import type { PersistedToolResult, ReplacementRecord, ReplacementState } from '../../src/index.js';
import type { ForkableState, OwnedQuerySource, PersistedPreview, SeenId, Unbounded } from '../../src/types/index.js';

describe('branded signatures', () => {
  it('UNBOUNDED is Unbounded', () => {
    expectTypeOf(UNBOUNDED).toEqualTypeOf<Unbounded>();
  });

  it('shouldPersistForSession narrows to OwnedQuerySource', () => {
    expectTypeOf(shouldPersistForSession).guards.toEqualTypeOf<OwnedQuerySource>();
  });

  it('a persist result carries a PersistedPreview', () => {
    expectTypeOf<ToolResultStore['persist']>().returns.resolves.toEqualTypeOf<PersistedToolResult>();
    expectTypeOf<PersistedToolResult['preview']>().toEqualTypeOf<PersistedPreview>();
  });

  it('markSeen returns a SeenId and recordReplacement takes one and a persist result', () => {
    expectTypeOf(markSeen).returns.toEqualTypeOf<SeenId>();
    expectTypeOf(recordReplacement).parameter(1).toEqualTypeOf<SeenId>();
    expectTypeOf(recordReplacement).returns.toEqualTypeOf<ReplacementRecord>();
    // The compiler refuses a plain string, and so does the runtime (JavaScript callers, casts).
    expect(() =>
      // @ts-expect-error a plain string is not a SeenId
      recordReplacement(createReplacementState(), 'toolu_1', { path: '/p', size: 1, preview: 'x' as PersistedPreview }),
    ).toThrow(ReplacementWithoutSeenMarkError);
  });

  it('only clone and reconstruct produce ForkableState', () => {
    expectTypeOf(cloneReplacementState).returns.toEqualTypeOf<ForkableState<ReplacementState>>();
    expectTypeOf(reconstructReplacementState).returns.toEqualTypeOf<ForkableState<ReplacementState>>();
    expectTypeOf(createReplacementState).returns.toEqualTypeOf<ReplacementState>();
    expectTypeOf(createReplacementState()).not.toMatchTypeOf<ForkableState<ReplacementState>>();
  });
});
