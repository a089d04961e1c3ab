/**
 * The types of `classifyTool`: a classification that lives beside a tool
 * whose own type has no field for it (AI SDK `tool()`, LangChain, Mastra
 * `createTool`, OpenAI Agents `tool()`, an MCP `server.tool` registration).
 * The same guard as `defineTool`: a tool that reads a path, URL or resource
 * the model names must be UNBOUNDED, or its persisted result is read back
 * with the same tool (circular persistence).
 */
import type { Instruction, ResultLimitProblem, ToolReads } from './define-tool.js';

/**
 * The scopes a tool can declare (`stateScope`), narrowest first: one list for
 * the runtime (classifyTool, the state-leakage carriers and ledger) and
 * anything else that must accept the same three words. Plain data, so the
 * lint side may import it without loading runtime code.
 */
export const STATE_SCOPES = ['isolated', 'session', 'agent'] as const;

/** The `stateScope` words the lint rule, the ledger and `classifyTool` share. */
export type DeclaredStateScope = (typeof STATE_SCOPES)[number];

/** What `classifyTool` records about a tool. Every member is optional; what is given is checked. */
export interface ToolClassificationRecord {
  /** The name the model calls the tool by, when the tool object carries none (AI SDK tools are named by their key). */
  readonly name?: string;
  readonly reads?: ToolReads;
  readonly maxResultSizeChars?: number;
  readonly stateScope?: DeclaredStateScope;
}

/** A limit problem only when `reads` is given: without it there is no classification to contradict. */
type ClassificationLimitProblem<Classification> = Classification extends { readonly reads: infer Reads }
  ? ResultLimitProblem<Reads, Classification extends { readonly maxResultSizeChars: infer Limit } ? Limit : undefined>
  : never;

/** Nothing (`unknown`) for a consistent classification, else `maxResultSizeChars` typed as its instruction. */
export type ToolClassificationRecordDemands<Classification> = [ClassificationLimitProblem<Classification>] extends [never]
  ? unknown
  : { readonly maxResultSizeChars: Instruction<ClassificationLimitProblem<Classification>> };

/** The parameter type of `classifyTool`'s classification: itself plus the demands, which take no part in inference. */
export type CheckedToolClassificationRecord<Classification> = Classification & NoInfer<ToolClassificationRecordDemands<Classification>>;
