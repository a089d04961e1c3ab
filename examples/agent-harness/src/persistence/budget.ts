import type { QuerySource } from '../agent/query-source.js';
import type { Tool } from '../tools/tool.js';
import { buildPersistedOutputMessage, maybePersistLargeResult, PREVIEW_CHARS, toolResultsDir } from './persist.js';
import type { ContentReplacementState, ReplacementRecord } from './state.js';
import { getEffectivePersistenceThreshold } from './threshold.js';

export interface ToolResultBlock {
  toolUseId: string;
  toolName: string;
  content: string;
}

export interface BudgetContext {
  projectDir: string;
  sessionId: string;
  querySource: QuerySource;
  tools: ReadonlyMap<string, Tool>;
  perMessageLimit: number;
  recordReplacement?: (record: ReplacementRecord) => void;
}

/**
 * Keeps one user message (the tool results of a turn) under the per-message
 * budget by persisting the largest results and showing previews instead.
 */
export async function applyToolResultBudget(
  blocks: readonly ToolResultBlock[],
  state: ContentReplacementState,
  context: BudgetContext,
): Promise<ToolResultBlock[]> {
  const output: ToolResultBlock[] = [];
  const fresh: ToolResultBlock[] = [];

  for (const block of blocks) {
    const frozen = state.replacements.get(block.toolUseId);
    if (frozen !== undefined) {
      output.push({ ...block, content: frozen });
    } else if (state.seenIds.has(block.toolUseId)) {
      output.push(block);
    } else {
      fresh.push(block);
      output.push(block);
    }
  }

  let messageSize = output.reduce((total, block) => total + block.content.length, 0);
  fresh.sort((left, right) => right.content.length - left.content.length);

  for (const block of fresh) {
    const tool = context.tools.get(block.toolName);
    if (!tool) throw new Error(`Unknown tool ${block.toolName}`);
    const threshold = getEffectivePersistenceThreshold(tool);
    const overThreshold = block.content.length > threshold;
    if (!overThreshold && messageSize <= context.perMessageLimit) {
      state.seenIds.add(block.toolUseId);
      continue;
    }

    const persisted = await maybePersistLargeResult(
      context.querySource,
      context.projectDir,
      context.sessionId,
      block.toolUseId,
      block.content,
    );
    // DEFECT (flipping fates): the seen mark only lands after the await, so a
    // concurrent pass over the same message (a retry, a streaming re-render)
    // still sees this id as fresh and persists it a second time.
    state.seenIds.add(block.toolUseId);
    if (!persisted) continue;

    const replacement = buildPersistedOutputMessage(persisted);
    state.replacements.set(block.toolUseId, replacement);
    context.recordReplacement?.({ kind: 'tool-result', toolUseId: block.toolUseId, replacement });
    messageSize += replacement.length - block.content.length;
    const index = output.findIndex((candidate) => candidate.toolUseId === block.toolUseId);
    output[index] = { ...block, content: replacement };
  }
  return output;
}

/**
 * Replays replacements that another process recorded (the desktop app syncs
 * its transcript into ours).
 */
export function adoptSyncedReplacements(
  state: ContentReplacementState,
  records: readonly ReplacementRecord[],
): void {
  for (const record of records) {
    // DEFECT (flipping fates): the replacement is stored without the seen mark; the
    // next budget pass treats the id as fresh and persists the content again.
    state.replacements.set(record.toolUseId, record.replacement);
  }
}

/**
 * Fast path for huge shell output: show the preview right away and write the
 * file in the background.
 */
export function replaceInBackground(
  state: ContentReplacementState,
  context: BudgetContext,
  block: ToolResultBlock,
): string {
  state.seenIds.add(block.toolUseId);
  const pendingWrite = maybePersistLargeResult(
    context.querySource,
    context.projectDir,
    context.sessionId,
    block.toolUseId,
    block.content,
  );
  // DEFECT (flipping fates): the preview is stored before the write it points to
  // has succeeded; if the disk is full the model is shown a path to nothing.
  const replacement = buildPersistedOutputMessage({
    filepath: `${toolResultsDir(context.projectDir, context.sessionId)}/${block.toolUseId}.txt`,
    originalSize: block.content.length,
    preview: block.content.slice(0, PREVIEW_CHARS),
  });
  state.replacements.set(block.toolUseId, replacement);
  pendingWrite.catch((error: unknown) => console.error('background persist failed', error));
  return replacement;
}
