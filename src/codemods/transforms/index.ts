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
