/**
 * Reading the invocation's expressions, the vocabulary every other part of the
 * state analysis speaks: the words of a name, the root an expression hangs off
 * (`v3` in `await v3.context.awaitActivePage()`), the variable an identifier
 * means, and whether that variable lives outside the call. State leaks between
 * tool invocations only through what outlives the call, so "where does this
 * name live?" is the first question of every check.
 */
import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';

import {
  type FunctionNode,
  callOfCallee,
  containsNode,
  functionNameOf,
  getStaticKeyName,
  isClassNode,
  skipChainAndTypeWrappers,
} from '../ast.js';
import type { ScopeSource } from '../foreign-scope.js';
import { requireSpecifier } from '../file-index.js';
import { isOwnModuleSpecifier } from '../module-graph.js';

export type ScopeVariable = TSESLint.Scope.Variable;

export function enclosingName(block: TSESTree.Node): string {
  const name = functionNameOf(block);
  return name === undefined ? 'the enclosing function' : `the enclosing function \`${name}\``;
}

/**
 * Where a variable that the invocation reaches lives, in words; `undefined`
 * when it is not state that outlives the call (declared inside the invocation).
 */
export function describeOuterVariable(variable: ScopeVariable, fn: FunctionNode): { words: string; imported: boolean } | undefined {
  const definition = variable.defs[0];
  if (!definition || containsNode(fn, definition.name)) return undefined;
  const name = variable.name;
  switch (definition.type) {
    case 'ImportBinding':
      return { words: `imported \`${name}\``, imported: true };
    case 'Parameter':
      return { words: `\`${name}\`, a parameter of ${enclosingName(definition.node)}`, imported: false };
    default: {
      const scopeType = variable.scope.type;
      if (scopeType === 'module' || scopeType === 'global') return { words: `module-level \`${name}\``, imported: false };
      const block = variable.scope.variableScope.block;
      return { words: `\`${name}\`, a variable of ${enclosingName(block)}`, imported: false };
    }
  }
}

/**
 * Climbs `x.a.b` / `x?.a` / `(x as T).a` from its root to the outermost member expression.
 * A collection lookup is climbed too: `tasks.get(id).status = …` changes an element the
 * collection keeps, so it changes the collection's state.
 */
export function outermostMember(root: TSESTree.Node): TSESTree.Node {
  let current: TSESTree.Node = root;
  for (;;) {
    const parent: TSESTree.Node | undefined = current.parent;
    if (!parent) return current;
    if (parent.type === AST_NODE_TYPES.MemberExpression && parent.object === current) current = parent;
    else if (
      parent.type === AST_NODE_TYPES.CallExpression &&
      parent.callee === current &&
      isLookup(current) &&
      parent.parent?.type === AST_NODE_TYPES.MemberExpression
    ) {
      current = parent;
    } else if (
      parent.type === AST_NODE_TYPES.ChainExpression ||
      parent.type === AST_NODE_TYPES.TSNonNullExpression ||
      parent.type === AST_NODE_TYPES.TSAsExpression ||
      parent.type === AST_NODE_TYPES.TSSatisfiesExpression ||
      parent.type === AST_NODE_TYPES.TSTypeAssertion
    ) {
      current = parent;
    } else return current;
  }
}

/**
 * Lookups: what they return is a part of the object itself, so changing it changes the
 * object. Collection lookups hand back the element the collection keeps; a page's
 * element lookups (`page.locator(selector).click()`, `page.getByText(text).hover()`,
 * `page.$(selector)`, a WebDriver's `driver.findElement(by).click()`) hand back a handle on
 * the page, so driving it drives the page; so do a WebDriver's handles on its session's
 * options and input (`driver.manage().addCookie(…)`, `driver.actions().move(…)`).
 */
const LOOKUP_METHODS = new Set([
  'get',
  'find',
  'findLast',
  'at',
  'locator',
  'frameLocator',
  '$',
  'querySelector',
  'first',
  'last',
  'nth',
  'findElement',
  'manage',
  'actions',
]);
const ELEMENT_LOOKUP = /^getBy[A-Z]/;

function isLookup(callee: TSESTree.Node): boolean {
  const member = skipChainAndTypeWrappers(callee);
  if (member.type !== AST_NODE_TYPES.MemberExpression) return false;
  const method = getStaticKeyName(member.property, member.computed);
  return method !== undefined && (LOOKUP_METHODS.has(method) || ELEMENT_LOOKUP.test(method));
}

/** The lower-cased camelCase / snake_case words of a name: `recordAgentReplayStep` → record, agent, replay, step. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_$-]+/)
    .filter((word) => word.length > 0)
    .map((word) => word.toLowerCase());
}

/**
 * `const search_js_1 = require("./services/search.js")` (tsc's CommonJS output, also through `__importStar`):
 * a binding of one of the package's own modules, as an `import * as` of it is.
 */
export function isOwnModuleRequire(variable: ScopeVariable): boolean {
  const definition = variable.defs[0];
  if (definition?.type !== 'Variable' || definition.node.type !== AST_NODE_TYPES.VariableDeclarator) return false;
  const specifier = requireSpecifier(definition.node.init);
  return specifier !== undefined && isOwnModuleSpecifier(specifier);
}

/**
 * `googleSites.addSite(…)` on `import * as googleSites from './google/sites.js'` (or its CommonJS
 * `require`): a function of one of the package's modules called through its namespace. What it
 * changes is found by following it (`hiddenStateChange`); the namespace is no object that keeps
 * anything, so its function's name (`add…`) says nothing of state.
 */
export function isOwnNamespaceCall(identifier: TSESTree.Identifier, variable: ScopeVariable): boolean {
  const member = identifier.parent;
  if (member?.type !== AST_NODE_TYPES.MemberExpression || member.object !== identifier || !callOfCallee(member)) return false;
  const definition = variable.defs[0];
  if (definition?.type === 'ImportBinding') {
    return definition.node.type === AST_NODE_TYPES.ImportNamespaceSpecifier && !isPackageImport(variable);
  }
  return isOwnModuleRequire(variable);
}

/** An import from a package (`fs`, `axios`): a module of functions, not an object the tool drives. */
export function isPackageImport(variable: ScopeVariable): boolean {
  const definition = variable.defs[0];
  if (definition?.type !== 'ImportBinding') return false;
  const declaration = definition.parent;
  return declaration.type === AST_NODE_TYPES.ImportDeclaration && !isOwnModuleSpecifier(declaration.source.value);
}

/**
 * Where an expression's value comes from: its root (`v3` in `await v3.context.awaitActivePage()`), and
 * whether it is that object's own part.
 */
export function expressionRoot(expression: TSESTree.Node): { root: TSESTree.Node; part: boolean } | undefined {
  let current = skipChainAndTypeWrappers(expression);
  let part = true;
  for (;;) {
    if (current.type === AST_NODE_TYPES.AwaitExpression) current = skipChainAndTypeWrappers(current.argument);
    else if (current.type === AST_NODE_TYPES.MemberExpression) current = skipChainAndTypeWrappers(current.object);
    else if (current.type === AST_NODE_TYPES.CallExpression && current.callee.type === AST_NODE_TYPES.MemberExpression) {
      const method = getStaticKeyName(current.callee.property, current.callee.computed);
      if (method === undefined || !LOOKUP_METHODS.has(method)) part = false;
      current = skipChainAndTypeWrappers(current.callee.object);
    } else if (current.type === AST_NODE_TYPES.Identifier || current.type === AST_NODE_TYPES.ThisExpression) {
      return { root: current, part };
    } else return undefined;
  }
}

/** The variable an identifier in `fn` refers to. */
export function resolveIdentifier(identifier: TSESTree.Identifier, sourceCode: ScopeSource): ScopeVariable | undefined {
  for (let scope: TSESLint.Scope.Scope | null = sourceCode.getScope(identifier); scope; scope = scope.upper) {
    const variable = scope.set.get(identifier.name);
    if (variable) return variable;
  }
  return undefined;
}

/** Does `this` at `node` mean the same object as `this` in `fn` (arrows inherit it; other functions do not)? */
export function thisBelongsTo(node: TSESTree.Node, fn: FunctionNode): boolean {
  let current = node.parent;
  while (current && current !== fn) {
    if (current.type === AST_NODE_TYPES.FunctionExpression || current.type === AST_NODE_TYPES.FunctionDeclaration) return false;
    if (isClassNode(current)) return false;
    current = current.parent;
  }
  return current === fn;
}
