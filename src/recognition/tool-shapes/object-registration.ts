/**
 * Tools registered as one object on a server: FastMCP's
 * `server.addTool({ name, description, parameters, execute })` (also with the
 * object in a variable: `server.addTool(scrapeTool)`), and the
 * single-object form of `registerTool({ name, execute | handler })`, or its
 * definition-and-handler form `registerTool({ name, description, inputSchema }, handler)`. The
 * receiver can be anything (`server`, `this.server`, a parameter of a
 * `register…Tools(server)` helper), so the method name and the object's own
 * shape decide: a static name (the one the model sees) and an invocation
 * member. Without it these tools would never be checked at all, and a
 * self-reading FastMCP scraper would persist its own output unseen.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { enclosingInitialiser, findProperty, getCalleeLastName, isFunctionNode, skipTypeWrappers } from '../ast.js';
import type { RecognitionSettings } from '../settings.js';
import { statesContract } from '../tool-contract.js';
import { type ToolDefinition, hasInvocationMember, nameOfObject } from './vocabulary.js';
import { mayHoldToolName, resolveToolName } from '../tool-name.js';

const REGISTRATION_METHODS = new Set(['addTool', 'registerTool']);

/** `{ … }`, or `scrapeTool` bound to one in an enclosing block (`const scrapeTool = { … }; server.addTool(scrapeTool)`). */
function registeredObject(argument: TSESTree.Node): TSESTree.ObjectExpression | undefined {
  const target = skipTypeWrappers(argument);
  if (target.type === AST_NODE_TYPES.ObjectExpression) return target;
  const init = target.type === AST_NODE_TYPES.Identifier ? enclosingInitialiser(target) : undefined;
  const value = init ? skipTypeWrappers(init) : undefined;
  return value?.type === AST_NODE_TYPES.ObjectExpression ? value : undefined;
}

/** `{ ...scrapeTool, _meta }`: the spread object that defines the tool. */
function spreadDefinition(object: TSESTree.ObjectExpression): TSESTree.ObjectExpression | undefined {
  for (const property of object.properties) {
    if (property.type !== AST_NODE_TYPES.SpreadElement) continue;
    const source = registeredObject(property.argument);
    if (source && findProperty(source, 'name')) return source;
  }
  return undefined;
}

/**
 * `registry.registerTool({ name: 'rek_get_doc', description, inputSchema }, (args) => this.getDoc(args))`:
 * the definition the model is shown and, beside it, the function that runs it. Only a name the code
 * decides: a loop handing on each entry of a list (`{ name: tool.name, … }, tool.handler`) registers
 * tools written, and recognised, elsewhere.
 */
function recogniseDefinitionWithHandler(
  registered: TSESTree.ObjectExpression,
  handler: TSESTree.Node,
  settings: RecognitionSettings,
): ToolDefinition | undefined {
  const target = skipTypeWrappers(handler);
  if (!isFunctionNode(target) && target.type !== AST_NODE_TYPES.Identifier && target.type !== AST_NODE_TYPES.MemberExpression)
    return undefined;
  const name = resolveToolName(findProperty(registered, 'name')?.value);
  if (name === undefined || hasInvocationMember(registered, settings) || !statesContract(registered)) return undefined;
  return {
    shape: 'object-registration',
    node: registered,
    reportNode: registered,
    name,
    host: registered,
    isMcpRegistration: true,
    handlerArgument: handler,
  };
}

export function recogniseObjectRegistration(call: TSESTree.CallExpression, settings: RecognitionSettings): ToolDefinition | undefined {
  if (call.callee.type !== AST_NODE_TYPES.MemberExpression || call.arguments.length === 0 || call.arguments.length > 2) return undefined;
  const method = getCalleeLastName(call);
  if (method === undefined || !REGISTRATION_METHODS.has(method)) return undefined;
  const registered = registeredObject(call.arguments[0]!);
  if (!registered) return undefined;
  if (call.arguments.length === 2) return recogniseDefinitionWithHandler(registered, call.arguments[1]!, settings);
  // The definition is where the name and invocation are written; the
  // classification goes on what is registered (its `_meta` is what the server sees).
  const object = findProperty(registered, 'name') ? registered : spreadDefinition(registered);
  const nameProperty = object ? findProperty(object, 'name') : undefined;
  if (!object || !nameProperty || !mayHoldToolName(nameProperty.value)) return undefined;
  if (!hasInvocationMember(object, settings)) return undefined;
  const invocation = object === registered ? undefined : invocationValue(object, settings);
  return {
    shape: 'object-registration',
    node: object,
    reportNode: object,
    name: resolveToolName(nameProperty.value) ?? nameOfObject(object),
    host: registered,
    // FastMCP hands the tool's `_meta` to the client as written, like the MCP SDK.
    isMcpRegistration: true,
    handlerArgument: invocation,
  };
}

function invocationValue(object: TSESTree.ObjectExpression, settings: RecognitionSettings): TSESTree.Node | undefined {
  for (const name of settings.invocationNames) {
    const property = findProperty(object, name);
    if (property) return property.value;
  }
  return undefined;
}
