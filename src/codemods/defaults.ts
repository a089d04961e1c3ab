// Defaults shared by the runner and the CLI, in a module that loads nothing
// heavy, so `tool-result-guard --version` does not wait for TypeScript.

/** The finite limit for tools that read nothing the model chose (a bash tool: it reads nothing the model chooses). */
export const DEFAULT_MAX_CHARS = 50_000;

/** What a folder or glob is searched for, without dots. */
export const DEFAULT_EXTENSIONS = ['ts', 'tsx', 'mts', 'cts', 'js', 'jsx', 'mjs', 'cjs'] as const;
