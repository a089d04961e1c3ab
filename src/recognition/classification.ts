/**
 * Is a declared `maxResultSizeChars` the "never persist" sentinel? `Infinity`,
 * `Number.POSITIVE_INFINITY`, `UNBOUNDED` (ours, or anyone's constant of that
 * name), or a `const` bound to one of them. Anything else — a number, a
 * computed value, a `let` — is not: the seed wants a hard, visible opt-out.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { getMemberPath, skipTypeWrappers } from './ast.js';
import type { FileIndex } from './file-index.js';

export const UNBOUNDED_NAMES = ['Infinity', 'UNBOUNDED'] as const;

export function isUnboundedValue(
  value: TSESTree.Node | null | undefined,
  file: Pick<FileIndex, 'constants'> | undefined,
  depth = 0,
): boolean {
  if (!value || depth > 4) return false;
  const target = skipTypeWrappers(value);
  if (target.type === AST_NODE_TYPES.UnaryExpression && target.operator === '+') {
    return isUnboundedValue(target.argument, file, depth + 1);
  }
  const path = getMemberPath(target);
  if (!path) return false;
  const joined = path.join('.');
  if (joined === 'Number.POSITIVE_INFINITY' || joined === 'globalThis.Infinity') return true;
  const last = path[path.length - 1]!;
  if (path.length > 1) return last === 'UNBOUNDED';
  const constant = file?.constants.get(last);
  // A local `const UNBOUNDED = 5` is judged by its value, an imported one by its name.
  if (last === 'UNBOUNDED' && constant === undefined) return true;
  if (last === 'Infinity') return true;
  return constant !== undefined && isUnboundedValue(constant, file, depth + 1);
}
