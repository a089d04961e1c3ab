import { CodemodUsageError } from '../../util/usage-error.js';
import type { Transform } from '../transform.js';
import { classifyTools } from './classify-tools.js';
import { cloneOnFork } from './clone-on-fork.js';
import { declareStateScope } from './declare-state-scope.js';
import { markSeen } from './mark-seen.js';
import { sentinelFirst } from './sentinel-first.js';

/**
 * Every transform, in the order they run: tools are classified first, then
 * the threshold resolver, the budget and the forks are fixed.
 */
export const transforms: readonly Transform[] = [classifyTools, sentinelFirst, markSeen, cloneOnFork, declareStateScope];

/** Picks the transforms by name, keeping the canonical order (classification before the rest). */
export function selectTransforms(names: readonly string[] | undefined): Transform[] {
  if (!names || names.length === 0) return [...transforms];
  const known = new Set(transforms.map((transform) => transform.name));
  const unknown = names.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new CodemodUsageError(
      'UNKNOWN_TRANSFORM',
      `Unknown transform ${unknown.map((name) => `"${name}"`).join(', ')}; the transforms are: ${[...known].join(', ')}.`,
    );
  }
  return transforms.filter((transform) => names.includes(transform.name));
}
