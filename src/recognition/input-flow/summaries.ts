/**
 * Following calls into helpers, with summaries. A self-reading tool rarely
 * calls the reader itself: the model's path goes through helpers, methods and
 * other modules before `readFile` gets it, and what they read comes back
 * through their returns (circular persistence needs both: a read of a
 * model-chosen location, and its content in what the tool returns).
 * `analyzeFunction` summarises one function for one set of taint sources:
 * the reads of model-chosen locations in it or in the helpers it calls
 * (followed up to MAX_CALL_DEPTH), and where their content is in what it
 * returns. Each function is summarised once per set of input parameters
 * ("parameter k reaches a reader"), so a helper used by twenty tools is
 * analysed once; `returnsInputOf` likewise summarises whether a helper
 * answers with the input it was given.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type ClassNode, type FunctionNode, collectBindingNames, containsNode, getMemberPath, shownFunctionName } from '../ast.js';
import type { FileIndex } from '../file-index.js';
import { resolveLocalName } from '../module-graph.js';
import { type ContentShape, ContentFlow, answeredExpressions, returnedExpressions, unionShapes } from '../output-flow.js';
import { handlersOfLookup } from '../handler-maps.js';
import { describeCall } from '../readers.js';
import type { RecognitionSettings } from '../settings.js';
import { type UrlCarriage, carriesModelUrl, fetchingApiRequest } from './api-requests.js';
import { resolveCallee, resolveUniqueMethod } from './callees.js';
import { type OriginScope, hasFixedOrigin, joinsOntoShippedFolder, namesShippedLocation } from './fixed-locations.js';
import { type ReturnsInput, Taint, inputFieldsOf, propagate, unitOf } from './propagation.js';
import { type ReadFinding, namedServiceRead, readerCallRead } from './reader-calls.js';
import { type TaintSources, taintParameters, taintSourcesKey } from './taint-sources.js';
import { type FlowEnvironment, resolveCalleeWithTypes } from './type-services.js';

/** How deep helper calls are followed (tool → helper → helper …). */
export const MAX_CALL_DEPTH = 6;

/** One `return` of a function and where the content read is in its value. */
export interface ReturnedContent {
  expression: TSESTree.Expression;
  shape: ContentShape | undefined;
}

export interface FunctionSummary {
  findings: ReadFinding[];
  /** `this.<member>` values that carry input after this function ran (constructors). */
  taintedThisMembers: Set<string>;
  /** Where the content of a model-chosen read (or of a content parameter) is in what the function returns. */
  returns: ContentShape | undefined;
  /** The same, per `return` (dispatcher tools keep only their own branch's). */
  returned: ReturnedContent[];
  /** Parameters (objects, arrays) this function fills with content it read. */
  filledParameters: number[];
  /**
   * Requests to a page-fetching API whose body carries input under no name we
   * can see (`post(this.baseURLs.extract, { ...params })`): reads when the
   * caller's argument names a URL (`this.extract({ urls })`).
   */
  opaqueFindings: ReadFinding[];
  /** Parameters (callbacks) this function calls with content it read (`push(line)`). */
  callbackParameters: number[];
  /**
   * What the returns carry when only the reads inside `region` count: a
   * dispatcher's case assigns `result = await handleRead(args)` and the one
   * `return result` after the switch hands it back.
   */
  returnedFrom(region: TSESTree.Node): ReturnedContent[];
}

// Per settings object: a summary depends on which calls are readers.
const summariesBySettings = new WeakMap<RecognitionSettings, WeakMap<FunctionNode, Map<string, FunctionSummary>>>();
const inProgress = new WeakMap<FunctionNode, Set<string>>();

const returnSummaries = new WeakMap<RecognitionSettings, WeakMap<FunctionNode, Map<string, boolean>>>();
const returnsInProgress = new WeakMap<FunctionNode, Set<string>>();

/**
 * Does a helper we can see answer with input? Only when one of its returns
 * carries what the call gave it: a helper that compares the model's path with
 * its own list and returns the list's entry (`allowed.find((e) => e === p)`)
 * or looks an id up in a registry answers with the code's own value.
 */
function returnsInputOf(file: FileIndex, classNode: ClassNode | undefined, settings: RecognitionSettings, depth: number): ReturnsInput {
  return (call, taint) => {
    if (depth > MAX_CALL_DEPTH || call.arguments.some((argument) => argument.type === AST_NODE_TYPES.SpreadElement)) return undefined;
    const resolved = resolveCallee(call, file, classNode, settings) ?? resolveUniqueMethod(call, file);
    if (!resolved || resolved.fn.generator) return undefined;
    const fn = resolved.fn;
    const parameters = call.arguments.flatMap((argument, index) => (taint.has(argument) ? [index] : []));
    const sameClass = getMemberPath(call.callee)?.[0] === 'this' && resolved.classNode === classNode;
    const thisMembers = sameClass ? [...taint.thisMembers].sort() : [];
    const key = `${parameters.join(',')}|${thisMembers.join(',')}`;
    let summaries = returnSummaries.get(settings);
    if (!summaries) {
      summaries = new WeakMap();
      returnSummaries.set(settings, summaries);
    }
    let byKey = summaries.get(fn);
    const cached = byKey?.get(key);
    if (cached !== undefined) return cached;
    let running = returnsInProgress.get(fn);
    if (running?.has(key)) return undefined;
    if (!running) {
      running = new Set();
      returnsInProgress.set(fn, running);
    }
    running.add(key);
    const calleeTaint = new Taint(thisMembers, returnsInputOf(resolved.file, resolved.classNode, settings, depth + 1));
    taintParameters(fn, parameters, calleeTaint);
    const unit = unitOf(fn);
    for (let round = 0; round < 50 && propagate(unit, calleeTaint); round += 1) {
      // Until nothing new is tainted.
    }
    const result = returnedExpressions(fn).some((expression) => calleeTaint.has(expression));
    running.delete(key);
    if (!byKey) {
      byKey = new Map();
      summaries.set(fn, byKey);
    }
    byKey.set(key, result);
    return result;
  };
}

/** The arguments of `call` that carry input in some fields only, with those fields. */
function argumentFields(
  call: TSESTree.CallExpression | TSESTree.NewExpression,
  taintedArguments: readonly number[],
  taint: Taint,
): ReadonlyMap<number, readonly string[]> | undefined {
  let fields: Map<number, readonly string[]> | undefined;
  for (const index of taintedArguments) {
    const inputFields = inputFieldsOf(call.arguments[index]!, taint);
    if (inputFields) (fields ??= new Map()).set(index, inputFields);
  }
  return fields;
}

/** A read a followed helper makes, seen from the call that handed it the input: the helper is the first step of its way. */
function throughHelper(
  call: TSESTree.CallExpression | TSESTree.NewExpression,
  helper: { name: string; fn: FunctionNode; file: FileIndex },
  found: ReadFinding,
): ReadFinding {
  const step = { name: helper.name || shownFunctionName(helper.fn), filePath: helper.file.filePath };
  return { call, callName: describeCall(call), reader: found.reader, readerKind: found.readerKind, via: [step, ...found.via] };
}

/** Array methods that hand each element to their callback, and answer with what it returns (or with the elements). */
const ITERATION_METHODS = new Set(['map', 'flatMap', 'forEach']);

/**
 * `paths.map(readOne)`, `images.map(resolveImageInput)` over input: the function of the package
 * (this module's or an imported one) that each element of the input is handed to. Inline
 * callbacks are the unit's own code and need no lookup.
 */
function namedIterationCallback(call: TSESTree.CallExpression | TSESTree.NewExpression, taint: Taint, file: FileIndex) {
  const callee = call.callee;
  if (call.type !== AST_NODE_TYPES.CallExpression || callee.type !== AST_NODE_TYPES.MemberExpression || callee.computed) return undefined;
  if (callee.property.type !== AST_NODE_TYPES.Identifier || !ITERATION_METHODS.has(callee.property.name)) return undefined;
  const [callback] = call.arguments;
  if (callback?.type !== AST_NODE_TYPES.Identifier || !taint.has(callee.object)) return undefined;
  return resolveLocalName(file, callback.name);
}

/** What a function hands back: its returns, and the tool results it answers through a call (`answeredExpressions`). */
function answersOf(fn: FunctionNode): TSESTree.Expression[] {
  const answered = answeredExpressions(fn);
  return answered.length === 0 ? returnedExpressions(fn) : [...returnedExpressions(fn), ...answered];
}

/** The names the parameters of `fn` at `indices` bind. */
function parameterNames(fn: FunctionNode, indices: readonly number[] | undefined): Set<string> {
  const names = new Set<string>();
  for (const index of indices ?? []) {
    for (const name of collectBindingNames(fn.params[index])) names.add(name);
  }
  return names;
}

export function analyzeFunction(
  fn: FunctionNode,
  taintSources: TaintSources,
  file: FileIndex,
  classNode: ClassNode | undefined,
  environment: FlowEnvironment,
  depth: number,
): FunctionSummary {
  const key = taintSourcesKey(taintSources);
  let summaries = summariesBySettings.get(environment.settings);
  if (!summaries) {
    summaries = new WeakMap();
    summariesBySettings.set(environment.settings, summaries);
  }
  let byKey = summaries.get(fn);
  const cached = byKey?.get(key);
  if (cached) return cached;
  let running = inProgress.get(fn);
  if (running?.has(key) || depth > MAX_CALL_DEPTH) {
    // Recursion or too deep: assume nothing rather than loop.
    return {
      findings: [],
      taintedThisMembers: new Set(taintSources.thisMembers),
      returns: undefined,
      returned: [],
      filledParameters: [],
      callbackParameters: [],
      returnedFrom: () => [],
      opaqueFindings: [],
    };
  }
  if (!running) {
    running = new Set();
    inProgress.set(fn, running);
  }
  running.add(key);

  const unit = unitOf(fn);
  const taint = new Taint(taintSources.thisMembers, returnsInputOf(file, classNode, environment.settings, depth));
  taintParameters(fn, taintSources.parameters, taint, taintSources.parameterFields);
  for (let round = 0; round < 50 && propagate(unit, taint); round += 1) {
    // Until nothing new is tainted.
  }

  const scope: OriginScope = {
    taint,
    unit,
    file,
    classNode,
    fixedOriginNames: parameterNames(fn, taintSources.fixedOriginParameters),
    shippedNames: parameterNames(fn, taintSources.shippedParameters),
  };
  const findings: ReadFinding[] = [];
  const opaqueFindings: ReadFinding[] = [];
  // Calls whose answer is content of a model-chosen read, and where in it.
  const sources = new Map<TSESTree.CallExpression | TSESTree.NewExpression, ContentShape>();
  const filledArguments = new Map<TSESTree.CallExpression | TSESTree.NewExpression, number[]>();
  const callbackArguments = new Map<TSESTree.CallExpression | TSESTree.NewExpression, number[]>();
  // Objects a read loaded the location into (`page.goto(url)`), by that read.
  const navigated = new Map<TSESTree.CallExpression | TSESTree.NewExpression, TSESTree.Expression>();
  // A request to a page-fetching API: the API's answer is the page, so the request is the read, whatever the
  // helper or client does inside (`'opaque'`: the URL is a parameter the caller filled, which decides).
  const recordApiRequest = (call: TSESTree.CallExpression | TSESTree.NewExpression, carriage: UrlCarriage): void => {
    const callName = describeCall(call);
    (carriage === 'named' ? findings : opaqueFindings).push({ call, callName, reader: callName, readerKind: 'url', via: [] });
    sources.set(call, true);
  };
  for (const call of unit.calls) {
    const direct = readerCallRead(call, scope, environment);
    if (direct !== undefined) {
      if (direct) {
        findings.push(direct.finding);
        sources.set(call, true);
        if (direct.navigated) navigated.set(call, direct.navigated);
      } else if (call.arguments.some((argument) => taint.has(argument))) {
        // `fetch('https://api…/web_fetch', { body: JSON.stringify({ url }) })`: a reader sent to a fixed origin,
        // a page-fetching endpoint asked for the model's URL: what it answers is that page.
        const apiRequest = fetchingApiRequest(call, scope, environment);
        if (apiRequest) recordApiRequest(call, apiRequest);
      }
      continue;
    }
    // `images.map(resolveImageInput)`: each element of input goes to a function of the package, named.
    const each = namedIterationCallback(call, taint, file);
    if (each) {
      const inner = analyzeFunction(each.fn, { parameters: [0], thisMembers: [] }, each.file, each.classNode, environment, depth + 1);
      if (inner.returns !== undefined) sources.set(call, inner.returns);
      const first = inner.findings[0];
      if (first) findings.push(throughHelper(call, each, first));
      continue;
    }
    // A path joined onto a folder the package ships (`getExampleContent(path.join(examplesPath, name))`) stays shipped in the helper.
    const taintedArguments = call.arguments.flatMap((argument, index) =>
      taint.has(argument) && !joinsOntoShippedFolder(argument, scope) ? [index] : [],
    );
    const isThisCall = getMemberPath(call.callee)?.[0] === 'this';
    if (taintedArguments.length === 0 && !(isThisCall && taint.thisMembers.size > 0)) continue;
    const apiRequest = taintedArguments.length > 0 ? fetchingApiRequest(call, scope, environment) : undefined;
    if (apiRequest) {
      recordApiRequest(call, apiRequest);
      continue;
    }
    const callee =
      resolveCallee(call, file, classNode, environment.settings, true, unit) ??
      (environment.types && file === environment.types.lintedFile ? resolveCalleeWithTypes(call, environment.types) : undefined);
    if (!callee) {
      // `const handler = NODE_ACTIONS[action]; handler(projectPath, args)`: any of the map's functions may run.
      const mapped = handlersOfLookup(call, file);
      if (mapped.length > 0) {
        for (const handler of mapped) {
          const inner = analyzeFunction(
            handler.fn,
            { parameters: taintedArguments, thisMembers: [] },
            handler.file,
            handler.classNode,
            environment,
            depth + 1,
          );
          const merged = unionShapes(sources.get(call), inner.returns);
          if (merged !== undefined) sources.set(call, merged);
          const first = inner.findings[0];
          if (first && !findings.some((finding) => finding.call === call)) {
            findings.push(throughHelper(call, { name: describeCall(call), fn: handler.fn, file: handler.file }, first));
          }
        }
        continue;
      }
      // An executor or service we cannot see into (`backend.read(filePath)`, `session.viewImage({ path })`):
      // its name says it reads and the model named the location. Only its content coming back makes the tool self-reading.
      const kind = namedServiceRead(call, scope, environment);
      if (kind) {
        const callName = describeCall(call);
        findings.push({ call, callName, reader: callName, readerKind: kind, via: [] });
        sources.set(call, true);
      }
      continue;
    }
    const sameClass = isThisCall && callee.classNode === classNode;
    // A URL whose origin is fixed here stays fixed in the helper; it only
    // exempts URL readers there, never file reads.
    const fixedOriginParameters = taintedArguments.filter((index) => hasFixedOrigin(call.arguments[index]!, scope, environment));
    // A folder the package ships handed beside the input (`getDocumentationStructure(docsPath, section)`): the input joined onto it stays there.
    const shippedParameters =
      taintedArguments.length > 0
        ? call.arguments.flatMap((argument, index) =>
            !taintedArguments.includes(index) && argument.type !== AST_NODE_TYPES.SpreadElement && namesShippedLocation(argument, scope)
              ? [index]
              : [],
          )
        : [];
    const inner = analyzeFunction(
      callee.fn,
      {
        parameters: taintedArguments,
        thisMembers: sameClass ? [...taint.thisMembers] : [],
        fixedOriginParameters,
        shippedParameters,
        parameterFields: argumentFields(call, taintedArguments, taint),
      },
      callee.file,
      callee.classNode,
      environment,
      depth + 1,
    );
    if (inner.returns !== undefined) sources.set(call, inner.returns);
    // `fetchMarkdownModule.fetchMarkdown(args.url, …)`: the helper reads the location it is given, and its name
    // says it hands that back; a crawler's queue or callbacks inside may hide the way back from the flow.
    else if (inner.findings.length > 0 && namedServiceRead(call, scope, environment)) sources.set(call, true);
    if (inner.filledParameters.length > 0) filledArguments.set(call, inner.filledParameters);
    if (inner.callbackParameters.length > 0) callbackArguments.set(call, inner.callbackParameters);
    const first = inner.findings[0];
    if (first) {
      findings.push(throughHelper(call, callee, first));
    } else if (inner.opaqueFindings[0]) {
      // What the helper sent is what this call gave it: named for a URL here, it is a read.
      const opaque = inner.opaqueFindings[0];
      let carriage: UrlCarriage | undefined;
      for (const index of taintedArguments) {
        const carried = carriesModelUrl(call.arguments[index]!, scope);
        if (carried === 'named' || carriage === undefined) carriage = carried ?? carriage;
        if (carriage === 'named') break;
      }
      if (carriage) {
        (carriage === 'named' ? findings : opaqueFindings).push(throughHelper(call, callee, opaque));
      }
    }
  }

  let returned: ReturnedContent[] = [];
  let returns: ContentShape | undefined;
  let filledParameters: number[] = [];
  let callbackParameters: number[] = [];
  const contentParameters = taintSources.contentParameters ?? new Map<number, ContentShape>();
  const flowFrom = (readSources: ReadonlyMap<TSESTree.CallExpression | TSESTree.NewExpression, ContentShape>): ContentFlow => {
    const flow = new ContentFlow(
      unit,
      readSources,
      (call, contentArguments) => {
        // A helper given content may live in a module that reads nothing itself (`withTimeout(operation)`): parse it anyway.
        const callee =
          resolveCallee(call, file, classNode, environment.settings, false, unit) ??
          (environment.types && file === environment.types.lintedFile ? resolveCalleeWithTypes(call, environment.types) : undefined);
        if (!callee) return null;
        const sameClass = getMemberPath(call.callee)?.[0] === 'this' && callee.classNode === classNode;
        return analyzeFunction(
          callee.fn,
          {
            parameters: call.arguments.flatMap((argument, index) => (taint.has(argument) ? [index] : [])),
            thisMembers: sameClass ? [...taint.thisMembers] : [],
            contentParameters: contentArguments,
          },
          callee.file,
          callee.classNode,
          environment,
          depth + 1,
        ).returns;
      },
      filledArguments,
      callbackArguments,
    );
    flow.bindContentParameters(fn, contentParameters);
    if (navigated.size > 0) flow.bindFilled([...navigated].filter(([call]) => readSources.has(call)).map(([, page]) => page));
    return flow.run();
  };
  // What the function hands back, walked for once: the summary and each region's `returnedFrom` read it.
  let answered: TSESTree.Expression[] | undefined;
  const answers = (): TSESTree.Expression[] => (answered ??= answersOf(fn));
  // Cheap first: content can only reach the return if something here produced or received it.
  if (sources.size > 0 || filledArguments.size > 0 || callbackArguments.size > 0 || contentParameters.size > 0) {
    const flow = flowFrom(sources);
    returned = answers().map((expression) => ({ expression, shape: flow.shapeOf(expression) }));
    for (const { shape } of returned) returns = unionShapes(returns, shape);
    filledParameters = flow.filledParameters(fn, contentParameters);
    callbackParameters = flow.callbackParameters(fn);
  }
  const returnedFrom = (region: TSESTree.Node): ReturnedContent[] => {
    if (returns === undefined) return [];
    const inside = new Map([...sources].filter(([call]) => containsNode(region, call)));
    if (inside.size === 0) return [];
    const flow = flowFrom(inside);
    return answers().map((expression) => ({ expression, shape: flow.shapeOf(expression) }));
  };

  const summary: FunctionSummary = {
    // The read a verdict names is one whose answer is content (`readFile(valid)`), not a helper
    // that only sends input elsewhere and answers nothing (a telemetry `capture(event, { path })`).
    findings: sources.size > 0 ? [...findings].sort((a, b) => Number(sources.has(b.call)) - Number(sources.has(a.call))) : findings,
    taintedThisMembers: taint.thisMembers,
    returns,
    returned,
    filledParameters,
    callbackParameters,
    returnedFrom,
    opaqueFindings,
  };
  running.delete(key);
  if (!byKey) {
    byKey = new Map();
    summaries.set(fn, byKey);
  }
  byKey.set(key, summary);
  return summary;
}
