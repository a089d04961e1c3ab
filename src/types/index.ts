export type {
  Brand,
  FiniteResultLimit,
  ForkableState,
  LiveState,
  OwnedQuerySource,
  PersistedPreview,
  SeenId,
  Unbounded,
} from './brands.js';
export {
  assertToolClassification,
  defineTool,
  type CheckedToolDefinition,
  type Instruction,
  type ResultLimitProblem,
  type SelfReadingKind,
  type ToolClassification,
  type ToolClassificationDemands,
  type ToolReads,
} from './define-tool.js';
export { SessionNotOwnedError, ToolClassificationError, type ToolClassificationErrorCode } from './errors.js';
export type { ForkEntryPoint, ForkOptions } from './fork.js';
export { persistForOwnedSession, requireOwnedSession, type OwnedQuerySourceArgument } from './owned-session.js';
export type { PersistedResultArgument } from './replacement.js';
export type { ClassifiedTool, PersistableTool, SelfReadingTool } from './tool-interfaces.js';
export type {
  CheckedToolClassificationRecord,
  DeclaredStateScope,
  ToolClassificationRecord,
  ToolClassificationRecordDemands,
} from './classify-tool.js';
