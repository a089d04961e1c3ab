import type { Transform } from '../transform.js';

export const sentinelFirst: Transform = {
  name: 'sentinel-first',
  description: 'TODO',
  ruleName: 'sentinel-before-override',
  run() {
    return { edits: [], unresolved: [] };
  },
};
