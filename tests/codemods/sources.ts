// Source texts several codemod tests migrate.

/** A class tool that reads the path the model names but declares a finite limit: the codemod sets it to `Infinity`. */
export const SELF_READING_TOOL = `import { readFile } from 'node:fs/promises';

// Reads whatever path the model names.
export class ReadFileTool {
  readonly name = 'read_file';
  readonly maxResultSizeChars = 100_000;

  async call(params: { file_path: string }) {
    return readFile(params.file_path, 'utf8');
  }
}
`;
