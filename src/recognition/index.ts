/**
 * The recognition core: the ONE place that knows what agent code looks like.
 * Every rule of the ESLint plugin and every codemod asks it instead of
 * matching names itself, so a new tool shape or reader is taught once.
 *
 * What it answers:
 * - **Settings** (`settings['tool-result-guard']`, `./settings.ts`): tool
 *   factories, base classes, tool type names, invocation names, readers,
 *   persistence calls, owned-session checks, override lookups, fork callees,
 *   state names — defaults plus what the user adds. Other rule families add
 *   their keys to that one schema.
 * - **Tool definitions** (`recogniseToolDefinition(node)` per node for rule
 *   listeners, `findToolDefinitions(root)` for codemods): classes with
 *   `maxResultSizeChars` or a `…Tool` base class, object literals given to
 *   `buildTool` / `defineTool` / `tool` / `createTool` / `Tool.define`
 *   (name first or not), `new DynamicStructuredTool({…})`, MCP
 *   `server.tool(…)` / `server.registerTool(name, config, handler)`, object
 *   literals typed `: Tool` / `satisfies Tool` (and, with types, by contextual
 *   type), and the SDK and harness shapes of `./tool-shapes/` (one file per
 *   family: playwright MCP, Agentic decorators, Anthropic and LangChain tool
 *   classes, tools maps, LlamaIndex, OpenAI Agents, AI SDK provider tools,
 *   `create…Tool` factories). Each comes with its name, where its classification lives (`host`)
 *   and `findToolMember(def, 'maxResultSizeChars' | 'stateScope')`, which
 *   also reads MCP's `_meta['anthropic/<member>']`.
 * - **The invocation** (`getInvocation(def, settings, file)`): the functions
 *   that run on a call, which parameters are the model's input, and for
 *   gemini-style tools the invocation class built by `createInvocation`.
 * - **Readers** (`matchReader(call, file, settings)`, `DEFAULT_READERS`):
 *   fs reads under any alias, `fetch`, http(s), undici, axios, got, ky,
 *   node-fetch, `readFile` / `readTextFile` / `readResource` on any receiver,
 *   a browser page's `goto` (the page then holds what was read).
 * - **Input flow** (`readsInputChosenResource(invocation, file, environment)`):
 *   the read calls whose path/URL/resource derives from the model's input,
 *   across helpers in the same file, relative imports and barrels (parsed
 *   once per run, summarised per function), and the type checker's answers.
 * - **Classification values** (`isUnboundedValue`): `Infinity`,
 *   `Number.POSITIVE_INFINITY`, `UNBOUNDED`, or a `const` bound to one.
 *
 * - **Replacement state** (frozen fates, `getRecognitionContext(context).replacementState`,
 *   in `./replacement-state/`): seen marks and replacement writes on the same
 *   state and id, persistence calls for an id, fork callees, clones.
 *
 * Rules start from `getRecognitionContext(context)`, which caches all of it
 * per linted file.
 */
export {
  type FunctionNode,
  type ClassNode,
  assignParents,
  collectBindingNames,
  findProperty,
  getCalleeLastName,
  getCalleeName,
  getMemberPath,
  getStaticKeyName,
  getStringValue,
  isClassNode,
  isFunctionNode,
  matchesDottedName,
  skipTypeWrappers,
  walk,
} from './ast.js';
export {
  type ClassificationMemberQuery,
  classificationHomeOf,
  findClassifyToolObjects,
  findDeclaredClassification,
  isUnboundedValue,
  toolExpressionOf,
  UNBOUNDED_NAMES,
} from './classification.js';
export { CLASSIFY_TOOL_NAME, type DeclaredMemberPresence, declaredTypeMemberOf } from './tool-object-type.js';
export { type FileRecognitionContext, type RecognitionContext, getRecognitionContext } from './context.js';
export { type FileIndex, type ImportBinding, buildFileIndex } from './file-index.js';
export {
  type FlowEnvironment,
  type ReadFinding,
  type ReadStep,
  type TypeServices,
  MAX_CALL_DEPTH,
  functionReadsParameters,
  readsInputChosenResource,
} from './input-flow/index.js';
export { type Invocation, type InvocationEntry, getConstructor, getInvocation } from './invocation.js';
export {
  type ModuleFilter,
  type ResolvedFunction,
  cachedModulePaths,
  clearModuleCache,
  loadModule,
  mayReachReader,
  resolveExportedFunction,
  resolveLocalName,
  resolveRelativeModule,
} from './module-graph.js';
export { type ReaderMatch, describeCall, matchReader } from './readers.js';
export {
  type PersistenceCall,
  type ReplacementStateRecognizer,
  type StateCollectionCall,
  CLONE_FUNCTION_PATTERN,
  FORK_CALLEE_PATTERN,
  RECONSTRUCT_FUNCTION_PATTERN,
} from './replacement-state.js';
export {
  type NormalizedReaderSpec,
  type RawRecognitionSettings,
  type ReaderSpec,
  type RecognitionSettings,
  DEFAULT_READERS,
  DEFAULT_RECOGNITION_SETTINGS,
  InvalidRecognitionSettingsError,
  SETTINGS_KEY,
  getRecognitionSettings,
  normalizeRecognitionSettings,
} from './settings.js';
export {
  type RecogniseOptions,
  findToolDefinitions,
  mayDefineTools,
  recogniseToolDefinition,
  toolDefinitionListeners,
} from './tool-definitions.js';
export { findMcpMetaObject, findToolMember } from './tool-members.js';
export {
  type ToolDefinition,
  type ToolMember,
  type ToolShape,
  MCP_META_PREFIX,
  getClassMethod,
  isToolTypeName,
} from './tool-shapes/vocabulary.js';
export {
  type SelfReadingAnalysis,
  MAX_RESULT_SIZE_MEMBER,
  RESOURCE_WORDS,
  analyseSelfReading,
  findDeclaredLimit,
  findInheritedToolMember,
} from './self-reading.js';
export {
  type StateUse,
  type StateUseKind,
  STATE_SCOPE_VALUES,
  findDeclaredStateScope,
  findOutlivingStateUses,
} from './state-mutation/index.js';
export {
  type PrefilterOptions,
  type TextTest,
  mayDefineToolsInText,
  mayForkInText,
  mayPersistForQuerySourceInText,
  mayResolveThresholdInText,
  mayTouchReplacementStateInText,
  mayWriteReplacementAndPersistInText,
  passesTextTest,
  ruleMayReport,
} from './findings-prefilter.js';
export {
  type InsertMemberOptions,
  PACKAGE_NAME,
  insertObjectProperty,
  importsPackage,
  insertToolMemberFix,
  isTypeScriptFile,
  packageImportFix,
  quoteOf,
  quoted,
  unboundedSentinelOf,
  producedFixes,
  withPackageImportFix,
} from './member-fix.js';
