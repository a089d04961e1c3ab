import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  evaluateInvocation,
  evaluateInvocationWithGate,
  InvalidStatePolicyError,
  StateVerdict,
  type StateLeakContext,
  type StateLeakPolicy,
  type ToolInvocation,
} from '../../../src/index.js';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

const invocation: ToolInvocation = {
  invocationId: 'inv-1',
  toolId: 'browser_session',
  hasSessionState: true,
  stateDeltaHash: null,
  sessionUsageRatio: 0.25,
  resultHash: 'r',
};
const context: StateLeakContext = { priorStateDeltas: [], isolationPolicy: 'SESSION_SHARED' };
const policy: StateLeakPolicy = { requireIsolationForCritical: false, maxSessionUsageRatio: 0.9 };

describe('evaluateInvocation gates', () => {
  it('gate 1: a stateless tool proceeds whatever the other inputs say', () => {
    const manifest = evaluateInvocationWithGate(
      { ...invocation, hasSessionState: false, sessionUsageRatio: 5 },
      { priorStateDeltas: ['a', 'b', 'c', 'd'], isolationPolicy: 'AGENT_SHARED' },
      { requireIsolationForCritical: true, maxSessionUsageRatio: 0.1 },
    );
    expect(manifest.gate).toBe('stateless');
    expect(manifest.verdict).toBe(StateVerdict.STATELESS_TOOL);
    expect(manifest.directive).toBe('PROCEED: Tool browser_session is stateless.');
    expect(manifest.manifestDigest).toBe(sha256('{"invocation": "inv-1", "tool": "browser_session", "type": "STATELESS"}'));
  });

  it('gate 2: usage at exactly the ceiling halts (>=), before isolation and accumulation', () => {
    const manifest = evaluateInvocationWithGate(
      { ...invocation, sessionUsageRatio: 0.9 },
      { priorStateDeltas: ['a', 'b', 'c'], isolationPolicy: 'AGENT_SHARED' },
      { requireIsolationForCritical: true, maxSessionUsageRatio: 0.9 },
    );
    expect(manifest.gate).toBe('session-limit');
    expect(manifest.verdict).toBe(StateVerdict.SESSION_LIMIT_EXHAUSTED);
    expect(manifest.directive).toBe('HALT: Session usage 90.00% >= 90.00%.');
    expect(manifest.manifestDigest).toBe(sha256('SESSION_LIMIT:inv-1'));
  });

  it('gate 2 lets a ratio just under the ceiling through', () => {
    expect(evaluateInvocationWithGate({ ...invocation, sessionUsageRatio: 0.8999999 }, context, policy).gate).toBe('isolated');
  });

  it('gate 3: isolation required but shared state halts, before accumulation', () => {
    const manifest = evaluateInvocationWithGate(
      invocation,
      { priorStateDeltas: ['a', 'b', 'c'], isolationPolicy: 'AGENT_SHARED' },
      { ...policy, requireIsolationForCritical: true },
    );
    expect(manifest.gate).toBe('isolation-policy');
    expect(manifest.verdict).toBe(StateVerdict.STATE_LEAKAGE_DETECTED);
    expect(manifest.directive).toBe('HALT: Policy requires isolation but tool is AGENT_SHARED.');
    expect(manifest.manifestDigest).toBe(sha256('NO_ISOLATION:inv-1'));
  });

  it('gate 3 passes ISOLATED when isolation is required', () => {
    const manifest = evaluateInvocationWithGate(
      invocation,
      { priorStateDeltas: [], isolationPolicy: 'ISOLATED' },
      { ...policy, requireIsolationForCritical: true },
    );
    expect(manifest.gate).toBe('isolated');
  });

  it('gate 4: three prior deltas warn with the current delta (null) in the digest', () => {
    const manifest = evaluateInvocationWithGate(invocation, { ...context, priorStateDeltas: ['a', 'b', 'c'] }, policy);
    expect(manifest.gate).toBe('accumulated-deltas');
    expect(manifest.verdict).toBe(StateVerdict.STATE_LEAKAGE_DETECTED);
    expect(manifest.directive).toBe('WARN: 3 prior state deltas accumulated for browser_session.');
    expect(manifest.manifestDigest).toBe(
      sha256('{"current_delta": null, "invocation": "inv-1", "prior_deltas": "3", "tool": "browser_session"}'),
    );
  });

  it('gate 4: two prior deltas do not warn at the default threshold; the threshold is a policy field', () => {
    expect(evaluateInvocationWithGate(invocation, { ...context, priorStateDeltas: ['a', 'b'] }, policy).gate).toBe('isolated');
    expect(
      evaluateInvocationWithGate(invocation, { ...context, priorStateDeltas: ['a', 'b'] }, { ...policy, accumulatedDeltaThreshold: 2 })
        .gate,
    ).toBe('accumulated-deltas');
  });

  it("gate 4 keeps the seed's truthiness test: threshold 0 never warns on an empty history", () => {
    expect(evaluateInvocationWithGate(invocation, context, { ...policy, accumulatedDeltaThreshold: 0 }).gate).toBe('isolated');
    expect(
      evaluateInvocationWithGate(invocation, { ...context, priorStateDeltas: ['a'] }, { ...policy, accumulatedDeltaThreshold: 0 }).gate,
    ).toBe('accumulated-deltas');
  });

  it('gate 5: the digest carries the policy and the Python-formatted usage', () => {
    const manifest = evaluateInvocation({ ...invocation, sessionUsageRatio: 1 / 3 }, context, policy);
    expect(manifest).toEqual({
      verdict: StateVerdict.ISOLATED_INVOCATIONS,
      directive: 'PROCEED: Invocation inv-1 with SESSION_SHARED isolation.',
      manifestDigest: sha256('{"invocation": "inv-1", "policy": "SESSION_SHARED", "session_usage": "33.33%", "tool": "browser_session"}'),
    });
  });

  it('a NaN usage ratio passes gate 2, as in Python (NaN >= x is false)', () => {
    expect(evaluateInvocationWithGate({ ...invocation, sessionUsageRatio: Number.NaN }, context, policy).directive).toBe(
      'PROCEED: Invocation inv-1 with SESSION_SHARED isolation.',
    );
  });

  it('rejects a threshold that is not a non-negative integer', () => {
    expect(() => evaluateInvocation(invocation, context, { ...policy, accumulatedDeltaThreshold: 2.5 })).toThrow(InvalidStatePolicyError);
    expect(() => evaluateInvocation(invocation, context, { ...policy, accumulatedDeltaThreshold: -1 })).toThrow(/non-negative integer/);
  });

  it('returns exactly the three manifest fields', () => {
    expect(Object.keys(evaluateInvocation(invocation, context, policy)).sort()).toEqual(['directive', 'manifestDigest', 'verdict']);
  });
});
