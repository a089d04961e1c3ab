/**
 * Small AST questions every recogniser asks. They work on any ESTree tree —
 * the file ESLint is linting and the modules we parse ourselves when
 * following imports — so they never rely on ESLint's scope manager.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { visitorKeys } from '@typescript-eslint/visitor-keys';

export type FunctionNode = TSESTree.FunctionDeclaration | TSESTree.FunctionExpression | TSESTree.ArrowFunctionExpression;

export type ClassNode = TSESTree.ClassDeclaration | TSESTree.ClassExpression;

export function isFunctionNode(node: TSESTree.Node | null | undefined): node is FunctionNode {
  return (
    node?.type === AST_NODE_TYPES.FunctionDeclaration ||
    node?.type === AST_NODE_TYPES.FunctionExpression ||
    node?.type === AST_NODE_TYPES.ArrowFunctionExpression
  );
}

export function isClassNode(node: TSESTree.Node | null | undefined): node is ClassNode {
  return node?.type === AST_NODE_TYPES.ClassDeclaration || node?.type === AST_NODE_TYPES.ClassExpression;
}

/**
 * The generator tsc's downlevel `async` runs as the function's body:
 * `(request) => __awaiter(void 0, void 0, void 0, function* () { … })`, also
 * through tslib (`(0, tslib_1.__awaiter)(…)`). Its statements are the
 * enclosing function's own, so a walk of that function's body goes into it.
 */
export function isAwaiterBody(node: TSESTree.Node): boolean {
  if (node.type !== AST_NODE_TYPES.FunctionExpression || !node.generator) return false;
  const call = node.parent;
  if (call?.type !== AST_NODE_TYPES.CallExpression || call.arguments[call.arguments.length - 1] !== node) return false;
  let callee: TSESTree.Node = call.callee;
  if (callee.type === AST_NODE_TYPES.SequenceExpression) callee = callee.expressions[callee.expressions.length - 1]!;
  const name =
    callee.type === AST_NODE_TYPES.Identifier
      ? callee.name
      : callee.type === AST_NODE_TYPES.MemberExpression && callee.property.type === AST_NODE_TYPES.Identifier
        ? callee.property.name
        : undefined;
  return name === '__awaiter';
}

/** The `super(…)` calls a class's constructor makes as statements of its own body (`super({ name, description })`). */
export function constructorSuperCalls(classNode: ClassNode): TSESTree.CallExpression[] {
  const constructor = classNode.body.body.find(
    (member): member is TSESTree.MethodDefinition => member.type === AST_NODE_TYPES.MethodDefinition && member.kind === 'constructor',
  );
  const calls: TSESTree.CallExpression[] = [];
  for (const statement of constructor?.value.body?.body ?? []) {
    const call = statement.type === AST_NODE_TYPES.ExpressionStatement ? statement.expression : undefined;
    if (call?.type === AST_NODE_TYPES.CallExpression && call.callee.type === AST_NODE_TYPES.Super) calls.push(call);
  }
  return calls;
}

/** The class `fn` is a method (or a function-valued field) of, if it is one. */
export function classOfMethod(fn: FunctionNode): ClassNode | undefined {
  const member = fn.parent;
  if (member?.type !== AST_NODE_TYPES.MethodDefinition && member?.type !== AST_NODE_TYPES.PropertyDefinition) return undefined;
  const owner = member.parent?.parent;
  return isClassNode(owner) ? owner : undefined;
}

/**
 * The class whose instance `this` is inside `fn`: the class of the method `fn` is, or, for an
 * arrow function, of the method it is written in (`this.registerTool('click', …, async (args) =>
 * this.act(args))` inside a server's method: `this` is the server, which outlives every call).
 */
export function classOfThis(fn: FunctionNode): ClassNode | undefined {
  let current: TSESTree.Node = fn;
  while (current.type === AST_NODE_TYPES.ArrowFunctionExpression) {
    let parent: TSESTree.Node | undefined = current.parent;
    while (parent && !isFunctionNode(parent) && !isClassNode(parent)) parent = parent.parent;
    if (!parent || isClassNode(parent)) return undefined;
    current = parent;
  }
  return isFunctionNode(current) ? classOfMethod(current) : undefined;
}

/**
 * `(0, x)`: compilers (tsc, Babel, rolldown) call an imported function as
 * `(0, module_1.readFile)(p)` in CommonJS output so it gets no `this`; the
 * value is `x`.
 */
function isIndirectValue(node: TSESTree.Node): node is TSESTree.SequenceExpression {
  if (node.type !== AST_NODE_TYPES.SequenceExpression || node.expressions.length < 2) return false;
  for (let index = 0; index < node.expressions.length - 1; index += 1) {
    if (node.expressions[index]!.type !== AST_NODE_TYPES.Literal) return false;
  }
  return true;
}

/** The call `node` is the callee of, directly or as compiled CommonJS writes it, `(0, node)(…)`. */
export function callOfCallee(node: TSESTree.Node): TSESTree.CallExpression | undefined {
  const parent = node.parent;
  const callee = parent && isIndirectValue(parent) && parent.expressions.at(-1) === node ? parent : node;
  const call = callee.parent;
  return call?.type === AST_NODE_TYPES.CallExpression && call.callee === callee ? call : undefined;
}

/**
 * `__name(fn, "execute")`: esbuild's keep-names helper (`--keep-names`, and
 * every bundle built with it) wraps functions so `fn.name` survives
 * minification; it returns `fn`. Without seeing through it, every tool of
 * such a bundle has no invocation and goes unchecked.
 */
function isKeepNamesCall(node: TSESTree.Node): node is TSESTree.CallExpression {
  return (
    node.type === AST_NODE_TYPES.CallExpression &&
    node.callee.type === AST_NODE_TYPES.Identifier &&
    node.callee.name === '__name' &&
    node.arguments.length === 2 &&
    node.arguments[1]!.type === AST_NODE_TYPES.Literal
  );
}

/**
 * The expression a function returns when its body is that one `return`, or is an expression itself
 * (`get: function () { return m_1.x; }`, `(name) => name === TOOL`); undefined for any other body.
 */
export function soleReturnedExpression(node: TSESTree.Node | undefined): TSESTree.Expression | undefined {
  if (!node || !isFunctionNode(node)) return undefined;
  if (node.body.type !== AST_NODE_TYPES.BlockStatement) return node.body;
  const [statement] = node.body.body;
  return node.body.body.length === 1 && statement?.type === AST_NODE_TYPES.ReturnStatement ? (statement.argument ?? undefined) : undefined;
}

/**
 * Strips the wrappers that do not change a value: `x as T`, `x!`,
 * `x satisfies T`, `<T>x`, the `(0, x)` of compiled CommonJS and esbuild's
 * `__name(x, "name")`.
 */
export function skipTypeWrappers(node: TSESTree.Node): TSESTree.Node {
  let current = node;
  for (;;) {
    if (
      current.type === AST_NODE_TYPES.TSAsExpression ||
      current.type === AST_NODE_TYPES.TSNonNullExpression ||
      current.type === AST_NODE_TYPES.TSSatisfiesExpression ||
      current.type === AST_NODE_TYPES.TSTypeAssertion
    ) {
      current = current.expression;
    } else if (isIndirectValue(current)) {
      current = current.expressions[current.expressions.length - 1]!;
    } else if (isKeepNamesCall(current)) {
      current = current.arguments[0]!;
    } else {
      return current;
    }
  }
}

/**
 * `a?.b` and `(a as T)` as `a.b` and `a`, through type wrappers inside and
 * out (`(a?.b)!`, `a?.b!`): the state a member or call touches is the same
 * whatever syntax is around it.
 */
export function skipChainAndTypeWrappers(node: TSESTree.Node): TSESTree.Node {
  const inner = skipTypeWrappers(node);
  return inner.type === AST_NODE_TYPES.ChainExpression ? skipTypeWrappers(inner.expression) : inner;
}

/** The static name of a property key: `a`, `'a'`, `` [`a`] ``, `#a` → `a`. */
export function getStaticKeyName(key: TSESTree.Node, computed: boolean): string | undefined {
  if (!computed && key.type === AST_NODE_TYPES.Identifier) return key.name;
  if (key.type === AST_NODE_TYPES.PrivateIdentifier) return key.name;
  if (key.type === AST_NODE_TYPES.Literal && (typeof key.value === 'string' || typeof key.value === 'number')) {
    return String(key.value);
  }
  if (key.type === AST_NODE_TYPES.TemplateLiteral && key.expressions.length === 0) {
    return key.quasis[0]?.value.cooked ?? undefined;
  }
  return undefined;
}

/** `a.b.c` / `a?.b['c']` / `this.x` → `['a','b','c']` / `['this','x']`; undefined when not static. */
export function getMemberPath(node: TSESTree.Node): string[] | undefined {
  const target = skipTypeWrappers(node);
  if (target.type === AST_NODE_TYPES.Identifier) return [target.name];
  if (target.type === AST_NODE_TYPES.ThisExpression) return ['this'];
  if (target.type === AST_NODE_TYPES.Super) return ['super'];
  if (target.type === AST_NODE_TYPES.ChainExpression) return getMemberPath(target.expression);
  if (target.type === AST_NODE_TYPES.MemberExpression) {
    const objectPath = getMemberPath(target.object);
    const property = getStaticKeyName(target.property, target.computed);
    if (!objectPath || property === undefined) return undefined;
    return [...objectPath, property];
  }
  return undefined;
}

/** The dotted name of what a call calls: `fs.promises.readFile`, `fetch`, `this.run`. */
export function getCalleeName(call: TSESTree.CallExpression | TSESTree.NewExpression): string | undefined {
  return getMemberPath(call.callee)?.join('.');
}

/** The name an identifier or a member ends with: `jobId` for `args.jobId`, `readFile` for `fs.promises.readFile`. */
export function lastNameOf(node: TSESTree.Node): string | undefined {
  const unwrapped = skipTypeWrappers(node);
  const target = unwrapped.type === AST_NODE_TYPES.ChainExpression ? unwrapped.expression : unwrapped;
  if (target.type === AST_NODE_TYPES.Identifier) return target.name;
  if (target.type === AST_NODE_TYPES.MemberExpression) return getStaticKeyName(target.property, target.computed);
  return undefined;
}

/** The last segment of the callee: `readFile` for `fs.promises.readFile`. */
export function getCalleeLastName(call: TSESTree.CallExpression | TSESTree.NewExpression): string | undefined {
  return lastNameOf(call.callee);
}

/** Matches a dotted callee against configured names: `Tool.define` matches `Tool.define` and `x.Tool.define`. */
export function matchesDottedName(calleeName: string | undefined, configured: readonly string[]): boolean {
  if (calleeName === undefined) return false;
  return configured.some((name) => calleeName === name || calleeName.endsWith(`.${name}`));
}

/** The names a binding pattern declares: `{ a, b: [c], ...d }` → a, c, d. */
export function collectBindingNames(pattern: TSESTree.Node | null | undefined, into: string[] = []): string[] {
  if (!pattern) return into;
  switch (pattern.type) {
    case AST_NODE_TYPES.Identifier:
      into.push(pattern.name);
      break;
    case AST_NODE_TYPES.ObjectPattern:
      for (const property of pattern.properties) {
        collectBindingNames(property.type === AST_NODE_TYPES.RestElement ? property.argument : property.value, into);
      }
      break;
    case AST_NODE_TYPES.ArrayPattern:
      for (const element of pattern.elements) collectBindingNames(element, into);
      break;
    case AST_NODE_TYPES.RestElement:
      collectBindingNames(pattern.argument, into);
      break;
    case AST_NODE_TYPES.AssignmentPattern:
      collectBindingNames(pattern.left, into);
      break;
    case AST_NODE_TYPES.TSParameterProperty:
      collectBindingNames(pattern.parameter, into);
      break;
    default:
      break;
  }
  return into;
}

/** Keys that hold no value-carrying child: links, positions, and types (they never carry values). */
const SKIPPED_KEYS = new Set([
  'parent',
  'range',
  'loc',
  'tokens',
  'comments',
  'typeAnnotation',
  'returnType',
  'typeArguments',
  'typeParameters',
]);

function isNode(value: unknown): value is TSESTree.Node {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

const childKeysByType = new Map<string, readonly string[]>();

/**
 * The keys of a node type that may hold children, in source order: the
 * parser's visitor keys without the skipped ones. Every walk asks this for
 * every node, so it is worked out once per type; enumerating each node's own
 * keys was most of what a walk cost. A type the visitor keys do not know (a
 * newer parser) falls back to the node's own keys.
 */
function childKeysOf(node: TSESTree.Node): readonly string[] {
  let keys = childKeysByType.get(node.type);
  if (!keys) {
    const known = (visitorKeys as Record<string, readonly string[] | undefined>)[node.type];
    if (!known) return Object.keys(node).filter((key) => !SKIPPED_KEYS.has(key));
    keys = known.filter((key) => !SKIPPED_KEYS.has(key));
    childKeysByType.set(node.type, keys);
  }
  return keys;
}

/** Calls `visit` on each child node of `node`, in source order. */
function forEachChild(node: TSESTree.Node, visit: (child: TSESTree.Node) => void): void {
  for (const key of childKeysOf(node)) {
    const value = (node as unknown as Record<string, unknown>)[key];
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item)) visit(item);
    } else if (isNode(value)) {
      visit(value);
    }
  }
}

/** The child nodes of `node`, in source order, types left out (they never carry values). Works on trees without parents. */
export function childNodes(node: TSESTree.Node): TSESTree.Node[] {
  const children: TSESTree.Node[] = [];
  forEachChild(node, (child) => children.push(child));
  return children;
}

/**
 * Visits `root` and everything below it, depth first, in source order.
 * `enter` may return `false` to skip a subtree. Iterative, so a deep tree
 * cannot overflow the stack.
 */
export function walk(root: TSESTree.Node, enter: (node: TSESTree.Node) => boolean | void): void {
  const stack: TSESTree.Node[] = [root];
  const pending: TSESTree.Node[] = [];
  const collect = (child: TSESTree.Node): void => {
    pending.push(child);
  };
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (enter(node) === false) continue;
    forEachChild(node, collect);
    // Pushed last child first, so the first child is visited next.
    while (pending.length > 0) stack.push(pending.pop()!);
  }
}

/** Sets `parent` on a tree we parsed ourselves (typescript-estree leaves it unset). */
export function assignParents(root: TSESTree.Node): void {
  const stack: TSESTree.Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    forEachChild(node, (child) => {
      (child as { parent?: TSESTree.Node }).parent = node;
      stack.push(child);
    });
  }
}

/** The string a literal or expression-free template holds. */
export function getStringValue(node: TSESTree.Node | null | undefined): string | undefined {
  if (!node) return undefined;
  const target = skipTypeWrappers(node);
  if (target.type === AST_NODE_TYPES.Literal && typeof target.value === 'string') return target.value;
  if (target.type === AST_NODE_TYPES.TemplateLiteral && target.expressions.length === 0) {
    return target.quasis[0]?.value.cooked ?? undefined;
  }
  return undefined;
}

/** The property `name` of an object literal (not spread, not computed-dynamic). */
export function findProperty(object: TSESTree.ObjectExpression, name: string): TSESTree.Property | undefined {
  for (const property of object.properties) {
    if (property.type !== AST_NODE_TYPES.Property) continue;
    if (getStaticKeyName(property.key, property.computed) === name) return property;
  }
  return undefined;
}

/** Does `node` mention one of `names` as an identifier (anywhere inside it)? */
export function mentionsName(node: TSESTree.Node, names: ReadonlySet<string>): boolean {
  let found = false;
  walk(node, (inner) => {
    if (found) return false;
    if (inner.type === AST_NODE_TYPES.Identifier && names.has(inner.name)) found = true;
    return undefined;
  });
  return found;
}

/**
 * What a name was declared as in the blocks around `identifier` (`const scrapeTool = { … }` in an
 * enclosing block or the module, exported or not): the initialiser of the nearest declaration of
 * that name, undefined when there is none or it has none. Without scope analysis: blocks only.
 */
export function enclosingInitialiser(identifier: TSESTree.Identifier): TSESTree.Expression | undefined {
  for (let block: TSESTree.Node | undefined = identifier.parent; block; block = block.parent) {
    if (block.type !== AST_NODE_TYPES.Program && block.type !== AST_NODE_TYPES.BlockStatement) continue;
    for (const statement of block.body) {
      const declaration = statement.type === AST_NODE_TYPES.ExportNamedDeclaration ? statement.declaration : statement;
      if (declaration?.type !== AST_NODE_TYPES.VariableDeclaration) continue;
      const declarator = declaration.declarations.find(
        (candidate) => candidate.id.type === AST_NODE_TYPES.Identifier && candidate.id.name === identifier.name,
      );
      if (declarator) return declarator.init ?? undefined;
    }
  }
  return undefined;
}

/**
 * Does a function around `identifier` take a parameter of that name (`async getHotelDetails(hotelUrl)`)?
 * Then the name is that parameter, whatever a `const` of the same name elsewhere in the module holds
 * (`const hotelUrl = `https://www.booking.com/hotel/…`` in another method's callback).
 */
export function isParameterName(identifier: TSESTree.Identifier): boolean {
  return parameterOwner(identifier) !== undefined;
}

/**
 * Is a declaration, found by name in the module's index (`file.constants`, which holds the first `const` of
 * each name anywhere), in scope at `reference`: declared outside every function, or in one around the
 * reference? `const url = new URL(urlString)` inside `isValidUrl` is not the `url` another function uses.
 */
export function declaredInScopeOf(declared: TSESTree.Node, reference: TSESTree.Node): boolean {
  for (let node: TSESTree.Node | undefined = declared.parent; node; node = node.parent) {
    if (isFunctionNode(node)) return containsNode(node, reference);
  }
  return true;
}

/** The nearest function around `identifier` that takes a parameter of its name, if any. */
export function parameterOwner(identifier: TSESTree.Identifier): FunctionNode | undefined {
  for (let node: TSESTree.Node | undefined = identifier.parent; node; node = node.parent) {
    if (isFunctionNode(node) && node.params.some((parameter) => collectBindingNames(parameter).includes(identifier.name))) return node;
  }
  return undefined;
}

/**
 * Is `node` in the block a `let`/`const` declarator is declared in (a block, a `case`, the module)?
 * A `var` is seen by its whole function. Several blocks of one function may declare the same name
 * (`case 'a': { const url = args.url; … } case 'b': { const url = `${API}/pay`; … }`): the
 * declarators around a use are the ones it names.
 */
export function declaredAround(declarator: TSESTree.VariableDeclarator, node: TSESTree.Node): boolean {
  const declaration = declarator.parent;
  if (declaration?.type !== AST_NODE_TYPES.VariableDeclaration || declaration.kind === 'var') return true;
  const block = declaration.parent;
  return block === undefined || containsNode(block, node);
}

/** Every declarator at the top of a module (exported or not, any pattern), in order. */
export function topLevelDeclarators(program: TSESTree.Program): TSESTree.VariableDeclarator[] {
  const found: TSESTree.VariableDeclarator[] = [];
  for (const statement of program.body) {
    const declaration =
      statement.type === AST_NODE_TYPES.ExportNamedDeclaration && statement.declaration ? statement.declaration : statement;
    if (declaration.type === AST_NODE_TYPES.VariableDeclaration) found.push(...declaration.declarations);
  }
  return found;
}

/** The declarators of `name` at the top of a module (`let browser = null`, exported or not), in order. */
export function moduleDeclarators(program: TSESTree.Program, name: string): TSESTree.VariableDeclarator[] {
  return topLevelDeclarators(program).filter(
    (declarator) => declarator.id.type === AST_NODE_TYPES.Identifier && declarator.id.name === name,
  );
}

/** `null` or `undefined`, through type wrappers: a variable not given anything yet, or emptied. */
export function isNullOrUndefined(node: TSESTree.Node): boolean {
  const target = skipTypeWrappers(node);
  return (
    (target.type === AST_NODE_TYPES.Identifier && target.name === 'undefined') ||
    (target.type === AST_NODE_TYPES.Literal && target.value === null)
  );
}

/** The program `node` belongs to: the root of its tree (ESLint's, or one `assignParents` linked). */
export function programOf(node: TSESTree.Node): TSESTree.Program | undefined {
  let current: TSESTree.Node | undefined = node;
  while (current?.parent) current = current.parent;
  return current?.type === AST_NODE_TYPES.Program ? current : undefined;
}

/** Is `inner` inside `outer` (or the same node), by source range? */
export function containsNode(outer: TSESTree.Node, inner: TSESTree.Node): boolean {
  return inner.range[0] >= outer.range[0] && inner.range[1] <= outer.range[1];
}

/** The name a function goes by: its own id, the variable it initialises, or its method or property key. */
export function functionNameOf(functionNode: TSESTree.Node): string | undefined {
  if (!isFunctionNode(functionNode)) return undefined;
  if (functionNode.id) return functionNode.id.name;
  const parent = functionNode.parent;
  if (parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.id.type === AST_NODE_TYPES.Identifier) {
    return parent.id.name;
  }
  if (
    parent?.type === AST_NODE_TYPES.MethodDefinition ||
    parent?.type === AST_NODE_TYPES.Property ||
    parent?.type === AST_NODE_TYPES.PropertyDefinition
  ) {
    return getStaticKeyName(parent.key, parent.computed);
  }
  return undefined;
}

/** `functionNameOf` for the words of a report (a step of a read chain): `<anonymous>` when it has none. */
export function shownFunctionName(functionNode: TSESTree.Node): string {
  return functionNameOf(functionNode) ?? '<anonymous>';
}

/**
 * The name the code calls a function by: a declaration's id, or the variable
 * a function expression is assigned to (`const createTool = function make() {}`
 * is `createTool`), else the expression's own id.
 */
export function boundFunctionName(fn: FunctionNode): string | undefined {
  if (fn.type === AST_NODE_TYPES.FunctionDeclaration) return fn.id?.name;
  const parent = fn.parent;
  if (parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.id.type === AST_NODE_TYPES.Identifier) return parent.id.name;
  return fn.id?.name;
}

/** The declarator of `const <name> = node` (a plain name, no pattern) whose initialiser is `node`. */
export function namedDeclaratorOf(node: TSESTree.Node): (TSESTree.VariableDeclarator & { id: TSESTree.Identifier }) | undefined {
  const declarator = node.parent;
  return declarator?.type === AST_NODE_TYPES.VariableDeclarator &&
    declarator.init === node &&
    declarator.id.type === AST_NODE_TYPES.Identifier
    ? (declarator as TSESTree.VariableDeclarator & { id: TSESTree.Identifier })
    : undefined;
}

/** The program a declarator's statement stands at the top of (exported in place or not), and whether it is exported there. */
export function moduleLevelDeclaration(
  declarator: TSESTree.VariableDeclarator,
): { program: TSESTree.Program; exportedInPlace: boolean } | undefined {
  const declaration = declarator.parent;
  const exportedInPlace = declaration?.parent?.type === AST_NODE_TYPES.ExportNamedDeclaration;
  const holder = exportedInPlace ? declaration.parent.parent : declaration?.parent;
  return holder?.type === AST_NODE_TYPES.Program ? { program: holder, exportedInPlace } : undefined;
}
