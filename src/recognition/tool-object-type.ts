/**
 * The declared type of a tool object literal (`const t: Tool<Input> = {…}`,
 * `{…} satisfies ToolDef`, an element of `tools: Tool[]`), seen through the
 * `classifyTool(…)` wrapper a fix may have put around it, and whether that
 * type has room for a member. A member the declared type lacks does not
 * compile (TS2353), so fixes ask here before they write one into the object
 * and use the `classifyTool` home otherwise.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import type ts from 'typescript';

import { getCalleeLastName, skipTypeWrappers } from './ast.js';
import type { FileIndex } from './file-index.js';
import type { ProgramTypes } from './program-types.js';
import { resolveClassName, resolveLocalName } from './module-graph.js';
import { elementTypeOf, lookUpMemberOfType, originOfTypeReference } from './type-declarations.js';

/**
 * `classifyTool(tool, { reads, maxResultSizeChars, stateScope })`: the
 * classification home for tools whose type has no field for it (writing the
 * member into an AI SDK `tool({...})` is a type error; into an MCP
 * `server.tool` input shape, a crash at registration). A tool wrapped in it
 * is classified by the wrapper's second argument.
 */
export const CLASSIFY_TOOL_NAME = 'classifyTool';

/** Is `parent` a `classifyTool(child, …)` call around `child`? */
export function isClassifyToolCallAround(parent: TSESTree.Node, child: TSESTree.Node): parent is TSESTree.CallExpression {
  return parent.type === AST_NODE_TYPES.CallExpression && parent.arguments[0] === child && getCalleeLastName(parent) === CLASSIFY_TOOL_NAME;
}

/** The `classifyTool(<expression>, …)` calls around `expression`, innermost first. */
export function classifyToolWrappersAround(expression: TSESTree.Node): TSESTree.CallExpression[] {
  const wrappers: TSESTree.CallExpression[] = [];
  let current: TSESTree.Node = expression;
  for (let parent: TSESTree.Node | undefined = current.parent; parent; current = parent, parent = parent.parent) {
    if (isClassifyToolCallAround(parent, current)) {
      wrappers.push(parent);
      continue;
    }
    if (skipTypeWrappers(parent) !== current) break;
  }
  return wrappers;
}

/** Where an object literal's declared type is written, and the expression that type applies to. */
interface DeclaredTypeSite {
  typeNode: TSESTree.TypeNode;
  /** The object, or the `satisfies` / `as` expression around it: what evaluates to the tool. */
  expression: TSESTree.Expression;
}

function declaredTypeSiteOf(object: TSESTree.ObjectExpression): DeclaredTypeSite | undefined {
  let child: TSESTree.Node = object;
  let parent: TSESTree.Node | undefined = object.parent;
  // `classifyTool({…}, …)`: the wrapper returns the object with its own type, so the annotation outside still declares it.
  while (parent && isClassifyToolCallAround(parent, child)) {
    child = parent;
    parent = parent.parent;
  }
  // The tool is what the wrappers (when any) take: the object itself.
  let expression: TSESTree.Expression = object;
  const wrapped = child !== object;
  // `[{…}, {…}]` typed `Tool[]`: climb out of the array; each element is a tool.
  const inArray = parent?.type === AST_NODE_TYPES.ArrayExpression;
  if (parent && inArray) {
    child = parent;
    parent = parent.parent;
  }
  if (
    (parent?.type === AST_NODE_TYPES.TSSatisfiesExpression || parent?.type === AST_NODE_TYPES.TSAsExpression) &&
    parent.expression === child
  ) {
    if (!inArray && !wrapped) expression = parent;
    return { typeNode: parent.typeAnnotation, expression };
  }
  if (parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.init === child && parent.id.typeAnnotation) {
    return { typeNode: parent.id.typeAnnotation.typeAnnotation, expression };
  }
  if (parent?.type === AST_NODE_TYPES.PropertyDefinition && parent.value === child && parent.typeAnnotation) {
    return { typeNode: parent.typeAnnotation.typeAnnotation, expression };
  }
  return undefined;
}

/** The type written for the tool object (for an array, its element type): `Tool<Input>` of `const t: Tool<Input> = {…}`. */
export function declaredTypeOfObject(object: TSESTree.ObjectExpression): TSESTree.TypeNode | undefined {
  const site = declaredTypeSiteOf(object);
  return site ? elementTypeOf(site.typeNode) : undefined;
}

/** The name of that type (`Tool` of `Tool<Input>`, `types.Tool`), by which typed tool objects are recognised. */
export function declaredTypeNameOfObject(object: TSESTree.ObjectExpression): string | undefined {
  const typeNode = declaredTypeOfObject(object);
  if (typeNode?.type !== AST_NODE_TYPES.TSTypeReference) return undefined;
  const name = typeNode.typeName;
  if (name.type === AST_NODE_TYPES.Identifier) return name.name;
  return name.type === AST_NODE_TYPES.TSQualifiedName ? name.right.name : undefined;
}

/** The expression that evaluates to a typed tool object: the object, or the `satisfies` / `as` around it. */
export function typedToolExpressionOf(object: TSESTree.ObjectExpression): TSESTree.Expression | undefined {
  return declaredTypeSiteOf(object)?.expression;
}

/** `ts.TypeFlags.Any` (1): an unresolved type is the checker's error type, which carries it too. */
const ANY_TYPE_FLAG = 1;

/**
 * Whether a tool object's declared type has a member: `present`, `absent`,
 * `unknown` (a type we cannot read: a package's, a mapped type), or
 * `undeclared` (the object has no declared type, or its type's name is
 * declared nowhere the lint can see, such as a global: nothing to contradict
 * a member).
 */
export type DeclaredMemberPresence = 'present' | 'absent' | 'unknown' | 'undeclared';

/** The checker's answer for a type; `undefined` when it has none (`any`, an unresolved name). */
function presenceInType(type: ts.Type, memberName: string, checker: ts.TypeChecker): 'present' | 'absent' | undefined {
  if (type.flags & ANY_TYPE_FLAG) return undefined;
  const apparent = checker.getApparentType(type);
  if (apparent.flags & ANY_TYPE_FLAG) return undefined;
  return checker.getPropertyOfType(apparent, memberName) || apparent.getStringIndexType() ? 'present' : 'absent';
}

/** What the written type says, read from its declaration (`file` is the module the type is written in). */
function presenceInTypeNode(typeNode: TSESTree.TypeNode, memberName: string, file: FileIndex): DeclaredMemberPresence {
  if (typeNode.type === AST_NODE_TYPES.TSTypeReference && originOfTypeReference(file, typeNode.typeName).kind === 'unknown') {
    return 'undeclared';
  }
  return lookUpMemberOfType(typeNode, memberName, file).presence;
}

/** The type of the parameter a factory or constructor takes the tool object as, with the module it is written in. */
function parameterTypeOf(
  call: TSESTree.CallExpression | TSESTree.NewExpression,
  argumentIndex: number,
  file: FileIndex,
): { typeNode: TSESTree.TypeNode; file: FileIndex } | undefined {
  const callee = skipTypeWrappers(call.callee);
  if (callee.type !== AST_NODE_TYPES.Identifier) return undefined;
  let parameters: readonly TSESTree.Parameter[] | undefined;
  let typeParameters: TSESTree.TSTypeParameterDeclaration | undefined;
  let declaredIn: FileIndex | undefined;
  if (call.type === AST_NODE_TYPES.NewExpression) {
    const resolved = resolveClassName(file, callee.name);
    const constructor = resolved?.classNode.body.body.find(
      (member): member is TSESTree.MethodDefinition => member.type === AST_NODE_TYPES.MethodDefinition && member.kind === 'constructor',
    );
    parameters = constructor?.value.params;
    declaredIn = resolved?.file;
  } else {
    const resolved = resolveLocalName(file, callee.name);
    parameters = resolved?.fn.params;
    typeParameters = resolved?.fn.typeParameters;
    declaredIn = resolved?.file;
  }
  let parameter = parameters?.[argumentIndex];
  if (parameter?.type === AST_NODE_TYPES.TSParameterProperty) parameter = parameter.parameter;
  if (parameter?.type === AST_NODE_TYPES.AssignmentPattern) parameter = parameter.left as TSESTree.Parameter;
  let typeNode = parameter && 'typeAnnotation' in parameter ? parameter.typeAnnotation?.typeAnnotation : undefined;
  if (!typeNode || !declaredIn) return undefined;
  // `buildTool<T extends ToolSpec>(definition: T)`: the constraint is what the object must fit.
  if (typeNode.type === AST_NODE_TYPES.TSTypeReference && typeNode.typeName.type === AST_NODE_TYPES.Identifier) {
    const name = typeNode.typeName.name;
    const typeParameter = typeParameters?.params.find((candidate) => candidate.name.name === name);
    if (typeParameter) {
      if (!typeParameter.constraint) return undefined;
      typeNode = typeParameter.constraint;
    }
  }
  return { typeNode, file: declaredIn };
}

/**
 * Does the declared type of this tool object have a member `memberName`?
 * The declared type is the one written for the object (`const t: Tool = {…}`,
 * `satisfies`, an array's element type) or, for an object handed to the
 * harness's own factory or constructor, that parameter's type. With type
 * information the checker answers; without it (or where it sees only
 * `any`), the type's declaration is read: in the file, or in the module it
 * is imported from.
 */
export function declaredTypeMemberOf(
  object: TSESTree.ObjectExpression,
  memberName: string,
  file: FileIndex,
  types: ProgramTypes | undefined,
): DeclaredMemberPresence {
  const typeNode = declaredTypeOfObject(object);
  if (typeNode) {
    const tsNode = types?.esTreeNodeToTSNodeMap.get(typeNode);
    const checker = tsNode ? types!.checker() : undefined;
    const byChecker = checker ? presenceInType(checker.getTypeFromTypeNode(tsNode as ts.TypeNode), memberName, checker) : undefined;
    return byChecker ?? presenceInTypeNode(typeNode, memberName, file);
  }
  const call = object.parent;
  if (call?.type !== AST_NODE_TYPES.CallExpression && call?.type !== AST_NODE_TYPES.NewExpression) return 'undeclared';
  const argumentIndex = call.arguments.findIndex((argument) => skipTypeWrappers(argument) === object);
  if (argumentIndex === -1) return 'undeclared';
  const parameter = parameterTypeOf(call, argumentIndex, file);
  const bySyntax = parameter ? presenceInTypeNode(parameter.typeNode, memberName, parameter.file) : 'undeclared';
  // A parameter type the declaration does not show (a package's, a mapped type): its contextual type, when the checker has one.
  const tsObject = bySyntax === 'unknown' ? types?.esTreeNodeToTSNodeMap.get(object) : undefined;
  const contextual = tsObject ? types!.checker().getContextualType(tsObject as ts.Expression) : undefined;
  return (contextual && presenceInType(contextual, memberName, types!.checker())) || bySyntax;
}
