// Real agent code to test and bench against: npm packages packed as tarballs
// (no dependencies) into a git-ignored cache, pinned by version and integrity
// so results are stable. Only the npm registry is contacted.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPOSITORY_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const CORPUS_ROOT = join(REPOSITORY_ROOT, '.cache', 'corpus');

/**
 * `lint` lists the folders (inside the package) whose code the tests lint;
 * `typescript` marks packages that ship TypeScript sources.
 */
export const CORPUS = [
  {
    name: '@google/gemini-cli-core',
    version: '0.61.0',
    integrity: 'sha512-3H09+26TzD+HIuUV0KHeAp4Ag0iK3SiRB8H+NehOpsupbfZcEeprSN/85uzjTMQxcWJkzrNe/AY/y0ovFkSZ0A==',
    lint: ['dist/src'],
  },
  {
    name: '@modelcontextprotocol/server-filesystem',
    version: '2026.8.31',
    integrity: 'sha512-kKaFkyAh6oipvc9+EAbJ552JafnMnOq5nzmzWkp1jJdBhTAAGpmIpWihUG1+rfNhmEFM98gUZDdCHCDD4v6a7Q==',
    lint: ['dist'],
  },
  {
    name: '@langchain/community',
    version: '1.1.29',
    integrity: 'sha512-eJbE0IARueEg+Lljk7SIGGeiSnu5u0mcT0MPIF7UG6jYPNXOpSebwiXsS3aIKOyJZSj0DlmBPv7q0hkLrxDtHA==',
    lint: ['dist/tools', 'dist/document_loaders'],
  },
  {
    // An older LangChain: tsc-compiled, an ES module build beside a CommonJS
    // one (`x.cjs`), the shape much agent code on npm still has.
    name: 'langchain',
    version: '0.1.37',
    integrity: 'sha512-rpaLEJtRrLYhAViEp7/aHfSkxbgSqHJ5n10tXv3o4kHP/wOin85RpTgewwvGjEaKc3797jOg+sLSk6a7e0UlMg==',
    lint: ['dist/tools', 'dist/experimental/tools'],
  },
  {
    name: '@openai/agents-core',
    version: '0.20.0',
    integrity: 'sha512-9nJJ3iyQTwO2kmrZJPMqnHI61g3xp2DgtpW4V0cgNtYot5jocDqAMN5+dkjtsBo64U3Wbl7rIAV0q5kvycoIIA==',
    lint: ['dist'],
  },
  {
    name: '@mastra/core',
    version: '1.71.0',
    integrity: 'sha512-qpv0qbyzyFWBWVlzP+G4oea6e3e3JyxmeNAtS5wuzWc0/iHv47DWRYNJXbDC0kleYd6L4afFPh7dLxCsuyCSKg==',
    lint: ['dist'],
  },
  {
    name: 'ai',
    version: '7.0.173',
    integrity: 'sha512-dLea37zT1h7cjkUsBprU4Rq35HJqhtHHaq1jTAXjHQoyfpeswpgCrhjZJWdWc10gjEAxmz114py7iLGQ3xIMxw==',
    lint: ['src'],
    typescript: true,
  },
  {
    name: 'effect',
    version: '3.22.4',
    integrity: 'sha512-RNshu7AXVxxDh6aS4lothhJ+QoZ4xSykbWNaaVdvDN72RMyVwhCGdALkyl1TbEydgAmRIdD1eTyJqBUGwSBGDA==',
    lint: ['src'],
    typescript: true,
  },
];

export function corpusPackageDirectory(entry) {
  return join(CORPUS_ROOT, `${entry.name.replace('/', '+')}@${entry.version}`, 'package');
}

/**
 * Makes sure `entry` is unpacked in the cache and returns its folder. The
 * tarball's integrity is checked before it is unpacked; the folder appears
 * only once it is complete (unpacked elsewhere, then renamed).
 */
export function ensureCorpusPackage(entry) {
  const packageDirectory = corpusPackageDirectory(entry);
  if (existsSync(join(packageDirectory, 'package.json'))) return packageDirectory;
  const entryDirectory = dirname(packageDirectory);
  const stagingDirectory = `${entryDirectory}.staging-${process.pid}`;
  rmSync(stagingDirectory, { recursive: true, force: true });
  mkdirSync(stagingDirectory, { recursive: true });
  const output = execFileSync(
    'npm',
    ['pack', `${entry.name}@${entry.version}`, '--json', '--silent', '--pack-destination', stagingDirectory],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const [{ filename }] = JSON.parse(output);
  const tarball = join(stagingDirectory, filename.replace(/^@/, '').replace('/', '-'));
  const actual = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
  if (actual !== entry.integrity) {
    rmSync(stagingDirectory, { recursive: true, force: true });
    throw new Error(
      `Integrity mismatch for ${entry.name}@${entry.version}: expected ${entry.integrity}, got ${actual}. ` +
        'The registry served different bytes than the pinned tarball; update scripts/corpus.mjs deliberately if this is expected.',
    );
  }
  execFileSync('tar', ['-xzf', tarball, '-C', stagingDirectory]);
  rmSync(entryDirectory, { recursive: true, force: true });
  renameSync(stagingDirectory, entryDirectory);
  return packageDirectory;
}

/** Ensures every corpus package (or those named) and returns `{ entry, directory }` pairs. */
export function ensureCorpus(names) {
  return CORPUS.filter((entry) => !names || names.includes(entry.name)).map((entry) => ({
    entry,
    directory: ensureCorpusPackage(entry),
  }));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const { entry, directory } of ensureCorpus()) {
    console.log(`${entry.name}@${entry.version} -> ${directory}`);
  }
}
