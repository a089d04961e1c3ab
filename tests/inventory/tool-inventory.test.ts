// The tool inventory (`tool-result-guard tools`): what it lists for each
// tool shape, and that its verdicts are the rules' verdicts on the same code.
import { join } from 'node:path';
import { PassThrough } from 'node:stream';

import { ESLint, type Linter } from 'eslint';
import { describe, expect, it } from 'vitest';

import { runCli } from '../../src/cli/index.js';
import plugin from '../../src/eslint-plugin.js';
import { collectToolInventory } from '../../src/inventory/tool-inventory.js';
import { workspace } from '../codemods/workspace.js';

const SOURCES = {
  'read.ts': `import { readFile } from 'node:fs/promises';
import { BaseTool } from './base.js';
export class ReadTool extends BaseTool {
  readonly name = 'read_file';
  async call(input: { path: string }) {
    return readFile(input.path, 'utf8');
  }
}
`,
  'bash.ts': `export class BashTool {
  readonly name = 'bash';
  readonly maxResultSizeChars = 30_000;
  async call(input: { command: string }) {
    return input.command.length;
  }
}
`,
  'counter.ts': `import { tool } from 'ai';
const calls = new Map<string, number>();
export const counter = tool({
  description: 'counts',
  execute: async ({ key }: { key: string }) => {
    calls.set(key, (calls.get(key) ?? 0) + 1);
    return calls.get(key);
  },
});
`,
  'fetch.ts': `import { tool } from 'ai';
export const webFetch = tool({
  description: 'fetches',
  maxResultSizeChars: Infinity,
  execute: async ({ url }: { url: string }) => (await fetch(url)).text(),
});
`,
  'broken.ts': 'export class Broken {\n  call( {\n',
};

function captureIo(cwd: string) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return {
    io: { stdout: stdout as unknown as NodeJS.WriteStream, stderr: stderr as unknown as NodeJS.WriteStream, cwd },
    output: () => ({ out, err }),
  };
}

describe('collectToolInventory', () => {
  it('lists each tool with its name, line, shape, declarations and verdicts, and skips files that do not parse', async () => {
    const directory = workspace(SOURCES, 'trg-inventory-');
    const files = Object.keys(SOURCES).map((name) => join(directory, name));
    const inventory = await collectToolInventory({ files, cwd: directory });
    expect(inventory.filesScanned).toBe(5);
    expect(inventory.errors).toEqual([{ file: 'broken.ts', message: expect.stringContaining('Parsing error') }]);
    const byName = new Map(inventory.tools.map((tool) => [tool.name, tool]));
    expect([...byName.keys()].sort()).toEqual(['bash', 'counter', 'read_file', 'webFetch']);

    expect(byName.get('read_file')).toMatchObject({
      file: 'read.ts',
      line: 3,
      shape: 'class',
      maxResultSizeChars: undefined,
      declaresUnbounded: false,
      selfReading: true,
      read: { chain: 'readFile', kind: 'path', line: 6 },
      stateUses: [],
    });
    expect(byName.get('bash')).toMatchObject({ maxResultSizeChars: '30_000', selfReading: false, read: undefined });
    expect(byName.get('webFetch')).toMatchObject({
      shape: 'factory',
      maxResultSizeChars: 'Infinity',
      declaresUnbounded: true,
      selfReading: true,
      read: { kind: 'URL' },
    });
    const counter = byName.get('counter');
    expect(counter?.selfReading).toBe(false);
    expect(counter?.stateUses).toEqual([{ kind: 'mutatesOutlivingState', description: 'calls `.set()` on module-level `calls`', line: 6 }]);
  });

  it('agrees with the rules: a tool is listed as needing Infinity or a stateScope exactly where the rules report it', async () => {
    const directory = workspace(SOURCES, 'trg-inventory-');
    const files = Object.keys(SOURCES)
      .filter((name) => name !== 'broken.ts')
      .map((name) => join(directory, name));
    const inventory = await collectToolInventory({ files, cwd: directory });
    const eslint = new ESLint({ cwd: directory, overrideConfigFile: true, overrideConfig: [plugin.configs.all as Linter.Config] });
    const results = await eslint.lintFiles(files);
    const reported = (ruleName: string, messageIds: string[]) =>
      results
        .flatMap((result) =>
          result.messages
            .filter((message) => message.ruleId === `tool-result-guard/${ruleName}` && messageIds.includes(message.messageId ?? ''))
            .map(() => result.filePath.slice(directory.length + 1)),
        )
        .sort();
    expect(reported('require-unbounded-self-reading-tool', ['missingUnbounded', 'finiteBound'])).toEqual(
      inventory.tools
        .filter((tool) => tool.selfReading && !tool.declaresUnbounded)
        .map((tool) => tool.file)
        .sort(),
    );
    expect(reported('declare-tool-state-scope', ['mutatesOutlivingState', 'usesSharedCarrier'])).toEqual(
      inventory.tools
        .filter((tool) => tool.stateUses.length > 0 && tool.stateScope === undefined)
        .map((tool) => tool.file)
        .sort(),
    );
  });
});

describe('tool-result-guard tools', () => {
  it('prints one block per tool, what to declare, and a summary', async () => {
    const directory = workspace(SOURCES, 'trg-inventory-');
    const { io, output } = captureIo(directory);
    expect(await runCli(['tools', '.'], io)).toBe(0);
    const { out } = output();
    expect(out).toContain('read_file  read.ts:3  class  maxResultSizeChars: —  stateScope: —');
    expect(out).toContain('reads a model-chosen path through readFile (line 6); its content reaches the output: self-reading');
    expect(out).toContain('→ declare maxResultSizeChars = Infinity (or UNBOUNDED)');
    expect(out).toContain("→ declare stateScope: 'isolated' | 'session' | 'agent'");
    expect(out).toContain(
      '4 tools in 5 files: 2 self-reading (1 without Infinity), 1 changing outliving state without a stateScope, 2 without maxResultSizeChars.',
    );
    expect(out).toContain('skipped broken.ts: does not parse');
  });

  it('--json prints the inventory as data', async () => {
    const directory = workspace({ 'read.ts': SOURCES['read.ts'] }, 'trg-inventory-');
    const { io, output } = captureIo(directory);
    expect(await runCli(['tools', 'read.ts', '--json'], io)).toBe(0);
    const parsed = JSON.parse(output().out) as { tools: { name: string; selfReading: boolean }[]; filesScanned: number };
    expect(parsed.filesScanned).toBe(1);
    expect(parsed.tools).toEqual([expect.objectContaining({ name: 'read_file', selfReading: true })]);
  });

  it('says what to do when nothing is given, an option is unknown, or the settings are malformed', async () => {
    const directory = workspace({ 'read.ts': SOURCES['read.ts'] }, 'trg-inventory-');
    for (const [args, expected] of [
      [['tools'], 'Nothing to migrate'],
      [['tools', '.', '--bogus'], 'tools --help'],
      [['tools', '.', '--settings', '[1]'], '--settings must be a JSON object'],
    ] as const) {
      const { io, output } = captureIo(directory);
      expect(await runCli([...args], io)).toBe(1);
      expect(output().err).toContain(expected);
    }
    const { io, output } = captureIo(directory);
    expect(await runCli(['tools', '--help'], io)).toBe(0);
    expect(output().out).toContain('Usage: tool-result-guard tools');
  });
});
