/**
 * Which calls are readers: calls whose argument names a path, URL or
 * resource to read. Module readers match through the file's imports under
 * any alias or namespace (`import * as f from 'node:fs'`, `const { readFile:
 * r } = require('fs/promises')`, `import fs from 'fs'` + `fs.promises.readFile`);
 * receiver-free readers (`readTextFile`, `readResource`) match a method of
 * that name on any receiver; `fetch` matches the global only.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { getCalleeLastName, getCalleeName, getMemberPath, skipTypeWrappers } from './ast.js';
import type { FileIndex } from './file-index.js';
import type { NormalizedReaderSpec, RecognitionSettings } from './settings.js';

export interface ReaderMatch {
  spec: NormalizedReaderSpec;
  /** The callee as written, for messages: `fs.promises.readFile`. */
  displayName: string;
  /** The argument that names what is read, when present. */
  pathArgument: TSESTree.CallExpressionArgument | undefined;
}

/** Readers that only count as the global, never as a method (`this.client.channels.fetch(id)` is not `fetch`). */
const GLOBAL_ONLY_READERS = new Set(['fetch']);
const GLOBAL_RECEIVERS = new Set(['globalThis', 'window', 'self', 'global']);

function pathWithinModule(path: string[], imports: FileIndex['imports']): { module: string; members: string[] } | undefined {
  const [root, ...rest] = path;
  if (root === undefined) return undefined;
  const binding = imports.get(root);
  if (!binding) return undefined;
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
  if (target.type === AST_NODE_TYPES.Literal && typeof target.value === 'string') return /^[wa]/.test(target.value) && !target.value.includes('+');
  let writes = false;
  let reads = false;
  const visit = (node: TSESTree.Node): void => {
    const name = node.type === AST_NODE_TYPES.Identifier ? node.name : node.type === AST_NODE_TYPES.MemberExpression ? getMemberPath(node)?.at(-1) : undefined;
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
      matched = inModule !== undefined && inModule.module === spec.module && moduleMemberMatches(inModule.members, spec.name);
    } else if (GLOBAL_ONLY_READERS.has(spec.name)) {
      matched =
        path !== undefined &&
        path[path.length - 1] === spec.name &&
        (path.length === 1 ? !file.imports.has(spec.name) : path.length === 2 && GLOBAL_RECEIVERS.has(path[0]!));
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

/** The dotted callee of a call for display, falling back to its last name. */
export function describeCall(call: TSESTree.CallExpression | TSESTree.NewExpression): string {
  const callee = skipTypeWrappers(call.callee);
  const name = getCalleeName(call) ?? getCalleeLastName(call) ?? (callee.type === AST_NODE_TYPES.Identifier ? callee.name : 'call');
  return call.type === AST_NODE_TYPES.NewExpression ? `new ${name}` : name;
}
