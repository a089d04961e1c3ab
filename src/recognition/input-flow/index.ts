/**
 * Does a tool's invocation read a path, URL or resource that the MODEL
 * chose? A reader counts only when its path argument derives from the
 * invocation's input: a fixed path (a module constant, a `__dirname` join)
 * is not input, and a URL whose scheme and host are fixed in code is an API
 * call, not an arbitrary read. A file path joined onto a root stays
 * arbitrary: the persisted output may live under that root.
 *
 * The analysis is a flow-insensitive taint over names, run to a fixed point
 * per function: destructuring, local variables, template strings, object
 * literals that carry input (`readResource({ uri })`), any call given input
 * (`path.resolve`, `await validatePath(args.path)`), collections filled with
 * input (`list.push(p)`), loops and array callbacks over input, local
 * closures that return input (`await withTimeout(operation())`). Calls given
 * input are followed into the function they call — in the same file, into
 * `this.method()` of the same class, into a method of a local built from a
 * class we can see (`new Processor(…).process(page, url)`), across relative
 * imports (parsed on demand, see module-graph), and, with type information,
 * wherever the type checker says the callee is declared. Each function is summarised once per
 * set of input parameters ("parameter k reaches a reader"), so a helper used
 * by twenty tools is analysed once.
 *
 * This module is the stage's entry and public API: `analyseInvocationReads`
 * answers the first half of the self-reading verdict (a self-reading tool
 * reads a model-chosen location and returns what it read: circular
 * persistence). Its concepts live beside it, one a module:
 * - taint-sources.ts: where the model's input enters a function;
 * - propagation.ts: how input spreads inside one function (the taint);
 * - fixed-locations.ts: locations the code fixes (API origins, shipped folders);
 * - reader-calls.ts, api-requests.ts: what counts as reading a location;
 * - callees.ts, type-services.ts: which function a call runs, without and with types;
 * - summaries.ts: following calls into helpers, one summary per function and input.
 */
import type { TSESTree } from '@typescript-eslint/utils';

import { type FunctionNode, containsNode } from '../ast.js';
import type { FileIndex } from '../file-index.js';
import { type Invocation, getConstructor, getConstructorInputs } from '../invocation.js';
import { reachesModel } from '../output-flow.js';
import type { ReadFinding } from './reader-calls.js';
import { analyzeFunction } from './summaries.js';
import type { FlowEnvironment } from './type-services.js';

export { type ReadFinding, type ReadStep, readsFixedLocation } from './reader-calls.js';
export { MAX_CALL_DEPTH, type ReturnedContent } from './summaries.js';
export type { FlowEnvironment, TypeServices } from './type-services.js';

/** What an invocation reads that the model chose, and whether that content comes back to the model. */
export interface InvocationReads {
  /** The read calls whose path/URL/resource derives from the model's input. */
  findings: ReadFinding[];
  /** The content of one of them reaches what the invocation returns to the model. */
  returnsContent: boolean;
}

/**
 * The read calls of an invocation whose path/URL/resource derives from the
 * model's input, each with the reader it reaches, and whether their content
 * reaches the invocation's result (display-only fields aside).
 */
export function analyseInvocationReads(invocation: Invocation, file: FileIndex, environment: FlowEnvironment): InvocationReads {
  const findings: ReadFinding[] = [];
  let returnsContent = false;
  for (const entry of invocation.entries) {
    // A tool joined by name runs functions of other files too: each is analysed in its own.
    const entryFile = entry.file ?? file;
    let thisMembers = entry.inputThisMembers;
    if (entry.invocationClass) {
      // Input of an invocation class: what its constructor derives from the parameter that got `params`.
      const constructor = getConstructor(entry.invocationClass);
      if (constructor) {
        const constructed = analyzeFunction(
          constructor,
          { parameters: getConstructorInputs(entry.invocationClass), thisMembers: [] },
          file,
          entry.invocationClass,
          environment,
          0,
        );
        thisMembers = [...new Set([...thisMembers, ...constructed.taintedThisMembers])];
        findings.push(...constructed.findings);
      }
    }
    const summary = analyzeFunction(
      entry.fn,
      { parameters: entry.inputParameters, thisMembers },
      entryFile,
      entry.classNode,
      environment,
      0,
    );
    const region = entry.region;
    // A dispatcher's other cases belong to other tools.
    const inRegion = (node: TSESTree.Node): boolean => !region || containsNode(region, node);
    findings.push(...summary.findings.filter((finding) => inRegion(finding.call)));
    returnsContent ||= summary.returned.some(({ expression, shape }) => inRegion(expression) && reachesModel(shape));
    // Or content read in this case reaches a return shared by all cases; the other cases'
    // own returns never run in this tool's call (the page `case 'navigate'` loads is not
    // what `case 'screenshot'` returns in the same call).
    const dispatcher = region?.parent;
    const inOtherCase = (node: TSESTree.Node): boolean => dispatcher !== undefined && containsNode(dispatcher, node) && !inRegion(node);
    if (region && !returnsContent) {
      returnsContent = summary.returnedFrom(region).some(({ expression, shape }) => !inOtherCase(expression) && reachesModel(shape));
    }
  }
  return { findings, returnsContent };
}

/** The read calls of an invocation whose location the model chose (empty when none). */
export function readsInputChosenResource(invocation: Invocation, file: FileIndex, environment: FlowEnvironment): ReadFinding[] {
  return analyseInvocationReads(invocation, file, environment).findings;
}

/** For rules that need it: the summary of one function for given input parameters. */
export function functionReadsParameters(
  fn: FunctionNode,
  parameters: readonly number[],
  file: FileIndex,
  environment: FlowEnvironment,
): ReadFinding[] {
  return analyzeFunction(fn, { parameters, thisMembers: [] }, file, undefined, environment, 0).findings;
}
