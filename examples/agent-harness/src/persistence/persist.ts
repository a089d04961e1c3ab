import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { QuerySource } from '../agent/query-source.js';

export const PREVIEW_CHARS = 2_000;

export interface PersistedToolResult {
  filepath: string;
  originalSize: number;
  preview: string;
}

export function toolResultsDir(projectDir: string, sessionId: string): string {
  return path.join(projectDir, 'sessions', sessionId, 'tool-results');
}

export async function persistToolResult(
  projectDir: string,
  sessionId: string,
  toolUseId: string,
  content: string,
): Promise<PersistedToolResult> {
  const directory = toolResultsDir(projectDir, sessionId);
  await mkdir(directory, { recursive: true });
  const filepath = path.join(directory, `${toolUseId}.txt`);
  await writeFile(filepath, content, 'utf8');
  return { filepath, originalSize: content.length, preview: content.slice(0, PREVIEW_CHARS) };
}

export function buildPersistedOutputMessage(result: PersistedToolResult): string {
  return [
    '<persisted-output>',
    `Output too large (${result.originalSize} characters). Full output saved to: ${result.filepath}`,
    '',
    'Preview (first 2000 characters):',
    result.preview,
    '</persisted-output>',
  ].join('\n');
}

// DEFECT (circular persistence): a deny-list. `session_memory`, `agent_summary` and any
// ephemeral agent added next quarter still write into a storage root they do
// not own; only `repl_main_thread…` and `agent:…` should persist.
export async function maybePersistLargeResult(
  querySource: QuerySource,
  projectDir: string,
  sessionId: string,
  toolUseId: string,
  content: string,
): Promise<PersistedToolResult | undefined> {
  if (querySource !== 'compact') {
    return persistToolResult(projectDir, sessionId, toolUseId, content);
  }
  return undefined;
}
