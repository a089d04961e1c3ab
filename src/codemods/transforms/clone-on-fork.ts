import type { Transform } from '../transform.js';

export const cloneOnFork: Transform = {
  name: 'clone-on-fork',
  description: 'TODO',
  ruleName: 'clone-state-on-fork',
  run() {
    return { edits: [], unresolved: [] };
  },
};
