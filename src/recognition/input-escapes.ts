/**
 * Where the model's input leaves what the flow analysis can follow. The
 * self-reading verdict has three answers: *proven* (content from a
 * model-chosen location reaches the output), *refuted* (the analysis saw
 * everything the input touches and none of it reads and returns), and
 * *unknown*: the input flows into code the analysis cannot follow — an
 * import it cannot resolve, a service or executor, a member of `this` or of
 * the context, a callback. This module finds those escapes; for an unknown
 * tool the contract (`tool-contract.ts`) decides.
 *
 * The model's input is followed through one function and the functions of
 * the same file (or class) it hands it to, a few calls deep: the input
 * parameters, the names destructured from them, and the locals computed from
 * them. Handing any of those to a call is an escape unless the call is a
 * function of the same file (followed), or plain value work (string, array,
 * `JSON`, `path`, `URL`, schema validation) whose result stays input.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import {
  type ClassNode,
  type FunctionNode,
  collectBindingNames,
  getMemberPath,
  getStaticKeyName,
  isFunctionNode,
  skipTypeWrappers,
  walk,
} from './ast.js';
import { inheritedMethod } from './base-classes.js';
import { resolveLocalName } from './module-graph.js';
import type { FileIndex } from './file-index.js';
import type { Invocation } from './invocation.js';
import { classMethods } from './tool-shapes/vocabulary.js';

export interface InputEscape {
  /** The call the input was handed to. */
  node: TSESTree.CallExpression | TSESTree.NewExpression;
  /** How a message names it: `this.textEditor.view`, `context.page.goto`, `fetchDoc (an import)`. */
  callee: string;
  /** Found inside a helper of another module the input was followed into (`bycrawlGet` of `../client.js`). */
  inImportedHelper: boolean;
}

/** How many same-file calls deep the input is followed. */
const MAX_ESCAPE_DEPTH = 3;

/** Receivers whose methods only compute values: the result of a call on them stays the model's input. */
const VALUE_RECEIVERS = new Set([
  'JSON',
  'Math',
  'Object',
  'Array',
  'String',
  'Number',
  'Boolean',
  'Date',
  'RegExp',
  'Promise',
  'path',
  'posix',
  'win32',
  'console',
  'Buffer',
  'z',
  'zod',
  'url',
  'querystring',
  'util',
  'assert',
  'URL',
  'URLSearchParams',
]);
/** Functions that only compute values. */
const VALUE_FUNCTIONS = new Set([
  'String',
  'Number',
  'Boolean',
  'parseInt',
  'parseFloat',
  'isNaN',
  'encodeURIComponent',
  'decodeURIComponent',
  'encodeURI',
  'decodeURI',
  'URL',
  'URLSearchParams',
  'Error',
  'TypeError',
  'RangeError',
  'Set',
  'Map',
  'Array',
  'Date',
  'RegExp',
  'require',
  // A file URL and its path are the same location (`fileURLToPath(input.image)`).
  'fileURLToPath',
  'pathToFileURL',
  // A view of bytes the code already holds (`new Float32Array(samples)`).
  'Uint8Array',
  'Uint8ClampedArray',
  'Int8Array',
  'Uint16Array',
  'Int16Array',
  'Uint32Array',
  'Int32Array',
  'Float32Array',
  'Float64Array',
  'DataView',
]);
/** Methods that compute values whatever they are called on (strings, arrays, schemas, promises). */
const VALUE_METHODS = new Set([
  'trim',
  'trimStart',
  'trimEnd',
  'split',
  'join',
  'replace',
  'replaceAll',
  'slice',
  'substring',
  'substr',
  'toLowerCase',
  'toUpperCase',
  'startsWith',
  'endsWith',
  'includes',
  'indexOf',
  'match',
  'matchAll',
  'test',
  'concat',
  'padStart',
  'padEnd',
  'map',
  'filter',
  'some',
  'every',
  'find',
  'reduce',
  'flat',
  'flatMap',
  'at',
  'toString',
  'toFixed',
  'valueOf',
  'parse',
  'safeParse',
  'parseAsync',
  'safeParseAsync',
  'stringify',
  'keys',
  'values',
  'entries',
  'assign',
  'then',
  'catch',
  'finally',
  'localeCompare',
  'normalize',
  'charAt',
  'charCodeAt',
  'codePointAt',
  // A local list or set filled with the input stays input (`rgArgs.push(pattern)`, `seen.add(path)`, `seen.has(path)`).
  'push',
  'unshift',
  'splice',
  'add',
  'has',
  'resolve',
  'dirname',
  'basename',
  'extname',
  'relative',
  'isAbsolute',
  'error',
  'warn',
  'info',
  'debug',
  'log',
  'trace',
]);

/** Does `node` mention one of `names` (as a plain identifier, or `this.<member>`)? */
function mentions(node: TSESTree.Node, names: ReadonlySet<string>): boolean {
  let found = false;
  walk(node, (child) => {
    if (found) return false;
    if (isFunctionNode(child)) return false;
    if (child.type === AST_NODE_TYPES.Identifier && names.has(child.name)) {
      const parent = child.parent;
      // `x.path`: the property name is no mention; `{ path: x }` keys neither.
      if (parent?.type === AST_NODE_TYPES.MemberExpression && parent.property === child && !parent.computed) return undefined;
      if (parent?.type === AST_NODE_TYPES.Property && parent.key === child && !parent.computed && parent.value !== child) return undefined;
      found = true;
      return false;
    }
    if (child.type === AST_NODE_TYPES.MemberExpression && child.object.type === AST_NODE_TYPES.ThisExpression) {
      const key = getStaticKeyName(child.property, child.computed);
      if (key !== undefined && names.has(`this.${key}`)) {
        found = true;
        return false;
      }
    }
    return undefined;
  });
  return found;
}

/** The input names of a function: its input parameters and what is destructured or computed from them. */
function taintedNames(fn: FunctionNode, inputParameters: readonly number[], thisMembers: readonly string[]): Set<string> {
  const names = new Set<string>(thisMembers.map((member) => `this.${member}`));
  for (const index of inputParameters) {
    const parameter = fn.params[index];
    if (parameter) for (const name of collectBindingNames(parameter)) names.add(name);
  }
  if (names.size === 0) return names;
  // Twice, so a local computed before the one it is computed from is found too. Closures count: a
  // local of `new Promise((resolve) => { const parts = command.split(' '); … })` is computed from input
  // the closure captured, and the calls the input escapes to are looked for in closures as well.
  for (let round = 0; round < 2; round += 1) {
    walk(fn.body, (node) => {
      if (
        isFunctionNode(node) &&
        node.parent?.type === AST_NODE_TYPES.CallExpression &&
        node.parent.arguments.includes(node as TSESTree.CallExpressionArgument) &&
        overInput(node.parent, names)
      ) {
        // `paths.map((p) => …)`, `input.files.forEach(…)`: the callback's parameters are the input's items.
        for (const parameter of node.params) for (const name of collectBindingNames(parameter)) names.add(name);
      }
      if (node.type === AST_NODE_TYPES.VariableDeclarator && node.init && mentions(node.init, names)) {
        for (const name of collectBindingNames(node.id)) names.add(name);
      } else if (node.type === AST_NODE_TYPES.ForOfStatement && mentions(node.right, names)) {
        // `for (const uri of params.uris)`: each item of the input is input.
        const left = node.left.type === AST_NODE_TYPES.VariableDeclaration ? node.left.declarations.map((item) => item.id) : [node.left];
        for (const target of left) for (const name of collectBindingNames(target)) names.add(name);
      } else if (
        node.type === AST_NODE_TYPES.AssignmentExpression &&
        node.left.type === AST_NODE_TYPES.Identifier &&
        mentions(node.right, names)
      ) {
        names.add(node.left.name);
      } else if (
        // `rgArgs.push(pattern)`: the list now holds input, and where it goes the input goes.
        node.type === AST_NODE_TYPES.CallExpression &&
        node.callee.type === AST_NODE_TYPES.MemberExpression &&
        node.callee.object.type === AST_NODE_TYPES.Identifier &&
        FILLING_METHODS.has(getStaticKeyName(node.callee.property, node.callee.computed) ?? '') &&
        node.arguments.some((argument) => mentions(argument, names))
      ) {
        names.add(node.callee.object.name);
      }
      return undefined;
    });
  }
  return names;
}

/** Methods that hand a callback the items (or the value) of what they are called on. */
const ITEM_CALLBACK_METHODS = new Set(['map', 'flatMap', 'forEach', 'filter', 'some', 'every', 'find', 'findIndex', 'reduce', 'then']);

/** Is the call a method handing a callback the items of input (`paths.map(…)`, `Promise.all(paths.map(…))` excluded)? */
function overInput(call: TSESTree.CallExpression, names: ReadonlySet<string>): boolean {
  const callee = skipTypeWrappers(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return false;
  const method = getStaticKeyName(callee.property, callee.computed);
  return method !== undefined && ITEM_CALLBACK_METHODS.has(method) && mentions(callee.object, names);
}

/** Methods that put a value into the list they are called on. */
const FILLING_METHODS = new Set(['push', 'unshift', 'splice', 'add']);

function calleeText(callee: TSESTree.Node): string {
  const path = getMemberPath(skipTypeWrappers(callee));
  return path ? path.join('.') : 'a computed function';
}

/**
 * Where input only describes the call for someone else: an error it builds (`new UserInputError(…)`,
 * `createError(…)`), a tag or attribute of a trace, a log line. Nothing read comes back from there.
 */
const ERROR_CONSTRUCTOR = /(?:^|[A-Za-z\d])(?:Error|Exception)$/;
const TELEMETRY_METHODS = new Set([
  'setTag',
  'setTags',
  'setAttribute',
  'setAttributes',
  'setContext',
  'setExtra',
  'addBreadcrumb',
  'captureException',
  'captureMessage',
]);
const LOG_RECEIVERS = new Set(['logger', 'log', 'console', 'span', 'tracer', 'Sentry', 'telemetry', 'metrics']);

/**
 * File-system calls that answer with facts about a path, never what is in it (`fs.existsSync(p)`,
 * `await fs.access(p)`, `statSync(p)`): the analysis knows what they do, so they are no escape.
 */
const FILE_FACT_FUNCTIONS = new Set([
  'existsSync',
  'exists',
  'stat',
  'statSync',
  'lstat',
  'lstatSync',
  'access',
  'accessSync',
  // Where a path leads, after its links: still the path, never what is there.
  'realpath',
  'realpathSync',
]);
/**
 * `fs`, `fsp`, `fsPromises`, `fs.promises`, tsc's `fs_1`, `node_fs`, `fse`, a bundler's renames (`fs3`,
 * `fsp2`): a receiver that is the file system module.
 */
const FILE_SYSTEM_RECEIVER = /^(?:fs|fsp|fse|fsPromises|fs_\d+|node_fs|promises|fs_extra|fsExtra)\d*$/;

/** Modules whose functions only compute values, when imported by name (`import { isAbsolute, join } from 'node:path'`). */
const VALUE_MODULES = new Set(['path', 'path/posix', 'path/win32', 'url', 'querystring', 'util']);
/**
 * The file system's modules: the analysis knows what each of their functions does (the readers are
 * followed by the flow; `mkdir`, `access`, `writeFile` hand nothing read back), so none is an escape.
 */
const FILE_SYSTEM_MODULES = new Set(['fs', 'fs/promises', 'fs-extra', 'graceful-fs']);

/** Is the call a function of the file system's modules (`import { mkdir } from 'node:fs/promises'`, `fs.mkdirSync(…)`, `fs_1.promises.access(…)`)? */
function isFileSystemCall(callee: TSESTree.Node, file: FileIndex | undefined): boolean {
  const path = getMemberPath(callee);
  const root = path?.[0];
  if (root === undefined) return false;
  const imported = file?.imports.get(root);
  if (imported !== undefined) return FILE_SYSTEM_MODULES.has(imported.module);
  return path!.length >= 2 && FILE_SYSTEM_RECEIVER.test(root);
}

/** Is the call plain value work, whose result stays input, or a description of the call for someone else? */
function isValueCall(call: TSESTree.CallExpression | TSESTree.NewExpression, file: FileIndex | undefined): boolean {
  const callee = skipTypeWrappers(call.callee);
  if (isFileSystemCall(callee, file)) return true;
  if (callee.type === AST_NODE_TYPES.Identifier) {
    const imported = file?.imports.get(callee.name);
    return (
      (imported !== undefined && VALUE_MODULES.has(imported.module)) ||
      VALUE_FUNCTIONS.has(callee.name) ||
      ERROR_CONSTRUCTOR.test(callee.name) ||
      TELEMETRY_METHODS.has(callee.name) ||
      (FILE_FACT_FUNCTIONS.has(callee.name) && callee.name !== 'stat' && callee.name !== 'access')
    );
  }
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return false;
  const method = getStaticKeyName(callee.property, callee.computed);
  const path = getMemberPath(callee);
  const root = path?.[0];
  if (root !== undefined && VALUE_RECEIVERS.has(root)) return true;
  if (
    method !== undefined &&
    FILE_FACT_FUNCTIONS.has(method) &&
    path !== undefined &&
    FILE_SYSTEM_RECEIVER.test(path[path.length - 2] ?? '')
  ) {
    return true;
  }
  if (method !== undefined && TELEMETRY_METHODS.has(method)) return true;
  // `util_1.mcpError(…)`, `errors.notFoundError(…)`: a function that builds an error, imported through its module.
  if (method !== undefined && ERROR_CONSTRUCTOR.test(method)) return true;
  if (path !== undefined && path.length >= 2 && LOG_RECEIVERS.has(path[path.length - 2]!)) return true;
  // `process.stdout.write(JSON.stringify({ id, result }))`: the process's own output (a server that speaks
  // JSON-RPC on stdio answers there) reads no location.
  if (path?.length === 3 && path[0] === 'process' && PROCESS_OUTPUT_STREAMS.has(path[1]!) && method === 'write') return true;
  return method !== undefined && VALUE_METHODS.has(method);
}

const PROCESS_OUTPUT_STREAMS = new Set(['stdout', 'stderr']);

interface Frame {
  fn: FunctionNode;
  inputParameters: readonly number[];
  thisMembers: readonly string[];
  classNode: ClassNode | undefined;
  file: FileIndex | undefined;
  region: TSESTree.Node | undefined;
  /**
   * Parameters the caller handed a function written in its own body (`withSession(params, async ({ sessionId }) => …)`):
   * calling one runs code the caller's walk already covers, no escape.
   */
  callbacks: ReadonlySet<string>;
  /** Reached through an imported helper (see `InputEscape.inImportedHelper`). */
  inImportedHelper: boolean;
}

/** The parameter names of `target` that a call hands a function literal (`withSession(params, async (…) => …)`). */
function callbackParameters(call: TSESTree.CallExpression | TSESTree.NewExpression, target: FunctionNode): Set<string> {
  const names = new Set<string>();
  call.arguments.forEach((argument, index) => {
    const parameter = target.params[index];
    if (parameter?.type === AST_NODE_TYPES.Identifier && isFunctionNode(skipTypeWrappers(argument))) names.add(parameter.name);
  });
  return names;
}

function escapesOf(frame: Frame, depth: number, seen: Set<FunctionNode>, into: InputEscape[]): void {
  if (seen.has(frame.fn) || depth > MAX_ESCAPE_DEPTH) return;
  seen.add(frame.fn);
  const names = taintedNames(frame.fn, frame.inputParameters, frame.thisMembers);
  if (names.size === 0) return;
  const methods = frame.classNode ? classMethods(frame.classNode) : undefined;
  walk(frame.region ?? frame.fn.body, (node) => {
    if (node.type !== AST_NODE_TYPES.CallExpression && node.type !== AST_NODE_TYPES.NewExpression) return undefined;
    const handed = node.arguments.map((argument, index) => (mentions(argument, names) ? index : -1)).filter((index) => index >= 0);
    // A callback handed the input in its own body (`withPage(async (page) => page.goto(input.url))`) is followed as part of this body.
    if (handed.length === 0) return undefined;
    if (isValueCall(node, frame.file)) return undefined;
    const callee = skipTypeWrappers(node.callee);
    if (callee.type === AST_NODE_TYPES.Identifier && frame.callbacks.has(callee.name)) return undefined;
    let target: FunctionNode | undefined;
    let targetFile = frame.file;
    let targetClass = frame.classNode;
    if (callee.type === AST_NODE_TYPES.Identifier) {
      target = frame.file?.functions.get(callee.name);
      // `bycrawlGet(path, params)` imported from `../client.js`: a helper of the package, followed like one of this file.
      const imported = target === undefined && frame.file ? resolveLocalName(frame.file, callee.name) : undefined;
      if (imported) {
        target = imported.fn;
        targetFile = imported.file;
        targetClass = imported.classNode;
      }
    } else if (callee.type === AST_NODE_TYPES.MemberExpression && callee.object.type === AST_NODE_TYPES.ThisExpression) {
      const method = getStaticKeyName(callee.property, callee.computed);
      target = method === undefined ? undefined : methods?.get(method);
      // `this.parseParams(schema, params)` of a base class, here or in a relatively imported module.
      const inherited =
        target === undefined && method !== undefined && frame.classNode && frame.file
          ? inheritedMethod(frame.classNode, method, frame.file)
          : undefined;
      if (inherited) {
        target = inherited.fn;
        targetFile = inherited.file;
      }
    }
    if (target) {
      escapesOf(
        {
          fn: target,
          inputParameters: handed,
          thisMembers: [],
          classNode: targetClass,
          file: targetFile,
          region: undefined,
          callbacks: callbackParameters(node, target),
          inImportedHelper: frame.inImportedHelper || targetFile !== frame.file,
        },
        depth + 1,
        seen,
        into,
      );
      return undefined;
    }
    into.push({ node, callee: calleeText(callee), inImportedHelper: frame.inImportedHelper });
    return undefined;
  });
}

/** The calls the model's input is handed to that the flow analysis cannot follow, in source order. */
export function findInputEscapes(invocation: Invocation, file: FileIndex | undefined): InputEscape[] {
  const escapes: InputEscape[] = [];
  const seen = new Set<FunctionNode>();
  for (const entry of invocation.entries) {
    if (entry.confirmation) continue;
    escapesOf(
      {
        fn: entry.fn,
        inputParameters: entry.inputParameters,
        thisMembers: entry.inputThisMembers,
        classNode: entry.classNode,
        file: entry.file ?? file,
        region: entry.region,
        callbacks: new Set(),
        inImportedHelper: false,
      },
      0,
      seen,
      escapes,
    );
  }
  return escapes;
}
