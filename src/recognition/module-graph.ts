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
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type ClassNode, type FunctionNode, assignParents, functionNameOf, isClassNode, isFunctionNode, walk } from './ast.js';
import { type FileIndex, buildFileIndex } from './file-index.js';
import { MAX_SOURCE_FILE_BYTES } from './package-files.js';

/** How many `export … from` hops and import hops we follow before giving up. */
export const MAX_RE_EXPORT_DEPTH = 8;

const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
const JS_TO_TS: Record<string, string[]> = {
  '.js': ['.ts', '.tsx'],
  '.jsx': ['.tsx'],
  '.mjs': ['.mts'],
  '.cjs': ['.cts'],
};

interface CachedModule {
  mtimeMs: number;
  size: number;
  index: FileIndex | undefined;
}

const moduleCache = new Map<string, CachedModule>();
/** The source text of each parsed module, for analyses that quote it (scope analysis of a followed module). */
const moduleTexts = new WeakMap<TSESTree.Program, string>();

/** The text a program was parsed from: a module parsed by `loadModule`, or a linted file its recognition context recorded. */
export function moduleText(program: TSESTree.Program): string | undefined {
  return moduleTexts.get(program);
}

/** Records the linted file's text for `moduleText`, so cheap text tests can run before walks of its tree. */
export function rememberProgramText(program: TSESTree.Program, text: string): void {
  moduleTexts.set(program, text);
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

function isFile(candidate: string): boolean {
  try {
    // Most candidates do not exist (`./x.ts` and `./x.tsx` for `./x.js`): a thrown ENOENT per miss cost more than the stat.
    return statSync(candidate, { throwIfNoEntry: false })?.isFile() ?? false;
  } catch {
    return false;
  }
}

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

/** The source file a relative specifier names, or undefined (packages are not followed). */
export function resolveRelativeModule(specifier: string, fromFile: string): string | undefined {
  if (!specifier.startsWith('./') && !specifier.startsWith('../') && specifier !== '.' && specifier !== '..') {
    return undefined;
  }
  if (!path.isAbsolute(fromFile)) return undefined;
  const base = path.resolve(path.dirname(fromFile), specifier);
  return resolutionCandidates(base).find(isFile);
}

/** The index of a module on disk, parsed once per (path, mtime); undefined when unreadable or unparseable. */
export function loadModule(filePath: string): FileIndex | undefined {
  let stats;
  try {
    stats = statSync(filePath);
  } catch {
    return undefined;
  }
  const cached = moduleCache.get(filePath);
  if (cached && cached.mtimeMs === stats.mtimeMs && cached.size === stats.size) return cached.index;
  let index: FileIndex | undefined;
  // A bundle is not followed: a call into it stays unknown (see MAX_SOURCE_FILE_BYTES).
  if (stats.size > MAX_SOURCE_FILE_BYTES) {
    moduleCache.set(filePath, { mtimeMs: stats.mtimeMs, size: stats.size, index: undefined });
    return undefined;
  }
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
    index = buildFileIndex(program, filePath);
  } catch {
    // Unreadable or not valid TS/JS: unknown, never a crash of the linted file.
    index = undefined;
  }
  moduleCache.set(filePath, { mtimeMs: stats.mtimeMs, size: stats.size, index });
  return index;
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

function loadFiltered(modulePath: string | undefined, filter: ModuleFilter | undefined): FileIndex | undefined {
  if (!modulePath || (filter && !filter(modulePath))) return undefined;
  return loadModule(modulePath);
}

/** The function an exported name of `file` stands for, through re-exports and barrels. */
export function resolveExportedFunction(
  file: FileIndex,
  exportedName: string,
  depth = 0,
  filter?: ModuleFilter,
): ResolvedFunction | undefined {
  if (depth > MAX_RE_EXPORT_DEPTH) return undefined;
  const target = file.exports.get(exportedName);
  if (target?.kind === 'local') return resolveLocalName(file, target.local, depth, filter);
  if (target?.kind === 're-export') {
    const next = loadFiltered(resolveRelativeModule(target.from, file.filePath), filter);
    return next ? resolveExportedFunction(next, target.imported, depth + 1, filter) : undefined;
  }
  for (const specifier of file.starExports) {
    const next = loadFiltered(resolveRelativeModule(specifier, file.filePath), filter);
    const resolved = next ? resolveExportedFunction(next, exportedName, depth + 1, filter) : undefined;
    if (resolved) return resolved;
  }
  return undefined;
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

export interface ResolvedClass {
  classNode: ClassNode;
  file: FileIndex;
}

/** The class an exported name of `file` stands for, through re-exports and barrels. */
function resolveExportedClass(file: FileIndex, exportedName: string, depth: number, filter?: ModuleFilter): ResolvedClass | undefined {
  if (depth > MAX_RE_EXPORT_DEPTH) return undefined;
  const target = file.exports.get(exportedName);
  if (target?.kind === 'local') return resolveClassName(file, target.local, depth, filter);
  if (target?.kind === 're-export') {
    const next = loadFiltered(resolveRelativeModule(target.from, file.filePath), filter);
    return next ? resolveExportedClass(next, target.imported, depth + 1, filter) : undefined;
  }
  for (const specifier of file.starExports) {
    const next = loadFiltered(resolveRelativeModule(specifier, file.filePath), filter);
    const resolved = next ? resolveExportedClass(next, exportedName, depth + 1, filter) : undefined;
    if (resolved) return resolved;
  }
  return undefined;
}

/** A class name used in `file` (`new WebContentProcessor(…)`): its own class, or the one a relative import stands for. */
export function resolveClassName(file: FileIndex, name: string, depth = 0, filter?: ModuleFilter): ResolvedClass | undefined {
  const own = file.classes.get(name);
  if (own) return { classNode: own, file };
  const binding = file.imports.get(name);
  if (!binding || binding.imported === '*' || depth > MAX_RE_EXPORT_DEPTH) return undefined;
  const target = loadFiltered(resolveRelativeModule(binding.module, file.filePath), filter);
  return target ? resolveExportedClass(target, binding.imported, depth + 1, filter) : undefined;
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
 * they are never parsed. Cached by path and mtime like parsed modules.
 */
export function mayReachReader(modulePath: string, readerSpelling: RegExp): boolean {
  let cache = reachCaches.get(readerSpelling);
  if (!cache) {
    cache = new Map();
    reachCaches.set(readerSpelling, cache);
  }
  const reachCache = cache;
  const inProgress = new Set<string>();

  function visit(current: string): { reaches: boolean; complete: boolean } {
    let stats;
    try {
      stats = statSync(current);
    } catch {
      return { reaches: false, complete: true };
    }
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

  return visit(modulePath).reaches;
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
  return fn ? { fn, file, classNode: enclosingClass(fn), name: functionName(fn) } : undefined;
}

/** A function's name for a read chain's words (`functionNameOf`), `<anonymous>` when it has none. */
export function functionName(fn: FunctionNode): string {
  return functionNameOf(fn) ?? '<anonymous>';
}

/** How many modules are cached, and how many of them parsed (for benchmarks and tests). */
export function moduleCacheStats(): { modules: number; parsed: number } {
  let parsed = 0;
  for (const entry of moduleCache.values()) if (entry.index) parsed += 1;
  return { modules: moduleCache.size, parsed };
}

/** The paths of the cached modules (benchmarks and tests). */
export function cachedModulePaths(): string[] {
  return [...moduleCache.keys()];
}

/** Forget every parsed module (tests that rewrite fixtures call this). */
export function clearModuleCache(): void {
  moduleCache.clear();
}
