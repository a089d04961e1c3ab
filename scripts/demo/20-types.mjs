// Demo part: the compiler catching misclassified tools and the other guards
// in examples/agent-harness/typed/. `tsc` failing is the point: the demo
// prints its messages and fails only if an expected error is missing or an
// unexpected one appears.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { REPOSITORY_ROOT } from '../corpus.mjs';

export const title = 'Types: `tsc --noEmit -p examples/agent-harness/typed` (a misclassified tool is a compile error)';

const PROJECT = 'examples/agent-harness/typed';

/** The deliberate defects in the typed example: where, and what the compiler must say. */
const EXPECTED = [
  { file: 'tools/read-file.ts', says: 'must declare maxResultSizeChars: UNBOUNDED', what: 'a path reader with a finite limit' },
  { file: 'tools/index.ts', says: 'must declare maxResultSizeChars: UNBOUNDED', what: 'the same tool, imported into a typed registry' },
  { file: 'agent/fork.ts', says: 'Pass cloneReplacementState(state) to a fork', what: "the parent's live state handed to a fork" },
  { file: 'agent/persist.ts', says: 'narrow the query source with if (shouldPersistForSession(querySource)) first', what: "persistence for 'compact'" },
  { file: 'agent/persist.ts', says: 'Call markSeen(state, id) first', what: 'a replacement for an id never marked seen' },
];

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

function sourceLine(file, line) {
  const path = join(REPOSITORY_ROOT, file);
  return existsSync(path) ? (readFileSync(path, 'utf8').split('\n')[line - 1] ?? '').trim() : '';
}

export async function run() {
  if (!existsSync(join(REPOSITORY_ROOT, 'dist', 'index.d.ts'))) {
    throw new Error('dist/index.d.ts is missing: run `npm run demo` (it builds first) or `npx tsc -p tsconfig.build.json`.');
  }
  console.log(`$ tsc --noEmit -p ${PROJECT}\n`);
  const tsc = join(REPOSITORY_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const result = spawnSync(process.execPath, [tsc, '--noEmit', '--pretty', 'false', '-p', PROJECT], {
    cwd: REPOSITORY_ROOT,
    encoding: 'utf8',
  });
  const diagnostics = parseDiagnostics(result.stdout);
  for (const diagnostic of diagnostics) {
    console.log(`${diagnostic.file}:${diagnostic.line}  ${diagnostic.code}`);
    console.log(`  > ${sourceLine(diagnostic.file, diagnostic.line)}`);
    console.log(`  ${diagnostic.text.split('\n').join('\n  ')}\n`);
  }
  if (result.stderr) process.stdout.write(result.stderr);

  const unmatched = new Set(diagnostics);
  const missing = [];
  for (const expected of EXPECTED) {
    const found = diagnostics.find(
      (diagnostic) => unmatched.has(diagnostic) && diagnostic.file.endsWith(expected.file) && diagnostic.text.includes(expected.says),
    );
    if (found) {
      unmatched.delete(found);
      console.log(`caught: ${expected.what} (${expected.file}:${found.line})`);
    } else {
      missing.push(expected);
    }
  }
  console.log(`\n(tsc exit status ${result.status}: ${diagnostics.length} errors, every one a deliberate defect; the correct code beside them compiles)`);
  if (missing.length > 0 || unmatched.size > 0 || result.status === 0) {
    const problems = [
      ...missing.map((expected) => `expected error missing: ${expected.what} in ${expected.file} ("${expected.says}")`),
      ...[...unmatched].map((diagnostic) => `unexpected error: ${diagnostic.file}:${diagnostic.line} ${diagnostic.text.split('\n')[0]}`),
    ];
    throw new Error(problems.join('\n') || 'tsc passed, but the typed example carries deliberate defects');
  }
}
