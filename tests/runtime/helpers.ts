import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import type { PersistedToolResult, ToolResultPersister } from '../../src/index.js';
import { formatPersistedOutput, previewOf } from '../../src/index.js';
import type { PersistedPreview } from '../../src/types/index.js';

const temporaryRoots: string[] = [];

afterEach(() => {
  for (const root of temporaryRoots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A fresh folder under the OS temp dir, removed after the test. */
export function makeTemporaryRoot(prefix = 'trg-runtime-'): string {
  const root = mkdtempSync(path.join(tmpdir(), prefix));
  temporaryRoots.push(root);
  return root;
}

/**
 * An in-memory persister that counts calls per id. `gate` (when given) holds
 * every persist until released, to observe pending fates; `failFor` makes
 * chosen ids fail like a full disk.
 */
export class CountingStore implements ToolResultPersister {
  readonly calls = new Map<string, number>();
  readonly failFor = new Set<string>();
  readonly #held: Array<() => void> = [];
  gate = false;

  async persist(toolUseId: string, content: string): Promise<PersistedToolResult> {
    this.calls.set(toolUseId, (this.calls.get(toolUseId) ?? 0) + 1);
    if (this.gate) await new Promise<void>((resolve) => this.#held.push(resolve));
    if (this.failFor.has(toolUseId)) {
      throw Object.assign(new Error(`ENOSPC: no space left on device, write '${toolUseId}'`), { code: 'ENOSPC' });
    }
    return { path: `/memory/session/tool-results/${toolUseId}.txt`, size: content.length, preview: previewOf(content) as PersistedPreview };
  }

  /** Lets every held persist continue. */
  release(): void {
    this.gate = false;
    for (const resume of this.#held.splice(0)) resume();
  }

  get heldCount(): number {
    return this.#held.length;
  }

  totalCalls(): number {
    let total = 0;
    for (const count of this.calls.values()) total += count;
    return total;
  }
}

/** The replacement the budget must produce for `content` persisted by `CountingStore`. */
export function expectedMemoryReplacement(toolUseId: string, content: string): string {
  return formatPersistedOutput({
    path: `/memory/session/tool-results/${toolUseId}.txt`,
    size: content.length,
    preview: previewOf(content) as PersistedPreview,
  });
}

/** Yields to the event loop until `condition` holds (bounded by turns, not time). */
export async function waitUntil(condition: () => boolean, turns = 1_000): Promise<void> {
  for (let turn = 0; turn < turns; turn += 1) {
    if (condition()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error('condition never held');
}
