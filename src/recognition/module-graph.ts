/**
 * Following relative imports without type information, the way
 * eslint-plugin-import's export map reads other modules: resolve the
 * specifier to a source file (`./x.js` → `./x.ts` too, `./dir` →
 * `./dir/index.ts`), parse it once, index it, and find the function an
 * exported name stands for, through `export … from` barrels.
 *
 * Parsed modules are cached by absolute path and modification time for the
 * life of the process (one lint run, or an editor session: an edited file
 * gets a new mtime and is parsed again). A file that cannot be read or parsed
 * is remembered as unknown: the analysis then assumes nothing about it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type ClassNode, type FunctionNode, assignParents, isClassNode, isFunctionNode, shownFunctionName, walk } from './ast.js';
import { type FileIndex, buildFileIndex, programPath, recordProgramPath } from './file-index.js';
import { FileDerivedCache, fileFacts, isFile } from './file-system.js';
import { MAX_SOURCE_FILE_BYTES, packageRootOf } from './package-files.js';

/** How many `export … from` hops and import hops we follow before giving up. */
export const MAX_RE_EXPORT_DEPTH = 8;

const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
const JS_TO_TS: Record<string, string[]> = {
  '.js': ['.ts', '.tsx'],
  '.jsx': ['.tsx'],
  '.mjs': ['.mts'],
  '.cjs': ['.cts'],
};

/** Parsed modules by path; undefined for one that is a bundle, unreadable or unparseable. */
const moduleCache = new FileDerivedCache<FileIndex | undefined>();
/** The source text of each parsed module, for analyses that quote it (scope analysis of a followed module). */
const moduleTexts = new WeakMap<TSESTree.Program, string>();

/** The text a program was parsed from: a module parsed by `loadModule`, or a linted file its recognition context recorded. */
export function moduleText(program: TSESTree.Program): string | undefined {
  return moduleTexts.get(program);
}

/** Records the linted file's text for `moduleText`, so cheap text tests can run before walks of its tree, and its path. */
export function rememberProgramText(program: TSESTree.Program, text: string, filePath?: string): void {
  moduleTexts.set(program, text);
  if (filePath !== undefined) recordProgramPath(program, filePath);
}

interface EstreeParseOptions {
  range: boolean;
  loc: boolean;
  comment: boolean;
  tokens: boolean;
  jsx: boolean;
  filePath: string;
}

/**
 * typescript-estree's bare `parse`: the tree only. `@typescript-eslint/parser`'s
 * `parse` would also run scope analysis, which we never use on followed
 * modules and which doubled their cost. Resolved from the parser's own
 * location (the parser depends on it), so it loads under any package manager.
 */
export const parseModuleSource = (
  createRequire(createRequire(import.meta.url).resolve('@typescript-eslint/parser'))('@typescript-eslint/typescript-estree') as {
    parse: (code: string, options: EstreeParseOptions) => TSESTree.Program;
  }
).parse;

function resolutionCandidates(base: string): string[] {
  const extension = path.extname(base);
  if (JS_TO_TS[extension]) {
    const stem = base.slice(0, -extension.length);
    return [...JS_TO_TS[extension]!.map((tsExtension) => stem + tsExtension), base];
  }
  if (SOURCE_EXTENSIONS.includes(extension)) return [base];
  return [
    ...SOURCE_EXTENSIONS.map((sourceExtension) => base + sourceExtension),
    ...SOURCE_EXTENSIONS.map((sourceExtension) => path.join(base, `index${sourceExtension}`)),
  ];
}

/**
 * `@/common` or `~/common`: the alias most projects map to their source folder (tsconfig
 * `paths: { "@/*": ["./src/*"] }`), which a published package keeps in its shipped source but
 * not its tsconfig. Resolved to the nearest folder named `src` above the importing file.
 */
const SOURCE_FOLDER_ALIAS = /^[@~]\/(.+)$/;

function sourceFolderAlias(specifier: string, fromFile: string): string | undefined {
  const aliased = SOURCE_FOLDER_ALIAS.exec(specifier)?.[1];
  if (aliased === undefined) return undefined;
  for (let folder = path.dirname(fromFile); folder !== path.dirname(folder); folder = path.dirname(folder)) {
    if (path.basename(folder) === 'src') return path.join(folder, aliased);
  }
  return undefined;
}

/** Each package root's `imports` map (Node's subpath imports), read once: pattern → target. */
const subpathImportsByRoot = new Map<string, ReadonlyMap<string, string>>();

/** The target a subpath import's value names: a string, or the first string of its conditions (`{ import, node, default }`). */
function importTarget(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (!value || typeof value !== 'object') return undefined;
  for (const condition of ['import', 'node', 'default', 'require']) {
    const target = importTarget((value as Record<string, unknown>)[condition]);
    if (target !== undefined) return target;
  }
  return undefined;
}

function subpathImports(root: string): ReadonlyMap<string, string> {
  let imports = subpathImportsByRoot.get(root);
  if (imports) return imports;
  const found = new Map<string, string>();
  try {
    const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { imports?: Record<string, unknown> };
    for (const [pattern, value] of Object.entries(manifest.imports ?? {})) {
      const target = importTarget(value);
      if (pattern.startsWith('#') && target?.startsWith('./')) found.set(pattern, target);
    }
  } catch {
    // No readable manifest: no subpath imports.
  }
  imports = found;
  subpathImportsByRoot.set(root, imports);
  return imports;
}

/**
 * `#src/state/artifactStore.js`: a subpath import the package maps in its own `package.json`
 * (`"imports": { "#src/*.js": "./dist/*.js" }`), resolved as Node does, to a path under its root.
 */
function subpathImport(specifier: string, fromFile: string): string | undefined {
  if (!specifier.startsWith('#')) return undefined;
  const root = packageRootOf(fromFile);
  if (root === undefined) return undefined;
  for (const [pattern, target] of subpathImports(root)) {
    const star = pattern.indexOf('*');
    if (star < 0) {
      if (pattern === specifier) return path.join(root, target);
      continue;
    }
    const prefix = pattern.slice(0, star);
    const suffix = pattern.slice(star + 1);
    if (specifier.length < prefix.length + suffix.length || !specifier.startsWith(prefix) || !specifier.endsWith(suffix)) continue;
    return path.join(root, target.replace('*', specifier.slice(prefix.length, specifier.length - suffix.length)));
  }
  return undefined;
}

/**
 * Does a specifier name a module of the package itself, never another package: relative
 * (`./x.js`), the source-folder alias (`@/x`, `~/x`) or a subpath import (`#src/x.js`)?
 */
export function isOwnModuleSpecifier(specifier: string): boolean {
  return specifier.startsWith('.') || specifier.startsWith('#') || SOURCE_FOLDER_ALIAS.test(specifier);
}

/**
 * The source file a relative specifier (or a source-folder alias, `@/…`, or the package's own
 * subpath import, `#src/…`) names, or undefined (packages are not followed).
 */
export function resolveRelativeModule(specifier: string, fromFile: string): string | undefined {
  if (!path.isAbsolute(fromFile)) return undefined;
  const mapped = subpathImport(specifier, fromFile);
  if (mapped !== undefined) return resolutionCandidates(mapped).find(isFile);
  const aliased = sourceFolderAlias(specifier, fromFile);
  if (aliased !== undefined) return resolutionCandidates(aliased).find(isFile);
  if (!specifier.startsWith('./') && !specifier.startsWith('../') && specifier !== '.' && specifier !== '..') {
    return undefined;
  }
  const base = path.resolve(path.dirname(fromFile), specifier);
  return resolutionCandidates(base).find(isFile);
}

/** The index of a module on disk, parsed once per (path, mtime); undefined when unreadable or unparseable. */
export function loadModule(filePath: string): FileIndex | undefined {
  return moduleCache.get(filePath, (stats) => {
    // A bundle is not followed: a call into it stays unknown (see MAX_SOURCE_FILE_BYTES).
    if (stats.size > MAX_SOURCE_FILE_BYTES) return undefined;
    try {
      const code = readFileSync(filePath, 'utf8');
      const program = parseModuleSource(code, {
        range: true,
        loc: false,
        comment: false,
        tokens: false,
        jsx: /\.[jt]sx$/.test(filePath),
        filePath,
      });
      assignParents(program);
      moduleTexts.set(program, code);
      return buildFileIndex(program, filePath);
    } catch {
      // Unreadable or not valid TS/JS: unknown, never a crash of the linted file.
      return undefined;
    }
  });
}

export interface ResolvedFunction {
  fn: FunctionNode;
  file: FileIndex;
  /** The class a method belongs to, so `this.helper()` inside it resolves. */
  classNode: ClassNode | undefined;
  name: string;
}

/**
 * Decides whether a module is worth parsing (see `mayReachReader`); modules
 * it rejects are unknown. Without one, every module is parsed.
 */
export type ModuleFilter = (modulePath: string) => boolean;

/**
 * A call or class is not followed into a module bigger than this: a bundler's
 * chunk (`@mastra/core`'s 150–250 KB `trip-wire-…`, `storage-…`), or a runner
 * so big (`@openai/agents-core`'s `run.mjs`, `runState.mjs`) that parsing it to
 * follow one call costs more than linting the file that makes the call: those
 * two alone were 1.5 s of a 13 s package. What is called there stays unknown.
 * When it was set, no helper a labelled tool reads or changes state through was
 * that big: the findings on the corpus and the labelled packages were the same
 * with 128 KB as with `MAX_SOURCE_FILE_BYTES` (`npm run same-findings`). Since
 * first-contact round 16 one is: hotelzero keeps its browser class in a 159 KB
 * module. The class of a kept instance now has its own bound
 * (`MAX_KEPT_CLASS_MODULE_BYTES`), which finds three of its readers; moving this
 * bound for every call is a cost question for `npm run bench`. Files joined by name
 * (`package-files.ts`) and modules loaded directly keep that larger bound.
 */
export const MAX_FOLLOWED_MODULE_BYTES = 128 * 1024;

/**
 * The class of an object a tool keeps between calls (`const b = await getBrowser()`, only ever a
 * `new HotelBrowser()`) is followed in a module up to `MAX_SOURCE_FILE_BYTES`: every call of the
 * tool goes through that one class, and it is asked only for that narrow shape, so its one parse per
 * process is the cost of seeing the tool at all (hotelzero keeps its browser class in 159 KB).
 */
export const MAX_KEPT_CLASS_MODULE_BYTES = MAX_SOURCE_FILE_BYTES;

function loadFiltered(
  modulePath: string | undefined,
  filter: ModuleFilter | undefined,
  maxBytes = MAX_FOLLOWED_MODULE_BYTES,
): FileIndex | undefined {
  if (!modulePath) return undefined;
  const size = fileFacts(modulePath)?.size;
  if (size === undefined || size > maxBytes) return undefined;
  if (filter && !filter(modulePath)) return undefined;
  return loadModule(modulePath);
}

/** Looks a name up in the module that declares it: its function, its class. */
type LocalLookup<T> = (file: FileIndex, name: string, depth: number, filter?: ModuleFilter) => T | undefined;

/**
 * What an exported name of `file` stands for, through `export … from` and
 * `export * from` barrels: `lookUp` is asked in the module that declares it.
 */
function resolveExport<T>(
  file: FileIndex,
  exportedName: string,
  depth: number,
  filter: ModuleFilter | undefined,
  lookUp: LocalLookup<T>,
): T | undefined {
  if (depth > MAX_RE_EXPORT_DEPTH) return undefined;
  const target = file.exports.get(exportedName);
  if (target?.kind === 'local') return lookUp(file, target.local, depth, filter);
  if (target?.kind === 're-export') {
    const next = loadFiltered(resolveRelativeModule(target.from, file.filePath), filter);
    return next ? resolveExport(next, target.imported, depth + 1, filter, lookUp) : undefined;
  }
  for (const specifier of file.starExports) {
    const next = loadFiltered(resolveRelativeModule(specifier, file.filePath), filter);
    const resolved = next ? resolveExport(next, exportedName, depth + 1, filter, lookUp) : undefined;
    if (resolved) return resolved;
  }
  return undefined;
}

/** The function an exported name of `file` stands for, through re-exports and barrels. */
export function resolveExportedFunction(
  file: FileIndex,
  exportedName: string,
  depth = 0,
  filter?: ModuleFilter,
): ResolvedFunction | undefined {
  return resolveExport(file, exportedName, depth, filter, resolveLocalName);
}

/** A name used in `file`: its own function, or what its import stands for. */
export function resolveLocalName(file: FileIndex, name: string, depth = 0, filter?: ModuleFilter): ResolvedFunction | undefined {
  const own = file.functions.get(name);
  if (own) return { fn: own, file, classNode: enclosingClass(own), name };
  const binding = file.imports.get(name);
  if (!binding || binding.imported === '*') return undefined;
  return resolveImportedName(file, binding.module, binding.imported, depth, filter);
}

/** `import { imported } from 'module'` seen from `file`, resolved to a function. */
export function resolveImportedName(
  file: FileIndex,
  module: string,
  imported: string,
  depth = 0,
  filter?: ModuleFilter,
): ResolvedFunction | undefined {
  if (depth > MAX_RE_EXPORT_DEPTH) return undefined;
  const target = loadFiltered(resolveRelativeModule(module, file.filePath), filter);
  return target ? resolveExportedFunction(target, imported, depth + 1, filter) : undefined;
}

/**
 * The initialiser of the constant `export const name = …` stands for, seen
 * from `program` through `import { imported } from specifier` (relative
 * specifiers only, through re-exports and barrels): how a tool's name spelled
 * through a constant of another module (`case tools.PdfTool.name:`,
 * `name: HELPER_TOOLS.DOCS_FETCH`) reads as the string the model sees.
 */
export function resolveImportedConstant(program: TSESTree.Program, specifier: string, imported: string): TSESTree.Expression | undefined {
  const from = programPath(program);
  const target = from === undefined ? undefined : loadFiltered(resolveRelativeModule(specifier, from), undefined);
  return target ? resolveExport(target, imported, 1, undefined, resolveLocalConstant)?.value : undefined;
}

export interface ResolvedConstant {
  value: TSESTree.Expression;
  /** The module whose constant it is: names in `value` are that module's. */
  file: FileIndex;
}

/** A name used in `file`: its own module constant, or the one its import stands for (through re-exports and barrels). */
export function resolveLocalConstant(file: FileIndex, name: string, depth = 0): ResolvedConstant | undefined {
  const own = file.constants.get(name);
  if (own) return { value: own, file };
  const binding = file.imports.get(name);
  if (!binding || binding.imported === '*' || depth > MAX_RE_EXPORT_DEPTH) return undefined;
  const target = loadFiltered(resolveRelativeModule(binding.module, file.filePath), undefined);
  return target ? resolveExport(target, binding.imported, depth + 1, undefined, resolveLocalConstant) : undefined;
}

/** The exported enum `imported` of the module `specifier` names, seen from `program` (through re-exports and barrels). */
export function resolveImportedEnum(
  program: TSESTree.Program,
  specifier: string,
  imported: string,
): TSESTree.TSEnumDeclaration | undefined {
  const from = programPath(program);
  const target = from === undefined ? undefined : loadFiltered(resolveRelativeModule(specifier, from), undefined);
  return target ? resolveExport(target, imported, 1, undefined, (file, name) => file.enums.get(name)) : undefined;
}

/** The module a relative specifier of `program` names, parsed (a followed module's size bound applies). */
export function loadRelativeModule(program: TSESTree.Program, specifier: string): FileIndex | undefined {
  const from = programPath(program);
  return from === undefined ? undefined : loadFiltered(resolveRelativeModule(specifier, from), undefined);
}

export interface ResolvedClass {
  classNode: ClassNode;
  file: FileIndex;
}

/**
 * A class name used in `file` (`new WebContentProcessor(…)`): its own class, or the one a relative import stands for.
 * `maxBytes` raises the bound on the module imported directly (see `MAX_KEPT_CLASS_MODULE_BYTES`).
 */
export function resolveClassName(
  file: FileIndex,
  name: string,
  depth = 0,
  filter?: ModuleFilter,
  maxBytes?: number,
): ResolvedClass | undefined {
  const own = file.classes.get(name);
  if (own) return { classNode: own, file };
  const binding = file.imports.get(name);
  if (!binding || binding.imported === '*' || depth > MAX_RE_EXPORT_DEPTH) return undefined;
  const target = loadFiltered(resolveRelativeModule(binding.module, file.filePath), filter, maxBytes);
  return target ? resolveExport(target, binding.imported, depth + 1, filter, resolveClassName) : undefined;
}

const RELATIVE_SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)(['"])(\.{1,2}\/[^'"]*)\1/gm;

interface ReachEntry {
  mtimeMs: number;
  size: number;
  reaches: boolean;
}

const reachCaches = new WeakMap<RegExp, Map<string, ReachEntry>>();

/**
 * Can anything in this module reach a reader, judged from text alone? Only
 * if its source spells a reader (a reader's name, or the specifier of a
 * reader module such as `'node:fs'`), or one of its relative imports can.
 * Reading text and scanning it costs a fraction of a parse, and most helper
 * modules a tool calls (path utilities, formatters, telemetry) read nothing:
 * they are never parsed. Cached by path and mtime like parsed modules: an
 * answer is checked against its own module's time and size, not its
 * imports' (checking every import again would cost what the cache saves), so
 * a long-lived editor server sees a helper that newly reads only once the
 * module importing it changes too, or after a restart.
 */
export function mayReachReader(modulePath: string, readerSpelling: RegExp): boolean {
  let cache = reachCaches.get(readerSpelling);
  if (!cache) {
    cache = new Map();
    reachCaches.set(readerSpelling, cache);
  }
  const reachCache = cache;
  const inProgress = new Set<string>();
  /** The modules this question scanned, with the facts their answer would be kept under. */
  const scanned: { modulePath: string; mtimeMs: number; size: number }[] = [];

  function visit(current: string): { reaches: boolean; complete: boolean } {
    const stats = fileFacts(current);
    if (!stats) return { reaches: false, complete: true };
    const cached = reachCache.get(current);
    if (cached && cached.mtimeMs === stats.mtimeMs && cached.size === stats.size) return { reaches: cached.reaches, complete: true };
    // A cycle: this module's answer is still being worked out higher up.
    if (inProgress.has(current)) return { reaches: false, complete: false };
    let text: string;
    try {
      text = readFileSync(current, 'utf8');
    } catch {
      return { reaches: false, complete: true };
    }
    inProgress.add(current);
    scanned.push({ modulePath: current, mtimeMs: stats.mtimeMs, size: stats.size });
    let reaches = readerSpelling.test(text);
    let complete = true;
    if (!reaches) {
      for (const match of text.matchAll(RELATIVE_SPECIFIER)) {
        const next = resolveRelativeModule(match[2]!, current);
        if (!next) continue;
        const result = visit(next);
        complete &&= result.complete;
        if (result.reaches) {
          reaches = true;
          break;
        }
      }
    }
    inProgress.delete(current);
    // A "no" reached through a cycle may change once the cycle is resolved; keep only sure answers.
    if (reaches || complete) reachCache.set(current, { mtimeMs: stats.mtimeMs, size: stats.size, reaches });
    return { reaches, complete: reaches || complete };
  }

  const reaches = visit(modulePath).reaches;
  // A "no" for the module asked about is a sure "no" for every module the
  // walk scanned, cycles included: each one's imports are among the
  // module's, and none of them spells a reader. Kept, the next question
  // about a module in the cycle does not walk the cycle again.
  if (!reaches) {
    for (const { modulePath: scannedPath, mtimeMs, size } of scanned) reachCache.set(scannedPath, { mtimeMs, size, reaches: false });
  }
  return reaches;
}

/** The class `node` is inside (its nearest one), if any. */
export function enclosingClass(node: TSESTree.Node): ClassNode | undefined {
  let current = node.parent;
  while (current) {
    if (isClassNode(current)) return current;
    if (current.type === AST_NODE_TYPES.Program) return undefined;
    current = current.parent;
  }
  return undefined;
}

const functionsByEnd = new WeakMap<TSESTree.Program, Map<number, FunctionNode>>();

/**
 * The function whose declaration ends at `end` (a TypeScript declaration's
 * `end`): how a declaration the type checker found maps back to our tree.
 */
export function findFunctionEndingAt(file: FileIndex, end: number): ResolvedFunction | undefined {
  let byEnd = functionsByEnd.get(file.program);
  if (!byEnd) {
    byEnd = new Map();
    const map = byEnd;
    walk(file.program, (node) => {
      let fn: TSESTree.Node | null | undefined;
      if (node.type === AST_NODE_TYPES.FunctionDeclaration) fn = node;
      else if (
        node.type === AST_NODE_TYPES.MethodDefinition ||
        node.type === AST_NODE_TYPES.PropertyDefinition ||
        node.type === AST_NODE_TYPES.Property
      ) {
        fn = node.value;
      } else if (node.type === AST_NODE_TYPES.VariableDeclarator) fn = node.init;
      if (isFunctionNode(fn) && !map.has(node.range[1])) map.set(node.range[1], fn);
    });
    functionsByEnd.set(file.program, byEnd);
  }
  const fn = byEnd.get(end);
  return fn ? { fn, file, classNode: enclosingClass(fn), name: shownFunctionName(fn) } : undefined;
}

/** How many modules are cached, and how many of them parsed (for benchmarks and tests). */
export function moduleCacheStats(): { modules: number; parsed: number } {
  const indexes = moduleCache.values();
  return { modules: indexes.length, parsed: indexes.filter((index) => index !== undefined).length };
}

/** The paths of the cached modules (benchmarks and tests). */
export function cachedModulePaths(): string[] {
  return moduleCache.paths();
}

/** Forget every parsed module (tests that rewrite fixtures call this). */
export function clearModuleCache(): void {
  moduleCache.clear();
  subpathImportsByRoot.clear();
}
