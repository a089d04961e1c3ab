/**
 * LlamaIndex.TS's `FunctionTool.from(fn, metadata)`: the function is the
 * invocation, the metadata (`{ name, description, parameters }`) names it.
 * Tool providers often hand over a method, `FunctionTool.from(this.getRequest.bind(this), …)`:
 * that method is what runs, so it is resolved in the enclosing class.
 * (`tool(fn, metadata)` and `tool({ … execute })` are the generic factory shapes.)
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type FunctionNode, getCalleeLastName, getMemberPath, isFunctionNode, skipTypeWrappers } from '../ast.js';

import { enclosingClass } from '../module-graph.js';
import { type ToolDefinition, getClassMethod } from './vocabulary.js';
import { asObjectLiteral, configName } from '../tool-name.js';

/** `this.method.bind(this)` → the method of the enclosing class. */
function boundMethod(node: TSESTree.Node): FunctionNode | undefined {
  if (node.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const path = getMemberPath(node.callee);
  if (path?.length !== 3 || path[0] !== 'this' || path[2] !== 'bind') return undefined;
  const classNode = enclosingClass(node);
  return classNode ? getClassMethod(classNode, path[1]!) : undefined;
}

export function recogniseFunctionToolFrom(call: TSESTree.CallExpression): ToolDefinition | undefined {
  if (getCalleeLastName(call) !== 'from') return undefined;
  const path = getMemberPath(call.callee);
  if (path?.length !== 2 || path[0] !== 'FunctionTool') return undefined;
  const [fnArgument, metadataArgument] = call.arguments;
  if (!fnArgument) return undefined;
  const target = skipTypeWrappers(fnArgument);
  const handler = isFunctionNode(target) || target.type === AST_NODE_TYPES.Identifier ? target : boundMethod(target);
  if (!handler) return undefined;
  const metadata = asObjectLiteral(metadataArgument);
  return {
    shape: 'factory',
    node: metadata ?? call,
    reportNode: metadata ?? call,
    name: configName(metadata),
    host: metadata,
    isMcpRegistration: false,
    handlerArgument: handler,
  };
}
