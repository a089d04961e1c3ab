// The codemod's dry run over the real-world corpus (every transform, diffs
// computed, nothing written): it must handle every file of code nobody here
// wrote, and report what it would change. A separate file from the lint
// corpus test so vitest can run the two on different workers.
import { describe, expect, it } from 'vitest';

import { CORPUS, corpusPackageDirectory, type CorpusEntry } from '../../scripts/corpus.mjs';
import { migrate, type MigrationReport } from '../../src/codemods/index.js';

function printMigrationReport(title: string, report: MigrationReport): void {
  const { scanned, changed, unchanged, skipped, errors, editsByTransform, unresolved, elapsedMs } = report.summary;
  const edits = Object.entries(editsByTransform).map(([transform, count]) => `  ${transform}: ${count} edits`);
  console.log(
    [
      `${title}: ${scanned} files scanned, ${changed} would change, ${unchanged} unchanged, ${skipped} skipped, ${errors} errors, ${unresolved} sites left for a human, in ${(elapsedMs / 1000).toFixed(1)} s`,
      ...edits,
    ].join('\n'),
  );
}

describe('tool-result-guard migrate --dry-run (programmatic API) over the real-world corpus', () => {
  it.each(CORPUS.map((entry) => [entry.name, entry] as const))(
    '%s',
    async (_name, entry: CorpusEntry) => {
      const directory = corpusPackageDirectory(entry);
      const report = await migrate({ paths: [...entry.lint], cwd: directory, dryRun: true });
      printMigrationReport(`${entry.name}@${entry.version} [${entry.lint.join(', ')}], migrate --dry-run`, report);
      expect(report.dryRun).toBe(true);
      expect(report.summary.scanned).toBeGreaterThan(0);
      // A file the codemod cannot handle is reported, never half-migrated; on
      // this corpus every file must be handled.
      expect(report.files.filter((file) => file.status === 'error' || file.status === 'skipped')).toEqual([]);
      for (const file of report.files.filter((changed) => changed.status === 'ok')) {
        expect(file.diff, file.path).toMatch(/^@@ /m);
      }
    },
    600_000,
  );
});
