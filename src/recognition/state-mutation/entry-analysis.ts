/**
 * The entry analysis: for one tool definition, every function that runs on a
 * call (its invocation, the helpers and methods it calls, a factory's wrapper)
 * and every state it touches that outlives the call. A tool that does so
 * behaves differently on call N than on call 1, and the session can only plan
 * for it when the tool declares `stateScope`; `findDeclaredStateScope` finds
 * that declaration, `findOutlivingStateUses` what it has to cover.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import {
  type FunctionNode,
  collectBindingNames,
  containsNode,
  getStaticKeyName,
  isClassNode,
  skipChainAndTypeWrappers,
  walk,
} from '../ast.js';
import { STATE_SCOPES } from '../../types/classify-tool.js';
import { findDeclaredClassification } from '../classification.js';
import type { RecognitionContext } from '../context.js';
import { type FileIndex, requireSpecifier } from '../file-index.js';
import { type ScopeSource, foreignScopeSource } from '../foreign-scope.js';
import { type InvocationEntry, findWrappingInvocations, getInvocation } from '../invocation.js';
import { findInheritedToolMember } from '../self-reading.js';
import { toolContract } from '../tool-contract.js';
import type { RecognitionSettings } from '../settings.js';
import { type ToolDefinition, type ToolMember, getClassMethod } from '../tool-shapes/vocabulary.js';
import { describeOuterVariable, isOwnNamespaceCall, isPackageImport, outermostMember, thisBelongsTo } from './expressions.js';
import { type FunctionToAnalyse, type StateUse, stateUseMaker } from './state-use.js';
import { drivingCallOf } from './driving-calls.js';
import { undoneBeforeReturn, undoneInFinally } from './balanced-changes.js';
import { carrierFieldsOf, carrierOfVariable, handedFieldsOf, whereCreated } from './carriers.js';
import {
  PROCESS_WIDE_GLOBALS,
  changedStateIn,
  isFieldNeverRead,
  isHelperMemo,
  isRenewedCredential,
  isLazyInitialisation,
  isLogOnlyLatch,
  isNeverRead,
  isMessageCounter,
  isPendingCallEntry,
  isPendingCallTable,
  isSerialisingChain,
  isWriteTarget,
  mutationOf,
  processStateCall,
  writingNode,
} from './outer-state-mutation.js';
import { inheritedMethod } from '../base-classes.js';
import {
  calledFunction,
  callsFollowedMethod,
  graphStateUpdate,
  hiddenStateChange,
  fieldMethodEffect,
  importedHelperHandedState,
  driveLeavesNothing,
  proxyTraps,
} from './following-helpers.js';
import { sharedObjectUses } from './shared-objects.js';
import { cachingDecoratorOf } from './cached-methods.js';

const MEMBER = 'stateScope';
/** The declarable scopes: the one list the runtime and the types use too (plain data, no runtime code). */
export const STATE_SCOPE_VALUES = STATE_SCOPES;

/** What `this` is in an invocation entry, in words; `undefined` when it is not an object that outlives the call. */
function thisTarget(entry: InvocationEntry, definition: ToolDefinition): 'instance' | 'tool-object' | undefined {
  // An invocation class (gemini's createInvocation) is built anew for every call: its fields die with it.
  if (entry.invocationClass) return undefined;
  if (entry.classNode) return 'instance';
  const host = definition.host;
  if (
    host &&
    !isClassNode(host) &&
    entry.fn.type === AST_NODE_TYPES.FunctionExpression &&
    entry.fn.parent?.type === AST_NODE_TYPES.Property
  ) {
    return 'tool-object';
  }
  return undefined;
}

/** How far the rule follows same-file helpers the invocation calls (`remember(url)` → `cache.set(…)`). */
const MAX_HELPER_DEPTH = 3;

/** A factory's function around the tool's invocation: reported at the tool, named after the factory. */
interface WrapperContext {
  reportAt: TSESTree.Node;
  factory: string;
}

function analyseEntry(
  entry: InvocationEntry,
  definition: ToolDefinition,
  toolName: string,
  sourceCode: ScopeSource,
  settings: RecognitionSettings,
  file: FileIndex | undefined,
  wrapper?: WrapperContext,
): StateUse[] {
  const findings: StateUse[] = [];
  const target = wrapper ? undefined : thisTarget(entry, definition);
  // The fields the model is told it may send, when the schema is written out: any other part of the input is the harness's.
  const inputs = toolContract(definition).inputs;
  const declaredInputs = inputs.length > 0 ? new Set(inputs.map((input) => input.name)) : undefined;
  const carrierFields = target === 'instance' && entry.classNode ? carrierFieldsOf(entry.classNode, settings) : new Map<string, string>();
  const handedFields = entry.invocationClass ? handedFieldsOf(entry.invocationClass) : new Set<string>();
  const visited = new Set<FunctionNode>([entry.fn]);
  // The names the invocation takes the model's input under: handing those on hands no long-lived object.
  const inputNames = new Set(
    entry.inputParameters.flatMap((index) => (entry.fn.params[index] ? collectBindingNames(entry.fn.params[index]) : [])),
  );
  const queue: FunctionToAnalyse[] = [
    wrapper
      ? {
          fn: entry.fn,
          via: wrapper.factory,
          depth: 0,
          callSite: wrapper.reportAt,
          where: ` (in \`${wrapper.factory}\`, which wraps the invocation)`,
        }
      : { fn: entry.fn, via: undefined, depth: 0, callSite: undefined },
  ];
  const follow = (
    fn: FunctionNode | undefined,
    via: string,
    from: FunctionToAnalyse,
    call: TSESTree.Node,
    module: FunctionToAnalyse['module'] = from.module,
  ) => {
    if (!fn || visited.has(fn) || from.depth >= MAX_HELPER_DEPTH || containsNode(fn, entry.fn)) return;
    visited.add(fn);
    queue.push({ fn, via, depth: from.depth + 1, callSite: from.callSite ?? call, call, caller: from, ...(module ? { module } : {}) });
  };

  for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
    const { fn, via, callSite } = item;
    const current = item;
    // A helper of another module (handed a long-lived object) is read with that module's scopes and index.
    const itemSource = item.module?.source ?? sourceCode;
    const itemFile = item.module?.file ?? file;
    const where = item.where ?? (via === undefined ? '' : ` (in \`${via}\`, which the invocation calls)`);
    const at = (node: TSESTree.Node): TSESTree.Node => callSite ?? node;
    const report = stateUseMaker(toolName, fn, at);
    const scope = itemSource.scopeManager?.acquire(fn);
    const program = itemSource.scopeManager?.globalScope?.block;
    // A dispatcher serves many tools: only what runs in this tool's branch is its state,
    // or every tool of a low-level server would be blamed for the dispatcher's bookkeeping.
    const region = fn === entry.fn ? entry.region : undefined;
    // An argument naming an object declared outside the function (the server's `state`, a factory's
    // parameter, a module-level map): handed to a helper that changes it, it carries the change out.
    const outlivingArgument = (argument: TSESTree.Node): string | undefined => {
      if (argument.type !== AST_NODE_TYPES.Identifier) return undefined;
      const outer = scope?.through.find((reference) => reference.identifier === argument)?.resolved;
      if (!outer || isPackageImport(outer) || outer.defs[0]?.type === 'ImportBinding') return undefined;
      return describeOuterVariable(outer, fn)?.words;
    };
    // Free references of the function: everything it reaches that is declared outside it. A helper of another
    // module is followed for what it does to the object it is handed; its module's own state is asked of it where
    // it is called (`hiddenStateChange`, which knows that module's lazy set-ups and counters).
    for (const reference of item.module ? [] : (scope?.through ?? [])) {
      const identifier = reference.identifier as TSESTree.Node;
      if (identifier.type !== AST_NODE_TYPES.Identifier) continue;
      if (region && !containsNode(region, identifier)) continue;
      const variable = reference.resolved;
      if (variable === null) {
        if (!PROCESS_WIDE_GLOBALS.has(identifier.name)) continue;
        // `process.chdir(input.directory)`: every later call resolves relative paths from there.
        const processCall = processStateCall(identifier);
        if (processCall) {
          if (!undoneInFinally(fn, `process.${processCall.method}`)) {
            findings.push(
              report.mutates(
                processCall.call,
                'changes',
                `the process's ${processCall.what} (\`process.${processCall.method}()\`)${where}`,
                `process:${processCall.method}`,
              ),
            );
          }
          continue;
        }
        const mutation = undoneBeforeReturn(identifier, fn, settings) ? undefined : mutationOf(identifier, settings);
        if (mutation) {
          findings.push(
            report.mutates(
              mutation.node,
              mutation.verb,
              `the process-wide global \`${itemSource.getText(mutation.path)}\`${where}`,
              `global:${identifier.name}`,
            ),
          );
        }
        continue;
      }
      // `slots.next()` … `finally { slots.push() }`: undone before the call returns.
      if (undoneBeforeReturn(identifier, fn, settings)) continue;
      const graphUpdate = graphStateUpdate(identifier, variable, itemFile);
      if (graphUpdate) {
        findings.push(
          report.mutates(
            graphUpdate,
            'returns a LangGraph `Command` whose `update` changes',
            `the agent's graph state${where}`,
            'graph-state',
          ),
        );
        continue;
      }
      const hidden = hiddenStateChange(identifier, variable, itemFile, settings, outlivingArgument);
      if (hidden) {
        findings.push(
          report.mutates(
            hidden.node,
            hidden.action,
            `${hidden.state}${where}`,
            `hidden:${variable.name}:${variable.defs[0]?.name.range[0] ?? 0}`,
          ),
        );
        continue;
      }
      // A function of one of the package's modules, through its namespace: followed above, not judged by its name.
      if (isOwnNamespaceCall(identifier, variable)) continue;
      for (const trap of proxyTraps(variable, itemSource))
        follow(trap.fn, `the ${trap.name} trap of ${variable.name}`, current, identifier);
      const callParent = identifier.parent;
      const called =
        callParent?.type === AST_NODE_TYPES.CallExpression && callParent.callee === identifier ? calledFunction(variable) : undefined;
      if (called && callParent) {
        follow(called, variable.name, current, callParent);
        continue;
      }
      const imported =
        callParent?.type === AST_NODE_TYPES.CallExpression && callParent.callee === identifier && itemFile
          ? importedHelperHandedState(callParent, variable, itemFile, itemSource, inputNames)
          : undefined;
      if (imported && callParent) {
        follow(imported.fn, variable.name, current, callParent, imported.module);
        continue;
      }
      const outer = describeOuterVariable(variable, fn);
      if (!outer) continue;
      const stateKey = `variable:${variable.name}:${variable.defs[0]?.name.range[0] ?? 0}`;
      if (reference.isWrite()) {
        if (outer.imported || isLogOnlyLatch(variable) || isMessageCounter(variable) || isNeverRead(variable)) continue;
        if (isSerialisingChain(writingNode(identifier))) continue;
        // `screenshotModule = await import('./internal/screenshotCapture.js')`: the module loaded on first use, the same
        // module on every call (a module's own state is what its functions change, followed where they are called).
        if (loadsModule(identifier)) continue;
        // A helper that takes nothing and makes its value once: every later call gets what the first made.
        if (via !== undefined && isHelperMemo(identifier, variable, fn, settings)) continue;
        // A login's token renewed by the request helper: the connection's credential, not the tool's state.
        if (via !== undefined && isRenewedCredential(variable, toolName, fn)) continue;
        findings.push(report.mutates(writingNode(identifier), 'assigns', `${outer.words}${where}`, stateKey));
        continue;
      }
      const mutation = mutationOf(identifier, settings);
      if (mutation && (isPendingCallEntry(mutation.node) || isPendingCallTable(variable))) continue;
      // `cache.set(name, new RegExp(name))` on a miss: keyed memoisation, what a later call would have made itself.
      if (mutation && isLazyInitialisation(mutation.node, fn, settings)) continue;
      if (mutation) {
        findings.push(report.mutates(mutation.node, mutation.verb, `${outer.words}${where}`, stateKey));
        continue;
      }
      // A method of the class the variable was built from was followed above: its name adds nothing.
      // A parameter of an enclosing function (`createNavigateTool(client)`) is an object the factory was handed.
      const handedIn = variable.defs.some((definition) => definition.type === 'Parameter');
      const drive =
        isPackageImport(variable) || callsFollowedMethod(identifier, variable, itemFile)
          ? undefined
          : drivingCallOf(identifier, settings, undefined, [], handedIn);
      if (drive && !driveLeavesNothing(drive, { handedIn }, itemFile, settings)) {
        findings.push(report.drives(drive.node, drive.method, `${outer.words}${where}`, stateKey, drive.command));
        continue;
      }
      const kind = carrierOfVariable(variable, settings);
      if (kind !== undefined) {
        findings.push(report.usesCarrier(identifier, kind, variable.name, `${whereCreated(variable)}${where}`, stateKey));
      }
    }

    findings.push(...sharedObjectUses(entry, item, target, toolName, where, at, itemSource, settings, declaredInputs, itemFile));

    // An invocation class is built per call, but what its fields hold (the tool's config) is not.
    const thisKind = target ?? (entry.invocationClass ? 'invocation' : undefined);
    if (thisKind === undefined || !fn.body || item.module) continue;
    walk(region ?? fn.body, (node) => {
      if (isClassNode(node)) return false;
      if (node.type !== AST_NODE_TYPES.ThisExpression || !thisBelongsTo(node, fn)) return undefined;
      const member = node.parent;
      if (member?.type !== AST_NODE_TYPES.MemberExpression || member.object !== node) return undefined;
      const field = getStaticKeyName(member.property, member.computed) ?? '[computed]';
      // `this.helper(…)` in a class tool: follow the method, it runs on the same instance.
      if (member.parent?.type === AST_NODE_TYPES.CallExpression && member.parent.callee === member) {
        if (!entry.classNode || field === '[computed]') return undefined;
        const own = getClassMethod(entry.classNode, field);
        // `@Cache() _geocode(location)`: what it returns for this call's arguments is kept for later calls.
        const cache = own && thisKind === 'instance' && program ? cachingDecoratorOf(own, program) : undefined;
        if (cache !== undefined) {
          findings.push(
            report.mutates(
              member.parent,
              `calls \`this.${field}()\`, whose \`@${cache}\` decorator keeps what it returns in`,
              `the instance${where}`,
              `cache:${field}`,
            ),
          );
          return undefined;
        }
        if (own) {
          follow(own, `this.${field}`, current, member.parent);
          return undefined;
        }
        // A base class (often in another file) that caches a client in `this.gmail` on first use.
        const inherited = thisKind === 'instance' && file ? inheritedMethod(entry.classNode, field, file) : undefined;
        const changed = inherited ? changedStateIn(inherited.fn, inherited.file.program, settings, true) : undefined;
        if (inherited && changed !== undefined) {
          findings.push(
            report.mutates(
              member.parent,
              `calls \`this.${field}()\` (inherited from \`${inherited.className}\`), which changes`,
              `instance field \`${changed}\`${where}`,
              `this:${changed.slice('this.'.length)}`,
            ),
          );
        }
        return undefined;
      }
      if (undoneBeforeReturn(node, fn, settings)) return undefined;
      const state = thisKind === 'tool-object' ? `property \`${field}\` of the tool object` : `instance field \`this.${field}\``;
      const words = `${state}${where}`;
      const stateKey = `this:${field}`;
      if (thisKind === 'invocation') {
        if (entry.inputThisMembers.includes(field)) return undefined;
        const mutation = handedFields.has(field) ? mutationOf(node, settings) : undefined;
        if (mutation && skipChainAndTypeWrappers(mutation.path) !== node) {
          findings.push(report.mutates(mutation.node, mutation.verb, `${words}, which the tool handed to its invocation`, stateKey));
          return undefined;
        }
        const drive = drivingCallOf(node, settings);
        if (drive) findings.push(report.drives(drive.node, drive.method, words, stateKey, drive.command));
        return undefined;
      }
      const chain = outermostMember(node);
      const parent = chain.parent;
      const directWrite =
        skipChainAndTypeWrappers(chain) === member &&
        ((parent?.type === AST_NODE_TYPES.AssignmentExpression && isWriteTarget(parent.left, chain)) ||
          parent?.type === AST_NODE_TYPES.UpdateExpression);
      if (directWrite && parent) {
        // `this.ipLookupPending = lookup(ip)`, a field nothing reads back: no later call is changed by it.
        const unread =
          thisKind === 'instance' &&
          parent.type === AST_NODE_TYPES.AssignmentExpression &&
          parent.operator === '=' &&
          entry.classNode !== undefined &&
          isFieldNeverRead(entry.classNode, field, program);
        if (!unread && !isSerialisingChain(parent)) findings.push(report.mutates(parent, 'assigns', words, stateKey));
        return undefined;
      }
      const mutation = mutationOf(node, settings);
      if (mutation && skipChainAndTypeWrappers(mutation.path) !== node) {
        findings.push(report.mutates(mutation.node, mutation.verb, words, stateKey));
        return undefined;
      }
      // `this.fileManager.saveGraphToSvg(…)`: a field whose one class of the package is known is looked at for what
      // its method does, and a method that leaves nothing behind changes nothing.
      const effect =
        thisKind === 'instance' && entry.classNode && file ? fieldMethodEffect(member, entry.classNode, file, settings) : undefined;
      if (effect?.kind === 'nothing') return undefined;
      if (effect?.kind === 'changes') {
        const state = effect.state.startsWith('this.')
          ? `\`${effect.state}\` of the \`${effect.className}\` in \`this.${field}\``
          : `\`${effect.state}\``;
        findings.push(
          report.mutates(member.parent!.parent!, `calls \`this.${field}.${effect.method}()\`, which changes`, `${state}${where}`, stateKey),
        );
        return undefined;
      }
      // An object the long-lived instance keeps in a field (a server's session manager) is not
      // followed into: like one the invocation is handed, its driving verbs count by name.
      const drive = drivingCallOf(node, settings, undefined, [], thisKind === 'instance');
      if (drive) {
        findings.push(report.drives(drive.node, drive.method, words, stateKey, drive.command));
        return undefined;
      }
      const kind = carrierFields.get(field);
      if (kind !== undefined) {
        findings.push(report.usesCarrier(member, kind, `this.${field}`, `in an instance field${where}`, stateKey));
      }
      return undefined;
    });
  }
  // A dispatcher serves many tools: only what happens in this tool's branch is this tool's.
  const region = entry.region;
  return region ? findings.filter((finding) => containsNode(region, finding.node)) : findings;
}

/** `stateScope` as the tool declares it; a base class of the same file counts for its subclasses. */
/** `x = await import('./m.js')`, `x = require('m')`: `identifier` is given a module. */
function loadsModule(identifier: TSESTree.Identifier): boolean {
  const assignment = identifier.parent;
  return (
    assignment?.type === AST_NODE_TYPES.AssignmentExpression &&
    assignment.left === identifier &&
    assignment.operator === '=' &&
    requireSpecifier(assignment.right) !== undefined
  );
}

export function findDeclaredStateScope(definition: ToolDefinition, recognition: RecognitionContext): ToolMember | undefined {
  // A `classifyTool` wrapper declares it for tools whose framework type has no stateScope field.
  return findDeclaredClassification(definition, MEMBER) ?? findInheritedToolMember(definition, MEMBER, recognition);
}

/**
 * The outliving state one tool's invocation touches, one use per state and
 * function (a helper that touches `active` ten times counts once; a carrier
 * that is also mutated counts at the mutation only).
 */
export function findOutlivingStateUses(definition: ToolDefinition, recognition: RecognitionContext, sourceCode: ScopeSource): StateUse[] {
  const toolName = definition.name ?? 'anonymous tool';
  const invocation = getInvocation(definition, recognition.settings, recognition.file);
  const seenFunctions = new Set<FunctionNode>();
  const uses: StateUse[] = [];
  // A factory's function around the invocation runs on every call too (see `findWrappingInvocations`).
  const wrappers = findWrappingInvocations(definition, recognition.settings, recognition.file).map((wrapping) => {
    const entry: InvocationEntry = {
      fn: wrapping.fn,
      inputParameters: wrapping.inputParameters,
      inputThisMembers: [],
      classNode: undefined,
      invocationClass: undefined,
      file: wrapping.file,
    };
    const wrapper: WrapperContext = { reportAt: definition.reportNode, factory: wrapping.factory };
    return { entry, wrapper };
  });
  const analysed = [...invocation.entries.map((entry) => ({ entry, wrapper: undefined })), ...wrappers];
  for (const { entry, wrapper } of analysed) {
    if (seenFunctions.has(entry.fn)) continue;
    seenFunctions.add(entry.fn);
    // A tool joined by name runs functions of other files: each is analysed with its own file's scopes,
    // and what it finds there is reported at the tool (a report can only point into the linted file).
    const foreign = entry.file !== undefined && entry.file.program !== sourceCode.scopeManager?.globalScope?.block;
    const entrySource = foreign ? foreignScopeSource(entry.file!.program) : sourceCode;
    if (!entrySource) continue;
    const analysed = analyseEntry(entry, definition, toolName, entrySource, recognition.settings, entry.file ?? recognition.file, wrapper);
    const found = foreign ? analysed.map((use) => ({ ...use, node: definition.reportNode })) : analysed;
    const mutatedState = new Set(found.filter((use) => use.messageId === 'mutatesOutlivingState').map((use) => use.stateKey));
    const statesSeen = new Set<string>();
    for (const use of found) {
      if (use.messageId !== 'mutatesOutlivingState' && mutatedState.has(use.stateKey)) continue;
      const stateInFunction = `${use.messageId}:${use.function.range[0]}:${use.stateKey}`;
      if (statesSeen.has(stateInFunction)) continue;
      statesSeen.add(stateInFunction);
      uses.push(use);
    }
  }
  // The name decides only what the code leaves unknown: a change the analysis proves is the
  // report, and one unfollowed call that the name speaks for is enough to say so.
  const proven = uses.filter((use) => use.messageId !== 'drivesByContract');
  if (proven.length > 0) return proven;
  return uses.slice(0, 1);
}
