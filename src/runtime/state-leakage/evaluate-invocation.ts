/**
 * The Python reference guard's `ToolStateLeakageGuard.evaluate_invocation`
 * (the state-leakage guard this runtime ports; its code is embedded in
 * tests/runtime/state-leakage/generate-vectors.py), gate for gate. Verdicts,
 * directives and digests are byte-identical to it (checked against vectors
 * produced by running it), so a Python service and a TypeScript
 * harness looking at the same invocation agree on its manifest.
 */
import { digestOfJson, formatPercentLikePython, sha256Hex } from './python-json.js';

/** The reference guard's `StateVerdict`, as the member names a Python service prints. */
export const StateVerdict = {
  STATELESS_TOOL: 'STATELESS_TOOL',
  ISOLATED_INVOCATIONS: 'ISOLATED_INVOCATIONS',
  STATE_LEAKAGE_DETECTED: 'STATE_LEAKAGE_DETECTED',
  SESSION_LIMIT_EXHAUSTED: 'SESSION_LIMIT_EXHAUSTED',
} as const;
export type StateVerdict = (typeof StateVerdict)[keyof typeof StateVerdict];

/** How tool state is shared across invocations (the reference guard's `isolation_policy`). */
export type IsolationPolicy = 'ISOLATED' | 'SESSION_SHARED' | 'AGENT_SHARED';

/** The reference guard's `ToolInvocation`. */
export interface ToolInvocation {
  readonly invocationId: string;
  readonly toolId: string;
  readonly hasSessionState: boolean;
  /** Digest of the state the invocation changed; `null` when it changed none (Python `None`). */
  readonly stateDeltaHash: string | null;
  /** Share of the per-session budget in use, 0..1 (may exceed 1 once over budget). */
  readonly sessionUsageRatio: number;
  readonly resultHash: string;
}

/** The reference guard's `StateLeakContext`. */
export interface StateLeakContext {
  /** Digests of state deltas earlier invocations left in the state this one will see. */
  readonly priorStateDeltas: readonly string[];
  /** Typed as the reference guard's three values; any other string is hashed and printed as given, as in Python. */
  readonly isolationPolicy: IsolationPolicy;
}

/** The reference guard's `StateLeakPolicy`, plus the accumulation threshold it hard-codes. */
export interface StateLeakPolicy {
  readonly requireIsolationForCritical: boolean;
  readonly maxSessionUsageRatio: number;
  /** How many prior state deltas make gate 4 warn. The reference guard hard-codes 3. */
  readonly accumulatedDeltaThreshold?: number;
}

export const DEFAULT_ACCUMULATED_DELTA_THRESHOLD = 3;

/** The reference guard's `StateLeakManifest`. */
export interface StateLeakManifest {
  readonly verdict: StateVerdict;
  readonly directive: string;
  readonly manifestDigest: string;
}

/** Which of the reference guard's five gates decided a manifest, in their order. */
export type StateGate = 'stateless' | 'session-limit' | 'isolation-policy' | 'accumulated-deltas' | 'isolated';

export const STATE_GATE_ORDER: readonly StateGate[] = ['stateless', 'session-limit', 'isolation-policy', 'accumulated-deltas', 'isolated'];

export interface GatedStateLeakManifest extends StateLeakManifest {
  readonly gate: StateGate;
}

export class InvalidStatePolicyError extends Error {
  readonly code = 'INVALID_STATE_POLICY';
  /** The policy field that is malformed (`maxSessionUsageRatio`, `onSessionLimit`, …). */
  readonly field: string;
  constructor(field: string, message: string) {
    super(message);
    this.name = 'InvalidStatePolicyError';
    this.field = field;
  }
}

/** `evaluate_invocation` exactly as the reference guard computes it. */
export function evaluateInvocation(invocation: ToolInvocation, context: StateLeakContext, policy: StateLeakPolicy): StateLeakManifest {
  const { verdict, directive, manifestDigest } = evaluateInvocationWithGate(invocation, context, policy);
  return { verdict, directive, manifestDigest };
}

/** Same as `evaluateInvocation`, also naming the gate that decided (for receipts and tests of the order). */
export function evaluateInvocationWithGate(
  invocation: ToolInvocation,
  context: StateLeakContext,
  policy: StateLeakPolicy,
): GatedStateLeakManifest {
  return evaluateGates(invocation, context.priorStateDeltas.length, context.isolationPolicy, policy);
}

/**
 * The gates themselves. The reference guard reads only the *number* of prior deltas, so a
 * caller that keeps a long history (the ledger) passes its length instead of a copy.
 */
export function evaluateGates(
  invocation: ToolInvocation,
  priorStateDeltaCount: number,
  isolationPolicy: IsolationPolicy,
  policy: StateLeakPolicy,
): GatedStateLeakManifest {
  const context = { isolationPolicy };
  const threshold = resolveAccumulatedDeltaThreshold(policy);

  // Gate 1: a tool without session or agent state has per-invocation semantics.
  if (!invocation.hasSessionState) {
    return {
      gate: 'stateless',
      verdict: StateVerdict.STATELESS_TOOL,
      directive: `PROCEED: Tool ${invocation.toolId} is stateless.`,
      manifestDigest: digestOfJson({ invocation: invocation.invocationId, tool: invocation.toolId, type: 'STATELESS' }),
    };
  }

  // Gate 2: session limit first among stateful checks: an exhausted session fails whatever the isolation.
  if (invocation.sessionUsageRatio >= policy.maxSessionUsageRatio) {
    return {
      gate: 'session-limit',
      verdict: StateVerdict.SESSION_LIMIT_EXHAUSTED,
      directive:
        `HALT: Session usage ${formatPercentLikePython(invocation.sessionUsageRatio)} >= ` +
        `${formatPercentLikePython(policy.maxSessionUsageRatio)}.`,
      manifestDigest: sha256Hex(`SESSION_LIMIT:${invocation.invocationId}`),
    };
  }

  // Gate 3: critical work may not run on state shared with other calls.
  if (policy.requireIsolationForCritical && context.isolationPolicy !== 'ISOLATED') {
    return {
      gate: 'isolation-policy',
      verdict: StateVerdict.STATE_LEAKAGE_DETECTED,
      directive: `HALT: Policy requires isolation but tool is ${context.isolationPolicy}.`,
      manifestDigest: sha256Hex(`NO_ISOLATION:${invocation.invocationId}`),
    };
  }

  // Gate 4: accumulated deltas. The reference guard tests truthiness before length, so an empty list never warns.
  const priorCount = priorStateDeltaCount;
  if (priorCount > 0 && priorCount >= threshold) {
    return {
      gate: 'accumulated-deltas',
      verdict: StateVerdict.STATE_LEAKAGE_DETECTED,
      directive: `WARN: ${priorCount} prior state deltas accumulated for ${invocation.toolId}.`,
      manifestDigest: digestOfJson({
        invocation: invocation.invocationId,
        tool: invocation.toolId,
        prior_deltas: String(priorCount),
        current_delta: invocation.stateDeltaHash,
      }),
    };
  }

  // Gate 5: stateful, but within budget and policy.
  return {
    gate: 'isolated',
    verdict: StateVerdict.ISOLATED_INVOCATIONS,
    directive: `PROCEED: Invocation ${invocation.invocationId} with ${context.isolationPolicy} isolation.`,
    manifestDigest: digestOfJson({
      invocation: invocation.invocationId,
      tool: invocation.toolId,
      policy: context.isolationPolicy,
      session_usage: formatPercentLikePython(invocation.sessionUsageRatio),
    }),
  };
}

/** The gate-4 threshold, default 3; throws `InvalidStatePolicyError` unless it is a non-negative integer. */
export function resolveAccumulatedDeltaThreshold(policy: Pick<StateLeakPolicy, 'accumulatedDeltaThreshold'>): number {
  const threshold = policy.accumulatedDeltaThreshold ?? DEFAULT_ACCUMULATED_DELTA_THRESHOLD;
  if (!Number.isInteger(threshold) || threshold < 0) {
    throw new InvalidStatePolicyError(
      'accumulatedDeltaThreshold',
      `policy.accumulatedDeltaThreshold must be a non-negative integer (the default is 3), got ${String(threshold)}.`,
    );
  }
  return threshold;
}

/** The directive's leading word: what the caller must do. */
export function directiveAction(directive: string): 'PROCEED' | 'WARN' | 'HALT' {
  if (directive.startsWith('HALT:')) return 'HALT';
  if (directive.startsWith('WARN:')) return 'WARN';
  return 'PROCEED';
}
