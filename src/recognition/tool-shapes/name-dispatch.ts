/**
 * A tool list joined to its handlers by name. Many MCP servers keep the
 * ListTools answer (`[{ name: 'x', description, inputSchema }, …]`) in one
 * file and the implementations behind a dispatcher in another
 * (`handleToolCall(name, args) { switch (name) { case 'x': return xTool.execute(args, ctx); } }`),
 * the two joined by nothing but the tool's name — and the dispatcher's file
 * usually imports the list's, so following imports from the list finds nothing.
 *
 * Principle: a tool list entry (`{ name, inputSchema }` in an array) is a
 * tool when a name-keyed dispatcher anywhere in its package (a `switch`/`if`
 * on a parameter of a function that takes the name and then the arguments)
 * has a branch for that name; its invocation is that branch and the
 * implementation the branch hands the arguments to (a method of the instance
 * a module variable holds, an imported handler object's method, a function).
 * The entry is where the tool is reported and where its classification goes
 * (`_meta`); the implementation is no tool by itself (it would count twice).
 * A branch the low-level MCP shape already makes a tool (a dispatcher reached
 * from `setRequestHandler(CallToolRequestSchema, …)` in its own file) stays
 * that tool: the entry is then its `_meta` home, not a second tool.
 *
 * With no such branch, a handler map the package indexes by a computed name
 * (`toolHandlers[name]`, `handler-maps.ts`) routes the entry the same way.
 * With neither, an entry the server's ListTools answer lists (`listed-tools.ts`)
 * is a tool whose invocation is not found: its contract decides.
 *
 * Cost: other files are found from text (`package-files.ts`: which files
 * compare a string with the entry's name) and parsed only then, once per
 * process; each program's branches are collected in one walk.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import {
  type ClassNode,
  type FunctionNode,
  classOfThis,
  findProperty,
  getMemberPath,
  getStaticKeyName,
  isFunctionNode,
  programOf,
  skipTypeWrappers,
  walk,
  moduleLevelDeclaration,
  namedDeclaratorOf,
} from '../ast.js';
import { findDispatcher, mayDispatchIn } from '../call-tool-handlers.js';
import { type MappedHandler, handlerOfValue, mappedHandlersNamed } from '../handler-maps.js';
import { isListedByServer } from '../listed-tools.js';
import { type FileIndex, programFileIndex } from '../file-index.js';
import { type ResolvedClass, loadModule, resolveClassName, resolveLocalName, resolveRelativeModule } from '../module-graph.js';
import { nameSpellings, packageNameFacts, packageRootOf, packageSourceFiles } from '../package-files.js';
import { type JoinedInvocationEntry, type ToolDefinition, handlerInputParameters, hasInvocationMember } from './vocabulary.js';
import type { RecognitionSettings } from '../settings.js';
import { statesContract } from '../tool-contract.js';
import { configName, spelledNameKey, toolNameKey } from '../tool-name.js';

/** How many functions out from a branch its dispatcher may be. */
const MAX_CALLBACK_DEPTH = 3;

/** One branch of a name-keyed dispatcher. */
interface NameBranch {
  node: TSESTree.SwitchCase | TSESTree.IfStatement;
  region: TSESTree.Node;
  dispatcher: FunctionNode;
  inputParameter: number;
  /** The low-level MCP shape recognises it as a tool of its own file. */
  recognisedInPlace: boolean;
}

const branchesByProgram = new WeakMap<TSESTree.Program, Map<string, NameBranch[]>>();

/**
 * The function whose parameter `discriminant` is, with the parameter after it
 * (the arguments): `handleToolCall(name, args, …)`. A name compared without
 * arguments to hand on is no dispatcher.
 */
function parameterDispatcher(discriminant: TSESTree.Node): { fn: FunctionNode; inputParameter: number } | undefined {
  const target = skipTypeWrappers(discriminant);
  const called = calledToolName(target);
  if (called) return called;
  if (target.type !== AST_NODE_TYPES.Identifier) return undefined;
  let depth = 0;
  for (let current: TSESTree.Node | undefined = target.parent; current && depth < MAX_CALLBACK_DEPTH; current = current.parent) {
    if (!isFunctionNode(current)) continue;
    depth += 1;
    const index = current.params.findIndex((parameter) => parameter.type === AST_NODE_TYPES.Identifier && parameter.name === target.name);
    if (index >= 0) {
      const input = current.params[index + 1];
      return input?.type === AST_NODE_TYPES.Identifier ? { fn: current, inputParameter: index + 1 } : undefined;
    }
  }
  return undefined;
}

function collectBranches(program: TSESTree.Program): Map<string, NameBranch[]> {
  const branches = new Map<string, NameBranch[]>();
  const add = (name: string, branch: NameBranch): void => {
    const list = branches.get(name) ?? [];
    list.push(branch);
    branches.set(name, list);
  };
  walk(program, (node) => {
    if (node.type === AST_NODE_TYPES.SwitchStatement) {
      // A switch in the low-level server's own handler is that shape's (tool-shapes/mcp-low-level.ts): its
      // cases are tools in place. Any other switch on a parameter may be a dispatcher list entries join.
      const handler = mayDispatchIn(node) ? findDispatcher(node.discriminant) : undefined;
      const dispatcher = handler ? undefined : parameterDispatcher(node.discriminant);
      node.cases.forEach((switchCase, index) => {
        const name = toolNameKey(switchCase.test);
        if (name === undefined) return;
        const region = node.cases.slice(index).find((later) => later.consequent.length > 0) ?? switchCase;
        if (handler)
          add(name, {
            node: switchCase,
            region,
            dispatcher: handler.fn,
            inputParameter: handler.inputParameter,
            recognisedInPlace: true,
          });
        else if (dispatcher)
          add(name, {
            node: switchCase,
            region,
            dispatcher: dispatcher.fn,
            inputParameter: dispatcher.inputParameter,
            recognisedInPlace: false,
          });
      });
    } else if (node.type === AST_NODE_TYPES.IfStatement) {
      const test = node.test;
      if (test.type !== AST_NODE_TYPES.BinaryExpression || (test.operator !== '===' && test.operator !== '==')) return;
      const leftName = toolNameKey(test.left);
      const name = leftName ?? toolNameKey(test.right);
      if (name === undefined) return;
      const discriminant = leftName === undefined ? test.left : test.right;
      const handler = mayDispatchIn(node) ? findDispatcher(discriminant) : undefined;
      if (handler) {
        add(name, {
          node,
          region: node.consequent,
          dispatcher: handler.fn,
          inputParameter: handler.inputParameter,
          recognisedInPlace: true,
        });
        return;
      }
      const dispatcher = parameterDispatcher(discriminant);
      if (dispatcher)
        add(name, {
          node,
          region: node.consequent,
          dispatcher: dispatcher.fn,
          inputParameter: dispatcher.inputParameter,
          recognisedInPlace: false,
        });
    }
  });
  return branches;
}

function branchesOf(program: TSESTree.Program): Map<string, NameBranch[]> {
  let branches = branchesByProgram.get(program);
  if (!branches) branchesByProgram.set(program, (branches = collectBranches(program)));
  return branches;
}

/** The tree of a package file: the linted one as ESLint parsed it, any other parsed once. */
function fileFor(filePath: string, linted: { filePath: string; program: TSESTree.Program }): FileIndex | undefined {
  if (filePath === linted.filePath) return programFileIndex(linted.program, filePath);
  return loadModule(filePath);
}

/** Of the candidates, the files nearest the definitions (longest common folder): `src/` joins `src/`, not `dist/`. */
function nearest(candidates: string[], from: string): string[] {
  const depth = (file: string): number => {
    const a = path.dirname(file).split(path.sep);
    const b = path.dirname(from).split(path.sep);
    let shared = 0;
    while (shared < a.length && shared < b.length && a[shared] === b[shared]) shared += 1;
    return shared;
  };
  const best = Math.max(...candidates.map(depth));
  return candidates.filter((file) => depth(file) === best);
}

interface FoundBranch {
  branch: NameBranch;
  file: FileIndex;
}

/** The dispatcher branches for `name` in the package of `linted`. */
function branchesNamed(name: string, linted: { filePath: string; program: TSESTree.Program }, spelling?: string): FoundBranch[] {
  // The linted file first: its own dispatcher is the nearest of all.
  const own = branchesOf(linted.program).get(name);
  if (own) return own.map((branch) => ({ branch, file: programFileIndex(linted.program, linted.filePath) }));
  const root = packageRootOf(linted.filePath);
  // A name an enum of another module gives (`BuiltInToolNames.ReadFile`): the dispatchers spell the member, not its value.
  const facts = root ? packageNameFacts(root) : undefined;
  const comparing = facts?.comparedIn.get(name) ?? (spelling === undefined ? undefined : facts?.comparedIn.get(spelling)) ?? [];
  const candidates = comparing.filter((file) => file !== linted.filePath);
  const found: FoundBranch[] = [];
  for (const candidate of candidates.length > 0 ? nearest(candidates, linted.filePath) : []) {
    const file = fileFor(candidate, linted);
    if (!file) continue;
    for (const branch of branchesOf(file.program).get(name) ?? []) found.push({ branch, file });
  }
  return found;
}

/** A name field of a call record: `toolCall.function.name`, `call.name`, `request.toolName`. */
const NAME_FIELD = /^(?:name|toolName|tool_name|functionName|function_name)$/;

/**
 * A dispatcher that switches on the name field of the call record it was
 * given (`executeTool(toolCall) { switch (toolCall.function.name) … }`, or
 * `const uri = tool.uri ?? tool.function.name; switch (uri)`): the function,
 * and which parameter holds the model's arguments — the one after the record
 * (`callTool(tool, args, extras)`), else the record itself, whose
 * `arguments` the branch parses.
 */
function calledToolName(target: TSESTree.Node, depth = 0): { fn: FunctionNode; inputParameter: number } | undefined {
  if (depth > 2) return undefined;
  if (target.type === AST_NODE_TYPES.LogicalExpression) {
    return calledToolName(skipTypeWrappers(target.right), depth + 1) ?? calledToolName(skipTypeWrappers(target.left), depth + 1);
  }
  if (target.type === AST_NODE_TYPES.Identifier) {
    // A local the name field was copied into.
    for (let current: TSESTree.Node | undefined = target.parent; current; current = current.parent) {
      if (!isFunctionNode(current) || current.body.type !== AST_NODE_TYPES.BlockStatement) continue;
      for (const statement of current.body.body) {
        if (statement.type !== AST_NODE_TYPES.VariableDeclaration) continue;
        for (const declarator of statement.declarations) {
          if (declarator.id.type === AST_NODE_TYPES.Identifier && declarator.id.name === target.name && declarator.init) {
            return calledToolName(skipTypeWrappers(declarator.init), depth + 1);
          }
          // `const { name, arguments: args } = request`: the record's name field, destructured.
          const destructured = declarator.init ? destructuredRecord(declarator.id, declarator.init, target.name) : undefined;
          if (destructured) return recordDispatcher(destructured.record, current, destructured.bindsArguments);
        }
      }
      return undefined;
    }
    return undefined;
  }
  const fieldPath = getMemberPath(target);
  if (!fieldPath || fieldPath.length < 2 || fieldPath.length > 3 || !NAME_FIELD.test(fieldPath[fieldPath.length - 1]!)) return undefined;
  for (let current: TSESTree.Node | undefined = target.parent; current; current = current.parent) {
    if (isFunctionNode(current)) return recordDispatcher(fieldPath[0]!, current, false);
  }
  return undefined;
}

/**
 * The dispatcher whose parameter `record` is the call record, and which
 * parameter holds the arguments: the one after the record, unless that one
 * holds none (`_extra`, a context) or the arguments are read off the record.
 */
function recordDispatcher(
  record: string,
  fn: FunctionNode,
  bindsArguments: boolean,
): { fn: FunctionNode; inputParameter: number } | undefined {
  const index = fn.params.findIndex((parameter) => parameter.type === AST_NODE_TYPES.Identifier && parameter.name === record);
  if (index < 0) return undefined;
  const next = fn.params[index + 1];
  const handsOnArguments = next?.type === AST_NODE_TYPES.Identifier && !NOT_ARGUMENTS_PARAMETER.test(next.name);
  return { fn, inputParameter: handsOnArguments && !bindsArguments && !readsRecordArguments(fn, record) ? index + 1 : index };
}

/** `{ name, arguments: args } = request` binding `name`: the record (`request`), and whether the pattern takes its arguments too. */
function destructuredRecord(
  pattern: TSESTree.Node,
  init: TSESTree.Expression,
  name: string,
): { record: string; bindsArguments: boolean } | undefined {
  if (pattern.type !== AST_NODE_TYPES.ObjectPattern) return undefined;
  const value = skipTypeWrappers(init);
  if (value.type !== AST_NODE_TYPES.Identifier) return undefined;
  let bindsName = false;
  let bindsArguments = false;
  for (const property of pattern.properties) {
    if (property.type !== AST_NODE_TYPES.Property) continue;
    const key = getStaticKeyName(property.key, property.computed);
    if (key === undefined) continue;
    const bound = property.value.type === AST_NODE_TYPES.AssignmentPattern ? property.value.left : property.value;
    if (NAME_FIELD.test(key) && bound.type === AST_NODE_TYPES.Identifier && bound.name === name) bindsName = true;
    if (RECORD_ARGUMENT_FIELDS.has(key)) bindsArguments = true;
  }
  return bindsName ? { record: value.name, bindsArguments } : undefined;
}

/** A parameter after the call record that holds no arguments: unused (`_extra`), the transport's extra, a context, options. */
const NOT_ARGUMENTS_PARAMETER = /^(?:_.*|extra|ctx|context|[a-z]+Context|options|opts|signal)$/;
/** Fields of a call record that hold the model's arguments. */
const RECORD_ARGUMENT_FIELDS = new Set(['arguments', 'args', 'input', 'params', 'parameters']);

/** Does the dispatcher read the arguments off the record itself (`request.arguments.paths`, `call.function.arguments`)? */
function readsRecordArguments(fn: FunctionNode, record: string): boolean {
  let found = false;
  walk(fn.body, (node) => {
    if (found) return false;
    if (node.type !== AST_NODE_TYPES.MemberExpression || node.object.type === AST_NODE_TYPES.MemberExpression) return undefined;
    const path = getMemberPath(node.parent?.type === AST_NODE_TYPES.MemberExpression ? node.parent : node);
    if (path?.[0] === record && path.slice(1, 3).some((field) => RECORD_ARGUMENT_FIELDS.has(field))) found = true;
    return undefined;
  });
  return found;
}

/**
 * `{ name: 'x', inputSchema }` in an array (a tool list entry) or a definition with no invocation: its
 * name (resolved), with how the code spells it (`BuiltInToolNames.ReadFile`).
 */
function listEntryNameNode(
  object: TSESTree.ObjectExpression,
  settings: RecognitionSettings,
): { name: string | undefined; spelling: string | undefined } | undefined {
  if (object.parent?.type === AST_NODE_TYPES.ArrayExpression && findProperty(object, 'inputSchema')) {
    const value = findProperty(object, 'name')?.value;
    return { name: configName(object), spelling: spelledNameKey(value) };
  }
  // A definition the model is shown (`{ type: 'function', function: { name, description, parameters } }`,
  // `const readFileTool: Tool = {…}`) with no invocation of its own: its code is behind a dispatcher.
  // The name first: most objects of a file have none, and reading a contract costs more than finding a key.
  const nested = findProperty(object, 'function');
  const nestedObject = nested ? skipTypeWrappers(nested.value) : undefined;
  const name =
    findProperty(object, 'name') ??
    (nestedObject?.type === AST_NODE_TYPES.ObjectExpression ? findProperty(nestedObject, 'name') : undefined);
  if (!name) return undefined;
  // The key last but where the place needs it: resolving a name may look through the module's bindings,
  // and most named objects are no definition (no contract, or an invocation of their own).
  let key: string | undefined;
  let resolved = false;
  const nameKey = (): string | undefined => {
    if (!resolved) {
      key = toolNameKey(name.value);
      resolved = true;
    }
    return key;
  };
  if (!isDefinitionPlace(object, nameKey) || hasInvocationMember(object, settings) || !statesContract(object)) return undefined;
  return { name: nameKey(), spelling: spelledNameKey(name.value) };
}

/**
 * Where a definition list or constant sits: an array element, a variable's value, an export, a
 * variable a bundle assigns in its lazy module initialiser (`var readTool; … readTool = { name, … }`),
 * or the entry of a registry keyed by the tool's own name (`this.tools = { create_identity: { name:
 * 'create_identity', description, inputSchema } }`, whose values a hand-written `tools/list` answers).
 */
function isDefinitionPlace(object: TSESTree.ObjectExpression, name: () => string | undefined): boolean {
  let child: TSESTree.Node = object;
  let parent = object.parent;
  while (parent && (parent.type === AST_NODE_TYPES.TSAsExpression || parent.type === AST_NODE_TYPES.TSSatisfiesExpression)) {
    child = parent;
    parent = parent.parent;
  }
  if (parent?.type === AST_NODE_TYPES.ArrayExpression) return true;
  if (parent?.type === AST_NODE_TYPES.Property && parent.value === child && parent.parent.type === AST_NODE_TYPES.ObjectExpression) {
    const key = getStaticKeyName(parent.key, parent.computed);
    return key !== undefined && key === name();
  }
  if (
    parent?.type === AST_NODE_TYPES.AssignmentExpression &&
    parent.operator === '=' &&
    parent.right === child &&
    parent.left.type === AST_NODE_TYPES.Identifier
  ) {
    return true;
  }
  return parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.init === child;
}

/** The class a module variable holds an instance of: `x = new C(…)` anywhere in the file. */
function instanceClassOf(name: string, file: FileIndex): ResolvedClass | undefined {
  let className: string | undefined;
  walk(file.program, (node) => {
    if (className !== undefined) return false;
    let value: TSESTree.Node | null | undefined;
    if (node.type === AST_NODE_TYPES.AssignmentExpression && node.left.type === AST_NODE_TYPES.Identifier && node.left.name === name)
      value = node.right;
    else if (node.type === AST_NODE_TYPES.VariableDeclarator && node.id.type === AST_NODE_TYPES.Identifier && node.id.name === name)
      value = node.init;
    const target = value ? skipTypeWrappers(value) : undefined;
    if (target?.type === AST_NODE_TYPES.NewExpression && target.callee.type === AST_NODE_TYPES.Identifier) className = target.callee.name;
    return undefined;
  });
  return className === undefined ? undefined : resolveClassName(file, className);
}

/** An object a module (this one or an imported one) declares as a `const`: `export const x = { handler … }`. */
function constantObject(name: string, file: FileIndex): { object: TSESTree.ObjectExpression; file: FileIndex } | undefined {
  const own = file.constants.get(name);
  if (own) {
    const target = skipTypeWrappers(own);
    return target.type === AST_NODE_TYPES.ObjectExpression ? { object: target, file } : undefined;
  }
  const binding = file.imports.get(name);
  if (!binding || binding.imported === '*') return undefined;
  const modulePath = resolveRelativeModule(binding.module, file.filePath);
  const imported = modulePath ? loadModule(modulePath) : undefined;
  const exported = imported?.exports.get(binding.imported);
  if (!imported || exported?.kind !== 'local') return undefined;
  const value = imported.constants.get(exported.local);
  const target = value ? skipTypeWrappers(value) : undefined;
  return target?.type === AST_NODE_TYPES.ObjectExpression ? { object: target, file: imported } : undefined;
}

function classMethod(classNode: ClassNode, name: string): FunctionNode | undefined {
  for (const member of classNode.body.body) {
    if (
      (member.type === AST_NODE_TYPES.MethodDefinition || member.type === AST_NODE_TYPES.PropertyDefinition) &&
      getStaticKeyName(member.key, member.computed) === name
    ) {
      const value = member.value;
      if (isFunctionNode(value)) return value;
    }
  }
  return undefined;
}

/** What a branch hands the arguments to: each call in it given the input parameter, resolved. */
function implementationsOf(found: FoundBranch): JoinedInvocationEntry[] {
  const { branch, file } = found;
  const input = branch.dispatcher.params[branch.inputParameter];
  if (input?.type !== AST_NODE_TYPES.Identifier) return [];
  const entries: JoinedInvocationEntry[] = [];
  walk(branch.region, (node) => {
    if (node !== branch.region && isFunctionNode(node)) return false;
    if (node.type !== AST_NODE_TYPES.CallExpression) return undefined;
    const argument = node.arguments.findIndex((value) => value.type === AST_NODE_TYPES.Identifier && value.name === input.name);
    if (argument < 0) return undefined;
    const callee = skipTypeWrappers(node.callee);
    if (callee.type === AST_NODE_TYPES.Identifier) {
      const resolved = resolveLocalName(file, callee.name);
      if (resolved && resolved.fn !== branch.dispatcher) {
        entries.push({ fn: resolved.fn, inputParameters: [argument], classNode: resolved.classNode, file: resolved.file });
      }
    } else if (callee.type === AST_NODE_TYPES.MemberExpression && callee.object.type === AST_NODE_TYPES.Identifier) {
      const method = getStaticKeyName(callee.property, callee.computed);
      if (method === undefined) return undefined;
      const instance = instanceClassOf(callee.object.name, file);
      const fn = instance ? classMethod(instance.classNode, method) : undefined;
      if (instance && fn) {
        entries.push({ fn, inputParameters: [argument], classNode: instance.classNode, file: instance.file });
        return undefined;
      }
      const holder = constantObject(callee.object.name, file);
      const property = holder ? findProperty(holder.object, method)?.value : undefined;
      const handler = property ? skipTypeWrappers(property) : undefined;
      if (holder && isFunctionNode(handler))
        entries.push({ fn: handler, inputParameters: [argument], classNode: undefined, file: holder.file });
    }
    return undefined;
  });
  return entries;
}

/** The invocation of a joined tool: each branch for its name, then what each branch hands the arguments to. */
function joinedEntries(found: FoundBranch[]): JoinedInvocationEntry[] {
  const entries: JoinedInvocationEntry[] = [];
  for (const item of found) {
    entries.push({
      fn: item.branch.dispatcher,
      inputParameters: [item.branch.inputParameter],
      // A dispatcher method (`callTool(request) { switch (request.name) … this.search(…) }`), or an arrow a server's method
      // registers (`this.server.setRequestHandler(CallToolRequestSchema, async (request) => …)`): `this` is the server.
      classNode: classOfThis(item.branch.dispatcher),
      file: item.file,
      region: item.branch.region,
    });
  }
  for (const item of found) entries.push(...implementationsOf(item));
  return entries;
}

/** A tool list entry joined to its invocation elsewhere: reported at the entry, whose `_meta` is its classification home. */
function joinedDefinition(
  object: TSESTree.ObjectExpression,
  name: string,
  joinedInvocation: () => JoinedInvocationEntry[],
): ToolDefinition {
  return {
    shape: 'mcp-dispatch',
    node: object,
    reportNode: object,
    name,
    host: object,
    isMcpRegistration: true,
    handlerArgument: undefined,
    joinedInvocation,
  };
}

/**
 * A tool list entry whose name a dispatcher of the package routes: the tool,
 * at the entry, with the dispatcher's branch and implementation as its invocation.
 */
export function recogniseJoinedListEntry(
  object: TSESTree.ObjectExpression,
  filePath: string | undefined,
  settings: RecognitionSettings,
): ToolDefinition | undefined {
  if (filePath === undefined) return undefined;
  const named = listEntryNameNode(object, settings);
  const name = named?.name;
  const program = name === undefined ? undefined : programOf(object);
  if (name === undefined || !program) return undefined;
  const found = branchesNamed(name, { filePath, program }, named?.spelling);
  if (found.length === 0) {
    // No branch: a handler map the package indexes by name (`toolHandlers[name]`), or no handler at all.
    const mapped = mappedHandlersNamed(name, filePath, programFileIndex(program, filePath));
    if (mapped.length > 0) return joinedDefinition(object, name, () => mapped.map(mappedEntry));
    // Listed by the server's ListTools answer, routed by code the analysis cannot read (a registry filled in a
    // loop): a tool all the same, whose invocation is not found, so its contract decides.
    // Not where the file's own call-tool handler dispatches: its branches are the tools, the entries their `_meta` homes.
    return !mayDispatchIn(object, filePath) && isListedByServer(object, filePath) ? joinedDefinition(object, name, () => []) : undefined;
  }
  // A branch that is a tool in its own file: that tool, not a second one.
  if (found.some((item) => item.branch.recognisedInPlace)) return undefined;
  let entries: JoinedInvocationEntry[] | undefined;
  return joinedDefinition(object, name, () => (entries ??= joinedEntries(found)));
}

/** Per dispatcher program: the classes its name branches hand arguments to (`file:start`), with the names routed to each. */
const implementationsByProgram = new WeakMap<TSESTree.Program, Map<string, Set<string>>>();

function implementationClasses(file: FileIndex): Map<string, Set<string>> {
  let classes = implementationsByProgram.get(file.program);
  if (classes) return classes;
  classes = new Map();
  for (const [name, branches] of branchesOf(file.program)) {
    for (const branch of branches) {
      if (branch.recognisedInPlace) continue;
      for (const entry of implementationsOf({ branch, file })) {
        if (!entry.classNode) continue;
        const key = `${entry.file.filePath}:${entry.classNode.range[0]}`;
        classes.set(key, (classes.get(key) ?? new Set()).add(name));
      }
    }
  }
  implementationsByProgram.set(file.program, classes);
  return classes;
}

/**
 * Is this class the implementation a joined tool's branch hands its arguments
 * to? Then the tool is the list entry, and the class is no tool by itself.
 * Asked only of classes recognised as tools; answered from the package's
 * files that compare listed names and spell the class's name.
 */
export function isJoinedImplementation(classNode: ClassNode, filePath: string | undefined): boolean {
  if (filePath === undefined) return false;
  const parent = classNode.parent;
  const className =
    classNode.id?.name ??
    (parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.id.type === AST_NODE_TYPES.Identifier ? parent.id.name : undefined);
  const program = className === undefined ? undefined : programOf(classNode);
  const root = program ? packageRootOf(filePath) : undefined;
  if (className === undefined || !program || !root) return false;
  const facts = packageNameFacts(root);
  // The linted file counts even where the listing leaves it out (a bundle).
  const own = facts.files.has(filePath) ? undefined : nameSpellings(filePath);
  const listed = own && own.listed.size > 0 ? new Set([...facts.listed, ...own.listed]) : facts.listed;
  if (listed.size === 0) return false;
  const candidates = [...facts.dispatchers];
  if (own?.text !== undefined && [...own.compared].some((name) => listed.has(name))) candidates.push([filePath, own.text]);
  const key = `${filePath}:${classNode.range[0]}`;
  for (const [candidate, text] of candidates) {
    if (!text.includes(className)) continue;
    const file = candidate === filePath ? programFileIndex(program, filePath) : loadModule(candidate);
    const names = file ? implementationClasses(file).get(key) : undefined;
    if (names && [...names].some((name) => listed.has(name))) return true;
  }
  return false;
}

/**
 * fetcher-mcp: `export const fetchUrlTool = { name: 'fetch_url', inputSchema }`
 * in one file, `toolHandlers = { [fetchUrlTool.name]: fetchUrl }` in another,
 * the CallTool handler looking the handler up by the requested name.
 *
 * Principle: a handler map keyed by a definition's own name
 * (`{ [definition.name]: handler }`) joins that definition to that handler:
 * the definition (a `{ name, inputSchema }` constant) is the tool, its
 * invocation the handler function the map's value names, given the arguments
 * first. So does a map keyed by the name itself (`{ find_flaky_tests:
 * getFlakyTestLogs }`) in a module that imports the definition. Only files
 * whose text spells `<constant>.name]` or the name as a key, and the
 * constant, are parsed.
 *
 * So does a call that pairs the definition with its handler
 * (`createToolPlugin(listTestsTool, handleListTests)`, vitest-mcp;
 * `toolWithCallback(getDocumentTool, async (params) => …)`, reactor-mcp): the
 * definition constant first, the function that runs it next.
 */
const fileTexts = new Map<string, string | undefined>();

function fileText(filePath: string): string | undefined {
  if (!fileTexts.has(filePath)) {
    let text: string | undefined;
    try {
      text = readFileSync(filePath, 'utf8');
    } catch {
      text = undefined;
    }
    fileTexts.set(filePath, text);
  }
  return fileTexts.get(filePath);
}

/** `const x = { name, inputSchema }` at a module's top (exported or not): the constant's name. */
function definitionConstantName(object: TSESTree.ObjectExpression): string | undefined {
  const declarator = namedDeclaratorOf(object);
  return declarator && moduleLevelDeclaration(declarator) ? declarator.id.name : undefined;
}

/** Does `local` in `file` stand for the constant `constant` of `definitionFile`? */
function namesDefinition(file: FileIndex, local: string, constant: string, definitionFile: string): boolean {
  if (file.filePath === definitionFile) return local === constant && file.constants.has(local);
  const binding = file.imports.get(local);
  if (!binding || binding.imported !== constant) return false;
  return resolveRelativeModule(binding.module, file.filePath) === definitionFile;
}

/**
 * Does the map property `node` key its value by the definition: `[constant.name]`, or (CircleCI's
 * `CCI_HANDLERS = { find_flaky_tests: getFlakyTestLogs }` beside `CCI_TOOLS = [getFlakyTestLogsTool, …]`)
 * the definition's own name in a module that imports the definition too?
 */
function keysDefinition(node: TSESTree.Property, file: FileIndex, constant: string, name: string, definitionFile: string): boolean {
  if (!node.computed) return getStaticKeyName(node.key, false) === name && importsDefinition(file, constant, definitionFile);
  const key = skipTypeWrappers(node.key);
  if (key.type !== AST_NODE_TYPES.MemberExpression || key.object.type !== AST_NODE_TYPES.Identifier) {
    return getStaticKeyName(node.key, true) === name && importsDefinition(file, constant, definitionFile);
  }
  return getStaticKeyName(key.property, key.computed) === 'name' && namesDefinition(file, key.object.name, constant, definitionFile);
}

/** Does `file` import the definition constant (under any local name), or is it the definition's own file? */
function importsDefinition(file: FileIndex, constant: string, definitionFile: string): boolean {
  if (file.filePath === definitionFile) return file.constants.has(constant);
  for (const local of file.imports.keys()) if (namesDefinition(file, local, constant, definitionFile)) return true;
  return false;
}

/** The handler functions `{ [constant.name]: handler }` (or `{ 'tool_name': handler }`) maps of the package give the definition. */
function mappedHandlers(constant: string, name: string, filePath: string, linted: TSESTree.Program): JoinedInvocationEntry[] {
  const root = packageRootOf(filePath);
  const files = root ? packageSourceFiles(root) : [];
  const escapedName = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const escapedConstant = constant.replace(/\$/g, '\\$');
  const spelling = new RegExp(
    `\\[\\s*${escapedConstant}\\s*\\.\\s*name\\s*\\]|(?:^|[\\s{,])['"]?${escapedName}['"]?\\s*:|\\(\\s*${escapedConstant}\\s*,\\s*[A-Za-z_$]`,
  );
  const entries: JoinedInvocationEntry[] = [];
  for (const candidate of files) {
    const text = candidate === filePath ? undefined : fileText(candidate);
    if (candidate !== filePath && (!text?.match(spelling) || !text.includes(constant))) continue;
    const file = candidate === filePath ? programFileIndex(linted, filePath) : loadModule(candidate);
    if (!file) continue;
    walk(file.program, (node) => {
      if (node.type === AST_NODE_TYPES.CallExpression) {
        const paired = pairedHandler(node, file, constant, filePath);
        if (paired) entries.push(paired);
        return undefined;
      }
      if (node.type !== AST_NODE_TYPES.Property || node.parent?.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
      if (!keysDefinition(node, file, constant, name, filePath)) return undefined;
      const handler = handlerOfValue(node.value, file);
      if (handler) entries.push(mappedEntry(handler));
      return undefined;
    });
  }
  return entries;
}

/** `createToolPlugin(definition, handler)`: the handler a call pairs with the definition constant, resolved. */
function pairedHandler(
  call: TSESTree.CallExpression,
  file: FileIndex,
  constant: string,
  definitionFile: string,
): JoinedInvocationEntry | undefined {
  const [definition, handler] = call.arguments.map((argument) => skipTypeWrappers(argument));
  // The handler named (`handleListTests`) or written in the call (`toolWithCallback(getDocumentTool, async (params) => …)`).
  if (
    definition?.type !== AST_NODE_TYPES.Identifier ||
    !handler ||
    (!isFunctionNode(handler) && handler.type !== AST_NODE_TYPES.Identifier)
  ) {
    return undefined;
  }
  if (!namesDefinition(file, definition.name, constant, definitionFile)) return undefined;
  const resolved = handlerOfValue(handler, file);
  return resolved ? mappedEntry(resolved) : undefined;
}

/** A handler a map or a pairing call names, given the model's arguments where its parameters say (`execute(mcpServer, args)`). */
function mappedEntry(handler: MappedHandler): JoinedInvocationEntry {
  return { fn: handler.fn, inputParameters: handlerInputParameters(handler.fn), classNode: handler.classNode, file: handler.file };
}

export function recogniseMapJoinedDefinition(object: TSESTree.ObjectExpression, filePath: string | undefined): ToolDefinition | undefined {
  if (filePath === undefined || !findProperty(object, 'inputSchema')) return undefined;
  const constant = definitionConstantName(object);
  // `{ toolName: 'read_files', description, inputSchema }` (Codebuff's tool params) names it as well as `name`.
  const name = constant === undefined ? undefined : (configName(object) ?? toolNameKey(findProperty(object, 'toolName')?.value));
  const program = name === undefined ? undefined : programOf(object);
  if (constant === undefined || name === undefined || !program) return undefined;
  const entries = mappedHandlers(constant, name, filePath, program);
  if (entries.length > 0) return joinedDefinition(object, name, () => entries);
  // A handler map keyed by the name and looked up with a computed one (`codebuffToolHandlers[toolName]`).
  const looked = mappedHandlersNamed(name, filePath, programFileIndex(program, filePath));
  if (looked.length === 0) return undefined;
  return joinedDefinition(object, name, () => looked.map(mappedEntry));
}
