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

import { getCalleeLastName, getStaticKeyName, isFunctionNode, skipTypeWrappers, walk } from './ast.js';
import { namesListToolsRequest } from './call-tool-handlers.js';
import type { FileIndex } from './file-index.js';
import { isOwnModuleSpecifier, loadModule, resolveRelativeModule } from './module-graph.js';
import { returnedExpressions } from './output-flow.js';
import { nameSpellings, packageRootOf, packageSourceFiles } from './package-files.js';

/** How many modules of constants a listed array is followed through. */
const MAX_LIST_DEPTH = 3;

/**
 * The arrays the package's list answers name, as `<file>:<start>` (the linted file is parsed apart
 * from the modules loaded here, so an array is known by where it is, not by its node).
 */
const listedByRoot = new Map<string, Set<string>>();

/** Does the list answer of some module of the package list the array `object` stands in? */
export function isListedByServer(object: TSESTree.ObjectExpression, filePath: string): boolean {
  let array: TSESTree.Node | undefined = object.parent;
  while (array && (array.type === AST_NODE_TYPES.TSAsExpression || array.type === AST_NODE_TYPES.TSSatisfiesExpression)) {
    array = array.parent;
  }
  if (array?.type !== AST_NODE_TYPES.ArrayExpression) return false;
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
  return listed.has(arrayKey(filePath, array));
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

/** `[…confluenceTools, ...jiraTools]`, `allTools`, `[readTool, writeTool]`: the arrays `value` lists, followed into the modules they come from. */
function addListed(value: TSESTree.Node, file: FileIndex, listed: Set<string>, depth: number): void {
  const target = skipTypeWrappers(value);
  if (target.type === AST_NODE_TYPES.ArrayExpression) {
    listed.add(arrayKey(file.filePath, target));
    for (const element of target.elements) {
      if (element?.type === AST_NODE_TYPES.SpreadElement) addListed(element.argument, file, listed, depth + 1);
    }
  } else if (target.type === AST_NODE_TYPES.Identifier) {
    addListedName(target.name, file, listed, depth);
  }
}

/** The array a name of `file` stands for: a constant of the module, or the one another module of the package exports. */
function addListedName(name: string, file: FileIndex, listed: Set<string>, depth: number): void {
  if (depth > MAX_LIST_DEPTH) return;
  const constant = file.constants.get(name);
  if (constant) {
    addListed(constant, file, listed, depth + 1);
    return;
  }
  const binding = file.imports.get(name);
  if (!binding || binding.imported === '*' || !isOwnModuleSpecifier(binding.module)) return;
  const modulePath = resolveRelativeModule(binding.module, file.filePath);
  const imported = modulePath ? loadModule(modulePath) : undefined;
  const exported = imported?.exports.get(binding.imported);
  if (imported && exported?.kind === 'local') addListedName(exported.local, imported, listed, depth + 1);
}
