/**
 * Handler maps keyed by tool name: `export const toolHandlers = { get_component: handleGetComponent, … }`
 * (shadcn-ui's server), `NEON_HANDLERS = { list_projects: async (args) => … }`, looked up
 * with a name the code computes (`const handler = toolHandlers[name]`, `NEON_HANDLERS[tool.name]`).
 *
 * Principle: a module-level object of functions that some file of the package indexes with a
 * computed key is a name-keyed dispatcher, and the value under a tool's name is what runs when
 * the model calls that tool. The lookup and the map are often in different files, and the
 * tool list that names the tools in a third, so the package is indexed once from text: which
 * identifiers some file indexes with a computed key, then which files declare an object
 * constant of that name, parsed only then.
 */
import { readFileSync } from 'node:fs';

import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type ClassNode, type FunctionNode, getStaticKeyName, isFunctionNode, skipTypeWrappers } from './ast.js';
import type { FileIndex } from './file-index.js';
import { loadModule, moduleText, resolveLocalName } from './module-graph.js';
import { packageRootOf, packageSourceFiles } from './package-files.js';

/** One handler of a map: the function under the tool's name, with its file. */
export interface MappedHandler {
  fn: FunctionNode;
  file: FileIndex;
  classNode: ClassNode | undefined;
}

/** `X[name]`, `X[tool.name]`, `X[name as keyof typeof X]`: an identifier indexed with a computed key (not a literal, not a number). */
const COMPUTED_LOOKUP = /\b([A-Za-z_$][\w$]*)\s*\[\s*[A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*)*(?:\s+as\s+[^\]]+)?\s*\]/g;

/** Lower-case one-letter and common non-map names indexed all the time (`args[key]`, `arr[i]`). */
const NOT_A_MAP = /^(?:[a-z]|args|arguments|params|input|options|opts|obj|object|result|results|data|this|process|env|window|globalThis)$/;

function readText(filePath: string): string | undefined {
  try {
    return readFileSync(filePath, 'utf8');
  } catch {
    return undefined;
  }
}

/** The handler maps of a package by tool name, built once per package root. */
const mapsByRoot = new Map<string, Map<string, MappedHandler[]>>();

function handlersOfMap(object: TSESTree.ObjectExpression, file: FileIndex, into: Map<string, MappedHandler[]>): void {
  const handlers: [string, MappedHandler][] = [];
  for (const property of object.properties) {
    if (property.type !== AST_NODE_TYPES.Property) continue;
    const key = getStaticKeyName(property.key, property.computed);
    if (key === undefined) continue;
    const value = skipTypeWrappers(property.value);
    let handler: MappedHandler | undefined;
    if (isFunctionNode(value)) handler = { fn: value, file, classNode: undefined };
    else if (value.type === AST_NODE_TYPES.Identifier) {
      const resolved = resolveLocalName(file, value.name);
      if (resolved) handler = { fn: resolved.fn, file: resolved.file, classNode: resolved.classNode };
    }
    if (handler) handlers.push([key, handler]);
  }
  // A map of anything else (descriptions, schemas) is no dispatcher; one of functions may hold a few
  // values the lint cannot resolve (a handler built by a call).
  if (handlers.length === 0 || handlers.length * 2 < object.properties.length) return;
  for (const [key, handler] of handlers) into.set(key, [...(into.get(key) ?? []), handler]);
}

/** The objects a module's top declares (`const`, `let` or a bundle's `var`, exported or not), by name. */
function moduleObjects(program: TSESTree.Program): Map<string, TSESTree.ObjectExpression> {
  const objects = new Map<string, TSESTree.ObjectExpression>();
  for (const statement of program.body) {
    const declaration = statement.type === AST_NODE_TYPES.ExportNamedDeclaration ? statement.declaration : statement;
    if (declaration?.type !== AST_NODE_TYPES.VariableDeclaration) continue;
    for (const declarator of declaration.declarations) {
      const init = declarator.init ? skipTypeWrappers(declarator.init) : undefined;
      if (
        declarator.id.type === AST_NODE_TYPES.Identifier &&
        init?.type === AST_NODE_TYPES.ObjectExpression &&
        !objects.has(declarator.id.name)
      ) {
        objects.set(declarator.id.name, init);
      }
    }
  }
  return objects;
}

function buildMaps(root: string): Map<string, MappedHandler[]> {
  const files = packageSourceFiles(root);
  const texts = new Map<string, string>();
  const lookedUp = new Set<string>();
  for (const file of files) {
    const text = readText(file);
    if (text === undefined) continue;
    texts.set(file, text);
    lookedUpNames(text, lookedUp);
  }
  const handlers = new Map<string, MappedHandler[]>();
  if (lookedUp.size === 0) return handlers;
  const names = [...lookedUp].map((name) => name.replace(/\$/g, '\\$')).join('|');
  const declaration = new RegExp(`\\b(?:const|let|var)\\s+(?:${names})\\s*=\\s*\\{`);
  for (const [filePath, text] of texts) {
    if (!declaration.test(text)) continue;
    const file = loadModule(filePath);
    if (!file) continue;
    for (const [name, object] of moduleObjects(file.program)) if (lookedUp.has(name)) handlersOfMap(object, file, handlers);
  }
  return handlers;
}

/** The identifiers a text indexes with a computed key, less the names that are no map. */
function lookedUpNames(text: string, into = new Set<string>()): Set<string> {
  for (const match of text.matchAll(COMPUTED_LOOKUP)) if (!NOT_A_MAP.test(match[1]!)) into.add(match[1]!);
  return into;
}

/** The maps of one file, looked up in that same file (a bundle, which the package listing leaves out). */
const ownMapsByProgram = new WeakMap<TSESTree.Program, Map<string, MappedHandler[]>>();

function ownMaps(file: FileIndex): Map<string, MappedHandler[]> {
  let maps = ownMapsByProgram.get(file.program);
  if (maps) return maps;
  maps = new Map();
  const text = moduleText(file.program);
  const lookedUp = text === undefined ? new Set<string>() : lookedUpNames(text);
  for (const [name, object] of moduleObjects(file.program)) if (lookedUp.has(name)) handlersOfMap(object, file, maps);
  ownMapsByProgram.set(file.program, maps);
  return maps;
}

/**
 * The functions the package's name-keyed handler maps hold under `name` (see the module comment):
 * those of the linted file itself (`linted`), else those of the package's other files.
 */
export function mappedHandlersNamed(name: string, filePath: string, linted?: FileIndex): readonly MappedHandler[] {
  const own = linted ? ownMaps(linted).get(name) : undefined;
  if (own) return own;
  const root = packageRootOf(filePath);
  if (root === undefined) return [];
  let maps = mapsByRoot.get(root);
  if (!maps) mapsByRoot.set(root, (maps = buildMaps(root)));
  return maps.get(name) ?? [];
}

/** Forget the indexed maps (tests that rewrite a package's files). */
export function clearHandlerMapCache(): void {
  mapsByRoot.clear();
}
