/**
 * Circular persistence needs more than a read of a model-chosen location:
 * the tool's RESULT must carry what it read, or the model could never read a
 * persisted result back with the same tool. An edit tool that reads a file
 * and answers "Edited foo.ts", a counter that answers "42 lines", a tool that
 * sends the bytes to an image API: none of them hands the content back.
 *
 * This module answers "does the content of a read reach what this function
 * returns?" for one function, given which calls produce content (model-chosen
 * reads found by the input flow, helpers whose return carries content) and
 * which parameters hold content. Like the input flow it is a
 * flow-insensitive taint over names, run to a fixed point, but it keeps one
 * level of fields: `{ text, size }` returned by a helper carries content in
 * `text` only, so `loaded.size` is metadata. What stops content:
 * - metadata of it: `.length`, `.size`, `.status`, `.headers`, `includes()`,
 *   `indexOf()`, `startsWith()` …;
 * - a method of content whose name says it measures, compares, diffs,
 *   writes or sends (`createPatch`, `countTokens`, `writeFile`, `upload`);
 * - a call we cannot follow (another package, a service object) unless its
 *   name says it converts or slices (`JSON.parse`, `turndown`, `formatLines`):
 *   a language server, an LLM or an image API given the text answers with
 *   something else;
 * - fields the framework shows the user but not the model (`returnDisplay`).
 * Helpers we can follow are analysed: their return says what comes back.
 * String and array methods of content hand content on.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import {
  type FunctionNode,
  collectBindingNames,
  getCalleeLastName,
  getMemberPath,
  getStaticKeyName,
  isAwaiterBody,
  isFunctionNode,
  skipTypeWrappers,
  walk,
} from './ast.js';

/** Content in the whole value (`true`) or in some of its fields only. */
export type ContentShape = true | ReadonlySet<string>;

export type CallNode = TSESTree.CallExpression | TSESTree.NewExpression;

/** The nodes of a function the propagation looks at (the input flow's unit). */
export interface ContentUnit {
  declarators: readonly TSESTree.VariableDeclarator[];
  assignments: readonly TSESTree.AssignmentExpression[];
  loops: readonly (TSESTree.ForOfStatement | TSESTree.ForInStatement)[];
  calls: readonly CallNode[];
}

/**
 * What a followed helper returns when called here with content in the given
 * arguments; `null` when the callee cannot be followed (the name rule decides).
 */
export type HelperReturn = (call: CallNode, contentArguments: ReadonlyMap<number, ContentShape>) => ContentShape | undefined | null;

/** A stable text for a set of content arguments (summary cache keys). */
export function contentArgumentsKey(contentArguments: ReadonlyMap<number, ContentShape> | undefined): string {
  if (!contentArguments) return '';
  return [...contentArguments]
    .sort(([left], [right]) => left - right)
    .map(([index, shape]) => `${index}:${shape === true ? '*' : [...shape].sort().join('|')}`)
    .join(',');
}

/** Properties of content that describe it (how big, where, whether it failed) rather than carry it. */
const METADATA_PROPERTIES = new Set([
  'length',
  'size',
  'byteLength',
  'status',
  'statusText',
  'ok',
  'headers',
  'redirected',
  'mtime',
  'mtimeMs',
  'ctime',
  'ctimeMs',
  'birthtime',
  'mode',
  'encoding',
  'type',
  'start',
  'end',
  'column',
  'offset',
  'index',
  'lineNumber',
  'count',
  'total',
  'error',
]);

/** Methods of content whose answer is a fact about it, not a part of it (what other methods of content answer is content). */
const METADATA_METHODS = new Set([
  'indexOf',
  'lastIndexOf',
  'includes',
  'startsWith',
  'endsWith',
  'test',
  'localeCompare',
  'search',
  'findIndex',
  'findLastIndex',
  'some',
  'every',
  'has',
  'isFile',
  'isDirectory',
  'isSymbolicLink',
  'close',
  'write',
  'end',
  'digest',
  'update',
  'stat',
  // A navigated page's title and address (`page.title()`, `driver.getCurrentUrl()`) name the document
  // it shows; a tool that hands back only those says where it went, not what is there.
  'title',
  'getTitle',
  'url',
  'getCurrentUrl',
]);

/**
 * A call we cannot follow hands content on only when its name says it
 * converts or slices what it is given (`JSON.parse`, `Buffer.from`,
 * `turndown`, `formatLines`, `Promise.all`, `gzipSync`: a compression is a
 * conversion too, and `readline.createInterface({ input })` yields the
 * stream's lines); any other callee may as well be a language server, an LLM
 * or an upload that the content was sent to.
 */
const CONTENT_PRESERVING_CALL =
  /^(?:String|Array|Buffer|JSON|Promise|Object|entries|values|Blob|File|Uint8Array|ArrayBuffer)$|pars|stringif|format|convert|decod|encod|render|markdown|turndown|html|text|string|from|concat|join|trim|slice|substr|split|extract|sanitiz|escape|strip|clean|truncat|wrap|highlight|number|lines|^(?:all|allSettled|race|resolve)$|base64|content|chunk|transform|normaliz|buffer|zip|deflate|inflate|compress|brotli|^createInterface$/i;

/** A method of content, named for measuring, comparing, diffing, writing or sending: its answer is not the content. */
const NOT_CONTENT_CALL =
  /diff|patch|hash|digest|count|length|size|stat|exist|write|save|send|post|put|upload|emit|notify|insert|update|delete|remove|append|validate|check|compare|equal|detect|measure|estimate|token|^(?:is|has)[A-Z]|^log$/i;

/** Calls that send a request to a URL with a body. */
const HTTP_SENDERS = new Set(['fetch', 'post', 'put', 'request']);
/** The path of an endpoint that converts the document it is sent: `/v2/parse`, `/convert`, `/ocr`, `/to-markdown`. */
const CONVERSION_ENDPOINT = /\/(?:parse|convert|ocr|markdown|to-?markdown|transcribe)(?:[/?#]|$)/i;

/** Calls that write their data argument to a location (`writeFile`, `writeFileSync`, `saveFile`). */
const WRITE_CALL = /^(?:write|save)(?:File|FileSync|TextFile|Json|JSON)?$|^(?:write|save)[A-Z]\w*File$/;

/** Result fields the framework shows the user but never sends to the model (gemini-cli's and qwen-code's `ToolResult`). */
export const DISPLAY_ONLY_FIELDS = new Set(['returnDisplay', 'display']);

/**
 * Result fields named for the model (donobu's `forLlm`, gemini-cli's `llmContent`): a result that
 * has one sends the model that field, and its other fields (`metadata`, `returnDisplay`) go to the harness.
 */
const MODEL_FIELDS = new Set(['forLlm', 'llmContent', 'forModel', 'modelContent']);

/** Methods that put their argument into the receiver (`lines.push(text)`): the receiver then carries what the argument carries. */
export const STORING_METHODS: ReadonlySet<string> = new Set(['push', 'unshift', 'add', 'set', 'append', 'splice', 'fill']);
/** For the output flow, `concat` too: what it is given joins what the receiver's result carries. */
const CARRYING_METHODS: ReadonlySet<string> = new Set([...STORING_METHODS, 'concat']);

export function unionShapes(left: ContentShape | undefined, right: ContentShape | undefined): ContentShape | undefined {
  if (left === undefined) return right;
  if (right === undefined) return left;
  if (left === true || right === true) return true;
  return new Set([...left, ...right]);
}

function sameShape(left: ContentShape | undefined, right: ContentShape | undefined): boolean {
  if (left === right) return true;
  if (left === undefined || right === undefined || left === true || right === true) return false;
  return left.size === right.size && [...left].every((field) => right.has(field));
}

/** The shape of `value.<field>` given the shape of `value`. */
function fieldShape(shape: ContentShape | undefined, field: string | undefined): ContentShape | undefined {
  if (shape === undefined) return undefined;
  if (field !== undefined && METADATA_PROPERTIES.has(field)) return undefined;
  return shape === true || field === undefined || shape.has(field) ? true : undefined;
}

/** Is this `yield` an `await` of tsc's downlevel `async` (its function is the generator `__awaiter` runs)? */
function awaitsInDownlevelAsync(node: TSESTree.YieldExpression): boolean {
  let current: TSESTree.Node | undefined = node.parent;
  while (current && !isFunctionNode(current)) current = current.parent;
  return current !== undefined && isAwaiterBody(current);
}

/**
 * `return` arguments of a function's own body (not of closures inside it);
 * a generator's `yield`s too, since what it yields is what its caller iterates
 * (not the generator tsc's downlevel `async` runs, whose `yield` is an `await`).
 */
export function returnedExpressions(fn: FunctionNode): TSESTree.Expression[] {
  if (fn.body.type !== AST_NODE_TYPES.BlockStatement) return [fn.body];
  const returned: TSESTree.Expression[] = [];
  const yields = fn.generator && !isAwaiterBody(fn);
  walk(fn.body, (node) => {
    if (isFunctionNode(node)) return false;
    if (node.type === AST_NODE_TYPES.ReturnStatement && node.argument) returned.push(node.argument);
    if (yields && node.type === AST_NODE_TYPES.YieldExpression && node.argument) returned.push(node.argument);
    return undefined;
  });
  return returned;
}

/**
 * Results a function answers through a call instead of returning them: a tool result literal
 * (`{ content: [{ type: 'text', text }] }`, the protocol's shape, also as a JSON-RPC message's
 * `result`) handed to any call of its own body, as a server that speaks JSON-RPC itself answers
 * (`writeResponse(id, { content: [...] })`, `send({ jsonrpc: '2.0', id, result: { content } })`).
 * What that literal carries reaches the model as a return would.
 */
export function answeredExpressions(fn: FunctionNode): TSESTree.Expression[] {
  if (fn.body.type !== AST_NODE_TYPES.BlockStatement) return [];
  const answered: TSESTree.Expression[] = [];
  walk(fn.body, (node) => {
    if (isFunctionNode(node)) return false;
    if (node.type !== AST_NODE_TYPES.CallExpression) return undefined;
    for (const argument of node.arguments) {
      const result = toolResultLiteral(argument);
      if (result) answered.push(result);
    }
    return undefined;
  });
  return answered;
}

/** `{ content: [ … ] }`, or a message whose `result` is one: the tool result literal. */
function toolResultLiteral(node: TSESTree.Node): TSESTree.ObjectExpression | undefined {
  const target = skipTypeWrappers(node);
  if (target.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
  for (const property of target.properties) {
    if (property.type !== AST_NODE_TYPES.Property) continue;
    const key = getStaticKeyName(property.key, property.computed);
    const value = skipTypeWrappers(property.value);
    if (key === 'content' && value.type === AST_NODE_TYPES.ArrayExpression) return target;
    if (key === 'result') return toolResultLiteral(value);
  }
  return undefined;
}

/** The method or function a call names, also on a computed receiver (`grouped[m.path].push`). */
function calleeLastName(call: CallNode): string | undefined {
  return getCalleeLastName(call);
}

/** The content taint of one function. */
export class ContentFlow {
  private readonly names = new Map<string, ContentShape>();
  private readonly helperShapes = new Map<CallNode, ContentShape | undefined | null>();
  /**
   * Names of functions whose call answers content: local closures that return
   * it (`const run = async () => { …; return text; }`) and parameters given such
   * a function (`emit(path, matches, (i) => lines[i])` makes `getLine(i)` content).
   */
  private readonly contentFunctions = new Set<string>();
  /** Closures declared in the unit, by name: calls to them bind their parameters to what they are given. */
  private readonly closures = new Map<string, FunctionNode>();
  /**
   * Names the tool writes to a location (`writeFile(p, updated)`): the text is
   * its own edit, and what it shows of it afterwards (a preview of the edited
   * lines) is a status of that edit, not content it read back.
   */
  private readonly written = new Set<string>();

  constructor(
    private readonly unit: ContentUnit,
    private readonly sources: ReadonlyMap<CallNode, ContentShape>,
    private readonly helperReturn: HelperReturn,
    /** Helper calls that fill some of their arguments with content (`enrich(matchesByFile)` stores lines in it). */
    private readonly filledArguments: ReadonlyMap<CallNode, readonly number[]> = new Map(),
    /** Helper calls that call some of their arguments with content (`grepFile(p, match, push)` pushes each matched line). */
    private readonly callbackArguments: ReadonlyMap<CallNode, readonly number[]> = new Map(),
  ) {
    for (const declarator of unit.declarators) {
      if (declarator.id.type === AST_NODE_TYPES.Identifier && isFunctionNode(declarator.init) && !this.closures.has(declarator.id.name)) {
        this.closures.set(declarator.id.name, declarator.init);
      }
    }
    for (const call of unit.calls) {
      const name = calleeLastName(call);
      if (name === undefined || !WRITE_CALL.test(name)) continue;
      // The data after the location: `writeFile(path, data)`, `fs.promises.writeFile(p, text, 'utf8')`.
      for (const argument of call.arguments.slice(1)) {
        const target = skipTypeWrappers(argument);
        if (target.type === AST_NODE_TYPES.Identifier) this.written.add(target.name);
      }
    }
  }

  /** Parameters of `fn` that it calls with content (`push(line)`): a caller's callback there receives content. */
  callbackParameters(fn: FunctionNode): number[] {
    return fn.params.flatMap((parameter, index) => {
      if (parameter.type !== AST_NODE_TYPES.Identifier) return [];
      const name = parameter.name;
      const called = this.unit.calls.some((call) => {
        const callee = skipTypeWrappers(call.callee);
        return (
          callee.type === AST_NODE_TYPES.Identifier &&
          callee.name === name &&
          call.arguments.some((argument) => this.shapeOf(argument) !== undefined)
        );
      });
      return called ? [index] : [];
    });
  }

  /** The function a callback argument stands for: written in place, or a closure of the unit named there. */
  private functionOf(argument: TSESTree.Node | undefined): FunctionNode | undefined {
    if (!argument) return undefined;
    if (isFunctionNode(argument)) return argument;
    return argument.type === AST_NODE_TYPES.Identifier ? this.closures.get(argument.name) : undefined;
  }

  /** A function value whose call answers content. */
  private answersContent(argument: TSESTree.Node | undefined): boolean {
    if (!argument) return false;
    if (argument.type === AST_NODE_TYPES.Identifier && this.contentFunctions.has(argument.name)) return true;
    return isFunctionNode(argument) && returnedExpressions(argument).some((expression) => this.shapeOf(expression) !== undefined);
  }

  /** `emit(path, matches, (i) => lines[i])` to a closure of the unit: its parameters take what they are given. */
  private bindClosureArguments(closure: FunctionNode, call: CallNode): boolean {
    let changed = false;
    call.arguments.forEach((argument, index) => {
      const parameter = closure.params[index];
      if (!parameter || argument.type === AST_NODE_TYPES.SpreadElement) return;
      changed = this.bindPattern(parameter, this.shapeOf(argument)) || changed;
      if (parameter.type === AST_NODE_TYPES.Identifier && !this.contentFunctions.has(parameter.name) && this.answersContent(argument)) {
        this.contentFunctions.add(parameter.name);
        changed = true;
      }
    });
    return changed;
  }

  /** Parameters of `fn` that carry content now although the caller gave none: the function filled them. */
  filledParameters(fn: FunctionNode, given: ReadonlyMap<number, ContentShape>): number[] {
    return fn.params.flatMap((parameter, index) =>
      !given.has(index) && parameter.type === AST_NODE_TYPES.Identifier && this.names.has(parameter.name) ? [index] : [],
    );
  }

  /** Parameters that receive content, each with where the content is in it (`{ currentContent, params }` carries it in one field). */
  bindContentParameters(fn: FunctionNode, parameters: ReadonlyMap<number, ContentShape>): void {
    for (const [index, shape] of parameters) this.bindPattern(fn.params[index], shape);
  }

  /** Objects a read loaded content into (a page navigated to the model's URL): they carry content from the start. */
  bindFilled(targets: readonly TSESTree.Node[]): void {
    for (const target of targets) this.bindRoot(target, false);
  }

  /** Propagates to a fixed point. */
  run(): this {
    for (let round = 0; round < 50 && this.propagate(); round += 1) {
      // Until nothing new carries content.
    }
    return this;
  }

  private bind(name: string, shape: ContentShape | undefined): boolean {
    if (shape === undefined) return false;
    const before = this.names.get(name);
    const after = unionShapes(before, shape);
    if (sameShape(before, after)) return false;
    this.names.set(name, after!);
    return true;
  }

  /** Binds a pattern to a value of the given shape: `{ text } = loaded` takes `loaded.text`. */
  private bindPattern(pattern: TSESTree.Node | null | undefined, shape: ContentShape | undefined): boolean {
    if (!pattern || shape === undefined) return false;
    if (pattern.type === AST_NODE_TYPES.Identifier) return this.bind(pattern.name, shape);
    if (pattern.type === AST_NODE_TYPES.ObjectPattern) {
      let changed = false;
      for (const property of pattern.properties) {
        if (property.type === AST_NODE_TYPES.RestElement) {
          changed = this.bindPattern(property.argument, shape) || changed;
          continue;
        }
        const key = getStaticKeyName(property.key, property.computed);
        changed = this.bindPattern(property.value, fieldShape(shape, key)) || changed;
      }
      return changed;
    }
    if (pattern.type === AST_NODE_TYPES.AssignmentPattern) return this.bindPattern(pattern.left, shape);
    let changed = false;
    for (const name of collectBindingNames(pattern)) changed = this.bind(name, true) || changed;
    return changed;
  }

  /** What a mutated or assigned-into expression is rooted at now carries content: `result.text = c`. */
  private bindRoot(target: TSESTree.Node, assignedField: boolean): boolean {
    const path = getMemberPath(target);
    if (path) {
      // `this.page.goto(url)`: the page an instance holds shows the URL's document for the rest of this
      // call (under `this.page`, a key no local can spell). Content assigned to a field is not followed.
      if (path[0] === 'this') return !assignedField && path.length === 2 && this.bind(`this.${path[1]!}`, true);
      return this.bind(path[0]!, assignedField && path.length === 2 ? new Set([path[1]!]) : true);
    }
    // `byFile[name] = lines`: a computed member still fills the collection it is rooted at.
    let root = skipTypeWrappers(target);
    while (root.type === AST_NODE_TYPES.MemberExpression) root = skipTypeWrappers(root.object);
    return root.type === AST_NODE_TYPES.Identifier && this.bind(root.name, true);
  }

  private propagate(): boolean {
    let changed = false;
    for (const declarator of this.unit.declarators) {
      if (declarator.init) changed = this.bindPattern(declarator.id, this.shapeOf(declarator.init)) || changed;
    }
    for (const assignment of this.unit.assignments) {
      const shape = this.shapeOf(assignment.right);
      if (shape === undefined) continue;
      const left = assignment.left;
      if (left.type === AST_NODE_TYPES.MemberExpression) changed = this.bindRoot(left, true) || changed;
      else changed = this.bindPattern(left, shape) || changed;
    }
    for (const loop of this.unit.loops) {
      if (this.shapeOf(loop.right) === undefined) continue;
      const left = loop.left;
      if (left.type === AST_NODE_TYPES.VariableDeclaration) {
        for (const declarator of left.declarations) changed = this.bindPattern(declarator.id, true) || changed;
      } else changed = this.bindPattern(left, true) || changed;
    }
    for (const [call, indices] of this.filledArguments) {
      for (const index of indices) {
        const argument = call.arguments[index];
        if (argument) changed = this.bindRoot(argument, false) || changed;
      }
    }
    // A helper calls these arguments with content: the callbacks' parameters receive it.
    for (const [call, indices] of this.callbackArguments) {
      for (const index of indices) {
        const callback = this.functionOf(call.arguments[index]);
        if (callback) for (const parameter of callback.params) changed = this.bindPattern(parameter, true) || changed;
      }
    }
    for (const [name, closure] of this.closures) {
      if (this.contentFunctions.has(name)) continue;
      if (returnedExpressions(closure).some((expression) => this.shapeOf(expression) !== undefined)) {
        this.contentFunctions.add(name);
        changed = true;
      }
    }
    for (const call of this.unit.calls) {
      // `https.get(url, (response) => …)`: a read's callback receives what was read.
      if (this.sources.get(call) === true) {
        for (const argument of call.arguments) {
          if (isFunctionNode(argument)) for (const parameter of argument.params) changed = this.bindPattern(parameter, true) || changed;
        }
      }
      const callee = skipTypeWrappers(call.callee);
      const closure = callee.type === AST_NODE_TYPES.Identifier ? this.closures.get(callee.name) : undefined;
      if (closure) changed = this.bindClosureArguments(closure, call) || changed;
      const member = callee.type === AST_NODE_TYPES.ChainExpression ? callee.expression : callee;
      const argumentCarries = call.arguments.some((argument) => this.shapeOf(argument) !== undefined);
      if (member.type === AST_NODE_TYPES.MemberExpression) {
        const method = calleeLastName(call);
        // `parts.push(text)`, `chunks.set(i, text)`: the collection now carries content.
        if (method !== undefined && CARRYING_METHODS.has(method) && argumentCarries) {
          changed = this.bindRoot(member.object, false) || changed;
        }
        // `for await`-free streaming: `lines.forEach(line => out.push(line))`.
        if (this.shapeOf(member.object) !== undefined) {
          for (const argument of call.arguments) {
            if (isFunctionNode(argument)) for (const parameter of argument.params) changed = this.bindPattern(parameter, true) || changed;
          }
        }
      }
    }
    return changed;
  }

  private helperShape(call: CallNode): ContentShape | undefined | null {
    if (this.helperShapes.has(call)) return this.helperShapes.get(call);
    // Mark first: a recursive shape question about the same call assumes nothing.
    this.helperShapes.set(call, null);
    const contentArguments = new Map<number, ContentShape>();
    call.arguments.forEach((argument, index) => {
      const shape = this.shapeOf(argument);
      if (shape !== undefined) contentArguments.set(index, shape);
    });
    const shape = contentArguments.size > 0 ? this.helperReturn(call, contentArguments) : null;
    this.helperShapes.set(call, shape);
    return shape;
  }

  private callShape(call: CallNode): ContentShape | undefined {
    const source = this.sources.get(call);
    if (source !== undefined) return source;
    // `paths.map(async (p) => readFile(p))`: a callback that returns content makes the call's answer content;
    // so does one handed in an options object (`Effect.tryPromise({ try: async () => readFile(p), catch })`).
    for (const argument of call.arguments) {
      const callbacks =
        argument.type === AST_NODE_TYPES.ObjectExpression
          ? argument.properties.flatMap((property) =>
              property.type === AST_NODE_TYPES.Property && isFunctionNode(property.value) ? [property.value] : [],
            )
          : isFunctionNode(argument)
            ? [argument]
            : [];
      if (callbacks.some((callback) => returnedExpressions(callback).some((expression) => this.shapeOf(expression) !== undefined))) {
        return true;
      }
    }
    const callee = skipTypeWrappers(call.callee);
    if (callee.type === AST_NODE_TYPES.Identifier && this.contentFunctions.has(callee.name)) return true;
    // `new Promise((resolve) => stream.on('end', () => resolve(text)))`: the promise settles with what `resolve` gets.
    const executor = call.arguments[0];
    if (
      call.type === AST_NODE_TYPES.NewExpression &&
      callee.type === AST_NODE_TYPES.Identifier &&
      callee.name === 'Promise' &&
      isFunctionNode(executor)
    ) {
      const resolve = executor.params[0];
      if (resolve?.type !== AST_NODE_TYPES.Identifier) return undefined;
      const settled = this.unit.calls.some(
        (inner) =>
          inner.callee.type === AST_NODE_TYPES.Identifier &&
          inner.callee.name === resolve.name &&
          inner.arguments.some((argument) => this.shapeOf(argument) !== undefined),
      );
      return settled ? true : undefined;
    }
    const member = callee.type === AST_NODE_TYPES.ChainExpression ? callee.expression : callee;
    const method = calleeLastName(call);
    if (member.type === AST_NODE_TYPES.MemberExpression && this.shapeOf(member.object) !== undefined) {
      // `text.split('\n')`, `response.text()`, `buffer.toString('base64')`.
      if (method !== undefined && METADATA_METHODS.has(method)) return undefined;
      if (method !== undefined && NOT_CONTENT_CALL.test(method)) return undefined;
      return true;
    }
    if (!call.arguments.some((argument) => this.shapeOf(argument) !== undefined)) return undefined;
    const followed = this.helperShape(call);
    if (followed !== null) return followed;
    if (this.sendsToConversionEndpoint(call)) return true;
    if (method === undefined || NOT_CONTENT_CALL.test(method)) return undefined;
    return CONTENT_PRESERVING_CALL.test(method) ? true : undefined;
  }

  /**
   * `fetch(`${api}/v2/parse`, { body: form })` with the content in the body: an
   * endpoint whose path says it converts a document answers with that document
   * converted, as a converting call would. Any other service handed the
   * content (an LLM, an upload, an image API) answers with something else.
   */
  private sendsToConversionEndpoint(call: CallNode): boolean {
    const method = calleeLastName(call);
    if (method === undefined || !HTTP_SENDERS.has(method)) return false;
    const [location, ...rest] = call.arguments;
    if (!location || !rest.some((argument) => this.shapeOf(argument) !== undefined)) return false;
    const text = this.literalText(location, 0);
    return text !== undefined && CONVERSION_ENDPOINT.test(text);
  }

  /** The literal text of a URL expression, with `x` for the parts code computes: `${base}/v2/parse` → `x/v2/parse`. */
  private literalText(node: TSESTree.Node, depth: number): string | undefined {
    if (depth > 3) return undefined;
    const target = skipTypeWrappers(node);
    if (target.type === AST_NODE_TYPES.Literal) return typeof target.value === 'string' ? target.value : undefined;
    if (target.type === AST_NODE_TYPES.TemplateLiteral) return target.quasis.map((quasi) => quasi.value.cooked ?? '').join('x');
    if (target.type === AST_NODE_TYPES.BinaryExpression && target.operator === '+') {
      return `${this.literalText(target.left, depth + 1) ?? 'x'}${this.literalText(target.right, depth + 1) ?? 'x'}`;
    }
    if (target.type === AST_NODE_TYPES.Identifier) {
      const declarator = this.unit.declarators.find(
        (candidate) => candidate.id.type === AST_NODE_TYPES.Identifier && candidate.id.name === target.name,
      );
      return declarator?.init ? this.literalText(declarator.init, depth + 1) : undefined;
    }
    return undefined;
  }

  /** Where content is in the value of an expression, if anywhere. */
  shapeOf(node: TSESTree.Node | null | undefined, depth = 0): ContentShape | undefined {
    if (!node || depth > 40) return undefined;
    switch (node.type) {
      case AST_NODE_TYPES.Identifier:
        return this.written.has(node.name) ? undefined : this.names.get(node.name);
      case AST_NODE_TYPES.MemberExpression: {
        if (node.object.type === AST_NODE_TYPES.ThisExpression) {
          const field = node.computed ? undefined : getStaticKeyName(node.property, false);
          return field === undefined ? undefined : this.names.get(`this.${field}`);
        }
        const field = node.computed ? undefined : getStaticKeyName(node.property, false);
        return fieldShape(this.shapeOf(node.object, depth + 1), field);
      }
      case AST_NODE_TYPES.ChainExpression:
      case AST_NODE_TYPES.TSAsExpression:
      case AST_NODE_TYPES.TSNonNullExpression:
      case AST_NODE_TYPES.TSSatisfiesExpression:
      case AST_NODE_TYPES.TSTypeAssertion:
        return this.shapeOf(node.expression, depth + 1);
      case AST_NODE_TYPES.TemplateLiteral:
        return node.expressions.some((expression) => this.shapeOf(expression, depth + 1) !== undefined) ? true : undefined;
      case AST_NODE_TYPES.TaggedTemplateExpression:
        return node.quasi.expressions.some((expression) => this.shapeOf(expression, depth + 1) !== undefined) ? true : undefined;
      case AST_NODE_TYPES.BinaryExpression:
        return node.operator === '+' && (this.shapeOf(node.left, depth + 1) ?? this.shapeOf(node.right, depth + 1)) !== undefined
          ? true
          : undefined;
      case AST_NODE_TYPES.LogicalExpression:
        return unionShapes(this.shapeOf(node.left, depth + 1), this.shapeOf(node.right, depth + 1));
      case AST_NODE_TYPES.ConditionalExpression:
        return unionShapes(this.shapeOf(node.consequent, depth + 1), this.shapeOf(node.alternate, depth + 1));
      case AST_NODE_TYPES.CallExpression:
      case AST_NODE_TYPES.NewExpression:
        return this.callShape(node);
      case AST_NODE_TYPES.AwaitExpression:
      case AST_NODE_TYPES.SpreadElement:
        return this.shapeOf(node.argument, depth + 1);
      // `return yield readFile(p)` in the generator of tsc's downlevel `async`: an `await`.
      case AST_NODE_TYPES.YieldExpression:
        return node.argument && awaitsInDownlevelAsync(node) ? this.shapeOf(node.argument, depth + 1) : undefined;
      case AST_NODE_TYPES.ObjectExpression: {
        let shape: ContentShape | undefined;
        // `{ forLlm: 'Navigated', metadata: { pageTitle } }`: a result that names the model's field sends it that field only.
        const namesModelField = node.properties.some(
          (property) =>
            property.type === AST_NODE_TYPES.Property && MODEL_FIELDS.has(getStaticKeyName(property.key, property.computed) ?? ''),
        );
        for (const property of node.properties) {
          if (property.type === AST_NODE_TYPES.SpreadElement) {
            shape = unionShapes(shape, this.shapeOf(property.argument, depth + 1));
            continue;
          }
          const key = getStaticKeyName(property.key, property.computed);
          if (namesModelField && key !== undefined && !MODEL_FIELDS.has(key)) continue;
          if (this.shapeOf(property.value, depth + 1) === undefined) continue;
          shape = unionShapes(shape, key === undefined ? true : new Set([key]));
        }
        return shape;
      }
      case AST_NODE_TYPES.ArrayExpression:
        return node.elements.some((element) => this.shapeOf(element, depth + 1) !== undefined) ? true : undefined;
      case AST_NODE_TYPES.SequenceExpression:
        return this.shapeOf(node.expressions[node.expressions.length - 1], depth + 1);
      case AST_NODE_TYPES.AssignmentExpression:
        return this.shapeOf(node.right, depth + 1);
      default:
        return undefined;
    }
  }
}

/** Content the model gets back, from a returned value's shape: display-only fields do not count. */
export function reachesModel(shape: ContentShape | undefined): boolean {
  if (shape === undefined) return false;
  if (shape === true) return true;
  return [...shape].some((field) => !DISPLAY_ONLY_FIELDS.has(field));
}
