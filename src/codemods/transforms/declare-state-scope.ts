import type { Transform } from '../transform.js';

export const declareStateScope: Transform = {
  name: 'declare-state-scope',
  description: 'TODO',
  ruleName: 'declare-tool-state-scope',
  run() {
    return { edits: [], unresolved: [] };
  },
};
