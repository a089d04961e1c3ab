// `npm run same-findings -- <out.json>`: every rule of the plugin over the
// real-world corpus (the packages of scripts/corpus.mjs and the labelled
// packages of tests/real-world/labels), written as one canonical, sorted JSON
// of findings. A refactor must not change it:
//
//   git checkout <start> && npm run same-findings -- /tmp/before.json
//   git checkout <branch> && npm run same-findings -- /tmp/after.json
//   node scripts/same-findings.mjs --compare /tmp/before.json /tmp/after.json
//
// `--compare` prints every finding only one side has and exits 1 when there
// is any. Runs dist (build first), as users do. Each finding records the
// package, the file relative to it, the run (`untyped`: configs.all;
// `typed`: every rule with a generated tsconfig, for the corpus packages that
// ship TypeScript, as tests/real-world/corpus.test.ts does), line and column
// span, rule, message id, message, and a hash of the text each fix and
// suggestion would produce. `--untyped` skips the typed run (it is the slow
// part); `--only <package>...` restricts both runs to the packages named.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { performance } from 'node:perf_hooks';

import * as typescriptParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { glob } from 'tinyglobby';

import { loadLabelSets } from './accuracy.mjs';
import { CORPUS, CORPUS_ROOT, ensureCorpusPackage } from './corpus.mjs';
import { corpusFiles, everyRuleEntries, writeCorpusTsconfig } from './corpus-lint.mjs';

const FORMAT_VERSION = 1;

const hash = (text) => createHash('sha256').update(text).digest('hex').slice(0, 16);

/** The text a fix (`{ range, text }`) produces, hashed: equal hashes, equal edits. */
function fixOutputHash(source, fix) {
  return hash(source.slice(0, fix.range[0]) + fix.text + source.slice(fix.range[1]));
}

/** Sort key: every field, in a fixed order, so equal findings sort together and the file is stable. */
function findingKey(finding) {
  return [
    finding.package,
    finding.file,
    finding.run,
    String(finding.line).padStart(7, '0'),
    String(finding.column).padStart(5, '0'),
    finding.ruleId,
    finding.messageId ?? '',
    finding.message,
    JSON.stringify(finding.fix ?? null),
    JSON.stringify(finding.suggestions),
  ].join('\u0000');
}

/**
 * The packages to lint, one entry per package folder: the corpus entries and
 * the labelled sets (the same package may be both; their folders and
 * extensions are united).
 */
async function corpusPackages(only) {
  const packages = new Map();
  const add = (name, version, directory, files, typedEntry) => {
    const key = `${name}@${version}`;
    const existing = packages.get(key) ?? { name: key, directory, files: new Set(), typedEntry: undefined };
    for (const file of files) existing.files.add(file);
    existing.typedEntry ??= typedEntry;
    packages.set(key, existing);
  };
  for (const entry of CORPUS) {
    if (only && !only.includes(entry.name)) continue;
    const directory = ensureCorpusPackage(entry);
    add(entry.name, entry.version, directory, await corpusFiles(entry, directory), entry.typescript ? entry : undefined);
  }
  for (const set of loadLabelSets()) {
    if (only && !only.includes(set.package)) continue;
    const directory = ensureCorpusPackage({ name: set.package, version: set.version, integrity: set.integrity });
    const extensions = set.extensions.length === 1 ? set.extensions[0] : `{${set.extensions.join(',')}}`;
    const files = await glob(
      set.lint.map((folder) => `${folder}/**/*.${extensions}`),
      { cwd: directory, absolute: true, ignore: ['**/node_modules/**'] },
    );
    add(set.package, set.version, directory, files, undefined);
  }
  return [...packages.values()].map((item) => ({ ...item, files: [...item.files].sort() })).sort((a, b) => a.name.localeCompare(b.name));
}

function lintPackage(linter, item, run, config, findings, problems) {
  const namespace = `${plugin.meta.namespace}/`;
  for (const file of item.files) {
    const source = readFileSync(file, 'utf8');
    const shownFile = relative(item.directory, file);
    let messages;
    try {
      messages = linter.verify(source, [config], file);
    } catch (error) {
      problems.push(`${item.name} ${shownFile} (${run}): crashed: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    for (const message of messages) {
      if (!message.ruleId?.startsWith(namespace)) continue;
      findings.push({
        package: item.name,
        file: shownFile,
        run,
        line: message.line,
        column: message.column,
        endLine: message.endLine ?? null,
        endColumn: message.endColumn ?? null,
        ruleId: message.ruleId,
        messageId: message.messageId ?? null,
        message: message.message,
        fix: message.fix ? fixOutputHash(source, message.fix) : null,
        suggestions: (message.suggestions ?? []).map((suggestion) => ({
          messageId: suggestion.messageId ?? null,
          desc: suggestion.desc,
          output: fixOutputHash(source, suggestion.fix),
        })),
      });
    }
  }
}

async function record(outputPath, { only, typed }) {
  const start = performance.now();
  const linter = new Linter({ cwd: CORPUS_ROOT });
  const quiet = { reportUnusedDisableDirectives: 'off' };
  const untypedConfig = { ...plugin.configs.all, linterOptions: quiet };
  const findings = [];
  const problems = [];
  let files = 0;
  for (const item of await corpusPackages(only)) {
    files += item.files.length;
    lintPackage(linter, item, 'untyped', untypedConfig, findings, problems);
    if (typed && item.typedEntry) {
      const typedConfig = {
        ...plugin.configs.all,
        linterOptions: quiet,
        languageOptions: {
          parser: typescriptParser,
          parserOptions: { project: writeCorpusTsconfig(item.typedEntry, item.directory), tsconfigRootDir: item.directory },
        },
        rules: everyRuleEntries(plugin),
      };
      lintPackage(linter, item, 'typed', typedConfig, findings, problems);
    }
    process.stderr.write(`${item.name}: ${item.files.length} files\n`);
  }
  findings.sort((a, b) => {
    const left = findingKey(a);
    const right = findingKey(b);
    return left < right ? -1 : left > right ? 1 : 0;
  });
  const document = { format: FORMAT_VERSION, typed, only: only ?? null, files, problems, findings };
  writeFileSync(outputPath, `${JSON.stringify(document, null, 1)}\n`);
  const seconds = ((performance.now() - start) / 1000).toFixed(1);
  console.log(
    `${findings.length} findings in ${files} files (${typed ? 'untyped and typed runs' : 'untyped run'}) in ${seconds} s -> ${outputPath}`,
  );
  if (problems.length > 0) {
    console.log(`${problems.length} files crashed a rule:`);
    for (const problem of problems) console.log(`  ${problem}`);
  }
}

function compare(leftPath, rightPath) {
  const left = JSON.parse(readFileSync(leftPath, 'utf8'));
  const right = JSON.parse(readFileSync(rightPath, 'utf8'));
  const differences = [];
  for (const field of ['format', 'typed', 'only', 'files']) {
    if (JSON.stringify(left[field]) !== JSON.stringify(right[field])) {
      differences.push(`  ${field}: ${JSON.stringify(left[field])} vs ${JSON.stringify(right[field])} (not the same run)`);
    }
  }
  const count = (document, key) => {
    const counts = new Map();
    for (const item of document) {
      const itemKey = key(item);
      counts.set(itemKey, (counts.get(itemKey) ?? 0) + 1);
    }
    return counts;
  };
  const show = (finding) =>
    `${finding.package} ${finding.file}:${finding.line}:${finding.column} [${finding.run}] ${finding.ruleId} ${finding.messageId ?? ''}: ${finding.message}` +
    (finding.fix ? ` fix ${finding.fix}` : '') +
    (finding.suggestions.length > 0 ? ` suggestions ${finding.suggestions.map((suggestion) => suggestion.output).join(',')}` : '');
  for (const [name, a, b] of [
    ['problems', left.problems, right.problems],
    ['findings', left.findings.map((finding) => JSON.stringify(finding)), right.findings.map((finding) => JSON.stringify(finding))],
  ]) {
    const leftCounts = count(a, (item) => item);
    const rightCounts = count(b, (item) => item);
    for (const [item, leftCount] of leftCounts) {
      const missing = leftCount - (rightCounts.get(item) ?? 0);
      for (let index = 0; index < missing; index += 1) {
        differences.push(`- ${name === 'findings' ? show(JSON.parse(item)) : item}`);
      }
    }
    for (const [item, rightCount] of rightCounts) {
      const added = rightCount - (leftCounts.get(item) ?? 0);
      for (let index = 0; index < added; index += 1) {
        differences.push(`+ ${name === 'findings' ? show(JSON.parse(item)) : item}`);
      }
    }
  }
  if (differences.length === 0) {
    console.log(`same findings: ${left.findings.length} in ${left.files} files (${leftPath} = ${rightPath})`);
    return 0;
  }
  console.log(`${differences.length} differences (- only in ${leftPath}, + only in ${rightPath}):`);
  for (const line of differences) console.log(line);
  return 1;
}

const args = process.argv.slice(2);
let plugin;
if (args[0] === '--compare') {
  if (args.length !== 3) {
    console.error('usage: node scripts/same-findings.mjs --compare <a.json> <b.json>');
    process.exit(2);
  }
  process.exitCode = compare(args[1], args[2]);
} else {
  const outputPath = args.find((arg) => !arg.startsWith('--'));
  const onlyIndex = args.indexOf('--only');
  const only = onlyIndex === -1 ? undefined : args.slice(onlyIndex + 1).filter((arg) => !arg.startsWith('--'));
  if (!outputPath || (onlyIndex !== -1 && args.indexOf(outputPath) > onlyIndex)) {
    console.error(
      'usage: node scripts/same-findings.mjs <out.json> [--untyped] [--only <package>...]\n' +
        '       node scripts/same-findings.mjs --compare <a.json> <b.json>',
    );
    process.exit(2);
  }
  ({ default: plugin } = await import('../dist/eslint-plugin.js'));
  await record(outputPath, { only, typed: !args.includes('--untyped') });
}
