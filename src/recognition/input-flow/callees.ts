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

import {
  type ClassNode,
  type FunctionNode,
  declaredInScopeOf,
  enclosingInitialiser,
  getMemberPath,
  isFunctionNode,
  shownFunctionName,
  skipTypeWrappers,
  walk,
} from '../ast.js';
import { returnedExpressions } from '../output-flow.js';
import type { FileIndex } from '../file-index.js';
import { getClassMethod } from '../tool-shapes/vocabulary.js';
import { fieldClassOf, inheritedMethod, keptInstanceClass } from '../base-classes.js';
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
  if (path.length === 1) {
    return (
      resolveLocalName(file, path[0]!, 0, filter) ??
      (call.callee.type === AST_NODE_TYPES.Identifier ? wrappedByPassThrough(call.callee, file, classNode, settings) : undefined)
    );
  }
  if (path.length === 2 && path[0] === 'this' && classNode) {
    const method = getClassMethod(classNode, path[1]!);
    if (method) return { fn: method, file, classNode, name: path[1]! };
    // A method of a base class (`this.parseParams(schema, params)` of `BaseTool`): it runs with this class's `this`.
    const inherited = inheritedMethod(classNode, path[1]!, file);
    return inherited ? { fn: inherited.fn, file: inherited.file, classNode, name: path[1]! } : undefined;
  }
  // `this.excelQuery.executeQuery(sql)`, the field given `new ExcelQuery()` in the constructor: that class's method.
  if (path.length === 3 && path[0] === 'this' && classNode) {
    const held = fieldClassOf(classNode, path[1]!, file);
    const method = held ? getClassMethod(held.classNode, path[2]!) : undefined;
    return held && method ? { fn: method, file: held.file, classNode: held.classNode, name: `this.${path[1]}.${path[2]}` } : undefined;
  }
  if (path.length === 2) {
    // `helpers.readIt(p)` with `import * as helpers from './helpers.js'`.
    const binding = file.imports.get(path[0]!);
    if (binding?.imported === '*') return resolveImportedName(file, binding.module, path[1]!, 0, filter);
    if (binding === undefined && unit) return resolveInstanceMethod(path[0]!, path[1]!, unit, file, filter, call);
  }
  return undefined;
}

/**
 * Does `wrapper` hand back a function that calls its parameter `index` with every argument it is given
 * (`withRetry(fn) { return async (...args) => { … return await fn(...args); … } }`)? Then calling what it
 * hands back runs `fn`, given the same arguments.
 */
function passesThrough(wrapper: FunctionNode, index: number): boolean {
  const parameter = wrapper.params[index];
  if (parameter?.type !== AST_NODE_TYPES.Identifier) return false;
  return returnedExpressions(wrapper).some((returned) => {
    const inner = skipTypeWrappers(returned);
    if (!isFunctionNode(inner)) return false;
    const rest = inner.params.length === 1 ? inner.params[0] : undefined;
    if (rest?.type !== AST_NODE_TYPES.RestElement || rest.argument.type !== AST_NODE_TYPES.Identifier) return false;
    const args = rest.argument.name;
    let calls = false;
    walk(inner.body, (node) => {
      if (calls) return false;
      if (node.type !== AST_NODE_TYPES.CallExpression) return undefined;
      const [spread] = node.arguments;
      calls =
        node.callee.type === AST_NODE_TYPES.Identifier &&
        node.callee.name === parameter.name &&
        node.arguments.length === 1 &&
        spread?.type === AST_NODE_TYPES.SpreadElement &&
        spread.argument.type === AST_NODE_TYPES.Identifier &&
        spread.argument.name === args;
      return undefined;
    });
    return calls;
  });
}

/**
 * `const retryableAnalyze = withRetry(service.analyzeImage.bind(service), 2, 1000); retryableAnalyze(path, prompt)`:
 * a wrapper that runs what it is handed (retry, timing, a rate limit) leaves the call to the function handed in
 * (here the method of `const service = new GeneralImageAnalysisService()`), given the same arguments.
 */
function wrappedByPassThrough(
  callee: TSESTree.Identifier,
  file: FileIndex,
  classNode: ClassNode | undefined,
  settings: RecognitionSettings,
): ResolvedFunction | undefined {
  const init = enclosingInitialiser(callee);
  const wrapping = init ? skipTypeWrappers(init) : undefined;
  if (wrapping?.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const wrapper = resolveCallee(wrapping, file, classNode, settings, false);
  if (!wrapper) return undefined;
  const index = wrapping.arguments.findIndex((_, position) => passesThrough(wrapper.fn, position));
  const handed = index < 0 ? undefined : wrapping.arguments[index];
  return handed ? handedFunction(handed, file, classNode) : undefined;
}

/** The function a value hands over: written in place, a function of the module, or `x.m` / `x.m.bind(x)` on an instance built here. */
function handedFunction(value: TSESTree.Node, file: FileIndex, classNode: ClassNode | undefined): ResolvedFunction | undefined {
  let target = skipTypeWrappers(value);
  if (isFunctionNode(target)) return { fn: target, file, classNode, name: shownFunctionName(target) };
  // `service.analyzeImage.bind(service)`: the method itself.
  if (
    target.type === AST_NODE_TYPES.CallExpression &&
    target.callee.type === AST_NODE_TYPES.MemberExpression &&
    getMemberPath(target.callee.property)?.[0] === 'bind'
  ) {
    target = skipTypeWrappers(target.callee.object);
  }
  if (target.type === AST_NODE_TYPES.Identifier) return resolveLocalName(file, target.name);
  const path = getMemberPath(target);
  if (!path || path.length !== 2) return undefined;
  const [receiver, methodName] = path as [string, string];
  if (receiver === 'this') {
    const method = classNode ? getClassMethod(classNode, methodName) : undefined;
    return method && classNode ? { fn: method, file, classNode, name: methodName } : undefined;
  }
  const object = target.type === AST_NODE_TYPES.MemberExpression ? skipTypeWrappers(target.object) : undefined;
  const built = object?.type === AST_NODE_TYPES.Identifier ? enclosingInitialiser(object) : undefined;
  const constructed = built ? skipTypeWrappers(built) : undefined;
  if (constructed?.type !== AST_NODE_TYPES.NewExpression || constructed.callee.type !== AST_NODE_TYPES.Identifier) return undefined;
  const resolved = resolveClassName(file, constructed.callee.name);
  const method = resolved ? getClassMethod(resolved.classNode, methodName) : undefined;
  return resolved && method ? { fn: method, file: resolved.file, classNode: resolved.classNode, name: methodName } : undefined;
}

/**
 * `const processor = new WebContentProcessor(options); processor.processPageContent(page, url)`:
 * a method called on a local the function built from a class we can see is
 * that class's method (the service object's own code, followed like a helper).
 * So is one on a constant in scope built from a class of this module
 * (`const decompilerService = new DecompilerService()` at the top, used by
 * every tool of the server); a class imported from another module is
 * followed only when the function builds its instance itself.
 */
function resolveInstanceMethod(
  local: string,
  methodName: string,
  unit: FunctionUnit,
  file: FileIndex,
  filter: ModuleFilter | undefined,
  call: TSESTree.Node,
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
  // A constant from outside the function only when its class is written in this module too: a
  // service written beside its tools is followed like a helper of the module.
  let outside = false;
  if (values.length === 0) {
    const constant = file.constants.get(local);
    if (constant && declaredInScopeOf(constant, call)) values.push(constant);
    outside = true;
  }
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
  if (className === undefined || (outside && !file.classes.has(className))) return undefined;
  const resolved = resolveClassName(file, className, 0, filter, kept ? MAX_KEPT_CLASS_MODULE_BYTES : undefined);
  const method = resolved ? getClassMethod(resolved.classNode, methodName) : undefined;
  return resolved && method ? { fn: method, file: resolved.file, classNode: resolved.classNode, name: methodName } : undefined;
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
