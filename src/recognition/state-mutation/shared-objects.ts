/**
 * Shared objects an invocation reaches without creating them: a framework
 * context passed as a parameter, locals taken from an outer object
 * (`const page = await v3.context.awaitActivePage()`), objects a helper keeps and
 * hands back, and callback parameters a helper hands such an object to.
 * Changing or driving any of them changes what the next tool invocation sees.
 */
import path from 'node:path';

import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import {
  type FunctionNode,
  containsNode,
  findProperty,
  getStaticKeyName,
  isClassNode,
  isFunctionNode,
  skipChainAndTypeWrappers,
  skipTypeWrappers,
  walk,
} from '../ast.js';
import type { FileIndex } from '../file-index.js';
import type { ScopeSource } from '../foreign-scope.js';
import type { InvocationEntry } from '../invocation.js';
import { isOwnModuleSpecifier, resolveClassName, resolveLocalName } from '../module-graph.js';
import type { RecognitionSettings } from '../settings.js';
import {
  type ScopeVariable,
  describeOuterVariable,
  expressionRoot,
  isPackageImport,
  nameWords,
  outermostMember,
  resolveIdentifier,
  thisBelongsTo,
} from './expressions.js';
import { type FunctionToAnalyse, type SharedSource, type StateUse, stateUseMaker } from './state-use.js';
import {
  drivingCallOf,
  drivingVerbOfName,
  isOutputChannelName,
  namesObservability,
  namesSharedObject,
  receiverSegments,
} from './driving-calls.js';
import { mutationOf } from './outer-state-mutation.js';
import { calledFunction, driveLeavesNothing, freshFromFieldMethod, hiddenStateChange } from './following-helpers.js';
import { returnedExpressions } from '../output-flow.js';

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
 * caller that long-lived object, so driving the local drives what every later call gets; like
 * a context the invocation is handed, a method of it that changes an object counts by its verb.
 */
function keptObjectReturnedBy(
  callee: TSESTree.Identifier,
  fn: FunctionNode,
  sourceCode: ScopeSource,
  settings: RecognitionSettings,
  file?: FileIndex,
): SharedSource | undefined {
  const calleeVariable = resolveIdentifier(callee, sourceCode);
  const helper = calleeVariable ? calledFunction(calleeVariable) : undefined;
  if (!helper && calleeVariable && file) return keptObjectOfImportedHelper(callee, calleeVariable, file);
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
    // `const driver = state.drivers.get(state.currentSession); …; return driver`: an entry of a
    // collection the module keeps is as long-lived as the collection.
    const taken = target.type === AST_NODE_TYPES.Identifier ? entryTakenInHelper(target, helper, sourceCode) : undefined;
    if (taken) target = taken;
    // `return page.locator(`[data-element-id="${id}"]`)`: a handle on a kept object named like a shared one (a page),
    // named by it (an entry looked up in a kept collection is `entryTakenInHelper`'s).
    const handle = target.type === AST_NODE_TYPES.Identifier ? undefined : expressionRoot(target);
    if (handle) {
      if (handle.root.type !== AST_NODE_TYPES.Identifier || !namesSharedObject(handle.root.name, settings)) continue;
      target = handle.root;
    }
    if (target.type !== AST_NODE_TYPES.Identifier) continue;
    const variable = resolveIdentifier(target, sourceCode);
    const definition = variable?.defs[0];
    if (!variable || !definition || definition.type === 'ImportBinding' || definition.type === 'FunctionName') continue;
    // (a parameter of the factory around both, `createActions(page)`, is kept as long as the tools it made)
    if (containsNode(helper, definition.name) || containsNode(fn, definition.name)) continue;
    const outer = describeOuterVariable(variable, fn);
    if (!outer) continue;
    // What the kept object's methods do is not followed, as for an object the invocation is
    // handed: its driving verbs (`browser.navigate(url)`, `client.clickByUid(uid)`) count by name.
    return {
      words: `${outer.words}, which \`${callee.name}\` returns`,
      stateKey: `variable:${variable.name}:${definition.name.range[0]}`,
      part: true,
      handedIn: true,
      names: [variable.name],
    };
  }
  return undefined;
}

/** A variable `program` declares at its top level with `let` or `var` (`let rulesManagerInstance = null`): kept, and reassignable. */
function keptModuleVariable(program: TSESTree.Program, name: string): boolean {
  return program.body.some((statement) => {
    const declaration = statement.type === AST_NODE_TYPES.ExportNamedDeclaration ? statement.declaration : statement;
    return (
      declaration?.type === AST_NODE_TYPES.VariableDeclaration &&
      declaration.kind !== 'const' &&
      declaration.declarations.some((declarator) => declarator.id.type === AST_NODE_TYPES.Identifier && declarator.id.name === name)
    );
  });
}

/**
 * `const rulesManager = getRulesManager()` where another module of the package keeps the instance
 * (`let rulesManagerInstance = null; export function getRulesManager() { if (!rulesManagerInstance) …; return rulesManagerInstance; }`).
 * Principle: an accessor of the package that hands back what its module keeps gives every call the same
 * object, as a same-module helper does (`keptObjectReturnedBy`); what its methods do is followed by name.
 */
function keptObjectOfImportedHelper(callee: TSESTree.Identifier, variable: ScopeVariable, file: FileIndex): SharedSource | undefined {
  const binding = file.imports.get(callee.name);
  if (variable.defs[0]?.type !== 'ImportBinding' || !binding || !isOwnModuleSpecifier(binding.module)) return undefined;
  const resolved = resolveLocalName(file, callee.name);
  if (!resolved || resolved.file === file || resolved.fn.params.length > 0) return undefined;
  const kept = returnedExpressions(resolved.fn)
    .map((value) => skipTypeWrappers(value))
    .find(
      (value): value is TSESTree.Identifier =>
        value.type === AST_NODE_TYPES.Identifier && keptModuleVariable(resolved.file.program, value.name),
    );
  if (!kept) return undefined;
  // Only an instance of a class of the package: its methods say what a call changes (a client or a
  // database handle of a dependency, `createClient(…)`, is where the work goes, not what the process keeps).
  const className = constructedInto(resolved.file.program, kept.name);
  const keptClass = className === undefined ? undefined : resolveClassName(resolved.file, className);
  if (!keptClass) return undefined;
  const module = path.basename(resolved.file.filePath);
  return {
    words: `\`${kept.name}\`, module state of ${module}, which \`${callee.name}\` returns`,
    stateKey: `kept:${resolved.file.filePath}:${kept.name}`,
    part: true,
    handedIn: true,
    names: [kept.name],
    keptClass: { classNode: keptClass.classNode, program: keptClass.file.program },
  };
}

/** The class `name` is made of where the module fills it (`instance = new RulesManager()`, `let instance = new X()`). */
function constructedInto(program: TSESTree.Program, name: string): string | undefined {
  let found: string | undefined;
  walk(program, (node) => {
    if (found !== undefined) return false;
    const value =
      node.type === AST_NODE_TYPES.AssignmentExpression && node.left.type === AST_NODE_TYPES.Identifier && node.left.name === name
        ? node.right
        : node.type === AST_NODE_TYPES.VariableDeclarator && node.id.type === AST_NODE_TYPES.Identifier && node.id.name === name
          ? node.init
          : undefined;
    const made = value ? skipTypeWrappers(value) : undefined;
    if (made?.type === AST_NODE_TYPES.NewExpression && made.callee.type === AST_NODE_TYPES.Identifier) found = made.callee.name;
    return undefined;
  });
  return found;
}

/**
 * The outer object a helper's local was taken from, when the local is only
 * that: `const driver = state.drivers.get(id)` (a lookup), `const page =
 * this.pages[id]` — the root (`state`) of its one initialiser. Undefined for a
 * local the helper builds or reassigns.
 */
function entryTakenInHelper(local: TSESTree.Identifier, helper: FunctionNode, sourceCode: ScopeSource): TSESTree.Identifier | undefined {
  const variable = resolveIdentifier(local, sourceCode);
  const definition = variable?.defs[0];
  if (!variable || definition?.type !== 'Variable' || variable.defs.length !== 1 || !containsNode(helper, definition.name))
    return undefined;
  const declarator = definition.node;
  if (declarator.type !== AST_NODE_TYPES.VariableDeclarator || declarator.id !== definition.name || !declarator.init) return undefined;
  if (variable.references.some((reference) => reference.isWrite() && reference.identifier !== declarator.id)) return undefined;
  const rooted = expressionRoot(declarator.init);
  return rooted?.part && rooted.root.type === AST_NODE_TYPES.Identifier && rooted.root !== local ? rooted.root : undefined;
}

/**
 * First words of methods that only look at an object (`ctx.getPage()`, `session.isOpen()`,
 * `tabs.find(…)`): a call of one hands nothing to code that could change it.
 */
const LOOKING_METHOD_WORDS = new Set([
  'get',
  'has',
  'is',
  'find',
  'list',
  'read',
  'query',
  'count',
  'search',
  'wait',
  'to',
  'as',
  'describe',
  'lookup',
  'resolve',
  'load',
  'check',
  'can',
  'should',
  'includes',
  'map',
  'filter',
  'for',
  'some',
  'every',
  'then',
  'catch',
  'finally',
  'bind',
  'call',
  'apply',
  'value',
  'ensure',
  'require',
  'current',
  'active',
  'snapshot',
  'screenshot',
  'capture',
  'evaluate',
  'emit',
  'log',
  'debug',
  'info',
  'warn',
  'error',
  'trace',
  'report',
  'send',
  'notify',
]);

/**
 * Is the call's result thrown away (`await x.y();` as a statement, `void x.y()`), also at the end
 * of a fluent chain (`await actions.keyDown(k).keyUp(k).perform();`)?
 */
function resultDiscarded(call: TSESTree.CallExpression): boolean {
  let node: TSESTree.Node = call;
  for (;;) {
    const parent: TSESTree.Node | undefined = node.parent;
    if (parent?.type === AST_NODE_TYPES.AwaitExpression || parent?.type === AST_NODE_TYPES.ChainExpression) node = parent;
    else if (parent?.type === AST_NODE_TYPES.UnaryExpression && parent.operator === 'void') node = parent;
    else if (
      parent?.type === AST_NODE_TYPES.MemberExpression &&
      parent.object === node &&
      parent.parent?.type === AST_NODE_TYPES.CallExpression &&
      parent.parent.callee === parent
    ) {
      node = parent.parent;
    } else return parent?.type === AST_NODE_TYPES.ExpressionStatement;
  }
}

/**
 * The call that a handed-in object (`ctx`, or a chain from it: `ctx.session`) goes into and
 * that the analysis does not follow: passed to a function that is not one of the file's own
 * (`clickActionHandler(params, ctx)` with the handler taken from `this`, an imported helper,
 * another object's method), or used as the receiver of a method called for what it does (its
 * result unused) that is neither a change nor a look (`await ctx.session.dispatch(event);`). Undefined for a function the analysis follows (it
 * is analysed itself), a global (`JSON.stringify(ctx)`), an output channel or a client, and a
 * method that only looks.
 */
function unfollowedHandOff(
  identifier: TSESTree.Node,
  sourceCode: ScopeSource,
): { node: TSESTree.CallExpression; callee: string } | undefined {
  const chain = outermostMember(identifier);
  const parent = chain.parent;
  if (parent?.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const callee = skipChainAndTypeWrappers(parent.callee);
  if (parent.callee === chain) {
    // A method of the handed object itself, called for what it does: its result is not used
    // (`await ctx.session.dispatch(event);`), unlike a look (`const url = ctx.page.url()`).
    if (!resultDiscarded(parent)) return undefined;
    const member = skipChainAndTypeWrappers(chain);
    return member.type === AST_NODE_TYPES.MemberExpression && mayChangeWhatItIsGiven(member)
      ? { node: parent, callee: sourceCode.getText(member) }
      : undefined;
  }
  if (!parent.arguments.includes(chain as TSESTree.CallExpressionArgument)) return undefined;
  if (callee.type === AST_NODE_TYPES.Identifier) {
    const variable = resolveIdentifier(callee, sourceCode);
    // A global (`String(ctx)`) keeps nothing; a function of the file is followed and analysed.
    if (!variable || variable.defs.length === 0 || calledFunction(variable)) return undefined;
    return { node: parent, callee: callee.name };
  }
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const rooted = expressionRoot(callee.object);
  if (!rooted) return undefined;
  if (rooted.root.type === AST_NODE_TYPES.Identifier && !(resolveIdentifier(rooted.root, sourceCode)?.defs.length ?? 0)) return undefined;
  return mayChangeWhatItIsGiven(callee) ? { node: parent, callee: sourceCode.getText(callee) } : undefined;
}

/**
 * Can a method call change the object it is made on or handed (`session.dispatch(…)`,
 * `runner.perform(ctx)`)? Not a method of an output channel or a client, and not one whose
 * first word only looks (`get…`, `find…`, `wait…`).
 */
function mayChangeWhatItIsGiven(member: TSESTree.MemberExpression): boolean {
  const method = getStaticKeyName(member.property, member.computed);
  const last = receiverSegments(member.object).at(-1);
  if (method === undefined || (last !== undefined && isOutputChannelName(last))) return false;
  const first = nameWords(method)[0];
  return first !== undefined && !LOOKING_METHOD_WORDS.has(first);
}

/** Accessors that hand back a class's one instance (`DatabaseConnection.getInstance()`). */
const SINGLETON_ACCESSORS = new Set(['getInstance', 'instance', 'getShared', 'shared', 'getDefault', 'getSingleton']);

/**
 * `const db = DatabaseConnection.getInstance()`: the one instance a class keeps for the process.
 * Principle: a singleton is as long-lived as a module variable, and what its methods do is not
 * followed (the class is often in another module), so, as for an object the invocation is
 * handed, its driving verbs (`db.connect(…)`, `manager.attach(…)`) count by name.
 */
function singletonAccessed(init: TSESTree.Node, sourceCode: ScopeSource): SharedSource | undefined {
  let call = skipTypeWrappers(init);
  if (call.type === AST_NODE_TYPES.AwaitExpression) call = skipTypeWrappers(call.argument);
  if (call.type !== AST_NODE_TYPES.CallExpression || call.arguments.length > 0) return undefined;
  const callee = skipChainAndTypeWrappers(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression || callee.object.type !== AST_NODE_TYPES.Identifier) return undefined;
  const method = getStaticKeyName(callee.property, callee.computed);
  if (method === undefined || !SINGLETON_ACCESSORS.has(method)) return undefined;
  const variable = resolveIdentifier(callee.object, sourceCode);
  if (!variable || variable.defs.length === 0 || isPackageImport(variable)) return undefined;
  const className = callee.object.name;
  return {
    words: `the single instance of \`${className}\` (\`${className}.${method}()\`)`,
    stateKey: `singleton:${className}`,
    part: true,
    handedIn: true,
    names: [className],
  };
}

/**
 * Does the module's helper `callee` names hand back the parameter at `index` or a member of it
 * (`function toState(options) { return options.experimental_context; }`), on every return?
 */
function returnsPartOfParameter(callee: TSESTree.Identifier, index: number, sourceCode: ScopeSource): boolean {
  const variable = resolveIdentifier(callee, sourceCode);
  const helper = variable ? calledFunction(variable) : undefined;
  const parameter = helper?.params[index];
  if (!helper || parameter?.type !== AST_NODE_TYPES.Identifier) return false;
  const returned = returnedExpressions(helper);
  return (
    returned.length > 0 &&
    returned.every((expression) => {
      const rooted = expressionRoot(expression);
      return rooted?.part === true && rooted.root.type === AST_NODE_TYPES.Identifier && rooted.root.name === parameter.name;
    })
  );
}

/** Keys of a call record that hold the model's input (`{ input, agent }`, `{ args, context }`). */
const INPUT_RECORD_KEYS = new Set(['input', 'args', 'arguments', 'params', 'parameters']);

/**
 * The names destructured beside the model's input from a call record (`{ input: { x, y }, agent }`
 * → `agent`): the harness's context, handed in with the input. Undefined when the parameter is
 * not such a record.
 */
function contextBesideInput(parameter: TSESTree.Parameter): string[] | undefined {
  const pattern = parameter.type === AST_NODE_TYPES.AssignmentPattern ? parameter.left : parameter;
  if (pattern.type !== AST_NODE_TYPES.ObjectPattern) return undefined;
  let holdsInput = false;
  const beside: string[] = [];
  for (const property of pattern.properties) {
    if (property.type !== AST_NODE_TYPES.Property) return undefined;
    const key = getStaticKeyName(property.key, property.computed);
    if (key !== undefined && INPUT_RECORD_KEYS.has(key)) holdsInput = true;
    else if (property.value.type === AST_NODE_TYPES.Identifier) beside.push(property.value.name);
  }
  return holdsInput && beside.length > 0 ? beside : undefined;
}

/**
 * The variables bound from keys of the model's input that its schema does not declare: in the input
 * parameter's own pattern (`run({ environment, pool })`) or in a top-level destructuring of it
 * (`const { pool, environment } = params`), each with its key. The model is only told of the declared
 * fields, so an object under any other key was put there by the harness.
 */
function undeclaredInputNames(
  fn: FunctionNode,
  inputParameters: readonly number[],
  declared: ReadonlySet<string>,
  sourceCode: ScopeSource,
): [ScopeVariable, string][] {
  const found: [ScopeVariable, string][] = [];
  const take = (pattern: TSESTree.ObjectPattern): void => {
    for (const property of pattern.properties) {
      if (property.type !== AST_NODE_TYPES.Property) continue;
      const key = getStaticKeyName(property.key, property.computed);
      const value = property.value.type === AST_NODE_TYPES.AssignmentPattern ? property.value.left : property.value;
      // `({ params }, client)`: a key that names the input record holds the model's input itself.
      if (key === undefined || declared.has(key) || INPUT_RECORD_KEYS.has(key) || value.type !== AST_NODE_TYPES.Identifier) continue;
      const variable = resolveIdentifier(value, sourceCode);
      if (variable) found.push([variable, key]);
    }
  };
  const inputNames = new Set<string>();
  for (const index of inputParameters) {
    const parameter = fn.params[index];
    const pattern = parameter?.type === AST_NODE_TYPES.AssignmentPattern ? parameter.left : parameter;
    if (pattern?.type === AST_NODE_TYPES.ObjectPattern) take(pattern);
    else if (pattern?.type === AST_NODE_TYPES.Identifier) inputNames.add(pattern.name);
  }
  if (inputNames.size > 0 && fn.body?.type === AST_NODE_TYPES.BlockStatement) {
    walk(fn.body, (node) => {
      if (node !== fn.body && (isFunctionNode(node) || isClassNode(node))) return false;
      if (node.type !== AST_NODE_TYPES.VariableDeclarator || node.id.type !== AST_NODE_TYPES.ObjectPattern || !node.init) return undefined;
      const init = skipTypeWrappers(node.init);
      if (init.type === AST_NODE_TYPES.Identifier && inputNames.has(init.name)) take(node.id);
      return undefined;
    });
  }
  return found;
}

/**
 * A call whose result is used in place as a receiver (`(await getStore(memory)).updateNode(…)`):
 * the expression the method is called on, the call or the `await` around it.
 */
function receiverResult(call: TSESTree.CallExpression): TSESTree.Node | undefined {
  const result = call.parent?.type === AST_NODE_TYPES.AwaitExpression ? call.parent : call;
  const member = result.parent;
  return member?.type === AST_NODE_TYPES.MemberExpression && member.object === result ? result : undefined;
}

/**
 * Long-lived objects the invocation drives without creating them: the invocation's
 * parameters that are not the model's input (a framework context), and locals taken from
 * an outer object (`const page = await v3.context.awaitActivePage()`,
 * `const task = tasks.get(id)`, `const { computer } = requireComputer(context)`).
 * A change through such a local changes the object a later call sees.
 */
export function sharedObjectUses(
  entry: InvocationEntry,
  item: FunctionToAnalyse,
  target: 'instance' | 'tool-object' | undefined,
  toolName: string,
  where: string,
  at: (node: TSESTree.Node) => TSESTree.Node,
  sourceCode: ScopeSource,
  settings: RecognitionSettings,
  declaredInputs?: ReadonlySet<string>,
  /** The module the function lives in, for the class of a kept object's method. */
  file?: FileIndex,
): StateUse[] {
  const { fn } = item;
  if (!fn.body) return [];
  const report = stateUseMaker(toolName, fn, at);
  const contractVerb = drivingVerbOfName(toolName);
  const sources = new Map<ScopeVariable, SharedSource>();
  if (item.depth === 0) {
    // `const { pool, environment, transactionManager } = params` where the schema declares only `environment`: the
    // harness merged its own objects into the input, and those are what the call is handed.
    if (declaredInputs) {
      for (const [variable, key] of undeclaredInputNames(fn, entry.inputParameters, declaredInputs, sourceCode)) {
        if (namesObservability(variable.name)) continue;
        sources.set(variable, {
          words: `\`${variable.name}\`, which the harness hands in with the input (its schema declares no \`${key}\`)`,
          stateKey: `input:${key}`,
          part: true,
          handedIn: true,
          names: [variable.name],
        });
      }
    }
    fn.params.forEach((parameter, index) => {
      // `({ input, agent }) => …`: the call record's `input` is the model's; what comes beside it is the harness's.
      const beside = entry.inputParameters.includes(index) ? contextBesideInput(parameter) : undefined;
      if (entry.inputParameters.includes(index) && !beside) return;
      for (const variable of sourceCode.scopeManager?.getDeclaredVariables(fn) ?? []) {
        if (beside && !beside.some((name) => name === variable.name)) continue;
        // `async (args, telemetry) => { telemetry.AndroidCount = n; }`: a record of the call for someone else.
        if (namesObservability(variable.name)) continue;
        if (variable.defs.some((definition) => definition.type === 'Parameter' && containsNode(parameter, definition.name))) {
          sources.set(variable, {
            words: `\`${variable.name}\`, the invocation's context argument`,
            stateKey: `param:${variable.name}`,
            part: true,
            handedIn: true,
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
      // `navigateImpl(params, { browser_session, signal })` into `function (params, { browser_session, signal })`:
      // each destructured name is the object the caller put under its key.
      if (parameter?.type === AST_NODE_TYPES.ObjectPattern && argument.type === AST_NODE_TYPES.ObjectExpression) {
        for (const property of parameter.properties) {
          if (property.type !== AST_NODE_TYPES.Property || property.value.type !== AST_NODE_TYPES.Identifier) continue;
          const key = getStaticKeyName(property.key, property.computed);
          const handed = key === undefined ? undefined : findProperty(argument, key);
          const handedRoot = handed ? expressionRoot(handed.value) : undefined;
          const source = handedRoot?.part ? callerSource(handedRoot.root) : undefined;
          if (!source) continue;
          const bound = property.value;
          for (const variable of sourceCode.scopeManager?.getDeclaredVariables(fn) ?? []) {
            if (variable.defs.some((definition) => definition.type === 'Parameter' && definition.name === bound)) {
              sources.set(variable, source);
            }
          }
        }
        return;
      }
      const argumentRoot = expressionRoot(argument);
      const source = argumentRoot && parameter?.type === AST_NODE_TYPES.Identifier ? callerSource(argumentRoot.root) : undefined;
      if (!source || !argumentRoot?.part) return;
      for (const variable of sourceCode.scopeManager?.getDeclaredVariables(fn) ?? []) {
        if (variable.defs.some((definition) => definition.type === 'Parameter' && definition.name === parameter)) {
          sources.set(variable, source);
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
  const inPlace: { call: TSESTree.CallExpression; result: TSESTree.Node }[] = [];
  /**
   * What a helper of the package hands back when it is handed a long-lived object (`requireComputer(context)`):
   * that object or a part of it. Or, handed none, an object the helper keeps: the result is that object itself.
   */
  const helperResultSource = (
    call: TSESTree.CallExpression,
  ): { source: SharedSource; part: boolean; handedNames?: readonly string[] } | undefined => {
    if (call.callee.type !== AST_NODE_TYPES.Identifier) return undefined;
    for (const [index, argument] of call.arguments.entries()) {
      const argumentRoot = expressionRoot(argument);
      const source = argumentRoot ? sourceOfRoot(argumentRoot.root) : undefined;
      if (!source) continue;
      // `const element = await waitForClickableElement(driver, selector)`: what a helper hands back from the
      // long-lived object it is handed is a handle on that object, named by it (driving the element drives the page).
      const handedNames = argumentRoot?.root.type === AST_NODE_TYPES.Identifier ? [argumentRoot.root.name, ...source.names] : source.names;
      // `const state = toState(options)` where `toState` returns `options.experimental_context`: a part of it.
      return {
        source,
        part: (argumentRoot?.part ?? false) && source.part && returnsPartOfParameter(call.callee, index, sourceCode),
        handedNames,
      };
    }
    const kept = keptObjectReturnedBy(call.callee, fn, sourceCode, settings, file);
    return kept ? { source: kept, part: true } : undefined;
  };
  walk(fn.body, (node) => {
    if (isClassNode(node)) return false;
    // `this.safeExecute(context, async (page) => page.click(…))`: a helper handed a long-lived
    // object and a callback runs the callback with that object's part. A callback parameter
    // named as a shared object (`page`, `tab`, `browser`) is then that object's part.
    if (node.type === AST_NODE_TYPES.CallExpression) {
      const result = receiverResult(node);
      if (result && !inDeferredFunction(node, fn)) inPlace.push({ call: node, result });
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
              handedIn: source.handedIn,
            });
          }
        }
      }
      return undefined;
    }
    if (node.type !== AST_NODE_TYPES.VariableDeclarator || !node.init) return undefined;
    let source: SharedSource | undefined;
    let part: boolean;
    let handedNames: readonly string[] = [];
    // `const graph = await this.fileManager.loadGraphFromSvg(path)`: a fresh object the field's known class makes per call.
    if (target === 'instance' && entry.classNode && file && freshFromFieldMethod(node.init, entry.classNode, file, settings)) {
      return undefined;
    }
    const rooted = expressionRoot(node.init);
    const singleton = singletonAccessed(node.init, sourceCode);
    if (singleton) {
      source = singleton;
      part = true;
    } else if (rooted) {
      source = sourceOfRoot(rooted.root);
      part = rooted.part && (source?.part ?? false);
    } else {
      let call = skipTypeWrappers(node.init);
      if (call.type === AST_NODE_TYPES.AwaitExpression) call = skipTypeWrappers(call.argument);
      const returned = call.type === AST_NODE_TYPES.CallExpression ? helperResultSource(call) : undefined;
      source = returned?.source;
      part = returned?.part ?? false;
      handedNames = returned?.handedNames ?? [];
    }
    if (!source) return undefined;
    for (const variable of sourceCode.scopeManager?.getDeclaredVariables(node) ?? []) {
      // The names it was taken through (`tab.targetLocator(…)`, a kept `page`) still say what it
      // is a handle of; only this step's names, or `context.filesystem.readFile(…)`'s text would
      // count as a handle of the context.
      const names = rooted ? receiverSegments(node.init) : part ? source.names : handedNames;
      sources.set(variable, {
        words: `\`${variable.name}\`, taken from ${source.words}`,
        stateKey: source.stateKey,
        part,
        names,
        handedIn: source.handedIn,
        // The kept instance itself, not a part of it: its class still says what its methods do.
        ...(part && !rooted && source.keptClass ? { keptClass: source.keptClass } : {}),
      });
    }
    return undefined;
  });
  const uses: StateUse[] = [];
  // `(await getStore(memory)).updateNode(…)`: a helper's result used in place is what
  // `const store = await getStore(memory)` would have named.
  for (const { call, result } of inPlace) {
    const returned = helperResultSource(call);
    if (!returned) continue;
    const { source, part } = returned;
    const drive = drivingCallOf(result, settings, undefined, part ? source.names : [], source.handedIn === true);
    if (!drive || driveLeavesNothing(drive, source, file, settings)) continue;
    const words = `what \`${sourceCode.getText(call.callee)}\` hands back, taken from ${source.words}`;
    uses.push(report.drives(drive.node, drive.method, `${words}${where}`, source.stateKey, drive.command));
  }
  for (const [variable, source] of sources) {
    for (const reference of variable.references) {
      if (reference.isWrite() || !containsNode(fn, reference.identifier) || inDeferredFunction(reference.identifier, fn)) continue;
      const identifier = reference.identifier as TSESTree.Node;
      const mutation = source.part ? mutationOf(identifier, settings) : undefined;
      if (mutation) {
        uses.push(report.mutates(mutation.node, mutation.verb, `${source.words}${where}`, source.stateKey));
        continue;
      }
      const drive = drivingCallOf(identifier, settings, variable.name, source.names, source.handedIn === true);
      if (drive && !driveLeavesNothing(drive, source, file, settings)) {
        uses.push(report.drives(drive.node, drive.method, `${source.words}${where}`, source.stateKey, drive.command));
        continue;
      }
      // `b.getHotelDetails(url)` on the one `HotelBrowser` a helper keeps (`const b = await getBrowser()`): the
      // method is followed, and what it changes of the instance (`this.lastRequestTime`) the kept object keeps.
      const followed =
        file && identifier.type === AST_NODE_TYPES.Identifier ? hiddenStateChange(identifier, variable, file, settings) : undefined;
      if (followed) {
        uses.push(report.mutates(followed.node, followed.action, `${source.words}${where}`, source.stateKey));
        continue;
      }
      // Unknown, decided by the contract: the object goes where the analysis cannot follow,
      // and the tool's name says it drives it (`click`, `switch_tab`, `set_mode`).
      // A client or an output channel handed on (`resolveBranchId(neonClient, …)`) changes nothing in
      // the process; a factory's wrapper hands the context to the tool's own invocation, analysed itself.
      if (contractVerb === undefined || source.handedIn !== true || item.where !== undefined || isOutputChannelName(variable.name))
        continue;
      const handOff = unfollowedHandOff(identifier, sourceCode);
      if (handOff)
        uses.push(report.drivesByContract(handOff.node, contractVerb, `${source.words}${where}`, handOff.callee, source.stateKey));
    }
  }
  return uses;
}
