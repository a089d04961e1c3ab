import type { Unbounded } from '../types/brands.js';
import { InvalidThresholdError } from './errors.js';

/**
 * The self-bounding sentinel (circular persistence). A tool that reads a path, URL or
 * resource the model names declares `maxResultSizeChars: UNBOUNDED`: its result
 * is never persisted, because the model would read the persisted file back
 * with the same tool, again and again.
 */
export const UNBOUNDED = Number.POSITIVE_INFINITY as Unbounded;

/** What threshold resolution needs to know about a tool. */
export interface PersistenceThresholdTool {
  readonly name: string;
  readonly maxResultSizeChars: number;
}

/** Remote per-tool thresholds (feature flags, admin settings), keyed by tool name. */
export type PersistenceOverrides = Readonly<Record<string, unknown>> | null | undefined;

/**
 * The size above which a tool's result is persisted and replaced by a preview.
 *
 * Order matters (circular persistence): the sentinel is tested before the
 * overrides are even read, so no flag or admin setting can re-enable
 * persistence for a self-reading tool. An override counts only when it is a
 * finite number > 0; anything else falls back to the declared value.
 */
export function getEffectivePersistenceThreshold(tool: PersistenceThresholdTool, overrides?: PersistenceOverrides): number {
  const declared: unknown = tool.maxResultSizeChars;
  if (declared === Number.POSITIVE_INFINITY) return Number.POSITIVE_INFINITY;
  // Infinity has returned; `<= 0` also rejects -Infinity, and NaN fails every
  // comparison, so test it explicitly: a NaN must never pass as the sentinel.
  if (typeof declared !== 'number' || Number.isNaN(declared) || declared <= 0) {
    throw new InvalidThresholdError(String(tool.name), declared);
  }
  if (overrides === null || overrides === undefined) return declared;
  const override = overrides[tool.name];
  if (typeof override === 'number' && Number.isFinite(override) && override > 0) return override;
  return declared;
}

/** True for a tool whose results are never persisted (its threshold is `Infinity`). */
export function isSelfBounding(tool: PersistenceThresholdTool): boolean {
  return tool.maxResultSizeChars === Number.POSITIVE_INFINITY;
}
