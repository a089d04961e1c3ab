// Fixes in a harness's own types: its own tool interfaces (without maxResultSizeChars or stateScope)
// and its own replacement state (a class named ReplacementState, plain data, a class without a copy).
// Each case runs in the rule tests without and with type information (the same edit both ways, so the
// editor and the codemod agree), and tests/types/harness-fix-outputs.test.ts compiles every case's code
// and output against the fixture harness and tool-result-guard's real types.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const harnessTypesDirectory = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'harness-types');
export const harnessTypesFile = path.join(harnessTypesDirectory, 'file.ts');

export interface HarnessCase {
  /** What the case shows. */
  name: string;
  code: string;
  messageId: string;
  /** The suggestion the codemod applies (the rule's first), with its output; none when the site is left for review. */
  suggestion?: { messageId: string; output: string };
}

// --- clone-state-on-fork ------------------------------------------------------------------------------

const ownClassState = `import { ReplacementState } from './state.js';

declare function forkSubagent(options: { task: string; replacementState: ReplacementState }): void;

export class Agent {
  private readonly state = new ReplacementState();

  delegate(task: string): void {
    forkSubagent({ task, replacementState: this.state });
  }
}
`;

const parameterProperty = `import { ReplacementState } from './state.js';

declare function spawnSubagent(task: string, options: { contentReplacementState: ReplacementState }): void;

export class Agent {
  constructor(private readonly state: ReplacementState = new ReplacementState()) {}

  delegate(task: string): void {
    spawnSubagent(task, { contentReplacementState: this.state });
  }
}
`;

const beside = `import { cloneReplacementState, createReplacementState } from 'tool-result-guard';

import type { ReplacementState } from './state.js';

declare function forkSubagent(options: { replacementState: ReplacementState }): void;

export const libraryCopy = cloneReplacementState(createReplacementState());

export function delegate(replacementState: ReplacementState): void {
  forkSubagent({ replacementState });
}
`;

const throughBarrel = `import type { ReplacementState } from './index.js';

declare function resumeAgent(options: { contentReplacementState: ReplacementState }): void;

export function resume(parent: { state: ReplacementState }): void {
  resumeAgent({ contentReplacementState: parent.state });
}
`;

const plainData = `import type { Session } from './state.js';

declare function forkSubagent(options: { task: string; replacementState: Session['state'] }): void;

export function delegate(session: Session, task: string): void {
  forkSubagent({ task, replacementState: session.state });
}
`;

const classWithoutCopy = `import { DecisionLedger } from './state.js';

declare function forkSubagent(options: { replacementState: DecisionLedger }): void;

export function delegate(replacementState: DecisionLedger): void {
  forkSubagent({ replacementState });
}
`;

const libraryState = `import { createReplacementState } from 'tool-result-guard';

declare function forkSubagent(options: { replacementState: unknown }): void;

const state = createReplacementState();

export function delegate(): void {
  forkSubagent({ replacementState: state });
}
`;

export const forkCases: readonly HarnessCase[] = [
  {
    name: "a class field holding the harness's own ReplacementState: its clone() method",
    code: ownClassState,
    messageId: 'stateSharedWithFork',
    suggestion: {
      messageId: 'callCloneMethod',
      output: ownClassState.replace('replacementState: this.state', 'replacementState: this.state.clone()'),
    },
  },
  {
    name: 'a parameter property typed with it',
    code: parameterProperty,
    messageId: 'stateSharedWithFork',
    suggestion: {
      messageId: 'callCloneMethod',
      output: parameterProperty.replace('contentReplacementState: this.state', 'contentReplacementState: this.state.clone()'),
    },
  },
  {
    name: "beside tool-result-guard's own clone in scope: never that clone",
    code: beside,
    messageId: 'stateSharedWithFork',
    suggestion: {
      messageId: 'callCloneMethod',
      output: beside.replace('{ replacementState }', '{ replacementState: replacementState.clone() }'),
    },
  },
  {
    name: 'its type imported through a barrel, read through a member',
    code: throughBarrel,
    messageId: 'stateSharedWithFork',
    suggestion: { messageId: 'callCloneMethod', output: throughBarrel.replace(': parent.state', ': parent.state.clone()') },
  },
  {
    name: 'plain data (Sets and Maps): structuredClone',
    code: plainData,
    messageId: 'stateSharedWithFork',
    suggestion: {
      messageId: 'wrapWithStructuredClone',
      output: plainData.replace(': session.state', ': structuredClone(session.state)'),
    },
  },
  {
    name: 'a class without a copy of its own: listed for review, no edit',
    code: classWithoutCopy,
    messageId: 'harnessStateWithoutCopy',
  },
  {
    name: "tool-result-guard's own state: cloneReplacementState, merged into the import",
    code: libraryState,
    messageId: 'stateSharedWithFork',
    suggestion: {
      messageId: 'wrapWithRuntimeClone',
      output: libraryState
        .replace('{ createReplacementState }', '{ createReplacementState, cloneReplacementState }')
        .replace(': state })', ': cloneReplacementState(state) })'),
    },
  },
];

// --- declare-tool-state-scope ----------------------------------------------------------------------------

const typedBrowser = `import type { Tool } from './types.js';

const cookies = new Map<string, string>();

export const browserTool: Tool<{ url: string }> = {
  name: 'browser',
  description: 'Open a page with the session cookies',
  async execute({ url }) {
    cookies.set(new URL(url).host, 'visited');
    return url;
  },
};
`;

const satisfiesBrowser = `import type { Tool } from './index.js';

const visited: string[] = [];

export const historyTool = {
  name: 'history',
  description: 'Remember a page',
  async execute({ url }: { url: string }) {
    visited.push(url);
    return String(visited.length);
  },
} satisfies Tool<{ url: string }>;
`;

const classifiedCounter = `import type { ClassifiedTool } from './types.js';

let calls = 0;

export const counterTool: ClassifiedTool<Record<string, never>> = {
  name: 'counter',
  description: 'Count the calls of this session',
  async execute() {
    calls += 1;
    return String(calls);
  },
};
`;

const factoryCounter = `import { buildTool } from './types.js';

let calls = 0;

export const counterTool = buildTool<Record<string, never>>({
  name: 'counter',
  description: 'Count the calls of this session',
  async execute() {
    calls += 1;
    return String(calls);
  },
});
`;

const importClassify = "import { classifyTool } from 'tool-result-guard';";

export const stateScopeCases: readonly HarnessCase[] = [
  {
    name: "an object typed with the harness's own Tool<Input>: the classifyTool wrapper",
    code: typedBrowser,
    messageId: 'mutatesOutlivingState',
    suggestion: {
      messageId: 'declareSessionScope',
      output: typedBrowser
        .replace("import type { Tool } from './types.js';", `import type { Tool } from './types.js';\n${importClassify}`)
        .replace('Tool<{ url: string }> = {', 'Tool<{ url: string }> = classifyTool({')
        .replace('  },\n};\n', "  },\n}, { stateScope: 'session' });\n"),
    },
  },
  {
    name: '`satisfies` with the type from a barrel: the wrapper around the whole expression',
    code: satisfiesBrowser,
    messageId: 'mutatesOutlivingState',
    suggestion: {
      messageId: 'declareSessionScope',
      output: satisfiesBrowser
        .replace("import type { Tool } from './index.js';", `import type { Tool } from './index.js';\n${importClassify}`)
        .replace('export const historyTool = {', 'export const historyTool = classifyTool({')
        .replace('} satisfies Tool<{ url: string }>;', "} satisfies Tool<{ url: string }>, { stateScope: 'session' });"),
    },
  },
  {
    name: 'a harness type that declares stateScope: the member',
    code: classifiedCounter,
    messageId: 'mutatesOutlivingState',
    suggestion: {
      messageId: 'declareSessionScope',
      output: classifiedCounter.replace('  },\n};\n', "  },\n  stateScope: 'session',\n};\n"),
    },
  },
  {
    name: "the harness's own factory, whose parameter type has no stateScope: the wrapper",
    code: factoryCounter,
    messageId: 'mutatesOutlivingState',
    suggestion: {
      messageId: 'declareSessionScope',
      output: factoryCounter
        .replace("import { buildTool } from './types.js';", `import { buildTool } from './types.js';\n${importClassify}`)
        .replace('counterTool = buildTool<', 'counterTool = classifyTool(buildTool<')
        .replace('  },\n});\n', "  },\n}), { stateScope: 'session' });\n"),
    },
  },
];

// --- require-unbounded-self-reading-tool -------------------------------------------------------------------

const typedReader = `import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';

import type { Tool } from './types.js';

export const readFileTool: Tool<{ path: string }> = {
  name: 'read_file',
  description: 'Read a file of the workspace',
  async execute({ path }, context) {
    return readFile(resolve(context.cwd, path), 'utf8');
  },
};
`;

const classifiedReader = `import { readFile } from 'node:fs/promises';

import type { ClassifiedTool } from './types.js';

export const readFileTool: ClassifiedTool<{ path: string }> = {
  name: 'read_file',
  description: 'Read a file',
  async execute({ path }) {
    return readFile(path, 'utf8');
  },
};
`;

const toolList = `import type { Tool } from './types.js';

export const tools: Tool<{ url: string }>[] = [
  {
    name: 'fetch_page',
    description: 'Fetch a web page',
    async execute({ url }) {
      return (await fetch(url)).text();
    },
  },
];
`;

const importSentinel = "import { classifyTool, UNBOUNDED } from 'tool-result-guard';";

export const classifyCases: readonly HarnessCase[] = [
  {
    name: "a self-reading tool typed with the harness's own Tool<Input>: the classifyTool wrapper, UNBOUNDED",
    code: typedReader,
    messageId: 'missingUnbounded',
    suggestion: {
      messageId: 'setUnbounded',
      output: typedReader
        .replace("import type { Tool } from './types.js';", `import type { Tool } from './types.js';\n${importSentinel}`)
        .replace('Tool<{ path: string }> = {', 'Tool<{ path: string }> = classifyTool({')
        .replace('  },\n};\n', "  },\n}, { reads: 'path', maxResultSizeChars: UNBOUNDED });\n"),
    },
  },
  {
    name: 'a harness type that declares maxResultSizeChars: the member',
    code: classifiedReader,
    messageId: 'missingUnbounded',
    suggestion: {
      messageId: 'setUnbounded',
      output: classifiedReader.replace('  },\n};\n', '  },\n  maxResultSizeChars: Infinity,\n};\n'),
    },
  },
  {
    name: 'an element of a Tool<Input>[] list: the wrapper around the element',
    code: toolList,
    messageId: 'missingUnbounded',
    suggestion: {
      messageId: 'setUnbounded',
      output: toolList
        .replace("import type { Tool } from './types.js';", `import type { Tool } from './types.js';\n${importSentinel}`)
        .replace('= [\n  {\n', '= [\n  classifyTool({\n')
        .replace('    },\n  },\n];\n', "    },\n  }, { reads: 'url', maxResultSizeChars: UNBOUNDED }),\n];\n"),
    },
  },
];

/** Every case, for the compile test: its code and (when it has one) its output. */
export const allHarnessCases: readonly HarnessCase[] = [...forkCases, ...stateScopeCases, ...classifyCases];
