import { AST_NODE_TYPES, type TSESLint } from '@typescript-eslint/utils';

import {
  type ReadFinding,
  type RecognitionContext,
  type ToolDefinition,
  type ToolMember,
  MAX_RESULT_SIZE_MEMBER,
  RESOURCE_WORDS,
  analyseSelfReading,
  findDeclaredLimit,
  getRecognitionContext,
  insertToolMemberFix,
  mayDefineToolsInText,
  resolvedToolName,
  toolDefinitionListeners,
} from '../recognition/index.js';
import { createRule } from '../util/create-rule.js';

export type Options = [{ requireClassification?: boolean }];
export type MessageIds = 'missingUnbounded' | 'finiteBound' | 'unclassified' | 'setUnbounded' | 'setFiniteLimit';

const MEMBER = MAX_RESULT_SIZE_MEMBER;
const UNBOUNDED_TEXT = 'Infinity';
/** The suggested limit for tools that read nothing the model chooses (the seed's `BashTool`); the codemod's `--default-max-chars` replaces it. */
const FINITE_DEFAULT_TEXT = '50_000';

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

function buildFix(
  definition: ToolDefinition,
  member: ToolMember | undefined,
  sourceCode: Readonly<TSESLint.SourceCode>,
  recognition: RecognitionContext,
  finding: ReadFinding,
): TSESLint.ReportFixFunction | undefined {
  if (member?.value) {
    const value = member.value;
    return (fixer) => fixer.replaceText(value, UNBOUNDED_TEXT);
  }
  if (member && member.node.type === AST_NODE_TYPES.PropertyDefinition) {
    const field = member.node;
    return (fixer) => fixer.insertTextAfter(field.typeAnnotation ?? field.key, ` = ${UNBOUNDED_TEXT}`);
  }
  if (member) return undefined;
  return insertToolMemberFix(definition, MEMBER, UNBOUNDED_TEXT, sourceCode, {
    file: recognition.file,
    reads: READS_OF_KIND[finding.readerKind],
  });
}

export default createRule<Options, MessageIds>({
  name: 'require-unbounded-self-reading-tool',
  meta: {
    type: 'problem',
    hasSuggestions: true,
    docs: {
      description:
        'Require tools that read a model-chosen path, URL or resource and hand back what they read to declare `maxResultSizeChars` as `Infinity`, so their results are never persisted and read back',
      recommended: 'recommended',
      strictOptions: [{ requireClassification: true }],
    },
    messages: {
      missingUnbounded:
        "Tool '{{toolName}}' reads a model-chosen {{resource}} through {{readCall}} and returns what it read, but declares no maxResultSizeChars. Declare `maxResultSizeChars = Infinity` (or UNBOUNDED): if its result is persisted, the model reads the persisted file back with this same tool, again and again.",
      finiteBound:
        "Tool '{{toolName}}' reads a model-chosen {{resource}} through {{readCall}} and returns what it read, but declares maxResultSizeChars {{declared}}. Set it to `Infinity` (or UNBOUNDED): a finite bound lets its result be persisted, and the model reads the persisted file back with this same tool.",
      unclassified:
        "Tool '{{toolName}}' declares no maxResultSizeChars. Classify every tool: `Infinity` when it returns content it read from paths, URLs or resources the model chooses, a finite limit otherwise.",
      setUnbounded: 'Set maxResultSizeChars to Infinity (never persist this tool’s results).',
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
        },
        additionalProperties: false,
      },
    ],
    defaultOptions: [{ requireClassification: false }],
  },
  // Reports sit in tool definitions: a file that cannot define a tool has nothing to check.
  mayReport: mayDefineToolsInText,
  create(context, [{ requireClassification }]) {
    const recognition = getRecognitionContext(context);
    const sourceCode = context.sourceCode;

    function check(definition: ToolDefinition): void {
      // A declared sentinel needs no flow analysis.
      const declaration = findDeclaredLimit(definition, recognition);
      if (declaration.declaresUnbounded) return;
      const { declared: member, declaredHere, read: finding, selfReading } = analyseSelfReading(definition, recognition, declaration);
      const toolName = resolvedToolName(definition, recognition.file) ?? definition.name ?? '<anonymous>';
      if (!selfReading || !finding) {
        if (requireClassification && !member) {
          const fix = insertToolMemberFix(definition, MEMBER, FINITE_DEFAULT_TEXT, sourceCode, { file: recognition.file });
          context.report({
            node: definition.reportNode,
            messageId: 'unclassified',
            data: { toolName },
            suggest: fix ? [{ messageId: 'setFiniteLimit', data: { limit: FINITE_DEFAULT_TEXT }, fix }] : [],
          });
        }
        return;
      }
      // An inherited finite bound is overridden in the subclass, never edited in the shared base.
      const fix = buildFix(definition, declaredHere ? member : undefined, sourceCode, recognition, finding);
      context.report({
        node: definition.reportNode,
        messageId: member ? 'finiteBound' : 'missingUnbounded',
        data: {
          toolName,
          readCall: describeChain(finding),
          reader: finding.reader,
          resource: RESOURCE_WORDS[finding.readerKind],
          declared: member?.value ? sourceCode.getText(member.value) : 'without a value',
        },
        suggest: fix ? [{ messageId: 'setUnbounded', fix }] : [],
      });
    }

    return toolDefinitionListeners(() => recognition, check);
  },
});
