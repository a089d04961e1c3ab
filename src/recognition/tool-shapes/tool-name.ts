/**
 * The name a tool has for the model, when the code spells it through a
 * constant: `'read_file'`, `READ = 'read_file'`, `ToolName.Read` (a `const`
 * object or an `enum` of the same file), or `override || 'read_file'` (the
 * default name the model sees unless a caller renames it). Messages must show
 * this value, never the variable that holds it, or the user cannot find which
 * tool a report is about.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { getMemberPath, getStaticKeyName, getStringValue, programOf, skipTypeWrappers } from '../ast.js';

/** Top-level string constants of one program, by dotted name (`READ`, `ToolName.Read`). */
const constantsByProgram = new WeakMap<TSESTree.Program, Map<string, string>>();

function addObjectConstants(prefix: string, object: TSESTree.ObjectExpression, into: Map<string, string>): void {
  for (const property of object.properties) {
    if (property.type !== AST_NODE_TYPES.Property) continue;
    const key = getStaticKeyName(property.key, property.computed);
    const value = getStringValue(property.value);
    if (key !== undefined && value !== undefined) into.set(`${prefix}.${key}`, value);
  }
}

function collectDeclaration(statement: TSESTree.Node, into: Map<string, string>): void {
  if (statement.type === AST_NODE_TYPES.ExportNamedDeclaration && statement.declaration) {
    collectDeclaration(statement.declaration, into);
    return;
  }
  if (statement.type === AST_NODE_TYPES.VariableDeclaration && statement.kind === 'const') {
    for (const declarator of statement.declarations) {
      if (declarator.id.type !== AST_NODE_TYPES.Identifier || !declarator.init) continue;
      const init = skipTypeWrappers(declarator.init);
      const value = getStringValue(init);
      if (value !== undefined) into.set(declarator.id.name, value);
      else if (init.type === AST_NODE_TYPES.ObjectExpression) addObjectConstants(declarator.id.name, init, into);
    }
    return;
  }
  if (statement.type === AST_NODE_TYPES.TSEnumDeclaration) {
    for (const member of statement.body.members) {
      const key = getStaticKeyName(member.id, member.computed);
      const value = getStringValue(member.initializer);
      if (key !== undefined && value !== undefined) into.set(`${statement.id.name}.${key}`, value);
    }
  }
}

function programConstants(program: TSESTree.Program): Map<string, string> {
  let constants = constantsByProgram.get(program);
  if (!constants) {
    constants = new Map();
    for (const statement of program.body) collectDeclaration(statement, constants);
    constantsByProgram.set(program, constants);
  }
  return constants;
}

/** The string value of `node` as the model sees it, when the code decides it statically. */
export function resolveToolName(node: TSESTree.Node | null | undefined): string | undefined {
  if (!node) return undefined;
  const target = skipTypeWrappers(node);
  const literal = getStringValue(target);
  if (literal !== undefined) return literal;
  if (target.type === AST_NODE_TYPES.LogicalExpression && target.operator !== '&&') return resolveToolName(target.right);
  const path = getMemberPath(target);
  if (!path) return undefined;
  const program = programOf(target);
  return program ? programConstants(program).get(path.join('.')) : undefined;
}

/**
 * Can `node` hold a tool's name? A string, a constant, a member, a template,
 * or a renamable default (`override || 'read_file'`).
 */
export function mayHoldToolName(node: TSESTree.Node): boolean {
  const target = skipTypeWrappers(node);
  if (getStringValue(target) !== undefined) return true;
  if (target.type === AST_NODE_TYPES.LogicalExpression && target.operator !== '&&') {
    return getStringValue(target.right) !== undefined;
  }
  return (
    target.type === AST_NODE_TYPES.Identifier ||
    target.type === AST_NODE_TYPES.MemberExpression ||
    target.type === AST_NODE_TYPES.TemplateLiteral
  );
}
