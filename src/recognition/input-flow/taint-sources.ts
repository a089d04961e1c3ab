/**
 * Taint sources: where the model's input enters a function being analysed.
 * Only a location the model chose can make a tool self-reading (it reads
 * that location and returns what it read, so a persisted result can be read
 * back whole); a path the code fixes cannot. The sources are the
 * invocation's input parameters, the `this.<member>` fields that hold input,
 * parameters holding a URL whose origin a caller fixed, and parameters
 * holding content a caller read. `taintParameters` makes the parameters
 * tainted; `taintSourcesKey` names a set of sources, so a function is
 * summarised once per set.
 */
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { type FunctionNode, collectBindingNames } from '../ast.js';
import { type ContentShape, contentArgumentsKey } from '../output-flow.js';
import type { Taint } from './propagation.js';

/** Where the model's input enters a function being analysed: the taint sources. */
export interface TaintSources {
  parameters: readonly number[];
  thisMembers: readonly string[];
  /** Input parameters that hold a URL whose scheme and host the caller fixed. */
  fixedOriginParameters?: readonly number[];
  /** Parameters the caller filled with a folder the package ships (no input, but where input is joined on). */
  shippedParameters?: readonly number[];
  /** Parameters that hold content a caller read (a formatter given the text): does it reach the return? */
  contentParameters?: ReadonlyMap<number, ContentShape>;
  /**
   * Input parameters given an object of which only these fields carry input: the caller wrote it
   * out (`textToSpeech({ text, cfg, channel })` with only `text` the model's), so `params.cfg` is not.
   */
  parameterFields?: ReadonlyMap<number, readonly string[]>;
}

/** A stable text for a set of taint sources: the key of a function's summary for them. */
export function taintSourcesKey(sources: TaintSources): string {
  const fixed = [...(sources.fixedOriginParameters ?? [])].sort().join(',');
  const shipped = [...(sources.shippedParameters ?? [])].sort().join(',');
  const content = contentArgumentsKey(sources.contentParameters);
  const fields = [...(sources.parameterFields ?? [])]
    .sort(([a], [b]) => a - b)
    .map(([index, names]) => `${index}:${[...names].sort().join('+')}`)
    .join(',');
  return `${[...sources.parameters].sort().join(',')}|${[...sources.thisMembers].sort().join(',')}|${fixed}|${content}|${fields}|${shipped}`;
}

/**
 * Taints the input parameters of `fn` (what they bind, and the field of a constructor's parameter
 * property); a parameter given an object with only some fields of input (`fields`) carries only those.
 */
export function taintParameters(
  fn: FunctionNode,
  parameters: readonly number[],
  taint: Taint,
  fields?: ReadonlyMap<number, readonly string[]>,
): void {
  for (const index of parameters) {
    const parameter = fn.params[index];
    if (!parameter) continue;
    const inputFields = fields?.get(index);
    if (inputFields && taint.addFields(parameter, inputFields)) continue;
    taint.addPattern(parameter);
    if (parameter.type === AST_NODE_TYPES.TSParameterProperty) {
      // `constructor(private readonly params: P)`: the field is input too.
      const name = collectBindingNames(parameter.parameter)[0];
      if (name !== undefined) taint.thisMembers.add(name);
    }
  }
}
