/**
 * The tool inventory: every tool the recognition core finds, with what it
 * declares and what the rules conclude about it — the audit table a team
 * reads before a release, and what the accuracy evaluation compares with
 * hand labels. It asks the same core functions the rules ask
 * (`analyseSelfReading`, `findOutlivingStateUses`), through an ESLint
 * `Linter` so scopes and parent links are ESLint's own.
 */
import { readFile } from 'node:fs/promises';
import { dirname, parse as parsePath, relative } from 'node:path';

import * as typescriptParser from '@typescript-eslint/parser';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

import {
  type ReadFinding,
  type StateUseKind,
  type ToolDefinition,
  type ToolShape,
  RESOURCE_WORDS,
  SETTINGS_KEY,
  analyseSelfReading,
  findDeclaredStateScope,
  findOutlivingStateUses,
  getRecognitionContext,
  mayDefineTools,
  normalizeRecognitionSettings,
  toolDefinitionListeners,
} from '../recognition/index.js';
import { importEslint } from '../util/import-eslint.js';

type Linter = TSESLint.Linter;

export interface InventoryRead {
  /** `processSingleFileContent → readFileWithEncoding → fs.promises.readFile`. */
  chain: string;
  /** What the model chose: `path`, `URL` or `resource`. */
  kind: string;
  /** Where the invocation calls it. */
  line: number;
}

export interface InventoryStateUse {
  kind: StateUseKind;
  /** `adds to the module-level Map \`cache\``. */
  description: string;
  line: number;
}

export interface InventoryEntry {
  /** Relative to the inventory's `cwd`. */
  file: string;
  /** Where the definition starts (class, factory call, registration call, object literal). */
  line: number;
  /** The name the model sees, when the code states it; else the variable or class name. */
  name: string | undefined;
  shape: ToolShape;
  /** Source text of the declared value, own or inherited; `undefined` when none is declared. */
  maxResultSizeChars: string | undefined;
  declaresUnbounded: boolean;
  stateScope: string | undefined;
  /** The first read of a location the model's arguments choose, if any. */
  read: InventoryRead | undefined;
  /**
   * Reads a model-chosen location and hands the content back: `require-unbounded-self-reading-tool` reports
   * it unless it declares the sentinel.
   */
  selfReading: boolean;
  /**
   * How the verdict was reached: `proven` (the flow sees the content come back), `refuted` (it sees all the input
   * touches, and nothing read comes back), `unknown` (the input goes where the analysis cannot follow; the contract
   * decides); with `why`, the evidence in words.
   */
  verdict: { answer: 'proven' | 'refuted' | 'unknown'; why: string };
  /** State the invocation changes that outlives the call: `declare-tool-state-scope` reports it unless it declares a `stateScope`. */
  stateUses: InventoryStateUse[];
}

/** The self-reading verdict's evidence in one sentence, for the listing. */
function verdictWhy(analysis: ReturnType<typeof analyseSelfReading>): string {
  if (analysis.setting) return `listed in the \`${analysis.setting}\` setting`;
  if (analysis.answer === 'proven') return `content read through ${analysis.read ? describeChain(analysis.read) : '?'} reaches the output`;
  if (analysis.answer === 'refuted') {
    return analysis.read ? 'what it reads does not come back' : 'nothing it reads is chosen by the model';
  }
  const where = analysis.escape ? `\`${analysis.escape.callee}\`` : 'code outside the analysis';
  if (analysis.remoteService && analysis.contract) {
    return `${analysis.contract.evidence}, but the input goes to a remote service's client (${where}): a place in that service, not a location the model can point at a persisted result`;
  }
  return analysis.contract
    ? `the input goes to ${where}, which the analysis cannot follow, and ${analysis.contract.evidence}`
    : `the input goes to ${where}, which the analysis cannot follow, and its contract does not say it reads`;
}

export interface InventoryFileError {
  file: string;
  message: string;
}

export interface ToolInventory {
  tools: InventoryEntry[];
  filesScanned: number;
  /** Files that could not be parsed (they are skipped, never guessed at). */
  errors: InventoryFileError[];
}

export interface ToolInventoryOptions {
  files: readonly string[];
  /** Paths in the inventory are relative to it. */
  cwd: string;
  /** ESLint `settings` (the `tool-result-guard` key), as the rules would get them. */
  settings?: Readonly<Record<string, unknown>>;
}

function describeChain(finding: ReadFinding): string {
  return [finding.callName, ...finding.via.slice(1).map((step) => step.name), ...(finding.via.length > 0 ? [finding.reader] : [])].join(
    ' → ',
  );
}

function describeStateUse(data: Record<string, string>): string {
  if (data['action'] !== undefined) return `${data['action']} ${data['state'] ?? ''}`.trim();
  if (data['verb'] !== undefined) {
    return `calls \`${data['callee'] ?? ''}\` with ${data['object'] ?? 'a long-lived object'}, which the analysis cannot follow; the name says \`${data['verb']}\``;
  }
  if (data['command'] !== undefined) {
    return `sends the command '${data['command']}' through \`.${data['method'] ?? ''}()\` to ${data['object'] ?? 'a long-lived object'}`;
  }
  if (data['method'] !== undefined) return `calls \`.${data['method']}()\` on ${data['object'] ?? 'a long-lived object'}`;
  return `uses the ${data['carrier'] ?? 'carrier'} \`${data['name'] ?? ''}\` created ${data['where'] ?? 'outside the call'}`;
}

const RULE_NAME = 'tool-inventory';

/** Collects one file's entries into `sink`; the rule reports nothing. */
function createInventoryRule(sink: { entries: Omit<InventoryEntry, 'file'>[] }): TSESLint.RuleModule<string, []> {
  return {
    meta: { type: 'suggestion', schema: [], messages: {} },
    create(context) {
      if (!mayDefineTools(context.sourceCode.text, getRecognitionContext(context).settings)) return {};
      const add = (definition: ToolDefinition): void => {
        const recognition = getRecognitionContext(context);
        const analysis = analyseSelfReading(definition, recognition);
        const stateScope = findDeclaredStateScope(definition, recognition);
        const stateUses = stateScope ? [] : findOutlivingStateUses(definition, recognition, context.sourceCode);
        // One entry per name the code is registered under (a loop over a list of names), the same verdict for each.
        for (const name of [definition.name, ...(definition.alsoNamed ?? [])]) {
          sink.entries.push({
            line: (definition.node as TSESTree.Node).loc.start.line,
            name,
            shape: definition.shape,
            maxResultSizeChars: analysis.declared?.value ? context.sourceCode.getText(analysis.declared.value) : undefined,
            declaresUnbounded: analysis.declaresUnbounded,
            stateScope: stateScope?.value ? context.sourceCode.getText(stateScope.value) : undefined,
            read: analysis.read
              ? {
                  chain: describeChain(analysis.read),
                  kind: RESOURCE_WORDS[analysis.read.readerKind],
                  // A tool joined by name across files may read in another file (parsed without locations): the tool's line then.
                  line:
                    (analysis.read.call.loc as TSESTree.SourceLocation | undefined)?.start.line ??
                    (definition.node as TSESTree.Node).loc.start.line,
                }
              : undefined,
            selfReading: analysis.selfReading,
            verdict: { answer: analysis.answer, why: verdictWhy(analysis) },
            stateUses: stateUses.map((use) => ({
              kind: use.messageId,
              description: describeStateUse(use.data),
              line: use.node.loc.start.line,
            })),
          });
        }
      };
      return toolDefinitionListeners(() => getRecognitionContext(context), add);
    },
  };
}

/** The inventory of `files`: every recognised tool, in file and line order. */
export async function collectToolInventory(options: ToolInventoryOptions): Promise<ToolInventory> {
  const eslintModule = await importEslint();
  const settings = options.settings ?? {};
  // Malformed settings fail here, once, with the settings' own message.
  normalizeRecognitionSettings(settings[SETTINGS_KEY]);
  const sink: { entries: Omit<InventoryEntry, 'file'>[] } = { entries: [] };
  const config = [
    {
      files: ['**/*.*'],
      plugins: { inventory: { rules: { [RULE_NAME]: createInventoryRule(sink) } } },
      languageOptions: {
        parser: typescriptParser,
        sourceType: 'module',
        ecmaVersion: 'latest',
        parserOptions: { preserveNodeMaps: false },
      },
      linterOptions: { reportUnusedDisableDirectives: 'off', noInlineConfig: true },
      settings,
      rules: { [`inventory/${RULE_NAME}`]: 'error' },
    },
  ] as unknown as TSESLint.Linter.ConfigType;
  const LinterClass = eslintModule.Linter as unknown as new (options: object) => Linter;
  const linters = new Map<string, Linter>();
  const tools: InventoryEntry[] = [];
  const errors: InventoryFileError[] = [];
  for (const filePath of options.files) {
    const root = parsePath(filePath).root || dirname(filePath);
    let linter = linters.get(root);
    if (!linter) linters.set(root, (linter = new LinterClass({ configType: 'flat', cwd: root })));
    const text = await readFile(filePath, 'utf8');
    sink.entries = [];
    const messages = linter.verify(text, config, { filename: filePath });
    const fatal = messages.find((message) => message.fatal);
    const file = relative(options.cwd, filePath);
    if (fatal) {
      errors.push({ file, message: `${fatal.line}:${fatal.column}: ${fatal.message}` });
      continue;
    }
    for (const entry of sink.entries.sort((a, b) => a.line - b.line)) tools.push({ file, ...entry });
  }
  return { tools, filesScanned: options.files.length, errors };
}
