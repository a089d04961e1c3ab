/**
 * What the disk holds: whether a path is a file, and its size and
 * modification time. Following a helper into another module asks this for
 * every candidate of a specifier (`./x.js` is first looked for as `./x.ts`
 * and `./x.tsx`), again when the module is loaded and when its text is
 * scanned. A missing candidate is the common answer, and `statSync` that
 * throws for it built an error object per miss: that was a fifth of the
 * rules' time on a large SDK. Asked without the throw, a miss costs a system
 * call and nothing more, so every answer is fresh (an edited file is parsed
 * again on the next lint) at no real cost.
 */
import { statSync } from 'node:fs';

export interface FileFacts {
  readonly mtimeMs: number;
  readonly size: number;
  readonly isFile: boolean;
}

/** The facts of `filePath`, or undefined when nothing is there (or it cannot be stat'ed). */
export function fileFacts(filePath: string): FileFacts | undefined {
  try {
    const stats = statSync(filePath, { throwIfNoEntry: false });
    return stats ? { mtimeMs: stats.mtimeMs, size: stats.size, isFile: stats.isFile() } : undefined;
  } catch {
    // A file on the way where a folder should be, no permission: nothing we can read.
    return undefined;
  }
}

/** Is there a regular file at `candidate`? */
export function isFile(candidate: string): boolean {
  return fileFacts(candidate)?.isFile === true;
}

/**
 * Values worked out from files (a parsed module, a file's text facts), each
 * kept while its file keeps its modification time and size: an edited file is
 * worked out again on the next question.
 */
export class FileDerivedCache<V> {
  private readonly entries = new Map<string, { mtimeMs: number; size: number; value: V }>();

  /** The value for `filePath`: the kept one, or `derive`'s from the file's facts; undefined when there is no file. */
  get(filePath: string, derive: (facts: FileFacts) => V): V | undefined {
    const facts = fileFacts(filePath);
    if (!facts) return undefined;
    const kept = this.entries.get(filePath);
    if (kept && kept.mtimeMs === facts.mtimeMs && kept.size === facts.size) return kept.value;
    const value = derive(facts);
    this.entries.set(filePath, { mtimeMs: facts.mtimeMs, size: facts.size, value });
    return value;
  }

  /** The paths with a kept value. */
  paths(): string[] {
    return [...this.entries.keys()];
  }

  /** The kept values. */
  values(): V[] {
    return [...this.entries.values()].map((entry) => entry.value);
  }

  clear(): void {
    this.entries.clear();
  }
}
