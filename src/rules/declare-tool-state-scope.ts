/**
 * State leakage: a tool whose invocation changes state that outlives the call
 * behaves differently on call N than on call 1. The session can only plan
 * for that when the tool says so: `stateScope: 'isolated' | 'session' |
 * 'agent'`. What counts as such state lives in the recognition core
 * (`recognition/state-mutation/`, one module per concept; its `index.ts`
 * is the entry).
 */
import type { TSESLint } from '@typescript-eslint/utils';

import {
  type StateUse,
  type ToolDefinition,
  STATE_SCOPE_VALUES,
  findDeclaredStateScope,
  findOutlivingStateUses,
  getRecognitionContext,
  getStringValue,
  insertToolMemberFix,
  isTypeScriptFile,
  mayDefineToolsInText,
  producedFixes,
  quoted,
  toolDefinitionListeners,
} from '../recognition/index.js';
import { createRule } from '../util/create-rule.js';

export type Options = [];
/** `data` per report message id (the codemods read it typed, `codemods/rule-protocol.ts`). */
export interface ReportData {
  mutatesOutlivingState: Readonly<Record<string, string>>;
  usesSharedCarrier: Readonly<Record<string, string>>;
  drivesSharedObject: Readonly<Record<string, string>>;
  sendsChangingCommand: Readonly<Record<string, string>>;
  drivesByContract: Readonly<Record<string, string>>;
  invalidStateScope: { value: string };
}
export type SuggestionIds = 'declareSessionScope';
export type MessageIds = keyof ReportData | SuggestionIds;

const MEMBER = 'stateScope';

/** What the code does today: state that carries over between the calls of a session. */
const SCOPE_OF_TODAY = 'session';

export default createRule<Options, MessageIds>({
  name: 'declare-tool-state-scope',
  meta: {
    type: 'problem',
    docs: {
      description:
        "Require tools whose invocation changes state that outlives the call to declare `stateScope: 'isolated' | 'session' | 'agent'`",
      recommended: 'strict',
    },
    messages: {
      mutatesOutlivingState:
        "Tool '{{tool}}' {{action}} {{state}}, which outlives the call, but declares no stateScope. " +
        'Call N then runs on what calls 1..N-1 left behind; ' +
        "declare `stateScope: 'isolated' | 'session' | 'agent'` so the session knows what carries forward.",
      usesSharedCarrier:
        "Tool '{{tool}}' uses the {{carrier}} `{{name}}`, created {{where}}, outside the invocation: " +
        "its cookies or its rate limiter's count carry over between calls, but the tool declares no stateScope. " +
        "Declare `stateScope: 'isolated' | 'session' | 'agent'`, or create it inside the invocation.",
      drivesSharedObject:
        "Tool '{{tool}}' calls `.{{method}}()` on {{object}}: an object the tool does not create, " +
        'which outlives the call and which this call changes, but the tool declares no stateScope. ' +
        'Call N then starts where calls 1..N-1 left it (the page navigated, the task list written); ' +
        "declare `stateScope: 'isolated' | 'session' | 'agent'`.",
      sendsChangingCommand:
        "Tool '{{tool}}' sends the command '{{command}}' through `.{{method}}()` to {{object}}: an object the tool does not create, " +
        'which outlives the call, and a command named for a change to what it holds (the open document, the page), but the tool declares no stateScope. ' +
        'Call N then starts where calls 1..N-1 left it; ' +
        "declare `stateScope: 'isolated' | 'session' | 'agent'`; if the command changes nothing a later call finds, `stateScope: 'isolated'` says so.",
      drivesByContract:
        "Tool '{{tool}}' calls `{{callee}}` with {{object}}. The analysis cannot follow that call, and the tool's name says " +
        "it does '{{verb}}': a change to an object the tool does not create, which the next call finds, but the tool declares no stateScope. " +
        "Declare `stateScope: 'isolated' | 'session' | 'agent'`; if the call leaves nothing a later call finds, `stateScope: 'isolated'` says so.",
      invalidStateScope: "stateScope must be 'isolated', 'session' or 'agent'; {{value}} is none of them.",
      declareSessionScope:
        "Declare stateScope 'session' (what the code does today: state kept between the calls of a session); " +
        "review it: 'isolated' gives each call fresh state, 'agent' shares it across the agent's sessions.",
    },
    hasSuggestions: true,
    schema: [],
  },
  // Reports sit in tool definitions: a file that cannot define a tool has nothing to check.
  mayReport: mayDefineToolsInText,
  create(context) {
    const sourceCode = context.sourceCode;
    // One report per mutation and state, even when two tools share one invocation function
    // (`tool({ execute: invoke })` twice) or `({ a, b } = next())` names two bindings; its
    // suggestion declares the scope on every tool the change belongs to, so one pass fixes them all.
    const uses = new Map<string, { use: StateUse; tools: ToolDefinition[] }>();
    const check = (definition: ToolDefinition): void => {
      const recognition = getRecognitionContext(context);
      const declared = findDeclaredStateScope(definition, recognition);
      if (declared) {
        const value = declared.value ? getStringValue(declared.value) : undefined;
        if (value !== undefined && !(STATE_SCOPE_VALUES as readonly string[]).includes(value) && declared.value) {
          context.report({
            node: declared.value,
            messageId: 'invalidStateScope',
            data: { value: JSON.stringify(value) } satisfies ReportData['invalidStateScope'],
          });
        }
        // A non-literal value (a constant, a variable) is a declaration we cannot read: trust it.
        return;
      }
      for (const use of findOutlivingStateUses(definition, recognition, sourceCode)) {
        const key = `${use.node.range[0]}:${use.node.range[1]}:${use.stateKey}`;
        const known = uses.get(key);
        if (!known) uses.set(key, { use, tools: [definition] });
        else if (!known.tools.includes(definition)) known.tools.push(definition);
      }
    };

    /** `stateScope: 'session'` on each of `tools` that has a place for it (the same helper as maxResultSizeChars). */
    function declareScopeFix(tools: readonly ToolDefinition[]): TSESLint.ReportFixFunction | undefined {
      const recognition = getRecognitionContext(context);
      const fixes = tools
        .map((tool) =>
          insertToolMemberFix(tool, MEMBER, quoted(sourceCode, SCOPE_OF_TODAY), sourceCode, {
            readonlyField: isTypeScriptFile(context.filename),
            file: recognition.file,
            types: recognition.types,
          }),
        )
        .filter((fix) => fix !== undefined);
      if (fixes.length === 0) return undefined;
      return (fixer) => fixes.flatMap((fix) => producedFixes(fix(fixer)));
    }

    return {
      ...toolDefinitionListeners(() => getRecognitionContext(context), check),
      'Program:exit'() {
        for (const { use, tools } of uses.values()) {
          const fix = declareScopeFix(tools);
          context.report({
            node: use.node,
            messageId: use.messageId,
            data: use.data,
            suggest: fix ? [{ messageId: 'declareSessionScope', fix }] : [],
          });
        }
      },
    };
  },
});
