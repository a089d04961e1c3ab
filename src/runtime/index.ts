// The persistence runtime (seeds 000 and 002): one module per decision.
export { UNBOUNDED, getEffectivePersistenceThreshold, isSelfBounding } from './threshold.js';
export type { PersistenceOverrides, PersistenceThresholdTool } from './threshold.js';
export { OWNED_QUERY_SOURCE_PREFIXES, shouldPersistForSession } from './session-scope.js';
export { DIRECTORY_MODE, FILE_MODE, PREVIEW_CHARS, ToolResultStore, nodeStoreFileSystem, previewOf } from './store.js';
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
  cloneReplacementState,
  createReplacementState,
  markSeen,
  reconstructReplacementState,
  recordReplacement,
} from './replacement-state.js';
export type { CorruptRecord, ReconstructOptions, ReplacementRecord, ReplacementState } from './replacement-state.js';
export { applyToolResultBudget } from './budget.js';
export { classifiedThresholdTool, classifyTool, getToolClassification } from './classify-tool.js';
export type { ToolResultBudgetOptions, ToolResultBudgetOutcome, ToolResultInput } from './budget.js';
export {
  anthropicToolNames,
  anthropicToolResultIds,
  applyToolResultBudgetToAnthropicMessage,
  applyToolResultBudgetToOpenAIMessages,
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
  ToolNameLookup,
} from './adapters.js';
export {
  FateFrozenError,
  InvalidIdError,
  InvalidThresholdError,
  NotAReplacementStateError,
  PersistError,
  PersistedResultNotFoundError,
  ReadOnlyStateError,
  RecordCallbackError,
  ReplacementWithoutSeenMarkError,
  StateOwnershipError,
  ToolResultGuardError,
  UnclassifiedToolError,
} from './errors.js';
export type { IdKind, ToolResultGuardErrorCode } from './errors.js';
