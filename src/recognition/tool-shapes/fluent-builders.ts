/**
 * A tool built by a chain of calls, a fluent builder:
 * `new Tool('workspace_read_file').description('Read the contents of a file').input(z.object({ path }))
 * .handler(async (input, ctx) => …).build()` (@n8n/agents). The chain's root names the tool (`new Tool(name)`,
 * `Tool.create(name)`), one link states the description, one the input schema, and one hands in the function
 * that runs on a call. No object holds the contract: the whole chain is the tool, recognised at its last call
 * (the one nothing is chained onto), reported where the chain starts. Rules report it without a fix: a
 * classification member has no object to go in.
 *
 * What tells it from the other chains of a codebase: a zod schema (`z.string().describe('…')`) has no name at
 * its root; a command-line parser (`program.command('cat').description('…').arguments('<file>').action(fn)`)
 * takes its arguments as text, not a schema, and its root does not spell `tool`. So the chain must start at a
 * name, state a description and hand in a function, and either its root spells `tool` or a link hands in an
 * input schema (an object, a schema call, a constant): the evidence a model is meant to call it.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { getStaticKeyName, isFunctionNode, lastNameOf, skipTypeWrappers } from '../ast.js';
import { staticText } from '../tool-contract.js';
import { resolveToolName } from '../tool-name.js';
import { type ToolDefinition, wrappedFunction } from './vocabulary.js';

/** Links that state the tool's description. */
const DESCRIPTION_LINK = /^(?:description|describe|desc|withDescription|setDescription)$/;
/** Links that hand in the input schema. */
const INPUT_LINK =
  /^(?:input|inputSchema|schema|parameters|params|args|arguments|withInput|withInputSchema|withParameters|withSchema|setInputSchema|setParameters)$/;
/** Links that hand in the function that runs on a call. */
const HANDLER_LINK =
  /^(?:handler|handle|execute|run|invoke|implement|implementation|fn|func|action|exec|withHandler|setHandler|withExecute|onCall)$/;
/** A root call that names the tool through a static constructor: `Tool.create(name)`, `ToolBuilder.named(name)`. */
const ROOT_METHOD = /^(?:create|named|define|builder|new|of|tool)$/;
/** How a builder spells what it builds. */
const SPELLS_TOOL = /tool/i;

interface Link {
  method: string;
  call: TSESTree.CallExpression;
}

/** The links of the chain that ends at `call`, last first, and the expression the chain starts at. */
function chainOf(call: TSESTree.CallExpression): { links: Link[]; root: TSESTree.Node } {
  const links: Link[] = [];
  let current: TSESTree.Node = call;
  while (current.type === AST_NODE_TYPES.CallExpression && current.callee.type === AST_NODE_TYPES.MemberExpression) {
    const method = getStaticKeyName(current.callee.property, current.callee.computed);
    if (method === undefined) break;
    links.push({ method, call: current });
    current = skipTypeWrappers(current.callee.object);
  }
  return { links, root: current };
}

/** Is this a schema handed in (an object, a schema builder's call, a constant), not text or a number? */
function isSchemaArgument(node: TSESTree.Node | undefined): boolean {
  if (!node) return false;
  const target = skipTypeWrappers(node);
  return (
    target.type === AST_NODE_TYPES.ObjectExpression ||
    target.type === AST_NODE_TYPES.CallExpression ||
    target.type === AST_NODE_TYPES.Identifier ||
    target.type === AST_NODE_TYPES.MemberExpression
  );
}

/** The function a handler link hands in: written there, wrapped (`withAuth(async (input) => …)`), or a name. */
function handedFunction(node: TSESTree.Node | undefined): TSESTree.Node | undefined {
  if (!node) return undefined;
  const target = skipTypeWrappers(node);
  if (isFunctionNode(target) || target.type === AST_NODE_TYPES.Identifier || target.type === AST_NODE_TYPES.MemberExpression) {
    return target;
  }
  return wrappedFunction(target);
}

/** Where the chain names the tool: `new Tool(name)`, or `Tool.create(name)` (then that link is the root, not a link). */
function rootOf(links: Link[], root: TSESTree.Node): { nameArgument: TSESTree.Node; spellsTool: boolean; chained: Link[] } | undefined {
  if (root.type === AST_NODE_TYPES.NewExpression) {
    const [nameArgument] = root.arguments;
    return nameArgument ? { nameArgument, spellsTool: SPELLS_TOOL.test(lastNameOf(root.callee) ?? ''), chained: links } : undefined;
  }
  const first = links[links.length - 1];
  const [nameArgument] = first?.call.arguments ?? [];
  if (!first || !nameArgument || !ROOT_METHOD.test(first.method)) return undefined;
  const owner = lastNameOf(root);
  return owner === undefined ? undefined : { nameArgument, spellsTool: SPELLS_TOOL.test(owner), chained: links.slice(0, -1) };
}

export function recogniseBuilderChain(call: TSESTree.CallExpression): ToolDefinition | undefined {
  // The last call of the chain only: nothing is chained onto it.
  const parent = call.parent;
  if (parent?.type === AST_NODE_TYPES.MemberExpression && parent.object === call) return undefined;
  if (call.callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const { links, root } = chainOf(call);
  if (links.length < 2) return undefined;
  const named = rootOf(links, root);
  if (!named) return undefined;
  let description: TSESTree.Node | undefined;
  let inputSchema: TSESTree.Node | undefined;
  let handler: TSESTree.Node | undefined;
  for (const { method, call: link } of named.chained) {
    const [argument] = link.arguments;
    if (description === undefined && DESCRIPTION_LINK.test(method)) description = argument;
    else if (inputSchema === undefined && INPUT_LINK.test(method) && isSchemaArgument(argument)) inputSchema = argument;
    else if (handler === undefined && HANDLER_LINK.test(method)) handler = handedFunction(argument);
  }
  if (description === undefined || handler === undefined || (!named.spellsTool && inputSchema === undefined)) return undefined;
  // A name built at run time (`search_${this.name}`) is still this chain's tool: the chain is the evidence.
  const name = resolveToolName(named.nameArgument);
  return {
    shape: 'builder',
    node: call,
    reportNode: call,
    name,
    host: undefined,
    isMcpRegistration: false,
    handlerArgument: handler,
    // A description built by a call (`buildWriteTodosDescription(…)`) states one all the same, of unknown text.
    statedContract: { description: staticText(description), inputSchema },
  };
}
