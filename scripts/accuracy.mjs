// The accuracy evaluation: the hand labels of tests/real-world/labels against
// what the rules conclude on the same published code. Used by `npm run eval`
// (scripts/eval.mjs prints it) and by tests/real-world/accuracy.test.ts
// (asserts the thresholds). Needs a build: it runs dist, as users do.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

import { REPOSITORY_ROOT, ensureCorpusPackage } from './corpus.mjs';

export const LABELS_DIRECTORY = join(REPOSITORY_ROOT, 'tests', 'real-world', 'labels');

/** How far (in lines) a recognised definition may start from its label when the names differ. */
const LINE_SLACK = 3;

/** The package label files, sorted by name. */
export function loadLabelSets() {
  return readdirSync(LABELS_DIRECTORY)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => ({ labelFile: name, ...JSON.parse(readFileSync(join(LABELS_DIRECTORY, name), 'utf8')) }));
}

/** Unpacks every labelled package (pinned tarballs, cached) and returns their folders by label file. */
export function ensureLabelledPackages() {
  return new Map(
    loadLabelSets().map((set) => [
      set.labelFile,
      ensureCorpusPackage({ name: set.package, version: set.version, integrity: set.integrity }),
    ]),
  );
}

/**
 * Which set a label file belongs to: `held-out` while its package has only
 * been met on first contact (no fix made for it yet), `tuned` once work has
 * looked at it (every file without a `set`).
 */
export const labelSetName = (set) => set.set ?? 'tuned';

/** What the rules report for one recognised tool. */
export const reportsSelfReading = (entry) => entry !== undefined && entry.selfReading && !entry.declaresUnbounded;
export const reportsStateful = (entry) => entry !== undefined && entry.stateUses.length > 0 && entry.stateScope === undefined;

/**
 * Pairs each label with at most one recognised tool of the same file: the
 * same name first (nearest line), then the nearest start within LINE_SLACK
 * lines. Each recognised tool serves one label.
 */
export function matchLabels(labels, entries) {
  const byFile = new Map();
  for (const entry of entries) {
    if (!byFile.has(entry.file)) byFile.set(entry.file, []);
    byFile.get(entry.file).push(entry);
  }
  const used = new Set();
  const matches = new Map();
  const nearest = (candidates, line) =>
    candidates.filter((entry) => !used.has(entry)).sort((a, b) => Math.abs(a.line - line) - Math.abs(b.line - line))[0];
  for (const pass of ['name', 'line']) {
    for (const label of labels) {
      if (matches.has(label)) continue;
      const inFile = byFile.get(label.file) ?? [];
      const candidates =
        pass === 'name'
          ? inFile.filter((entry) => entry.name === label.name)
          : inFile.filter((entry) => Math.abs(entry.line - label.line) <= LINE_SLACK);
      const entry = nearest(candidates, label.line);
      if (entry) {
        used.add(entry);
        matches.set(label, entry);
      }
    }
  }
  const unlabelled = entries.filter((entry) => !used.has(entry));
  return { matches, unlabelled };
}

function confusion() {
  return { truePositive: 0, falsePositive: 0, falseNegative: 0, trueNegative: 0, judgement: 0, misses: [], falseReports: [] };
}

function score(table, label, truth, reported, entry, reason) {
  if (truth === 'judgement') {
    table.judgement += 1;
    return;
  }
  const where = `${label.package}@${label.version} ${label.file}:${label.line} ${label.name}`;
  if (truth === 'yes' && reported) table.truePositive += 1;
  else if (truth === 'no' && !reported) table.trueNegative += 1;
  else if (truth === 'yes') {
    table.falseNegative += 1;
    table.misses.push({ where, why: label.why, rule: reason(entry, false) });
  } else {
    table.falsePositive += 1;
    table.falseReports.push({ where, why: label.why, rule: reason(entry, true) });
  }
}

const ratio = (numerator, denominator) => (denominator === 0 ? 1 : numerator / denominator);

export function summarise(table) {
  return {
    ...table,
    recall: ratio(table.truePositive, table.truePositive + table.falseNegative),
    precision: ratio(table.truePositive, table.truePositive + table.falsePositive),
  };
}

function selfReadingReason(entry, reported) {
  if (!entry) return 'not recognised as a tool';
  if (entry.verdict && entry.verdict.answer !== 'proven')
    return `${reported ? 'reported' : 'not reported'}: ${entry.verdict.answer}, ${entry.verdict.why}`;
  if (reported) return `reported: reads through ${entry.read?.chain ?? '?'} (line ${entry.read?.line ?? '?'})`;
  if (entry.declaresUnbounded) return 'declares the sentinel';
  if (entry.read) return `reads through ${entry.read.chain} (line ${entry.read.line}), but the content was not seen reaching the output`;
  return 'no read of a model-chosen location found';
}

function statefulReason(entry, reported) {
  if (!entry) return 'not recognised as a tool';
  if (reported) return `reported: ${entry.stateUses.map((use) => `${use.description} (line ${use.line})`).join('; ')}`;
  if (entry.stateScope !== undefined) return `declares stateScope ${entry.stateScope}`;
  return 'no change of outliving state found';
}

/**
 * Runs the inventory over every labelled package (unpacked from its pinned
 * tarball) and scores it. `only`: package names to restrict to.
 */
export async function evaluateAccuracy({ only } = {}) {
  const { collectToolInventory } = await import('../dist/inventory/tool-inventory.js');
  const { discoverFiles } = await import('../dist/cli/file-discovery.js');
  const selfReading = confusion();
  const stateful = confusion();
  /** The same tables per set: `tuned` (worked on) and `held-out` (first contact, not yet worked on). */
  const bySet = new Map();
  const setTables = (name) => {
    if (!bySet.has(name)) bySet.set(name, { packages: 0, labelled: 0, recognised: 0, selfReading: confusion(), stateful: confusion() });
    return bySet.get(name);
  };
  const packages = [];
  const unrecognised = [];
  const unlabelledReports = [];
  let labelled = 0;
  let recognised = 0;
  for (const set of loadLabelSets()) {
    if (only && !only.includes(set.package)) continue;
    const directory = ensureCorpusPackage({ name: set.package, version: set.version, integrity: set.integrity });
    const files = await discoverFiles({
      paths: set.lint,
      cwd: directory,
      extensions: set.extensions,
      ignorePatterns: ['**/*.test.*', '**/*.spec.*', '**/*.d.ts', '**/*.d.mts', '**/*.d.cts', '**/*.map'],
    });
    const inventory = await collectToolInventory({ files, cwd: directory });
    const labels = set.tools.map((tool) => ({ ...tool, package: set.package, version: set.version }));
    const { matches, unlabelled } = matchLabels(labels, inventory.tools);
    const group = setTables(labelSetName(set));
    group.packages += 1;
    let packageRecognised = 0;
    for (const label of labels) {
      const entry = matches.get(label);
      if (entry) packageRecognised += 1;
      else unrecognised.push({ where: `${set.package}@${set.version} ${label.file}:${label.line} ${label.name}`, shape: label.shape });
      for (const table of [selfReading, group.selfReading]) {
        score(table, label, label.selfReading, reportsSelfReading(entry), entry, selfReadingReason);
      }
      for (const table of [stateful, group.stateful]) score(table, label, label.stateful, reportsStateful(entry), entry, statefulReason);
    }
    for (const entry of unlabelled) {
      if (reportsSelfReading(entry) || reportsStateful(entry)) {
        unlabelledReports.push({
          where: `${set.package}@${set.version} ${entry.file}:${entry.line} ${entry.name ?? '<anonymous>'}`,
          selfReading: reportsSelfReading(entry),
          stateful: reportsStateful(entry),
        });
      }
    }
    labelled += labels.length;
    recognised += packageRecognised;
    group.labelled += labels.length;
    group.recognised += packageRecognised;
    packages.push({
      package: `${set.package}@${set.version}`,
      kind: set.kind,
      set: labelSetName(set),
      files: inventory.filesScanned,
      parseErrors: inventory.errors,
      labelled: labels.length,
      recognised: packageRecognised,
      unlabelledTools: unlabelled.length,
    });
  }
  return {
    packages,
    recognition: { labelled, recognised, rate: ratio(recognised, labelled), unrecognised },
    selfReading: summarise(selfReading),
    stateful: summarise(stateful),
    sets: Object.fromEntries(
      [...bySet].map(([name, group]) => [
        name,
        {
          packages: group.packages,
          recognition: { labelled: group.labelled, recognised: group.recognised, rate: ratio(group.recognised, group.labelled) },
          selfReading: summarise(group.selfReading),
          stateful: summarise(group.stateful),
        },
      ]),
    ),
    unlabelledReports,
  };
}
