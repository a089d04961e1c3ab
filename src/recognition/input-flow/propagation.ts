/**
 * How the model's input spreads inside one function: the taint over names.
 * A self-reading tool reads a location the model chose and returns what it
 * read (circular persistence: a persisted result read back by the same tool);
 * the chosen location rarely reaches the reader as the raw parameter, but
 * through locals, destructuring, template strings, object literals, joins,
 * collections filled with input (`list.push(p)`), loops and array callbacks
 * over input, and local closures that return it. `Taint` answers "does this
 * expression carry input?" and `propagate` spreads it through one function's
 * declarations, assignments, loops and calls until nothing new is tainted.
 * The function's nodes are grouped once into a `FunctionUnit`.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type FunctionNode, collectBindingNames, getMemberPath, getStaticKeyName, isFunctionNode, skipTypeWrappers, walk } from '../ast.js';
import { returnedExpressions, STORING_METHODS } from '../output-flow.js';
import { SERVICE_READER_NAME } from '../readers.js';

/** Nodes of one function unit (its body with nested closures), grouped once. */
export interface FunctionUnit {
  declarators: TSESTree.VariableDeclarator[];
  assignments: TSESTree.AssignmentExpression[];
  loops: (TSESTree.ForOfStatement | TSESTree.ForInStatement)[];
  calls: (TSESTree.CallExpression | TSESTree.NewExpression)[];
  /** Closures declared in the unit (`const run = async () => { … }`, `function run() { … }`) and what they return. */
  closures: { name: string; fn: FunctionNode; returned?: TSESTree.Expression[] }[];
}

const units = new WeakMap<FunctionNode, FunctionUnit>();

export function unitOf(fn: FunctionNode): FunctionUnit {
  let unit = units.get(fn);
  if (unit) return unit;
  unit = { declarators: [], assignments: [], loops: [], calls: [], closures: [] };
  const collected = unit;
  for (const parameter of fn.params) {
    walk(parameter, (node) => {
      if (node.type === AST_NODE_TYPES.CallExpression || node.type === AST_NODE_TYPES.NewExpression) collected.calls.push(node);
    });
  }
  walk(fn.body, (node) => {
    switch (node.type) {
      case AST_NODE_TYPES.VariableDeclarator:
        collected.declarators.push(node);
        if (node.id.type === AST_NODE_TYPES.Identifier && node.init) {
          // (also under esbuild's `__name(…, "buildStructure")`)
          const init = skipTypeWrappers(node.init);
          if (isFunctionNode(init)) collected.closures.push({ name: node.id.name, fn: init });
        }
        break;
      case AST_NODE_TYPES.FunctionDeclaration:
        if (node.id) collected.closures.push({ name: node.id.name, fn: node });
        break;
      case AST_NODE_TYPES.AssignmentExpression:
        collected.assignments.push(node);
        break;
      case AST_NODE_TYPES.ForOfStatement:
      case AST_NODE_TYPES.ForInStatement:
        collected.loops.push(node);
        break;
      case AST_NODE_TYPES.CallExpression:
      case AST_NODE_TYPES.NewExpression:
        collected.calls.push(node);
        break;
      default:
        break;
    }
  });
  units.set(fn, unit);
  return unit;
}

/** `collection.get(key)`: a lookup, whose answer is what the collection holds, not the key. */
function isLookup(callee: TSESTree.Node): callee is TSESTree.MemberExpression {
  return (
    callee.type === AST_NODE_TYPES.MemberExpression &&
    !callee.computed &&
    callee.property.type === AST_NODE_TYPES.Identifier &&
    callee.property.name === 'get' &&
    callee.object.type !== AST_NODE_TYPES.ThisExpression
  );
}

/** The last word of a name that holds a key into a registry: `skillName`, `agentId`, `tool_key`. */
const ENTRY_KEY_NAME = /(?:^|[a-z\d_])(?:name|Name|id|Id|ID|key|Key)$/;

/**
 * `this.skillService.getSkill(skillName)`, `registry.getAgent(agentId)`: a getter of a service asked
 * for one entry by its name or id answers with the entry the service holds, as a collection's `get`
 * does; what the entry names (`skill.location`) is the service's, the model only picked among them.
 */
function isEntryLookup(callee: TSESTree.Node, args: readonly TSESTree.CallExpressionArgument[]): callee is TSESTree.MemberExpression {
  if (callee.type !== AST_NODE_TYPES.MemberExpression || callee.computed || args.length !== 1) return false;
  const method = getMemberPath(callee.property)?.[0];
  // (not a getter named for what it reads, `getFile(fileName)`: that is a read of the file the name picks)
  if (method === undefined || !/^get[A-Z][a-z]+$/.test(method) || SERVICE_READER_NAME.test(method)) return false;
  const key = getMemberPath(skipTypeWrappers(args[0]!))?.at(-1);
  return key !== undefined && ENTRY_KEY_NAME.test(key);
}

/**
 * `client.queryDefinition(uri, position)`, `db.query(sql)`: a query asks a
 * service, and its answer is the service's data (a language server's
 * definition locations), not the location it was asked about.
 */
function isQuery(callee: TSESTree.Node): boolean {
  if (callee.type !== AST_NODE_TYPES.MemberExpression || callee.computed) return false;
  const method = getMemberPath(callee.property)?.[0];
  return method !== undefined && /^query(?:[A-Z_]|$)/.test(method);
}

/**
 * `client.chat.completions.create({ messages })`, `anthropic.messages.create(…)`, `generateText({ prompt })`:
 * a model asked with the input answers with what it chose, so a path it names (a file its tool call reads)
 * is that model's choice, not the location the input named. The SDKs' own method names.
 */
const MODEL_COMPLETION_PATHS = ['chat.completions.create', 'completions.create', 'messages.create', 'responses.create'];
const MODEL_COMPLETION_FUNCTIONS = new Set(['generateText', 'streamText', 'generateObject', 'streamObject', 'generateContent']);

function isModelCompletion(callee: TSESTree.Node): boolean {
  if (callee.type === AST_NODE_TYPES.Identifier) return MODEL_COMPLETION_FUNCTIONS.has(callee.name);
  if (callee.type !== AST_NODE_TYPES.MemberExpression || callee.computed) return false;
  const method = getMemberPath(callee.property)?.[0];
  if (method !== undefined && MODEL_COMPLETION_FUNCTIONS.has(method)) return true;
  const path = getMemberPath(callee)?.join('.');
  return path !== undefined && MODEL_COMPLETION_PATHS.some((suffix) => path === suffix || path.endsWith(`.${suffix}`));
}

/** Whether a call we can see into answers with input, given what is tainted where it is called; undefined when unknown. */
export type ReturnsInput = (call: TSESTree.CallExpression | TSESTree.NewExpression, taint: Taint) => boolean | undefined;

/** The taint state of one analysis of one function. */
export class Taint {
  readonly names = new Set<string>();
  /**
   * Objects of which only some fields carry input, by name: a parameter the caller gave an object
   * it wrote out (`helper({ text: input.text, cfg })`). Handed on whole, such an object still
   * counts as input; `params.cfg` and `const { cfg } = params` do not.
   */
  readonly partial = new Map<string, ReadonlySet<string>>();
  readonly thisMembers: Set<string>;
  /**
   * Local closures whose call answers with input: they capture it and return
   * it (`const operation = async () => { …; return resolved; }` over the
   * model's path, then `await withTimeout(operation(), ms)`).
   */
  readonly inputFunctions = new Set<string>();

  constructor(
    thisMembers: readonly string[],
    private readonly returnsInput?: ReturnsInput,
  ) {
    this.thisMembers = new Set(thisMembers);
  }

  /** Adds the names a pattern binds; true when something new was added. */
  addPattern(pattern: TSESTree.Node | null | undefined): boolean {
    let changed = false;
    for (const name of collectBindingNames(pattern)) {
      if (!this.names.has(name)) {
        this.names.add(name);
        changed = true;
      }
    }
    return changed;
  }

  /**
   * Taints what `pattern` binds from an object whose input is only in `fields`: a name becomes a
   * partial object, destructured names only where their key is one of the fields. False when the
   * pattern has another form (then the caller taints it whole).
   */
  addFields(pattern: TSESTree.Node, fields: Iterable<string>): boolean {
    const target = pattern.type === AST_NODE_TYPES.AssignmentPattern ? pattern.left : pattern;
    const wanted = new Set(fields);
    if (target.type === AST_NODE_TYPES.Identifier) {
      if (!this.names.has(target.name)) this.partial.set(target.name, wanted);
      return true;
    }
    if (target.type !== AST_NODE_TYPES.ObjectPattern) return false;
    const named = new Set<string>();
    for (const property of target.properties) {
      if (property.type === AST_NODE_TYPES.RestElement) continue;
      const key = getStaticKeyName(property.key, property.computed);
      if (key !== undefined) named.add(key);
      if (key === undefined || wanted.has(key)) this.addPattern(property.value);
    }
    // `{ a, ...rest }`: the rest holds every field of input not named before it.
    const rest = target.properties.find((property) => property.type === AST_NODE_TYPES.RestElement);
    if (rest && [...wanted].some((field) => !named.has(field))) this.addPattern(rest);
    return true;
  }

  /** Taints what a mutated or assigned-into expression is rooted at: `list`, `this.paths`. */
  addRoot(target: TSESTree.Node): boolean {
    const path = getMemberPath(target);
    if (!path) {
      // `groups[match.filePath].push(match)`: a computed member still fills the collection it is rooted at.
      let root = skipTypeWrappers(target);
      while (root.type === AST_NODE_TYPES.MemberExpression) root = skipTypeWrappers(root.object);
      if (root.type !== AST_NODE_TYPES.Identifier || this.names.has(root.name)) return false;
      this.names.add(root.name);
      return true;
    }
    if (path[0] === 'this') {
      const member = path[1];
      if (member === undefined || this.thisMembers.has(member)) return false;
      this.thisMembers.add(member);
      return true;
    }
    const root = path[0]!;
    if (this.names.has(root)) return false;
    this.names.add(root);
    return true;
  }

  has(node: TSESTree.Node | null | undefined): boolean {
    if (!node) return false;
    switch (node.type) {
      case AST_NODE_TYPES.Identifier:
        return this.names.has(node.name) || this.partial.has(node.name);
      case AST_NODE_TYPES.MemberExpression: {
        if (node.object.type === AST_NODE_TYPES.ThisExpression) {
          const path = getMemberPath(node);
          return path !== undefined && path[1] !== undefined && this.thisMembers.has(path[1]);
        }
        const fields = this.partialFieldsOf(node.object);
        if (fields) {
          const key = getStaticKeyName(node.property, node.computed);
          return key === undefined || fields.has(key);
        }
        return this.has(node.object);
      }
      case AST_NODE_TYPES.ChainExpression:
      case AST_NODE_TYPES.TSAsExpression:
      case AST_NODE_TYPES.TSNonNullExpression:
      case AST_NODE_TYPES.TSSatisfiesExpression:
      case AST_NODE_TYPES.TSTypeAssertion:
        return this.has(node.expression);
      case AST_NODE_TYPES.TemplateLiteral:
        return node.expressions.some((expression) => this.has(expression));
      case AST_NODE_TYPES.TaggedTemplateExpression:
        return node.quasi.expressions.some((expression) => this.has(expression));
      case AST_NODE_TYPES.BinaryExpression:
        return node.operator === '+' && (this.has(node.left) || this.has(node.right));
      case AST_NODE_TYPES.LogicalExpression:
        return this.has(node.left) || this.has(node.right);
      case AST_NODE_TYPES.ConditionalExpression:
        return this.has(node.consequent) || this.has(node.alternate);
      case AST_NODE_TYPES.CallExpression:
      case AST_NODE_TYPES.NewExpression: {
        const callee = skipTypeWrappers(node.callee);
        const member = callee.type === AST_NODE_TYPES.ChainExpression ? callee.expression : callee;
        // `skills.get(input.name)`: an entry the code put in its own collection; the model only picked among them.
        if ((isLookup(member) || isEntryLookup(member, node.arguments)) && !this.has(member.object)) return false;
        if (isQuery(member) || isModelCompletion(member)) return false;
        // `new Request(url, { method, body })`: a request is at its URL; what its body carries is sent, not where it goes.
        if (node.type === AST_NODE_TYPES.NewExpression && member.type === AST_NODE_TYPES.Identifier && member.name === 'Request') {
          return this.has(node.arguments[0]);
        }
        const receiverTainted = member.type === AST_NODE_TYPES.MemberExpression && this.has(member.object);
        if (receiverTainted) return true;
        if (member.type === AST_NODE_TYPES.Identifier && this.inputFunctions.has(member.name)) return true;
        if (!node.arguments.some((argument) => this.has(argument))) return false;
        // A helper we can see answers with input only when what it returns carries it
        // (`resolveSkillFilePath(skill, p, allowed)` answers with an entry of `allowed`).
        return this.returnsInput?.(node, this) ?? true;
      }
      case AST_NODE_TYPES.AwaitExpression:
      case AST_NODE_TYPES.SpreadElement:
        return this.has(node.argument);
      case AST_NODE_TYPES.YieldExpression:
        return this.has(node.argument);
      case AST_NODE_TYPES.ObjectExpression:
        return node.properties.some((property) =>
          property.type === AST_NODE_TYPES.SpreadElement ? this.has(property.argument) : this.has(property.value),
        );
      case AST_NODE_TYPES.ArrayExpression:
        return node.elements.some((element) => this.has(element));
      case AST_NODE_TYPES.SequenceExpression:
        return this.has(node.expressions[node.expressions.length - 1]);
      case AST_NODE_TYPES.AssignmentExpression:
        return this.has(node.right);
      case AST_NODE_TYPES.AssignmentPattern:
        return this.has(node.left);
      default:
        return false;
    }
  }

  /** The input fields of a partial object `node` names (and nothing has tainted whole), else undefined. */
  partialFieldsOf(node: TSESTree.Node | null | undefined): ReadonlySet<string> | undefined {
    const target = node ? skipTypeWrappers(node) : undefined;
    if (target?.type !== AST_NODE_TYPES.Identifier || this.names.has(target.name)) return undefined;
    return this.partial.get(target.name);
  }
}

/**
 * The fields of input in an argument handed to a helper: an object written out with static keys
 * (`{ text: input.text, cfg }` → `text`), or a partial object handed on. Undefined when the whole
 * argument may be input (a spread, a computed key, anything else).
 */
export function inputFieldsOf(argument: TSESTree.Node, taint: Taint): readonly string[] | undefined {
  const target = skipTypeWrappers(argument);
  const partial = taint.partialFieldsOf(target);
  if (partial) return [...partial];
  if (target.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
  const fields: string[] = [];
  for (const property of target.properties) {
    if (property.type !== AST_NODE_TYPES.Property) return undefined;
    const key = getStaticKeyName(property.key, property.computed);
    if (key === undefined) return undefined;
    if (taint.has(property.value)) fields.push(key);
  }
  return fields;
}

/** One pass of propagation; true when anything new became tainted. */
export function propagate(unit: FunctionUnit, taint: Taint): boolean {
  let changed = false;
  // Nothing tainted yet (a function given no input), nothing a closure could return.
  if (taint.names.size > 0 || taint.partial.size > 0 || taint.thisMembers.size > 0) {
    for (const closure of unit.closures) {
      if (taint.inputFunctions.has(closure.name)) continue;
      closure.returned ??= returnedExpressions(closure.fn);
      if (!closure.returned.some((expression) => taint.has(expression))) continue;
      taint.inputFunctions.add(closure.name);
      changed = true;
    }
  }
  for (const declarator of unit.declarators) {
    if (!declarator.init || !taint.has(declarator.init)) continue;
    // `const { cfg } = params` of a partial object: only the fields of input.
    const fields = declarator.id.type === AST_NODE_TYPES.ObjectPattern ? taint.partialFieldsOf(declarator.init) : undefined;
    if (fields) {
      const before = taint.names.size;
      taint.addFields(declarator.id, fields);
      changed = taint.names.size > before || changed;
    } else {
      changed = taint.addPattern(declarator.id) || changed;
    }
  }
  for (const assignment of unit.assignments) {
    if (!taint.has(assignment.right)) continue;
    const left = assignment.left;
    if (left.type === AST_NODE_TYPES.MemberExpression) changed = taint.addRoot(left) || changed;
    else changed = taint.addPattern(left) || changed;
  }
  for (const loop of unit.loops) {
    if (!taint.has(loop.right)) continue;
    const left = loop.left;
    if (left.type === AST_NODE_TYPES.VariableDeclaration) {
      for (const declarator of left.declarations) changed = taint.addPattern(declarator.id) || changed;
    } else if (left.type === AST_NODE_TYPES.MemberExpression) {
      changed = taint.addRoot(left) || changed;
    } else {
      changed = taint.addPattern(left) || changed;
    }
  }
  for (const call of unit.calls) {
    const callee = skipTypeWrappers(call.callee);
    const member = callee.type === AST_NODE_TYPES.ChainExpression ? callee.expression : callee;
    const argumentTainted = call.arguments.some((argument) => taint.has(argument));
    if (member.type === AST_NODE_TYPES.MemberExpression) {
      const path = getMemberPath(member);
      // `groups[key].push(match)`: the method of a computed member's value.
      const method = path?.[path.length - 1] ?? getStaticKeyName(member.property, member.computed);
      // `list.push(p)`, `seen.add(p)`, `url.searchParams.set('q', p)`: the collection now carries input.
      // `cache.set(id, entry)` keys the entry by input: what a lookup answers is the entry, not the key.
      const stored = method === 'set' ? call.arguments.slice(1).some((argument) => taint.has(argument)) : argumentTainted;
      if (method !== undefined && STORING_METHODS.has(method) && stored) {
        changed = taint.addRoot(member.object) || changed;
      }
      if (path?.join('.') === 'Object.assign' && call.arguments.slice(1).some((argument) => taint.has(argument))) {
        const target = call.arguments[0];
        if (target) changed = taint.addRoot(target) || changed;
      }
    }
    if (callee.type === AST_NODE_TYPES.Super && argumentTainted && !taint.thisMembers.has('params')) {
      // `super(params, …)` in an invocation class: the base stores it as `this.params`.
      taint.thisMembers.add('params');
      changed = true;
    }
    // Callbacks over input: `paths.map(p => …)`, `Promise.all(…)`, `Array.from(set, fn)`.
    const receiverTainted = member.type === AST_NODE_TYPES.MemberExpression && taint.has(member.object);
    if (receiverTainted || argumentTainted) {
      for (const argument of call.arguments) {
        if (isFunctionNode(argument)) {
          for (const parameter of argument.params) changed = taint.addPattern(parameter) || changed;
        }
      }
    }
  }
  return changed;
}
