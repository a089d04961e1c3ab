// Following helpers across functions and modules (state-mutation/following-helpers.ts):
// the same-file function a call runs, a Proxy's traps, and the functions of other
// modules that change state their module or instance keeps.
import { describe, expect, it } from 'vitest';

import {
  calledFunction,
  graphStateUpdate,
  hiddenStateChange,
  proxyTraps,
} from '../../../src/recognition/state-mutation/following-helpers.js';
import { functionNameOf } from '../../../src/recognition/ast.js';
import { resolveIdentifier } from '../../../src/recognition/state-mutation/expressions.js';
import { moduleFolder, settings, snippet } from './snippets.js';

describe('calledFunction and proxyTraps', () => {
  it('finds the function a name calls: a declaration or a const bound to a function', () => {
    const code = snippet(`function declared() {}
const arrow = () => 1;
let reassignable = () => 2;
const value = 3;`);
    expect(functionNameOf(calledFunction(code.variable('declared'))!)).toBe('declared');
    expect(functionNameOf(calledFunction(code.variable('arrow'))!)).toBe('arrow');
    // A `let` may be rebound before the call, and a value is no function.
    expect(calledFunction(code.variable('reassignable'))).toBeUndefined();
    expect(calledFunction(code.variable('value'))).toBeUndefined();
  });

  it('finds the traps of a Proxy a variable holds, directly or through the names its initialiser mentions', () => {
    const code = snippet(`let real;
const lazyClient = new Proxy({}, { get(_, key) { real ??= connect(); return real[key]; }, has() { return true; } });
const client = process.env.KEY ? new Api(process.env.KEY) : lazyClient;
const plain = new Map();`);
    expect(proxyTraps(code.variable('lazyClient'), code.sourceCode).map((trap) => trap.name)).toEqual(['get', 'has']);
    expect(proxyTraps(code.variable('client'), code.sourceCode).map((trap) => trap.name)).toEqual(['get', 'has']);
    expect(proxyTraps(code.variable('plain'), code.sourceCode)).toEqual([]);
    // One answer per variable, kept for the next ask.
    expect(proxyTraps(code.variable('client'), code.sourceCode)).toBe(proxyTraps(code.variable('client'), code.sourceCode));
  });
});

describe('hiddenStateChange: state changed out of the invocation’s sight', () => {
  const filePath = moduleFolder({
    'history.ts': `const history = [];
export function remember(url) { history.push(url); }
export function getHistory() { cache ??= [...history]; return cache; }
let cache;`,
    'handlers.ts': `import { manager } from './manager.js';
export function handleStart(args) { return startProcess(args); }
function startProcess(args) { return manager.executeCommand(args.command); }`,
    'manager.ts': `class TerminalManager {
  sessions = new Map();
  executeCommand(command) { return this.run(command); }
  run(command) { this.sessions.set(command, { started: Date.now() }); return command; }
}
export const manager = new TerminalManager();`,
  });

  /** What `hiddenStateChange` says of the last mention of `name` (its use in the tool), in `code` linted beside the modules above. */
  function hidden(code: string, name: string) {
    const parsed = snippet(code, filePath);
    const identifier = parsed.identifier(name, -1);
    const variable = resolveIdentifier(identifier, parsed.sourceCode);
    if (!variable) throw new Error(`${name} does not resolve`);
    const found = hiddenStateChange(identifier, variable, parsed.file, settings);
    return found && { at: parsed.text(found.node), action: found.action, state: found.state };
  }

  it('follows an imported helper into the module state it changes', () => {
    expect(
      hidden(
        `import { remember } from './history.js';\nbuildTool({ name: 'go', async call(input) { remember(input.url); } });`,
        'remember',
      ),
    ).toEqual({
      at: 'remember(input.url)',
      action: 'calls imported `remember`, which changes',
      state: '`history`, module state of history.ts',
    });
  });

  it('follows a namespace import through calls whose names say nothing, and says the chain', () => {
    expect(
      hidden(
        `import * as handlers from './handlers.js';\nbuildTool({ name: 'start', async call(input) { return handlers.handleStart(input); } });`,
        'handlers',
      ),
    ).toEqual({
      at: 'handlers.handleStart(input)',
      action: 'calls `handlers.handleStart()`, which (through `startProcess` → `manager.executeCommand` → `this.run`) changes',
      state: '`this.sessions` of TerminalManager',
    });
  });

  it('does not follow a function named as a question, nor a package import', () => {
    expect(
      hidden(
        `import { getHistory } from './history.js';\nbuildTool({ name: 'list', async call() { return getHistory(); } });`,
        'getHistory',
      ),
    ).toBeUndefined();
    expect(
      hidden(
        `import { readFile } from 'node:fs/promises';\nbuildTool({ name: 'read', async call(input) { return readFile(input.path); } });`,
        'readFile',
      ),
    ).toBeUndefined();
  });

  it('follows a method of an outer instance built from a class of this file', () => {
    expect(
      hidden(
        `class Thinking { history = []; processThought(x) { this.history.push(x); return x; } }
const thinking = new Thinking();
buildTool({ name: 'think', async call(input) { return thinking.processThought(input); } });`,
        'thinking',
      ),
    ).toEqual({
      at: 'thinking.processThought(input)',
      action: 'calls `.processThought()`, which changes `this.history` of',
      state: '`thinking`',
    });
  });
});

describe('graphStateUpdate', () => {
  const update = (options: string) => {
    const parsed = snippet(`import { Command } from '@langchain/langgraph';\nexport const tool = () => new Command(${options});`);
    const identifier = parsed.identifier('Command', -1);
    const found = graphStateUpdate(identifier, parsed.variable('Command'), parsed.file);
    return found && parsed.text(found);
  };

  it('finds a LangGraph Command whose update changes more than the messages', () => {
    expect(update(`{ update: { files: {}, messages: [] } }`)).toBe(`new Command({ update: { files: {}, messages: [] } })`);
    expect(update(`{ update: { ...changes } }`)).toBe(`new Command({ update: { ...changes } })`);
  });

  it('leaves an update of the messages alone, and a Command of another package', () => {
    expect(update(`{ update: { messages: [] } }`)).toBeUndefined();
    expect(update(`{ goto: 'next' }`)).toBeUndefined();
    const other = snippet(`import { Command } from 'commander';\nexport const cli = () => new Command({ update: { files: {} } });`);
    expect(graphStateUpdate(other.identifier('Command', -1), other.variable('Command'), other.file)).toBeUndefined();
  });
});
