/**
 * Object literals that are tools by their declared type: `const read: Tool =
 * {...}`, `{...} satisfies Tool`, `{...} as ToolDefinition`, a `Tool[]`
 * array, a class field typed `Tool`; in the type-checked config also by the
 * contextual type the checker gives the literal. The literal must carry an
 * invocation member; the checker is asked only about a literal that also
 * states part of a contract itself (a name, a description, an input schema).
 * Its answer is the costly part of the type-checked config: on the AI SDK's
 * sources, twenty options bags with an `execute` callback (`{ type, event,
 * execute }`) took 4.4 s of the checker, a tenth of the rules' time, and none
 * was a tool.
 */
import type { TSESTree } from '@typescript-eslint/utils';

import type { RecognitionSettings } from '../settings.js';
import { statesContractMember } from '../tool-contract.js';
import { declaredTypeNameOfObject } from '../tool-object-type.js';
import { type ToolDefinition, hasInvocationMember, isToolTypeName, objectLiteralDefinition } from './vocabulary.js';

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
  const typeName =
    declaredTypeNameOfObject(object) ?? (contextualTypeName && statesContractMember(object) ? contextualTypeName(object) : undefined);
  if (!isToolTypeName(typeName, settings)) return undefined;
  return objectLiteralDefinition('typed-object', object);
}
