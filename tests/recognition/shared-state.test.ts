// State leakage through long-lived objects a tool drives without creating them:
// `findOutlivingStateUses` on small tools, and the settings that extend it.
import * as typescriptParser from '@typescript-eslint/parser';
import type { TSESLint } from '@typescript-eslint/utils';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';

import {
  DEFAULT_RECOGNITION_SETTINGS,
  findOutlivingStateUses,
  getRecognitionContext,
  normalizeRecognitionSettings,
  toolDefinitionListeners,
} from '../../src/recognition/index.js';

interface Use {
  tool: string;
  kind: string;
  text: string;
}

/** Every state use the core finds in `code`, with the source text of the node it sits on. */
function stateUses(code: string, settings: Record<string, unknown> = {}): Use[] {
  const found: Use[] = [];
  const probe: TSESLint.RuleModule<string, []> = {
    meta: { type: 'problem', schema: [], messages: {} },
    defaultOptions: [],
    create(context) {
      return toolDefinitionListeners(
        () => getRecognitionContext(context),
        (definition) => {
          for (const use of findOutlivingStateUses(definition, getRecognitionContext(context), context.sourceCode)) {
            found.push({ tool: use.data['tool'] ?? '', kind: use.messageId, text: context.sourceCode.getText(use.node) });
          }
        },
      );
    },
  };
  const linter = new Linter({ configType: 'flat' });
  const messages = linter.verify(
    code,
    [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: typescriptParser },
        plugins: { probe: { rules: { uses: probe as never } } },
        rules: { 'probe/uses': 'error' },
        settings: { 'tool-result-guard': settings },
      },
    ],
    'tool.ts',
  );
  expect(messages.filter((message) => message.fatal)).toEqual([]);
  return found;
}

describe('long-lived objects a tool drives', () => {
  it('follows a page taken from a factory parameter, once per state however many calls', () => {
    const uses = stateUses(`export const fill = (v3) => buildTool({ name: 'fill', async call({ text }) {
      const page = await v3.context.awaitActivePage();
      await page.click(10, 20);
      await page.type(text);
      return 'ok';
    } });`);
    expect(uses).toEqual([{ tool: 'fill', kind: 'drivesSharedObject', text: 'page.click(10, 20)' }]);
  });

  it('sees the config an invocation class was handed: the class is per call, the config is not', () => {
    const uses = stateUses(`class EnterPlanInvocation {
      constructor(config, params) { this.config = config; this.params = params; }
      async execute() { this.config.setApprovalMode('plan'); this.done = true; return { llmContent: 'ok' }; }
    }
    export class EnterPlanModeTool extends BaseDeclarativeTool {
      name = 'enter_plan_mode';
      createInvocation(params) { return new EnterPlanInvocation(this.config, params); }
    }`);
    expect(uses).toEqual([{ tool: 'enter_plan_mode', kind: 'drivesSharedObject', text: "this.config.setApprovalMode('plan')" }]);
  });

  it('reports a helper-held page at the call in the invocation', () => {
    const uses = stateUses(`const state = { page: undefined };
    function open(url) { return state.page.goto(url); }
    export const t = buildTool({ name: 'open', async call({ url }) { await open(url); return 'ok'; } });`);
    expect(uses).toEqual([{ tool: 'open', kind: 'drivesSharedObject', text: 'open(url)' }]);
  });

  it('leaves alone objects the invocation creates, and names outside the lists', () => {
    expect(
      stateUses(
        `export const t = buildTool({ name: 'a', async call({ url }) { const page = await newPage(); await page.goto(url); return 'ok'; } });`,
      ),
    ).toEqual([]);
    // A module value made by a call the analysis cannot see into, named outside the lists: its `click` says nothing.
    expect(
      stateUses(
        `const robot = makeRobot(); export const t = buildTool({ name: 'a', async call() { await robot.click(); return 'ok'; } });`,
      ),
    ).toEqual([]);
  });

  it('counts the driving verbs of an object the factory is handed, whatever its name', () => {
    // `(robot) => buildTool(…)`: the factory's caller hands the robot in; clicking it changes what the next call finds.
    expect(stateUses(`export const t = (robot) => buildTool({ name: 'a', async call() { await robot.click(); return 'ok'; } });`)).toEqual([
      { tool: 'a', kind: 'drivesSharedObject', text: 'robot.click()' },
    ]);
  });

  it('takes extra receiver names, method words and prefixes from the settings', () => {
    const code = `export const t = (robot) => buildTool({ name: 'a', async call() { await robot.click(); await robot.beep(); await robot.armMotor(); return 'ok'; } });`;
    const uses = stateUses(code, { sharedObjectNames: ['robot'], sharedObjectMethods: ['beep'], stateChangingMethodPrefixes: ['arm'] });
    expect(uses).toEqual([{ tool: 'a', kind: 'drivesSharedObject', text: 'robot.click()' }]);
    const settings = normalizeRecognitionSettings({
      sharedObjectNames: ['robot'],
      sharedObjectMethods: ['beep'],
      stateChangingMethodPrefixes: ['arm'],
    });
    expect(settings.sharedObjectNames).toEqual([...DEFAULT_RECOGNITION_SETTINGS.sharedObjectNames, 'robot']);
    expect(settings.sharedObjectMethods).toContain('beep');
    expect(settings.stateChangingMethodPrefixes).toContain('arm');
  });
});
