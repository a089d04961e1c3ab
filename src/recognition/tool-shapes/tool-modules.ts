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

import { programOf } from '../ast.js';
import { programFileIndex, programPath } from '../file-index.js';
import { manifestOfModule } from '../tool-manifests.js';
import type { ToolDefinition } from './vocabulary.js';

const HANDLER_EXPORT = 'handler';
const SCHEMA_EXPORTS = ['schema', 'inputSchema'];

/** `const handler = createTypedTool(…)` at the top of a module that exports `handler` and `schema`. */
export function recogniseToolModuleHandler(call: TSESTree.CallExpression): ToolDefinition | undefined {
  const declarator = call.parent;
  if (
    declarator?.type !== AST_NODE_TYPES.VariableDeclarator ||
    declarator.init !== call ||
    declarator.id.type !== AST_NODE_TYPES.Identifier ||
    declarator.id.name !== HANDLER_EXPORT
  ) {
    return undefined;
  }
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
