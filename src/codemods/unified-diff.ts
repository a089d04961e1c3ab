import { createTwoFilesPatch } from 'diff';

/** A `git diff`-style patch (`a/` and `b/` prefixes) that `git apply` and `patch -p1` accept. */
export function unifiedDiff(displayPath: string, before: string, after: string): string {
  const path = displayPath.split('\\').join('/');
  const patch = createTwoFilesPatch(`a/${path}`, `b/${path}`, before, after, undefined, undefined, { context: 3 });
  // The `====` banner line is jsdiff's own; git's format starts at `---`.
  return patch.replace(/^=+\n/, '');
}
