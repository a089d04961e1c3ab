/**
 * The other files of the package a linted file belongs to, judged from text
 * first: the reverse lookups (which file dispatches the tool this list
 * names?) cannot follow imports, because the definitions file is often the
 * one imported. The package is the folder of the nearest `package.json`;
 * its source files are listed once per process (bounded, without
 * `node_modules`, dot folders, declarations, tests and bundles over 256 KB), and each file's
 * text facts are cached by path and mtime like parsed modules. Only files
 * whose text spells the name looked for are ever parsed.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

import { FileDerivedCache, fileFacts, isFile } from './file-system.js';

/** A package bigger than this is listed only this far: the join is a help, never a reason to read a monorepo. */
export const MAX_PACKAGE_FILES = 2000;
/**
 * A file bigger than this is a bundle or a bundler's chunk (a dependency tree
 * or a whole server flattened into one file), not one of the package's own
 * sources, which stay far below it. Its `name: 'x'` and `case 'x':` spell
 * thousands of names that are no tool list and no dispatcher, and parsing it
 * to follow one helper call costs more than linting the file that calls it
 * (`@mastra/core`'s 150–450 KB chunks, `@google/gemini-cli-core`'s 8 MB
 * bundle). So it is neither listed for the name join nor followed by
 * `loadModule`: a call into it stays unknown. A bundle that is linted is
 * still analysed as the linted file.
 */
export const MAX_SOURCE_FILE_BYTES = 256 * 1024;

const SOURCE_FILE = /\.(?:[cm]?[jt]s|[jt]sx)$/;
const SKIPPED_FILE = /\.d\.[cm]?ts$|\.(?:test|spec)\.[cm]?[jt]sx?$/;
const SKIPPED_FOLDERS = new Set(['node_modules', 'test', 'tests', '__tests__', '__mocks__', 'coverage']);

const rootsByFolder = new Map<string, string | undefined>();
const filesByRoot = new Map<string, string[]>();

/** The folder of the nearest `package.json` above `filePath`, if any. */
export function packageRootOf(filePath: string): string | undefined {
  if (!path.isAbsolute(filePath)) return undefined;
  const start = path.dirname(filePath);
  const visited: string[] = [];
  let root: string | undefined;
  for (let folder = start; ; folder = path.dirname(folder)) {
    if (rootsByFolder.has(folder)) {
      root = rootsByFolder.get(folder);
      break;
    }
    visited.push(folder);
    if (isFile(path.join(folder, 'package.json'))) {
      root = folder;
      break;
    }
    if (path.dirname(folder) === folder) break;
  }
  for (const folder of visited) rootsByFolder.set(folder, root);
  return root;
}

function isBundle(filePath: string): boolean {
  const stats = fileFacts(filePath);
  return !stats || stats.size > MAX_SOURCE_FILE_BYTES;
}

/**
 * The files below a package root that `accept` takes (breadth first, at most `MAX_PACKAGE_FILES`),
 * without `node_modules`, dot folders, tests and coverage.
 */
export function listPackageFiles(root: string, accept: (name: string, fullPath: string) => boolean): string[] {
  const files: string[] = [];
  const pending = [root];
  while (pending.length > 0 && files.length < MAX_PACKAGE_FILES) {
    const folder = pending.shift()!;
    let entries;
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) pending.push(full);
      } else if (entry.isFile() && accept(entry.name, full)) {
        files.push(full);
        if (files.length >= MAX_PACKAGE_FILES) break;
      }
    }
  }
  return files;
}

/** The package's source files (absolute paths, bundles left out), listed once per process. */
export function packageSourceFiles(root: string): readonly string[] {
  const cached = filesByRoot.get(root);
  if (cached) return cached;
  const files = listPackageFiles(root, (name, full) => SOURCE_FILE.test(name) && !SKIPPED_FILE.test(name) && !isBundle(full));
  filesByRoot.set(root, files);
  return files;
}

/**
 * A line that opens a method of a class: `  async ensureSelectedSite(siteUrl) {`, `  private run<T>(args: string[]): Promise<T> {`.
 * Read from the text only to choose the files worth parsing; the parsed class decides.
 */
const METHOD_DEFINITION =
  /^[ \t]+(?:(?:public|private|protected|static|async|override|readonly)\s+)*(?:[gs]et\s+)?#?([A-Za-z_$][\w$]*)\s*(?:<[^>\n]*>)?\([^)\n]*\)\s*(?::[^{\n]*)?\{/gm;
const methodFilesByRoot = new Map<string, ReadonlyMap<string, readonly string[]>>();

/**
 * The package's source files whose text opens a method named `name` (`ctx.siteState.ensureSelectedSite()`'s
 * class). The index of every file's method names is read once per package and process, like
 * `packageNameFacts`: it is asked for every call on a handed-in context, and re-reading (or re-`stat`ing)
 * the package's files for each would cost more than the rule.
 */
export function filesDefiningMethod(root: string, name: string): readonly string[] {
  let byName = methodFilesByRoot.get(root);
  if (!byName) {
    const index = new Map<string, string[]>();
    for (const filePath of packageSourceFiles(root)) {
      let text: string;
      try {
        text = readFileSync(filePath, 'utf8');
      } catch {
        continue;
      }
      for (const method of new Set([...text.matchAll(METHOD_DEFINITION)].map((match) => match[1]!))) {
        const files = index.get(method);
        if (files) files.push(filePath);
        else index.set(method, [filePath]);
      }
    }
    methodFilesByRoot.set(root, (byName = index));
  }
  return byName.get(name) ?? [];
}

/** What one file's text says about tool names. */
export interface NameSpellings {
  /** String literals a `case 'x':` or a `=== 'x'` compares with: names a dispatcher may route. */
  compared: ReadonlySet<string>;
  /** `name: 'x'` in a file that spells `inputSchema`: names a tool list may declare. */
  listed: ReadonlySet<string>;
  /** The text itself when it compares names (a possible dispatcher), for further cheap tests. */
  text: string | undefined;
  /**
   * Does it spell the call-tool request (`CallToolRequestSchema`, `'tools/call'`): may it hold a low-level
   * server's handler, which may hand the requested name on to another module (`call-tool-handlers.ts`)?
   */
  handlesToolCalls: boolean;
  /** Does it spell the list request (`ListToolsRequestSchema`, `'tools/list'`): may it answer with the server's tools (`listed-tools.ts`)? */
  listsTools: boolean;
}

const spellingsCache = new FileDerivedCache<NameSpellings | undefined>();

/** The low-level MCP server's call-tool request: its schema's name, and the protocol method MCP SDK 2 names directly. */
export const CALL_TOOL_SCHEMA = 'CallToolRequestSchema';
export const CALL_TOOL_METHOD = 'tools/call';

/** Can this text hold a call-tool handler (it spells the request's schema or method)? */
export function spellsCallToolRequest(text: string): boolean {
  return text.includes(CALL_TOOL_SCHEMA) || text.includes(CALL_TOOL_METHOD);
}

/** The low-level MCP server's list request, the same two ways. */
export const LIST_TOOLS_SCHEMA = 'ListToolsRequestSchema';
export const LIST_TOOLS_METHOD = 'tools/list';

const CASE_LITERAL = /\bcase\s+(['"`])([^'"`\\\n]{1,200})\1\s*:/g;
/** `case BuiltInToolNames.ReadFile:`: a name held by a constant of another module, joined by its spelling (`toolNameKey`). */
const CASE_CONSTANT = /\bcase\s+(([A-Za-z_$][\w$]*\.){1,2}[A-Za-z_$][\w$]*)\s*:/g;
const COMPARED_AFTER = /[=!]==?\s*(['"`])([^'"`\\\n]{1,200})\1/g;
const COMPARED_BEFORE = /(['"`])([^'"`\\\n]{1,200})\1\s*[=!]==?/g;
const NAME_PROPERTY = /(?:\bname|['"]name['"])\s*:\s*(['"`])([^'"`\\\n]{1,200})\1/g;

function collect(text: string, pattern: RegExp, into: Set<string>): void {
  for (const match of text.matchAll(pattern)) into.add(match[2]!);
}

/** The name facts of one file, from its text (cached by path and mtime); undefined when unreadable. */
export function nameSpellings(filePath: string): NameSpellings | undefined {
  return spellingsCache.get(filePath, () => {
    try {
      const text = readFileSync(filePath, 'utf8');
      const compared = new Set<string>();
      const listed = new Set<string>();
      collect(text, CASE_LITERAL, compared);
      for (const match of text.matchAll(CASE_CONSTANT)) compared.add(match[1]!);
      if (text.includes('==')) {
        collect(text, COMPARED_AFTER, compared);
        collect(text, COMPARED_BEFORE, compared);
      }
      if (text.includes('inputSchema')) collect(text, NAME_PROPERTY, listed);
      return {
        compared,
        listed,
        text: compared.size > 0 ? text : undefined,
        handlesToolCalls: spellsCallToolRequest(text),
        listsTools: text.includes(LIST_TOOLS_SCHEMA) || text.includes(LIST_TOOLS_METHOD),
      };
    } catch {
      return undefined;
    }
  });
}

/** What all the source files of one package say about tool names, joined once. */
export interface PackageNameFacts {
  /** The files the facts come from (`packageSourceFiles`). */
  files: ReadonlySet<string>;
  /** Every name some file of the package lists (`name: 'x'` in a file that spells `inputSchema`). */
  listed: ReadonlySet<string>;
  /** For each compared name, the files that compare it, in listing order. */
  comparedIn: ReadonlyMap<string, readonly string[]>;
  /** The files that compare at least one listed name (possible dispatchers of listed tools), with their text. */
  dispatchers: ReadonlyMap<string, string>;
}

const factsByRoot = new Map<string, PackageNameFacts>();

/**
 * The name facts of a package's files, joined once per process like the
 * listing they come from. The join is asked for every tool class and list
 * entry a lint run meets; re-reading (or re-`stat`ing) every file of the
 * package for each of them cost more than the rest of the rule together on a
 * large agent CLI. A file parsed for its branches is still re-checked by
 * `loadModule` (path and mtime); what a long-lived editor server does not see
 * until it restarts is a name newly listed or compared in another file, as it
 * does not see a new file.
 */
export function packageNameFacts(root: string): PackageNameFacts {
  const cached = factsByRoot.get(root);
  if (cached) return cached;
  const listed = new Set<string>();
  const comparedIn = new Map<string, string[]>();
  const spellingsOf = new Map<string, NameSpellings>();
  for (const file of packageSourceFiles(root)) {
    const spellings = nameSpellings(file);
    if (!spellings) continue;
    spellingsOf.set(file, spellings);
    for (const name of spellings.listed) listed.add(name);
    for (const name of spellings.compared) {
      const files = comparedIn.get(name);
      if (files) files.push(file);
      else comparedIn.set(name, [file]);
    }
  }
  const dispatchers = new Map<string, string>();
  for (const [file, spellings] of spellingsOf) {
    if (spellings.text !== undefined && [...spellings.compared].some((name) => listed.has(name))) dispatchers.set(file, spellings.text);
  }
  const facts = { files: new Set(packageSourceFiles(root)), listed, comparedIn, dispatchers };
  factsByRoot.set(root, facts);
  return facts;
}

/** Forget the listings and text facts (tests that write fixtures call this). */
export function clearPackageFileCache(): void {
  rootsByFolder.clear();
  filesByRoot.clear();
  spellingsCache.clear();
  factsByRoot.clear();
  methodFilesByRoot.clear();
}
