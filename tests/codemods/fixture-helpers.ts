// Shared by the codemod tests: run one transform over a text the way the CLI
// does, and lint a text with one rule under `configs.strict`.
import { Linter } from 'eslint';

import {
  createEditingProject,
  createRuleFindingsCollector,
  DEFAULT_MAX_CHARS,
  migrateText,
  selectTransforms,
  type RuleFindingsCollector,
  type TextMigrationResult,
} from '../../src/codemods/index.js';
import plugin, { PLUGIN_NAMESPACE } from '../../src/eslint-plugin.js';

let collector: RuleFindingsCollector | undefined;
const project = createEditingProject();

export async function runTransform(
  transformName: string,
  text: string,
  filePath: string,
  defaultMaxChars = DEFAULT_MAX_CHARS,
): Promise<TextMigrationResult> {
  collector ??= await createRuleFindingsCollector();
  return migrateText(text, filePath, selectTransforms([transformName]), collector, project, { defaultMaxChars });
}

const linter = new Linter({ configType: 'flat', cwd: '/' });

/** The findings of `ruleName` on `text` under the plugin's own `configs.strict`, as a user would see them. */
export function strictFindings(ruleName: string, text: string, filePath: string): Linter.LintMessage[] {
  const strict = plugin.configs.strict;
  const ruleId = `${PLUGIN_NAMESPACE}/${ruleName}`;
  const entry = strict.rules[ruleId];
  if (entry === undefined) throw new Error(`${ruleId} is not in configs.strict`);
  const config = { ...strict, files: ['**/*.*'], rules: { [ruleId]: entry } };
  const messages = linter.verify(text, [config] as unknown as Linter.Config[], { filename: filePath });
  const fatal = messages.find((message) => message.fatal);
  if (fatal) throw new Error(`${filePath}: ${fatal.message}`);
  return messages.filter((message) => message.ruleId === ruleId);
}
