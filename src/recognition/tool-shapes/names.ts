/**
 * The name the model sees, when the code gives it as a literal or through a
 * constant (`name: READ_TOOL_NAME`, `const READ_TOOL_NAME = 'read'`):
 * messages must show `read`, never the constant, or the user cannot tell
 * which tool a report is about.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { findProperty, getStringValue, skipTypeWrappers } from '../ast.js';

/** The string `node` holds: a literal, or an identifier bound to one in an enclosing block or the module. */
export function resolveStaticName(node: TSESTree.Node | null | undefined): string | undefined {
  if (!node) return undefined;
  const literal = getStringValue(node);
  if (literal !== undefined) return literal;
  const target = skipTypeWrappers(node);
  if (target.type !== AST_NODE_TYPES.Identifier) return undefined;
  for (let scope: TSESTree.Node | undefined = target.parent; scope; scope = scope.parent) {
    if (scope.type !== AST_NODE_TYPES.Program && scope.type !== AST_NODE_TYPES.BlockStatement) continue;
    for (const statement of scope.body) {
      const declaration = statement.type === AST_NODE_TYPES.ExportNamedDeclaration ? statement.declaration : statement;
      // `var` too: bundlers (esbuild, rollup) turn module constants into `var`.
      if (declaration?.type !== AST_NODE_TYPES.VariableDeclaration || declaration.kind === 'let') continue;
      for (const declarator of declaration.declarations) {
        if (declarator.id.type === AST_NODE_TYPES.Identifier && declarator.id.name === target.name) {
          return getStringValue(declarator.init);
        }
      }
    }
  }
  return undefined;
}

/** The `name` property of a config object, resolved as above. */
export function configName(object: TSESTree.ObjectExpression | undefined): string | undefined {
  return object ? resolveStaticName(findProperty(object, 'name')?.value) : undefined;
}

/** An object literal argument, through type wrappers. */
export function asObjectLiteral(node: TSESTree.Node | undefined): TSESTree.ObjectExpression | undefined {
  if (!node) return undefined;
  const target = skipTypeWrappers(node);
  return target.type === AST_NODE_TYPES.ObjectExpression ? target : undefined;
}
