import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { defineTool } from 'tool-result-guard';

interface ReadFileInput {
  readonly file_path: string;
}

// DEFECT (circular persistence), on purpose: this tool reads whatever path the model
// names, including <session>/tool-results/*.txt, yet declares a finite limit.
// Its own output would be persisted and read back with this very tool.
// `reads: 'path'` makes that a compile error; the fix is `maxResultSizeChars: UNBOUNDED`.
export const readFileTool = defineTool({
  name: 'read_file',
  reads: 'path',
  maxResultSizeChars: 100_000,
  async call(input: ReadFileInput, cwd: string): Promise<string> {
    return readFile(path.resolve(cwd, input.file_path), 'utf8');
  },
});
