/**
 * `settings['tool-result-guard']`: the one schema and normaliser for what the
 * rules and codemods recognise. Every list the user gives is ADDED to the
 * defaults (a team that wraps `fetch` in `httpGet` should not have to repeat
 * `fetch`), except where a `replace…` flag says otherwise.
 *
 * Other rule families extend this module with their keys: add the field to
 * `RawRecognitionSettings`, its default to `DEFAULT_RECOGNITION_SETTINGS`, and
 * one line to `normalizeRecognitionSettings`.
 */
import type { TSESLint } from '@typescript-eslint/utils';

export const SETTINGS_KEY = 'tool-result-guard';

/** A reader: a call whose argument names what is read (a path, URL or resource). */
export interface ReaderSpec {
  /**
   * The function or method name (`readFile`), or a dotted path from a module
   * import (`promises.readFile`). `default` names a module's default export
   * (`axios` itself).
   */
  name: string;
  /**
   * The module it must be imported from (`node:fs` and `fs` are the same).
   * Without it, a method or function of that name on any receiver counts.
   */
  module?: string;
  /** Which argument is the path/URL. Default 0. */
  pathArgument?: number;
  /** `url` readers get the "fixed scheme and host is an API call" exemption. */
  kind?: 'file' | 'url' | 'resource';
}

/** A reader with its defaults filled in and the module's `node:` prefix removed. */
export interface NormalizedReaderSpec {
  name: string;
  module?: string;
  pathArgument: number;
  kind: 'file' | 'url' | 'resource';
}

export interface RawRecognitionSettings {
  /** Extra tool factory callees: `makeTool`, `Tools.create`. */
  toolFactories?: string[];
  /** Extra tool base classes (besides any name ending in `Tool`). */
  toolBaseClasses?: string[];
  /** Extra tool type names for `: T` annotations and `satisfies T`. */
  toolTypeNames?: string[];
  /** Extra invocation member names (besides `call`, `execute`, …). */
  invocationNames?: string[];
  /** Extra readers: a name (any receiver) or a full `ReaderSpec`. */
  readers?: (string | ReaderSpec)[];
  /** Extra persistence calls: `persistToolResult`, `store.persist`. */
  persistenceCalls?: string[];
  /** Extra owned-session checks: `shouldPersistForSession`. */
  ownedSessionChecks?: string[];
  /** Extra override lookups (function names or dotted callees). */
  overrideLookups?: string[];
  /** Extra query-source prefixes of sessions that own a storage root (default `repl_main_thread`, `agent:`). */
  ownedQuerySourcePrefixes?: string[];
  /** Extra fork/subagent/resume callees (frozen fates). */
  forkCallees?: string[];
  /** Extra names of replacement-state variables (frozen fates). */
  stateNames?: string[];
  /** Extra names of the seen-id set on a replacement state (frozen fates; default `seenIds`). */
  seenSetNames?: string[];
  /** Extra names of the replacements map on a replacement state (frozen fates; default `replacements`). */
  replacementsMapNames?: string[];
  /** Extra clone or reconstruction functions (frozen fates; `clone…State`/`reconstruct…State` always count). */
  cloneFunctions?: string[];
  /** Extra type names that are a replacement state in type-aware mode (frozen fates). */
  stateTypeNames?: string[];
  /** Extra classes whose `new` creates a state carrier (state leakage; default `CookieJar`, `MemoryCookieStore`, `FileCookieStore`). */
  stateCarrierConstructors?: string[];
  /** Extra calls that create a state carrier (state leakage; default `fetchCookie`, `makeFetchCookie`). */
  stateCarrierFactories?: string[];
  /**
   * Extra camelCase words of a call or class that create or apply a rate limiter (state leakage;
   * default `throttle`, `throttled`, `limiter`, `bottleneck`; `rate` followed by `limit…` always counts).
   */
  rateLimiterWords?: string[];
  /** Extra methods that mutate the object they are called on (state leakage; default `set`, `add`, `push`, `delete`, `clear`, …). */
  stateMutationMethods?: string[];
  /**
   * Extra receiver names of long-lived objects a tool drives (state leakage; default `page`, `browser`,
   * `context`, `tab`, `session`, `sandbox`, `computer`, `workspace`, `stagehand`, `v3`, …).
   */
  sharedObjectNames?: string[];
  /** Extra method words that change such an object (default `goto`, `click`, `fill`, `type`, `press`, `evaluate`, `exec`, …). */
  sharedObjectMethods?: string[];
  /**
   * Extra method-name prefixes that change any object kept outside the call (default `set`, `add`, `write`,
   * `update`, `delete`, `record`, …).
   */
  stateChangingMethodPrefixes?: string[];
  /**
   * Tools (by the name the model sees) that read what is at a model-chosen location and hand it back,
   * where the code does not show it (circular persistence): the self-reading rule reports them whatever
   * the flow analysis and the contract say.
   */
  selfReadingTools?: string[];
  /**
   * Tools (by the name the model sees) that hand back nothing read from a model-chosen location, where
   * their contract reads as if they did: the self-reading rule never reports them.
   */
  nonReadingTools?: string[];
}

export interface RecognitionSettings {
  toolFactories: readonly string[];
  toolBaseClasses: readonly string[];
  toolTypeNames: readonly string[];
  invocationNames: readonly string[];
  readers: readonly NormalizedReaderSpec[];
  persistenceCalls: readonly string[];
  ownedSessionChecks: readonly string[];
  overrideLookups: readonly string[];
  ownedQuerySourcePrefixes: readonly string[];
  forkCallees: readonly string[];
  stateNames: readonly string[];
  seenSetNames: readonly string[];
  replacementsMapNames: readonly string[];
  cloneFunctions: readonly string[];
  stateTypeNames: readonly string[];
  stateCarrierConstructors: readonly string[];
  stateCarrierFactories: readonly string[];
  rateLimiterWords: readonly string[];
  stateMutationMethods: readonly string[];
  sharedObjectNames: readonly string[];
  sharedObjectMethods: readonly string[];
  stateChangingMethodPrefixes: readonly string[];
  selfReadingTools: readonly string[];
  nonReadingTools: readonly string[];
}

const FS_MODULES = ['fs', 'fs/promises', 'fs-extra', 'graceful-fs'];
const FS_READ_FUNCTIONS = [
  'readFile',
  'readFileSync',
  'createReadStream',
  'open',
  'openSync',
  'promises.readFile',
  'promises.open',
  'readJson',
  'readJsonSync',
  'readJSON',
];
const HTTP_MODULES = ['http', 'https', 'http2'];
/**
 * Request methods of HTTP client modules: a model-chosen URL fetched with any
 * of them reads the response (a `post` returns the page's body as well as a
 * `get`); whether the body comes back decides the verdict.
 */
export const REQUEST_METHODS: readonly string[] = ['get', 'post', 'put', 'patch', 'delete'];
const requestMethods = (prefix: string): string[] => REQUEST_METHODS.map((method) => `${prefix}${method}`);

function moduleReaders(modules: string[], names: string[], kind: ReaderSpec['kind']): ReaderSpec[] {
  return modules.flatMap((module) => names.map((name) => ({ module, name, kind })));
}

/**
 * The one list of default readers. Module names are written without the
 * `node:` prefix; the matcher strips it from imports.
 */
export const DEFAULT_READERS: readonly ReaderSpec[] = [
  ...moduleReaders(FS_MODULES, FS_READ_FUNCTIONS, 'file'),
  ...moduleReaders(HTTP_MODULES, ['get', 'request'], 'url'),
  ...moduleReaders(['undici'], ['request', 'fetch', 'stream'], 'url'),
  ...moduleReaders(['axios'], ['default', 'default.request', 'request', ...requestMethods('default.'), ...requestMethods('')], 'url'),
  ...moduleReaders(['got'], ['default', 'default.stream', 'got', ...requestMethods('default.')], 'url'),
  ...moduleReaders(['ky'], ['default', ...requestMethods('default.')], 'url'),
  ...moduleReaders(['node-fetch', 'cross-fetch', 'isomorphic-fetch'], ['default', 'fetch'], 'url'),
  // ofetch's `$fetch` (Nuxt and Nitro make it a global, as `fetch` is).
  ...moduleReaders(['ofetch'], ['ofetch', '$fetch', 'default'], 'url'),
  // The global `fetch` and methods anyone names after reading.
  { name: 'fetch', kind: 'url' },
  { name: '$fetch', kind: 'url' },
  { name: 'readFile', kind: 'file' },
  { name: 'readFileSync', kind: 'file' },
  { name: 'readTextFile', kind: 'file' },
  { name: 'readResource', kind: 'resource' },
  // A browser page navigated to a URL (`page.goto(url)`, Playwright and Puppeteer) loads that URL:
  // its response and the page's content afterwards are what was read.
  { name: 'goto', kind: 'url' },
  // Selenium's WebDriver navigates the same way (`driver.get(url)`, `this.driver.get(url)`): what its page shows
  // afterwards (`driver.getPageSource()`, `driver.getTitle()`) was read from the URL.
  { name: 'driver.get', kind: 'url' },
];

/** The mutating methods of JavaScript's own collections (`Map`, `Set`, arrays), which never hand back a promise. */
export const COLLECTION_METHODS: readonly string[] = [
  'set',
  'add',
  'push',
  'pop',
  'shift',
  'unshift',
  'splice',
  'delete',
  'clear',
  'sort',
  'reverse',
  'fill',
  'copyWithin',
];

export const DEFAULT_RECOGNITION_SETTINGS: RecognitionSettings = {
  // AI SDK `dynamicTool`, Genkit `ai.dynamicTool(config, fn)`, Anthropic SDK `betaTool` / `betaZodTool`, Agentic `createAIFunction`.
  toolFactories: [
    'buildTool',
    'defineTool',
    'tool',
    'createTool',
    'Tool.define',
    'dynamicTool',
    'betaTool',
    'betaZodTool',
    'createAIFunction',
  ],
  toolBaseClasses: [],
  toolTypeNames: ['Tool', 'ToolDef', 'ToolDefinition'],
  // `_call`, `_run`, `_execute`: a base class's public method hands the call to its subclass's protected one (LangChain, beeai).
  invocationNames: ['call', 'execute', 'invoke', 'run', 'handler', '_call', '_run', '_execute', 'func'],
  readers: DEFAULT_READERS.map(normalizeReader),
  persistenceCalls: ['persistToolResult', 'maybePersistLargeToolResult', 'store.persist'],
  ownedSessionChecks: ['shouldPersistForSession'],
  overrideLookups: ['getFeatureValue', 'getDynamicConfig', 'getFlag', 'variation', 'isEnabled'],
  ownedQuerySourcePrefixes: ['repl_main_thread', 'agent:'],
  forkCallees: ['fork', 'forkAgent', 'spawnSubagent', 'runSubagent', 'resume', 'resumeSession'],
  // Not `state`: too common a name (redux-saga's `fork(saga, state)`); a
  // variable named otherwise counts through its type or its `.seenIds` use.
  stateNames: ['replacementState', 'contentReplacementState'],
  seenSetNames: ['seenIds'],
  replacementsMapNames: ['replacements'],
  cloneFunctions: ['cloneReplacementState', 'reconstructReplacementState', 'structuredClone'],
  stateTypeNames: ['ReplacementState', 'ContentReplacementState'],
  stateCarrierConstructors: ['CookieJar', 'MemoryCookieStore', 'FileCookieStore'],
  // A plain HTTP client (`axios.create`, `ky.extend`, `new …Client`) is configuration, not
  // state: only one built around a cookie jar or a rate limiter carries something between calls.
  stateCarrierFactories: ['fetchCookie', 'makeFetchCookie'],
  // A rate limiter's counter persists: a later call spends from what earlier calls left
  // (`pThrottle`, `throttleKy`, `RateLimiter`, `Bottleneck`). Not `limit`: `pLimit` only
  // queues the calls running at once, and nothing of it outlives them.
  rateLimiterWords: ['throttle', 'throttled', 'limiter', 'bottleneck'],
  stateMutationMethods: [...COLLECTION_METHODS, 'setCookie', 'setCookieSync', 'removeAllCookies', 'removeAllCookiesSync'],
  // Objects that outlive the call and that a tool drives without creating them: a browser
  // page it navigates, a sandbox or desktop it types into, a workspace it indexes.
  sharedObjectNames: [
    'page',
    'browser',
    'context',
    'browserContext',
    'tab',
    'frame',
    'session',
    'stagehand',
    'v3',
    'sandbox',
    'computer',
    'desktop',
    'workspace',
    'terminal',
    // A code interpreter or notebook kernel keeps the variables, imports and files one call leaves
    // behind for the next (`interpreter.executeCode(…)`). Not `repl`: a CLI's REPL wrapper
    // (`herokuRepl.executeCommand(…)`) runs commands whose changes live in the service.
    'interpreter',
    'kernel',
    'mouse',
    'keyboard',
    'touchscreen',
    'locator',
    // A WebDriver (Selenium, WebdriverIO, Appium) drives one browser or device session: the page it
    // navigated, the frame or window it switched to, the cookies it set are what the next call finds.
    'driver',
  ],
  // Matched as a camelCase word of the method (`leftClick`, `pressKey`, `typeText`).
  sharedObjectMethods: [
    'goto',
    'navigate',
    'click',
    'dblclick',
    'tap',
    'fill',
    'type',
    'press',
    'hover',
    'check',
    'uncheck',
    'select',
    'evaluate',
    'reload',
    'back',
    'forward',
    'scroll',
    'drag',
    'drop',
    'move',
    'wheel',
    'act',
    'exec',
    'execute',
    'spawn',
    'kill',
    'write',
    'upload',
    'close',
    'focus',
    'index',
    'activate',
    'show',
    'hide',
    // Switching the tab, window, frame or dialog later calls act on (`driver.switchTo()`, `page.switchTab(…)`).
    'switch',
    // Keystrokes sent to the page (`element.sendKeys(text)`, WebdriverIO's `browser.keys([…])`).
    'keys',
    // A device a driver holds: gestures, the home button, apps launched or installed (`driver.swipe(…)`, `driver.launchApp(id)`).
    'swipe',
    'pinch',
    'rotate',
    'home',
    'launch',
    'install',
    'uninstall',
  ],
  // Matched as the first camelCase word of the method (`setApprovalMode`, `recordAgentReplayStep`).
  // `ensure…` (`context.ensureTab()`): create what is missing and keep it on the object, so the
  // first call leaves behind what the later ones find. `start…`/`stop…` (`context.startRecording()`):
  // a recording, trace or watcher left running (or ended) for the later calls. What is done to the
  // items a queue or scheduler holds (`cancelJob`, `promoteJob`, `ackJob`, `drainQueue`, `purgeDlq`,
  // `changeJobPriority`, `moveToDelayed`, `discardJob`, `compactMemory`): the next call finds them moved.
  stateChangingMethodPrefixes: [
    'set',
    'add',
    'write',
    'update',
    'delete',
    'remove',
    'insert',
    'upsert',
    'append',
    'record',
    'register',
    'unregister',
    'save',
    'store',
    'clear',
    'reset',
    'kill',
    'activate',
    'deactivate',
    'mark',
    'enqueue',
    'increment',
    'ensure',
    'start',
    'stop',
    'cancel',
    'promote',
    'discard',
    'ack',
    'drain',
    'purge',
    'compact',
    'change',
    'move',
  ],
  selfReadingTools: [],
  nonReadingTools: [],
};

function normalizeReader(reader: ReaderSpec): NormalizedReaderSpec {
  return {
    name: reader.name,
    ...(reader.module === undefined ? {} : { module: stripNodePrefix(reader.module) }),
    pathArgument: reader.pathArgument ?? 0,
    kind: reader.kind ?? 'file',
  };
}

export function stripNodePrefix(moduleName: string): string {
  return moduleName.startsWith('node:') ? moduleName.slice('node:'.length) : moduleName;
}

/** Thrown for a malformed `settings['tool-result-guard']`, naming the bad key. */
export class InvalidRecognitionSettingsError extends Error {
  readonly code = 'TRG_INVALID_SETTINGS';
  constructor(key: string, expected: string) {
    super(`settings['${SETTINGS_KEY}'].${key} must be ${expected}. Fix the ESLint config's settings; see docs/rules/README.md.`);
    this.name = 'InvalidRecognitionSettingsError';
  }
}

function stringList(raw: Record<string, unknown>, key: keyof RawRecognitionSettings): string[] {
  const value = raw[key];
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    throw new InvalidRecognitionSettingsError(key, 'an array of strings');
  }
  return value;
}

function readerList(raw: Record<string, unknown>): ReaderSpec[] {
  const value = raw.readers;
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new InvalidRecognitionSettingsError('readers', 'an array');
  return value.map((item: unknown) => {
    if (typeof item === 'string') return { name: item };
    if (typeof item === 'object' && item !== null && typeof (item as ReaderSpec).name === 'string') {
      return item as ReaderSpec;
    }
    throw new InvalidRecognitionSettingsError('readers', 'an array of names or { name, module?, pathArgument?, kind? }');
  });
}

const unique = (values: readonly string[]): string[] => [...new Set(values)];

/** Defaults plus what the user added. Pure; cached per settings object by `getRecognitionSettings`. */
export function normalizeRecognitionSettings(raw: unknown): RecognitionSettings {
  if (raw === undefined || raw === null) return DEFAULT_RECOGNITION_SETTINGS;
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw new InvalidRecognitionSettingsError('', 'an object');
  }
  const record = raw as Record<string, unknown>;
  const defaults = DEFAULT_RECOGNITION_SETTINGS;
  const merge = (key: keyof RawRecognitionSettings & keyof RecognitionSettings): string[] =>
    unique([...(defaults[key] as readonly string[]), ...stringList(record, key)]);
  return {
    toolFactories: merge('toolFactories'),
    toolBaseClasses: merge('toolBaseClasses'),
    toolTypeNames: merge('toolTypeNames'),
    invocationNames: merge('invocationNames'),
    readers: [...defaults.readers, ...readerList(record).map(normalizeReader)],
    persistenceCalls: merge('persistenceCalls'),
    ownedSessionChecks: merge('ownedSessionChecks'),
    overrideLookups: merge('overrideLookups'),
    ownedQuerySourcePrefixes: merge('ownedQuerySourcePrefixes'),
    forkCallees: merge('forkCallees'),
    stateNames: merge('stateNames'),
    seenSetNames: merge('seenSetNames'),
    replacementsMapNames: merge('replacementsMapNames'),
    cloneFunctions: merge('cloneFunctions'),
    stateTypeNames: merge('stateTypeNames'),
    stateCarrierConstructors: merge('stateCarrierConstructors'),
    stateCarrierFactories: merge('stateCarrierFactories'),
    rateLimiterWords: merge('rateLimiterWords'),
    stateMutationMethods: merge('stateMutationMethods'),
    sharedObjectNames: merge('sharedObjectNames'),
    sharedObjectMethods: merge('sharedObjectMethods'),
    stateChangingMethodPrefixes: merge('stateChangingMethodPrefixes'),
    selfReadingTools: merge('selfReadingTools'),
    nonReadingTools: merge('nonReadingTools'),
  };
}

const settingsCache = new WeakMap<object, RecognitionSettings>();

/** The normalised settings of a rule context (cached per settings object). */
export function getRecognitionSettings(context: Readonly<TSESLint.RuleContext<string, readonly unknown[]>>): RecognitionSettings {
  const raw = (context.settings as Record<string, unknown> | undefined)?.[SETTINGS_KEY];
  if (raw === undefined || raw === null || typeof raw !== 'object') return normalizeRecognitionSettings(raw);
  let cached = settingsCache.get(raw);
  if (!cached) {
    cached = normalizeRecognitionSettings(raw);
    settingsCache.set(raw, cached);
  }
  return cached;
}
