/**
 * What one module declares, by name: its imports (ES and `require`), its
 * functions, classes and constants, and its exports. Built once per tree —
 * the linted file lazily, when a rule first needs it, and every imported
 * module when it is first followed — so the flow analysis can look names up
 * instead of walking the file again.
 *
 * Names, not scopes: an inner variable that shadows a top-level function is
 * rare in tool code, and the same index must work on modules we parse
 * ourselves, which have no ESLint scope manager.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import {
  type ClassNode,
  type FunctionNode,
  collectBindingNames,
  getStaticKeyName,
  getStringValue,
  isClassNode,
  isFunctionNode,
  skipTypeWrappers,
  walk,
} from './ast.js';
import { stripNodePrefix } from './settings.js';

/** A local name bound by an import: `imported` is `default`, `*` or the exported name. */
export interface ImportBinding {
  module: string;
  imported: string;
}

export type ExportTarget =
  | { kind: 'local'; local: string }
  | { kind: 're-export'; from: string; imported: string };

export interface FileIndex {
  filePath: string;
  program: TSESTree.Program;
  imports: Map<string, ImportBinding>;
  functions: Map<string, FunctionNode>;
  classes: Map<string, ClassNode>;
  /** `const` initialisers by name (first declaration wins). */
  constants: Map<string, TSESTree.Expression>;
  exports: Map<string, ExportTarget>;
  /** `export * from '…'` specifiers, in order. */
  starExports: string[];
}

function requireSpecifier(node: TSESTree.Node | null | undefined): string | undefined {
  if (!node) return undefined;
  const target = skipTypeWrappers(node);
  if (
    target.type === AST_NODE_TYPES.CallExpression &&
    target.callee.type === AST_NODE_TYPES.Identifier &&
    target.callee.name === 'require'
  ) {
    return getStringValue(target.arguments[0]);
  }
  if (target.type === AST_NODE_TYPES.AwaitExpression && target.argument.type === AST_NODE_TYPES.ImportExpression) {
    return getStringValue(target.argument.source);
  }
  return undefined;
}

function recordRequire(declarator: TSESTree.VariableDeclarator, imports: Map<string, ImportBinding>): void {
  const specifier = requireSpecifier(declarator.init);
  if (specifier === undefined) return;
  const module = stripNodePrefix(specifier);
  if (declarator.id.type === AST_NODE_TYPES.Identifier) {
    imports.set(declarator.id.name, { module, imported: '*' });
    return;
  }
  if (declarator.id.type !== AST_NODE_TYPES.ObjectPattern) return;
  for (const property of declarator.id.properties) {
    if (property.type !== AST_NODE_TYPES.Property) continue;
    const imported = getStaticKeyName(property.key, property.computed);
    const local = collectBindingNames(property.value)[0];
    if (imported !== undefined && local !== undefined) imports.set(local, { module, imported });
  }
}

export function buildFileIndex(program: TSESTree.Program, filePath: string): FileIndex {
  const index: FileIndex = {
    filePath,
    program,
    imports: new Map(),
    functions: new Map(),
    classes: new Map(),
    constants: new Map(),
    exports: new Map(),
    starExports: [],
  };
  const setFirst = <V>(map: Map<string, V>, key: string, value: V): void => {
    if (!map.has(key)) map.set(key, value);
  };

  for (const statement of program.body) {
    if (statement.type === AST_NODE_TYPES.ImportDeclaration) {
      const module = stripNodePrefix(statement.source.value);
      for (const specifier of statement.specifiers) {
        if (specifier.type === AST_NODE_TYPES.ImportDefaultSpecifier) {
          index.imports.set(specifier.local.name, { module, imported: 'default' });
        } else if (specifier.type === AST_NODE_TYPES.ImportNamespaceSpecifier) {
          index.imports.set(specifier.local.name, { module, imported: '*' });
        } else {
          const imported = getStaticKeyName(specifier.imported, false) ?? specifier.local.name;
          index.imports.set(specifier.local.name, { module, imported });
        }
      }
    } else if (statement.type === AST_NODE_TYPES.ExportAllDeclaration) {
      if (statement.exported) {
        const name = getStaticKeyName(statement.exported, false);
        if (name !== undefined) index.exports.set(name, { kind: 're-export', from: statement.source.value, imported: '*' });
      } else {
        index.starExports.push(statement.source.value);
      }
    } else if (statement.type === AST_NODE_TYPES.ExportNamedDeclaration) {
      if (statement.source) {
        for (const specifier of statement.specifiers) {
          const exported = getStaticKeyName(specifier.exported, false);
          const imported = getStaticKeyName(specifier.local, false);
          if (exported !== undefined && imported !== undefined) {
            index.exports.set(exported, { kind: 're-export', from: statement.source.value, imported });
          }
        }
      } else if (statement.declaration) {
        const declaration = statement.declaration;
        const names =
          declaration.type === AST_NODE_TYPES.VariableDeclaration
            ? declaration.declarations.flatMap((declarator) => collectBindingNames(declarator.id))
            : 'id' in declaration && declaration.id?.type === AST_NODE_TYPES.Identifier
              ? [declaration.id.name]
              : [];
        for (const name of names) index.exports.set(name, { kind: 'local', local: name });
      } else {
        for (const specifier of statement.specifiers) {
          const exported = getStaticKeyName(specifier.exported, false);
          const local = getStaticKeyName(specifier.local, false);
          if (exported !== undefined && local !== undefined) index.exports.set(exported, { kind: 'local', local });
        }
      }
    } else if (statement.type === AST_NODE_TYPES.ExportDefaultDeclaration) {
      const declaration = statement.declaration;
      if ((isFunctionNode(declaration) || isClassNode(declaration)) && declaration.id) {
        index.exports.set('default', { kind: 'local', local: declaration.id.name });
      } else if (declaration.type === AST_NODE_TYPES.Identifier) {
        index.exports.set('default', { kind: 'local', local: declaration.name });
      } else if (isFunctionNode(declaration)) {
        // `export default function () {}`: reachable under a synthetic name.
        index.functions.set('default', declaration);
        index.exports.set('default', { kind: 'local', local: 'default' });
      }
    }
  }

  walk(program, (node) => {
    switch (node.type) {
      case AST_NODE_TYPES.FunctionDeclaration:
        if (node.id) setFirst(index.functions, node.id.name, node);
        break;
      case AST_NODE_TYPES.ClassDeclaration:
      case AST_NODE_TYPES.ClassExpression:
        if (node.id) setFirst(index.classes, node.id.name, node);
        break;
      case AST_NODE_TYPES.VariableDeclarator: {
        if (node.id.type !== AST_NODE_TYPES.Identifier) {
          recordRequire(node, index.imports);
          break;
        }
        const init = node.init ? skipTypeWrappers(node.init) : undefined;
        if (!init) break;
        if (isFunctionNode(init)) setFirst(index.functions, node.id.name, init);
        else if (isClassNode(init)) setFirst(index.classes, node.id.name, init);
        else if (requireSpecifier(init) !== undefined) recordRequire(node, index.imports);
        const declaration = node.parent;
        if (declaration?.type === AST_NODE_TYPES.VariableDeclaration && declaration.kind === 'const') {
          setFirst(index.constants, node.id.name, node.init!);
        }
        break;
      }
      default:
        break;
    }
  });
  return index;
}
