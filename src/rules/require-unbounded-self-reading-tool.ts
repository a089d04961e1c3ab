import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';

import {
  type ReadFinding,
  type RecognitionContext,
  type ToolDefinition,
  type ToolMember,
  MCP_META_PREFIX,
  findMcpMetaObject,
  findToolMember,
  getInvocation,
  getRecognitionContext,
  isClassNode,
  isUnboundedValue,
  readsInputChosenResource,
  recogniseToolDefinition,
} from '../recognition/index.js';
import { createRule } from '../util/create-rule.js';

export type Options = [{ requireClassification?: boolean }];
export type MessageIds = 'missingUnbounded' | 'finiteBound' | 'unclassified' | 'setUnbounded';

const MEMBER = 'maxResultSizeChars';
const UNBOUNDED_TEXT = 'Infinity';

const RESOURCE_WORDS: Record<ReadFinding['readerKind'], string> = {
  file: 'path',
  url: 'URL',
  resource: 'resource',
};

/** `processSingleFileContent` → `processSingleFileContent → readFileWithEncoding → fs.promises.readFile`. */
function describeChain(finding: ReadFinding): string {
  if (finding.via.length === 0) return `\`${finding.callName}\``;
  const steps = finding.via.slice(1).map((step) => step.name);
  return `\`${finding.callName}\` (→ ${[...steps, finding.reader].join(' → ')})`;
}

/** The member a subclass inherits from a base class of the same file. */
function inheritedMember(
  definition: ToolDefinition,
  recognition: RecognitionContext,
  depth = 0,
): ToolMember | undefined {
  const host = definition.host;
  if (!host || !isClassNode(host) || depth > 5) return undefined;
  const superClass = host.superClass;
  if (superClass?.type !== AST_NODE_TYPES.Identifier) return undefined;
  const base = recognition.file.classes.get(superClass.name);
  if (!base || base === host) return undefined;
  const baseDefinition: ToolDefinition = { ...definition, node: base, host: base };
  return findToolMember(baseDefinition, MEMBER) ?? inheritedMember(baseDefinition, recognition, depth + 1);
}

function indentationOf(sourceCode: Readonly<TSESLint.SourceCode>, node: TSESTree.Node): string {
  const line = sourceCode.lines[node.loc.start.line - 1] ?? '';
  return /^\s*/.exec(line)?.[0] ?? '';
}

/** Is `node` the first thing on its line (a layout with one member per line)? */
function startsOwnLine(sourceCode: Readonly<TSESLint.SourceCode>, node: TSESTree.Node): boolean {
  const before = sourceCode.getTokenBefore(node, { includeComments: true });
  return !before || before.loc.end.line < node.loc.start.line;
}

/** Adds `text` as the last property of an object literal, keeping its layout. */
function insertProperty(
  fixer: TSESLint.RuleFixer,
  sourceCode: Readonly<TSESLint.SourceCode>,
  object: TSESTree.ObjectExpression,
  text: string,
): TSESLint.RuleFix {
  const last = object.properties[object.properties.length - 1];
  if (!last) return fixer.replaceText(object, `{ ${text} }`);
  const separator = startsOwnLine(sourceCode, last) ? `\n${indentationOf(sourceCode, last)}` : ' ';
  const after = sourceCode.getTokenAfter(last);
  if (after?.value === ',') return fixer.insertTextAfter(after, `${separator}${text},`);
  return fixer.insertTextAfter(last, `,${separator}${text}`);
}

function buildFix(
  definition: ToolDefinition,
  member: ToolMember | undefined,
  sourceCode: Readonly<TSESLint.SourceCode>,
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
  const host = definition.host;
  if (!host) return undefined;
  if (isClassNode(host)) {
    return (fixer) => {
      const openBrace = sourceCode.getFirstToken(host.body)!;
      const firstMember = host.body.body[0];
      const member = `${MEMBER} = ${UNBOUNDED_TEXT};`;
      if (firstMember && !startsOwnLine(sourceCode, firstMember)) return fixer.insertTextAfter(openBrace, ` ${member}`);
      const indentation = firstMember ? indentationOf(sourceCode, firstMember) : `${indentationOf(sourceCode, host)}  `;
      return fixer.insertTextAfter(openBrace, `\n${indentation}${member}`);
    };
  }
  if (definition.isMcpRegistration) {
    const meta = findMcpMetaObject(definition);
    const metaEntry = `'${MCP_META_PREFIX}${MEMBER}': ${UNBOUNDED_TEXT}`;
    return (fixer) =>
      meta
        ? insertProperty(fixer, sourceCode, meta, metaEntry)
        : insertProperty(fixer, sourceCode, host, `_meta: { ${metaEntry} }`);
  }
  return (fixer) => insertProperty(fixer, sourceCode, host, `${MEMBER}: ${UNBOUNDED_TEXT}`);
}

export default createRule<Options, MessageIds>({
  name: 'require-unbounded-self-reading-tool',
  meta: {
    type: 'problem',
    hasSuggestions: true,
    docs: {
      description:
        'Require tools that read a model-chosen path, URL or resource to declare `maxResultSizeChars` as `Infinity`, so their results are never persisted and read back',
      recommended: 'recommended',
      strictOptions: [{ requireClassification: true }],
    },
    messages: {
      missingUnbounded:
        "Tool '{{toolName}}' reads a model-chosen {{resource}} through {{readCall}} but declares no maxResultSizeChars. Declare `maxResultSizeChars = Infinity` (or UNBOUNDED): if its result is persisted, the model reads the persisted file back with this same tool, again and again.",
      finiteBound:
        "Tool '{{toolName}}' reads a model-chosen {{resource}} through {{readCall}} but declares maxResultSizeChars {{declared}}. Set it to `Infinity` (or UNBOUNDED): a finite bound lets its result be persisted, and the model reads the persisted file back with this same tool.",
      unclassified:
        "Tool '{{toolName}}' declares no maxResultSizeChars. Classify every tool: `Infinity` when it reads paths, URLs or resources the model chooses, a finite limit otherwise.",
      setUnbounded: 'Set maxResultSizeChars to Infinity (never persist this tool’s results).',
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
  create(context, [{ requireClassification }]) {
    const recognition = getRecognitionContext(context);
    const sourceCode = context.sourceCode;

    function check(node: TSESTree.Node): void {
      const definition = recogniseToolDefinition(node, recognition.settings, {
        contextualTypeName: recognition.contextualTypeName,
      });
      if (!definition) return;
      const member = findToolMember(definition, MEMBER) ?? inheritedMember(definition, recognition);
      if (member && isUnboundedValue(member.value, recognition.file)) return;

      const invocation = getInvocation(definition, recognition.settings, recognition.file);
      const [finding] = readsInputChosenResource(invocation, recognition.file, recognition.environment);
      const toolName = definition.name ?? '<anonymous>';
      if (!finding) {
        if (requireClassification && !member) {
          context.report({ node: definition.reportNode, messageId: 'unclassified', data: { toolName } });
        }
        return;
      }
      const fix = buildFix(definition, member, sourceCode);
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

    return {
      ClassDeclaration: check,
      ClassExpression: check,
      CallExpression: check,
      NewExpression: check,
      ObjectExpression: check,
    };
  },
});
