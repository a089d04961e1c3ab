// The persistence runtime (circular persistence and frozen fates): one module per decision.
export { UNBOUNDED, getEffectivePersistenceThreshold, isSelfBounding } from './threshold.js';
export type { PersistenceOverrides, PersistenceThresholdTool } from './threshold.js';
export { OWNED_QUERY_SOURCE_PREFIXES, shouldPersistForSession } from './session-scope.js';
export {
  DEFAULT_MAX_CONCURRENT_WRITES,
  DIRECTORY_MODE,
  FILE_HANDLE_RETRY_DELAYS_MS,
  FILE_MODE,
  PREVIEW_CHARS,
  ToolResultStore,
  nodeStoreFileSystem,
  previewOf,
} from './store.js';
export type {
  PersistedToolResult,
  StoreFileHandle,
  StoreFileSystem,
  ToolResultBudgetStore,
  ToolResultPersister,
  ToolResultStoreOptions,
} from './store.js';
export { PERSISTED_OUTPUT_TAG, formatPersistedOutput, isPersistedOutput } from './persisted-output.js';
export {
  adoptReplacementState,
  cloneReplacementState,
  createReplacementState,
  markSeen,
  reconstructReplacementState,
  recordReplacement,
} from './replacement-state.js';
export type {
  ContentFingerprint,
  CorruptRecord,
  ReconstructOptions,
  ReplacementRecord,
  ReplacementState,
  ReplacementStateViews,
} from './replacement-state.js';
export { applyToolResultBudget } from './budget.js';
export type { ToolResultBudgetOptions, ToolResultBudgetOutcome, ToolResultInput, ToolUseIdReuse } from './budget.js';
export { classifiedThresholdTool, classifyTool, getToolClassification } from './classify-tool.js';
export {
  anthropicToolNames,
  anthropicToolResultIds,
  applyToolResultBudgetToAnthropicMessage,
  applyToolResultBudgetToOpenAIMessages,
  applyToolResultBudgetToOpenAIResponsesInput,
  openAIResponsesToolCallIds,
  openAIResponsesToolNames,
  openAIToolCallIds,
  openAIToolNames,
} from './adapters.js';
export type {
  AdapterBudgetOptions,
  AnthropicBudgetOutcome,
  AnthropicContentBlock,
  AnthropicMessage,
  AnthropicTextBlock,
  AnthropicToolResultBlock,
  AnthropicToolResultContentPart,
  AnthropicToolUseBlock,
  OpenAIBudgetOutcome,
  OpenAIChatMessage,
  OpenAIContentPart,
  OpenAIToolCall,
  OpenAIToolMessage,
  OpenAIResponsesBudgetOutcome,
  OpenAIResponsesInputItem,
  OpenAIResponsesOutputPart,
  OpenAIResponsesToolCallItem,
  OpenAIResponsesToolOutputItem,
  ToolNameLookup,
} from './adapters.js';
// The session every framework integration keeps (tool-result-guard/ai-sdk,
// /openai-agents, /mcp-client); exported for harnesses with a loop of their own.
export { DEFAULT_PER_MESSAGE_LIMIT, ToolResultBudgetSession } from './integrations/session.js';
export type {
  BudgetForkOptions,
  BudgetIntegration,
  BudgetTools,
  SessionInput,
  ToolResultBudgetSessionOptions,
  UnhandledPart,
  UnhandledPartReason,
} from './integrations/session.js';
export {
  FateFrozenError,
  InvalidIdError,
  InvalidPersistedResultError,
  InvalidThresholdError,
  NotAReplacementStateError,
  PersistError,
  PersistedResultNotFoundError,
  ReadOnlyStateError,
  RecordCallbackError,
  ReplacementWithoutSeenMarkError,
  StateOwnershipError,
  StoreSymlinkError,
  ToolResultGuardError,
  UnclassifiedToolError,
  UnclassifiedToolInSetError,
} from './errors.js';
export type { IdKind, ToolResultGuardErrorCode } from './errors.js';
