/**
 * Driving a shared object: is a call one that changes a long-lived object it is
 * made on (`page.goto(…)`, `this.config.setApprovalMode(…)`)? A browser page or a
 * config object that one tool invocation drives is what the next invocation
 * finds, so driving it leaks state between calls. Output channels (writers,
 * loggers, responses) and observability objects only carry this call's output
 * and are left out.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { getStaticKeyName, getStringValue, skipChainAndTypeWrappers, skipTypeWrappers } from '../ast.js';
import type { RecognitionSettings } from '../settings.js';
import { nameWords, outermostMember } from './expressions.js';

/**
 * Receivers that carry output or bookkeeping of this one call (a stream writer, a logger, a
 * span, the response, an abort signal): `writer.write(…)` or `span.setAttribute(…)` on them
 * changes nothing a later call sees. Matched on the last word of the receiver's name.
 */
const OUTPUT_CHANNEL_WORDS = new Set([
  'writer',
  'stream',
  'logger',
  'log',
  'console',
  'span',
  'tracer',
  'telemetry',
  'res',
  'response',
  'reply',
  'headers',
  'params',
  'progress',
  'emitter',
  'signal',
  'controller',
  'buffer',
  'chunks',
  'output',
  'result',
  'results',
  'url',
  'parts',
  'lines',
  'errors',
  'warnings',
  // Wrappers of a disk or a remote API: what they change lives there, not in the process,
  // and is what the tool is for (a tracker saving a task file, a client updating an issue).
  'service',
  'client',
  'api',
  'sdk',
  'filesystem',
  'fs',
  'disk',
]);
/**
 * A database's handle (`db`, `database`, `memoryDb`), or a storage layer in front of one (`this.storage`,
 * `documentRepository`): the last word of its receiver's name.
 */
const DATABASE_WORDS = new Set(['db', 'database', 'storage', 'repository']);
/**
 * What a database handle does to its rows (`db.delete_entity(name)`, `database.insertRow(…)`): a row lives in the
 * database, as a file lives on disk. Connecting, attaching or switching it (`db.connect(url)`) is not this.
 */
const ROW_VERBS = new Set(['delete', 'insert', 'update', 'upsert', 'create', 'add', 'remove', 'put', 'save', 'write', 'replace']);
/** Method words that name an observability object (`setGlobalLogger`, `addSpanProcessor`, `registerTelemetry`). */
const OBSERVABILITY_WORDS = new Set(['logger', 'loggers', 'tracer', 'tracing', 'telemetry', 'span', 'spans', 'metric', 'metrics']);
/**
 * Does a name end in an observability word (`telemetry`, `span`, `requestLogger`)? What a tool records on such an
 * object (`telemetry.AndroidCount = n`) describes the call for someone else; no later call reads it back.
 */
export function namesObservability(name: string): boolean {
  return OBSERVABILITY_WORDS.has(receiverWords(name).at(-1) ?? '');
}

/** The words of a receiver's name, a bundler's numeric suffix dropped (`response2` → `response`, `memoryDb` → memory, db). */
function receiverWords(name: string): string[] {
  return nameWords(name.replace(/\d+$/, ''));
}

/** Methods of strings and arrays whose words look like a driving verb (`index`). */
const VALUE_METHODS = new Set(['indexOf', 'lastIndexOf', 'findIndex', 'findLastIndex']);
/** Methods that read a collection when called with nothing (`map.keys()`), whose words may look like a verb. */
const COLLECTION_READS = new Set(['keys', 'values', 'entries']);
/** Method words that say the change lands in a file. */
const DISK_WORDS = new Set(['file', 'files', 'dir', 'directory', 'disk']);

/**
 * First words of a method that say it changes the object it is called on: driving a page or a
 * terminal (`navigate`, `click`, `type`, `goto`), or switching a setting (`set…`, `start…`,
 * `kill…`). Asked only of objects the invocation is handed and does not create (its context,
 * a part of it), which the analysis cannot follow into: such a call counts by its name alone.
 */
const HANDED_OBJECT_VERBS = new Set([
  'navigate',
  'goto',
  'go',
  'click',
  'dblclick',
  'tap',
  'type',
  'fill',
  'press',
  'hover',
  'scroll',
  'select',
  'drag',
  'focus',
  'reload',
  'refresh',
  'back',
  'forward',
  'switch',
  'open',
  'close',
  'launch',
  'start',
  'stop',
  'kill',
  'terminate',
  'restart',
  'connect',
  'disconnect',
  'reset',
  'clear',
  'set',
  'enable',
  'disable',
  'resize',
  'attach',
  'detach',
  'activate',
  'bring',
  'accept',
  'dismiss',
  'upload',
  'install',
  'uninstall',
  // A debugger's session: stepping, continuing or pausing the program it holds (not `resume`,
  // which as often picks a saved workflow up from disk).
  'step',
  'continue',
  'pause',
]);

/**
 * `startAndWait`, `launchAndWait`: a start that waits for the end of what it started (a remote job
 * that scrapes, crawls or runs an agent and hands back its result) leaves nothing running for a
 * later call.
 */
function startsAndWaitsForTheEnd(words: readonly string[]): boolean {
  return (words[0] === 'start' || words[0] === 'launch') && words.at(-2) === 'and' && words.at(-1) === 'wait';
}

/**
 * Words after `ensure` that state a condition to hold, not a thing to make: `Accessible`, `WithinWorkspace`, `ValidPath`,
 * `NotAborted`, `Loaded` (`registry.ensureLoaded()`: data loaded once, what every later call would load the same).
 */
const CONDITION_WORD = /^(?:within|inside|valid|not|no|loaded|\w+(?:able|ible))$/;

/**
 * `workspaceScope.ensureAccessible(uri)`, `ensureWithinWorkspace(path)`: `ensure` followed by a condition
 * checks it (and throws when it fails); only `ensure` followed by a thing (`ensureSession`, `ensureBrowser`)
 * makes that thing when it is missing, which later calls find.
 */
function assertsACondition(words: readonly string[]): boolean {
  return words[0] === 'ensure' && words.length > 1 && CONDITION_WORD.test(words[1]!);
}

/** Methods that hand the object they are called on a command by its name (`bridge.send('create_frame')`, `node.sendWithParams(…)`). */
const SENDING_VERBS = new Set(['send', 'dispatch', 'execute', 'exec', 'invoke', 'call', 'request', 'emit', 'post', 'run', 'command']);
/**
 * First words of a command's name that change what the object holds: the driving verbs, and what is done to the
 * things it holds (`create_frame`, `delete_nodes`, `group_nodes`, `apply_animation_style`).
 */
const COMMAND_CHANGE_VERBS = new Set([
  ...HANDED_OBJECT_VERBS,
  ...ROW_VERBS,
  'move',
  'rename',
  'duplicate',
  'group',
  'ungroup',
  'apply',
  'reparent',
  'import',
  'append',
]);
/** A command's name as code spells it: one word or several joined (`set_text_content`, `createFrame`, `page.reload`), no spaces. */
const COMMAND_NAME = /^[A-Za-z][\w.:/-]*$/;

/**
 * `node.sendWithParams('set_text_content', …)`, `bridge.send('create_frame', …)`: a command handed by name to an
 * object the invocation is handed (a connection to an app, a plugin bridge). Principle: the command's name is the
 * verb, as a method's name is (`page.goto`); one named for a change (set…, create…, delete…) changes what the
 * object holds — the open document, the page — for the next call. Its name, when it says so; else undefined.
 */
function changingCommandOf(call: TSESTree.CallExpression, words: readonly string[]): string | undefined {
  if (!SENDING_VERBS.has(words[0] ?? '')) return undefined;
  const [first] = call.arguments;
  const command = first === undefined || first.type === AST_NODE_TYPES.SpreadElement ? undefined : getStringValue(skipTypeWrappers(first));
  if (command === undefined || !COMMAND_NAME.test(command)) return undefined;
  // `send('Page.reload')`, `send('document:create_frame')`: the verb opens the name's last segment.
  const verb = nameWords(command.split(/[.:/]/).pop() ?? '')[0];
  return verb !== undefined && COMMAND_CHANGE_VERBS.has(verb) ? command : undefined;
}

/** Verbs that drive a browser page: said of a wrapper (`client`, `service`), they still drive the page it holds. */
const PAGE_VERBS = new Set(['navigate', 'goto', 'click', 'dblclick', 'tap', 'type', 'fill', 'press', 'hover', 'scroll', 'drag', 'reload']);
/**
 * What may follow a page verb in a remote browser's method: the page or a part of it (`navigateTo`, `clickElement`,
 * `reloadPage`). Another object (`reloadConfig`, `reloadThemes` of a home-automation client) is the service's own.
 */
const PAGE_OBJECT_WORDS = new Set([
  'to',
  'page',
  'tab',
  'url',
  'element',
  'selector',
  'text',
  'key',
  'keys',
  'at',
  'by',
  'back',
  'forward',
]);
/** The words of a remote API's or service's wrapper (`client`, `browserClient`, `apiService`). */
const REMOTE_WRAPPER_WORDS = new Set(['client', 'service', 'api', 'sdk']);

export function isRemoteWrapperName(name: string): boolean {
  return REMOTE_WRAPPER_WORDS.has(receiverWords(name).at(-1) ?? '');
}

/** What is done to a transaction an object holds open between calls: begun, run in, committed, rolled back. */
const TRANSACTION_VERBS = new Set(['begin', 'start', 'open', 'commit', 'rollback', 'abort', 'end', 'execute', 'run', 'query']);

/**
 * Driving verbs a tool's own name may open with (`browser_click`, `switch_tab`, `navigate_page`,
 * `set_mode`): the tool says it drives the object it is handed. `open` (a file is opened to be
 * read), `install` and `uninstall` (a package lands on disk) and `upload` (a file goes somewhere
 * else) say nothing about an object in the process.
 */
const NAME_DRIVING_VERBS = new Set([...HANDED_OBJECT_VERBS].filter((verb) => !['open', 'install', 'uninstall', 'upload'].includes(verb)));

/**
 * The driving verb a tool's name says it performs, among its first two words (`click`
 * of `browser_click`, `switch` of `switchTab`), or undefined. Principle: what the model is
 * told a tool does is evidence where the code hands the object to something the analysis
 * cannot follow; a name that says it clicks, navigates or sets changes what the next call finds.
 */
export function drivingVerbOfName(toolName: string): string | undefined {
  return nameWords(toolName)
    .slice(0, 2)
    .find((word) => NAME_DRIVING_VERBS.has(word));
}

/** Does a receiver's name end in an output channel's or a disk or API wrapper's word (`writer`, `response2`, `fileSystem`)? */
export function isOutputChannelName(name: string): boolean {
  const words = receiverWords(name);
  const last = words.at(-1) ?? '';
  return OUTPUT_CHANNEL_WORDS.has(last) || OUTPUT_CHANNEL_WORDS.has(words.slice(-2).join(''));
}

/** Does a receiver segment name one of the shared objects (`page`, `activePage`, `browserContext`, `v3`)? */
export function namesSharedObject(segment: string, settings: RecognitionSettings): boolean {
  const lower = segment.toLowerCase();
  const words = nameWords(segment);
  const last = words[words.length - 1];
  // A bundler's rename (`tab` → `tab2`) names the same object; `v3` itself is a name.
  const unsuffixed = last?.replace(/(?<=[a-z])\d+$/, '');
  return settings.sharedObjectNames.some((name) => {
    const wanted = name.toLowerCase();
    return lower === wanted || last === wanted || unsuffixed === wanted;
  });
}

/** The names along a receiver chain, root first: `v3.context.page` → v3, context, page (`this` is left out). */
export function receiverSegments(receiver: TSESTree.Node): string[] {
  const segments: string[] = [];
  let current = skipChainAndTypeWrappers(receiver);
  for (;;) {
    if (current.type === AST_NODE_TYPES.Identifier) {
      segments.unshift(current.name);
      return segments;
    }
    if (current.type === AST_NODE_TYPES.MemberExpression) {
      const name = getStaticKeyName(current.property, current.computed);
      if (name !== undefined) segments.unshift(name);
      current = skipChainAndTypeWrappers(current.object);
      continue;
    }
    if (current.type === AST_NODE_TYPES.CallExpression) {
      current = skipChainAndTypeWrappers(current.callee);
      continue;
    }
    if (current.type === AST_NODE_TYPES.AwaitExpression) {
      current = skipChainAndTypeWrappers(current.argument);
      continue;
    }
    return segments;
  }
}

/**
 * A call that changes a long-lived object rooted at `root`: a state-changing method
 * (`v3.recordAgentReplayStep(…)`, `this.config.setApprovalMode(…)`) on any such receiver, or
 * a driving verb (`page.goto`, `computer.leftClick`) on a receiver named like a shared object.
 * `aliasName` is the local name the object was taken under (`const page = await v3.context.awaitActivePage()`),
 * `sourceNames` the names it was taken through (see `SharedSource.names`).
 */
export function drivingCallOf(
  root: TSESTree.Node,
  settings: RecognitionSettings,
  aliasName?: string,
  sourceNames: readonly string[] = [],
  handedIn = false,
): { node: TSESTree.Node; method: string; receiver: TSESTree.Node; command?: string } | undefined {
  const chain = outermostMember(root);
  const call = chain.parent;
  if (call?.type !== AST_NODE_TYPES.CallExpression || call.callee !== chain) return undefined;
  const member = skipChainAndTypeWrappers(chain);
  if (member.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const method = getStaticKeyName(member.property, member.computed);
  if (method === undefined) return undefined;
  const segments = receiverSegments(member.object);
  if (aliasName !== undefined && segments.length === 0) segments.push(aliasName);
  const last = segments[segments.length - 1] ?? aliasName;
  // `text.indexOf(…)`: a string's or array's own method, whose words only look like a verb.
  if (VALUE_METHODS.has(method)) return undefined;
  // `session.modelStats.keys()`: a collection's keys read, not keystrokes sent (`browser.keys(['Enter'])` is handed them).
  if (COLLECTION_READS.has(method) && call.arguments.length === 0) return undefined;
  const words = nameWords(method);
  const first = words[0];
  // A bundler's rename (`response` → `response2`) names the same channel; `fileSystem` is a `filesystem`.
  if (last !== undefined && isOutputChannelName(last)) {
    // `apiClient.clearCardsListCache()`, `client.invalidateCache()`: a cache is the client's own, kept in the
    // process between calls, whatever service it fronts; clearing or filling it changes what the next call gets.
    if (
      first !== undefined &&
      words.includes('cache') &&
      (first === 'invalidate' || settings.stateChangingMethodPrefixes.includes(first))
    ) {
      return { node: call, method, receiver: member.object };
    }
    // `client.navigate(params)`, `browserClient.click(selector)`: a wrapper handed in whose method drives a
    // page (AgentCore's `PlaywrightBrowser`): the page it holds is what the next call finds, wherever the browser runs.
    return handedIn &&
      first !== undefined &&
      PAGE_VERBS.has(first) &&
      (words.length === 1 || PAGE_OBJECT_WORDS.has(words[1]!)) &&
      isRemoteWrapperName(last)
      ? { node: call, method, receiver: member.object }
      : undefined;
  }
  if (first !== undefined && ROW_VERBS.has(first) && last !== undefined && DATABASE_WORDS.has(receiverWords(last).at(-1) ?? '')) {
    return undefined;
  }
  // `registry.setGlobalLogger(…)`, `tracer.addSpanProcessor(…)`: where log lines and traces go.
  // Principle: observability objects (loggers, tracers, telemetry, metrics) are not tool state;
  // swapping one changes what is recorded about later calls, not what they do or return.
  if (words.slice(1).some((word) => OBSERVABILITY_WORDS.has(word))) return undefined;
  // `agent.writeTextFile(…)`, `store.deleteFile(…)`: a file lives on disk, not in the process
  // (a shared sandbox's files are still caught below, by the receiver's name).
  const onDisk = words.some((word) => DISK_WORDS.has(word));
  if (startsAndWaitsForTheEnd(words) || assertsACondition(words)) return undefined;
  if (first !== undefined && words.length > 1 && !onDisk && settings.stateChangingMethodPrefixes.includes(first)) {
    return { node: call, method, receiver: member.object };
  }
  // A command named for a change, handed by name to an object the invocation is handed (`node.sendWithParams('set_fill')`).
  const command = handedIn ? changingCommandOf(call, words) : undefined;
  if (command !== undefined) return { node: call, method, receiver: member.object, command };
  // An object the invocation is handed (its context, a page the harness keeps) and cannot follow into:
  // a method whose first word changes an object (`navigate`, `click`, `setMode`, `startServer`) drives it.
  if (handedIn && first !== undefined && !onDisk && HANDED_OBJECT_VERBS.has(first)) return { node: call, method, receiver: member.object };
  // `transactionManager.beginTransaction(connection)`, `db.commitTransaction(id)`: a transaction that one call opens,
  // runs in or closes is held open by the object between calls (on any receiver the invocation does not build).
  // `transactionManager.begin(environment, pool)`: the receiver may say it holds the transaction instead.
  if (
    handedIn &&
    words.some((word) => TRANSACTION_VERBS.has(word)) &&
    (words.includes('transaction') || segments.some((segment) => /transaction/i.test(segment)))
  ) {
    return { node: call, method, receiver: member.object };
  }
  const names = [...(aliasName === undefined ? [] : [aliasName]), ...segments, ...sourceNames];
  if (words.some((word) => settings.sharedObjectMethods.includes(word)) && names.some((name) => namesSharedObject(name, settings))) {
    return { node: call, method, receiver: member.object };
  }
  return undefined;
}
