// Demo part 4: an agent-loop session on the persistence runtime (seeds 000 and 002).
// Real tool output (a shell search, a file read) flows through applyToolResultBudget;
// the session then retries, forks, lets an ephemeral compact agent run, and resumes
// from its transcript in a "new process", printing what happened and where files went.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, statSync, appendFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  UNBOUNDED,
  ToolResultStore,
  applyToolResultBudget,
  cloneReplacementState,
  createReplacementState,
  getEffectivePersistenceThreshold,
  reconstructReplacementState,
  shouldPersistForSession,
} from '../../dist/index.js';

export const title = 'Runtime: an agent session that persists, freezes, forks, compacts and resumes';

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

// The classification examples/agent-harness should have (its ReadFileTool is
// still finite there: that is the defect the lint rules and codemods fix).
const tools = [
  { name: 'bash', maxResultSizeChars: 30_000 },
  { name: 'read_file', maxResultSizeChars: UNBOUNDED },
  { name: 'grep', maxResultSizeChars: 20_000 },
];
const PER_MESSAGE_LIMIT = 200_000;

const mode = (file) => `0${(statSync(file).mode & 0o777).toString(8)}`;
const digest = (text) => createHash('sha256').update(text).digest('hex').slice(0, 16);
const fate = (original, shown) => (shown === original ? 'inline' : 'replaced by a preview');
const indent = (text, prefix = '    │ ') => text.split('\n').map((line) => prefix + line).join('\n');

function runTool(name, input) {
  if (name === 'bash') {
    return execFileSync('bash', ['-c', input.command], { cwd: repositoryRoot, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  }
  if (name === 'read_file') return readFileSync(path.join(repositoryRoot, input.file_path), 'utf8');
  if (name === 'grep') return execFileSync('grep', ['-rn', input.pattern, input.path], { cwd: repositoryRoot, encoding: 'utf8' });
  throw new Error(`unknown tool ${name}`);
}

function showReplacement(replacement) {
  const lines = replacement.split('\n');
  const head = lines.slice(0, 5).join('\n');
  console.log(indent(`${head}\n… (${replacement.length} characters in all, ending "${lines.at(-1)}")`));
}

export async function run() {
  const root = mkdtempSync(path.join(tmpdir(), 'trg-demo-runtime-'));
  const sessionId = 'session-2026-11-30';
  const transcriptFile = path.join(root, `${sessionId}.jsonl`);
  const log = (entry) => appendFileSync(transcriptFile, `${JSON.stringify(entry)}\n`);
  try {
    console.log(`Storage root (owned by the main thread): ${root}`);
    console.log(`Thresholds: ${tools.map((tool) => `${tool.name}=${getEffectivePersistenceThreshold(tool, { read_file: 5_000 })}`).join(', ')}`);
    console.log('  (an admin override read_file=5000 is ignored: the sentinel is checked before any override)');

    // ---- Turn 1: the main thread runs three tools ---------------------------------
    const store = new ToolResultStore({ root, sessionId });
    const state = createReplacementState();
    const calls = [
      { toolUseId: 'toolu_01_bash', toolName: 'bash', input: { command: 'grep -rn "export declare function" node_modules/@typescript-eslint/ --include=*.d.ts' } },
      { toolUseId: 'toolu_02_read', toolName: 'read_file', input: { file_path: 'node_modules/typescript/lib/lib.es5.d.ts' } },
      { toolUseId: 'toolu_03_grep', toolName: 'grep', input: { pattern: 'maxResultSizeChars', path: 'examples/agent-harness/src' } },
    ];
    const turn1 = calls.map(({ toolUseId, toolName, input }) => ({ toolUseId, toolName, content: runTool(toolName, input) }));
    const mainOptions = {
      store,
      tools,
      perMessageLimit: PER_MESSAGE_LIMIT,
      querySource: 'repl_main_thread',
      agentId: 'main',
      onRecord: (record) => log(record),
    };
    const first = await applyToolResultBudget(turn1, state, mainOptions);
    log({ type: 'tool_results', toolUseIds: turn1.map((result) => result.toolUseId) });

    console.log('\n1. Main thread (repl_main_thread), one message of tool results:');
    first.results.forEach((shown, index) => {
      const original = turn1[index];
      console.log(`  ${original.toolUseId} (${original.toolName}, ${original.content.length} chars): ${fate(original.content, shown.content)}`);
    });
    const persistedFile = store.pathFor('toolu_01_bash');
    console.log('\n  The shell result the model now sees:');
    showReplacement(first.results[0].content);
    console.log(`\n  Full output on disk: ${persistedFile}`);
    console.log(`    file mode ${mode(persistedFile)}, folder ${store.directory} mode ${mode(store.directory)}, ${statSync(persistedFile).size} bytes`);
    console.log(`    store.isPersistedPath(that file) = ${store.isPersistedPath(persistedFile)}  (a read tool can refuse to read it back)`);
    const messageSize = first.results.reduce((total, result) => total + result.content.length, 0);
    console.log(`  The message holds ${messageSize} chars, over the ${PER_MESSAGE_LIMIT} limit, yet lib.es5.d.ts stays inline:`);
    console.log('    read_file is self-bounding (UNBOUNDED); persisting it would let the model read its own output back forever.');
    console.log(`  Records written to the transcript: ${first.newlyReplaced.map((record) => record.toolUseId).join(', ')}`);

    // ---- Retry: the same message again ---------------------------------------------
    const retry = await applyToolResultBudget(turn1, state, { ...mainOptions, perMessageLimit: 10_000 });
    const identical = retry.results.every((result, index) => result.content === first.results[index].content);
    console.log(`\n2. Retry with a tighter limit (10,000): fates frozen, prompt byte-identical: ${identical}; new records: ${retry.newlyReplaced.length}`);

    // ---- Fork: a subagent inherits the decisions ----------------------------------
    const childState = cloneReplacementState(state);
    const childRecords = [];
    const childOptions = { ...mainOptions, querySource: 'agent:researcher', agentId: 'researcher', onRecord: (record) => childRecords.push(record) };
    const childView = await applyToolResultBudget(turn1, childState, childOptions);
    const inherits = childView.results.every((result, index) => result.content === first.results[index].content);
    const childTurn = [{ toolUseId: 'toolu_04_child', toolName: 'bash', content: runTool('bash', { command: 'ls -lR node_modules/@types/node node_modules/typescript node_modules/@typescript-eslint' }) }];
    const childOwn = await applyToolResultBudget(childTurn, childState, childOptions);
    console.log('\n3. Fork (agent:researcher) with cloneReplacementState(state):');
    console.log(`  sees the parent's results exactly as the parent does: ${inherits}`);
    console.log(`  its own ${childTurn[0].content.length}-char listing: ${fate(childTurn[0].content, childOwn.results[0].content)} (record kept in the fork's own transcript: ${childRecords.length})`);
    console.log(`  the parent knows nothing of it: seen by parent = ${state.seenIds.has('toolu_04_child')}, parent replacements = ${state.replacements.size}`);
    try {
      await applyToolResultBudget([], state, { ...childOptions });
    } catch (error) {
      console.log(`  handing the parent's live state to the fork instead is refused:\n    ${error.code}: ${error.message.split('. ')[0]}.`);
    }

    // ---- An ephemeral compact agent writes nothing ---------------------------------
    const before = readdirSync(store.directory).sort();
    const compactState = cloneReplacementState(state);
    const compactTurn = [{ toolUseId: 'toolu_05_compact', toolName: 'bash', content: 'summary input '.repeat(5_000) }];
    let compactRecords = 0;
    const compact = await applyToolResultBudget([...turn1, ...compactTurn], compactState, {
      ...mainOptions,
      querySource: 'compact',
      agentId: 'compact',
      onRecord: () => (compactRecords += 1),
    });
    const after = readdirSync(store.directory).sort();
    console.log(`\n4. Compact agent (querySource "compact", shouldPersistForSession = ${shouldPersistForSession('compact')}):`);
    console.log(`  its ${compactTurn[0].content.length}-char result stays inline: ${compact.results.at(-1).content === compactTurn[0].content}; files before/after: ${before.length}/${after.length}; records: ${compactRecords}`);
    console.log(`  earlier replacements are still applied for it: ${compact.results[0].content === first.results[0].content}`);

    // ---- Resume in a "new process" from the transcript -----------------------------
    const entries = readFileSync(transcriptFile, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    const toolUseIds = entries.filter((entry) => entry.type === 'tool_results').flatMap((entry) => entry.toolUseIds);
    const records = entries.filter((entry) => entry.kind === 'tool-result');
    const resumedState = reconstructReplacementState(toolUseIds, records);
    const resumedStore = new ToolResultStore({ root, sessionId });
    let persistCalls = 0;
    const countingStore = { persist: (id, content) => ((persistCalls += 1), resumedStore.persist(id, content)) };
    const resumed = await applyToolResultBudget(turn1, resumedState, { ...mainOptions, store: countingStore, agentId: 'main-resumed' });
    console.log(`\n5. Resume from ${path.basename(transcriptFile)} (${entries.length} lines: ${records.length} replacement records):`);
    resumed.results.forEach((result, index) => {
      const same = result.content === first.results[index].content;
      console.log(`  ${result.toolUseId}: sha256 ${digest(first.results[index].content)} before, ${digest(result.content)} after → ${same ? 'byte-identical' : 'DIFFERENT'}`);
    });
    console.log(`  store.persist calls on resume: ${persistCalls}; files in ${store.directory}: ${readdirSync(store.directory).sort().join(', ')}`);
  } finally {
    rmSync(root, { recursive: true, force: true });
    console.log(`\n(temp root removed: ${root})`);
  }
}
