/**
 * `classifyTool(tool, { reads, maxResultSizeChars, stateScope })`: one home
 * for a tool's classification in every framework. Where a framework's tool
 * type has no field for it (AI SDK `tool()`, LangChain, Mastra, OpenAI
 * Agents, MCP `server.tool`), writing `maxResultSizeChars` into the object is
 * a type error or is silently ignored; the wrapper returns the same object
 * with its own type and keeps the classification beside it, where the
 * budget reads it back. The lint rules read the wrapper's second argument,
 * so a wrapped self-reading tool counts as classified.
 */
import { type CheckedToolClassificationRecord, STATE_SCOPES, type ToolClassificationRecord } from '../types/classify-tool.js';
import { ToolClassificationError } from '../types/errors.js';
import {
  EXTERNALLY_BOUNDED_TOOL_UNBOUNDED,
  INVALID_RESULT_LIMIT,
  SELF_READING_TOOL_NOT_UNBOUNDED,
  TOOL_NOT_CLASSIFIED,
} from '../types/messages.js';
import type { PersistenceThresholdTool } from './threshold.js';

// A WeakMap, not a property: the tool object keeps its shape (frameworks
// that validate or serialise their tools see nothing new), and a tool that
// is dropped takes its classification with it.
const classifications = new WeakMap<object, Readonly<ToolClassificationRecord>>();

const READS_VALUES: ReadonlySet<unknown> = new Set(['path', 'url', 'resource', 'none']);
const STATE_SCOPE_VALUES: ReadonlySet<unknown> = new Set(STATE_SCOPES);

/**
 * Classifies `tool` and returns it unchanged (same object, same type).
 * Classifying the same tool again adds to its classification; a member given
 * again replaces the earlier value.
 *
 * @throws {ToolClassificationError} when `tool` is not an object or function,
 *   or the classification contradicts itself (a self-reading tool with a
 *   finite limit, a `reads: 'none'` tool that is UNBOUNDED, a limit that is
 *   not a number > 0, an unknown `reads` or `stateScope`).
 */
export function classifyTool<Tool extends object, const Classification extends ToolClassificationRecord>(
  tool: Tool,
  classification: CheckedToolClassificationRecord<Classification>,
): Tool {
  if ((typeof tool !== 'object' && typeof tool !== 'function') || tool === null) {
    throw new ToolClassificationError(
      'ERR_TOOL_NOT_AN_OBJECT',
      'classifyTool(tool, classification) needs the tool object the framework returned as its first argument',
    );
  }
  const merged: ToolClassificationRecord = { ...classifications.get(tool), ...pickClassification(classification) };
  checkClassification(merged, labelOf(tool, merged));
  classifications.set(tool, Object.freeze(merged));
  return tool;
}

/** The classification `classifyTool` recorded for `tool`, or `undefined` when it was never classified. */
export function getToolClassification(tool: unknown): Readonly<ToolClassificationRecord> | undefined {
  if ((typeof tool !== 'object' && typeof tool !== 'function') || tool === null) return undefined;
  return classifications.get(tool);
}

/**
 * What threshold resolution needs of a tool classified by `classifyTool`:
 * the classification's name (else the tool's own `name`, else Mastra's
 * `id`) and its `maxResultSizeChars`. `undefined` for a tool that was not
 * classified or whose classification has no limit.
 */
export function classifiedThresholdTool(tool: unknown): PersistenceThresholdTool | undefined {
  const classification = getToolClassification(tool);
  if (classification?.maxResultSizeChars === undefined) return undefined;
  const own = tool as { readonly name?: unknown; readonly id?: unknown };
  const name = classification.name ?? (typeof own.name === 'string' ? own.name : typeof own.id === 'string' ? own.id : undefined);
  if (name === undefined) {
    throw new ToolClassificationError(
      'ERR_TOOL_WITHOUT_NAME',
      'A tool classified with classifyTool has no name: pass classifyTool(tool, { name, ... }) ' +
        'with the name the model calls it by (AI SDK tools are named by their key)',
    );
  }
  return { name, maxResultSizeChars: classification.maxResultSizeChars };
}

function pickClassification(classification: unknown): ToolClassificationRecord {
  if (typeof classification !== 'object' || classification === null) {
    throw new ToolClassificationError('ERR_TOOL_NOT_CLASSIFIED', `classifyTool(tool, classification): ${TOOL_NOT_CLASSIFIED}`);
  }
  const { name, reads, maxResultSizeChars, stateScope } = classification as Record<string, unknown>;
  const picked: Record<string, unknown> = {};
  if (name !== undefined) picked['name'] = name;
  if (reads !== undefined) picked['reads'] = reads;
  if (maxResultSizeChars !== undefined) picked['maxResultSizeChars'] = maxResultSizeChars;
  if (stateScope !== undefined) picked['stateScope'] = stateScope;
  return picked as ToolClassificationRecord;
}

function labelOf(tool: object, classification: ToolClassificationRecord): string {
  const own = tool as { readonly name?: unknown; readonly id?: unknown };
  const name = classification.name ?? own.name ?? own.id;
  return typeof name === 'string' ? `Tool "${name}"` : 'A tool classified with classifyTool';
}

function checkClassification(classification: ToolClassificationRecord, label: string): void {
  const { name, reads, maxResultSizeChars, stateScope } = classification as Record<string, unknown>;
  if (name !== undefined && (typeof name !== 'string' || name === '')) {
    throw new ToolClassificationError('ERR_TOOL_WITHOUT_NAME', `${label}: the name given to classifyTool must be a non-empty string`);
  }
  if (reads !== undefined && !READS_VALUES.has(reads)) {
    throw new ToolClassificationError('ERR_TOOL_NOT_CLASSIFIED', `${label}: ${TOOL_NOT_CLASSIFIED}`);
  }
  if (stateScope !== undefined && !STATE_SCOPE_VALUES.has(stateScope)) {
    throw new ToolClassificationError(
      'ERR_TOOL_NOT_CLASSIFIED',
      `${label}: stateScope must be 'isolated', 'session' or 'agent', got ${JSON.stringify(stateScope) ?? String(stateScope)}`,
    );
  }
  if (maxResultSizeChars === undefined) {
    // A self-reading tool must say it is unbounded; a bare stateScope classification is fine.
    if (reads !== undefined && reads !== 'none') {
      throw new ToolClassificationError('ERR_SELF_READING_TOOL_NOT_UNBOUNDED', `${label}: ${SELF_READING_TOOL_NOT_UNBOUNDED}`);
    }
    return;
  }
  if (maxResultSizeChars === Number.POSITIVE_INFINITY) {
    if (reads === 'none') {
      throw new ToolClassificationError('ERR_EXTERNALLY_BOUNDED_TOOL_UNBOUNDED', `${label}: ${EXTERNALLY_BOUNDED_TOOL_UNBOUNDED}`);
    }
    return;
  }
  // Only the exact sentinel opts out: NaN, -Infinity and finite numbers all persist.
  if (reads !== undefined && reads !== 'none') {
    throw new ToolClassificationError('ERR_SELF_READING_TOOL_NOT_UNBOUNDED', `${label}: ${SELF_READING_TOOL_NOT_UNBOUNDED}`);
  }
  if (typeof maxResultSizeChars !== 'number' || !Number.isFinite(maxResultSizeChars) || maxResultSizeChars <= 0) {
    throw new ToolClassificationError('ERR_INVALID_RESULT_LIMIT', `${label}: ${INVALID_RESULT_LIMIT} (got ${String(maxResultSizeChars)})`);
  }
}
