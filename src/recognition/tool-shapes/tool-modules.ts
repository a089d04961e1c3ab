/**
 * A tool written as a module: the module exports the tool's `handler` and
 * its `schema` (or `inputSchema`), and the harness loads every such module
 * and registers it (XcodeBuildMCP's 82 tools: `const handler =
 * createTypedTool(schema, (params) => logic(params, executor()));
 * export { handler, schema }`). Nothing in the module spells `tool`, a
 * name or a registration; the exports are the contract.
 *
 * The name the model sees comes from a manifest of the package that names
 * the module (`tool-manifests.ts`), else from the file (`get_app_bundle_id.js`
 * → `get_app_bundle_id`); the description, when there is one, from the
 * manifest. The tool is reported at the `handler` declaration. It has no
 * object to hold a classification member, so rules report it without a fix.
 */
import path from 'node:path';

import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { findProperty, getStringValue, moduleLevelDeclaration, namedDeclaratorOf, programOf } from '../ast.js';
import { type FileIndex, programFileIndex, programPath } from '../file-index.js';
import { manifestOfModule } from '../tool-manifests.js';
import { statesContract, toolContract } from '../tool-contract.js';
import { type ToolDefinition, objectLiteralDefinition } from './vocabulary.js';

const HANDLER_EXPORT = 'handler';
const HANDLER_EXPORTS: ReadonlySet<string> = new Set([HANDLER_EXPORT]);
const SCHEMA_EXPORTS = ['schema', 'inputSchema'];

/** The declarator of `const <name> = node`, when `node` is what a declarator named one of `names` holds. */
function declaredAs(node: TSESTree.Node, names: ReadonlySet<string>): TSESTree.VariableDeclarator | undefined {
  const declarator = node.parent;
  return declarator?.type === AST_NODE_TYPES.VariableDeclarator &&
    declarator.init === node &&
    declarator.id.type === AST_NODE_TYPES.Identifier &&
    names.has(declarator.id.name)
    ? declarator
    : undefined;
}

/** `const handler = createTypedTool(…)` at the top of a module that exports `handler` and `schema`. */
export function recogniseToolModuleHandler(call: TSESTree.CallExpression): ToolDefinition | undefined {
  const declarator = declaredAs(call, HANDLER_EXPORTS);
  if (!declarator) return undefined;
  const declaration = declarator.parent;
  const holder = declaration?.parent?.type === AST_NODE_TYPES.ExportNamedDeclaration ? declaration.parent.parent : declaration?.parent;
  const program = programOf(call);
  const filePath = program ? programPath(program) : undefined;
  if (holder?.type !== AST_NODE_TYPES.Program || !program || filePath === undefined) return undefined;
  // The module's index (built once per program) knows its exports and its constants.
  const file = programFileIndex(program, filePath);
  const schemaExport = SCHEMA_EXPORTS.find((name) => file.exports.has(name));
  if (!file.exports.has(HANDLER_EXPORT) || schemaExport === undefined) return undefined;
  const manifest = manifestOfModule(filePath);
  const fileName = path.basename(filePath).replace(/\.[^.]+$/, '');
  const schemaTarget = file.exports.get(schemaExport);
  const schema = schemaTarget?.kind === 'local' ? file.constants.get(schemaTarget.local) : undefined;
  return {
    shape: 'module',
    node: call,
    reportNode: declarator,
    name: manifest?.name ?? fileName,
    host: undefined,
    isMcpRegistration: false,
    handlerArgument: call,
    statedContract: { description: manifest?.description, inputSchema: schema },
  };
}

/** Exports that hold a module tool's contract, and the functions that run it. */
const CONTRACT_EXPORTS = new Set(['metadata', 'definition', 'toolDefinition']);
const INVOCATION_EXPORTS = ['handler', 'execute', 'run'];

/**
 * `export const metadata = { name, description }` in a module that also exports its `handler` (and its
 * `inputSchema`): the harness imports every such module, lists `metadata` and calls `handler` (next-devtools-mcp:
 * `tools.find((t) => t.metadata.name === name).handler(args)`). So is any definition the module exports that
 * states its whole contract (a name, a description and an input schema, in any provider's spelling:
 * `{ name, description, input_schema }`, `{ type: 'function', function: { name, description, parameters } }`)
 * beside the one function that runs it (`export { editFileTool, execute }`): what an SDK hands its users to
 * pass to their model and run on its calls. The module is the tool, reported at its contract. No member of the
 * contract object reaches the server's call path, so rules report it without a fix.
 */
export function recogniseToolModuleMetadata(object: TSESTree.ObjectExpression): ToolDefinition | undefined {
  const declarator = namedDeclaratorOf(object);
  const moduleLevel = declarator ? moduleLevelDeclaration(declarator) : undefined;
  if (!declarator || !moduleLevel) return undefined;
  const { program, exportedInPlace } = moduleLevel;
  const local = declarator.id.name;
  const named = exportedInPlace && CONTRACT_EXPORTS.has(local);
  // Cheap tests first: a description of its own, or a nested provider definition.
  if (!named && !findProperty(object, 'description') && !findProperty(object, 'function')) return undefined;
  const filePath = programPath(program);
  if (filePath === undefined) return undefined;
  const file = programFileIndex(program, filePath);
  const invocationName = firstLocalExport(file, INVOCATION_EXPORTS);
  const invocation = invocationName === undefined ? undefined : file.functions.get(invocationName);
  if (!invocation) return undefined;
  let name: string | undefined;
  if (named) {
    if (findProperty(object, 'description') === undefined) return undefined;
    name = getStringValue(findProperty(object, 'name')?.value);
  } else {
    const exported = [...file.exports.values()].some((target) => target.kind === 'local' && target.local === local);
    if (!exported || !statesContract(object)) return undefined;
    // Read as a plain object: the name it states (its own, or a nested definition's) before its variable's.
    name = toolContract(objectLiteralDefinition('plain-object', object)).name;
  }
  if (name === undefined) return undefined;
  const schemaName = firstLocalExport(file, SCHEMA_EXPORTS);
  const schema = schemaName === undefined ? undefined : file.constants.get(schemaName);
  return {
    shape: 'module',
    node: object,
    reportNode: object,
    name,
    host: undefined,
    contractSource: object,
    isMcpRegistration: false,
    handlerArgument: invocation,
    statedContract: { description: undefined, inputSchema: schema },
  };
}

/** The local name behind the first of `names` the module exports from its own declarations. */
function firstLocalExport(file: FileIndex, names: readonly string[]): string | undefined {
  for (const name of names) {
    const target = file.exports.get(name);
    if (target?.kind === 'local') return target.local;
  }
  return undefined;
}
