// Which files a command works on: paths, folders and globs from the command line (or a tsconfig's
// files), filtered by extension and ignore patterns. The codemods' `migrate()` and the inventory take
// the same answer, so both commands see the same files.
import { existsSync, statSync } from 'node:fs';
import { dirname, extname, isAbsolute, join, relative, resolve } from 'node:path';

import { glob, isDynamicPattern } from 'tinyglobby';
import { ts } from 'ts-morph';

import { CodemodUsageError } from '../util/usage-error.js';

export { DEFAULT_EXTENSIONS } from '../codemods/defaults.js';

/** Dependencies and declaration files hold no tool implementations to migrate. */
const ALWAYS_IGNORED = ['**/node_modules/**'];
const DECLARATION_FILE = /\.d\.[cm]?ts$/;

export interface FileDiscoveryOptions {
  /** Files, folders (every matching file inside) and globs, relative to `cwd`. */
  paths: readonly string[];
  /** A tsconfig (or a folder holding `tsconfig.json`): its files are migrated. */
  project?: string | undefined;
  cwd: string;
  /** Without dots: `ts`, `mjs`… */
  extensions: readonly string[];
  ignorePatterns: readonly string[];
}

/** The absolute paths to migrate, sorted and without duplicates. */
export async function discoverFiles(options: FileDiscoveryOptions): Promise<string[]> {
  const { paths, project, cwd } = options;
  if (paths.length === 0 && !project) {
    throw new CodemodUsageError(
      'NO_INPUT',
      'Nothing to migrate: give files, folders or globs (`tool-result-guard migrate src`) or a project (`-p tsconfig.json`).',
    );
  }
  const extensions = new Set(options.extensions.map((extension) => extension.replace(/^\./, '')));
  // `--ext esm.js` names a compound extension (`index.esm.js`, not `index.cjs.js`), as its glob does.
  const hasWantedExtension = (filePath: string): boolean =>
    !DECLARATION_FILE.test(filePath) &&
    (extensions.has(extname(filePath).slice(1)) ||
      [...extensions].some((extension) => extension.includes('.') && filePath.endsWith(`.${extension}`)));
  const ignore = [...ALWAYS_IGNORED, ...options.ignorePatterns];
  const extensionGlob = extensions.size === 1 ? `*.${[...extensions][0]}` : `*.{${[...extensions].join(',')}}`;

  const found = new Set<string>();
  if (project) {
    for (const filePath of await filesOfProject(resolve(cwd, project), ignore)) {
      if (hasWantedExtension(filePath)) found.add(filePath);
    }
  }
  for (const path of paths) {
    const absolute = resolve(cwd, path);
    if (existsSync(absolute)) {
      if (statSync(absolute).isDirectory()) {
        const inFolder = await glob(`**/${extensionGlob}`, { cwd: absolute, ignore, absolute: true, dot: false });
        for (const filePath of inFolder) if (hasWantedExtension(filePath)) found.add(resolve(filePath));
      } else if (!(await isIgnored(absolute, cwd, options.ignorePatterns))) {
        // A file named explicitly is migrated whatever its extension: the user asked for it.
        found.add(absolute);
      }
      continue;
    }
    if (isDynamicPattern(path)) {
      const matches = await glob(path, { cwd, ignore, absolute: true, dot: false });
      for (const filePath of matches) if (hasWantedExtension(filePath)) found.add(resolve(filePath));
      continue;
    }
    throw new CodemodUsageError('PATH_NOT_FOUND', `No such file or folder: ${path} (resolved from ${cwd}).`);
  }
  return [...found].sort();
}

async function isIgnored(filePath: string, cwd: string, ignorePatterns: readonly string[]): Promise<boolean> {
  if (ignorePatterns.length === 0) return false;
  const relativePath = relative(cwd, filePath);
  if (relativePath.startsWith('..') || isAbsolute(relativePath)) return false;
  const matches = await glob(ignorePatterns as string[], { cwd, absolute: true, dot: true, ignore: ALWAYS_IGNORED });
  return matches.some((match) => resolve(match) === filePath);
}

/**
 * The files a tsconfig includes, read the way `tsc` reads them, without
 * parsing any of them: the runner parses only the files the rules report on
 * (ts-morph's advice: skip dependency resolution, load only what you touch).
 */
async function filesOfProject(tsconfigPath: string, ignore: readonly string[]): Promise<string[]> {
  const configPath = existsSync(tsconfigPath) && statSync(tsconfigPath).isDirectory() ? join(tsconfigPath, 'tsconfig.json') : tsconfigPath;
  if (!existsSync(configPath)) {
    throw new CodemodUsageError('TSCONFIG_NOT_FOUND', `No tsconfig at ${configPath}: pass the path of a tsconfig.json to -p/--project.`);
  }
  const problems: string[] = [];
  // TypeScript reads a tsconfig with syntax errors as best it can; we would rather say so.
  const syntax = ts.readConfigFile(configPath, ts.sys.readFile).error;
  if (syntax) problems.push(ts.flattenDiagnosticMessageText(syntax.messageText, '\n'));
  const parsed = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        problems.push(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  const configErrors = (parsed?.errors ?? []).filter(
    // "No inputs were found" is an empty project, not a broken one.
    (diagnostic) => diagnostic.code !== 18003,
  );
  problems.push(...configErrors.map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')));
  if (!parsed || problems.length > 0) {
    throw new CodemodUsageError('TSCONFIG_INVALID', `Cannot read ${configPath}: ${problems.join('; ') || 'unknown error'}.`);
  }
  const projectRoot = dirname(configPath);
  const ignored =
    ignore.length > ALWAYS_IGNORED.length
      ? new Set(
          (
            await glob(ignore.slice(ALWAYS_IGNORED.length) as string[], {
              cwd: projectRoot,
              absolute: true,
              dot: true,
              ignore: ALWAYS_IGNORED,
            })
          ).map((filePath) => resolve(filePath)),
        )
      : new Set<string>();
  return parsed.fileNames
    .map((fileName) => resolve(fileName))
    .filter((fileName) => !fileName.split(/[\\/]/).includes('node_modules') && !ignored.has(fileName));
}
