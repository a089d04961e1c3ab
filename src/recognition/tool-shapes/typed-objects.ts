/**
 * Object literals that are tools by their declared type: `const read: Tool =
 * {...}`, `{...} satisfies Tool`, `{...} as ToolDefinition`, a `Tool[]`
 * array, a class field typed `Tool`; in the type-checked config also by the
 * contextual type the checker gives the literal. The literal must carry an
 * invocation member.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import type { RecognitionSettings } from '../settings.js';
import { type ToolDefinition, hasInvocationMember, isToolTypeName, objectLiteralDefinition } from './vocabulary.js';

function typeReferenceName(typeNode: TSESTree.TypeNode | undefined): string | undefined {
  if (!typeNode) return undefined;
  if (typeNode.type === AST_NODE_TYPES.TSTypeReference) {
    const name = typeNode.typeName;
    if (name.type === AST_NODE_TYPES.Identifier) {
      // `Array<Tool>`: the element type names the tool.
      if ((name.name === 'Array' || name.name === 'ReadonlyArray') && typeNode.typeArguments?.params[0]) {
        return typeReferenceName(typeNode.typeArguments.params[0]);
      }
      return name.name;
    }
    if (name.type === AST_NODE_TYPES.TSQualifiedName) return name.right.name;
    return undefined;
  }
  if (typeNode.type === AST_NODE_TYPES.TSArrayType) return typeReferenceName(typeNode.elementType);
  if (typeNode.type === AST_NODE_TYPES.TSTypeOperator) return typeReferenceName(typeNode.typeAnnotation);
  return undefined;
}

function declaredTypeName(object: TSESTree.ObjectExpression): string | undefined {
  let child: TSESTree.Node = object;
  let parent = object.parent;
  // `[{…}, {…}]` typed `Tool[]`: climb out of the array.
  if (parent?.type === AST_NODE_TYPES.ArrayExpression) {
    child = parent;
    parent = parent.parent;
  }
  if (!parent) return undefined;
  if (
    (parent.type === AST_NODE_TYPES.TSSatisfiesExpression || parent.type === AST_NODE_TYPES.TSAsExpression) &&
    parent.expression === child
  ) {
    return typeReferenceName(parent.typeAnnotation);
  }
  if (parent.type === AST_NODE_TYPES.VariableDeclarator && parent.init === child) {
    return typeReferenceName(parent.id.typeAnnotation?.typeAnnotation);
  }
  if (parent.type === AST_NODE_TYPES.PropertyDefinition && parent.value === child) {
    return typeReferenceName(parent.typeAnnotation?.typeAnnotation);
  }
  return undefined;
}

/**
 * Is this object literal a tool by its type? Syntactic annotation first;
 * `contextualTypeName` (type-aware mode) is asked only when that fails.
 */
export function recogniseTypedObject(
  object: TSESTree.ObjectExpression,
  settings: RecognitionSettings,
  contextualTypeName: ((node: TSESTree.ObjectExpression) => string | undefined) | undefined,
  configuresRecognisedCall: (object: TSESTree.ObjectExpression) => boolean,
): ToolDefinition | undefined {
  if (!hasInvocationMember(object, settings)) return undefined;
  // Objects handed to a factory or constructor are recognised there (the registry knows which).
  if (configuresRecognisedCall(object)) return undefined;
  const typeName = declaredTypeName(object) ?? contextualTypeName?.(object);
  if (!isToolTypeName(typeName, settings)) return undefined;
  return objectLiteralDefinition('typed-object', object);
}
