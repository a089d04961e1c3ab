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

import { getStaticKeyName, programOf } from '../ast.js';
import { programPath } from '../file-index.js';
import { manifestOfModule } from '../tool-manifests.js';
import type { ToolDefinition } from './vocabulary.js';

const HANDLER_EXPORT = 'handler';
const SCHEMA_EXPORTS = ['schema', 'inputSchema'];

/** The names a module exports: `export const x`, `export function x`, `export { x, y as z }`. */
function exportedNames(program: TSESTree.Program): Set<string> {
  const names = new Set<string>();
  for (const statement of program.body) {
    if (statement.type !== AST_NODE_TYPES.ExportNamedDeclaration) continue;
    for (const specifier of statement.specifiers) {
      const exported = getStaticKeyName(specifier.exported, false);
      if (exported !== undefined) names.add(exported);
    }
    const declaration = statement.declaration;
    if (declaration?.type === AST_NODE_TYPES.VariableDeclaration) {
      for (const declarator of declaration.declarations)
        if (declarator.id.type === AST_NODE_TYPES.Identifier) names.add(declarator.id.name);
    } else if (declaration?.type === AST_NODE_TYPES.FunctionDeclaration && declaration.id) names.add(declaration.id.name);
  }
  return names;
}

const exportsByProgram = new WeakMap<TSESTree.Program, Set<string>>();

/** The module-level `const <name> = …` of `program`: its initialiser. */
function moduleConstant(program: TSESTree.Program, name: string): TSESTree.Expression | undefined {
  for (const statement of program.body) {
    const declaration = statement.type === AST_NODE_TYPES.ExportNamedDeclaration ? statement.declaration : statement;
    if (declaration?.type !== AST_NODE_TYPES.VariableDeclaration) continue;
    for (const declarator of declaration.declarations) {
      if (declarator.id.type === AST_NODE_TYPES.Identifier && declarator.id.name === name && declarator.init) return declarator.init;
    }
  }
  return undefined;
}

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
  if (holder?.type !== AST_NODE_TYPES.Program || !program) return undefined;
  let exported = exportsByProgram.get(program);
  if (!exported) exportsByProgram.set(program, (exported = exportedNames(program)));
  const schemaExport = SCHEMA_EXPORTS.find((name) => exported.has(name));
  if (!exported.has(HANDLER_EXPORT) || schemaExport === undefined) return undefined;
  const filePath = programPath(program);
  const manifest = filePath === undefined ? undefined : manifestOfModule(filePath);
  const fileName = filePath === undefined ? undefined : path.basename(filePath).replace(/\.[^.]+$/, '');
  const schema = moduleConstant(program, schemaExport);
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
