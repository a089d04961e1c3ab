/**
 * What a low-level MCP server lists to the model: the `tools` of its
 * `setRequestHandler(ListToolsRequestSchema, …)` answer. Every entry listed
 * there is a tool the model may call, whatever routes the call
 * (`this.toolRegistry.execute(name, args)`, a registry filled in a loop the
 * analysis cannot read): a definition is a tool because the server shows it,
 * not because a `switch` names it. Servers often keep the definitions in
 * their own modules (`export const confluenceTools = [{ name, description,
 * inputSchema }, …]`) and list them by spreading the imports
 * (`tools: [...confluenceTools, ...jiraTools]`).
 *
 * Cost: the package's files that spell the list request are found from text
 * and parsed once per process; each answer's arrays are resolved once.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { enclosingInitialiser, getCalleeLastName, getStaticKeyName, isFunctionNode, skipTypeWrappers, walk } from './ast.js';
import { namesListToolsRequest } from './call-tool-handlers.js';
import type { FileIndex } from './file-index.js';
import { loadModule, resolveLocalConstant, resolveLocalName } from './module-graph.js';
import { returnedExpressions } from './output-flow.js';
import { nameSpellings, packageRootOf, packageSourceFiles } from './package-files.js';

/** How many modules of constants a listed array is followed through. */
const MAX_LIST_DEPTH = 8;

/**
 * The arrays and the entries the package's list answers name, as `<file>:<start>` (the linted file is
 * parsed apart from the modules loaded here, so an array is known by where it is, not by its node).
 */
const listedByRoot = new Map<string, Set<string>>();

/** Does the list answer of some module of the package list `object`, or the array it stands in? */
export function isListedByServer(object: TSESTree.ObjectExpression, filePath: string): boolean {
  let array: TSESTree.Node | undefined = object.parent;
  while (array && (array.type === AST_NODE_TYPES.TSAsExpression || array.type === AST_NODE_TYPES.TSSatisfiesExpression)) {
    array = array.parent;
  }
  const root = packageRootOf(filePath);
  if (root === undefined) return false;
  let listed = listedByRoot.get(root);
  if (!listed) {
    listed = new Set();
    for (const candidate of packageSourceFiles(root)) {
      if (!nameSpellings(candidate)?.listsTools) continue;
      const file = loadModule(candidate);
      if (file) collectListedArrays(file, listed);
    }
    listedByRoot.set(root, listed);
  }
  return (
    listed.has(arrayKey(filePath, object)) || (array?.type === AST_NODE_TYPES.ArrayExpression && listed.has(arrayKey(filePath, array)))
  );
}

function arrayKey(filePath: string, array: TSESTree.Node): string {
  return `${filePath}:${array.range[0]}`;
}

/** The arrays each list answer of `file` names, into `listed`. */
function collectListedArrays(file: FileIndex, listed: Set<string>): void {
  walk(file.program, (node) => {
    if (node.type !== AST_NODE_TYPES.CallExpression || getCalleeLastName(node) !== 'setRequestHandler') return undefined;
    if (!namesListToolsRequest(node.arguments[0])) return undefined;
    const handler = node.arguments[1] ? skipTypeWrappers(node.arguments[1]) : undefined;
    if (!handler || !isFunctionNode(handler)) return undefined;
    for (const returned of returnedExpressions(handler)) {
      const answer = skipTypeWrappers(returned);
      if (answer.type !== AST_NODE_TYPES.ObjectExpression) continue;
      for (const property of answer.properties) {
        if (property.type !== AST_NODE_TYPES.Property || getStaticKeyName(property.key, property.computed) !== 'tools') continue;
        addListed(property.value, file, listed, 0);
      }
    }
    return undefined;
  });
}

/** Array methods whose answer lists (some of) the receiver's entries: `BASE_TOOLS.filter(isEnabled)`. */
const LIST_KEEPING_METHODS = new Set(['filter', 'slice', 'map', 'concat', 'sort', 'toSorted', 'flat']);

/**
 * `[…confluenceTools, ...jiraTools]`, `allTools`, `[readTool, writeTool]`, `buildToolList(options)`,
 * `BASE_TOOLS.filter(isEnabled)`: the arrays and the entries `value` lists, followed into the functions
 * and modules they come from.
 */
function addListed(value: TSESTree.Node, file: FileIndex, listed: Set<string>, depth: number): void {
  if (depth > MAX_LIST_DEPTH) return;
  const target = skipTypeWrappers(value);
  if (target.type === AST_NODE_TYPES.ArrayExpression) {
    listed.add(arrayKey(file.filePath, target));
    for (const element of target.elements) {
      if (element?.type === AST_NODE_TYPES.SpreadElement) addListed(element.argument, file, listed, depth + 1);
      else if (element) addListedEntry(element, file, listed, depth);
    }
  } else if (target.type === AST_NODE_TYPES.Identifier) {
    addListedName(target, file, listed, depth);
  } else if (target.type === AST_NODE_TYPES.CallExpression) {
    addCallAnswer(target, file, listed, depth);
  }
}

/** An entry of a listed array (`readTool`, `{ name, … }`): the definition object it is, listed on its own. */
function addListedEntry(entry: TSESTree.Node, file: FileIndex, listed: Set<string>, depth: number): void {
  const target = skipTypeWrappers(entry);
  if (target.type === AST_NODE_TYPES.ObjectExpression) listed.add(arrayKey(file.filePath, target));
  else if (target.type === AST_NODE_TYPES.Identifier && depth <= MAX_LIST_DEPTH) {
    const found = valueOfName(target, file);
    if (found) addListedEntry(found.value, found.file, listed, depth + 1);
  }
}

/**
 * A list the answer builds by a call: the receiver of an array method that keeps entries
 * (`BASE_TOOLS.filter(…)`), or what a function of the package returns (`buildToolList(multiRepo)`).
 */
function addCallAnswer(call: TSESTree.CallExpression, file: FileIndex, listed: Set<string>, depth: number): void {
  const callee = skipTypeWrappers(call.callee);
  if (callee.type === AST_NODE_TYPES.MemberExpression) {
    const method = getStaticKeyName(callee.property, callee.computed);
    if (method === undefined || !LIST_KEEPING_METHODS.has(method)) return;
    addListed(callee.object, file, listed, depth + 1);
    if (method === 'concat') for (const argument of call.arguments) addListed(argument, file, listed, depth + 1);
    return;
  }
  if (callee.type !== AST_NODE_TYPES.Identifier) return;
  const found = resolveLocalName(file, callee.name);
  if (!found) return;
  for (const returned of returnedExpressions(found.fn)) addListed(returned, found.file, listed, depth + 1);
}

/**
 * What a name stands for: the nearest declaration in the blocks around it (a function's own
 * `const tools = […]`), a constant of the module, or what another module of the package exports
 * (through the modules that import and export it again).
 */
function valueOfName(name: TSESTree.Identifier, file: FileIndex): { value: TSESTree.Node; file: FileIndex } | undefined {
  const enclosing = enclosingInitialiser(name);
  if (enclosing) return { value: enclosing, file };
  return resolveLocalConstant(file, name.name);
}

/** The array a name of `file` stands for, and what the code pushes onto it (`tools.push(LIST_REPOS_TOOL)`). */
function addListedName(name: TSESTree.Identifier, file: FileIndex, listed: Set<string>, depth: number): void {
  if (depth > MAX_LIST_DEPTH) return;
  const found = valueOfName(name, file);
  if (!found) return;
  addListed(found.value, found.file, listed, depth + 1);
  const declarator = found.value.parent;
  if (declarator?.type !== AST_NODE_TYPES.VariableDeclarator) return;
  const block = declarator.parent?.parent;
  if (!block) return;
  walk(block, (node) => {
    if (node.type !== AST_NODE_TYPES.CallExpression) return undefined;
    const callee = node.callee;
    if (
      callee.type === AST_NODE_TYPES.MemberExpression &&
      callee.object.type === AST_NODE_TYPES.Identifier &&
      callee.object.name === name.name &&
      getStaticKeyName(callee.property, callee.computed) === 'push'
    ) {
      for (const argument of node.arguments) {
        if (argument.type === AST_NODE_TYPES.SpreadElement) addListed(argument.argument, found.file, listed, depth + 1);
        else addListedEntry(argument, found.file, listed, depth + 1);
      }
    }
    return undefined;
  });
}
