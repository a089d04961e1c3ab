import type { Transform } from '../transform.js';

export const classifyTools: Transform = {
  name: 'classify-tools',
  description: 'TODO',
  ruleName: 'require-unbounded-self-reading-tool',
  run() {
    return { edits: [], unresolved: [] };
  },
};
