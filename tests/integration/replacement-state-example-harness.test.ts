// The seed-002 rules over the bundled example harness: each planted defect is
// reported, by the right rule, and nothing else is (its resume, done right,
// and its own reconstruction function stay quiet). Run with and without
// type information.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import * as typescriptParser from '@typescript-eslint/parser';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

import { rules } from '../../src/rules/index.js';

const harnessDirectory = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../examples/agent-harness');
const SEED_002_RULES = ['mark-seen-before-replacement', 'replace-only-after-persist', 'clone-state-on-fork'];

function harnessLinter(typeAware: boolean): ESLint {
  return new ESLint({
    cwd: harnessDirectory,
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ['**/*.ts'],
        plugins: { guard: { rules } as unknown as ESLint.Plugin },
        languageOptions: {
          parser: typescriptParser,
          ...(typeAware ? { parserOptions: { projectService: true, tsconfigRootDir: harnessDirectory } } : {}),
        },
        rules: Object.fromEntries(SEED_002_RULES.map((name) => [`guard/${name}`, 'error'])),
      },
    ],
  });
}

async function lintHarness(typeAware: boolean): Promise<string[]> {
  const eslint = harnessLinter(typeAware);
  const results = await eslint.lintFiles(['src/**/*.ts']);
  // Findings by file, rule, message and the reported line's text: the example may gain lines.
  return results.flatMap((result) => {
    const lines = readFileSync(result.filePath, 'utf8').split('\n');
    return result.messages.map((message) => {
      const file = path.relative(harnessDirectory, result.filePath);
      const lineText = lines[message.line - 1]?.trim() ?? '';
      return `${file} ${message.ruleId ?? 'fatal'} ${message.messageId ?? message.message} | ${lineText}`;
    });
  });
}

describe.each([false, true])('seed-002 rules on examples/agent-harness (type-aware: %s)', (typeAware) => {
  it('reports exactly the planted seed-002 defects', async () => {
    const findings = await lintHarness(typeAware);
    expect(findings.sort()).toEqual(
      [
        // applyToolResultBudget: seenIds.add only after `await maybePersistLargeResult(…)`
        'src/persistence/budget.ts guard/mark-seen-before-replacement seenMarkAfterPersist | state.seenIds.add(block.toolUseId);',
        // adoptSyncedReplacements: replacements.set without a seen mark
        'src/persistence/budget.ts guard/mark-seen-before-replacement replacementWithoutSeenMark | state.replacements.set(record.toolUseId, record.replacement);',
        // replaceInBackground: the preview stored while the persistence is never awaited
        'src/persistence/budget.ts guard/replace-only-after-persist persistNotAwaited | state.replacements.set(block.toolUseId, replacement);',
        // spawnResearchAgent: the parent's live state handed to the fork
        'src/agent/fork.ts guard/clone-state-on-fork stateSharedWithFork | contentReplacementState: parent.state,',
      ].sort(),
    );
  }, 60_000);
});

describe('clone-state-on-fork suggestion on examples/agent-harness', () => {
  it("suggests the harness's own clone function first, imported next to its reconstruction", async () => {
    const [result] = await harnessLinter(false).lintFiles(['src/agent/fork.ts']);
    const finding = result?.messages.find((message) => message.ruleId === 'guard/clone-state-on-fork');
    const [suggestion] = finding?.suggestions ?? [];
    expect(suggestion?.messageId).toBe('wrapWithModuleClone');
    const source = readFileSync(path.join(harnessDirectory, 'src/agent/fork.ts'), 'utf8');
    const fixes = [suggestion!.fix].sort((left, right) => right.range[0] - left.range[0]);
    let output = source;
    for (const fix of fixes) output = output.slice(0, fix.range[0]) + fix.text + output.slice(fix.range[1]);
    expect(output).toContain('contentReplacementState: cloneContentReplacementState(parent.state),');
    expect(output).toContain("import { reconstructContentReplacementState, cloneContentReplacementState } from '../persistence/state.js';");
  });
});
