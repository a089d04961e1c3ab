// Base classes and inherited methods (base-classes.ts): the class
// an `extends` clause or `new C(…)` names, in this file or a relatively imported
// one, and the methods a class inherits from it.
import path from 'node:path';

import type { TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';

import { getStaticKeyName } from '../../src/recognition/index.js';
import { classOf, inheritedMethod } from '../../src/recognition/base-classes.js';
import { moduleFolder, snippet } from './state-mutation/snippets.js';

const filePath = moduleFolder({
  'base.ts': `export class GmailBaseTool {
  async getClient() { this.gmail ??= connect(); return this.gmail; }
}
class Hidden {}
export { Hidden as Renamed };`,
  'middle.ts': `import { GmailBaseTool } from './base.js';
export class MiddleTool extends GmailBaseTool { describe() { return 'mail'; } }`,
});

/** The name of the method a `{ fn }` answer holds. */
const methodName = (fn: TSESTree.Node | undefined) =>
  fn?.parent?.type === 'MethodDefinition' ? getStaticKeyName(fn.parent.key, fn.parent.computed) : undefined;

describe('classOf', () => {
  const code = snippet(
    `import { GmailBaseTool, Renamed } from './base.js';
import Default from './base.js';
class Local {}
const built = new GmailBaseTool();
const renamed = new Renamed();
const local = new Local();
const other = new Default();
const missing = new Missing();`,
    filePath,
  );
  const built = (expression: string) => {
    const found = classOf(code.node(expression), code.file);
    return found && { name: found.classNode.id?.name, file: found.file === code.file ? 'this file' : path.basename(found.file.filePath) };
  };

  it('finds the class a `new` builds, in this file or exported by a relative module', () => {
    expect(built('new Local()')).toEqual({ name: 'Local', file: 'this file' });
    expect(built('new GmailBaseTool()')).toEqual({ name: 'GmailBaseTool', file: 'base.ts' });
    // `export { Hidden as Renamed }`: the exported name leads to the local class.
    expect(built('new Renamed()')).toEqual({ name: 'Hidden', file: 'base.ts' });
  });

  it('finds nothing for a default import, an unknown class or an expression that builds nothing', () => {
    expect(built('new Default()')).toBeUndefined();
    expect(built('new Missing()')).toBeUndefined();
    expect(classOf(code.identifier('GmailBaseTool', -1), code.file)).toBeUndefined();
    expect(classOf(undefined, code.file)).toBeUndefined();
  });
});

describe('inheritedMethod', () => {
  it('resolves an `extends` clause that names a member of a namespace import (a CommonJS build)', () => {
    const code = snippet(
      `import * as require_base from './base.js';
class A extends require_base.GmailBaseTool {}`,
      filePath,
    );
    const a = code.program.body[1] as TSESTree.ClassDeclaration;
    expect(inheritedMethod(a, 'getClient', code.file)?.className).toBe('GmailBaseTool');
  });

  it('finds a method up to the base classes of other files, with the class it comes from', () => {
    const code = snippet(
      `import { MiddleTool } from './middle.js';
class SendTool extends MiddleTool { async call() { return this.getClient(); } }`,
      filePath,
    );
    const classNode = code.program.body[1] as TSESTree.ClassDeclaration;
    const found = inheritedMethod(classNode, 'getClient', code.file);
    expect(found && { method: methodName(found.fn), className: found.className, file: found.file.filePath.endsWith('base.ts') }).toEqual({
      method: 'getClient',
      className: 'GmailBaseTool',
      file: true,
    });
    expect(inheritedMethod(classNode, 'describe', code.file)?.className).toBe('MiddleTool');
    expect(inheritedMethod(classNode, 'missing', code.file)).toBeUndefined();
  });

  it('reports a tool whose inherited method caches a client on the instance', () => {
    const code = snippet(
      `import { MiddleTool } from './middle.js';
class SendTool extends MiddleTool { async call(input) { const gmail = await this.getClient(); return gmail.send(input); } }`,
      filePath,
    );
    expect(code.uses()).toEqual([
      {
        kind: 'mutatesOutlivingState',
        data: {
          tool: 'SendTool',
          action: 'calls `this.getClient()` (inherited from `GmailBaseTool`), which changes',
          state: 'instance field `this.gmail`',
        },
        at: 'this.getClient()',
      },
    ]);
  });
});
