import type { PersistableTool } from 'tool-result-guard';

// Correct: a shell reads nothing the model names as a path, so a large
// result is persisted and replaced by a preview.
export class BashTool implements PersistableTool {
  readonly name = 'bash';
  readonly reads = 'none';
  readonly maxResultSizeChars = 30_000;

  async call(input: { readonly command: string }): Promise<string> {
    return `$ ${input.command}`;
  }
}
