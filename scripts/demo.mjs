// `npm run demo` (add `-- --verbose` for diffs, digests and receipts): first
// the runtime inside a real AI SDK generateText loop (scripts/demo/00-ai-sdk-loop.mjs), then the
// bundled example agent (examples/agent-harness/) carries the three problems
// tool-result-guard is about, on purpose. For each problem in turn, the demo
// shows how the lint rules, the types, the codemod and the runtime catch it,
// then sums it up in one table.
import { lintExample, migrateExample, typeCheckExample } from './demo/checks.mjs';
import * as aiSdkLoop from './demo/00-ai-sdk-loop.mjs';
import * as circularPersistence from './demo/10-circular-persistence.mjs';
import * as flippingFates from './demo/20-frozen-fates.mjs';
import * as stateLeakage from './demo/30-state-leakage.mjs';
import { table, verbose } from './demo/print.mjs';

console.log('tool-result-guard on examples/agent-harness/: an agent harness with three silent bugs planted.');
console.log('Each bug is shown four ways: Lint (ESLint rules), Types (compile errors), Codemod (the fix), Runtime (doing it right).');
if (!verbose) console.log('(npm run demo -- --verbose also prints the diffs, digests and receipts.)');

// First the runtime in a real framework's loop, then the three problems.
const loop = await aiSdkLoop.run();

const checks = { lint: lintExample(), types: typeCheckExample(), migration: migrateExample() };

const rows = [['problem', 'lint findings', 'compile errors', 'codemod edits', 'runtime']];
for (const part of [circularPersistence, flippingFates, stateLeakage]) {
  const row = await part.run(checks);
  rows.push([part.name, row.lint, row.types || '—', row.codemod, row.runtime]);
}

console.log(`\n${'═'.repeat(78)}\nSummary\n${'═'.repeat(78)}`);
table(rows);
const summary = checks.migration.report.summary;
console.log(
  `\nLint: ${checks.lint.findings.length} findings in ${checks.lint.filesLinted} files. ` +
    `Types: tsc exits ${checks.types.exitStatus} with exactly the ${checks.types.caught.length} planted errors. ` +
    `Codemod: ${summary.changed} of ${summary.scanned} files would change (dry run, nothing written). ` +
    `AI SDK loop: persisted ${loop.persisted.join(', ')}, fork and resume byte-identical: ${loop.identical}.`,
);
