/**
 * Following helpers across functions and modules: the same-file function a call
 * runs, the traps of a `Proxy`, and, in other modules parsed without scope
 * analysis, the function a call runs and whether it (or what it calls) changes
 * state its module or instance keeps. A tool whose invocation changes nothing
 * itself still leaks state between invocations when a helper it calls does.
 */
import path from 'node:path';

import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import {
  type ClassNode,
  type FunctionNode,
  callOfCallee,
  collectBindingNames,
  enclosingInitialiser,
  getMemberPath,
  getStaticKeyName,
  isClassNode,
  isFunctionNode,
  skipChainAndTypeWrappers,
  skipTypeWrappers,
  walk,
} from '../ast.js';
import { type FileIndex, functionMadeByWrapper } from '../file-index.js';
import { type ScopeSource, foreignScopeSource } from '../foreign-scope.js';
import { returnedExpressions } from '../output-flow.js';
import { getClassMethod } from '../tool-shapes/vocabulary.js';
import {
  type ResolvedClass,
  type ResolvedFunction,
  enclosingClass,
  loadModule,
  resolveImportedName,
  resolveLocalName,
  resolveRelativeModule,
} from '../module-graph.js';
import type { RecognitionSettings } from '../settings.js';
import { type ScopeVariable, expressionRoot, isOwnModuleRequire, isPackageImport, nameWords, resolveIdentifier } from './expressions.js';
import { drivingCallOf, namesSharedObject } from './driving-calls.js';
import { changedStateIn, isLazyInitialisation, moduleLevelNames, mutationOf, ownNames } from './outer-state-mutation.js';
import type { SharedSource } from './state-use.js';
import { builtOrKeptClassOf, classOf, fieldClassOf, inheritedMethod } from '../base-classes.js';
import { filesDefiningMethod, packageRootOf } from '../package-files.js';
import { bundledImportFunction } from '../bundle-exports.js';

/**
 * The function a call's callee names in this file: `helper(…)` for a function declaration or a
 * `const helper = () => …` (also one a wrapper makes, `withValidation(schema, async (args) => …)`), or a bundle's own function taken from its dynamic import (`bundle-exports.ts`).
 */
export function calledFunction(variable: ScopeVariable): FunctionNode | undefined {
  for (const definition of variable.defs) {
    if (definition.type === 'FunctionName' && isFunctionNode(definition.node)) return definition.node;
    if (
      definition.type === 'Variable' &&
      definition.node.type === AST_NODE_TYPES.VariableDeclarator &&
      definition.parent?.type === AST_NODE_TYPES.VariableDeclaration &&
      definition.parent.kind === 'const'
    ) {
      const init = definition.node.init ? skipTypeWrappers(definition.node.init) : undefined;
      if (isFunctionNode(init)) return init;
      // `const handleOpen = withValidation(schema, async (args) => …)`: the function the wrapper is handed runs.
      const wrapped = init && functionMadeByWrapper(init);
      if (wrapped) return wrapped;
      // `const { getBrowser: getBrowser2 } = await init_index().then(() => index_exports)`: the bundle's own function.
      const bundled = bundledImportFunction(definition.node, variable.name);
      if (bundled) return bundled;
    }
  }
  return undefined;
}

/**
 * `handleClearCache(request, this.apiClient)`: a function of another module the call hands a
 * long-lived object (a field of the instance, or an object the function was itself handed, the
 * model's input aside). Principle: a helper changes what it is handed wherever it is written, so
 * it is followed as a helper of the same file is, read with its own module's scopes. Undefined
 * when the call hands nothing long-lived or its function is not found.
 */
export function importedHelperHandedState(
  call: TSESTree.CallExpression,
  variable: ScopeVariable,
  file: FileIndex,
  source: ScopeSource,
  inputNames: ReadonlySet<string>,
): { fn: FunctionNode; module: { source: ScopeSource; file: FileIndex } } | undefined {
  if (variable.defs[0]?.type !== 'ImportBinding' || isPackageImport(variable)) return undefined;
  const handsState = call.arguments.some((argument) => {
    const rooted = expressionRoot(argument);
    if (!rooted) return false;
    if (rooted.root.type === AST_NODE_TYPES.ThisExpression) return true;
    if (rooted.root.type !== AST_NODE_TYPES.Identifier || inputNames.has(rooted.root.name)) return false;
    return resolveIdentifier(rooted.root, source)?.defs.some((definition) => definition.type === 'Parameter') ?? false;
  });
  if (!handsState) return undefined;
  const resolved = resolveLocalName(file, variable.name);
  if (!resolved || resolved.file.program === file.program || !resolved.fn.body) return undefined;
  const foreign = foreignScopeSource(resolved.file.program);
  return foreign ? { fn: resolved.fn, module: { source: foreign, file: resolved.file } } : undefined;
}

/**
 * The trap functions of a `new Proxy(target, { get() { … } })` a variable holds, directly or
 * through the names its initialiser mentions (`const client = key ? new Api(key) : lazyClient`).
 * Principle: touching a Proxy runs its traps, so what a trap changes (a lazily created
 * client cached in a module variable on first use) is changed by the call that touches it.
 */
const proxyTrapCache = new WeakMap<ScopeVariable, { name: string; fn: FunctionNode }[]>();

export function proxyTraps(variable: ScopeVariable, sourceCode: ScopeSource, depth = 0): { name: string; fn: FunctionNode }[] {
  const cached = proxyTrapCache.get(variable);
  if (cached) return cached;
  const traps = findProxyTraps(variable, sourceCode, depth);
  if (depth === 0) proxyTrapCache.set(variable, traps);
  return traps;
}

function findProxyTraps(variable: ScopeVariable, sourceCode: ScopeSource, depth: number): { name: string; fn: FunctionNode }[] {
  const definition = variable.defs[0];
  if (depth > 2 || definition?.type !== 'Variable' || definition.node.type !== AST_NODE_TYPES.VariableDeclarator || !definition.node.init)
    return [];
  const init = skipTypeWrappers(definition.node.init);
  if (init.type === AST_NODE_TYPES.NewExpression && init.callee.type === AST_NODE_TYPES.Identifier && init.callee.name === 'Proxy') {
    const handler = init.arguments[1] ? skipTypeWrappers(init.arguments[1]) : undefined;
    if (handler?.type !== AST_NODE_TYPES.ObjectExpression) return [];
    return handler.properties.flatMap((property) => {
      if (property.type !== AST_NODE_TYPES.Property) return [];
      const name = getStaticKeyName(property.key, property.computed);
      const value = skipTypeWrappers(property.value);
      return name !== undefined && isFunctionNode(value) ? [{ name, fn: value }] : [];
    });
  }
  const traps: { name: string; fn: FunctionNode }[] = [];
  walk(init, (node) => {
    if (isFunctionNode(node) || isClassNode(node)) return false;
    if (node.type !== AST_NODE_TYPES.Identifier) return undefined;
    const parent = node.parent;
    if (parent?.type === AST_NODE_TYPES.MemberExpression && parent.property === node && !parent.computed) return undefined;
    if (parent?.type === AST_NODE_TYPES.Property && parent.key === node && !parent.computed) return undefined;
    const mentioned = resolveIdentifier(node, sourceCode);
    if (mentioned && mentioned !== variable) traps.push(...proxyTraps(mentioned, sourceCode, depth + 1));
    return undefined;
  });
  return traps;
}

/**
 * How many calls deep state is looked for in other modules (`handlers.handleStart` → `startProcess` →
 * `terminalManager.executeCommand`).
 */
const MAX_MODULE_DEPTH = 4;

/**
 * The class of a long-lived instance a module keeps under `name`: `const manager = new
 * TerminalManager()` in the module, or such a constant imported from a relative module.
 */
function instanceClassOf(name: string, file: FileIndex, depth = 0): { classNode: ClassNode; file: FileIndex } | undefined {
  if (depth > MAX_MODULE_DEPTH) return undefined;
  const init = file.constants.get(name);
  if (init) return classOf(init, file);
  const binding = file.imports.get(name);
  if (!binding || binding.imported === '*' || binding.imported === 'default') return undefined;
  const modulePath = resolveRelativeModule(binding.module, file.filePath);
  const imported = modulePath ? loadModule(modulePath) : undefined;
  const exported = imported?.exports.get(binding.imported);
  return imported && exported?.kind === 'local' ? instanceClassOf(exported.local, imported, depth + 1) : undefined;
}

/**
 * The function a call in a followed module runs, without scope analysis: `helper(…)` (its
 * own or imported), `ns.helper(…)` on a namespace import, `this.m(…)` in a method, and
 * `manager.m(…)` on a long-lived instance the module keeps or imports.
 */
function calleeInModule(
  call: TSESTree.CallExpression,
  file: FileIndex,
  classNode: ClassNode | undefined,
  shadowed: Set<string>,
): ResolvedFunction | undefined {
  const callee = skipChainAndTypeWrappers(call.callee);
  if (callee.type === AST_NODE_TYPES.Identifier) {
    if (shadowed.has(callee.name)) return undefined;
    const resolved = resolveLocalName(file, callee.name);
    return resolved ? { fn: resolved.fn, file: resolved.file, classNode: resolved.classNode, name: callee.name } : undefined;
  }
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const method = getStaticKeyName(callee.property, callee.computed);
  if (method === undefined) return undefined;
  const object = skipChainAndTypeWrappers(callee.object);
  if (object.type === AST_NODE_TYPES.ThisExpression) {
    if (!classNode) return undefined;
    const own = getClassMethod(classNode, method);
    if (own) return { fn: own, file, classNode, name: `this.${method}` };
    const inherited = inheritedMethod(classNode, method, file);
    return inherited
      ? { fn: inherited.fn, file: inherited.file, classNode: enclosingClass(inherited.fn), name: `this.${method}` }
      : undefined;
  }
  if (object.type !== AST_NODE_TYPES.Identifier || shadowed.has(object.name)) return undefined;
  const binding = file.imports.get(object.name);
  if (binding?.imported === '*') {
    const resolved = resolveImportedName(file, binding.module, method);
    return resolved ? { fn: resolved.fn, file: resolved.file, classNode: resolved.classNode, name: `${object.name}.${method}` } : undefined;
  }
  const built = instanceClassOf(object.name, file);
  const fn = built ? getClassMethod(built.classNode, method) : undefined;
  return fn && built ? { fn, file: built.file, classNode: built.classNode, name: `${object.name}.${method}` } : undefined;
}

/**
 * Locals of a followed function taken from state it keeps (`const session =
 * this.sessions.get(pid)`, `const entry = registry.get(id)`): changing or driving them
 * changes that state. Name → the state's words.
 */
function aliasesOfKeptState(fn: FunctionNode, moduleNames: Set<string>, shadowed: Set<string>, method: boolean): Map<string, string> {
  const aliases = new Map<string, string>();
  walk(fn.body ?? fn, (node) => {
    if (isClassNode(node)) return false;
    if (node.type !== AST_NODE_TYPES.VariableDeclarator || node.id.type !== AST_NODE_TYPES.Identifier || !node.init) return undefined;
    const rooted = expressionRoot(node.init);
    if (!rooted?.part || skipChainAndTypeWrappers(node.init) === rooted.root) return undefined;
    const root = rooted.root;
    if (method && root.type === AST_NODE_TYPES.ThisExpression) {
      const member = root.parent;
      const field =
        member?.type === AST_NODE_TYPES.MemberExpression && member.object === root
          ? getStaticKeyName(member.property, member.computed)
          : undefined;
      if (field !== undefined) aliases.set(node.id.name, `this.${field}`);
    } else if (root.type === AST_NODE_TYPES.Identifier && moduleNames.has(root.name) && !shadowed.has(root.name)) {
      aliases.set(node.id.name, root.name);
    }
    return undefined;
  });
  return aliases;
}

/**
 * Does a function of another module change state that outlives the call, itself or
 * through what it calls, up to `MAX_MODULE_DEPTH` calls deep? A long-lived manager reached
 * through a method whose name says nothing (`startProcess(args)` → `terminalManager.
 * executeCommand(…)` → `this.sessions.set(…)`) changes it all the same. The answer: the
 * state in words and the chain of calls that leads there.
 */
function deepStateChange(
  start: ResolvedFunction,
  settings: RecognitionSettings,
  depth = 1,
  visited = new Set<FunctionNode>(),
): { state: string; via: string[] } | undefined {
  const { fn, file } = start;
  if (!fn.body || visited.has(fn) || loadsConfiguration(start.name)) return undefined;
  visited.add(fn);
  const method =
    start.classNode !== undefined &&
    (fn.parent?.type === AST_NODE_TYPES.MethodDefinition || fn.parent?.type === AST_NODE_TYPES.PropertyDefinition);
  const own = method ? changedStateIn(fn, file.program, settings, true, true) : undefined;
  const changed = own ?? changedStateIn(fn, file.program, settings, false, true);
  if (changed !== undefined)
    return {
      state: changed.startsWith('this.')
        ? `\`${changed}\` of ${start.classNode?.id?.name ?? 'its class'}`
        : `\`${changed}\`, module state of ${path.basename(file.filePath)}`,
      via: [],
    };
  const moduleNames = moduleLevelNames(file.program);
  const shadowed = ownNames(fn);
  const aliases = aliasesOfKeptState(fn, moduleNames, shadowed, method);
  let found: { state: string; via: string[] } | undefined;
  const calls: TSESTree.CallExpression[] = [];
  walk(fn.body, (node) => {
    if (found) return false;
    if (isClassNode(node) || isLazyInitialisation(node, fn, settings)) return false;
    // `this.page.goto(hotelUrl)` in a method: the page the instance holds is driven, and the next call finds it there.
    const field = method ? drivenSharedField(node, settings) : undefined;
    if (field !== undefined) {
      found = { state: `\`this.${field}\` of ${start.classNode?.id?.name ?? 'its class'}`, via: [] };
      return false;
    }
    if (node.type === AST_NODE_TYPES.Identifier && aliases.has(node.name)) {
      const parent = node.parent;
      const isReference =
        !(parent?.type === AST_NODE_TYPES.MemberExpression && parent.property === node && !parent.computed) &&
        parent?.type !== AST_NODE_TYPES.VariableDeclarator;
      if (isReference && (mutationOf(node, settings) || drivingCallOf(node, settings, node.name))) {
        const kept = aliases.get(node.name)!;
        found = {
          state: kept.startsWith('this.')
            ? `\`${kept}\` of ${start.classNode?.id?.name ?? 'its class'}`
            : `\`${kept}\`, module state of ${path.basename(file.filePath)}`,
          via: [],
        };
        return false;
      }
    }
    if (node.type === AST_NODE_TYPES.CallExpression) calls.push(node);
    return undefined;
  });
  if (found || depth >= MAX_MODULE_DEPTH || !followsInto(start.name)) return found;
  for (const call of calls) {
    const next = calleeInModule(call, file, start.classNode, shadowed);
    const deeper = next && followsInto(next.name) ? deepStateChange(next, settings, depth + 1, visited) : undefined;
    if (deeper && next) return { state: deeper.state, via: [next.name, ...deeper.via] };
  }
  return undefined;
}

/** How many files that spell a method of the name are parsed to find the one class that defines it. */
const MAX_METHOD_FILES = 8;

/**
 * `ctx.siteState.ensureSelectedSite()` on a context the invocation is handed: the analysis cannot type
 * the context, but when exactly one class of the package defines a method of that name, that method is
 * what runs. Does it leave nothing behind: no field of its instance or variable of its module written,
 * nothing else of the instance called (`ensureSelectedSite() { if (!this.current) throw …; return { … } }`)?
 * Then its name's verb (`ensure…`) changes nothing; a method that makes what is missing
 * (`ensureTab() { if (!this.tab) await this.newTab(); … }`) still does.
 */
export function packageMethodLeavesNothing(methodName: string, file: FileIndex, settings: RecognitionSettings): boolean {
  const root = packageRootOf(file.filePath);
  if (root === undefined) return false;
  const found: { fn: FunctionNode; program: TSESTree.Program }[] = [];
  for (const filePath of filesDefiningMethod(root, methodName).slice(0, MAX_METHOD_FILES)) {
    const index = loadModule(filePath);
    for (const classNode of new Set(index?.classes.values() ?? [])) {
      const method = getClassMethod(classNode, methodName);
      if (method && index) found.push({ fn: method, program: index.program });
    }
  }
  if (found.length !== 1) return false;
  return methodLeavesNothing(found[0]!.fn, found[0]!.program, settings);
}

/**
 * Should a drive on `source` be dropped: a command-less call whose method leaves nothing behind, in the kept
 * instance's own class (`keptClass`), or in the one class of the package that defines it (an object handed in)?
 */
export function driveLeavesNothing(
  drive: { method: string; command?: string },
  source: Pick<SharedSource, 'handedIn' | 'keptClass'>,
  file: FileIndex | undefined,
  settings: RecognitionSettings,
): boolean {
  if (drive.command !== undefined) return false;
  // The kept instance's class: only a method seen to change a field of the instance (`this.rules.set(…)`) keeps
  // something for the next call; one that only calls a service (`writeNote` over HTTP) leaves the process as it was.
  if (source.keptClass) {
    const method = getClassMethod(source.keptClass.classNode, drive.method);
    return !method || changedStateIn(method, source.keptClass.program, settings, true) === undefined;
  }
  return source.handedIn === true && file !== undefined && packageMethodLeavesNothing(drive.method, file, settings);
}

/** How many of its own methods deep a method of a followed class is looked into. */
const MAX_OWN_METHOD_DEPTH = 2;

/**
 * Does `fn`, a method of a class of the package, leave nothing behind: it writes no field of its instance
 * and no module state, and each other method of its instance it calls (`this.extractXMLFromSVG(text)`, when
 * its class is known, `MAX_OWN_METHOD_DEPTH` deep) leaves nothing either?
 */
export function methodLeavesNothing(
  fn: FunctionNode,
  program: TSESTree.Program,
  settings: RecognitionSettings,
  classNode?: ClassNode,
  depth = 0,
): boolean {
  if (!fn.body || changedStateIn(fn, program, settings, true) !== undefined || changedStateIn(fn, program, settings, false) !== undefined) {
    return false;
  }
  let leaves = true;
  walk(fn.body, (node) => {
    if (!leaves) return false;
    if (node.type !== AST_NODE_TYPES.CallExpression) return undefined;
    const path = getMemberPath(node.callee);
    if (path?.[0] !== 'this') return undefined;
    const own = classNode && path.length === 2 && depth < MAX_OWN_METHOD_DEPTH ? getClassMethod(classNode, path[1]!) : undefined;
    if (!own || own === fn || !methodLeavesNothing(own, program, settings, classNode, depth + 1)) leaves = false;
    return undefined;
  });
  return leaves;
}

/**
 * `this.fileManager.saveGraphToSvg(graph, path)` in a method of `classNode`: a field that only ever holds
 * objects of one class of the package (`fieldClassOf`, also through the constructor parameter's default,
 * `fileManager = GraphFileManager.default`). Then the call is looked at for what that method does, not for
 * what its name says: `nothing` when it leaves nothing behind, the field of its instance (or the module
 * state) it changes, or undefined when the field's class or the method is not known.
 */
export function fieldMethodEffect(
  member: TSESTree.MemberExpression,
  classNode: ClassNode,
  file: FileIndex,
  settings: RecognitionSettings,
): { kind: 'nothing' } | { kind: 'changes'; state: string; className: string; method: string } | undefined {
  const field = getStaticKeyName(member.property, member.computed);
  const method = member.parent;
  const call = method?.parent;
  if (field === undefined || method?.type !== AST_NODE_TYPES.MemberExpression || method.object !== member) return undefined;
  if (call?.type !== AST_NODE_TYPES.CallExpression || call.callee !== method) return undefined;
  const name = getStaticKeyName(method.property, method.computed);
  const held = name === undefined ? undefined : fieldClassOf(classNode, field, file);
  const fn = held && name !== undefined ? getClassMethod(held.classNode, name) : undefined;
  if (fn === undefined || held === undefined || name === undefined) return undefined;
  const changed = changedStateIn(fn, held.file.program, settings, true) ?? changedStateIn(fn, held.file.program, settings, false);
  if (changed !== undefined) return { kind: 'changes', state: changed, className: held.classNode.id?.name ?? 'its class', method: name };
  // `this.dialogue.getGlobalContext().set(key, value)`: a method that hands back a part of its instance hands the
  // caller something to change; what the caller does with it is looked at as before.
  if (returnedExpressions(fn).some((value) => getMemberPath(skipTypeWrappers(value))?.[0] === 'this')) return undefined;
  return methodLeavesNothing(fn, held.file.program, settings, held.classNode) ? { kind: 'nothing' } : undefined;
}

/**
 * `const graph = await this.fileManager.loadGraphFromSvg(path)`: the field's one class of the package is known,
 * its method leaves nothing behind and hands back only what it makes for the call (`new Graph()`,
 * `Graph.fromXML(xml)`, a literal). What the call gets is its own, not a part of the field's object.
 */
export function freshFromFieldMethod(init: TSESTree.Node, classNode: ClassNode, file: FileIndex, settings: RecognitionSettings): boolean {
  let call = skipTypeWrappers(init);
  if (call.type === AST_NODE_TYPES.AwaitExpression) call = skipTypeWrappers(call.argument);
  if (call.type !== AST_NODE_TYPES.CallExpression) return false;
  const method = call.callee;
  if (method.type !== AST_NODE_TYPES.MemberExpression || method.object.type !== AST_NODE_TYPES.MemberExpression) return false;
  const member = method.object;
  if (member.object.type !== AST_NODE_TYPES.ThisExpression) return false;
  const field = getStaticKeyName(member.property, member.computed);
  const name = getStaticKeyName(method.property, method.computed);
  const held = field === undefined ? undefined : fieldClassOf(classNode, field, file);
  const fn = held && name !== undefined ? getClassMethod(held.classNode, name) : undefined;
  if (!fn || !held || !methodLeavesNothing(fn, held.file.program, settings, held.classNode)) return false;
  const returned = returnedExpressions(fn);
  return returned.length > 0 && returned.every((value) => isMadeForTheCall(value));
}

/** `new Graph()`, `Graph.fromXML(xml)` (a class's static factory), an object or array literal: made by this call. */
function isMadeForTheCall(value: TSESTree.Node): boolean {
  let target = skipTypeWrappers(value);
  if (target.type === AST_NODE_TYPES.AwaitExpression) target = skipTypeWrappers(target.argument);
  if (
    target.type === AST_NODE_TYPES.NewExpression ||
    target.type === AST_NODE_TYPES.ObjectExpression ||
    target.type === AST_NODE_TYPES.ArrayExpression
  ) {
    return true;
  }
  return (
    target.type === AST_NODE_TYPES.CallExpression &&
    target.callee.type === AST_NODE_TYPES.MemberExpression &&
    target.callee.object.type === AST_NODE_TYPES.Identifier &&
    /^[A-Z]/.test(target.callee.object.name) &&
    /^(?:from|create|parse|of|new)/.test(getStaticKeyName(target.callee.property, target.callee.computed) ?? '')
  );
}

/**
 * `this.page.goto(url)`, `this.driver.switchTo()`: a field of the instance named like a shared object
 * (settings.sharedObjectNames), driven by the call around it. The field's name (`ensureDriver()` for a getter), else undefined.
 */
function drivenSharedField(node: TSESTree.Node, settings: RecognitionSettings): string | undefined {
  if (node.type !== AST_NODE_TYPES.MemberExpression || skipChainAndTypeWrappers(node.object).type !== AST_NODE_TYPES.ThisExpression) {
    return undefined;
  }
  const field = getStaticKeyName(node.property, node.computed);
  if (field === undefined || !namesSharedObject(field, settings)) return undefined;
  // `this.ensureDriver().tap(x, y)`: a method named for the object hands it back, and what is called on that
  // drives it (not the getter itself, nor `this.ensureDriver().getScreenshot()`).
  const call = node.parent;
  if (call?.type === AST_NODE_TYPES.CallExpression && call.callee === node) return drivingCallOf(call, settings) ? `${field}()` : undefined;
  if (call?.type !== AST_NODE_TYPES.MemberExpression || call.object !== node) return undefined;
  return drivingCallOf(node, settings) ? field : undefined;
}

/** `x.method(…)` with `member` the `x.method`: the method's name, when the member is called. */
function calledMethodOf(member: TSESTree.MemberExpression): string | undefined {
  const call = member.parent;
  return call?.type === AST_NODE_TYPES.CallExpression && call.callee === member
    ? getStaticKeyName(member.property, member.computed)
    : undefined;
}

/**
 * The class of the package an argument was built from where the caller declared it (`const index = new
 * ContextIndex()` in the function around the tool, the class in the module or a relative import).
 */
function builtClassOfArgument(argument: TSESTree.Node, file: FileIndex): { classNode: ClassNode; file: FileIndex } | undefined {
  const target = skipTypeWrappers(argument);
  return target.type === AST_NODE_TYPES.Identifier ? classOf(enclosingInitialiser(target), file) : undefined;
}

/**
 * Does a function of another module change or drive what its parameter at
 * `index` holds (`state.pages.set(id, page)`, `session.closed = true`,
 * `page.goto(url)`)? A plain identifier parameter only, not shadowed inside.
 */
function changesParameter(
  fn: FunctionNode,
  index: number,
  settings: RecognitionSettings,
  built?: { classNode: ClassNode; file: FileIndex },
): boolean {
  const parameter = fn.params[index];
  if (parameter?.type !== AST_NODE_TYPES.Identifier || !fn.body) return false;
  const name = parameter.name;
  // Reassigned or redeclared inside: what it changes may be something else.
  let found = false;
  walk(fn.body, (node) => {
    if (found) return false;
    if (node.type === AST_NODE_TYPES.VariableDeclarator && collectBindingNames(node.id).includes(name)) found = true;
    if (node.type === AST_NODE_TYPES.AssignmentExpression && node.left.type === AST_NODE_TYPES.Identifier && node.left.name === name)
      found = true;
    return undefined;
  });
  if (found) return false;
  walk(fn.body, (node) => {
    if (found || isClassNode(node)) return false;
    if (isFunctionNode(node) && node.params.some((inner) => inner.type === AST_NODE_TYPES.Identifier && inner.name === name)) return false;
    if (node.type !== AST_NODE_TYPES.Identifier || node.name !== name) return undefined;
    const parent = node.parent;
    if (parent?.type === AST_NODE_TYPES.MemberExpression && parent.property === node && !parent.computed) return undefined;
    if (parent?.type !== AST_NODE_TYPES.MemberExpression || parent.object !== node) return undefined;
    // `index.insert(entry)` on an object the caller built from a class of the package (`new ContextIndex()`):
    // the method is followed, its name says nothing more (it may only write a database's rows).
    const method = built ? calledMethodOf(parent) : undefined;
    if (built && method !== undefined) {
      const own = getClassMethod(built.classNode, method);
      if (own) {
        if (
          changedStateIn(own, built.file.program, settings, true) !== undefined ||
          deepStateChange({ fn: own, file: built.file, classNode: built.classNode, name: method }, settings) !== undefined
        )
          found = true;
        return undefined;
      }
    }
    // `state.pages.set(…)`, `state.current = …`: the object or a collection it holds. A call deep in a
    // client (`gmail.users.labels.delete(…)`) asks a remote service; it changes nothing here.
    const mutation = mutationOf(node, settings);
    if ((mutation && (getMemberPath(mutation.path)?.length ?? 0) <= PARAMETER_STATE_DEPTH) || drivingCallOf(node, settings, name))
      found = true;
    return undefined;
  });
  return found;
}

/** How far into a handed object a change still counts as its own: `state.pages.set(…)`, `state.current = …` (the parameter and one name). */
const PARAMETER_STATE_DEPTH = 2;

/** First words of a function named as a question: it answers, and what it caches on the way is not a change. */
const QUERY_WORDS = new Set(['get', 'is', 'has', 'find', 'list', 'count', 'can', 'should']);
/** Words of a call that records the call for someone else (telemetry, logs): the tool does not behave differently for it. */
const BOOKKEEPING_WORDS = new Set(['log', 'logger', 'capture', 'track', 'telemetry', 'analytics', 'metric', 'metrics', 'trace']);

/** Words of a function's name that say what it loads is the configuration (`loadConfig`, `readSettings`, `getPrefs`). */
const CONFIGURATION_WORDS = new Set(['config', 'configuration', 'settings', 'prefs', 'preferences']);
const LOADING_WORDS = new Set(['load', 'read', 'get', 'resolve']);

/**
 * Does a function of another module load the configuration (`loadConfig()`, `readPrefs(path)`)?
 * What it caches on the way (`configCache`) answers the same on every call: the configuration,
 * not state a call of the tool leaves for the next one.
 */
function loadsConfiguration(name: string): boolean {
  const words = nameWords(name.slice(name.lastIndexOf('.') + 1));
  return LOADING_WORDS.has(words[0] ?? '') && words.slice(1).some((word) => CONFIGURATION_WORDS.has(word));
}

/**
 * Is a function of another module worth following into what it calls? Not when its name
 * asks a question (`getConfig`, `getFileHandler`: a config loaded or a handler made on first
 * use answers the same on every call) or says it records the call elsewhere (`capture`,
 * `trackToolCall`): what they keep is no state a later call of the tool is changed by.
 */
function followsInto(name: string): boolean {
  const words = nameWords(name.slice(name.lastIndexOf('.') + 1));
  const first = words[0];
  return first !== undefined && !QUERY_WORDS.has(first) && !isBookkeeping(name);
}

/**
 * Does a call record the call for someone else, by its method's or its receiver's words
 * (`trackToolCall`, `telemetryService.recordLinesOfCodeModified()`)? Its counters are
 * observability, not state a later call of the tool is changed by. Not a method that asks for
 * data (`googleAnalytics.queryAnalytics(…)`, `metrics.fetchReport(…)`): the analytics are what the
 * tool reads, and what that keeps (a result cache) is the tool's own.
 */
function isBookkeeping(name: string): boolean {
  if (DATA_QUERY_WORDS.has(nameWords(name.slice(name.lastIndexOf('.') + 1))[0] ?? '')) return false;
  return name.split('.').some((segment) => nameWords(segment).some((word) => BOOKKEEPING_WORDS.has(word)));
}

/** First words of a method that asks for data rather than records a call. */
const DATA_QUERY_WORDS = new Set([
  'query',
  'fetch',
  'get',
  'list',
  'search',
  'find',
  'read',
  'load',
  'compare',
  'detect',
  'analyze',
  'analyse',
]);

/** `a` → `b` → `c`, for a message. */
function chainWords(via: string[]): string {
  return via.length === 0 ? '' : ` (through ${via.map((name) => `\`${name}\``).join(' → ')})`;
}

/**
 * `new Command({ update: { files, … } })` with LangGraph's `Command`: the graph applies the
 * update to the agent's state, which every later call sees (a files channel, a task list).
 * An update of `messages` alone is only the tool's own result message.
 */
export function graphStateUpdate(
  identifier: TSESTree.Identifier,
  variable: ScopeVariable,
  file: FileIndex | undefined,
): TSESTree.Node | undefined {
  const created = identifier.parent;
  if (created?.type !== AST_NODE_TYPES.NewExpression || created.callee !== identifier || variable.defs[0]?.type !== 'ImportBinding')
    return undefined;
  const binding = file?.imports.get(identifier.name);
  if (!binding || binding.imported !== 'Command' || !binding.module.startsWith('@langchain/langgraph')) return undefined;
  const options = created.arguments[0] ? skipTypeWrappers(created.arguments[0]) : undefined;
  if (options?.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
  const update = options.properties.find(
    (property): property is TSESTree.Property =>
      property.type === AST_NODE_TYPES.Property && getStaticKeyName(property.key, property.computed) === 'update',
  );
  const value = update ? skipTypeWrappers(update.value) : undefined;
  if (value?.type !== AST_NODE_TYPES.ObjectExpression) return value === undefined ? undefined : created;
  const changesState = value.properties.some(
    (property) => property.type === AST_NODE_TYPES.SpreadElement || getStaticKeyName(property.key, property.computed) !== 'messages',
  );
  return changesState ? created : undefined;
}

/**
 * `x.method(…)` with `identifier` the `x` of `const x = new C(…)` (or of `const x = await getBrowser()`, a
 * helper that keeps one `new C(…)`): the call, the method's name, and that method in C (its own module or
 * a relative import), when all are found.
 */
function builtMethodCall(
  identifier: TSESTree.Identifier,
  variable: ScopeVariable,
  file: FileIndex,
): { call: TSESTree.CallExpression; methodName: string; built: ResolvedClass; method: FunctionNode } | undefined {
  const parent = identifier.parent;
  const definition = variable.defs[0];
  if (parent?.type !== AST_NODE_TYPES.MemberExpression || parent.object !== identifier) return undefined;
  const call = parent.parent;
  if (call?.type !== AST_NODE_TYPES.CallExpression || call.callee !== parent) return undefined;
  const methodName = getStaticKeyName(parent.property, parent.computed);
  if (methodName === undefined || definition?.type !== 'Variable' || definition.node.type !== AST_NODE_TYPES.VariableDeclarator)
    return undefined;
  const built = builtOrKeptClassOf(definition.node.init, file);
  const method = built ? getClassMethod(built.classNode, methodName) : undefined;
  return built && method ? { call, methodName, built, method } : undefined;
}

/**
 * `store.deleteProject(name)` on `const store = new Store(dir)`: a call whose method is found in the
 * class the variable was built from. What it changes is what `hiddenStateChange` finds by following
 * that method; its name alone (`delete…`) says nothing more (the class may only write files).
 */
export function callsFollowedMethod(identifier: TSESTree.Identifier, variable: ScopeVariable, file: FileIndex | undefined): boolean {
  return file !== undefined && builtMethodCall(identifier, variable, file) !== undefined;
}

/**
 * State kept where the invocation cannot see it, in words: a relatively imported
 * helper that changes its own module's bindings (`remember(url)` → `history.push(url)`
 * in `./history.js`), or a method of an outer object built from a class whose method
 * changes its fields (`thinking.processThought(x)` → `this.thoughtHistory.push(x)`).
 */
export function hiddenStateChange(
  identifier: TSESTree.Identifier,
  variable: ScopeVariable,
  file: FileIndex | undefined,
  settings: RecognitionSettings,
  /** Does an argument name an object that outlives the invocation (declared outside it)? */
  outlives: (argument: TSESTree.Node) => string | undefined = () => undefined,
): { node: TSESTree.Node; action: string; state: string } | undefined {
  if (!file) return undefined;
  const parent = identifier.parent;
  const definition = variable.defs[0];
  if (parent?.type === AST_NODE_TYPES.CallExpression && parent.callee === identifier) {
    if (definition?.type !== 'ImportBinding' || isPackageImport(variable)) return undefined;
    const resolved = resolveLocalName(file, identifier.name);
    if (!resolved || resolved.file === file) return undefined;
    const changed = deepStateChange(
      { fn: resolved.fn, file: resolved.file, classNode: resolved.classNode, name: identifier.name },
      settings,
    );
    if (changed !== undefined)
      return {
        node: parent,
        action: `calls imported \`${identifier.name}\`, which${chainWords(changed.via)} changes`,
        state: changed.state,
      };
    // `ensurePage(state, id)` with the server's long-lived `state`: the helper changes what it is handed.
    for (const [index, argument] of parent.arguments.entries()) {
      const words = outlives(argument);
      if (words !== undefined && changesParameter(resolved.fn, index, settings, builtClassOfArgument(argument, file))) {
        return { node: parent, action: `calls imported \`${identifier.name}\`, which changes`, state: words };
      }
    }
    return undefined;
  }
  if (parent?.type !== AST_NODE_TYPES.MemberExpression || parent.object !== identifier) return undefined;
  // tsc's CommonJS calls an imported function as `(0, search_js_1.searchDomain)(…)`.
  const call = callOfCallee(parent);
  if (!call) return undefined;
  const methodName = getStaticKeyName(parent.property, parent.computed);
  const ownModule = (definition?.type === 'ImportBinding' && !isPackageImport(variable)) || isOwnModuleRequire(variable);
  if (methodName !== undefined && ownModule) {
    // `handlers.handleStart(…)` on a namespace import, `manager.run(…)` on an imported long-lived instance.
    const callee = calleeInModule(call, file, undefined, new Set());
    const changed = callee && !isBookkeeping(callee.name) ? deepStateChange(callee, settings) : undefined;
    if (!changed || !callee) return undefined;
    return { node: call, action: `calls \`${callee.name}()\`, which${chainWords(changed.via)} changes`, state: changed.state };
  }
  const found = builtMethodCall(identifier, variable, file);
  if (!found) return undefined;
  const { built, method } = found;
  const changed = changedStateIn(method, built.file.program, settings, true);
  if (changed !== undefined)
    return { node: call, action: `calls \`.${methodName}()\`, which changes \`${changed}\` of`, state: `\`${variable.name}\`` };
  // What its method calls in turn: `this.sessions.set(…)` two calls down still changes the instance.
  const deeper = deepStateChange({ fn: method, file: built.file, classNode: built.classNode, name: found.methodName }, settings);
  if (deeper === undefined) return undefined;
  return {
    node: call,
    action: `calls \`.${methodName}()\`, which${chainWords(deeper.via)} changes ${deeper.state}, kept in`,
    state: `\`${variable.name}\``,
  };
}
