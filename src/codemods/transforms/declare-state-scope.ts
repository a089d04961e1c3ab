import type { TSESTree } from '@typescript-eslint/utils';

import {
  type ToolDefinition,
  findToolDefinitions,
  getInvocation,
  getRecognitionContext,
  insertToolMemberFix,
  isTypeScriptFile,
  quoted,
} from '../../recognition/index.js';
import { splitFix } from '../rule-findings.js';
import { TODO_MARKER, withPackageImports } from '../source-edits.js';
import type { RuleFinding, RuleTransform, TextEdit, UnresolvedSite } from '../transform.js';

const MEMBER = 'stateScope';
/** What the code does today: state that carries over between the calls of a session. */
const PROPOSED_SCOPE = 'session';
const REVIEW_NOTE =
  "review stateScope ('session': state kept between calls, as the code does today; " +
  "'isolated': fresh per call; 'agent': shared across sessions)";

function contains(outer: TSESTree.Node, inner: TSESTree.Node): boolean {
  return outer.range[0] <= inner.range[0] && inner.range[1] <= outer.range[1];
}

/** A tool of the linted file, with the functions its invocation runs. */
interface ToolWithInvocation {
  definition: ToolDefinition;
  invocationFunctions: TSESTree.Node[];
}

/**
 * The tools of the file a finding was reported in, with their invocations,
 * asked of the recognition core once per lint (not once per finding: a
 * file with several stateful tools would walk its whole tree for each).
 */
function toolsOfLintedFile(finding: RuleFinding, cache: Map<TSESTree.Program, ToolWithInvocation[]>): ToolWithInvocation[] {
  const recognition = getRecognitionContext(finding.ruleContext!);
  const program = recognition.file.program;
  let tools = cache.get(program);
  if (!tools) {
    tools = findToolDefinitions(program, recognition.settings, {
      contextualTypeName: recognition.contextualTypeName,
      filePath: recognition.filePath,
    }).map((definition) => ({
      definition,
      invocationFunctions: getInvocation(definition, recognition.settings, recognition.file).entries.map((entry) => entry.fn),
    }));
    cache.set(program, tools);
  }
  return tools;
}

/**
 * The tool whose invocation holds `node`, asked of the recognition core:
 * the same tool the rule analysed, including invocation classes built by
 * `createInvocation` that sit outside the tool's own node.
 */
function owningTool(tools: readonly ToolWithInvocation[], node: TSESTree.Node): ToolDefinition | undefined {
  // A finding of a factory's wrapper around the invocation is reported at the tool's own node.
  const owners = tools
    .filter(({ definition, invocationFunctions }) => definition.reportNode === node || invocationFunctions.some((fn) => contains(fn, node)))
    .map(({ definition }) => definition);
  // Nested tools: the innermost one owns the invocation.
  return owners.sort((left, right) => left.node.range[1] - left.node.range[0] - (right.node.range[1] - right.node.range[0]))[0];
}

/** Puts the review note right above the inserted member (a block comment when the layout is one line). */
function withReviewNote(edit: TextEdit): TextEdit {
  const memberAt = edit.text.search(/(?:readonly )?stateScope\b|'[^']*stateScope'/);
  if (memberAt === -1) return edit;
  const lineBreak = edit.text.lastIndexOf('\n', memberAt);
  if (lineBreak !== -1 && /^[ \t]*$/.test(edit.text.slice(lineBreak + 1, memberAt))) {
    const indentation = edit.text.slice(lineBreak + 1, memberAt);
    return {
      ...edit,
      text: `${edit.text.slice(0, memberAt)}// ${TODO_MARKER}: ${REVIEW_NOTE}\n${indentation}${edit.text.slice(memberAt)}`,
    };
  }
  return { ...edit, text: `${edit.text.slice(0, memberAt)}/* ${TODO_MARKER}: ${REVIEW_NOTE} */ ${edit.text.slice(memberAt)}` };
}

/**
 * `declare-state-scope`: the seed-003 rule "a tool whose invocation changes
 * state that outlives the call declares its scope". The codemod cannot know
 * the intended scope, so it writes down what the code does today
 * (`stateScope: 'session'`) with a TODO for a human to confirm or tighten.
 */
export const declareStateScope: RuleTransform<'declare-tool-state-scope'> = {
  name: 'declare-state-scope',
  description: "stateScope: 'session' with a TODO to review, on tools whose calls change state that outlives them",
  ruleName: 'declare-tool-state-scope',
  run(input) {
    const edits: TextEdit[] = [];
    const unresolved: UnresolvedSite[] = [];
    const handled = new Set<ToolDefinition['node']>();
    const imported = new Map<string, TextEdit | undefined>();
    const toolsByProgram = new Map<TSESTree.Program, ToolWithInvocation[]>();
    for (const finding of input.findings) {
      const node = finding.reportedNode;
      const tool =
        node && finding.ruleContext && finding.messageId !== 'invalidStateScope'
          ? owningTool(toolsOfLintedFile(finding, toolsByProgram), node)
          : undefined;
      const sourceCode = finding.ruleContext?.sourceCode;
      const fix =
        tool && sourceCode
          ? insertToolMemberFix(tool, MEMBER, quoted(sourceCode, PROPOSED_SCOPE), sourceCode, {
              readonlyField: isTypeScriptFile(finding.ruleContext!.filename),
              file: getRecognitionContext(finding.ruleContext!).file,
            })
          : undefined;
      const fixSplices = fix ? splitFix(fix) : undefined;
      const splices = fixSplices ? withPackageImports(input, fixSplices, imported) : undefined;
      if (!tool || !splices) {
        unresolved.push({ line: finding.line, column: finding.column, reason: `${finding.message} (declare stateScope by hand)` });
        continue;
      }
      if (handled.has(tool.node)) continue;
      handled.add(tool.node);
      edits.push(...splices.map(withReviewNote));
    }
    return { edits, unresolved };
  },
};
