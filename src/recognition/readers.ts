/**
 * Which calls are readers: calls whose argument names a path, URL or
 * resource to read. Module readers match through the file's imports under
 * any alias or namespace (`import * as f from 'node:fs'`, `const { readFile:
 * r } = require('fs/promises')`, `import fs from 'fs'` + `fs.promises.readFile`);
 * receiver-free readers (`readTextFile`, `readResource`) match a method of
 * that name on any receiver; `fetch` matches the global only (not a
 * parameter or local of that name: a callback the caller handed in).
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { enclosingInitialiser, getCalleeLastName, getCalleeName, getMemberPath, skipTypeWrappers } from './ast.js';
import type { FileIndex } from './file-index.js';
import type { NormalizedReaderSpec, RecognitionSettings } from './settings.js';
import { isBoundInFunction } from './tool-name.js';

export interface ReaderMatch {
  spec: NormalizedReaderSpec;
  /** The callee as written, for messages: `fs.promises.readFile`. */
  displayName: string;
  /** The argument that names what is read, when present. */
  pathArgument: TSESTree.CallExpressionArgument | undefined;
}

/**
 * Methods of services and executors that say they read what their argument
 * names. A search of a location (`backend.grep(pattern, path)`,
 * `filesystem.grepRaw(p, { path })`, `search.search(q, { path })`,
 * `searchManager.startSearch({ rootPath })`) reads it too: what it answers is
 * the matched lines or chunks of the files there. A getter named for a
 * stored file (`skills.getAsset(skillPath, path)`) reads the one it is given.
 */
export const SERVICE_READER_NAME =
  /^(?:read|fetch|load|open|view|scrape|crawl|download|extract|grep|ripgrep|search)(?:[A-Z_\d]|$)|^get\w*Content$|^get(?:Asset|File|Document|Blob)$|^[a-z]+(?:Grep|Search)$/;

/** Readers that only count as the global, never as a method (`this.client.channels.fetch(id)` is not `fetch`). */
const GLOBAL_ONLY_READERS = new Set(['fetch']);
const GLOBAL_RECEIVERS = new Set(['globalThis', 'window', 'self', 'global']);

/**
 * esbuild's names for a module it bundled: `axios_default` (its default export) and `import_axios`
 * (the whole module, `import_axios.default.get(…)`). The module's name with every character that
 * cannot be in an identifier turned into `_` (`node-fetch` → `node_fetch`).
 */
const BUNDLED_DEFAULT = /^([A-Za-z_$][\w$]*?)_default$/;
const BUNDLED_MODULE = /^import_([A-Za-z_$][\w$]*)$/;

/** A module's name as esbuild spells it in the identifiers it makes for it. */
function bundledSpelling(module: string): string {
  return module.replace(/[^\w$]/g, '_');
}

function pathWithinModule(
  path: string[],
  imports: FileIndex['imports'],
): { module: string; members: string[]; bundled?: true } | undefined {
  const [root, ...rest] = path;
  if (root === undefined) return undefined;
  const binding = imports.get(root);
  if (!binding) {
    const asDefault = BUNDLED_DEFAULT.exec(root)?.[1];
    if (asDefault !== undefined) return { module: asDefault, members: ['default', ...rest], bundled: true };
    const whole = BUNDLED_MODULE.exec(root)?.[1];
    return whole === undefined ? undefined : { module: whole, members: rest, bundled: true };
  }
  if (binding.imported === '*') return { module: binding.module, members: rest };
  return { module: binding.module, members: [binding.imported, ...rest] };
}

function moduleMemberMatches(members: string[], specName: string): boolean {
  // `const got = require('got'); got(u)`: a CommonJS module called as a whole is its default export.
  if (members.length === 0) return specName === 'default';
  const joined = members.join('.');
  if (joined === specName) return true;
  // `import fs from 'fs'; fs.readFile`: the default export carries the named ones.
  return members[0] === 'default' && members.slice(1).join('.') === specName;
}

/** `open(p, 'w')`, `openSync(p, O_WRONLY | O_CREAT)`: an open that only writes reads nothing. */
function opensForWritingOnly(spec: NormalizedReaderSpec, call: TSESTree.CallExpression | TSESTree.NewExpression): boolean {
  return /(?:^|\.)open(?:Sync)?$/.test(spec.name) && opensWithWriteFlags(call, spec.pathArgument);
}

/** The flags after the path say write or append only (`'w'`, `'a'`, `O_WRONLY`, `O_APPEND`). */
export function opensWithWriteFlags(call: TSESTree.CallExpression | TSESTree.NewExpression, pathArgument = 0): boolean {
  const flags = call.arguments[pathArgument + 1];
  if (!flags) return false;
  const target = skipTypeWrappers(flags);
  if (target.type === AST_NODE_TYPES.Literal && typeof target.value === 'string')
    return /^[wa]/.test(target.value) && !target.value.includes('+');
  let writes = false;
  let reads = false;
  const visit = (node: TSESTree.Node): void => {
    const name =
      node.type === AST_NODE_TYPES.Identifier
        ? node.name
        : node.type === AST_NODE_TYPES.MemberExpression
          ? getMemberPath(node)?.at(-1)
          : undefined;
    if (name === 'O_WRONLY' || name === 'O_APPEND') writes = true;
    if (name === 'O_RDONLY' || name === 'O_RDWR') reads = true;
    if (node.type === AST_NODE_TYPES.BinaryExpression) {
      visit(node.left);
      visit(node.right);
    }
  };
  visit(target);
  return writes && !reads;
}

export function matchReader(
  call: TSESTree.CallExpression | TSESTree.NewExpression,
  file: Pick<FileIndex, 'imports'>,
  settings: RecognitionSettings,
): ReaderMatch | undefined {
  const callee = skipTypeWrappers(call.callee);
  if (callee.type === AST_NODE_TYPES.MemberExpression && !callee.computed) {
    // `(secure ? https : http).request(url, …)`: a reader when either module is one.
    const receiver = skipTypeWrappers(callee.object);
    if (receiver.type === AST_NODE_TYPES.ConditionalExpression) {
      for (const branch of [receiver.consequent, receiver.alternate]) {
        const alternative = { ...call, callee: { ...callee, object: branch } } as TSESTree.CallExpression;
        const match = matchReader(alternative, file, settings);
        if (match) return match;
      }
      return undefined;
    }
  }
  const path = getMemberPath(call.callee);
  const lastName = getCalleeLastName(call);
  const inModule = path ? pathWithinModule(path, file.imports) : undefined;
  for (const spec of settings.readers) {
    let matched: boolean;
    if (spec.module !== undefined) {
      matched =
        inModule !== undefined &&
        (inModule.bundled ? inModule.module === bundledSpelling(spec.module) : inModule.module === spec.module) &&
        moduleMemberMatches(inModule.members, spec.name);
    } else if (GLOBAL_ONLY_READERS.has(spec.name)) {
      matched =
        path !== undefined &&
        path[path.length - 1] === spec.name &&
        (path.length === 1
          ? !file.imports.has(spec.name) && !(callee.type === AST_NODE_TYPES.Identifier && isBoundInFunction(callee))
          : path.length === 2 && GLOBAL_RECEIVERS.has(path[0]!));
    } else if (spec.name.includes('.')) {
      const calleeName = getCalleeName(call);
      matched = calleeName !== undefined && (calleeName === spec.name || calleeName.endsWith(`.${spec.name}`));
    } else {
      matched = lastName === spec.name;
    }
    if (matched && opensForWritingOnly(spec, call)) return undefined;
    if (matched) {
      return {
        spec,
        displayName: getCalleeName(call) ?? lastName ?? spec.name,
        pathArgument: call.arguments[spec.pathArgument],
      };
    }
  }
  return undefined;
}

/** Readers that navigate the object they are called on (`page.goto(url)`, `driver.get(url)`): it then shows what was read. */
const NAVIGATING_READERS = new Set(['goto', 'driver.get']);

/**
 * The receiver a navigating reader loads the location into: after
 * `page.goto(url)` the page holds that URL's document, so what its content
 * accessors answer (`page.content()`, `page.evaluate(…)`, `page.innerText('body')`)
 * is content read from the model's URL.
 */
export function navigatedReceiver(
  call: TSESTree.CallExpression | TSESTree.NewExpression,
  match: ReaderMatch,
): TSESTree.Expression | undefined {
  if (match.spec.module !== undefined || !NAVIGATING_READERS.has(match.spec.name)) return undefined;
  const callee = skipTypeWrappers(call.callee);
  const member = callee.type === AST_NODE_TYPES.ChainExpression ? callee.expression : callee;
  return member.type === AST_NODE_TYPES.MemberExpression ? member.object : undefined;
}

/** The dotted callee of a call for display, falling back to its last name. */
export function describeCall(call: TSESTree.CallExpression | TSESTree.NewExpression): string {
  const callee = skipTypeWrappers(call.callee);
  const name = getCalleeName(call) ?? getCalleeLastName(call) ?? (callee.type === AST_NODE_TYPES.Identifier ? callee.name : 'call');
  return call.type === AST_NODE_TYPES.NewExpression ? `new ${name}` : name;
}

/** Calls that start a program with an argument list: `spawn(program, args)`, `execFile`, `execa`, gemini-cli's `execStreaming`. */
const PROGRAM_STARTERS = new Set(['spawn', 'spawnSync', 'execFile', 'execFileSync', 'execa', 'execaSync', 'execStreaming']);
/**
 * Calls that start a command line: `exec('rg -n ' + pattern + ' ' + dir)`. Handed a bare program and
 * an argument list instead (`exec('jq', args)`, a package's own helper of that name), they start the
 * program as `execFile` does.
 */
const COMMAND_LINE_STARTERS = new Set(['exec', 'execSync', 'execCommand']);
/** Programs that search file contents and print the lines they match. */
const CONTENT_SEARCH_PROGRAMS = new Set(['rg', 'ripgrep', 'grep', 'egrep', 'fgrep', 'ag', 'ack']);
/**
 * Programs that print what a file holds, whole, in part, or what a query extracts from it
 * (`cat`, `head -n 50`, `jq '.deps' package.json`, `yq`, `xxd`): given the model's path they
 * read it and hand its content back on stdout, as a content search hands back its matches.
 */
const CONTENT_PRINT_PROGRAMS = new Set(['cat', 'head', 'tail', 'tac', 'nl', 'bat', 'jq', 'yq', 'xq', 'xxd', 'hexdump', 'od', 'strings']);
/** Programs whose first operand is a query over what follows it (`jq '.a' file.json`), not a location. */
const QUERY_PROGRAMS = new Set(['jq', 'yq', 'xq']);
/** git's subcommands that print file contents: `git grep`, `git show ref:path`, `git cat-file -p`, `git blame`. */
const GIT_CONTENT_SUBCOMMANDS = new Set(['grep', 'show', 'cat-file', 'blame']);
/** A value that names such a program: `rg`, `rgPath`, `ripgrepPath`, `getRipgrepPath()`, `grepBinary`. */
const CONTENT_SEARCH_PROGRAM_NAME = /^(?:rg|ripgrep|grep)(?:[A-Z_\d]|$)|ripgrep|RipGrep|Ripgrep/;
const COMMAND_LINE_SEARCH = /^\s*(?:\S*\/)?(?:rg|ripgrep|grep|egrep|fgrep|ag|ack|git\s+grep)(?:\.exe)?\s/;
const COMMAND_LINE_PRINT = new RegExp(
  `^\\s*(?:\\S*\\/)?(?:${[...CONTENT_PRINT_PROGRAMS].join('|')}|git\\s+(?:show|cat-file|blame))(?:\\.exe)?\\s`,
);
/** Flags with which such a program prints file names, types or counts instead of the lines (`rg --files`, `grep -l`, `rg -c`). */
const NAMES_ONLY_FLAGS = /\s(?:--files|--type-list|--files-with(?:out)?-matches|--count(?:-matches)?|-[lLc])(?=\s|$)/;

export interface SearchProcessMatch {
  displayName: string;
  /** The arguments that say where it searches (the argument list, or the command line). */
  locations: TSESTree.Node[];
}

function literalText(node: TSESTree.Node): string | undefined {
  const target = skipTypeWrappers(node);
  if (target.type === AST_NODE_TYPES.Literal && typeof target.value === 'string') return target.value;
  if (target.type === AST_NODE_TYPES.TemplateLiteral && target.expressions.length === 0) return target.quasis[0]?.value.cooked ?? undefined;
  return undefined;
}

/** The literal text a command line starts with: `'rg -n ' + p`, `` `grep -rn ${q} ${dir}` ``. */
function commandHead(node: TSESTree.Node, depth = 0): string | undefined {
  let target = skipTypeWrappers(node);
  // `let cmd = `grep -rn … ${dir}`; execSync(cmd, …)`: the command line the local was given.
  if (target.type === AST_NODE_TYPES.Identifier && depth < 2) {
    const init = enclosingInitialiser(target);
    return init ? commandHead(init, depth + 1) : undefined;
  }
  while (target.type === AST_NODE_TYPES.BinaryExpression && target.operator === '+') target = skipTypeWrappers(target.left);
  if (target.type === AST_NODE_TYPES.TemplateLiteral) return target.quasis[0]?.value.cooked ?? undefined;
  return literalText(target);
}

function namesContentProgram(program: TSESTree.Node, argumentList: TSESTree.Node | undefined): boolean {
  let target = skipTypeWrappers(program);
  if (target.type === AST_NODE_TYPES.AwaitExpression) target = skipTypeWrappers(target.argument);
  const text = literalText(target);
  if (text !== undefined) {
    const base = programBase(target)!;
    if (CONTENT_SEARCH_PROGRAMS.has(base) || CONTENT_PRINT_PROGRAMS.has(base)) return true;
    // `spawn('git', ['grep', '-n', pattern, '--', dir])`, `execFile('git', ['show', `${ref}:${path}`])`.
    const list = argumentList && skipTypeWrappers(argumentList);
    return (
      base === 'git' &&
      list?.type === AST_NODE_TYPES.ArrayExpression &&
      list.elements.some((element) => element !== null && GIT_CONTENT_SUBCOMMANDS.has(literalText(element) ?? ''))
    );
  }
  const path = getMemberPath(target.type === AST_NODE_TYPES.CallExpression ? target.callee : target);
  const name = path?.[path.length - 1];
  return name !== undefined && CONTENT_SEARCH_PROGRAM_NAME.test(name);
}

/** The program a literal names, without its folder or `.exe`: `/usr/bin/jq` → `jq`. */
function programBase(program: TSESTree.Node): string | undefined {
  return literalText(program)
    ?.split(/[\\/]/)
    .pop()
    ?.replace(/\.exe$/i, '');
}

/** `exec('jq', args)`: a bare program (no spaces) and an argument list that is no options object. */
function startsBareProgram(first: TSESTree.Node, second: TSESTree.Node | undefined): boolean {
  const program = literalText(first);
  const list = second && skipTypeWrappers(second);
  return (
    program !== undefined &&
    /^\S+$/.test(program) &&
    list !== undefined &&
    (list.type === AST_NODE_TYPES.ArrayExpression || list.type === AST_NODE_TYPES.Identifier)
  );
}

/**
 * A child process of a content-search program (ripgrep, grep, ag, ack, git
 * grep), which prints the lines it matched in the files it was pointed at,
 * or of a program that prints a file's content (cat, head, tail, jq, yq,
 * git show): given a model-chosen path it reads that path's content and
 * hands it back on stdout. Other programs (`fd`, `find`, `ls`, `stat`, a
 * shell) are not readers.
 */
export function matchSearchProcess(call: TSESTree.CallExpression | TSESTree.NewExpression): SearchProcessMatch | undefined {
  if (call.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const starter = getCalleeLastName(call);
  if (starter === undefined) return undefined;
  const [first, second] = call.arguments;
  if (!first) return undefined;
  if (PROGRAM_STARTERS.has(starter) || (COMMAND_LINE_STARTERS.has(starter) && startsBareProgram(first, second))) {
    if (!second || !namesContentProgram(first, second)) return undefined;
    const list = skipTypeWrappers(second);
    const base = programBase(first) ?? '';
    // `['--files', '-g', pattern]` (written out, or the list a local starts as): names, not lines.
    const initial = list.type === AST_NODE_TYPES.Identifier ? enclosingInitialiser(list) : list;
    const written = initial && skipTypeWrappers(initial);
    const printsNames =
      (CONTENT_SEARCH_PROGRAMS.has(base) || base === 'git') &&
      written?.type === AST_NODE_TYPES.ArrayExpression &&
      written.elements.some((element) => element !== null && NAMES_ONLY_FLAGS.test(` ${literalText(element) ?? ''}`));
    if (printsNames) return undefined;
    if (list.type !== AST_NODE_TYPES.ArrayExpression) return { displayName: describeCall(call), locations: [second] };
    // `jq [filter]` fed on stdin: the query is no location; what follows it is.
    const words = list.elements.map((element) =>
      element?.type === AST_NODE_TYPES.SpreadElement ? element.argument : (element ?? undefined),
    );
    const operands = words.filter((word): word is TSESTree.Expression => word !== undefined && !(literalText(word) ?? '').startsWith('-'));
    const locations = QUERY_PROGRAMS.has(base) ? operands.slice(1) : operands;
    return locations.length === 0 ? undefined : { displayName: describeCall(call), locations };
  }
  if (COMMAND_LINE_STARTERS.has(starter)) {
    const head = commandHead(first);
    if (head === undefined) return undefined;
    const searches = COMMAND_LINE_SEARCH.test(head) && !NAMES_ONLY_FLAGS.test(head);
    if (!searches && !COMMAND_LINE_PRINT.test(head)) return undefined;
    return { displayName: describeCall(call), locations: [first] };
  }
  return undefined;
}
