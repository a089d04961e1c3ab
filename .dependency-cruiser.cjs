/* global module */
// The import direction of src/, checked by `npm run lint` (dependency-cruiser).
// docs/README.md draws the same map: a rule here is a line there.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import circle makes a module impossible to read, test or change alone; break it by moving the shared part down.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'shapes-are-leaves',
      comment:
        'A tool shape family imports only the vocabulary (tool-shapes/vocabulary.ts) and the shared helpers, never another family or the registry (tool-definitions.ts), which asks the families in order.',
      severity: 'error',
      from: { path: '^src/recognition/tool-shapes/' },
      to: { path: ['^src/recognition/tool-shapes/(?!vocabulary\\.ts$)', '^src/recognition/tool-definitions\\.ts$'] },
    },
    {
      name: 'vocabulary-imports-no-shape',
      comment: 'The vocabulary every shape uses must not depend on any shape.',
      severity: 'error',
      from: { path: '^src/recognition/tool-shapes/vocabulary\\.ts$' },
      to: { path: ['^src/recognition/tool-shapes/', '^src/recognition/tool-definitions\\.ts$'] },
    },
    {
      name: 'codemods-and-inventory-apart',
      comment: 'The codemods and the inventory are libraries the command line (src/cli/) dispatches to; neither imports the other.',
      severity: 'error',
      from: { path: '^src/codemods/' },
      to: { path: '^src/inventory/' },
    },
    {
      name: 'inventory-and-codemods-apart',
      comment: 'The codemods and the inventory are libraries the command line (src/cli/) dispatches to; neither imports the other.',
      severity: 'error',
      from: { path: '^src/inventory/' },
      to: { path: ['^src/codemods/', '^src/cli/'] },
    },
    {
      name: 'libraries-use-only-cli-leaves',
      comment: 'Libraries may use the command line’s file discovery (the public migrate() takes paths), never its parsing or dispatch.',
      severity: 'error',
      from: { path: ['^src/codemods/(?!index\\.ts$)', '^src/recognition/', '^src/rules/', '^src/runtime/'] },
      to: { path: '^src/cli/(?!file-discovery\\.ts$)' },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
  },
};
