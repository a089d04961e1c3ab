/**
 * Which function a call runs, without type information: a function of the
 * same file, `this.method()` of the same class, a method of a local built
 * from a class we can see, a namespace import's function, across relative
 * imports. A self-reading tool often reads through helpers (`load(input.path)`
 * → `readFile(p)`), and returns what they read; following the call is how
 * the read of the model's location is found behind them. Only modules that
 * may reach a reader are parsed for that (`moduleFilter`). With type
 * information, type-services.ts resolves what this cannot.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type ClassNode, getMemberPath, isFunctionNode, isNullOrUndefined, moduleDeclarators, skipTypeWrappers, walk } from '../ast.js';
import type { FileIndex } from '../file-index.js';
import { getClassMethod } from '../tool-shapes/vocabulary.js';
import { inheritedMethod } from '../base-classes.js';
import {
  MAX_KEPT_CLASS_MODULE_BYTES,
  type ModuleFilter,
  type ResolvedFunction,
  mayReachReader,
  resolveClassName,
  resolveImportedName,
  resolveLocalName,
} from '../module-graph.js';
import type { RecognitionSettings } from '../settings.js';
import type { FunctionUnit } from './propagation.js';

const readerSpellings = new WeakMap<RecognitionSettings, RegExp>();

/** What a module must spell to call a reader itself: a receiver-free reader's name, or a reader module's specifier. */
function readerSpelling(settings: RecognitionSettings): RegExp {
  let spelling = readerSpellings.get(settings);
  if (!spelling) {
    const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    const names = new Set<string>();
    const modules = new Set<string>();
    for (const reader of settings.readers) {
      if (reader.module === undefined) names.add(reader.name.split('.').pop()!);
      else modules.add(reader.module);
    }
    const alternatives = [
      ...[...names].map((name) => `\\b${escape(name)}\\b`),
      ...[...modules].map((module) => `['"](?:node:)?${escape(module)}['"]`),
    ];
    spelling = new RegExp(alternatives.join('|'));
    readerSpellings.set(settings, spelling);
  }
  return spelling;
}

/** Parse only the modules that may reach a reader. */
function moduleFilter(settings: RecognitionSettings): ModuleFilter {
  const spelling = readerSpelling(settings);
  return (modulePath) => mayReachReader(modulePath, spelling);
}

/** Resolves a callee without types: local functions, `this.method`, relative imports. */
export function resolveCallee(
  call: TSESTree.CallExpression | TSESTree.NewExpression,
  file: FileIndex,
  classNode: ClassNode | undefined,
  settings: RecognitionSettings,
  /** Parse only modules that may reach a reader (false: any module, for helpers given content). */
  onlyReaderModules = true,
  /** The calling function's nodes, to find what a local receiver was built as. */
  unit?: FunctionUnit,
): ResolvedFunction | undefined {
  const filter = onlyReaderModules ? moduleFilter(settings) : undefined;
  if (call.type === AST_NODE_TYPES.NewExpression) return undefined;
  const path = getMemberPath(call.callee);
  if (!path) return undefined;
  if (path.length === 1) return resolveLocalName(file, path[0]!, 0, filter);
  if (path.length === 2 && path[0] === 'this' && classNode) {
    const method = getClassMethod(classNode, path[1]!);
    if (method) return { fn: method, file, classNode, name: path[1]! };
    // A method of a base class (`this.parseParams(schema, params)` of `BaseTool`): it runs with this class's `this`.
    const inherited = inheritedMethod(classNode, path[1]!, file);
    return inherited ? { fn: inherited.fn, file: inherited.file, classNode, name: path[1]! } : undefined;
  }
  if (path.length === 2) {
    // `helpers.readIt(p)` with `import * as helpers from './helpers.js'`.
    const binding = file.imports.get(path[0]!);
    if (binding?.imported === '*') return resolveImportedName(file, binding.module, path[1]!, 0, filter);
    if (binding === undefined && unit) return resolveInstanceMethod(path[0]!, path[1]!, unit, file, filter);
  }
  return undefined;
}

/**
 * `const processor = new WebContentProcessor(options); processor.processPageContent(page, url)`:
 * a method called on a local the function built from a class we can see is
 * that class's method (the service object's own code, followed like a helper).
 */
function resolveInstanceMethod(
  local: string,
  methodName: string,
  unit: FunctionUnit,
  file: FileIndex,
  filter: ModuleFilter | undefined,
): ResolvedFunction | undefined {
  let className: string | undefined;
  let kept = false;
  const values = [
    ...unit.declarators
      .filter((declarator) => declarator.id.type === AST_NODE_TYPES.Identifier && declarator.id.name === local)
      .map((declarator) => declarator.init),
    ...unit.assignments
      .filter((assignment) => assignment.left.type === AST_NODE_TYPES.Identifier && assignment.left.name === local)
      .map((assignment) => assignment.right),
  ];
  for (const value of values) {
    if (!value) continue;
    const target = skipTypeWrappers(value);
    // Every value it is given must be built from the same class, here or by a helper that keeps it.
    const direct = target.type === AST_NODE_TYPES.NewExpression && target.callee.type === AST_NODE_TYPES.Identifier;
    const built = direct ? (target.callee as TSESTree.Identifier).name : keptInstanceClass(target, file);
    if (built === undefined || (className !== undefined && className !== built)) return undefined;
    className = built;
    kept ||= !direct;
  }
  if (className === undefined) return undefined;
  const resolved = resolveClassName(file, className, 0, filter, kept ? MAX_KEPT_CLASS_MODULE_BYTES : undefined);
  const method = resolved ? getClassMethod(resolved.classNode, methodName) : undefined;
  return resolved && method ? { fn: method, file: resolved.file, classNode: resolved.classNode, name: methodName } : undefined;
}

const keptClasses = new WeakMap<FileIndex, Map<string, string | null>>();

/**
 * `const b = await getBrowser()`, where the module's `getBrowser` hands back its `browser`, only ever
 * given `new HotelBrowser(…)` (or nothing yet): the class of the object a helper keeps and hands back.
 */
function keptInstanceClass(value: TSESTree.Node, file: FileIndex): string | undefined {
  let call = value;
  if (call.type === AST_NODE_TYPES.AwaitExpression) call = skipTypeWrappers(call.argument);
  if (call.type !== AST_NODE_TYPES.CallExpression || call.callee.type !== AST_NODE_TYPES.Identifier || call.arguments.length > 0) {
    return undefined;
  }
  const helper = file.functions.get(call.callee.name);
  if (!helper || helper.body?.type !== AST_NODE_TYPES.BlockStatement) return undefined;
  let kept: string | undefined;
  let single = true;
  walk(helper.body, (node) => {
    if (isFunctionNode(node)) return false;
    if (node.type !== AST_NODE_TYPES.ReturnStatement) return undefined;
    const returned = node.argument ? skipTypeWrappers(node.argument) : undefined;
    if (returned?.type !== AST_NODE_TYPES.Identifier || (kept !== undefined && kept !== returned.name)) single = false;
    else kept = returned.name;
    return undefined;
  });
  return single && kept !== undefined ? moduleVariableClass(file, kept) : undefined;
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
  let className: string | undefined;
  let single = declared;
  for (const value of values) {
    // Not given one yet: `let browser = null`, `let browser;`.
    if (!value || isNullOrUndefined(value)) continue;
    const target = skipTypeWrappers(value);
    const built =
      target.type === AST_NODE_TYPES.NewExpression && target.callee.type === AST_NODE_TYPES.Identifier ? target.callee.name : undefined;
    if (built === undefined || (className !== undefined && className !== built)) single = false;
    else className = built;
  }
  const found = single ? className : undefined;
  byName.set(name, found ?? null);
  return found;
}

/** Method names every string, array, collection or promise has: never a class of the module's own. */
const BUILTIN_METHODS = new Set(
  [String.prototype, Array.prototype, Map.prototype, Set.prototype, Promise.prototype, Object.prototype, Function.prototype].flatMap(
    (prototype) => Object.getOwnPropertyNames(prototype),
  ),
);
const uniqueMethods = new WeakMap<FileIndex, Map<string, ResolvedFunction | null>>();

/**
 * `context.skills.loadSkill(id)` on an object we cannot type: the method of
 * that name when exactly one class of the module defines it (bundles keep a
 * package's classes in one file). Only for whether the answer carries input.
 */
export function resolveUniqueMethod(call: TSESTree.CallExpression | TSESTree.NewExpression, file: FileIndex): ResolvedFunction | undefined {
  if (call.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const callee = skipTypeWrappers(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression || callee.computed) return undefined;
  const name = getMemberPath(callee.property)?.[0];
  const receiver = getMemberPath(callee.object);
  // `path.join(…)`, `fs.readFile(…)`: a module's function, not a class of this one.
  if (name === undefined || BUILTIN_METHODS.has(name) || (receiver !== undefined && file.imports.has(receiver[0]!))) return undefined;
  let byName = uniqueMethods.get(file);
  if (!byName) {
    byName = new Map();
    uniqueMethods.set(file, byName);
  }
  if (!byName.has(name)) {
    const found: ResolvedFunction[] = [];
    for (const classNode of new Set(file.classes.values())) {
      const method = getClassMethod(classNode, name);
      if (method) found.push({ fn: method, file, classNode, name });
    }
    byName.set(name, found.length === 1 ? found[0]! : null);
  }
  return byName.get(name) ?? undefined;
}
