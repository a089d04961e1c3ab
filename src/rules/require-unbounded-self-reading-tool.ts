import { AST_NODE_TYPES, type TSESLint } from '@typescript-eslint/utils';

import {
  type ReadFinding,
  type RecognitionContext,
  type ToolDefinition,
  type ToolMember,
  MAX_RESULT_SIZE_MEMBER,
  RESOURCE_WORDS,
  analyseSelfReading,
  classificationHomeOf,
  findDeclaredLimit,
  getRecognitionContext,
  insertToolMemberFix,
  mayDefineToolsInText,
  isClassNode,
  toolDefinitionListeners,
  unboundedSentinelOf,
  withPackageImportFix,
} from '../recognition/index.js';
import { createRule } from '../util/create-rule.js';

export type Options = [{ requireClassification?: boolean; suggestedLimit?: number }];

/** What a report about a self-reading tool carries (the codemods read it typed, `codemods/rule-protocol.ts`). */
export type SelfReadingReportData = {
  toolName: string;
  readCall: string;
  reader: string;
  resource: string;
  declared: string;
  /**
   * How the fix writes the never-persist sentinel here: `UNBOUNDED` (as the file refers to it) where the file
   * imports tool-result-guard, else `Infinity`.
   */
  unbounded: string;
};

/** The data of a report the flow could not prove: the contract's (or the setting's) evidence. */
export type ContractReportData = {
  toolName: string;
  /** Why it counts as reading: `its name \`read_file\` says it hands back what is at \`path\``. */
  evidence: string;
  /** Where the input went that the analysis could not follow. */
  escape: string;
  declared: string;
  unbounded: string;
};

/** `data` per report message id. */
export interface ReportData {
  missingUnbounded: SelfReadingReportData;
  finiteBound: SelfReadingReportData;
  missingUnboundedByContract: ContractReportData;
  finiteBoundByContract: ContractReportData;
  listedSelfReading: ContractReportData;
  unclassified: { toolName: string; limit: string };
}
export type SuggestionIds = 'setUnbounded' | 'setFiniteLimit';
export type MessageIds = keyof ReportData | SuggestionIds;

const MEMBER = MAX_RESULT_SIZE_MEMBER;
/**
 * The suggested limit for tools that read nothing the model chooses (a shell tool such as `BashTool`); the codemod
 * passes its `--default-max-chars` as `suggestedLimit`.
 */
const DEFAULT_SUGGESTED_LIMIT = 50_000;

/** `50000` → `50_000`, as limits are written in the docs and in the suggestion. */
function withDigitSeparators(value: number): string {
  const digits = String(value);
  return digits.length < 5 ? digits : digits.replace(/\B(?=(\d{3})+$)/g, '_');
}

/** `processSingleFileContent` → `processSingleFileContent → readFileWithEncoding → fs.promises.readFile`. */
function describeChain(finding: ReadFinding): string {
  if (finding.via.length === 0) return `\`${finding.callName}\``;
  const steps = finding.via.slice(1).map((step) => step.name);
  return `\`${finding.callName}\` (→ ${[...steps, finding.reader].join(' → ')})`;
}

/** The `reads` a `classifyTool` wrapper declares for a reader of this kind. */
const READS_OF_KIND: Record<ReadFinding['readerKind'], 'path' | 'url' | 'resource'> = {
  file: 'path',
  url: 'url',
  resource: 'resource',
};

/** What a contract's location input names: a URL, a resource URI, else a path. */
function contractReaderKind(inputName: string | undefined): ReadFinding['readerKind'] {
  if (inputName !== undefined && /ur[il]s?$|href|link/i.test(inputName)) return /uri/i.test(inputName) ? 'resource' : 'url';
  return 'file';
}

function buildFix(
  definition: ToolDefinition,
  member: ToolMember | undefined,
  sourceCode: Readonly<TSESLint.SourceCode>,
  recognition: RecognitionContext,
  readerKind: ReadFinding['readerKind'],
  sentinel: { text: string; imports: readonly string[] },
): TSESLint.ReportFixFunction | undefined {
  if (member?.value) {
    const value = member.value;
    return withPackageImportFix((fixer) => fixer.replaceText(value, sentinel.text), sourceCode, sentinel.imports);
  }
  if (member && member.node.type === AST_NODE_TYPES.PropertyDefinition) {
    const field = member.node;
    return withPackageImportFix(
      (fixer) => fixer.insertTextAfter(field.typeAnnotation ?? field.key, ` = ${sentinel.text}`),
      sourceCode,
      sentinel.imports,
    );
  }
  if (member) return undefined;
  return insertToolMemberFix(definition, MEMBER, sentinel.text, sourceCode, {
    file: recognition.file,
    types: recognition.types,
    reads: READS_OF_KIND[readerKind],
    imports: sentinel.imports,
  });
}

export default createRule<Options, MessageIds>({
  name: 'require-unbounded-self-reading-tool',
  meta: {
    type: 'problem',
    hasSuggestions: true,
    docs: {
      description:
        'Require tools that read a model-chosen path, URL or resource and hand back what they read ' +
        'to declare `maxResultSizeChars` as `Infinity`, so their results are never persisted and read back',
      recommended: 'recommended',
      strictOptions: [{ requireClassification: true }],
    },
    messages: {
      missingUnbounded:
        "Tool '{{toolName}}' reads a model-chosen {{resource}} through {{readCall}} and returns what it read, " +
        'but declares no maxResultSizeChars. Declare `maxResultSizeChars = {{unbounded}}`: if its result is persisted, ' +
        'the model reads the persisted file back with this same tool, again and again.',
      finiteBound:
        "Tool '{{toolName}}' reads a model-chosen {{resource}} through {{readCall}} and returns what it read, " +
        'but declares maxResultSizeChars {{declared}}. Set it to `{{unbounded}}`: ' +
        'a finite bound lets its result be persisted, and the model reads the persisted file back with this same tool.',
      missingUnboundedByContract:
        "Tool '{{toolName}}' hands the model's input to {{escape}}, which the analysis cannot follow, and {{evidence}}. " +
        'Declare `maxResultSizeChars = {{unbounded}}`, or, if it does not return what it read, list it in the ' +
        "`nonReadingTools` setting (settings['tool-result-guard'].nonReadingTools) to silence this.",
      finiteBoundByContract:
        "Tool '{{toolName}}' hands the model's input to {{escape}}, which the analysis cannot follow, and {{evidence}}, " +
        'but it declares maxResultSizeChars {{declared}}. Set it to `{{unbounded}}`, or, if it does not return what it read, ' +
        "list it in the `nonReadingTools` setting (settings['tool-result-guard'].nonReadingTools) to silence this.",
      listedSelfReading:
        "Tool '{{toolName}}' is listed in the `selfReadingTools` setting, but declares maxResultSizeChars {{declared}}. " +
        'Declare `maxResultSizeChars = {{unbounded}}`: its results must never be persisted, or remove it from the setting.',
      unclassified:
        "Tool '{{toolName}}' declares no maxResultSizeChars. Classify every tool: " +
        '`Infinity` when it returns content it read from paths, URLs or resources the model chooses, a finite limit otherwise.',
      setUnbounded: 'Set maxResultSizeChars to {{unbounded}} (never persist this tool’s results).',
      setFiniteLimit: 'Declare a finite maxResultSizeChars ({{limit}}): large results of this tool may be persisted.',
    },
    schema: [
      {
        type: 'object',
        properties: {
          requireClassification: {
            type: 'boolean',
            description: 'Also report recognised tools that declare no maxResultSizeChars at all, reading or not.',
          },
          suggestedLimit: {
            type: 'integer',
            minimum: 1,
            description:
              'The finite maxResultSizeChars the suggestion for an unclassified tool declares ' +
              '(the codemod passes its --default-max-chars).',
          },
        },
        additionalProperties: false,
      },
    ],
    defaultOptions: [{ requireClassification: false, suggestedLimit: DEFAULT_SUGGESTED_LIMIT }],
  },
  // Reports sit in tool definitions: a file that cannot define a tool has nothing to check.
  mayReport: mayDefineToolsInText,
  create(context, [{ requireClassification, suggestedLimit = DEFAULT_SUGGESTED_LIMIT }]) {
    const recognition = getRecognitionContext(context);
    const sourceCode = context.sourceCode;

    function check(definition: ToolDefinition): void {
      // A declared sentinel needs no flow analysis.
      const declaration = findDeclaredLimit(definition, recognition);
      if (declaration.declaresUnbounded) return;
      const analysis = analyseSelfReading(definition, recognition, declaration);
      const { declared: member, declaredHere, read: finding, selfReading } = analysis;
      const toolName = definition.name ?? '<anonymous>';
      if (!selfReading) {
        if (requireClassification && !member) {
          const limit = withDigitSeparators(suggestedLimit);
          const fix = insertToolMemberFix(definition, MEMBER, limit, sourceCode, { file: recognition.file, types: recognition.types });
          const data: ReportData['unclassified'] = { toolName, limit };
          context.report({
            node: definition.reportNode,
            messageId: 'unclassified',
            data,
            suggest: fix ? [{ messageId: 'setFiniteLimit', data, fix }] : [],
          });
        }
        return;
      }
      // An inherited finite bound is overridden in the subclass, never edited in the shared base.
      const memberHere = declaredHere ? member : undefined;
      // A new member that goes into a `classifyTool` wrapper is written as the wrapper's types demand.
      const wrapped =
        !memberHere &&
        !(definition.host && isClassNode(definition.host)) &&
        classificationHomeOf(definition, recognition.file, { name: MEMBER, types: recognition.types }) === 'wrapper';
      const sentinel = unboundedSentinelOf(sourceCode, recognition.file, { wrapped });
      const readerKind = finding?.readerKind ?? contractReaderKind(analysis.contract?.input.name);
      const fix = buildFix(definition, memberHere, sourceCode, recognition, readerKind, sentinel);
      const declared = member?.value ? sourceCode.getText(member.value) : 'without a value';
      if (!finding || analysis.answer !== 'proven') {
        // Not proven by the flow: the contract (or the user's setting) is the evidence, and the message names it.
        const contractData: ContractReportData = {
          toolName,
          evidence: analysis.contract?.evidence ?? 'it is listed in the `selfReadingTools` setting',
          escape: analysis.escape ? `\`${analysis.escape.callee}\`` : 'code outside this file',
          declared,
          unbounded: sentinel.text,
        };
        const messageId =
          analysis.setting === 'selfReadingTools' ? 'listedSelfReading' : member ? 'finiteBoundByContract' : 'missingUnboundedByContract';
        context.report({
          node: definition.reportNode,
          messageId,
          data: contractData,
          suggest: fix ? [{ messageId: 'setUnbounded', data: contractData, fix }] : [],
        });
        return;
      }
      const data: SelfReadingReportData = {
        toolName,
        readCall: describeChain(finding),
        reader: finding.reader,
        resource: RESOURCE_WORDS[finding.readerKind],
        declared,
        unbounded: sentinel.text,
      };
      context.report({
        node: definition.reportNode,
        messageId: member ? 'finiteBound' : 'missingUnbounded',
        data,
        suggest: fix ? [{ messageId: 'setUnbounded', data, fix }] : [],
      });
    }

    return toolDefinitionListeners(() => recognition, check);
  },
});
