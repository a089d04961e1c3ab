/**
 * Which functions of a low-level MCP server handle `CallToolRequestSchema`
 * requests and pick the tool by the requested name: the handler given to
 * `server.setRequestHandler(CallToolRequestSchema, …)`, the functions it
 * passes the request on to, and the functions it calls with the name and the
 * arguments. Two shapes need it: the dispatcher's own branches
 * (`tool-shapes/mcp-low-level.ts`) and tool list entries joined to a
 * dispatcher by name (`tool-shapes/name-dispatch.ts`). Without it, a server
 * that serves every tool from one handler hides all of them from the checks
 * for circular persistence and state leakage.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import {
  type FunctionNode,
  boundFunctionName,
  findProperty,
  getCalleeLastName,
  getMemberPath,
  getStaticKeyName,
  getStringValue,
  isAwaiterBody,
  isFunctionNode,
  programOf,
  skipTypeWrappers,
  walk,
} from './ast.js';
import { type FileIndex, programPath } from './file-index.js';
import { loadModule, moduleText, resolveLocalName, resolveRelativeModule } from './module-graph.js';
import {
  CALL_TOOL_METHOD,
  CALL_TOOL_SCHEMA,
  LIST_TOOLS_METHOD,
  LIST_TOOLS_SCHEMA,
  nameSpellings,
  packageRootOf,
  packageSourceFiles,
  spellsCallToolRequest,
} from './package-files.js';
import { configName } from './tool-name.js';
import { getClassMethod } from './tool-shapes/vocabulary.js';

/** Does a `setRequestHandler` call's first argument name a request, by its schema (`CallToolRequestSchema`, `types.X`) or its method? */
function namesRequest(argument: TSESTree.Node | undefined, schema: string, method: string): boolean {
  if (!argument) return false;
  if (getStringValue(argument) === method) return true;
  const path = getMemberPath(argument);
  return path?.[path.length - 1] === schema;
}

function namesCallToolRequest(argument: TSESTree.Node | undefined): boolean {
  return namesRequest(argument, CALL_TOOL_SCHEMA, CALL_TOOL_METHOD);
}

/** … the list request (`ListToolsRequestSchema`, `'tools/list'`), whose answer names the server's tools (`listed-tools.ts`). */
export function namesListToolsRequest(argument: TSESTree.Node | undefined): boolean {
  return namesRequest(argument, LIST_TOOLS_SCHEMA, LIST_TOOLS_METHOD);
}
/** How many functions out from a branch the dispatcher may be (`(async () => { if (name === 'x') … })()` in the handler). */
const MAX_CALLBACK_DEPTH = 3;

/** What one program holds of the low-level server, found in one walk. */
interface DispatchFacts {
  /**
   * Functions that receive the whole request, by which parameter: handlers
   * given to `setRequestHandler(CallToolRequestSchema, …)` (through any
   * wrapper calls), and functions a handler passes its request on to, by name.
   */
  handlers: Map<FunctionNode, number>;
  requestDelegates: Map<string, number>;
  /**
   * Functions a handler calls with the requested name and arguments, by name (a function of the
   * module, one of its methods, or an import), and the functions those hand both on to: where each goes.
   */
  delegates: Map<string, DelegateIndexes>;
  /** Entries of a tool list (`{ name: 'x', inputSchema }` in an array), by name. */
  listEntries: Map<string, TSESTree.ObjectExpression>;
}

/** Which parameters of a delegate receive the requested name and the model's arguments. */
interface DelegateIndexes {
  nameIndex: number;
  inputIndex: number;
}

const factsByProgram = new WeakMap<TSESTree.Program, DispatchFacts>();
/** The facts of a file with no `CallToolRequestSchema` handler: nothing to dispatch (never written to). */
const NO_DISPATCH_FACTS: DispatchFacts = { handlers: new Map(), requestDelegates: new Map(), delegates: new Map(), listEntries: new Map() };

/** `request.params.<field>` (also `request.params.arguments ?? {}`): the path's root, else undefined. */
function requestParamsRoot(node: TSESTree.Node | null | undefined, field: RequestField): string | undefined {
  if (!node) return undefined;
  let target = skipTypeWrappers(node);
  if (target.type === AST_NODE_TYPES.LogicalExpression) target = skipTypeWrappers(target.left);
  const path = getMemberPath(target);
  return path?.length === 3 && path[1] === 'params' && REQUEST_FIELD_SPELLINGS[field].includes(path[2]!) ? path[0] : undefined;
}

/**
 * How a server's handler spells the request's fields: the protocol's `name` and `arguments`, or the
 * spelling of a server that reads its own (`request.params.tool`, `request.params.params` of a
 * REST bridge whose list answer names the same tools).
 */
const REQUEST_FIELD_SPELLINGS: Record<RequestField, readonly string[]> = {
  name: ['name', 'tool', 'toolName', 'tool_name'],
  arguments: ['arguments', 'params', 'args', 'input'],
};

/** The functions among a call's arguments, also inside wrapper calls (`wrap('CallTool', async (request) => …)`). */
function functionArguments(call: TSESTree.CallExpression, into: FunctionNode[] = []): FunctionNode[] {
  for (const argument of call.arguments) {
    const target = skipTypeWrappers(argument);
    if (isFunctionNode(target)) into.push(target);
    else if (target.type === AST_NODE_TYPES.CallExpression) functionArguments(target, into);
  }
  return into;
}

/**
 * The name a call reaches its delegate by: `handleToolCall(…)`, or a method of the same object
 * (`this.executeTool(name, args)`), matched to the module's function or method of that name.
 */
function delegateCalleeName(callee: TSESTree.Node): string | undefined {
  if (callee.type === AST_NODE_TYPES.Identifier) return callee.name;
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const method = getStaticKeyName(callee.property, callee.computed);
  if (callee.object.type === AST_NODE_TYPES.ThisExpression) return method;
  // `this.mcpService.handleToolCall(name, args)`: a method of a service the instance holds (one a framework
  // injects through the constructor), recorded under its path and looked up among the module's imports.
  const service =
    callee.object.type === AST_NODE_TYPES.MemberExpression && callee.object.object.type === AST_NODE_TYPES.ThisExpression
      ? getStaticKeyName(callee.object.property, callee.object.computed)
      : undefined;
  return service === undefined || method === undefined ? undefined : `${SERVICE_DELEGATE_PREFIX}${service}.${method}`;
}

/** How a delegate reached through a service the instance holds is recorded (`this.mcpService.handleToolCall`). */
const SERVICE_DELEGATE_PREFIX = 'this.';

/**
 * The files whose classes define `method` (with room for a name and arguments), among the modules
 * `file` imports from its own package: where a service it holds (`this.mcpService`, handed to its
 * constructor by a framework) has it. Read only for the files that handle tool calls, once per package.
 */
function importedServiceMethodFiles(file: FileIndex, method: string): string[] {
  const found = new Set<string>();
  // One look per module, however many of its names the file imports.
  for (const specifier of new Set([...file.imports.values()].map((binding) => binding.module))) {
    const modulePath = resolveRelativeModule(specifier, file.filePath);
    const module = modulePath === undefined ? undefined : loadModule(modulePath);
    if (!module) continue;
    for (const classNode of module.classes.values()) {
      if ((getClassMethod(classNode, method)?.params.length ?? 0) >= 2) found.add(module.filePath);
    }
  }
  return [...found];
}

/** The name a function is called by: its own, its variable's, or (a method, an object's function property) its key. */
function delegateNameOf(fn: FunctionNode): string | undefined {
  const bound = boundFunctionName(fn);
  if (bound !== undefined) return bound;
  const parent = fn.parent;
  if (parent?.type === AST_NODE_TYPES.MethodDefinition || (parent?.type === AST_NODE_TYPES.Property && parent.value === fn)) {
    return getStaticKeyName(parent.key, parent.computed);
  }
  return undefined;
}

/**
 * The calls in `fn` that hand on both the requested name and the arguments (`isName`, `isInput` say
 * which arguments are those), recorded as delegates by the callee's name.
 */
function collectDelegateCalls(
  fn: FunctionNode,
  isName: (argument: TSESTree.Node) => boolean,
  isInput: (argument: TSESTree.Node) => boolean,
  facts: DispatchFacts,
): void {
  walk(fn.body, (node) => {
    if (node.type !== AST_NODE_TYPES.CallExpression) return;
    const callee = delegateCalleeName(node.callee);
    if (callee === undefined || facts.delegates.has(callee)) return;
    const nameIndex = node.arguments.findIndex(isName);
    const inputIndex = node.arguments.findIndex(isInput);
    if (nameIndex >= 0 && inputIndex >= 0) facts.delegates.set(callee, { nameIndex, inputIndex });
  });
}

/** `x ?? {}`, `x || fallback`: the value before its fallback (`x`), type wrappers stripped; else the node itself. */
function withoutFallback(node: TSESTree.Node): TSESTree.Node {
  const target = skipTypeWrappers(node);
  return target.type === AST_NODE_TYPES.LogicalExpression && (target.operator === '??' || target.operator === '||')
    ? skipTypeWrappers(target.left)
    : target;
}

/** Is `argument` the request's `params.<field>`, or the handler's local bound to it (`const { name, arguments: args } = request.params`)? */
function holdsRequestField(handler: FunctionNode, requestName: string | undefined, argument: TSESTree.Node, field: RequestField): boolean {
  if (requestParamsRoot(argument, field) !== undefined) return true;
  // `routeTool(name, args ?? {})`: the arguments, or an empty object when there are none.
  const target = withoutFallback(argument);
  return (
    requestName !== undefined && target.type === AST_NODE_TYPES.Identifier && requestOfBinding(handler, target.name, field) === requestName
  );
}

function collectDelegates(handler: FunctionNode, requestIndex: number, facts: DispatchFacts): void {
  const request = handler.params[requestIndex];
  const requestName = request?.type === AST_NODE_TYPES.Identifier ? request.name : undefined;
  collectDelegateCalls(
    handler,
    (argument) => holdsRequestField(handler, requestName, argument, 'name'),
    (argument) => holdsRequestField(handler, requestName, argument, 'arguments'),
    facts,
  );
  walk(handler.body, (node) => {
    if (node.type !== AST_NODE_TYPES.CallExpression || node.callee.type !== AST_NODE_TYPES.Identifier) return;
    const passed = node.arguments.findIndex((argument) => argument.type === AST_NODE_TYPES.Identifier && argument.name === requestName);
    if (requestName !== undefined && passed >= 0) facts.requestDelegates.set(node.callee.name, passed);
  });
}

/** A delegate is a parameter's name here: `executeTool(name, args) { return executeTool(name, args, this.tools); }`. */
function isParameterAt(fn: FunctionNode, index: number): (argument: TSESTree.Node) => boolean {
  const parameter = fn.params[index];
  return (argument) =>
    parameter?.type === AST_NODE_TYPES.Identifier && argument.type === AST_NODE_TYPES.Identifier && argument.name === parameter.name;
}

/** How many hands a requested name may pass through inside one module (handler → method → helper). */
const MAX_DELEGATE_DEPTH = 3;

/** The module's functions and methods by the name they are called by (`delegateNameOf`). */
function namedFunctions(program: TSESTree.Program): Map<string, FunctionNode[]> {
  const byName = new Map<string, FunctionNode[]>();
  walk(program, (node) => {
    if (!isFunctionNode(node)) return;
    const name = delegateNameOf(node);
    if (name === undefined) return;
    const named = byName.get(name);
    if (named) named.push(node);
    else byName.set(name, [node]);
  });
  return byName;
}

/**
 * The module's functions that a delegate hands the name and arguments on to, unchanged: a class
 * method between the handler and the function that switches on the name. Each is a delegate too.
 */
function collectChainedDelegates(program: TSESTree.Program, facts: DispatchFacts): void {
  const byName = namedFunctions(program);
  let pending = [...facts.delegates.keys()];
  for (let depth = 0; depth < MAX_DELEGATE_DEPTH && pending.length > 0; depth += 1) {
    const known = new Set(facts.delegates.keys());
    for (const name of pending) {
      const indexes = facts.delegates.get(name)!;
      for (const fn of byName.get(name) ?? []) {
        collectDelegateCalls(fn, isParameterAt(fn, indexes.nameIndex), isParameterAt(fn, indexes.inputIndex), facts);
      }
    }
    pending = [...facts.delegates.keys()].filter((name) => !known.has(name));
  }
}

function collectFacts(program: TSESTree.Program): DispatchFacts {
  const facts: DispatchFacts = { handlers: new Map(), requestDelegates: new Map(), delegates: new Map(), listEntries: new Map() };
  walk(program, (node) => {
    if (node.type === AST_NODE_TYPES.CallExpression && getCalleeLastName(node) === 'setRequestHandler') {
      if (namesCallToolRequest(node.arguments[0])) {
        for (const handler of functionArguments(node)) {
          facts.handlers.set(handler, 0);
          collectDelegates(handler, 0, facts);
        }
      }
    } else if (node.type === AST_NODE_TYPES.ObjectExpression && node.parent?.type === AST_NODE_TYPES.ArrayExpression) {
      addListEntry(node, facts.listEntries);
    } else {
      const branch = callToolMethodBranch(node);
      if (branch) collectMethodBranchDelegates(branch.statements, branch.request, facts);
    }
  });
  if (facts.delegates.size > 0) collectChainedDelegates(program, facts);
  return facts;
}

/**
 * A server that speaks JSON-RPC itself routes by the message's method: `switch (message.method) { case
 * 'tools/call': … }` or `if (message.method === 'tools/call') { … }` is what
 * `setRequestHandler(CallToolRequestSchema, …)` is to the SDK. The branch's statements, and the name
 * of the message it routes (`message` of `message.method`, or the object `method` was destructured from).
 */
function callToolMethodBranch(node: TSESTree.Node): { statements: TSESTree.Node[]; request: string } | undefined {
  if (node.type === AST_NODE_TYPES.SwitchCase) {
    if (!node.test || getStringValue(node.test) !== CALL_TOOL_METHOD || node.parent?.type !== AST_NODE_TYPES.SwitchStatement)
      return undefined;
    const request = methodRoot(node.parent.discriminant);
    return request === undefined ? undefined : { statements: node.consequent, request };
  }
  if (node.type !== AST_NODE_TYPES.IfStatement) return undefined;
  const test = skipTypeWrappers(node.test);
  if (test.type !== AST_NODE_TYPES.BinaryExpression || (test.operator !== '===' && test.operator !== '==')) return undefined;
  const [method, literal] = getStringValue(test.right) === CALL_TOOL_METHOD ? [test.left, test.right] : [test.right, test.left];
  if (getStringValue(literal) !== CALL_TOOL_METHOD) return undefined;
  const request = methodRoot(method);
  return request === undefined ? undefined : { statements: [node.consequent], request };
}

/** `message.method` → `message`; `method` destructured in its function (`const { method, params } = request`) → `request`. */
function methodRoot(node: TSESTree.Node): string | undefined {
  const target = skipTypeWrappers(node);
  const path = getMemberPath(target);
  if (path?.length === 2 && path[1] === 'method') return path[0];
  if (target.type !== AST_NODE_TYPES.Identifier) return undefined;
  const fn = enclosingFunctions(target, 1)[0];
  return fn ? destructuredFrom(fn, target.name, 'method') : undefined;
}

/** The root `local` was destructured from as `key` in `fn` (`const { method } = request` → `request`), if any. */
function destructuredFrom(fn: FunctionNode, local: string, key: string): string | undefined {
  let root: string | undefined;
  walk(fn.body, (node) => {
    if (root !== undefined || (node !== fn.body && isFunctionNode(node))) return false;
    if (node.type !== AST_NODE_TYPES.VariableDeclarator || node.id.type !== AST_NODE_TYPES.ObjectPattern || !node.init) return undefined;
    const init = skipTypeWrappers(node.init);
    const binds = node.id.properties.some(
      (property) =>
        property.type === AST_NODE_TYPES.Property &&
        getStaticKeyName(property.key, property.computed) === key &&
        property.value.type === AST_NODE_TYPES.Identifier &&
        property.value.name === local,
    );
    if (binds && init.type === AST_NODE_TYPES.Identifier) root = init.name;
    return undefined;
  });
  return root;
}

/**
 * The calls of a `tools/call` branch that hand on the whole message (`await handleToolCall(message)`,
 * `return this.handleRequest(request)`): each callee receives the request, as a handler does.
 */
function collectMethodBranchDelegates(statements: readonly TSESTree.Node[], request: string, facts: DispatchFacts): void {
  for (const statement of statements) {
    walk(statement, (node) => {
      if (isFunctionNode(node)) return false;
      if (node.type !== AST_NODE_TYPES.CallExpression) return undefined;
      const callee = delegateCalleeName(node.callee);
      const passed = node.arguments.findIndex((argument) => argument.type === AST_NODE_TYPES.Identifier && argument.name === request);
      if (callee !== undefined && !callee.startsWith(SERVICE_DELEGATE_PREFIX) && passed >= 0 && !facts.requestDelegates.has(callee)) {
        facts.requestDelegates.set(callee, passed);
      }
      return undefined;
    });
  }
}

function dispatchFacts(node: TSESTree.Node): DispatchFacts | undefined {
  const program = programOf(node);
  if (!program) return undefined;
  let facts = factsByProgram.get(program);
  if (!facts) {
    // Every handler, and so every delegate, hangs on a `setRequestHandler(CallToolRequestSchema, …)`
    // the text spells: a file that spells none (most of a bundle's chunks) is not walked.
    const text = moduleText(program);
    facts = text !== undefined && !spellsCallToolRequest(text) ? NO_DISPATCH_FACTS : collectFacts(program);
    factsByProgram.set(program, facts);
  }
  return facts;
}

/** The functions around `node`, innermost first (a branch may sit in a callback inside the handler). */
function enclosingFunctions(node: TSESTree.Node, limit: number): FunctionNode[] {
  const found: FunctionNode[] = [];
  for (let current = node.parent; current && found.length < limit; current = current.parent) {
    if (isFunctionNode(current)) found.push(current);
  }
  return found;
}

function parameterIndex(fn: FunctionNode, name: string): number {
  const index = fn.params.findIndex((parameter) => parameter.type === AST_NODE_TYPES.Identifier && parameter.name === name);
  if (index >= 0) return index;
  const normalised = normalisedParameter(fn, name);
  return normalised === undefined ? -1 : parameterIndex(fn, normalised);
}

/**
 * `const lookupName = canonicalToolName(name)`, `const tool = name.trim()` at the top of `fn`'s body: a
 * local that is one of its parameters made canonical (an alias's dots turned into underscores, a prefix
 * stripped) still names the requested tool. The parameter's name, else undefined.
 */
function normalisedParameter(fn: FunctionNode, local: string): string | undefined {
  if (fn.body.type !== AST_NODE_TYPES.BlockStatement) return undefined;
  // Also inside a `try` that holds the whole dispatch (`try { const tool = name.replace(…); switch (tool) … }`).
  const statements = fn.body.body.flatMap((statement) =>
    statement.type === AST_NODE_TYPES.TryStatement ? [statement, ...statement.block.body] : [statement],
  );
  for (const statement of statements) {
    if (statement.type !== AST_NODE_TYPES.VariableDeclaration || statement.kind !== 'const') continue;
    for (const declarator of statement.declarations) {
      if (declarator.id.type !== AST_NODE_TYPES.Identifier || declarator.id.name !== local || !declarator.init) continue;
      const init = skipTypeWrappers(declarator.init);
      if (init.type !== AST_NODE_TYPES.CallExpression) return undefined;
      const callee = skipTypeWrappers(init.callee);
      const source =
        callee.type === AST_NODE_TYPES.MemberExpression
          ? skipTypeWrappers(callee.object)
          : init.arguments.length === 1
            ? init.arguments[0]
            : undefined;
      const isParameter =
        source?.type === AST_NODE_TYPES.Identifier &&
        fn.params.some((parameter) => parameter.type === AST_NODE_TYPES.Identifier && parameter.name === source.name);
      return isParameter ? source.name : undefined;
    }
  }
  return undefined;
}

type RequestField = 'name' | 'arguments';

const requestBindings = new WeakMap<FunctionNode, Map<string, string | undefined>>();

/**
 * `const { name } = request.params` / `const name = request.params.name` in `fn` (or, for
 * `arguments`, `const { arguments: args } = request.params`): the request's root name.
 */
function requestOfBinding(fn: FunctionNode, name: string, field: RequestField): string | undefined {
  let byName = requestBindings.get(fn);
  if (!byName) requestBindings.set(fn, (byName = new Map()));
  const key = `${field}:${name}`;
  if (byName.has(key)) return byName.get(key);
  const root = findRequestBinding(fn, name, field);
  byName.set(key, root);
  return root;
}

function requestOfNameBinding(fn: FunctionNode, name: string): string | undefined {
  return requestOfBinding(fn, name, 'name');
}

/**
 * `const params = request.params || {}` (or `const { params } = request`) in `fn`: a local that holds
 * the request's params, so `params.name` is the requested name. The request's root name, else undefined.
 */
function paramsLocalRoot(fn: FunctionNode, local: string): string | undefined {
  const declared = destructuredFrom(fn, local, 'params');
  if (declared !== undefined) return declared;
  let root: string | undefined;
  walk(fn.body, (node) => {
    if (root !== undefined || (node !== fn.body && isFunctionNode(node))) return false;
    if (node.type !== AST_NODE_TYPES.VariableDeclarator || node.id.type !== AST_NODE_TYPES.Identifier || node.id.name !== local)
      return undefined;
    const path = node.init ? getMemberPath(withoutFallback(node.init)) : undefined;
    if (path?.length === 2 && path[1] === 'params') root = path[0];
    return undefined;
  });
  return root;
}

/** `params.name || '<missing>'` (the field of a local that holds the request's params): the request's root name. */
function paramsLocalField(fn: FunctionNode, init: TSESTree.Node, field: RequestField): string | undefined {
  const path = getMemberPath(withoutFallback(init));
  if (path?.length !== 2 || !REQUEST_FIELD_SPELLINGS[field].includes(path[1]!)) return undefined;
  return paramsLocalRoot(fn, path[0]!);
}

function findRequestBinding(fn: FunctionNode, name: string, field: RequestField): string | undefined {
  let root: string | undefined;
  walk(fn.body, (node) => {
    if (root !== undefined) return false;
    if (node !== fn.body && isFunctionNode(node) && !isAwaiterBody(node)) return false;
    if (node.type !== AST_NODE_TYPES.VariableDeclarator || !node.init) return undefined;
    if (node.id.type === AST_NODE_TYPES.Identifier && node.id.name === name) {
      root = requestParamsRoot(node.init, field) ?? paramsLocalField(fn, node.init, field);
    } else if (node.id.type === AST_NODE_TYPES.ObjectPattern) {
      const binds = node.id.properties.some((property) => {
        if (
          property.type !== AST_NODE_TYPES.Property ||
          !REQUEST_FIELD_SPELLINGS[field].includes(getStaticKeyName(property.key, property.computed) ?? '')
        )
          return false;
        const value = property.value.type === AST_NODE_TYPES.AssignmentPattern ? property.value.left : property.value;
        return value.type === AST_NODE_TYPES.Identifier && value.name === name;
      });
      const init = skipTypeWrappers(node.init);
      const path = binds ? getMemberPath(init) : undefined;
      if (path?.length === 2 && path[1] === 'params') root = path[0];
      // `const { name } = params`, with `const params = request.params || {}` before it.
      else if (binds && init.type === AST_NODE_TYPES.Identifier) root = paramsLocalRoot(fn, init.name);
    }
    return undefined;
  });
  return root;
}

/**
 * Functions of other modules that a package's call-tool handlers hand the requested name and
 * arguments to (`import { executeTool } from './server-tool-handlers.js'`), by file and name:
 * their `switch` on the name dispatches as if it stood in the handler. Found once per package,
 * from the files whose text spells the call-tool request (one or two in a server).
 */
/**
 * What other modules' handlers hand on, by file and function name: the requested name and
 * arguments (`delegates`), or the whole request (`requestDelegates`, by the parameter that
 * receives it: `server.setRequestHandler(CallToolRequestSchema, (request) => handleTools(request))`
 * with `import { handleTools } from './handlers/tools.js'`).
 */
interface ImportedDelegates {
  delegates: Map<string, DelegateIndexes>;
  requestDelegates: Map<string, number>;
}

const importedDelegatesByRoot = new Map<string, ImportedDelegates>();

function importedDelegates(filePath: string): ImportedDelegates | undefined {
  const root = packageRootOf(filePath);
  if (root === undefined) return undefined;
  let found = importedDelegatesByRoot.get(root);
  if (found) return found;
  found = { delegates: new Map(), requestDelegates: new Map() };
  for (const candidate of packageSourceFiles(root)) {
    if (!nameSpellings(candidate)?.handlesToolCalls) continue;
    const file = loadModule(candidate);
    const facts = file ? dispatchFacts(file.program) : undefined;
    if (!file || !facts) continue;
    for (const [name, indexes] of facts.delegates) {
      if (name.startsWith(SERVICE_DELEGATE_PREFIX)) {
        const method = name.slice(name.lastIndexOf('.') + 1);
        for (const servicePath of importedServiceMethodFiles(file, method)) found.delegates.set(`${servicePath}#${method}`, indexes);
        continue;
      }
      const key = importedFunctionKey(file, name, candidate);
      if (key !== undefined) found.delegates.set(key, indexes);
    }
    for (const [name, requestIndex] of facts.requestDelegates) {
      const key = importedFunctionKey(file, name, candidate);
      if (key !== undefined) found.requestDelegates.set(key, requestIndex);
    }
  }
  importedDelegatesByRoot.set(root, found);
  return found;
}

/** `path#name` of the function another module exports and `file` imports as `name`; undefined for the file's own. */
function importedFunctionKey(file: FileIndex, name: string, filePath: string): string | undefined {
  if (file.functions.has(name) || !file.imports.has(name)) return undefined;
  const resolved = resolveLocalName(file, name);
  return resolved && resolved.file.filePath !== filePath ? `${resolved.file.filePath}#${resolved.name}` : undefined;
}

/** An imported delegate around a branch: the function, and which of its parameters get the name and the input (or the request). */
type ImportedDelegate = { fn: FunctionNode; indexes: DelegateIndexes } | { fn: FunctionNode; requestIndex: number };

/**
 * Where the named functions around `node` receive a requested name (or the whole request) from
 * another module's handler: the first such function, with its indexes. Cheap tests first: only a
 * named function of a file whose path is known is looked up.
 */
function importedDelegateAround(node: TSESTree.Node, filePath: string | undefined): ImportedDelegate | undefined {
  const named = enclosingFunctions(node, MAX_CALLBACK_DEPTH).flatMap((fn) => {
    const name = fn.params.length >= 1 ? delegateNameOf(fn) : undefined;
    return name === undefined ? [] : [{ fn, name }];
  });
  if (named.length === 0) return undefined;
  const program = filePath === undefined ? programOf(node) : undefined;
  const path = filePath ?? (program ? programPath(program) : undefined);
  const imported = path === undefined ? undefined : importedDelegates(path);
  if (!imported || (imported.delegates.size === 0 && imported.requestDelegates.size === 0)) return undefined;
  for (const { fn, name } of named) {
    const indexes = fn.params.length >= 2 ? imported.delegates.get(`${path}#${name}`) : undefined;
    if (indexes) return { fn, indexes };
    const requestIndex = imported.requestDelegates.get(`${path}#${name}`);
    if (requestIndex !== undefined) return { fn, requestIndex };
  }
  return undefined;
}

/**
 * Can a branch in `node`'s file dispatch tool calls? Every handler and
 * delegate hangs on a `setRequestHandler(CallToolRequestSchema, …)` of the
 * file: in a file that spells none (nearly every file with a `switch` or an
 * `if` on a string), nothing can, whatever it compares, so the case's name is
 * not even resolved.
 */
export function mayDispatchIn(node: TSESTree.Node, filePath?: string): boolean {
  return dispatchFacts(node) !== NO_DISPATCH_FACTS || importedDelegateAround(node, filePath) !== undefined;
}

const dispatchers = new WeakMap<TSESTree.Node, { fn: FunctionNode; inputParameter: number } | null>();

/**
 * Is `discriminant` the requested tool name in a dispatcher? Then the
 * dispatcher and which of its parameters is the model's input: the
 * arguments object (or the whole request), never the name.
 */
export function findDispatcher(discriminant: TSESTree.Node, filePath?: string): { fn: FunctionNode; inputParameter: number } | undefined {
  const cached = dispatchers.get(discriminant);
  if (cached !== undefined) return cached ?? undefined;
  let found: { fn: FunctionNode; inputParameter: number } | undefined;
  const target = skipTypeWrappers(discriminant);
  const functions = enclosingFunctions(discriminant, MAX_CALLBACK_DEPTH);
  // Cheap local evidence first: most `switch`/`if` on a string compare something
  // else, and only a requested name is worth the one walk that finds the handlers.
  const looksRequested =
    requestParamsRoot(target, 'name') !== undefined ||
    (target.type === AST_NODE_TYPES.Identifier &&
      functions.some(
        (fn) => requestOfNameBinding(fn, target.name) !== undefined || (fn.params.length >= 2 && parameterIndex(fn, target.name) >= 0),
      ));
  const facts = looksRequested ? dispatchFacts(discriminant) : undefined;
  for (const fn of facts ? functions : []) {
    const name = delegateNameOf(fn);
    const requestIndex = facts!.handlers.get(fn) ?? (name === undefined ? undefined : facts!.requestDelegates.get(name));
    if (requestIndex !== undefined) {
      if (requestedBy(fn, requestIndex, target)) found = { fn, inputParameter: requestIndex };
    } else if (target.type === AST_NODE_TYPES.Identifier) {
      const delegate = name === undefined ? undefined : facts!.delegates.get(name);
      if (delegate && parameterIndex(fn, target.name) === delegate.nameIndex) found = { fn, inputParameter: delegate.inputIndex };
    }
    if (found) break;
  }
  // `export async function executeTool(name, args, tools) { switch (name) … }`, which another module's handler calls
  // (a module with no handler of its own, whatever its text spells: a prompt that quotes `tools/call`).
  // Or `export const handleTools = async (request) => { const { name } = request.params; switch (name) … }`, which another
  // module's handler hands its whole request to.
  if (!found && looksRequested && facts?.handlers.size === 0) {
    const imported = importedDelegateAround(discriminant, filePath);
    if (imported && 'indexes' in imported) {
      if (target.type === AST_NODE_TYPES.Identifier && parameterIndex(imported.fn, target.name) === imported.indexes.nameIndex) {
        found = { fn: imported.fn, inputParameter: imported.indexes.inputIndex };
      }
    } else if (imported && requestedBy(imported.fn, imported.requestIndex, target)) {
      found = { fn: imported.fn, inputParameter: imported.requestIndex };
    }
  }
  dispatchers.set(discriminant, found ?? null);
  return found;
}

/** Is `target` the name the request at `fn`'s parameter `requestIndex` asks for (`request.params.name`, or a local bound to it)? */
function requestedBy(fn: FunctionNode, requestIndex: number, target: TSESTree.Node): boolean {
  const request = fn.params[requestIndex];
  const requestName = request?.type === AST_NODE_TYPES.Identifier ? request.name : undefined;
  const root =
    requestParamsRoot(target, 'name') ?? (target.type === AST_NODE_TYPES.Identifier ? requestOfNameBinding(fn, target.name) : undefined);
  return requestName !== undefined && root === requestName;
}

/** Tool list entries of files that dispatch for another module's handler (and spell no handler of their own). */
const delegateListEntries = new WeakMap<TSESTree.Program, Map<string, TSESTree.ObjectExpression>>();

/**
 * The tool list entry (`{ name, inputSchema, … }`) of the file that names `name`, where its
 * classification lives: the handler's file, or the file of the delegate it hands the request to
 * (`listTools()` and `handleTools(request)` side by side in `handlers/tools.js`).
 */
export function listEntryNamed(node: TSESTree.Node, name: string): TSESTree.ObjectExpression | undefined {
  const facts = dispatchFacts(node);
  if (facts !== NO_DISPATCH_FACTS) return facts?.listEntries.get(name);
  const program = programOf(node);
  if (!program) return undefined;
  let entries = delegateListEntries.get(program);
  if (!entries) {
    entries = new Map();
    const found = entries;
    walk(program, (child) => {
      if (child.type === AST_NODE_TYPES.ObjectExpression && child.parent?.type === AST_NODE_TYPES.ArrayExpression)
        addListEntry(child, found);
    });
    delegateListEntries.set(program, entries);
  }
  return entries.get(name);
}

function addListEntry(node: TSESTree.ObjectExpression, entries: Map<string, TSESTree.ObjectExpression>): void {
  const name = configName(node);
  if (name !== undefined && findProperty(node, 'inputSchema') && !entries.has(name)) entries.set(name, node);
}
