// The three checks the demo runs once over examples/agent-harness/, each
// returning data (the parts print what belongs to their problem):
// - `eslint` with the built plugin's `recommended` config (as a user's
//   eslint.config.js has it) plus `declare-tool-state-scope` from `strict`;
// - `tsc` over examples/agent-harness/typed, where each compile error is a
//   deliberate defect;
// - `tool-result-guard migrate --dry-run --json`, the codemod's plan.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

import { REPOSITORY_ROOT } from '../corpus.mjs';

export const EXAMPLE = 'examples/agent-harness';
const ESLINT_CONFIG = 'scripts/demo/eslint.demo.config.js';
const TYPED_PROJECT = `${EXAMPLE}/typed`;
const ESLINT_FOUND_PROBLEMS = 1;
const MIGRATE_FOUND_CHANGES = 2;

/** The deliberate defects of the typed example: where, what the compiler must say, and which problem they belong to. */
export const EXPECTED_TYPE_ERRORS = [
  {
    problem: 'circular',
    file: 'tools/read-file.ts',
    says: 'must declare maxResultSizeChars: UNBOUNDED',
    what: 'a path reader with a finite limit',
  },
  {
    problem: 'circular',
    file: 'tools/index.ts',
    says: 'must declare maxResultSizeChars: UNBOUNDED',
    what: 'the same tool, put in a typed tool list',
  },
  {
    problem: 'circular',
    file: 'agent/persist.ts',
    says: 'Persist only for sessions that own a storage root',
    what: "persistence for the ephemeral 'compact' agent",
  },
  { problem: 'fates', file: 'agent/persist.ts', says: 'Call markSeen(state, id) first', what: 'a replacement for an id never marked seen' },
  { problem: 'fates', file: 'agent/fork.ts', says: 'cloneReplacementState', what: "the parent's live state handed to a fork" },
];

/** Which problem each rule and each codemod transform belongs to. */
export const PROBLEM_OF_RULE = {
  'require-unbounded-self-reading-tool': 'circular',
  'sentinel-before-override': 'circular',
  'persist-only-owned-sessions': 'circular',
  'mark-seen-before-replacement': 'fates',
  'replace-only-after-persist': 'fates',
  'clone-state-on-fork': 'fates',
  'declare-tool-state-scope': 'leakage',
};
export const PROBLEM_OF_TRANSFORM = {
  'classify-tools': 'circular',
  'sentinel-first': 'circular',
  'mark-seen': 'fates',
  'clone-on-fork': 'fates',
  'declare-state-scope': 'leakage',
};

function runNode(args) {
  return spawnSync(process.execPath, args, { cwd: REPOSITORY_ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

/** Every finding of the lint run: `{ rule, file, line, message }`. */
export function lintExample() {
  const eslint = join(REPOSITORY_ROOT, 'node_modules', 'eslint', 'bin', 'eslint.js');
  const command = `eslint -c ${ESLINT_CONFIG} ${EXAMPLE}/src`;
  const result = runNode([eslint, '-c', ESLINT_CONFIG, '--format', 'json', `${EXAMPLE}/src`]);
  if (result.status !== 0 && result.status !== ESLINT_FOUND_PROBLEMS) {
    throw new Error(`${command} exited with status ${result.status}:\n${result.stderr}`);
  }
  const findings = [];
  const files = JSON.parse(result.stdout);
  for (const file of files) {
    for (const message of file.messages) {
      if (message.fatal) throw new Error(`eslint could not parse ${file.filePath}: ${message.message}`);
      findings.push({
        rule: message.ruleId.replace(/^tool-result-guard\//, ''),
        file: relative(join(REPOSITORY_ROOT, EXAMPLE), file.filePath),
        line: message.line,
        message: message.message,
      });
    }
  }
  if (findings.length === 0) throw new Error('expected findings in the example harness: it carries every defect on purpose');
  return { command, findings, filesLinted: files.length };
}

/** `path(line,col): error TSxxxx: message` followed by indented continuation lines. */
function parseDiagnostics(output) {
  const diagnostics = [];
  for (const line of output.split('\n')) {
    const match = /^(.+?)\((\d+),(\d+)\): error (TS\d+): (.*)$/.exec(line);
    if (match) {
      diagnostics.push({ file: match[1].replaceAll('\\', '/'), line: Number(match[2]), code: match[4], text: match[5] });
    } else if (diagnostics.length > 0 && /^\s+\S/.test(line)) {
      diagnostics.at(-1).text += `\n${line.trim()}`;
    }
  }
  return diagnostics;
}

/** The compile errors of the typed example, each matched to its expected defect; throws on a missing or unexpected one. */
export function typeCheckExample() {
  if (!existsSync(join(REPOSITORY_ROOT, 'dist', 'index.d.ts'))) {
    throw new Error('dist/index.d.ts is missing: run `npm run demo` (it builds first) or `npm run build`.');
  }
  const tsc = join(REPOSITORY_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const command = `tsc --noEmit -p ${TYPED_PROJECT}`;
  const result = runNode([tsc, '--noEmit', '--pretty', 'false', '-p', TYPED_PROJECT]);
  const diagnostics = parseDiagnostics(result.stdout);
  const unmatched = new Set(diagnostics);
  const caught = [];
  const missing = [];
  for (const expected of EXPECTED_TYPE_ERRORS) {
    const found = diagnostics.find(
      (diagnostic) => unmatched.has(diagnostic) && diagnostic.file.endsWith(expected.file) && diagnostic.text.includes(expected.says),
    );
    if (!found) {
      missing.push(expected);
      continue;
    }
    unmatched.delete(found);
    const source = readFileSync(join(REPOSITORY_ROOT, found.file), 'utf8').split('\n')[found.line - 1]?.trim() ?? '';
    caught.push({ ...expected, line: found.line, code: found.code, source, firstLine: found.text.split('\n')[0], text: found.text });
  }
  if (missing.length > 0 || unmatched.size > 0 || result.status === 0) {
    const problems = [
      ...missing.map((expected) => `expected compile error missing: ${expected.what} in ${expected.file} ("${expected.says}")`),
      ...[...unmatched].map(
        (diagnostic) => `unexpected compile error: ${diagnostic.file}:${diagnostic.line} ${diagnostic.text.split('\n')[0]}`,
      ),
    ];
    throw new Error(problems.join('\n') || 'tsc passed, but the typed example carries deliberate defects');
  }
  return { command, caught, exitStatus: result.status };
}

/** The codemod's dry run as JSON: files with their edits per transform and diffs, and the summary. */
export function migrateExample() {
  const command = `tool-result-guard migrate -p ${EXAMPLE}/tsconfig.json --dry-run`;
  const result = runNode([
    join(REPOSITORY_ROOT, 'dist', 'cli', 'bin.js'),
    'migrate',
    '-p',
    `${EXAMPLE}/tsconfig.json`,
    '--dry-run',
    '--json',
  ]);
  if (result.status !== MIGRATE_FOUND_CHANGES) {
    throw new Error(`expected ${command} to find changes (exit status 2), got ${result.status}:\n${result.stderr}`);
  }
  return { command, report: JSON.parse(result.stdout) };
}

/** The edits the dry run plans for one problem: `{ file, transform, count, diff }`. */
export function editsFor(migration, problem) {
  const edits = [];
  for (const file of migration.report.files) {
    for (const [transform, count] of Object.entries(file.edits ?? {})) {
      if (PROBLEM_OF_TRANSFORM[transform] === problem && count > 0) edits.push({ file: file.path, transform, count, diff: file.diff });
    }
  }
  return edits;
}
