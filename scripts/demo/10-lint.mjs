// Demo part: the `eslint` CLI with the plugin's `recommended` config over the
// bundled example agent. Findings are the point of the demo: ESLint exits 1
// when it reports errors, which is not a failure here; a crash (exit 2) or a
// run that finds nothing is.
import { spawnSync } from 'node:child_process';
import { join, relative } from 'node:path';

import { REPOSITORY_ROOT } from '../corpus.mjs';

export const title = 'Lint: `eslint` with tool-result-guard `configs.recommended` on examples/agent-harness/';

const EXAMPLE = 'examples/agent-harness/src';
const CONFIG = 'scripts/demo/eslint.demo.config.js';
const ESLINT_FOUND_PROBLEMS = 1;

export async function run() {
  const eslintBin = join(REPOSITORY_ROOT, 'node_modules', 'eslint', 'bin', 'eslint.js');
  console.log(`$ eslint -c ${CONFIG} ${EXAMPLE}\n`);
  const result = spawnSync(process.execPath, [eslintBin, '-c', CONFIG, '--format', 'json', EXAMPLE], {
    cwd: REPOSITORY_ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0 && result.status !== ESLINT_FOUND_PROBLEMS) {
    process.stderr.write(result.stderr);
    throw new Error(`eslint exited with status ${result.status}`);
  }
  const files = JSON.parse(result.stdout);
  const countsByRule = new Map();
  for (const file of files) {
    if (file.messages.length === 0) continue;
    console.log(relative(REPOSITORY_ROOT, file.filePath));
    for (const message of file.messages) {
      const rule = message.ruleId ?? (message.fatal ? 'parse error' : 'eslint');
      countsByRule.set(rule, (countsByRule.get(rule) ?? 0) + 1);
      const suggestions = message.suggestions?.length ? `  [💡 ${message.suggestions.map((s) => s.desc).join(' | ')}]` : '';
      console.log(`  ${String(message.line).padStart(4)}:${String(message.column).padEnd(3)} ${rule}\n         ${message.message}${suggestions}`);
    }
  }
  const total = [...countsByRule.values()].reduce((sum, count) => sum + count, 0);
  console.log(`\n${total} finding(s) in ${files.filter((file) => file.messages.length > 0).length} of ${files.length} file(s):`);
  for (const [rule, count] of [...countsByRule].sort()) console.log(`  ${String(count).padStart(3)}  ${rule}`);
  if (files.some((file) => file.messages.some((message) => message.fatal))) {
    throw new Error('eslint could not parse a file of the example (see "parse error" above)');
  }
  if (total === 0) throw new Error('expected findings in the example harness: it carries every defect on purpose');
}
