/**
 * State leakage: does a tool's invocation change state that outlives the
 * call (module-level variables and collections, instance fields, factory
 * closures, cookie jars and clients kept between calls)? Such a tool behaves
 * differently on call N than on call 1, and the session can only plan for it
 * when the tool declares `stateScope: 'isolated' | 'session' | 'agent'`.
 *
 * `findOutlivingStateUses(definition, recognition, sourceCode)` answers for
 * one tool definition; `findDeclaredStateScope` finds its declaration, own
 * or inherited. The rule `declare-tool-state-scope` and the tool inventory
 * both ask here.
 */
import path from 'node:path';

import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import {
  type ClassNode,
  type FunctionNode,
  containsNode,
  getStaticKeyName,
  isClassNode,
  isFunctionNode,
  skipChainAndTypeWrappers,
  skipTypeWrappers,
  walk,
} from './ast.js';
import { STATE_SCOPES } from '../types/classify-tool.js';
import { findDeclaredClassification } from './classification.js';
import type { RecognitionContext } from './context.js';
import type { FileIndex } from './file-index.js';
import { type ScopeSource, foreignScopeSource } from './foreign-scope.js';
import { type InvocationEntry, findWrappingInvocations, getClassMethod, getInvocation } from './invocation.js';
import {
  type ResolvedFunction,
  enclosingClass,
  loadModule,
  resolveImportedName,
  resolveLocalName,
  resolveRelativeModule,
} from './module-graph.js';
import { findInheritedToolMember } from './self-reading.js';
import type { RecognitionSettings } from './settings.js';
import type { ToolDefinition, ToolMember } from './tool-definitions.js';
import {
  type ScopeVariable,
  describeOuterVariable,
  expressionRoot,
  isPackageImport,
  nameWords,
  outermostMember,
  resolveIdentifier,
  thisBelongsTo,
} from './state-mutation/expressions.js';
import { type FunctionToAnalyse, type SharedSource, type StateUse, stateUseMaker } from './state-mutation/state-use.js';
import { drivingCallOf, namesSharedObject, receiverSegments } from './state-mutation/driving-calls.js';
import { undoneBeforeReturn } from './state-mutation/balanced-changes.js';
import { carrierFieldsOf, carrierOfVariable, handedFieldsOf, whereCreated } from './state-mutation/carriers.js';
import {
  PROCESS_WIDE_GLOBALS,
  changedStateIn,
  isLazyInitialisation,
  isLogOnlyLatch,
  isWriteTarget,
  moduleLevelNames,
  mutationOf,
  ownNames,
  writingNode,
} from './state-mutation/outer-state-mutation.js';
import { classOf, inheritedMethod } from './state-mutation/base-classes.js';
export type { StateUse, StateUseKind } from './state-mutation/state-use.js';

const MEMBER = 'stateScope';
/** The declarable scopes: the one list the runtime and the types use too (plain data, no runtime code). */
export const STATE_SCOPE_VALUES = STATE_SCOPES;

/** What `this` is in an invocation entry, in words; `undefined` when it is not an object that outlives the call. */
function thisTarget(entry: InvocationEntry, definition: ToolDefinition): 'instance' | 'tool-object' | undefined {
  // An invocation class (gemini's createInvocation) is built anew for every call: its fields die with it.
  if (entry.invocationClass) return undefined;
  if (entry.classNode) return 'instance';
  const host = definition.host;
  if (
    host &&
    !isClassNode(host) &&
    entry.fn.type === AST_NODE_TYPES.FunctionExpression &&
    entry.fn.parent?.type === AST_NODE_TYPES.Property
  ) {
    return 'tool-object';
  }
  return undefined;
}

/** How far the rule follows same-file helpers the invocation calls (`remember(url)` → `cache.set(…)`). */
const MAX_HELPER_DEPTH = 3;

/** A factory's function around the tool's invocation: reported at the tool, named after the factory. */
interface WrapperContext {
  reportAt: TSESTree.Node;
  factory: string;
}

/** The function a call's callee names in this file: `helper(…)` for a function declaration or a `const helper = () => …`. */
function calledFunction(variable: ScopeVariable): FunctionNode | undefined {
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
    }
  }
  return undefined;
}

/**
 * The trap functions of a `new Proxy(target, { get() { … } })` a variable holds, directly or
 * through the names its initialiser mentions (`const client = key ? new Api(key) : lazyClient`).
 * Principle: touching a Proxy runs its traps, so what a trap changes (a lazily created
 * client cached in a module variable on first use) is changed by the call that touches it.
 */
const proxyTrapCache = new WeakMap<ScopeVariable, { name: string; fn: FunctionNode }[]>();

function proxyTraps(variable: ScopeVariable, sourceCode: ScopeSource, depth = 0): { name: string; fn: FunctionNode }[] {
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
  if (!fn.body || visited.has(fn)) return undefined;
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

/** First words of a function named as a question: it answers, and what it caches on the way is not a change. */
const QUERY_WORDS = new Set(['get', 'is', 'has', 'find', 'list', 'count', 'can', 'should']);
/** Words of a call that records the call for someone else (telemetry, logs): the tool does not behave differently for it. */
const BOOKKEEPING_WORDS = new Set(['log', 'logger', 'capture', 'track', 'telemetry', 'analytics', 'metric', 'metrics', 'trace']);

/**
 * Is a function of another module worth following into what it calls? Not when its name
 * asks a question (`getConfig`, `getFileHandler`: a config loaded or a handler made on first
 * use answers the same on every call) or says it records the call elsewhere (`capture`,
 * `trackToolCall`): what they keep is no state a later call of the tool is changed by.
 */
function followsInto(name: string): boolean {
  const words = nameWords(name.slice(name.lastIndexOf('.') + 1));
  const first = words[0];
  return first !== undefined && !QUERY_WORDS.has(first) && !words.some((word) => BOOKKEEPING_WORDS.has(word));
}

/** `a` → `b` → `c`, for a message. */
function chainWords(via: string[]): string {
  return via.length === 0 ? '' : ` (through ${via.map((name) => `\`${name}\``).join(' → ')})`;
}

/**
 * `new Command({ update: { files, … } })` with LangGraph's `Command`: the graph applies the
 * update to the agent's state, which every later call sees (a files channel, a task list).
 * An update of `messages` alone is only the tool's own result message.
 */
function graphStateUpdate(
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
 * State kept where the invocation cannot see it, in words: a relatively imported
 * helper that changes its own module's bindings (`remember(url)` → `history.push(url)`
 * in `./history.js`), or a method of an outer object built from a class whose method
 * changes its fields (`thinking.processThought(x)` → `this.thoughtHistory.push(x)`).
 */
function hiddenStateChange(
  identifier: TSESTree.Identifier,
  variable: ScopeVariable,
  file: FileIndex | undefined,
  settings: RecognitionSettings,
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
    if (changed === undefined) return undefined;
    return { node: parent, action: `calls imported \`${identifier.name}\`, which${chainWords(changed.via)} changes`, state: changed.state };
  }
  if (parent?.type !== AST_NODE_TYPES.MemberExpression || parent.object !== identifier) return undefined;
  const call = parent.parent;
  if (call?.type !== AST_NODE_TYPES.CallExpression || call.callee !== parent) return undefined;
  const methodName = getStaticKeyName(parent.property, parent.computed);
  if (methodName !== undefined && definition?.type === 'ImportBinding' && !isPackageImport(variable)) {
    // `handlers.handleStart(…)` on a namespace import, `manager.run(…)` on an imported long-lived instance.
    const callee = calleeInModule(call, file, undefined, new Set());
    const changed = callee ? deepStateChange(callee, settings) : undefined;
    if (!changed || !callee) return undefined;
    return { node: call, action: `calls \`${callee.name}()\`, which${chainWords(changed.via)} changes`, state: changed.state };
  }
  if (methodName === undefined || definition?.type !== 'Variable' || definition.node.type !== AST_NODE_TYPES.VariableDeclarator)
    return undefined;
  const built = classOf(definition.node.init, file);
  const method = built ? getClassMethod(built.classNode, methodName) : undefined;
  const changed = method && built ? changedStateIn(method, built.file.program, settings, true) : undefined;
  if (changed !== undefined)
    return { node: call, action: `calls \`.${methodName}()\`, which changes \`${changed}\` of`, state: `\`${variable.name}\`` };
  // What its method calls in turn: `this.sessions.set(…)` two calls down still changes the instance.
  const deeper =
    method && built ? deepStateChange({ fn: method, file: built.file, classNode: built.classNode, name: methodName }, settings) : undefined;
  if (deeper === undefined) return undefined;
  return {
    node: call,
    action: `calls \`.${methodName}()\`, which${chainWords(deeper.via)} changes ${deeper.state}, kept in`,
    state: `\`${variable.name}\``,
  };
}

/**
 * Is `node` inside a function that `fn` only defines for later (`adapted.execute = (cmd) =>
 * sandbox.execute(cmd)`), rather than one it hands to a call that runs it now (`items.map(…)`)?
 * What a deferred function does is not this call's change.
 */
function inDeferredFunction(node: TSESTree.Node, fn: FunctionNode): boolean {
  for (let current = node.parent; current && current !== fn; current = current.parent) {
    if (!isFunctionNode(current)) continue;
    const parent = current.parent;
    const runsNow =
      parent?.type === AST_NODE_TYPES.CallExpression &&
      (parent.arguments.includes(current as TSESTree.Expression) || parent.callee === current);
    if (!runsNow) return true;
  }
  return false;
}

/**
 * `const page = await ensureBrowser(args)` where the same-file helper ends in `return page`
 * of a variable declared outside it and outside the invocation (module level, a factory's
 * closure). Principle: a helper that hands back an object it keeps between calls gives its
 * caller that long-lived object, so driving the local drives what every later call gets.
 */
function keptObjectReturnedBy(callee: TSESTree.Identifier, fn: FunctionNode, sourceCode: ScopeSource): SharedSource | undefined {
  const calleeVariable = resolveIdentifier(callee, sourceCode);
  const helper = calleeVariable ? calledFunction(calleeVariable) : undefined;
  if (!helper?.body || containsNode(helper, fn) || containsNode(fn, helper)) return undefined;
  const returned: TSESTree.Node[] = [];
  if (helper.body.type !== AST_NODE_TYPES.BlockStatement) returned.push(helper.body);
  else {
    walk(helper.body, (node) => {
      if (isFunctionNode(node) || isClassNode(node)) return false;
      if (node.type === AST_NODE_TYPES.ReturnStatement && node.argument) returned.push(node.argument);
      return undefined;
    });
  }
  for (const value of returned) {
    let target = skipTypeWrappers(value);
    if (target.type === AST_NODE_TYPES.AwaitExpression) target = skipTypeWrappers(target.argument);
    if (target.type !== AST_NODE_TYPES.Identifier) continue;
    const variable = resolveIdentifier(target, sourceCode);
    const definition = variable?.defs[0];
    if (
      !variable ||
      !definition ||
      definition.type === 'ImportBinding' ||
      definition.type === 'Parameter' ||
      definition.type === 'FunctionName'
    )
      continue;
    if (containsNode(helper, definition.name) || containsNode(fn, definition.name)) continue;
    const outer = describeOuterVariable(variable, fn);
    if (!outer) continue;
    return {
      words: `${outer.words}, which \`${callee.name}\` returns`,
      stateKey: `variable:${variable.name}:${definition.name.range[0]}`,
      part: true,
      names: [variable.name],
    };
  }
  return undefined;
}

/**
 * Long-lived objects the invocation drives without creating them: the invocation's
 * parameters that are not the model's input (a framework context), and locals taken from
 * an outer object (`const page = await v3.context.awaitActivePage()`,
 * `const task = tasks.get(id)`, `const { computer } = requireComputer(context)`).
 * A change through such a local changes the object a later call sees.
 */
function sharedObjectUses(
  entry: InvocationEntry,
  item: FunctionToAnalyse,
  target: 'instance' | 'tool-object' | undefined,
  toolName: string,
  where: string,
  at: (node: TSESTree.Node) => TSESTree.Node,
  sourceCode: ScopeSource,
  settings: RecognitionSettings,
): StateUse[] {
  const { fn } = item;
  if (!fn.body) return [];
  const report = stateUseMaker(toolName, fn, at);
  const sources = new Map<ScopeVariable, SharedSource>();
  if (item.depth === 0) {
    fn.params.forEach((parameter, index) => {
      if (entry.inputParameters.includes(index)) return;
      for (const variable of sourceCode.scopeManager?.getDeclaredVariables(fn) ?? []) {
        if (variable.defs.some((definition) => definition.type === 'Parameter' && containsNode(parameter, definition.name))) {
          sources.set(variable, {
            words: `\`${variable.name}\`, the invocation's context argument`,
            stateKey: `param:${variable.name}`,
            part: true,
            names: [variable.name],
          });
        }
      }
    });
  }
  // A helper handed a long-lived object (`applyTaskMutation(context, …)`): its parameter is that object.
  const call = item.call;
  const callerSource = item.caller?.resolver;
  if (call?.type === AST_NODE_TYPES.CallExpression && callerSource) {
    call.arguments.forEach((argument, index) => {
      const parameter = fn.params[index];
      const argumentRoot = expressionRoot(argument);
      const source = argumentRoot && parameter?.type === AST_NODE_TYPES.Identifier ? callerSource(argumentRoot.root) : undefined;
      if (!source || !argumentRoot?.part) return;
      for (const variable of sourceCode.scopeManager?.getDeclaredVariables(fn) ?? []) {
        if (variable.defs.some((definition) => definition.type === 'Parameter' && definition.name === parameter)) {
          sources.set(variable, { words: source.words, stateKey: source.stateKey, part: source.part, names: source.names });
        }
      }
    });
  }
  const sourceOfRoot = (root: TSESTree.Node): SharedSource | undefined => {
    if (root.type === AST_NODE_TYPES.ThisExpression) {
      if ((target === undefined && !entry.invocationClass) || !thisBelongsTo(root, fn)) return undefined;
      const member = root.parent;
      if (member?.type !== AST_NODE_TYPES.MemberExpression || member.object !== root) return undefined;
      const field = getStaticKeyName(member.property, member.computed);
      if (field === undefined || (entry.invocationClass && entry.inputThisMembers.includes(field))) return undefined;
      return { words: `instance field \`this.${field}\``, stateKey: `this:${field}`, part: true, names: [field] };
    }
    if (root.type !== AST_NODE_TYPES.Identifier) return undefined;
    const variable = resolveIdentifier(root, sourceCode);
    if (!variable) return undefined;
    const known = sources.get(variable);
    if (known) return known;
    if (isPackageImport(variable)) return undefined;
    const outer = describeOuterVariable(variable, fn);
    if (!outer) return undefined;
    return {
      words: outer.words,
      stateKey: `variable:${variable.name}:${variable.defs[0]?.name.range[0] ?? 0}`,
      part: true,
      names: [variable.name],
    };
  };
  item.resolver = sourceOfRoot;
  walk(fn.body, (node) => {
    if (isClassNode(node)) return false;
    // `this.safeExecute(context, async (page) => page.click(…))`: a helper handed a long-lived
    // object and a callback runs the callback with that object's part. A callback parameter
    // named as a shared object (`page`, `tab`, `browser`) is then that object's part.
    if (node.type === AST_NODE_TYPES.CallExpression) {
      const handed = node.arguments.map((argument) => expressionRoot(argument)).find((rooted) => rooted && sourceOfRoot(rooted.root));
      const source = handed ? sourceOfRoot(handed.root) : undefined;
      if (!source) return undefined;
      for (const argument of node.arguments) {
        if (!isFunctionNode(argument)) continue;
        for (const variable of sourceCode.scopeManager?.getDeclaredVariables(argument) ?? []) {
          const isParameter = variable.defs.some((definition) => definition.type === 'Parameter');
          if (isParameter && namesSharedObject(variable.name, settings)) {
            // What the helper hands over may be anything of the object: only driving it counts, not a `.delete()` on it.
            sources.set(variable, {
              words: `\`${variable.name}\`, handed over from ${source.words}`,
              stateKey: source.stateKey,
              part: false,
              names: [variable.name],
            });
          }
        }
      }
      return undefined;
    }
    if (node.type !== AST_NODE_TYPES.VariableDeclarator || !node.init) return undefined;
    let source: SharedSource | undefined;
    let part = false;
    const rooted = expressionRoot(node.init);
    if (rooted) {
      source = sourceOfRoot(rooted.root);
      part = rooted.part && (source?.part ?? false);
    } else {
      let call = skipTypeWrappers(node.init);
      if (call.type === AST_NODE_TYPES.AwaitExpression) call = skipTypeWrappers(call.argument);
      // A helper handed a long-lived object returns it or its parts: `requireComputer(context)`.
      if (call.type === AST_NODE_TYPES.CallExpression && call.callee.type === AST_NODE_TYPES.Identifier) {
        for (const argument of call.arguments) {
          const argumentRoot = expressionRoot(argument);
          source = argumentRoot ? sourceOfRoot(argumentRoot.root) : undefined;
          if (source) break;
        }
        if (!source) {
          // …or a helper that hands back an object it keeps: the local is that object itself.
          source = keptObjectReturnedBy(call.callee, fn, sourceCode);
          part = source !== undefined;
        }
      }
    }
    if (!source) return undefined;
    for (const variable of sourceCode.scopeManager?.getDeclaredVariables(node) ?? []) {
      // The names it was taken through (`tab.targetLocator(…)`, a kept `page`) still say what it
      // is a handle of; only this step's names, or `context.filesystem.readFile(…)`'s text would
      // count as a handle of the context.
      const names = rooted ? receiverSegments(node.init) : part ? source.names : [];
      sources.set(variable, { words: `\`${variable.name}\`, taken from ${source.words}`, stateKey: source.stateKey, part, names });
    }
    return undefined;
  });
  const uses: StateUse[] = [];
  for (const [variable, source] of sources) {
    for (const reference of variable.references) {
      if (reference.isWrite() || !containsNode(fn, reference.identifier) || inDeferredFunction(reference.identifier, fn)) continue;
      const identifier = reference.identifier as TSESTree.Node;
      const mutation = source.part ? mutationOf(identifier, settings) : undefined;
      if (mutation) {
        uses.push(report.mutates(mutation.node, mutation.verb, `${source.words}${where}`, source.stateKey));
        continue;
      }
      const drive = drivingCallOf(identifier, settings, variable.name, source.names);
      if (drive) {
        uses.push(report.drives(drive.node, drive.method, `${source.words}${where}`, source.stateKey));
      }
    }
  }
  return uses;
}

function analyseEntry(
  entry: InvocationEntry,
  definition: ToolDefinition,
  toolName: string,
  sourceCode: ScopeSource,
  settings: RecognitionSettings,
  file: FileIndex | undefined,
  wrapper?: WrapperContext,
): StateUse[] {
  const findings: StateUse[] = [];
  const target = wrapper ? undefined : thisTarget(entry, definition);
  const carrierFields = target === 'instance' && entry.classNode ? carrierFieldsOf(entry.classNode, settings) : new Map<string, string>();
  const handedFields = entry.invocationClass ? handedFieldsOf(entry.invocationClass) : new Set<string>();
  const visited = new Set<FunctionNode>([entry.fn]);
  const queue: FunctionToAnalyse[] = [
    wrapper
      ? {
          fn: entry.fn,
          via: wrapper.factory,
          depth: 0,
          callSite: wrapper.reportAt,
          where: ` (in \`${wrapper.factory}\`, which wraps the invocation)`,
        }
      : { fn: entry.fn, via: undefined, depth: 0, callSite: undefined },
  ];
  const follow = (fn: FunctionNode | undefined, via: string, from: FunctionToAnalyse, call: TSESTree.Node) => {
    if (!fn || visited.has(fn) || from.depth >= MAX_HELPER_DEPTH || containsNode(fn, entry.fn)) return;
    visited.add(fn);
    queue.push({ fn, via, depth: from.depth + 1, callSite: from.callSite ?? call, call, caller: from });
  };

  for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
    const { fn, via, callSite } = item;
    const current = item;
    const where = item.where ?? (via === undefined ? '' : ` (in \`${via}\`, which the invocation calls)`);
    const at = (node: TSESTree.Node): TSESTree.Node => callSite ?? node;
    const report = stateUseMaker(toolName, fn, at);
    const scope = sourceCode.scopeManager?.acquire(fn);
    // A dispatcher serves many tools: only what runs in this tool's branch is its state,
    // or every tool of a low-level server would be blamed for the dispatcher's bookkeeping.
    const region = fn === entry.fn ? entry.region : undefined;
    // Free references of the function: everything it reaches that is declared outside it.
    for (const reference of scope?.through ?? []) {
      const identifier = reference.identifier as TSESTree.Node;
      if (identifier.type !== AST_NODE_TYPES.Identifier) continue;
      if (region && !containsNode(region, identifier)) continue;
      const variable = reference.resolved;
      if (variable === null) {
        if (!PROCESS_WIDE_GLOBALS.has(identifier.name)) continue;
        const mutation = mutationOf(identifier, settings);
        if (mutation) {
          findings.push(
            report.mutates(
              mutation.node,
              mutation.verb,
              `the process-wide global \`${sourceCode.getText(mutation.path)}\`${where}`,
              `global:${identifier.name}`,
            ),
          );
        }
        continue;
      }
      // `slots.next()` … `finally { slots.push() }`: undone before the call returns.
      if (undoneBeforeReturn(identifier, fn, settings)) continue;
      const graphUpdate = graphStateUpdate(identifier, variable, file);
      if (graphUpdate) {
        findings.push(
          report.mutates(
            graphUpdate,
            'returns a LangGraph `Command` whose `update` changes',
            `the agent's graph state${where}`,
            'graph-state',
          ),
        );
        continue;
      }
      const hidden = hiddenStateChange(identifier, variable, file, settings);
      if (hidden) {
        findings.push(
          report.mutates(
            hidden.node,
            hidden.action,
            `${hidden.state}${where}`,
            `hidden:${variable.name}:${variable.defs[0]?.name.range[0] ?? 0}`,
          ),
        );
        continue;
      }
      for (const trap of proxyTraps(variable, sourceCode))
        follow(trap.fn, `the ${trap.name} trap of ${variable.name}`, current, identifier);
      const callParent = identifier.parent;
      const called =
        callParent?.type === AST_NODE_TYPES.CallExpression && callParent.callee === identifier ? calledFunction(variable) : undefined;
      if (called && callParent) {
        follow(called, variable.name, current, callParent);
        continue;
      }
      const outer = describeOuterVariable(variable, fn);
      if (!outer) continue;
      const stateKey = `variable:${variable.name}:${variable.defs[0]?.name.range[0] ?? 0}`;
      if (reference.isWrite()) {
        if (outer.imported || isLogOnlyLatch(variable)) continue;
        findings.push(report.mutates(writingNode(identifier), 'assigns', `${outer.words}${where}`, stateKey));
        continue;
      }
      const mutation = mutationOf(identifier, settings);
      if (mutation) {
        findings.push(report.mutates(mutation.node, mutation.verb, `${outer.words}${where}`, stateKey));
        continue;
      }
      const drive = isPackageImport(variable) ? undefined : drivingCallOf(identifier, settings);
      if (drive) {
        findings.push(report.drives(drive.node, drive.method, `${outer.words}${where}`, stateKey));
        continue;
      }
      const kind = carrierOfVariable(variable, settings);
      if (kind !== undefined) {
        findings.push(report.usesCarrier(identifier, kind, variable.name, `${whereCreated(variable)}${where}`, stateKey));
      }
    }

    findings.push(...sharedObjectUses(entry, item, target, toolName, where, at, sourceCode, settings));

    // An invocation class is built per call, but what its fields hold (the tool's config) is not.
    const thisKind = target ?? (entry.invocationClass ? 'invocation' : undefined);
    if (thisKind === undefined || !fn.body) continue;
    walk(region ?? fn.body, (node) => {
      if (isClassNode(node)) return false;
      if (node.type !== AST_NODE_TYPES.ThisExpression || !thisBelongsTo(node, fn)) return undefined;
      const member = node.parent;
      if (member?.type !== AST_NODE_TYPES.MemberExpression || member.object !== node) return undefined;
      const field = getStaticKeyName(member.property, member.computed) ?? '[computed]';
      // `this.helper(…)` in a class tool: follow the method, it runs on the same instance.
      if (member.parent?.type === AST_NODE_TYPES.CallExpression && member.parent.callee === member) {
        if (!entry.classNode || field === '[computed]') return undefined;
        const own = getClassMethod(entry.classNode, field);
        if (own) {
          follow(own, `this.${field}`, current, member.parent);
          return undefined;
        }
        // A base class (often in another file) that caches a client in `this.gmail` on first use.
        const inherited = thisKind === 'instance' && file ? inheritedMethod(entry.classNode, field, file) : undefined;
        const changed = inherited ? changedStateIn(inherited.fn, inherited.file.program, settings, true) : undefined;
        if (inherited && changed !== undefined) {
          findings.push(
            report.mutates(
              member.parent,
              `calls \`this.${field}()\` (inherited from \`${inherited.className}\`), which changes`,
              `instance field \`${changed}\`${where}`,
              `this:${changed.slice('this.'.length)}`,
            ),
          );
        }
        return undefined;
      }
      if (undoneBeforeReturn(node, fn, settings)) return undefined;
      const state = thisKind === 'tool-object' ? `property \`${field}\` of the tool object` : `instance field \`this.${field}\``;
      const words = `${state}${where}`;
      const stateKey = `this:${field}`;
      if (thisKind === 'invocation') {
        if (entry.inputThisMembers.includes(field)) return undefined;
        const mutation = handedFields.has(field) ? mutationOf(node, settings) : undefined;
        if (mutation && skipChainAndTypeWrappers(mutation.path) !== node) {
          findings.push(report.mutates(mutation.node, mutation.verb, `${words}, which the tool handed to its invocation`, stateKey));
          return undefined;
        }
        const drive = drivingCallOf(node, settings);
        if (drive) findings.push(report.drives(drive.node, drive.method, words, stateKey));
        return undefined;
      }
      const chain = outermostMember(node);
      const parent = chain.parent;
      const directWrite =
        skipChainAndTypeWrappers(chain) === member &&
        ((parent?.type === AST_NODE_TYPES.AssignmentExpression && isWriteTarget(parent.left, chain)) ||
          parent?.type === AST_NODE_TYPES.UpdateExpression);
      if (directWrite && parent) {
        findings.push(report.mutates(parent, 'assigns', words, stateKey));
        return undefined;
      }
      const mutation = mutationOf(node, settings);
      if (mutation && skipChainAndTypeWrappers(mutation.path) !== node) {
        findings.push(report.mutates(mutation.node, mutation.verb, words, stateKey));
        return undefined;
      }
      const drive = drivingCallOf(node, settings);
      if (drive) {
        findings.push(report.drives(drive.node, drive.method, words, stateKey));
        return undefined;
      }
      const kind = carrierFields.get(field);
      if (kind !== undefined) {
        findings.push(report.usesCarrier(member, kind, `this.${field}`, `in an instance field${where}`, stateKey));
      }
      return undefined;
    });
  }
  // A dispatcher serves many tools: only what happens in this tool's branch is this tool's.
  const region = entry.region;
  return region ? findings.filter((finding) => containsNode(region, finding.node)) : findings;
}

/** `stateScope` as the tool declares it; a base class of the same file counts for its subclasses. */
export function findDeclaredStateScope(definition: ToolDefinition, recognition: RecognitionContext): ToolMember | undefined {
  // A `classifyTool` wrapper declares it for tools whose framework type has no stateScope field.
  return findDeclaredClassification(definition, MEMBER) ?? findInheritedToolMember(definition, MEMBER, recognition);
}

/**
 * The outliving state one tool's invocation touches, one use per state and
 * function (a helper that touches `active` ten times counts once; a carrier
 * that is also mutated counts at the mutation only).
 */
export function findOutlivingStateUses(definition: ToolDefinition, recognition: RecognitionContext, sourceCode: ScopeSource): StateUse[] {
  const toolName = definition.name ?? 'anonymous tool';
  const invocation = getInvocation(definition, recognition.settings, recognition.file);
  const seenFunctions = new Set<FunctionNode>();
  const uses: StateUse[] = [];
  // A factory's function around the invocation runs on every call too (see `findWrappingInvocations`).
  const wrappers = findWrappingInvocations(definition, recognition.settings, recognition.file).map((wrapping) => {
    const entry: InvocationEntry = {
      fn: wrapping.fn,
      inputParameters: wrapping.inputParameters,
      inputThisMembers: [],
      classNode: undefined,
      invocationClass: undefined,
    };
    const wrapper: WrapperContext = { reportAt: definition.reportNode, factory: wrapping.factory };
    return { entry, wrapper };
  });
  const analysed = [...invocation.entries.map((entry) => ({ entry, wrapper: undefined })), ...wrappers];
  for (const { entry, wrapper } of analysed) {
    if (seenFunctions.has(entry.fn)) continue;
    seenFunctions.add(entry.fn);
    // A tool joined by name runs functions of other files: each is analysed with its own file's scopes,
    // and what it finds there is reported at the tool (a report can only point into the linted file).
    const foreign = entry.file !== undefined && entry.file.program !== sourceCode.scopeManager?.globalScope?.block;
    const entrySource = foreign ? foreignScopeSource(entry.file!.program) : sourceCode;
    if (!entrySource) continue;
    const analysed = analyseEntry(entry, definition, toolName, entrySource, recognition.settings, entry.file ?? recognition.file, wrapper);
    const found = foreign ? analysed.map((use) => ({ ...use, node: definition.reportNode })) : analysed;
    const mutatedState = new Set(found.filter((use) => use.messageId === 'mutatesOutlivingState').map((use) => use.stateKey));
    const statesSeen = new Set<string>();
    for (const use of found) {
      if (use.messageId !== 'mutatesOutlivingState' && mutatedState.has(use.stateKey)) continue;
      const stateInFunction = `${use.messageId}:${use.function.range[0]}:${use.stateKey}`;
      if (statesSeen.has(stateInFunction)) continue;
      statesSeen.add(stateInFunction);
      uses.push(use);
    }
  }
  return uses;
}
