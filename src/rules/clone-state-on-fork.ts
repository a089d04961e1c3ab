import path from 'node:path';

import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { getCalleeName, getCalleeLastName, getStaticKeyName, skipTypeWrappers } from '../recognition/ast.js';
import { getRecognitionContext } from '../recognition/context.js';
import { mayForkInText } from '../recognition/findings-prefilter.js';
import { quoted } from '../recognition/member-fix.js';
import { loadModule, resolveRelativeModule } from '../recognition/module-graph.js';
import {
  CLONE_FUNCTION_PATTERN,
  CLONE_METHOD,
  type NoCopyReason,
  RUNTIME_CLONE_FUNCTION,
  RUNTIME_MODULE,
} from '../recognition/replacement-state.js';
import { createRule } from '../util/create-rule.js';

export type Options = [];
/** `data` per report message id (the codemods read it typed, `codemods/rule-protocol.ts`). */
export interface ReportData {
  stateSharedWithFork: {
    stateName: string;
    callee: string;
    /** The function or method the fix copies with: `cloneReplacementState`, `structuredClone`, `clone`, a harness's `clone…State`. */
    cloneFunction: string;
    /** The copy to pass instead: `cloneReplacementState(state)`, `state.clone()`. */
    copy: string;
    property: string;
  };
  harnessStateWithoutCopy: { stateName: string; callee: string; typeName: string; why: string; property: string };
}
export type SuggestionIds = 'wrapWithRuntimeClone' | 'wrapWithModuleClone' | 'wrapWithStructuredClone' | 'callCloneMethod';
export type MessageIds = keyof ReportData | SuggestionIds;

/** The structured clone every runtime has (Node >= 17, browsers): a deep copy of a harness's own Sets and Maps. */
const STRUCTURED_CLONE = 'structuredClone';

/** Why no copy can be written for a harness's state, as the message says it. */
const NO_COPY_REASONS: Record<NoCopyReason, string> = {
  class:
    'structuredClone would copy its fields but not its class (its methods and private fields are lost), ' +
    "and tool-result-guard's cloneReplacementState only takes the runtime's own state",
  functions:
    "structuredClone throws on the functions it holds, and tool-result-guard's cloneReplacementState only takes the runtime's own state",
  unreadable:
    "its declaration cannot be read here (a package's type, or a module that is not in this project), so neither structuredClone nor tool-result-guard's cloneReplacementState is known to fit",
};

/** The `clone…State` function a local module exports (parsed once per path and modification time by the recognition core). */
function exportedCloneFunctionOf(file: string): string | undefined {
  const index = loadModule(file);
  return index ? [...index.exports.keys()].find((name) => CLONE_FUNCTION_PATTERN.test(name)) : undefined;
}

export default createRule<Options, MessageIds>({
  name: 'clone-state-on-fork',
  meta: {
    type: 'problem',
    docs: {
      description:
        'Require the replacement state handed to a fork, subagent or resume to be a clone or reconstruction, never the live object',
      recommended: 'recommended',
    },
    fixable: 'code',
    hasSuggestions: true,
    messages: {
      stateSharedWithFork:
        '`{{stateName}}` is handed to `{{callee}}(…)` as the live replacement state. ' +
        'Pass a clone (`{{copy}}`), or a reconstruction on resume: ' +
        'a shared state lets parent and child decide for each other and breaks the prompt cache.',
      harnessStateWithoutCopy:
        '`{{stateName}}` is handed to `{{callee}}(…)` as the live replacement state, and it is the harness’s own {{typeName}}: ' +
        '{{why}}. Give {{typeName}} a `clone()` method that copies its seen ids and replacements, and pass `{{stateName}}.clone()`: ' +
        'a shared state lets parent and child decide for each other and breaks the prompt cache.',
      wrapWithRuntimeClone: "Wrap with `cloneReplacementState(…)` from 'tool-result-guard'.",
      wrapWithModuleClone: "Wrap with `{{cloneFunction}}(…)` from '{{module}}'.",
      wrapWithStructuredClone:
        'Wrap with `structuredClone(…)`: this state is the harness’s own plain data, not a tool-result-guard ReplacementState, ' +
        'so cloneReplacementState would reject it.',
      callCloneMethod:
        'Call its own `clone()` method: this state is the harness’s own {{typeName}}, not a tool-result-guard ReplacementState, ' +
        'so cloneReplacementState would reject it.',
    },
    schema: [],
  },
  // Fork calls are recognised by their callee's name: a file that spells none has nothing to check.
  mayReport: mayForkInText,
  create(context) {
    const sourceCode = context.sourceCode;
    const recognizer = getRecognitionContext(context).replacementState;
    const program = sourceCode.ast;
    const isModule = program.sourceType === 'module';
    const carrierNames = new Set(recognizer.settings.stateNames);

    const imports = program.body.filter(
      (statement): statement is TSESTree.ImportDeclaration => statement.type === AST_NODE_TYPES.ImportDeclaration,
    );

    /** A plain reference (not a call or literal): what can be the live object. */
    function isReference(node: TSESTree.Node): boolean {
      const target = skipTypeWrappers(node);
      if (target.type === AST_NODE_TYPES.ConditionalExpression) return isReference(target.consequent) || isReference(target.alternate);
      if (target.type === AST_NODE_TYPES.LogicalExpression) return isReference(target.left) || isReference(target.right);
      if (target.type === AST_NODE_TYPES.ChainExpression) return isReference(target.expression);
      return target.type === AST_NODE_TYPES.Identifier ? target.name !== 'undefined' : target.type === AST_NODE_TYPES.MemberExpression;
    }

    /** Fixes that add `name` from `module` to the imports, merging into an existing value import. */
    function importFixes(fixer: TSESLint.RuleFixer, name: string, module: string): TSESLint.RuleFix[] {
      const existing = imports.find((declaration) => declaration.source.value === module && declaration.importKind !== 'type');
      if (existing?.specifiers.some((specifier) => specifier.local.name === name)) return [];
      const named = existing?.specifiers.filter(
        (specifier): specifier is TSESTree.ImportSpecifier => specifier.type === AST_NODE_TYPES.ImportSpecifier,
      );
      const lastNamed = named?.at(-1);
      if (lastNamed) return [fixer.insertTextAfter(lastNamed, `, ${name}`)];
      const defaultSpecifier = existing?.specifiers.find((specifier) => specifier.type === AST_NODE_TYPES.ImportDefaultSpecifier);
      if (defaultSpecifier && existing?.specifiers.length === 1) return [fixer.insertTextAfter(defaultSpecifier, `, { ${name} }`)];
      const statement = `import { ${name} } from ${quoted(sourceCode, module)};`;
      const lastImport = imports.at(-1);
      if (lastImport) return [fixer.insertTextAfter(lastImport, `\n${statement}`)];
      const first = program.body[0];
      return first ? [fixer.insertTextBefore(first, `${statement}\n`)] : [fixer.insertTextAfterRange([0, 0], `${statement}\n`)];
    }

    /** `import * as guard from 'tool-result-guard'` already gives `guard.cloneReplacementState`. */
    function runtimeNamespace(): string | undefined {
      for (const declaration of imports) {
        if (declaration.source.value !== RUNTIME_MODULE || declaration.importKind === 'type') continue;
        const namespace = declaration.specifiers.find((specifier) => specifier.type === AST_NODE_TYPES.ImportNamespaceSpecifier);
        if (namespace) return namespace.local.name;
      }
      return undefined;
    }

    /** A `clone…State` exported by a local module this file already imports from (the harness's own state module). */
    function localModuleClone(): { name: string; module: string } | undefined {
      const filename = context.filename;
      if (!path.isAbsolute(filename)) return undefined;
      for (const declaration of imports) {
        const specifier = declaration.source.value;
        if (!specifier.startsWith('.')) continue;
        const importsState = declaration.specifiers.some((imported) => /State/.test(imported.local.name));
        if (!importsState) continue;
        const file = resolveRelativeModule(specifier, filename);
        const name = file ? exportedCloneFunctionOf(file) : undefined;
        if (name) return { name, module: specifier };
      }
      return undefined;
    }

    /** Replaces the value (or shorthand property) with `clone(value)`. */
    function wrapFix(
      fixer: TSESLint.RuleFixer,
      value: TSESTree.Node,
      property: TSESTree.Property | undefined,
      clone: string,
    ): TSESLint.RuleFix {
      const text = sourceCode.getText(value);
      if (property?.shorthand) return fixer.replaceText(property, `${sourceCode.getText(property.key)}: ${clone}(${text})`);
      return fixer.replaceText(value, `${clone}(${text})`);
    }

    /** Replaces the value (or shorthand property) with `value.clone()`, parenthesised where the value is not a plain reference. */
    function cloneMethodFix(fixer: TSESLint.RuleFixer, value: TSESTree.Node, property: TSESTree.Property | undefined): TSESLint.RuleFix {
      const text = sourceCode.getText(value);
      const plain = value.type === AST_NODE_TYPES.Identifier || value.type === AST_NODE_TYPES.MemberExpression;
      const called = `${plain ? text : `(${text})`}.${CLONE_METHOD}()`;
      if (property?.shorthand) return fixer.replaceText(property, `${sourceCode.getText(property.key)}: ${called}`);
      return fixer.replaceText(value, called);
    }

    function report(
      call: TSESTree.CallExpression | TSESTree.NewExpression,
      value: TSESTree.Node,
      property: TSESTree.Property | undefined,
    ): void {
      const owner = recognizer.stateOwnerOf(value);
      const stateName = sourceCode.getText(value);
      const callee = getCalleeName(call) ?? getCalleeLastName(call) ?? 'fork';
      const propertyName = property ? (getStaticKeyName(property.key, property.computed) ?? '') : '';
      const inScope = recognizer.cloneFunctionsInScope(call);
      const namespace = runtimeNamespace();
      const runtimeClone = namespace ? `${namespace}.${RUNTIME_CLONE_FUNCTION}` : RUNTIME_CLONE_FUNCTION;
      const local = isModule ? localModuleClone() : undefined;

      // Which clone the autofix calls: tool-result-guard's own state only ever gets tool-result-guard's clone; a harness's
      // state never does (a type error, and ERR_NOT_A_REPLACEMENT_STATE at run time), and one whose type declares its own
      // clone() method gets that method instead; a state nothing says anything about gets whatever is in scope.
      let autofix: string | undefined;
      if (owner.owner === 'library') autofix = inScope.find((candidate) => candidate.fromRuntime)?.name;
      else if (owner.owner === 'harness') {
        autofix =
          owner.copy === 'clone-method'
            ? undefined
            : inScope.find((candidate) => !candidate.fromRuntime && candidate.name !== RUNTIME_CLONE_FUNCTION)?.name;
      } else autofix = recognizer.cloneFunctionInScope(call);

      const suggest: TSESLint.SuggestionReportDescriptor<MessageIds>[] = [];
      const moduleClone = (data: Record<string, string>): void => {
        if (!local || owner.owner === 'library') return;
        suggest.push({
          messageId: 'wrapWithModuleClone',
          data: { ...data, cloneFunction: local.name, module: local.module },
          fix: (fixer) => [wrapFix(fixer, value, property, local.name), ...importFixes(fixer, local.name, local.module)],
        });
      };

      if (owner.owner === 'harness' && !autofix && owner.copy === 'none' && !local) {
        const data: ReportData['harnessStateWithoutCopy'] = {
          stateName,
          callee,
          typeName: owner.typeName ?? 'state',
          why: NO_COPY_REASONS[owner.noCopyReason ?? 'unreadable'],
          property: propertyName,
        };
        context.report({ node: property ?? value, messageId: 'harnessStateWithoutCopy', data });
        return;
      }

      let cloneFunction: string;
      let copy: string;
      if (autofix) {
        cloneFunction = autofix;
        copy = `${autofix}(${stateName})`;
      } else if (owner.owner === 'harness' && owner.copy === 'clone-method') {
        cloneFunction = CLONE_METHOD;
        copy = `${stateName}.${CLONE_METHOD}()`;
      } else if (owner.owner === 'harness') {
        cloneFunction = local?.name ?? STRUCTURED_CLONE;
        copy = `${cloneFunction}(${stateName})`;
      } else {
        cloneFunction = RUNTIME_CLONE_FUNCTION;
        copy = `${RUNTIME_CLONE_FUNCTION}(${stateName})`;
      }
      const data: ReportData['stateSharedWithFork'] = { stateName, callee, cloneFunction, copy, property: propertyName };

      if (!autofix) {
        // In the order the clone-on-fork codemod prefers them: the first suggestion is the codemod's edit.
        if (owner.owner === 'harness') {
          if (owner.copy === 'clone-method') {
            suggest.push({
              messageId: 'callCloneMethod',
              data: { ...data, typeName: owner.typeName ?? 'state' },
              fix: (fixer) => cloneMethodFix(fixer, value, property),
            });
          }
          moduleClone(data);
          if (owner.copy === 'structured-clone') {
            suggest.push({ messageId: 'wrapWithStructuredClone', data, fix: (fixer) => wrapFix(fixer, value, property, STRUCTURED_CLONE) });
          }
        } else if (isModule) {
          moduleClone(data);
          suggest.push({
            messageId: 'wrapWithRuntimeClone',
            data,
            fix: (fixer) => [
              wrapFix(fixer, value, property, runtimeClone),
              ...(namespace ? [] : importFixes(fixer, RUNTIME_CLONE_FUNCTION, RUNTIME_MODULE)),
            ],
          });
        }
      }
      context.report({
        node: property ?? value,
        messageId: 'stateSharedWithFork',
        data,
        ...(autofix ? { fix: (fixer: TSESLint.RuleFixer) => wrapFix(fixer, value, property, autofix) } : {}),
        suggest,
      });
    }

    function checkObject(call: TSESTree.CallExpression | TSESTree.NewExpression, object: TSESTree.ObjectExpression, depth: number): void {
      for (const member of object.properties) {
        if (member.type === AST_NODE_TYPES.SpreadElement) {
          const spread = skipTypeWrappers(member.argument);
          if (spread.type === AST_NODE_TYPES.ObjectExpression && depth < 4) checkObject(call, spread, depth + 1);
          continue;
        }
        const value = member.value;
        const inner = skipTypeWrappers(value);
        if (inner.type === AST_NODE_TYPES.ObjectExpression) {
          if (depth < 4) checkObject(call, inner, depth + 1);
          continue;
        }
        // Cheap shape and name tests first; the clone test may ask for a type, so it goes last.
        if (!isReference(value)) continue;
        const key = getStaticKeyName(member.key, member.computed);
        const carriesState = key !== undefined && carrierNames.has(key);
        if ((carriesState || recognizer.isLiveState(value)) && !recognizer.isClonedValue(value)) report(call, value, member);
      }
    }

    function checkCall(call: TSESTree.CallExpression | TSESTree.NewExpression): void {
      if (!recognizer.isForkCall(call)) return;
      for (const argument of call.arguments) {
        if (argument.type === AST_NODE_TYPES.SpreadElement) continue;
        const target = skipTypeWrappers(argument);
        if (target.type === AST_NODE_TYPES.ObjectExpression) {
          checkObject(call, target, 0);
          continue;
        }
        if (!isReference(argument)) continue;
        if (recognizer.isLiveState(argument) && !recognizer.isClonedValue(argument)) report(call, argument, undefined);
      }
    }

    return { CallExpression: checkCall, NewExpression: checkCall };
  },
});
