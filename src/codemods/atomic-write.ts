import { randomBytes } from 'node:crypto';
import { chmodSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Writes `text` to `filePath` so a reader (or a crash) sees either the old
 * file or the new one, never half of each: the text goes to a temporary file
 * beside it, which then replaces the original in one rename. The original's
 * permission bits are kept.
 */
export function writeFileAtomically(filePath: string, text: string): void {
  // Short enough for any file name: the temporary name must fit the same 255-byte limit.
  const temporaryPath = join(
    dirname(filePath),
    `.${basename(filePath).slice(0, 100)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
  );
  const mode = statSync(filePath).mode & 0o7777;
  try {
    writeFileSync(temporaryPath, text, { flag: 'wx', mode });
    chmodSync(temporaryPath, mode);
    renameSync(temporaryPath, filePath);
  } catch (error) {
    rmSync(temporaryPath, { force: true });
    throw error;
  }
}
