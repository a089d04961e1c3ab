/**
 * The name a tool has for the model, when the code spells it through a
 * constant: `'read_file'`, `READ = 'read_file'`, `ToolName.Read` (a `const`
 * object or an `enum`), `exports.READ` (tsc's CommonJS output for an
 * exported constant), or `override || 'read_file'` (the default name the
 * model sees unless a caller renames it). Messages must show this value,
 * never the variable that holds it, or the user cannot find which tool a
 * report is about; and a dispatcher's `case READ:` joins the tool of that
 * name only when `READ` really holds it.
 *
 * One resolver for every shape, and the innermost binding decides, as in
 * JavaScript: a parameter, catch or loop variable, a `let` or an import of
 * the same name hides a module constant (it holds no value known here). A
 * `var` counts like a `const`: bundlers (esbuild, rollup) turn module
 * constants into `var`. Scopes are read from the tree, not from ESLint's
 * scope manager, so modules we parse ourselves resolve alike.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import {
  type ClassNode,
  collectBindingNames,
  findProperty,
  getStaticKeyName,
  getStringValue,
  isClassNode,
  isFunctionNode,
  programOf,
  skipTypeWrappers,
  walk,
} from './ast.js';
import { commonJsExportName, requireSpecifier } from './file-index.js';
import { loadRelativeModule, moduleText, resolveImportedConstant, resolveImportedEnum } from './module-graph.js';

/** What a name is bound to in its scope: a value known here, an enum, or something with no static value. */
type Binding =
  | { kind: 'value'; init: TSESTree.Expression }
  | { kind: 'enum'; declaration: TSESTree.TSEnumDeclaration }
  /** tsc's output for an enum: `var E; (function (E) { E["A"] = "a"; })(E || (E = {}));`, its members' values. */
  | { kind: 'compiled-enum'; members: ReadonlyMap<string, TSESTree.Expression> }
  /** `import { imported } from 'source'` (`'default'`, `'*'` for a namespace): followed into relative modules. */
  | { kind: 'import'; source: string; imported: string }
  /** A class declared here: its static members (`static ID = 'x'`, `static { this.ID = 'x'; }`) have values. */
  | { kind: 'class'; classNode: TSESTree.ClassDeclaration }
  | { kind: 'opaque' };

const OPAQUE: Binding = { kind: 'opaque' };

/** How many constants, properties and enum members deep a value is followed (`const B = A`, `Names.Read`). */
const MAX_VALUE_DEPTH = 8;

const bindingsByScope = new WeakMap<TSESTree.Node, ReadonlyMap<string, Binding>>();
const NO_BINDINGS: ReadonlyMap<string, Binding> = new Map();
const exportsByProgram = new WeakMap<TSESTree.Program, ReadonlyMap<string, TSESTree.Expression[]>>();

function bind(bindings: Map<string, Binding>, name: string, binding: Binding): void {
  if (!bindings.has(name)) bindings.set(name, binding);
}

function bindOpaque(bindings: Map<string, Binding>, pattern: TSESTree.Node | null | undefined): void {
  for (const name of collectBindingNames(pattern)) bind(bindings, name, OPAQUE);
}

/** `const`/`var` declarators with a single name and a value carry it; `let`, patterns and loop variables do not. */
function bindVariables(bindings: Map<string, Binding>, declaration: TSESTree.VariableDeclaration): void {
  const isLoopVariable =
    (declaration.parent?.type === AST_NODE_TYPES.ForStatement && declaration.parent.init === declaration) ||
    ((declaration.parent?.type === AST_NODE_TYPES.ForInStatement || declaration.parent?.type === AST_NODE_TYPES.ForOfStatement) &&
      declaration.parent.left === declaration);
  for (const declarator of declaration.declarations) {
    if (!isLoopVariable && declaration.kind !== 'let' && declarator.id.type === AST_NODE_TYPES.Identifier && declarator.init) {
      bind(bindings, declarator.id.name, { kind: 'value', init: declarator.init });
    } else {
      bindOpaque(bindings, declarator.id);
    }
  }
}

/** What an import specifier binds: a value in another module, unless only its type is imported. */
function importBinding(declaration: TSESTree.ImportDeclaration, specifier: TSESTree.ImportClause): Binding {
  if (declaration.importKind === 'type') return OPAQUE;
  switch (specifier.type) {
    case AST_NODE_TYPES.ImportDefaultSpecifier:
      return { kind: 'import', source: declaration.source.value, imported: 'default' };
    case AST_NODE_TYPES.ImportNamespaceSpecifier:
      return { kind: 'import', source: declaration.source.value, imported: '*' };
    default: {
      if (specifier.importKind === 'type') return OPAQUE;
      const imported = getStaticKeyName(specifier.imported, false);
      return imported === undefined ? OPAQUE : { kind: 'import', source: declaration.source.value, imported };
    }
  }
}

/**
 * `(function (E) { E["A"] = "a"; E[E["B"] = 0] = "B"; })(E || (E = {}));`:
 * the enum's name and its members' values, else undefined.
 */
function compiledEnum(statement: TSESTree.Node): { name: string; members: Map<string, TSESTree.Expression> } | undefined {
  if (statement.type !== AST_NODE_TYPES.ExpressionStatement) return undefined;
  const call = statement.expression;
  if (call.type !== AST_NODE_TYPES.CallExpression || call.arguments.length !== 1) return undefined;
  const fn = call.callee;
  if (fn.type !== AST_NODE_TYPES.FunctionExpression || fn.params.length !== 1 || fn.params[0]?.type !== AST_NODE_TYPES.Identifier) {
    return undefined;
  }
  const name = fn.params[0].name;
  const argument = call.arguments[0]!;
  if (
    argument.type !== AST_NODE_TYPES.LogicalExpression ||
    argument.left.type !== AST_NODE_TYPES.Identifier ||
    argument.left.name !== name
  ) {
    return undefined;
  }
  const members = new Map<string, TSESTree.Expression>();
  for (const inner of fn.body.body) {
    if (inner.type !== AST_NODE_TYPES.ExpressionStatement) continue;
    let assignment = inner.expression;
    // `E[E["B"] = 0] = "B"`: a numeric member's reverse mapping wraps its forward one.
    if (
      assignment.type === AST_NODE_TYPES.AssignmentExpression &&
      assignment.left.type === AST_NODE_TYPES.MemberExpression &&
      assignment.left.property.type === AST_NODE_TYPES.AssignmentExpression
    ) {
      assignment = assignment.left.property;
    }
    if (assignment.type !== AST_NODE_TYPES.AssignmentExpression || assignment.left.type !== AST_NODE_TYPES.MemberExpression) continue;
    const target = assignment.left;
    if (target.object.type !== AST_NODE_TYPES.Identifier || target.object.name !== name) continue;
    const key = getStaticKeyName(target.property, target.computed);
    if (key !== undefined && !members.has(key)) members.set(key, assignment.right);
  }
  return { name, members };
}

/** The names a statement list declares (lexical declarations, and the `var`s written directly in it). */
function bindStatements(bindings: Map<string, Binding>, statements: readonly TSESTree.Node[]): void {
  // A compiled enum's `var E;` holds nothing until the function after it fills it: bind the members first.
  for (const statement of statements) {
    const found = compiledEnum(statement);
    if (found) bind(bindings, found.name, { kind: 'compiled-enum', members: found.members });
  }
  for (const statement of statements) {
    const declaration =
      statement.type === AST_NODE_TYPES.ExportNamedDeclaration || statement.type === AST_NODE_TYPES.ExportDefaultDeclaration
        ? statement.declaration
        : statement;
    if (!declaration) continue;
    switch (declaration.type) {
      case AST_NODE_TYPES.VariableDeclaration:
        bindVariables(bindings, declaration);
        break;
      case AST_NODE_TYPES.TSEnumDeclaration:
        bind(bindings, declaration.id.name, { kind: 'enum', declaration });
        break;
      case AST_NODE_TYPES.ImportDeclaration:
        for (const specifier of declaration.specifiers) bind(bindings, specifier.local.name, importBinding(declaration, specifier));
        break;
      case AST_NODE_TYPES.ClassDeclaration:
        if (declaration.id) bind(bindings, declaration.id.name, { kind: 'class', classNode: declaration });
        break;
      case AST_NODE_TYPES.FunctionDeclaration:
      case AST_NODE_TYPES.TSImportEqualsDeclaration:
      case AST_NODE_TYPES.TSModuleDeclaration:
        if (declaration.id?.type === AST_NODE_TYPES.Identifier) bind(bindings, declaration.id.name, OPAQUE);
        break;
      default:
        break;
    }
  }
}

/** The `var`s of a function body or module, wherever they are written (they belong to the whole function). */
function bindHoistedVariables(bindings: Map<string, Binding>, body: TSESTree.Node): void {
  walk(body, (node) => {
    if (node !== body && (isFunctionNode(node) || node.type === AST_NODE_TYPES.StaticBlock)) return false;
    if (node.type === AST_NODE_TYPES.VariableDeclaration && node.kind === 'var') bindVariables(bindings, node);
    return undefined;
  });
}

/**
 * esbuild's lazy module initialisers: `var Grep_default2; var init_Grep2 = __esm(() => { Grep_default2 = { … }; })`.
 * A `var` declared at the module's top without a value and assigned exactly once, anywhere in the module, a value
 * written out in the code (`isWrittenValue`), holds that value (a bundled module's constant, which its initialiser
 * fills before any use). Bound before the statements, which would bind it as nothing.
 */
function bindLazilyAssigned(bindings: Map<string, Binding>, program: TSESTree.Program): void {
  const pending = new Set<string>();
  for (const statement of program.body) {
    if (statement.type !== AST_NODE_TYPES.VariableDeclaration || statement.kind !== 'var') continue;
    for (const declarator of statement.declarations) {
      if (declarator.id.type === AST_NODE_TYPES.Identifier && !declarator.init) pending.add(declarator.id.name);
    }
  }
  if (pending.size === 0) return;
  const assigned = new Map<string, TSESTree.Expression | null>();
  walk(program, (node) => {
    if (node.type !== AST_NODE_TYPES.AssignmentExpression || node.left.type !== AST_NODE_TYPES.Identifier) return undefined;
    const name = node.left.name;
    if (!pending.has(name)) return undefined;
    assigned.set(name, assigned.has(name) || node.operator !== '=' ? null : node.right);
    return undefined;
  });
  for (const [name, value] of assigned) if (value && isWrittenValue(value)) bind(bindings, name, { kind: 'value', init: value });
}

/**
 * A value written out in the code: a non-empty object or array literal, a string, a template. Not what a call
 * makes at run time (`page = await browser.newPage()`), nor a compiled enum's `E || (E = {})`.
 */
function isWrittenValue(value: TSESTree.Expression): boolean {
  const target = skipTypeWrappers(value);
  switch (target.type) {
    case AST_NODE_TYPES.ObjectExpression:
      return target.properties.length > 0;
    case AST_NODE_TYPES.ArrayExpression:
      return target.elements.length > 0;
    case AST_NODE_TYPES.TemplateLiteral:
      return true;
    case AST_NODE_TYPES.Literal:
      return typeof target.value === 'string';
    default:
      return false;
  }
}

/** The nodes that open a scope (what a name declared in them is visible in). */
const SCOPE_TYPES: ReadonlySet<string> = new Set([
  AST_NODE_TYPES.Program,
  AST_NODE_TYPES.BlockStatement,
  AST_NODE_TYPES.StaticBlock,
  AST_NODE_TYPES.TSModuleBlock,
  AST_NODE_TYPES.SwitchStatement,
  AST_NODE_TYPES.ForStatement,
  AST_NODE_TYPES.ForInStatement,
  AST_NODE_TYPES.ForOfStatement,
  AST_NODE_TYPES.CatchClause,
  AST_NODE_TYPES.FunctionDeclaration,
  AST_NODE_TYPES.FunctionExpression,
  AST_NODE_TYPES.ArrowFunctionExpression,
  AST_NODE_TYPES.ClassDeclaration,
  AST_NODE_TYPES.ClassExpression,
]);

function collectBindings(scope: TSESTree.Node): ReadonlyMap<string, Binding> {
  const bindings = new Map<string, Binding>();
  switch (scope.type) {
    case AST_NODE_TYPES.Program:
      bindLazilyAssigned(bindings, scope);
      bindStatements(bindings, scope.body);
      bindHoistedVariables(bindings, scope);
      break;
    case AST_NODE_TYPES.BlockStatement:
    case AST_NODE_TYPES.StaticBlock:
    case AST_NODE_TYPES.TSModuleBlock:
      bindStatements(bindings, scope.body);
      break;
    case AST_NODE_TYPES.SwitchStatement:
      for (const switchCase of scope.cases) bindStatements(bindings, switchCase.consequent);
      break;
    case AST_NODE_TYPES.ForStatement:
      if (scope.init?.type === AST_NODE_TYPES.VariableDeclaration) bindVariables(bindings, scope.init);
      break;
    case AST_NODE_TYPES.ForInStatement:
    case AST_NODE_TYPES.ForOfStatement:
      if (scope.left.type === AST_NODE_TYPES.VariableDeclaration) bindVariables(bindings, scope.left);
      break;
    case AST_NODE_TYPES.CatchClause:
      bindOpaque(bindings, scope.param);
      break;
    case AST_NODE_TYPES.FunctionDeclaration:
    case AST_NODE_TYPES.FunctionExpression:
    case AST_NODE_TYPES.ArrowFunctionExpression:
      for (const parameter of scope.params) bindOpaque(bindings, parameter);
      if (scope.id) bind(bindings, scope.id.name, OPAQUE);
      if (scope.body) bindHoistedVariables(bindings, scope.body);
      break;
    case AST_NODE_TYPES.ClassDeclaration:
    case AST_NODE_TYPES.ClassExpression:
      if (scope.id) bind(bindings, scope.id.name, OPAQUE);
      break;
    default:
      break;
  }
  return bindings;
}

function bindingsOf(scope: TSESTree.Node): ReadonlyMap<string, Binding> {
  if (!SCOPE_TYPES.has(scope.type)) return NO_BINDINGS;
  let bindings = bindingsByScope.get(scope);
  if (!bindings) bindingsByScope.set(scope, (bindings = collectBindings(scope)));
  return bindings;
}

/** What `identifier` is bound to by the innermost scope that declares it; undefined when free (a global, CommonJS's `exports`). */
function bindingOf(identifier: TSESTree.Identifier): Binding | undefined {
  for (let scope: TSESTree.Node | undefined = identifier.parent; scope; scope = scope.parent) {
    const binding = bindingsOf(scope).get(identifier.name);
    if (binding) return binding;
  }
  return undefined;
}

/**
 * Is `identifier` a parameter or a variable of a function around it (not a
 * module binding, not a global)? `fetch` handed in as a callback
 * (`getResourceByIdOrName(id, fetch)`) is whatever the caller passed, not
 * the global reader of that name.
 */
export function isBoundInFunction(identifier: TSESTree.Identifier): boolean {
  for (let scope: TSESTree.Node | undefined = identifier.parent; scope; scope = scope.parent) {
    if (scope.type === AST_NODE_TYPES.Program) return false;
    if (bindingsOf(scope).has(identifier.name)) return true;
  }
  return false;
}

/** `exports` or `module.exports`, unbound here: CommonJS's exports object. */
function isCommonJsExports(node: TSESTree.Node): boolean {
  const root = node.type === AST_NODE_TYPES.MemberExpression ? node.object : node;
  return root.type === AST_NODE_TYPES.Identifier && bindingOf(root) === undefined;
}

/** The values a module assigns to each `exports.x` at its top level (tsc: `exports.a = exports.b = void 0; exports.a = 'x';`). */
function commonJsExportValues(program: TSESTree.Program): ReadonlyMap<string, TSESTree.Expression[]> {
  let values = exportsByProgram.get(program);
  if (values) return values;
  const assigned = new Map<string, TSESTree.Expression[]>();
  for (const statement of program.body) {
    if (statement.type !== AST_NODE_TYPES.ExpressionStatement) continue;
    const names: string[] = [];
    let value: TSESTree.Expression = statement.expression;
    while (value.type === AST_NODE_TYPES.AssignmentExpression && value.operator === '=') {
      const name = commonJsExportName(value.left);
      if (name === undefined) break;
      names.push(name);
      value = value.right;
    }
    // `void 0` only declares the export ahead of its value.
    if (value.type === AST_NODE_TYPES.UnaryExpression && value.operator === 'void') continue;
    for (const name of names) assigned.set(name, [...(assigned.get(name) ?? []), value]);
  }
  exportsByProgram.set(program, (values = assigned));
  return values;
}

/**
 * The expression `node` stands for when the code decides it statically:
 * a constant's initialiser, a property of a constant object, an enum member,
 * a CommonJS export assigned once; anything else is itself.
 */
export function staticValueOf(node: TSESTree.Node, depth = 0): TSESTree.Node | undefined {
  if (depth > MAX_VALUE_DEPTH) return undefined;
  const target = skipTypeWrappers(node);
  if (target.type === AST_NODE_TYPES.ChainExpression) return staticValueOf(target.expression, depth + 1);
  if (target.type === AST_NODE_TYPES.Identifier) {
    const binding = bindingOf(target);
    if (binding?.kind === 'value') return staticValueOf(binding.init, depth + 1);
    if (binding?.kind === 'import' && binding.imported !== '*') return importedValue(target, binding.source, binding.imported, depth);
    if (binding?.kind === 'class') return binding.classNode;
    if (binding?.kind === 'enum') return binding.declaration;
    // tsc's alias of a decorated class, declared `var X_1;` and bound in the class itself:
    // `static { FileContentFunction_1 = this; }`. A global (no binding) is never one; a module
    // whose text spells no `X_1 = this` has none, so its tree is not walked for it.
    const program = binding?.kind === 'opaque' ? programOf(target) : undefined;
    const text = program ? moduleText(program) : undefined;
    if (!program || (text !== undefined && !spellsThisAlias(text, target.name))) return undefined;
    return classAliases(program).get(target.name);
  }
  if (target.type !== AST_NODE_TYPES.MemberExpression) return target;
  const key = getStaticKeyName(target.property, target.computed);
  if (key === undefined) return undefined;
  if (commonJsExportName(target) !== undefined && isCommonJsExports(target.object)) {
    const program = programOf(target);
    const values = program ? commonJsExportValues(program).get(key) : undefined;
    return values?.length === 1 ? staticValueOf(values[0]!, depth + 1) : undefined;
  }
  const receiver = skipTypeWrappers(target.object);
  if (receiver.type === AST_NODE_TYPES.Identifier) {
    const binding = bindingOf(receiver);
    // `tools.PdfTool` of `import * as tools from './tools.js'` (or `const tools = require('./tools')`);
    // `ToolName.Read` of a compiled enum.
    if (binding?.kind === 'import' && binding.imported === '*') return importedValue(receiver, binding.source, key, depth);
    // `Constants.READ_FILE` of `import { Constants } from '@/common'`, an enum of another module.
    if (binding?.kind === 'import') {
      const program = programOf(receiver);
      const declaration = program ? resolveImportedEnum(program, binding.source, binding.imported) : undefined;
      const value = declaration ? enumMemberValue(declaration, key, depth) : undefined;
      if (value) return value;
    }
    const required = binding?.kind === 'value' ? requireSpecifier(binding.init) : undefined;
    if (required !== undefined) return importedValue(receiver, required, key, depth);
    if (binding?.kind === 'compiled-enum') {
      const member = binding.members.get(key);
      return member ? staticValueOf(member, depth + 1) : undefined;
    }
  }
  let object = staticValueOf(target.object, depth + 1);
  // `toolConfig.readToolName` of `const toolConfig = client === 'openai-mcp' ? OPENAI_CONFIG : DEFAULT_CONFIG`:
  // the otherwise-branch is the default, as `override || 'read_file'` names its right side.
  if (object?.type === AST_NODE_TYPES.ConditionalExpression) object = staticValueOf(object.alternate, depth + 1);
  if (object?.type === AST_NODE_TYPES.ObjectExpression) {
    const property = findProperty(object, key);
    return property ? staticValueOf(property.value, depth + 1) : undefined;
  }
  if (object && isClassNode(object)) {
    const member = staticMemberValue(object, key);
    return member ? staticValueOf(member, depth + 1) : undefined;
  }
  if (object?.type === AST_NODE_TYPES.CallExpression) {
    const given = objectGivenTo(object, depth);
    const property = given ? findProperty(given, key) : undefined;
    return property ? staticValueOf(property.value, depth + 1) : undefined;
  }
  if (object?.type === AST_NODE_TYPES.TSEnumDeclaration) return enumMemberValue(object, key, depth);
  return undefined;
}

/** The value of an enum's member `key` (`ReadFile = 'builtin_read_file'`), in this module or another. */
function enumMemberValue(declaration: TSESTree.TSEnumDeclaration, key: string, depth: number): TSESTree.Node | undefined {
  const member = declaration.body.members.find((candidate) => getStaticKeyName(candidate.id, false) === key);
  return member?.initializer ? staticValueOf(member.initializer, depth + 1) : undefined;
}

/** `ToolSchema.parse({ name, … })`, `Object.freeze({ … })`: a definition helper hands back the object it is given. */
function objectGivenTo(call: TSESTree.CallExpression, depth: number): TSESTree.ObjectExpression | undefined {
  const [first] = call.arguments;
  const given = first && first.type !== AST_NODE_TYPES.SpreadElement ? staticValueOf(first, depth + 1) : undefined;
  return given?.type === AST_NODE_TYPES.ObjectExpression ? given : undefined;
}

/**
 * The definition object `node` stands for, when the code decides it: an object literal
 * (through constants and imports), or the one a definition helper was given
 * (`export const PdfTool = ToolSchema.parse({ name, description, inputSchema })`).
 */
export function definitionObjectOf(node: TSESTree.Node): TSESTree.ObjectExpression | undefined {
  const value = staticValueOf(node);
  if (value?.type === AST_NODE_TYPES.ObjectExpression) return value;
  return value?.type === AST_NODE_TYPES.CallExpression ? objectGivenTo(value, 0) : undefined;
}

/**
 * The exported constant `imported` of the module `source` names, seen from `from`'s module
 * (relative modules only): an ES module's `export const`, or a CommonJS module's one
 * assignment to `exports.imported` (tsc's output).
 */
function importedValue(from: TSESTree.Node, source: string, imported: string, depth: number): TSESTree.Node | undefined {
  const program = programOf(from);
  if (!program) return undefined;
  const init = resolveImportedConstant(program, source, imported);
  if (init) return staticValueOf(init, depth + 1);
  const target = loadRelativeModule(program, source);
  const values = target ? commonJsExportValues(target.program).get(imported) : undefined;
  return values?.length === 1 ? staticValueOf(values[0]!, depth + 1) : undefined;
}

/** A class's static member: `static ID = 'x'`, or `this.ID = 'x'` in a `static { }` block. */
function staticMemberValue(classNode: ClassNode, key: string): TSESTree.Expression | undefined {
  for (const member of classNode.body.body) {
    if (member.type === AST_NODE_TYPES.PropertyDefinition && member.static && getStaticKeyName(member.key, member.computed) === key) {
      return member.value ?? undefined;
    }
    if (member.type !== AST_NODE_TYPES.StaticBlock) continue;
    for (const statement of member.body) {
      const assignment = statement.type === AST_NODE_TYPES.ExpressionStatement ? statement.expression : undefined;
      if (assignment?.type !== AST_NODE_TYPES.AssignmentExpression || assignment.operator !== '=') continue;
      const left = assignment.left;
      if (
        left.type === AST_NODE_TYPES.MemberExpression &&
        left.object.type === AST_NODE_TYPES.ThisExpression &&
        getStaticKeyName(left.property, left.computed) === key
      ) {
        return assignment.right;
      }
    }
  }
  return undefined;
}

/** Does the text assign `this` to `name` anywhere (`X_1 = this`, minified `X=this`)? */
function spellsThisAlias(text: string, name: string): boolean {
  return new RegExp(`(?<![\\w$])${name.replace(/\$/g, '\\$')}\\s*=\\s*this\\b`).test(text);
}

const aliasesByProgram = new WeakMap<TSESTree.Program, ReadonlyMap<string, ClassNode>>();

/** tsc's aliases of decorated classes (`static { X_1 = this; }` in class `X`), by alias name. */
function classAliases(program: TSESTree.Program): ReadonlyMap<string, ClassNode> {
  let aliases = aliasesByProgram.get(program);
  if (aliases) return aliases;
  const found = new Map<string, ClassNode>();
  walk(program, (node) => {
    if (node.type !== AST_NODE_TYPES.StaticBlock) return undefined;
    const classNode = node.parent?.parent;
    for (const statement of node.body) {
      const assignment = statement.type === AST_NODE_TYPES.ExpressionStatement ? statement.expression : undefined;
      if (
        assignment?.type === AST_NODE_TYPES.AssignmentExpression &&
        assignment.left.type === AST_NODE_TYPES.Identifier &&
        assignment.right.type === AST_NODE_TYPES.ThisExpression &&
        classNode &&
        isClassNode(classNode)
      ) {
        found.set(assignment.left.name, classNode);
      }
    }
    return false;
  });
  aliasesByProgram.set(program, (aliases = found));
  return aliases;
}

/** The string value of `node` as the model sees it, when the code decides it statically. */
export function resolveToolName(node: TSESTree.Node | null | undefined): string | undefined {
  if (!node) return undefined;
  const target = skipTypeWrappers(node);
  if (target.type === AST_NODE_TYPES.LogicalExpression && target.operator !== '&&') return resolveToolName(target.right);
  const value = staticValueOf(target);
  return value ? getStringValue(value) : undefined;
}

/**
 * The names a loop hands a registration one after another (`for (const toolName of ['nexus_recall',
 * 'agent_memory_recall']) server.tool(toolName, …)`): one tool per name, the same code behind each.
 * Undefined unless `node` is the loop's variable over a written-out list of names.
 */
export function loopedToolNames(node: TSESTree.Node | null | undefined): string[] | undefined {
  const target = node ? skipTypeWrappers(node) : undefined;
  if (target?.type !== AST_NODE_TYPES.Identifier) return undefined;
  for (let current: TSESTree.Node | undefined = target.parent; current; current = current.parent) {
    if (isFunctionNode(current)) return undefined;
    if (current.type !== AST_NODE_TYPES.ForOfStatement) continue;
    const left = current.left;
    const declared = left.type === AST_NODE_TYPES.VariableDeclaration ? left.declarations[0]?.id : undefined;
    if (declared?.type !== AST_NODE_TYPES.Identifier || declared.name !== target.name) continue;
    const list = skipTypeWrappers(current.right);
    if (list.type !== AST_NODE_TYPES.ArrayExpression || list.elements.length === 0) return undefined;
    const names = list.elements.map((element) =>
      element && element.type !== AST_NODE_TYPES.SpreadElement ? resolveToolName(element) : undefined,
    );
    return names.every((name) => name !== undefined) ? (names as string[]) : undefined;
  }
  return undefined;
}

/**
 * The key a tool's name joins by: its value when the code decides it, else
 * the constant that holds it as written (`BuiltInToolNames.ReadFile`), when
 * that constant lives in another module. A definition and the dispatcher's
 * `case BuiltInToolNames.ReadFile:` spell the same constant, so they join
 * even when neither file holds its value.
 */
export function toolNameKey(node: TSESTree.Node | null | undefined): string | undefined {
  if (!node) return undefined;
  return resolveToolName(node) ?? spelledNameKey(node);
}

/**
 * A name as the code spells it, `BuiltInToolNames.ReadFile` (a member path of at most three
 * parts), whatever it resolves to: how other files of the package write the same name, which
 * their text shows before they are parsed.
 */
export function spelledNameKey(node: TSESTree.Node | null | undefined): string | undefined {
  if (!node) return undefined;
  const target = skipTypeWrappers(node);
  if (target.type !== AST_NODE_TYPES.MemberExpression || target.computed) return undefined;
  const parts: string[] = [];
  let current: TSESTree.Node = target;
  while (current.type === AST_NODE_TYPES.MemberExpression && !current.computed && current.property.type === AST_NODE_TYPES.Identifier) {
    parts.unshift(current.property.name);
    current = current.object;
  }
  if (current.type !== AST_NODE_TYPES.Identifier || parts.length > 2) return undefined;
  return [current.name, ...parts].join('.');
}

/** The `name` property of a config object, resolved as above. */
export function configName(object: TSESTree.ObjectExpression | undefined): string | undefined {
  return object ? resolveToolName(findProperty(object, 'name')?.value) : undefined;
}

/** An object literal argument, through type wrappers. */
export function asObjectLiteral(node: TSESTree.Node | undefined): TSESTree.ObjectExpression | undefined {
  if (!node) return undefined;
  const target = skipTypeWrappers(node);
  return target.type === AST_NODE_TYPES.ObjectExpression ? target : undefined;
}

/**
 * Can `node` hold a tool's name? A string, a constant, a member, a template,
 * or a renamable default (`override || 'read_file'`).
 */
export function mayHoldToolName(node: TSESTree.Node): boolean {
  const target = skipTypeWrappers(node);
  if (getStringValue(target) !== undefined) return true;
  if (target.type === AST_NODE_TYPES.LogicalExpression && target.operator !== '&&') {
    return getStringValue(target.right) !== undefined;
  }
  return (
    target.type === AST_NODE_TYPES.Identifier ||
    target.type === AST_NODE_TYPES.MemberExpression ||
    target.type === AST_NODE_TYPES.TemplateLiteral
  );
}

/** The property `node` is the value of, through type wrappers and the call it configures. */
function enclosingProperty(node: TSESTree.Node): TSESTree.Property | undefined {
  let child: TSESTree.Node = node;
  let parent = node.parent;
  while (
    parent &&
    (parent.type === AST_NODE_TYPES.TSAsExpression ||
      parent.type === AST_NODE_TYPES.TSSatisfiesExpression ||
      parent.type === AST_NODE_TYPES.TSNonNullExpression ||
      (parent.type === AST_NODE_TYPES.CallExpression && parent.arguments.includes(child as TSESTree.CallExpressionArgument)))
  ) {
    child = parent;
    parent = parent.parent;
  }
  return parent?.type === AST_NODE_TYPES.Property && parent.value === child ? parent : undefined;
}

/** The key of the tools-map property whose value `node` is (or configures). */
export function toolMapKey(node: TSESTree.Node): string | undefined {
  const property = enclosingProperty(node);
  return property ? getStaticKeyName(property.key, property.computed) : undefined;
}
