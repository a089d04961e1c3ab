/**
 * `tool-result-guard tools`: the tool inventory from the command line — every
 * recognised tool with what it declares and what the rules conclude, as a
 * table to read before a release or as JSON for a script.
 */
import { parseArgs } from 'node:util';

import { SHARED_OPTIONS, parseExtensionList } from './options.js';
import { DEFAULT_EXTENSIONS } from '../codemods/defaults.js';
import { CodemodUsageError } from '../util/usage-error.js';
import type { InventoryEntry, ToolInventory } from '../inventory/tool-inventory.js';

export const TOOLS_HELP = `Usage: tool-result-guard tools [paths/globs...] [options]

Lists every tool the tool-result-guard rules recognise: its name, file:line
and shape; its declared maxResultSizeChars and stateScope; whether it reads a
location the model chooses (and through which calls); whether that content
reaches its output (then it is self-reading and must declare Infinity); and
the state its invocation changes that outlives the call.

Options:
  -p, --project <tsconfig>     list the tools of a tsconfig's files (with or instead of paths)
      --json                   print the inventory as JSON on stdout
      --extensions <list>      file extensions to read in folders and globs
                               (default: ${DEFAULT_EXTENSIONS.join(',')})
      --ignore-pattern <glob>  skip matching files (repeatable); node_modules is always skipped
      --settings <json>        settings['tool-result-guard'] for the rules, as JSON
  -h, --help                   show this help

Exit status: 0 listed (whatever it found), 1 usage error or no file to read.
`;

interface ToolsIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  cwd: string;
}

function parseToolsCommandLine(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: SHARED_OPTIONS,
    });
  } catch (error) {
    throw new CodemodUsageError('UNKNOWN_OPTION', `${(error as Error).message}. Run \`tool-result-guard tools --help\` for the options.`);
  }
}

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;

function verdictLines(tool: InventoryEntry): string[] {
  const lines: string[] = [];
  lines.push(`self-reading verdict: ${tool.verdict.answer} (${tool.verdict.why})${tool.selfReading ? ', reported' : ''}`);
  if (tool.read) {
    const handsBack = tool.selfReading ? 'its content reaches the output: self-reading' : 'its content does not reach the output';
    lines.push(`reads a model-chosen ${tool.read.kind} through ${tool.read.chain} (line ${tool.read.line}); ${handsBack}`);
    if (tool.selfReading && !tool.declaresUnbounded) lines.push('→ declare maxResultSizeChars = Infinity (or UNBOUNDED)');
  } else {
    lines.push('reads no location the model chooses');
  }
  for (const use of tool.stateUses) lines.push(`state: ${use.description} (line ${use.line})`);
  if (tool.stateUses.length > 0 && tool.stateScope === undefined) lines.push("→ declare stateScope: 'isolated' | 'session' | 'agent'");
  return lines;
}

export function formatInventory(inventory: ToolInventory): string {
  const out: string[] = [];
  for (const tool of inventory.tools) {
    out.push(
      `${tool.name ?? '<anonymous>'}  ${tool.file}:${tool.line}  ${tool.shape}  maxResultSizeChars: ` +
        `${tool.maxResultSizeChars ?? '—'}  stateScope: ${tool.stateScope ?? '—'}`,
    );
    for (const line of verdictLines(tool)) out.push(`    ${line}`);
  }
  const selfReading = inventory.tools.filter((tool) => tool.selfReading);
  const toDeclareUnbounded = selfReading.filter((tool) => !tool.declaresUnbounded).length;
  const stateful = inventory.tools.filter((tool) => tool.stateUses.length > 0 && tool.stateScope === undefined).length;
  const unclassified = inventory.tools.filter((tool) => tool.maxResultSizeChars === undefined).length;
  if (out.length > 0) out.push('');
  out.push(
    `${plural(inventory.tools.length, 'tool')} in ${plural(inventory.filesScanned, 'file')}: ` +
      `${selfReading.length} self-reading (${toDeclareUnbounded} without Infinity), ` +
      `${stateful} changing outliving state without a stateScope, ${unclassified} without maxResultSizeChars.`,
  );
  for (const error of inventory.errors) out.push(`skipped ${error.file}: does not parse (${error.message})`);
  return `${out.join('\n')}\n`;
}

/** Runs `tools`; returns the exit status. */
export async function runToolsCommand(
  argv: readonly string[],
  io: ToolsIo,
  parseSettings: (json: string | undefined) => Record<string, unknown> | undefined,
): Promise<number> {
  const { values, positionals } = parseToolsCommandLine(argv);
  if (values.help) {
    io.stdout.write(TOOLS_HELP);
    return 0;
  }
  const settings = parseSettings(values.settings);
  const { discoverFiles } = await import('./file-discovery.js');
  const files = await discoverFiles({
    paths: positionals,
    project: values.project,
    cwd: io.cwd,
    extensions: values.extensions === undefined ? DEFAULT_EXTENSIONS : parseExtensionList(values.extensions),
    ignorePatterns: values['ignore-pattern'] ?? [],
  });
  if (files.length === 0) {
    throw new CodemodUsageError(
      'NO_INPUT',
      `No file to read in ${positionals.join(', ') || values.project}: check the paths and --extensions.`,
    );
  }
  const { collectToolInventory } = await import('../inventory/tool-inventory.js');
  const inventory = await collectToolInventory({ files, cwd: io.cwd, ...(settings ? { settings } : {}) });
  io.stdout.write(values.json ? `${JSON.stringify(inventory, null, 2)}\n` : formatInventory(inventory));
  return 0;
}
