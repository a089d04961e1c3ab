/**
 * Base classes and inherited methods: the class an `extends` clause or a
 * `new C(…)` names, in this file or a relatively imported one, and a method a
 * class inherits from it. A base class that caches a client in `this.gmail` on
 * first use leaks state between its subclass tools' invocations as surely as
 * the tool's own code would.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import {
  type ClassNode,
  type FunctionNode,
  getStaticKeyName,
  isFunctionNode,
  isNullOrUndefined,
  moduleDeclarators,
  skipTypeWrappers,
  walk,
} from './ast.js';
import type { FileIndex } from './file-index.js';
import { getClassMethod } from './tool-shapes/vocabulary.js';
import { isOwnModuleSpecifier, loadModule, resolveRelativeModule } from './module-graph.js';

/** A class named in `file`: its own, or a relatively imported one (`import { Base } from './base.js'`). */
function resolveClass(name: string, file: FileIndex): { classNode: ClassNode; file: FileIndex } | undefined {
  const own = file.classes.get(name);
  if (own) return { classNode: own, file };
  const binding = file.imports.get(name);
  if (!binding || binding.imported === '*' || binding.imported === 'default') return undefined;
  return exportedClass(binding.module, binding.imported, file);
}

/** The class a relative module exports under `exportedName`. */
function exportedClass(module: string, exportedName: string, file: FileIndex): { classNode: ClassNode; file: FileIndex } | undefined {
  if (!isOwnModuleSpecifier(module)) return undefined;
  const modulePath = resolveRelativeModule(module, file.filePath);
  const imported = modulePath ? loadModule(modulePath) : undefined;
  const exported = imported?.exports.get(exportedName);
  const classNode = imported && exported?.kind === 'local' ? imported.classes.get(exported.local) : undefined;
  return imported && classNode ? { classNode, file: imported } : undefined;
}

/**
 * The class an `extends` clause names: `Base`, or a member of a required or
 * namespace-imported module (`require_base.GmailBaseTool`, CommonJS builds).
 */
function resolveSuperClass(
  superClass: TSESTree.Node | null,
  file: FileIndex,
): { classNode: ClassNode; file: FileIndex; name: string } | undefined {
  if (superClass?.type === AST_NODE_TYPES.Identifier) {
    const found = resolveClass(superClass.name, file);
    return found ? { ...found, name: superClass.name } : undefined;
  }
  if (superClass?.type !== AST_NODE_TYPES.MemberExpression || superClass.object.type !== AST_NODE_TYPES.Identifier) return undefined;
  const exportedName = getStaticKeyName(superClass.property, superClass.computed);
  const binding = file.imports.get(superClass.object.name);
  if (exportedName === undefined || binding?.imported !== '*') return undefined;
  const found = exportedClass(binding.module, exportedName, file);
  return found ? { ...found, name: exportedName } : undefined;
}

/** The class `new C(…)` builds, in this file or a relatively imported one. */
export function classOf(
  expression: TSESTree.Node | null | undefined,
  file: FileIndex,
): { classNode: ClassNode; file: FileIndex } | undefined {
  if (!expression) return undefined;
  const target = skipTypeWrappers(expression);
  if (target.type !== AST_NODE_TYPES.NewExpression || target.callee.type !== AST_NODE_TYPES.Identifier) return undefined;
  return resolveClass(target.callee.name, file);
}

/** How many base classes up `this.method()` is looked for. */
const MAX_BASE_CLASS_DEPTH = 3;

/** A method a class inherits from a base class, in this file or another one, with the file it lives in. */
export function inheritedMethod(
  classNode: ClassNode,
  name: string,
  file: FileIndex,
): { fn: FunctionNode; file: FileIndex; className: string } | undefined {
  let current: { classNode: ClassNode; file: FileIndex } | undefined = { classNode, file };
  for (let depth = 0; current && depth < MAX_BASE_CLASS_DEPTH; depth++) {
    const base = resolveSuperClass(current.classNode.superClass, current.file);
    current = base;
    const fn = base ? getClassMethod(base.classNode, name) : undefined;
    if (fn && base) return { fn, file: base.file, className: base.name };
  }
  return undefined;
}

const keptClasses = new WeakMap<FileIndex, Map<string, string | null>>();
const fieldClasses = new WeakMap<ClassNode, Map<string, { classNode: ClassNode; file: FileIndex } | null>>();

/**
 * `this.excelQuery` of a class that only ever gives that field `new ExcelQuery(…)` (in its constructor, a
 * method, or as the field's own initialiser): the class of the object the field holds, in this file or a
 * relatively imported one. A field given anything else, or objects of two classes, has none.
 */
export function fieldClassOf(classNode: ClassNode, field: string, file: FileIndex): { classNode: ClassNode; file: FileIndex } | undefined {
  let byField = fieldClasses.get(classNode);
  if (!byField) {
    byField = new Map();
    fieldClasses.set(classNode, byField);
  }
  if (byField.has(field)) return byField.get(field) ?? undefined;
  const values: TSESTree.Node[] = [];
  for (const member of classNode.body.body) {
    if (member.type === AST_NODE_TYPES.PropertyDefinition && getStaticKeyName(member.key, member.computed) === field && member.value) {
      values.push(member.value);
    }
  }
  walk(classNode.body, (node) => {
    if (
      node.type === AST_NODE_TYPES.AssignmentExpression &&
      node.left.type === AST_NODE_TYPES.MemberExpression &&
      node.left.object.type === AST_NODE_TYPES.ThisExpression &&
      getStaticKeyName(node.left.property, node.left.computed) === field
    ) {
      values.push(node.operator === '=' ? node.right : node);
    }
    return undefined;
  });
  const className = values.length > 0 ? soleBuiltClass(values.map((value) => parameterDefault(value, classNode) ?? value)) : undefined;
  const answer = className === undefined ? undefined : resolveClass(className, file);
  byField.set(field, answer ?? null);
  return answer;
}

/**
 * `constructor(fileManager = GraphFileManager.default) { this.fileManager = fileManager; }`: what a
 * parameter of the constructor holds when the caller hands nothing, the object a tool made with no
 * arguments works with. Undefined for anything but a constructor parameter with a default.
 */
function parameterDefault(value: TSESTree.Node, classNode: ClassNode): TSESTree.Node | undefined {
  if (value.type !== AST_NODE_TYPES.Identifier) return undefined;
  const constructor = classNode.body.body.find(
    (member): member is TSESTree.MethodDefinition => member.type === AST_NODE_TYPES.MethodDefinition && member.kind === 'constructor',
  );
  const parameter = constructor?.value.params.find(
    (candidate) =>
      candidate.type === AST_NODE_TYPES.AssignmentPattern &&
      candidate.left.type === AST_NODE_TYPES.Identifier &&
      candidate.left.name === value.name,
  );
  return parameter?.type === AST_NODE_TYPES.AssignmentPattern ? parameter.right : undefined;
}

/** Static members a class keeps its one shared instance under (`GraphFileManager.default`, `Store.instance`). */
const SHARED_INSTANCE_MEMBERS = new Set(['default', 'instance', 'shared', 'singleton']);

/**
 * The one class every value builds (`new HotelBrowser(…)`), a value of nothing yet (`null`, `undefined`,
 * a declaration without one) left out; undefined when one builds nothing or two build different classes.
 */
function soleBuiltClass(values: readonly (TSESTree.Node | null)[]): string | undefined {
  let className: string | undefined;
  for (const value of values) {
    if (!value || isNullOrUndefined(value)) continue;
    const target = skipTypeWrappers(value);
    const built =
      target.type === AST_NODE_TYPES.NewExpression && target.callee.type === AST_NODE_TYPES.Identifier
        ? target.callee.name
        : // `GraphFileManager.default`: the instance the class keeps for everyone.
          target.type === AST_NODE_TYPES.MemberExpression &&
            target.object.type === AST_NODE_TYPES.Identifier &&
            SHARED_INSTANCE_MEMBERS.has(getStaticKeyName(target.property, target.computed) ?? '')
          ? target.object.name
          : undefined;
    if (built === undefined || (className !== undefined && className !== built)) return undefined;
    className = built;
  }
  return className;
}

/**
 * `const b = await getBrowser()`, where the module's `getBrowser` hands back its `browser`, only ever
 * given `new HotelBrowser(…)` (or nothing yet): the class of the object a helper keeps and hands back.
 */
export function keptInstanceClass(value: TSESTree.Node, file: FileIndex): string | undefined {
  let call = value;
  if (call.type === AST_NODE_TYPES.AwaitExpression) call = skipTypeWrappers(call.argument);
  if (call.type !== AST_NODE_TYPES.CallExpression || call.callee.type !== AST_NODE_TYPES.Identifier || call.arguments.length > 0) {
    return undefined;
  }
  const helper = file.functions.get(call.callee.name);
  if (!helper || helper.body?.type !== AST_NODE_TYPES.BlockStatement) return undefined;
  const kept = returnedName(helper);
  return kept === undefined ? undefined : moduleVariableClass(file, kept);
}

const returnedNames = new WeakMap<FunctionNode, string | null>();

/** The one name every `return` of a function hands back (`return browser`), if there is one. Asked once per function. */
function returnedName(helper: FunctionNode): string | undefined {
  const known = returnedNames.get(helper);
  if (known !== undefined) return known ?? undefined;
  let kept: string | undefined;
  let single = true;
  if (helper.body) {
    walk(helper.body, (node) => {
      if (isFunctionNode(node)) return false;
      if (node.type !== AST_NODE_TYPES.ReturnStatement) return undefined;
      const returned = node.argument ? skipTypeWrappers(node.argument) : undefined;
      if (returned?.type !== AST_NODE_TYPES.Identifier || (kept !== undefined && kept !== returned.name)) single = false;
      else kept = returned.name;
      return undefined;
    });
  }
  const found = single ? kept : undefined;
  returnedNames.set(helper, found ?? null);
  return found;
}

/** The one class a module-level variable is ever given an instance of (`let browser = null; … browser = new HotelBrowser()`). */
function moduleVariableClass(file: FileIndex, name: string): string | undefined {
  let byName = keptClasses.get(file);
  if (!byName) {
    byName = new Map();
    keptClasses.set(file, byName);
  }
  if (byName.has(name)) return byName.get(name) ?? undefined;
  const declarators = moduleDeclarators(file.program, name).filter((declarator) => declarator.parent.kind !== 'const');
  const values: (TSESTree.Node | null)[] = declarators.map((declarator) => declarator.init);
  const declared = declarators.length > 0;
  if (declared) {
    walk(file.program, (node) => {
      if (node.type === AST_NODE_TYPES.AssignmentExpression && node.left.type === AST_NODE_TYPES.Identifier && node.left.name === name) {
        values.push(node.operator === '=' ? node.right : node);
      }
      return undefined;
    });
  }
  // Not given one yet: `let browser = null`, `let browser;`.
  const found = declared ? soleBuiltClass(values) : undefined;
  byName.set(name, found ?? null);
  return found;
}

/**
 * The class of the object a local holds for the whole process: built here (`new C(…)`), or handed
 * back by a helper that keeps one (`const b = await getBrowser()`, see `keptInstanceClass`).
 */
export function builtOrKeptClassOf(
  expression: TSESTree.Node | null | undefined,
  file: FileIndex,
): { classNode: ClassNode; file: FileIndex } | undefined {
  if (!expression) return undefined;
  const built = classOf(expression, file);
  if (built) return built;
  const kept = keptInstanceClass(skipTypeWrappers(expression), file);
  return kept === undefined ? undefined : resolveClass(kept, file);
}
