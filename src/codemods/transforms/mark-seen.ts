import type { Transform } from '../transform.js';

export const markSeen: Transform = {
  name: 'mark-seen',
  description: 'TODO',
  ruleName: 'mark-seen-before-replacement',
  run() {
    return { edits: [], unresolved: [] };
  },
};
