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
  getCalleeLastName,
  getMemberPath,
  getStaticKeyName,
  getStringValue,
  isClassNode,
  isFunctionNode,
  skipTypeWrappers,
  soleReturnedExpression,
  walk,
} from './ast.js';
import { stripNodePrefix } from './settings.js';

/** A local name bound by an import: `imported` is `default`, `*` or the exported name. */
export interface ImportBinding {
  module: string;
  imported: string;
}

export type ExportTarget = { kind: 'local'; local: string } | { kind: 're-export'; from: string; imported: string };

export interface FileIndex {
  filePath: string;
  program: TSESTree.Program;
  imports: Map<string, ImportBinding>;
  functions: Map<string, FunctionNode>;
  classes: Map<string, ClassNode>;
  /** `const` initialisers by name (first declaration wins). */
  constants: Map<string, TSESTree.Expression>;
  /** TypeScript enums declared in the module (`enum Constants { READ_FILE = 'read_file' }`), for names taken from their members. */
  enums: Map<string, TSESTree.TSEnumDeclaration>;
  exports: Map<string, ExportTarget>;
  /** `export * from '…'` specifiers, in order. */
  starExports: string[];
}

/**
 * Interop helpers that compiled CommonJS wraps a `require` in. Each returns an
 * object whose members are the module's exports plus `default`, which the
 * readers already treat like a namespace import.
 */
const REQUIRE_INTEROP_HELPERS = new Set([
  '__importDefault',
  '__importStar',
  '_interopRequireDefault',
  '_interopRequireWildcard',
  '__toESM',
]);

/** `require('m')`, `await import('m')`, or either wrapped in an interop helper: the specifier. */
export function requireSpecifier(node: TSESTree.Node | null | undefined): string | undefined {
  if (!node) return undefined;
  const target = skipTypeWrappers(node);
  if (target.type === AST_NODE_TYPES.CallExpression) {
    const callee = skipTypeWrappers(target.callee);
    if (callee.type === AST_NODE_TYPES.Identifier && callee.name === 'require') return getStringValue(target.arguments[0]);
    const helper = getCalleeLastName(target);
    if (helper !== undefined && REQUIRE_INTEROP_HELPERS.has(helper)) return requireSpecifier(target.arguments[0]);
    return undefined;
  }
  if (target.type === AST_NODE_TYPES.AwaitExpression && target.argument.type === AST_NODE_TYPES.ImportExpression) {
    return getStringValue(target.argument.source);
  }
  return undefined;
}

/** What a declarator's initialiser imports: a whole module, or one member of it (`require('fs').promises`). */
function requiredBinding(init: TSESTree.Node | null | undefined): ImportBinding | undefined {
  if (!init) return undefined;
  const target = skipTypeWrappers(init);
  if (target.type === AST_NODE_TYPES.MemberExpression) {
    const specifier = requireSpecifier(target.object);
    const member = getStaticKeyName(target.property, target.computed);
    return specifier === undefined || member === undefined ? undefined : { module: stripNodePrefix(specifier), imported: member };
  }
  const specifier = requireSpecifier(target);
  return specifier === undefined ? undefined : { module: stripNodePrefix(specifier), imported: '*' };
}

/**
 * `const axios = 'default' in axiosMod ? axiosMod.default : axiosMod` (or
 * `m.default ?? m`, `m.default || m`, or compiled to CommonJS
 * `'default' in m_1.default ? m_1.default.default : m_1.default`): the interop idiom for a default import
 * whose module may or may not be compiled from ES modules. Either branch is
 * the imported module, so the alias is bound like the import itself.
 */
function interopAliasOf(init: TSESTree.Node, imports: ReadonlyMap<string, ImportBinding>): ImportBinding | undefined {
  const branches =
    init.type === AST_NODE_TYPES.ConditionalExpression
      ? [init.consequent, init.alternate]
      : init.type === AST_NODE_TYPES.LogicalExpression && init.operator !== '&&'
        ? [init.left, init.right]
        : undefined;
  if (!branches) return undefined;
  // `m`, `m.default`, and compiled CommonJS's `m_1.default.default`: all the same module.
  const roots = branches.map((branch) => {
    const path = getMemberPath(branch);
    return path?.slice(1).every((segment) => segment === 'default') ? path[0] : undefined;
  });
  const [first, second] = roots;
  return first !== undefined && first === second ? imports.get(first) : undefined;
}

/** `const { a, b: c } = require('m')`: each destructured name is bound to its export. */
function recordDestructuredRequire(declarator: TSESTree.VariableDeclarator, imports: Map<string, ImportBinding>): void {
  const binding = requiredBinding(declarator.init);
  if (binding === undefined) return;
  // Destructuring a member (`const { a } = require('m').b`) is rare: only whole modules are followed.
  if (declarator.id.type !== AST_NODE_TYPES.ObjectPattern || binding.imported !== '*') return;
  for (const property of declarator.id.properties) {
    if (property.type !== AST_NODE_TYPES.Property) continue;
    const imported = getStaticKeyName(property.key, property.computed);
    const local = collectBindingNames(property.value)[0];
    if (imported !== undefined && local !== undefined) imports.set(local, { module: binding.module, imported });
  }
}

/** `exports.x` or `module.exports.x`: the exported name `x`. */
export function commonJsExportName(target: TSESTree.Node): string | undefined {
  if (target.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const name = getStaticKeyName(target.property, target.computed);
  const object = target.object;
  const onExports = (object.type === AST_NODE_TYPES.Identifier && object.name === 'exports') || isModuleExports(object);
  return onExports ? name : undefined;
}

function isModuleExports(target: TSESTree.Node): boolean {
  return (
    target.type === AST_NODE_TYPES.MemberExpression &&
    target.object.type === AST_NODE_TYPES.Identifier &&
    target.object.name === 'module' &&
    getStaticKeyName(target.property, target.computed) === 'exports'
  );
}

/**
 * `var DESCRIPTIONS = { … }` at the top of a bundle (esbuild, tsup and rollup write every module
 * constant as a `var`): a value the module states once, as a `const` would. A `var` that starts
 * empty (`var cache;`, `= null`) is filled later and is none, and so is one that makes an instance.
 */
function isBundledConstant(declaration: TSESTree.VariableDeclaration, init: TSESTree.Expression): boolean {
  const holder = declaration.parent?.type === AST_NODE_TYPES.ExportNamedDeclaration ? declaration.parent.parent : declaration.parent;
  if (declaration.kind !== 'var' || holder?.type !== AST_NODE_TYPES.Program) return false;
  // `var http = new HttpClient(…)`: an instance the module keeps (and may replace), not a value it states; only a
  // `const` one is followed into its class (the flow's constants built from a class).
  if (init.type === AST_NODE_TYPES.NewExpression) return false;
  return (
    !(init.type === AST_NODE_TYPES.Literal && init.value === null) &&
    !(init.type === AST_NODE_TYPES.Identifier && init.name === 'undefined')
  );
}

/**
 * Whether a program can bind an import under a name other than its export's (`import { tool as b }`,
 * `const { tool: b } = require('m')`, `const b = require('m').tool`), told without walking its tree:
 * a renamed specifier among its top-level imports, or any `require(` or `import(` in its text (a
 * `require` binding can sit anywhere). Undefined text (a tree whose text is not recorded) says yes.
 */
export function mayBindRenamedImport(program: TSESTree.Program, text: string | undefined): boolean {
  const renamedTopLevel = program.body.some(
    (statement) =>
      statement.type === AST_NODE_TYPES.ImportDeclaration &&
      statement.specifiers.some(
        (specifier) =>
          specifier.type === AST_NODE_TYPES.ImportSpecifier && getStaticKeyName(specifier.imported, false) !== specifier.local.name,
      ),
  );
  return renamedTopLevel || text === undefined || /\b(?:require|import)\s*\(/.test(text);
}

/** The file each program was parsed from: the linted file, a module the analysis followed, a test's snippet. */
const programPaths = new WeakMap<TSESTree.Program, string>();

export function recordProgramPath(program: TSESTree.Program, filePath: string): void {
  programPaths.set(program, filePath);
}

/** The path `program` was parsed from, when known: where its relative imports resolve from. */
export function programPath(program: TSESTree.Program): string | undefined {
  return programPaths.get(program);
}

const indexByProgram = new WeakMap<TSESTree.Program, FileIndex>();

/** The index of a program the caller already holds (the linted file's tree), built once per program. */
export function programFileIndex(program: TSESTree.Program, filePath: string): FileIndex {
  let index = indexByProgram.get(program);
  if (!index) indexByProgram.set(program, (index = buildFileIndex(program, filePath)));
  return index;
}

export function buildFileIndex(program: TSESTree.Program, filePath: string): FileIndex {
  recordProgramPath(program, filePath);
  const index: FileIndex = {
    filePath,
    program,
    imports: new Map(),
    functions: new Map(),
    classes: new Map(),
    constants: new Map(),
    enums: new Map(),
    exports: new Map(),
    starExports: [],
  };
  const setFirst = <V>(map: Map<string, V>, key: string, value: V): void => {
    if (!map.has(key)) map.set(key, value);
  };

  const commonJsStatements: TSESTree.Expression[] = [];
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
    } else if (statement.type === AST_NODE_TYPES.ExpressionStatement) {
      // Resolved at the end, once every `require` binding is known.
      commonJsStatements.push(statement.expression);
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
      case AST_NODE_TYPES.TSEnumDeclaration:
        setFirst(index.enums, node.id.name, node);
        break;
      case AST_NODE_TYPES.AssignmentExpression: {
        // `let screenshotModule; … screenshotModule = await import('./internal/screenshotCapture.js')`: a module
        // loaded on first use is bound like an import of it.
        if (node.operator !== '=' || node.left.type !== AST_NODE_TYPES.Identifier || index.imports.has(node.left.name)) break;
        const binding = requiredBinding(node.right);
        if (binding) index.imports.set(node.left.name, binding);
        break;
      }
      case AST_NODE_TYPES.VariableDeclarator: {
        if (node.id.type !== AST_NODE_TYPES.Identifier) {
          recordDestructuredRequire(node, index.imports);
          break;
        }
        const init = node.init ? skipTypeWrappers(node.init) : undefined;
        if (!init) break;
        if (isFunctionNode(init)) setFirst(index.functions, node.id.name, init);
        else if (isClassNode(init)) setFirst(index.classes, node.id.name, init);
        else {
          const binding = requiredBinding(init) ?? interopAliasOf(init, index.imports);
          if (binding) index.imports.set(node.id.name, binding);
        }
        const declaration = node.parent;
        if (
          declaration?.type === AST_NODE_TYPES.VariableDeclaration &&
          (declaration.kind === 'const' || isBundledConstant(declaration, node.init!))
        ) {
          setFirst(index.constants, node.id.name, node.init!);
        }
        break;
      }
      default:
        break;
    }
  });
  preferModuleLevelFunctions(program, index);
  for (const expression of commonJsStatements) recordCommonJsExport(expression, index);
  return index;
}

/**
 * A name used at a module's top level means the module's own function, not a
 * nested one declared earlier in the text: a bundle (Letta Code's 35 MB
 * `letta.js`) holds hundreds of inner `function read()` before the tool's
 * `async function read(args)`. Module-level declarations win over the first
 * one the walk met.
 */
function preferModuleLevelFunctions(program: TSESTree.Program, index: FileIndex): void {
  for (const [name, fn] of moduleLevelFunctions(program)) index.functions.set(name, fn);
}

/** The functions a module declares at its top (`function f`, `const f = () => …`, exported or not), by name. */
export function moduleLevelFunctions(program: TSESTree.Program): Map<string, FunctionNode> {
  const functions = new Map<string, FunctionNode>();
  for (const statement of program.body) {
    const declaration =
      statement.type === AST_NODE_TYPES.ExportNamedDeclaration || statement.type === AST_NODE_TYPES.ExportDefaultDeclaration
        ? statement.declaration
        : statement;
    if (declaration?.type === AST_NODE_TYPES.FunctionDeclaration && declaration.id) {
      functions.set(declaration.id.name, declaration);
    } else if (declaration?.type === AST_NODE_TYPES.VariableDeclaration) {
      for (const declarator of declaration.declarations) {
        const init = declarator.init ? skipTypeWrappers(declarator.init) : undefined;
        const fn = init && (isFunctionNode(init) ? init : functionMadeByWrapper(init));
        if (declarator.id.type === AST_NODE_TYPES.Identifier && fn) functions.set(declarator.id.name, fn);
      }
    }
  }
  return functions;
}

/**
 * `export const handleLock = withValidation(lockSchema, async (args) => { … })`: a module's function made by a
 * wrapper that checks or logs around the function it is handed last. That function is what runs when the
 * module's function is called (with the arguments the wrapper checked).
 */
export function functionMadeByWrapper(init: TSESTree.Node): FunctionNode | undefined {
  if (init.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const callee = skipTypeWrappers(init.callee);
  if (callee.type !== AST_NODE_TYPES.Identifier && callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const last = init.arguments.at(-1);
  const fn = last ? skipTypeWrappers(last) : undefined;
  return fn && isFunctionNode(fn) ? fn : undefined;
}

/**
 * CommonJS exports, in the forms people and compilers write:
 * `exports.x = x`, `module.exports.x = function () {}`,
 * `module.exports = { x, y: z }`, tsc's re-export
 * `Object.defineProperty(exports, 'x', { get: function () { return m_1.x; } })`
 * and `__exportStar(require('./m'), exports)`. A function assigned in place is
 * indexed under its exported name.
 */
function recordCommonJsExport(expression: TSESTree.Expression, index: FileIndex): void {
  const exportValue = (name: string, value: TSESTree.Node): void => {
    const target = skipTypeWrappers(value);
    if (target.type === AST_NODE_TYPES.Identifier) {
      if (!index.exports.has(name)) index.exports.set(name, { kind: 'local', local: target.name });
      return;
    }
    const member = getMemberPath(target);
    const binding = member?.length === 2 ? index.imports.get(member[0]!) : undefined;
    if (binding?.imported === '*') {
      if (!index.exports.has(name)) index.exports.set(name, { kind: 're-export', from: binding.module, imported: member![1]! });
      return;
    }
    if (isFunctionNode(target) && !index.functions.has(name)) {
      index.functions.set(name, target);
      if (!index.exports.has(name)) index.exports.set(name, { kind: 'local', local: name });
    }
  };

  if (expression.type === AST_NODE_TYPES.AssignmentExpression && expression.operator === '=') {
    // `exports.a = exports.b = void 0;` and `exports.a = a;` alike: walk the chain.
    let assignment: TSESTree.Expression = expression;
    const names: string[] = [];
    while (assignment.type === AST_NODE_TYPES.AssignmentExpression && assignment.operator === '=') {
      const name = commonJsExportName(assignment.left);
      if (name !== undefined) names.push(name);
      else if (isModuleExports(assignment.left) && assignment.right.type === AST_NODE_TYPES.ObjectExpression) {
        for (const property of assignment.right.properties) {
          if (property.type !== AST_NODE_TYPES.Property) continue;
          const key = getStaticKeyName(property.key, property.computed);
          if (key !== undefined) exportValue(key, property.value);
        }
      }
      assignment = assignment.right;
    }
    for (const name of names) exportValue(name, assignment);
    return;
  }

  if (expression.type !== AST_NODE_TYPES.CallExpression) return;
  const [first, second, third] = expression.arguments;
  const callee = getMemberPath(expression.callee);
  if (callee?.join('.') === 'Object.defineProperty' && first?.type === AST_NODE_TYPES.Identifier && first.name === 'exports') {
    const name = getStringValue(second);
    const descriptor = third?.type === AST_NODE_TYPES.ObjectExpression ? third : undefined;
    const getter = descriptor?.properties.find(
      (property): property is TSESTree.Property =>
        property.type === AST_NODE_TYPES.Property && getStaticKeyName(property.key, property.computed) === 'get',
    );
    const returned = soleReturnedExpression(getter?.value);
    if (name !== undefined && returned) exportValue(name, returned);
    return;
  }
  const helper = callee?.[callee.length - 1];
  if ((helper === '__exportStar' || helper === '__reExport') && second?.type === AST_NODE_TYPES.Identifier && second.name === 'exports') {
    const specifier = requireSpecifier(first);
    if (specifier !== undefined) index.starExports.push(specifier);
  }
}
