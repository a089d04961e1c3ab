/**
 * A session's budget of calls, mirrored from the API's own limit so the session
 * sees exhaustion coming and can plan, instead of learning it from a failure:
 * session limit exhaustion.
 */
import { scopeSharingKey } from './sharing-key.js';
import { StateCarrierError } from './state-carrier.js';
import type { InvocationStateKey } from './state-carrier.js';

export interface SessionLimitReport {
  readonly limiter: string;
  readonly limit: number;
  readonly usedBefore: number;
  readonly cost: number;
  /** Usage before this call, 0..1. */
  readonly usageRatioBefore: number;
  /** Usage once this call has run: the reference guard's `session_usage_ratio`, compared with the policy ceiling. */
  readonly usageRatioAfter: number;
  readonly remainingAfter: number;
}

export interface SessionRateLimitOptions {
  readonly name: string;
  /** Calls (or cost units) one session may spend. */
  readonly limit: number;
  /** Cost of one call; default 1. */
  readonly costPerCall?: number;
  /** `session` (default): each session has its own budget; `agent`: an agent's sessions share one. */
  readonly scope?: 'session' | 'agent';
}

/**
 * A per-session budget of calls (the API's own session limit, mirrored here so
 * the session can see it coming). It reports usage before each call; the ledger
 * decides to refuse or warn when the next call would reach the policy ceiling.
 */
export class SessionRateLimit {
  readonly name: string;
  readonly limit: number;
  readonly costPerCall: number;
  readonly scope: 'session' | 'agent';
  readonly #used = new Map<string, number>();

  constructor(options: SessionRateLimitOptions) {
    if (typeof options.name !== 'string' || options.name === '') {
      throw new StateCarrierError('INVALID_CARRIER_OPTIONS', 'A session rate limit needs a non-empty `name`.');
    }
    if (!(Number.isFinite(options.limit) && options.limit > 0)) {
      throw new StateCarrierError(
        'INVALID_CARRIER_OPTIONS',
        `Session rate limit "${options.name}": limit must be a finite number > 0, got ${String(options.limit)}.`,
      );
    }
    const cost = options.costPerCall ?? 1;
    if (!(Number.isFinite(cost) && cost > 0)) {
      throw new StateCarrierError(
        'INVALID_CARRIER_OPTIONS',
        `Session rate limit "${options.name}": costPerCall must be a finite number > 0.`,
      );
    }
    this.name = options.name;
    this.limit = options.limit;
    this.costPerCall = cost;
    this.scope = options.scope ?? 'session';
  }

  /** Usage as it stands and as it would be after one more call. Does not spend anything. */
  report(key: Pick<InvocationStateKey, 'agentId' | 'sessionId'>, cost = this.costPerCall): SessionLimitReport {
    const usedBefore = this.#used.get(this.#key(key)) ?? 0;
    return {
      limiter: this.name,
      limit: this.limit,
      usedBefore,
      cost,
      usageRatioBefore: usedBefore / this.limit,
      usageRatioAfter: (usedBefore + cost) / this.limit,
      remainingAfter: Math.max(0, this.limit - usedBefore - cost),
    };
  }

  /** Spends `cost`; returns the new usage. */
  spend(key: Pick<InvocationStateKey, 'agentId' | 'sessionId'>, cost = this.costPerCall): number {
    const sharingKey = this.#key(key);
    const used = (this.#used.get(sharingKey) ?? 0) + cost;
    this.#used.set(sharingKey, used);
    return used;
  }

  /** Resume: the budget a session already spent before the process restarted (never lowers usage). */
  restoreUsage(key: Pick<InvocationStateKey, 'agentId' | 'sessionId'>, used: number): void {
    const sharingKey = this.#key(key);
    this.#used.set(sharingKey, Math.max(this.#used.get(sharingKey) ?? 0, used));
  }

  #key(key: Pick<InvocationStateKey, 'agentId' | 'sessionId'>): string {
    // A budget is never isolated (its scope is 'session' or 'agent'), so there is always a key.
    return scopeSharingKey(this.scope, key) ?? '';
  }
}
