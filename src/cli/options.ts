// Command-line pieces the `migrate` and `tools` commands (cli/index.ts, cli/tools.ts) share.

/** The options `migrate` and `tools` share, spelled alike in both. */
export const SHARED_OPTIONS = {
  project: { type: 'string', short: 'p' },
  json: { type: 'boolean' },
  extensions: { type: 'string' },
  'ignore-pattern': { type: 'string', multiple: true },
  settings: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** `--extensions ts,.mts` → `['ts', '.mts']` (file discovery drops the dots). */
export function parseExtensionList(value: string): string[] {
  return value
    .split(',')
    .map((extension) => extension.trim())
    .filter(Boolean);
}
