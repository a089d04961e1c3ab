/**
 * Circular persistence: is a tool self-reading? Its invocation reads content
 * from a location the model's arguments choose (a path, a URL whose origin
 * the model picks, a resource URI) — and the cycle needs more: the result
 * must carry what was read, or the model could never read a persisted result
 * back with the same tool. `analyseSelfReading` answers both halves for one
 * tool definition, plus what the tool declares, so the rule, the codemod and
 * the tool inventory give the same verdict.
 *
 * The verdict, the last stage of recognition (shape → definition and its
 * contract → flow facts → verdict), has three answers:
 * - *proven*: the flow analysis sees content from a model-chosen location
 *   reach the output — reported, whatever the contract says;
 * - *refuted*: it sees everything the model's input touches, and no read of
 *   it comes back — never reported;
 * - *unknown*: the input flows into code it cannot follow (`input-escapes.ts`)
 *   — reported when the tool's contract says it reads (`tool-contract.ts`:
 *   a location input, and a name or description that says it hands back what
 *   is there).
 * The user finishes the job with `selfReadingTools` (always report) and
 * `nonReadingTools` (never report), by the name the model sees.
 */
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { isClassNode } from './ast.js';
import { findDeclaredClassification, isUnboundedValue } from './classification.js';
import type { RecognitionContext } from './context.js';
import { type InputEscape, findInputEscapes } from './input-escapes.js';
import { type ReadFinding, analyseInvocationReads, readsFixedLocation } from './input-flow/index.js';
import { getInvocation } from './invocation.js';
import { REQUEST_METHODS } from './settings.js';
import { nameWords } from './state-mutation/expressions.js';
import { type ContractReading, contractSaysItReads, isUrlInput, toolContract } from './tool-contract.js';
import { findToolMember } from './tool-members.js';
import type { ToolDefinition, ToolMember } from './tool-shapes/vocabulary.js';

export const MAX_RESULT_SIZE_MEMBER = 'maxResultSizeChars';

/** How messages name what a reader of each kind reads. */
export const RESOURCE_WORDS: Record<ReadFinding['readerKind'], string> = {
  file: 'path',
  url: 'URL',
  resource: 'resource',
};

export interface SelfReadingAnalysis {
  /** `maxResultSizeChars` as the tool declares it, own or inherited. */
  declared: ToolMember | undefined;
  /** Declared on the tool itself (a fix edits it there), not on a base class. */
  declaredHere: boolean;
  /** The declaration is the never-persist sentinel. */
  declaresUnbounded: boolean;
  /** The first read of a model-chosen location, if any (its content may or may not reach the output). */
  read: ReadFinding | undefined;
  /** What the flow analysis answers (see the module comment). */
  answer: SelfReadingAnswer;
  /** Where the input left what the analysis follows (answer `unknown`): the first such call. */
  escape: InputEscape | undefined;
  /** What the contract says, when it says the tool reads. */
  contract: ContractReading | undefined;
  /**
   * The contract says it reads a path, but the input goes to a remote service's client: a place
   * in that service, not a location a persisted result can be at (not reported).
   */
  remoteService: boolean;
  /** A user setting that decided the verdict. */
  setting: 'selfReadingTools' | 'nonReadingTools' | undefined;
  /** The verdict: the rule reports the tool (proven; or unknown and the contract says it reads; or listed in `selfReadingTools`). */
  selfReading: boolean;
}

export type SelfReadingAnswer = 'proven' | 'refuted' | 'unknown';

/** Receiver words of a remote service's client: `gitApi`, `this.client`, `octokit`, `sdk`, `connection`. */
const REMOTE_CLIENT_WORDS = new Set(['api', 'client', 'sdk', 'octokit', 'connection']);

/** Is `callee` (`gitApi.getItemText`, `this.client.repos.get`) a method of a remote service's client? */
function isRemoteClientCall(callee: string): boolean {
  const segments = callee.split('.').filter((segment) => segment !== 'this');
  return segments.slice(0, -1).some((segment) => REMOTE_CLIENT_WORDS.has(nameWords(segment).at(-1) ?? ''));
}

/** HTTP methods: on a remote service's client (`client.post('/search', body)`), a request to that service's API. */
const HTTP_METHODS = new Set([...REQUEST_METHODS, 'request']);

/**
 * `client.post(…)` in a helper of another module: an HTTP request to the service's API, wherever it is made
 * (unlike a connection's `exec`, which may reach a machine whose files come back).
 */
function isHttpRequestOfClient(callee: string): boolean {
  return HTTP_METHODS.has(callee.split('.').at(-1) ?? '');
}

/**
 * `new SentryApiService({ host: regionUrl })`, `new GitLabClient(baseUrl)`: the input configures
 * where a remote service's client talks, a URL too. It names that service's host, not a page
 * whose content comes back.
 */
function isRemoteClientConstruction(escape: InputEscape): boolean {
  return (
    escape.node.type === AST_NODE_TYPES.NewExpression &&
    nameWords(escape.callee.split('.').at(-1) ?? '').some((word) => REMOTE_CLIENT_WORDS.has(word))
  );
}

/** A member a subclass inherits from a base class of the same file. */
export function findInheritedToolMember(
  definition: ToolDefinition,
  memberName: string,
  recognition: Pick<RecognitionContext, 'file'>,
  depth = 0,
): ToolMember | undefined {
  const host = definition.host;
  if (!host || !isClassNode(host) || depth > 5) return undefined;
  const superClass = host.superClass;
  if (superClass?.type !== AST_NODE_TYPES.Identifier) return undefined;
  const base = recognition.file.classes.get(superClass.name);
  if (!base || base === host) return undefined;
  const baseDefinition: ToolDefinition = { ...definition, node: base, host: base };
  return findToolMember(baseDefinition, memberName) ?? findInheritedToolMember(baseDefinition, memberName, recognition, depth + 1);
}

/** What a tool declares, without the flow analysis: cheap, for callers that stop at a declared sentinel. */
export function findDeclaredLimit(
  definition: ToolDefinition,
  recognition: RecognitionContext,
): Pick<SelfReadingAnalysis, 'declared' | 'declaredHere' | 'declaresUnbounded'> {
  // A `classifyTool` wrapper declares it for tools whose framework type has no such field.
  const own = findDeclaredClassification(definition, MAX_RESULT_SIZE_MEMBER);
  const declared = own ?? findInheritedToolMember(definition, MAX_RESULT_SIZE_MEMBER, recognition);
  return {
    declared,
    declaredHere: own !== undefined,
    declaresUnbounded: declared !== undefined && isUnboundedValue(declared.value, recognition.file),
  };
}

export function analyseSelfReading(
  definition: ToolDefinition,
  recognition: RecognitionContext,
  declaration = findDeclaredLimit(definition, recognition),
): SelfReadingAnalysis {
  // A confirmation method reads only to show the user what the call will do.
  const all = getInvocation(definition, recognition.settings, recognition.file);
  const invocation = { entries: all.entries.filter((entry) => !entry.confirmation) };
  // The contract is made of literals: read it first, it costs almost nothing.
  const contract = contractSaysItReads(toolContract(definition));
  const { settings } = recognition;
  const name = definition.name;
  const { findings, returnsContent } = analyseInvocationReads(invocation, recognition.file, recognition.environment);
  const [read] = findings;
  // A read whose content never comes back (an edit, a count, an upload) cannot be read back from a persisted result.
  const proven = read !== undefined && returnsContent;
  // A reader the analysis recognises is followed (what it reads is tracked to the output), so
  // handing it the input is no escape: a read whose content provably stays out is refuted.
  // So is a reader whose location the analysis found the code fixes (a shipped folder, an entry named by its id).
  const escapes = proven
    ? []
    : findInputEscapes(invocation, recognition.file).filter(
        // (the reader at the end of a followed helper, `fetchImpl(url)` → `fetch(url)`, is that same read)
        (escape) =>
          !findings.some((finding) => finding.call === escape.node || finding.reader === escape.callee) && !readsFixedLocation(escape.node),
      );
  // No invocation found (a handler the analysis cannot resolve, a tool the harness runs elsewhere): the
  // input goes where nothing is seen, so nothing is refuted.
  const answer: SelfReadingAnswer = proven ? 'proven' : escapes.length > 0 || invocation.entries.length === 0 ? 'unknown' : 'refuted';
  // A path handed to a remote service's client (`gitApi.getItemText(repo, path)`) names a place in that
  // service, an origin the code fixes; a URL handed to one (`client.scrape({ url })`) names anywhere,
  // unless it builds the client (`new SentryApiService({ host: regionUrl })`): then it is the service's host.
  // Only the tool's own calls say so: a connection deep in an imported helper (an SSH session's `exec`) may
  // be how the tool reaches a machine whose files it hands back.
  const remoteService =
    answer === 'unknown' &&
    contract !== undefined &&
    escapes.some(
      (escape) =>
        (!escape.inImportedHelper || isHttpRequestOfClient(escape.callee)) &&
        ((!isUrlInput(contract.input) && isRemoteClientCall(escape.callee)) || isRemoteClientConstruction(escape)),
    );
  // The flow found the model's location read, but lost its content in a service (`describeImage({ images: resolved })`):
  // the contract, which the model reads too, may say the tool hands that back ("Analyze and describe one or more images").
  const contractOrFound =
    contract ??
    (answer === 'unknown' && read !== undefined
      ? contractSaysItReads(toolContract(definition), {
          kind: read.readerKind === 'url' ? 'url' : 'file',
          shown: `\`${[...read.via.map((step) => step.name), read.reader].join(' → ')}\``,
        })
      : undefined);
  const base = { ...declaration, read, answer, escape: escapes[0], contract: contractOrFound, remoteService };
  if (name !== undefined && settings.nonReadingTools.includes(name)) return { ...base, setting: 'nonReadingTools', selfReading: false };
  if (name !== undefined && settings.selfReadingTools.includes(name)) return { ...base, setting: 'selfReadingTools', selfReading: true };
  return { ...base, setting: undefined, selfReading: proven || (answer === 'unknown' && contractOrFound !== undefined && !remoteService) };
}
