/**
 * esbuild's dynamic import inside one bundle. `const { getBrowser } = await import('./index.js')`
 * bundled with code splitting off becomes
 *
 *     const { getBrowser: getBrowser2 } = await init_index().then(() => index_exports);
 *
 * where `index_exports` is filled once by `__export(index_exports, { getBrowser: () => getBrowser })`
 * and `getBrowser` is a function of the same bundle. Principle: a name destructured from such an
 * import is that function, so a call through the local is a call of the bundle's own function.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type FunctionNode, getCalleeLastName, getStaticKeyName, programOf, skipTypeWrappers, walk } from './ast.js';
import { moduleLevelFunctions } from './file-index.js';
import { moduleText } from './module-graph.js';

/** `init_x().then(() => x_exports)` (awaited or not): the exports object's name. */
function bundledImportExports(node: TSESTree.Node): string | undefined {
  let target = skipTypeWrappers(node);
  if (target.type === AST_NODE_TYPES.AwaitExpression) target = skipTypeWrappers(target.argument);
  if (target.type !== AST_NODE_TYPES.CallExpression || target.callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  if (getStaticKeyName(target.callee.property, target.callee.computed) !== 'then') return undefined;
  const initCall = skipTypeWrappers(target.callee.object);
  if (initCall.type !== AST_NODE_TYPES.CallExpression || !/^init_/.test(getCalleeLastName(initCall) ?? '')) return undefined;
  const [callback] = target.arguments;
  const arrow = callback ? skipTypeWrappers(callback) : undefined;
  if (arrow?.type !== AST_NODE_TYPES.ArrowFunctionExpression || arrow.body.type !== AST_NODE_TYPES.Identifier) return undefined;
  return arrow.body.name;
}

/** Per program: each `__export(x_exports, { name: () => fn })` object's functions, by exports name and key. */
const exportsByProgram = new WeakMap<TSESTree.Program, Map<string, Map<string, FunctionNode>>>();

function bundleExports(program: TSESTree.Program): Map<string, Map<string, FunctionNode>> {
  let found = exportsByProgram.get(program);
  if (found) return found;
  found = new Map();
  const text = moduleText(program);
  if (text === undefined || text.includes('__export(')) {
    const functions = moduleLevelFunctions(program);
    const exportsMap = found;
    walk(program, (node) => {
      if (
        node.type !== AST_NODE_TYPES.CallExpression ||
        node.callee.type !== AST_NODE_TYPES.Identifier ||
        node.callee.name !== '__export'
      ) {
        return undefined;
      }
      const [target, getters] = node.arguments;
      const object = getters ? skipTypeWrappers(getters) : undefined;
      if (target?.type !== AST_NODE_TYPES.Identifier || object?.type !== AST_NODE_TYPES.ObjectExpression) return false;
      const byKey = new Map<string, FunctionNode>();
      for (const property of object.properties) {
        if (property.type !== AST_NODE_TYPES.Property) continue;
        const key = getStaticKeyName(property.key, property.computed);
        const getter = skipTypeWrappers(property.value);
        if (key === undefined || getter.type !== AST_NODE_TYPES.ArrowFunctionExpression || getter.body.type !== AST_NODE_TYPES.Identifier)
          continue;
        const fn = functions.get(getter.body.name);
        if (fn) byKey.set(key, fn);
      }
      exportsMap.set(target.name, byKey);
      return false;
    });
  }
  exportsByProgram.set(program, found);
  return found;
}

/**
 * The bundle function a destructured local stands for (see the module comment): `declarator` is
 * `const { key: local } = await init_x().then(() => x_exports)`, `local` the variable's name.
 */
export function bundledImportFunction(declarator: TSESTree.VariableDeclarator, local: string): FunctionNode | undefined {
  if (declarator.id.type !== AST_NODE_TYPES.ObjectPattern || !declarator.init) return undefined;
  const exportsName = bundledImportExports(declarator.init);
  if (exportsName === undefined) return undefined;
  const property = declarator.id.properties.find(
    (candidate): candidate is TSESTree.Property =>
      candidate.type === AST_NODE_TYPES.Property &&
      skipTypeWrappers(candidate.value).type === AST_NODE_TYPES.Identifier &&
      (skipTypeWrappers(candidate.value) as TSESTree.Identifier).name === local,
  );
  const key = property ? getStaticKeyName(property.key, property.computed) : undefined;
  const program = programOf(declarator);
  return key === undefined || !program ? undefined : bundleExports(program).get(exportsName)?.get(key);
}
