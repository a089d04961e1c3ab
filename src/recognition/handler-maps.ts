/**
 * Handler maps keyed by tool name: `export const toolHandlers = { get_component: handleGetComponent, … }`
 * (shadcn-ui's server), `NEON_HANDLERS = { list_projects: async (args) => … }`, looked up
 * with a name the code computes (`const handler = toolHandlers[name]`, `NEON_HANDLERS[tool.name]`).
 *
 * Principle: a module-level object of functions that some file of the package indexes with a
 * computed key is a name-keyed dispatcher, and the value under a tool's name is what runs when
 * the model calls that tool. So is a `Map` of functions built from `[name, handler]` pairs and
 * looked up with `.get(name)` (`toolHandlers = new Map([['new_page', handleNewPage], …])`), or of
 * entries that each carry their handler (`{ web_url_read: { validate, execute: executeUrlRead } }`), also
 * when a bundle assigns it inside its lazy module initialiser rather than declaring it. The lookup and the map are often in different files, and the
 * tool list that names the tools in a third, so the package is indexed once from text: which
 * identifiers some file indexes with a computed key, then which files declare an object
 * constant of that name, parsed only then.
 */
import { readFileSync } from 'node:fs';

import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import {
  type ClassNode,
  type FunctionNode,
  enclosingInitialiser,
  findProperty,
  getStaticKeyName,
  getStringValue,
  isFunctionNode,
  skipTypeWrappers,
  topLevelDeclarators,
  walk,
} from './ast.js';
import type { FileIndex } from './file-index.js';
import { loadModule, moduleText, resolveClassName, resolveLocalName } from './module-graph.js';
import { packageRootOf, packageSourceFiles } from './package-files.js';
import { resolveToolName } from './tool-name.js';

/** One handler of a map: the function under the tool's name, with its file. */
export interface MappedHandler {
  fn: FunctionNode;
  file: FileIndex;
  classNode: ClassNode | undefined;
}

/** `X[name]`, `X[tool.name]`, `X[name as keyof typeof X]`: an identifier indexed with a computed key (not a literal, not a number). */
const COMPUTED_LOOKUP = /\b([A-Za-z_$][\w$]*)\s*\[\s*[A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*)*(?:\s+as\s+[^\]]+)?\s*\]/g;
/** `X.get(name)`, `X.get(tool.name)`: a `Map` looked up with a computed key. */
const COMPUTED_GET = /\b([A-Za-z_$][\w$]*)\s*\.\s*get\s*\(\s*[A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*)*\s*\)/g;

/**
 * `[TOOLS.CODEX]: new CodexToolHandler(…)`: a handler instance under a key spelled with a constant,
 * in a file whose text need not spell the name itself (other files must, to be parsed for it).
 */
const CONSTANT_KEY = /\[\s*[A-Za-z_$][\w$]*\s*\.\s*[A-Za-z_$][\w$]*\s*\]\s*:\s*new\s/;

/** Lower-case one-letter and common non-map names indexed all the time (`args[key]`, `arr[i]`). */
const NOT_A_MAP = /^(?:[a-z]|args|arguments|params|input|options|opts|obj|object|result|results|data|this|process|env|window|globalThis)$/;

function readText(filePath: string): string | undefined {
  try {
    return readFileSync(filePath, 'utf8');
  } catch {
    return undefined;
  }
}

/** One key and value of a handler map: an object's property, or a `[key, value]` pair of `new Map([…])`. */
interface MapEntry {
  key: string | undefined;
  value: TSESTree.Node;
}

/** A handler map as written: an object literal, or `new Map([[key, value], …])`. */
type HandlerMapNode = TSESTree.ObjectExpression | TSESTree.NewExpression;

/**
 * The arrays or objects a spread may add, in either branch of a condition
 * (`...(args.enableScript ? [['evaluate_script', handleEvaluateScript]] : [])`): tools behind a flag.
 */
function spreadBranches(node: TSESTree.Node): TSESTree.Node[] {
  const target = skipTypeWrappers(node);
  if (target.type === AST_NODE_TYPES.ConditionalExpression)
    return [...spreadBranches(target.consequent), ...spreadBranches(target.alternate)];
  if (target.type === AST_NODE_TYPES.LogicalExpression) return spreadBranches(target.right);
  return [target];
}

function objectEntries(object: TSESTree.ObjectExpression, depth: number): MapEntry[] {
  return object.properties.flatMap((property): MapEntry[] => {
    if (property.type === AST_NODE_TYPES.Property) {
      // `[TOOLS.CODEX]: …`: a key the code spells with a constant of its own or of another module.
      const key = getStaticKeyName(property.key, property.computed) ?? (property.computed ? resolveToolName(property.key) : undefined);
      return [{ key, value: property.value }];
    }
    if (depth > 2) return [];
    return spreadBranches(property.argument).flatMap((branch) => {
      // `{ ...toolHandlers, queue_jira_operations: … }`: a map declared beside it, spread in.
      const spread = branch.type === AST_NODE_TYPES.Identifier ? objectDeclaredBeside(branch) : branch;
      return spread?.type === AST_NODE_TYPES.ObjectExpression ? objectEntries(spread, depth + 1) : [];
    });
  });
}

/** The object literal a `const` of an enclosing block (or the module) declares under `identifier`'s name. */
function objectDeclaredBeside(identifier: TSESTree.Identifier): TSESTree.ObjectExpression | undefined {
  for (let current: TSESTree.Node | undefined = identifier.parent; current; current = current.parent) {
    if (current.type !== AST_NODE_TYPES.BlockStatement && current.type !== AST_NODE_TYPES.Program) continue;
    for (const statement of current.body) {
      if (statement.type !== AST_NODE_TYPES.VariableDeclaration || statement.kind !== 'const') continue;
      for (const declarator of statement.declarations) {
        if (declarator.id.type !== AST_NODE_TYPES.Identifier || declarator.id.name !== identifier.name) continue;
        const init = declarator.init ? skipTypeWrappers(declarator.init) : undefined;
        return init?.type === AST_NODE_TYPES.ObjectExpression ? init : undefined;
      }
    }
  }
  return undefined;
}

function pairEntries(list: TSESTree.ArrayExpression, depth: number): MapEntry[] {
  return list.elements.flatMap((element): MapEntry[] => {
    if (!element) return [];
    if (element.type === AST_NODE_TYPES.SpreadElement) {
      if (depth > 2) return [];
      return spreadBranches(element.argument).flatMap((branch) =>
        branch.type === AST_NODE_TYPES.ArrayExpression ? pairEntries(branch, depth + 1) : [],
      );
    }
    const pair = skipTypeWrappers(element);
    if (pair.type !== AST_NODE_TYPES.ArrayExpression || pair.elements.length !== 2) return [];
    const [key, value] = pair.elements;
    if (!key || !value || key.type === AST_NODE_TYPES.SpreadElement || value.type === AST_NODE_TYPES.SpreadElement) return [];
    return [{ key: getStringValue(key), value }];
  });
}

function mapEntries(map: HandlerMapNode): MapEntry[] {
  if (map.type === AST_NODE_TYPES.ObjectExpression) return objectEntries(map, 0);
  const [pairs] = map.arguments;
  const list = pairs ? skipTypeWrappers(pairs) : undefined;
  return list?.type === AST_NODE_TYPES.ArrayExpression ? pairEntries(list, 0) : [];
}

/** `{…}` or `new Map([…])`: a value that may be a handler map. */
function asHandlerMapNode(node: TSESTree.Node | null | undefined): HandlerMapNode | undefined {
  const target = node ? skipTypeWrappers(node) : undefined;
  if (target?.type === AST_NODE_TYPES.ObjectExpression) return target;
  if (target?.type === AST_NODE_TYPES.NewExpression && target.callee.type === AST_NODE_TYPES.Identifier && target.callee.name === 'Map') {
    return target;
  }
  return undefined;
}

/**
 * Is this a map of handlers: at least half its values are functions or name one? A map of
 * anything else (descriptions, schemas) is no dispatcher; one of functions may hold a few values
 * built by a call. Judged from the syntax; only the value under a wanted name is resolved.
 */
function isHandlerMap(map: HandlerMapNode): boolean {
  const entries = mapEntries(map);
  let functions = 0;
  for (const { value } of entries) {
    const target = skipTypeWrappers(value);
    if (
      isFunctionNode(target) ||
      target.type === AST_NODE_TYPES.Identifier ||
      handlerInstanceClass(target) !== undefined ||
      handlerMember(target) !== undefined
    )
      functions += 1;
  }
  return functions > 0 && functions * 2 >= entries.length;
}

/**
 * The methods a handler object runs a call with, when the map holds instances of handler classes
 * (`{ [TOOLS.CODEX]: new CodexToolHandler(storage) }`, looked up then `handler.execute(args, context)`).
 */
const HANDLER_METHODS = ['execute', 'handle', 'run', 'call', 'invoke', 'handler', 'process', '_call'];

/** `new CodexToolHandler(…)`: the class a map value makes an instance of. */
function handlerInstanceClass(value: TSESTree.Node): string | undefined {
  return value.type === AST_NODE_TYPES.NewExpression && value.callee.type === AST_NODE_TYPES.Identifier && value.callee.name !== 'Map'
    ? value.callee.name
    : undefined;
}

/** The invocation method of the handler class a map value makes an instance of, in its file or the module it imports. */
function instanceHandler(value: TSESTree.Node, file: FileIndex): MappedHandler | undefined {
  const className = handlerInstanceClass(value);
  const resolved = className === undefined ? undefined : resolveClassName(file, className);
  if (!resolved) return undefined;
  for (const name of HANDLER_METHODS) {
    const method = resolved.classNode.body.body.find(
      (member): member is TSESTree.MethodDefinition =>
        member.type === AST_NODE_TYPES.MethodDefinition && !member.static && getStaticKeyName(member.key, member.computed) === name,
    );
    if (method && isFunctionNode(method.value)) return { fn: method.value, file: resolved.file, classNode: resolved.classNode };
  }
  return undefined;
}

/** The function a handler map holds under `name`, resolved in its file (or the module it imports it from). */
function handlerUnder(map: HandlerMapNode, name: string, file: FileIndex): MappedHandler | undefined {
  const entry = mapEntries(map).find((candidate) => candidate.key === name);
  return entry ? handlerOfValue(entry.value, file) : undefined;
}

/**
 * `{ validate: isWebUrlReadArgs, execute: executeUrlRead }`: a map value that is an entry of its
 * own, its handler under one of the invocation methods (mcp-searxng's `TOOL_DEFINITIONS[name].execute(…)`).
 */
function handlerMember(value: TSESTree.Node): TSESTree.Node | undefined {
  if (value.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
  for (const name of HANDLER_METHODS) {
    const member = findProperty(value, name);
    const target = member ? skipTypeWrappers(member.value) : undefined;
    if (target && (isFunctionNode(target) || target.type === AST_NODE_TYPES.Identifier)) return target;
  }
  return undefined;
}

/**
 * The function a handler map's value runs, resolved in `file` (or the module it imports it from):
 * the function itself, the one it names, a handler instance's invocation method, or an entry's
 * handler member.
 */
export function handlerOfValue(node: TSESTree.Node, file: FileIndex): MappedHandler | undefined {
  const value = skipTypeWrappers(node);
  if (isFunctionNode(value)) return { fn: value, file, classNode: undefined };
  if (value.type === AST_NODE_TYPES.NewExpression) return instanceHandler(value, file);
  const member = handlerMember(value);
  if (member) return handlerOfValue(member, file);
  if (value.type !== AST_NODE_TYPES.Identifier) return undefined;
  const resolved = resolveLocalName(file, value.name);
  return resolved ? { fn: resolved.fn, file: resolved.file, classNode: resolved.classNode } : undefined;
}

/**
 * The maps a module declares at its top (`const`, `let` or a bundle's `var`, exported or not), by
 * name, then those a function declares for itself (`const handlers = { get_branch: (a) =>
 * branches.handleGetBranch(a), … }` in a server's constructor, looked up there with
 * `handlers[definition.name]`), and those it assigns to a variable anywhere (`toolHandlers = new
 * Map([…])` in a bundle's lazy initialiser), walked only when the text spells such an assignment.
 * A name declared at the top wins over the same name inside a function.
 */
const mapsByProgram = new WeakMap<TSESTree.Program, Map<string, HandlerMapNode>>();
const MAP_ASSIGNMENT = /[\w$]\s*=\s*new\s+Map\s*\(\s*\[/;

function moduleMaps(program: TSESTree.Program): Map<string, HandlerMapNode> {
  let maps = mapsByProgram.get(program);
  if (maps) return maps;
  const found = new Map<string, HandlerMapNode>();
  for (const declarator of topLevelDeclarators(program)) {
    const map = asHandlerMapNode(declarator.init);
    if (declarator.id.type === AST_NODE_TYPES.Identifier && map && !found.has(declarator.id.name)) found.set(declarator.id.name, map);
  }
  // One walk for the maps declared in functions and those assigned anywhere; in that order of precedence.
  const declaredInFunctions = new Map<string, HandlerMapNode>();
  const assigned = new Map<string, HandlerMapNode>();
  const text = moduleText(program);
  const spellsAssignment = text !== undefined && MAP_ASSIGNMENT.test(text);
  walk(program, (node) => {
    if (node.type === AST_NODE_TYPES.VariableDeclarator && node.id.type === AST_NODE_TYPES.Identifier) {
      if (node.init?.type === AST_NODE_TYPES.ObjectExpression && !declaredInFunctions.has(node.id.name)) {
        declaredInFunctions.set(node.id.name, node.init);
      }
    } else if (
      spellsAssignment &&
      node.type === AST_NODE_TYPES.AssignmentExpression &&
      node.operator === '=' &&
      node.left.type === AST_NODE_TYPES.Identifier
    ) {
      const map = asHandlerMapNode(node.right);
      if (map?.type === AST_NODE_TYPES.NewExpression && !assigned.has(node.left.name)) assigned.set(node.left.name, map);
    }
    return undefined;
  });
  for (const more of [declaredInFunctions, assigned]) {
    for (const [name, map] of more) if (!found.has(name)) found.set(name, map);
  }
  maps = found;
  mapsByProgram.set(program, maps);
  return maps;
}

/** The handlers the looked-up maps of one parsed module hold under `name`. */
function handlersIn(file: FileIndex, lookedUp: ReadonlySet<string>, name: string): MappedHandler[] {
  const found: MappedHandler[] = [];
  for (const [mapName, map] of moduleMaps(file.program)) {
    if (!lookedUp.has(mapName) || !isHandlerMap(map)) continue;
    const handler = handlerUnder(map, name, file);
    if (handler) found.push(handler);
  }
  return found;
}

/** The identifiers a text indexes with a computed key, less the names that are no map. */
function lookedUpNames(text: string, into = new Set<string>()): Set<string> {
  for (const pattern of [COMPUTED_LOOKUP, COMPUTED_GET]) {
    for (const match of text.matchAll(pattern)) if (!NOT_A_MAP.test(match[1]!)) into.add(match[1]!);
  }
  return into;
}

/** Identifiers as one regular-expression alternation (`$` escaped). */
function alternation(names: ReadonlySet<string>): string {
  return [...names].map((name) => name.replace(/\$/g, '\\$')).join('|');
}

/**
 * `registry.registerModule({ tools: networkTools, handlers: networkToolHandlers })` beside
 * `module.handlers[tool.name]`: a map handed on under a key the package looks up with a computed
 * name is looked up itself. The names handed under a looked-up key, added to `lookedUp`.
 */
function handedUnderLookedUpKeys(texts: Iterable<string>, lookedUp: Set<string>): void {
  if (lookedUp.size === 0) return;
  const handed = new RegExp(`(?<![\\w$.])(?:${alternation(lookedUp)})\\s*:\\s*([A-Za-z_$][\\w$]*)\\s*(?=[,}\\r\\n])`, 'g');
  const found: string[] = [];
  for (const text of texts) for (const match of text.matchAll(handed)) if (!NOT_A_MAP.test(match[1]!)) found.push(match[1]!);
  for (const name of found) lookedUp.add(name);
}

/** A package's texts, the names its files index with a computed key, and the handlers found per tool name. */
interface PackageMaps {
  texts: Map<string, string>;
  lookedUp: Set<string>;
  /** `const|let|var <looked-up name> = {` (or `= new Map([`): the files that may declare a map; undefined when nothing is looked up. */
  declaration: RegExp | undefined;
  byName: Map<string, MappedHandler[]>;
}

const mapsByRoot = new Map<string, PackageMaps>();

function packageMaps(root: string): PackageMaps {
  const known = mapsByRoot.get(root);
  if (known) return known;
  const texts = new Map<string, string>();
  const lookedUp = new Set<string>();
  for (const file of packageSourceFiles(root)) {
    const text = readText(file);
    if (text === undefined) continue;
    texts.set(file, text);
    lookedUpNames(text, lookedUp);
  }
  handedUnderLookedUpKeys(texts.values(), lookedUp);
  const names = alternation(lookedUp);
  const declaration =
    lookedUp.size === 0
      ? undefined
      : new RegExp(`\\b(?:(?:const|let|var)\\s+(?:${names})\\s*=\\s*\\{|(?:${names})\\s*=\\s*new\\s+Map\\s*\\(\\s*\\[)`);
  const maps = { texts, lookedUp, declaration, byName: new Map<string, MappedHandler[]>() };
  mapsByRoot.set(root, maps);
  return maps;
}

/** The maps of one file, looked up in that same file (a bundle, which the package listing leaves out). */
const ownLookupsByProgram = new WeakMap<TSESTree.Program, Set<string>>();

function ownHandlers(file: FileIndex, name: string): MappedHandler[] {
  let lookedUp = ownLookupsByProgram.get(file.program);
  if (!lookedUp) {
    const text = moduleText(file.program);
    lookedUp = text === undefined ? new Set<string>() : lookedUpNames(text);
    if (text !== undefined) handedUnderLookedUpKeys([text], lookedUp);
    ownLookupsByProgram.set(file.program, lookedUp);
  }
  return lookedUp.size === 0 ? [] : handlersIn(file, lookedUp, name);
}

/**
 * The functions the package's name-keyed handler maps hold under `name` (see the module comment):
 * those of the linted file itself (`linted`), else those of the package's other files. Only files
 * whose text spells the name and declares a looked-up object are parsed.
 */
export function mappedHandlersNamed(name: string, filePath: string, linted?: FileIndex): readonly MappedHandler[] {
  const own = linted ? ownHandlers(linted, name) : [];
  if (own.length > 0) return own;
  const root = packageRootOf(filePath);
  if (root === undefined) return [];
  const maps = packageMaps(root);
  const known = maps.byName.get(name);
  if (known) return known;
  const found: MappedHandler[] = [];
  if (maps.declaration) {
    for (const [candidate, text] of maps.texts) {
      if ((!text.includes(name) && !CONSTANT_KEY.test(text)) || !maps.declaration.test(text)) continue;
      const file = loadModule(candidate);
      if (file) found.push(...handlersIn(file, maps.lookedUp, name));
    }
  }
  maps.byName.set(name, found);
  return found;
}

/** How many values of a map looked up inside a tool are followed: an action map, not a registry of hundreds. */
const MAX_LOOKUP_HANDLERS = 40;

/** `NODE_ACTIONS[action]`, `handlers.get(op)`: the map a computed lookup indexes, by its name. */
function lookedUpMapName(node: TSESTree.Node | undefined): string | undefined {
  const target = node ? skipTypeWrappers(node) : undefined;
  if (target?.type === AST_NODE_TYPES.MemberExpression && target.computed && target.object.type === AST_NODE_TYPES.Identifier) {
    return target.property.type === AST_NODE_TYPES.Literal ? undefined : target.object.name;
  }
  if (
    target?.type === AST_NODE_TYPES.CallExpression &&
    target.callee.type === AST_NODE_TYPES.MemberExpression &&
    !target.callee.computed &&
    target.callee.object.type === AST_NODE_TYPES.Identifier &&
    getStaticKeyName(target.callee.property, false) === 'get'
  ) {
    return target.callee.object.name;
  }
  return undefined;
}

/**
 * The functions a call through a computed lookup may run: `const handler = NODE_ACTIONS[action]; handler(projectPath,
 * args)`, `ACTIONS[action](args)` on a map of the module. Principle: a tool that dispatches its own actions through
 * a map runs one of the map's functions, so what any of them reads and returns is what the tool may hand back.
 */
export function handlersOfLookup(call: TSESTree.CallExpression | TSESTree.NewExpression, file: FileIndex): MappedHandler[] {
  if (call.type !== AST_NODE_TYPES.CallExpression) return [];
  const callee = skipTypeWrappers(call.callee);
  const lookup = callee.type === AST_NODE_TYPES.Identifier ? enclosingInitialiser(callee) : callee;
  const mapName = lookedUpMapName(lookup);
  const map = mapName === undefined ? undefined : moduleMaps(file.program).get(mapName);
  if (!map || !isHandlerMap(map)) return [];
  const entries = mapEntries(map);
  if (entries.length > MAX_LOOKUP_HANDLERS) return [];
  return entries.flatMap(({ value }) => {
    const handler = handlerOfValue(value, file);
    return handler ? [handler] : [];
  });
}

/** Forget the indexed maps (tests that rewrite a package's files). */
export function clearHandlerMapCache(): void {
  mapsByRoot.clear();
}
