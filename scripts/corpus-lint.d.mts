// Types for scripts/corpus-lint.mjs.
import type { CorpusEntry } from './corpus.mjs';

export const LINTED_FILES_PATTERN: string;
export const GENERATED_TSCONFIG_NAME: string;
export function benchEntries(mode: 'recommended' | 'strict' | 'typed'): CorpusEntry[];
export function corpusFiles(entry: CorpusEntry, directory?: string): Promise<string[]>;
export function isDeclarationFile(file: string): boolean;
export function writeCorpusTsconfig(entry: CorpusEntry, directory?: string): string;
export function everyRuleEntries(plugin: {
  meta: { namespace: string };
  rules: Record<string, { meta?: { docs?: unknown } }>;
  configs: { all: { rules: Record<string, unknown> } };
}): Record<string, unknown>;
export function withoutRules<Config extends { rules: unknown }>(config: Config): Config;
