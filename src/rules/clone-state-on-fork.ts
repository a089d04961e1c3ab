import path from 'node:path';

import { AST_NODE_TYPES, ASTUtils, type TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { getCalleeName, getCalleeLastName, getMemberPath, getStaticKeyName, skipTypeWrappers } from '../recognition/ast.js';
import { getRecognitionContext } from '../recognition/context.js';
import { mayForkInText } from '../recognition/findings-prefilter.js';
import { quoted } from '../recognition/member-fix.js';
import { loadModule, resolveRelativeModule } from '../recognition/module-graph.js';
import { CLONE_FUNCTION_PATTERN, RUNTIME_CLONE_FUNCTION, RUNTIME_MODULE } from '../recognition/replacement-state.js';
import { createRule } from '../util/create-rule.js';

export type Options = [];
/** `data` per report message id (the codemods read it typed, `codemods/rule-protocol.ts`). */
export interface ReportData {
  stateSharedWithFork: { stateName: string; callee: string; cloneFunction: string; property: string };
}
export type SuggestionIds = 'wrapWithRuntimeClone' | 'wrapWithModuleClone' | 'wrapWithStructuredClone';
export type MessageIds = keyof ReportData | SuggestionIds;

/** The structured clone every runtime has (Node >= 17, browsers): a deep copy of a harness's own Sets and Maps. */
const STRUCTURED_CLONE = 'structuredClone';

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
        'Pass a clone (`{{cloneFunction}}({{stateName}})`), or a reconstruction on resume: ' +
        'a shared state lets parent and child decide for each other and breaks the prompt cache.',
      wrapWithRuntimeClone: "Wrap with `cloneReplacementState(…)` from 'tool-result-guard'.",
      wrapWithModuleClone: "Wrap with `{{cloneFunction}}(…)` from '{{module}}'.",
      wrapWithStructuredClone:
        'Wrap with `structuredClone(…)`: this state is the harness’s own, not a tool-result-guard ReplacementState, ' +
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

    /** Local names bound to tool-result-guard's exports in this file (values and types). */
    const runtimeLocals = new Set(
      imports
        .filter((declaration) => declaration.source.value === RUNTIME_MODULE)
        .flatMap((declaration) => declaration.specifiers.map((specifier) => specifier.local.name)),
    );

    /**
     * Is `value` tool-result-guard's ReplacementState? `true` when its
     * declaration says so (typed with, or created by, an import from the
     * package), `false` when it says otherwise (typed with the harness's own
     * type, created by a literal or the harness's own constructor or
     * function), `undefined` when nothing says. Wrapping a harness's own state
     * in cloneReplacementState is a type error and throws
     * ERR_NOT_A_REPLACEMENT_STATE at run time.
     */
    function isLibraryState(value: TSESTree.Node): boolean | undefined {
      const target = skipTypeWrappers(value);
      if (target.type !== AST_NODE_TYPES.Identifier) return undefined;
      const definition = ASTUtils.findVariable(sourceCode.getScope(target), target.name)?.defs[0];
      if (!definition) return undefined;
      let annotation: TSESTree.TypeNode | undefined;
      let initializer: TSESTree.Expression | null | undefined;
      if (definition.type === 'Variable') {
        annotation = definition.node.id.typeAnnotation?.typeAnnotation;
        initializer = definition.node.init;
      } else if (definition.type === 'Parameter' && definition.name.type === AST_NODE_TYPES.Identifier) {
        annotation = definition.name.typeAnnotation?.typeAnnotation;
      } else {
        return undefined;
      }
      if (annotation) {
        // `ReplacementState | undefined`: the references decide, `undefined` and `null` do not.
        const members = annotation.type === AST_NODE_TYPES.TSUnionType ? annotation.types : [annotation];
        return members.some((member) => {
          if (member.type !== AST_NODE_TYPES.TSTypeReference) return false;
          const name = member.typeName;
          const root =
            name.type === AST_NODE_TYPES.TSQualifiedName
              ? getMemberPath(name.left)?.[0]
              : name.type === AST_NODE_TYPES.Identifier
                ? name.name
                : undefined;
          return root !== undefined && runtimeLocals.has(root);
        });
      }
      const created = initializer ? skipTypeWrappers(initializer) : undefined;
      if (created?.type === AST_NODE_TYPES.ObjectExpression) return false;
      if (created?.type === AST_NODE_TYPES.CallExpression || created?.type === AST_NODE_TYPES.NewExpression) {
        const root = getMemberPath(created.callee)?.[0];
        if (root === undefined) return undefined;
        if (runtimeLocals.has(root)) return true;
        return imports.some((declaration) => declaration.specifiers.some((specifier) => specifier.local.name === root)) ? undefined : false;
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

    function report(
      call: TSESTree.CallExpression | TSESTree.NewExpression,
      value: TSESTree.Node,
      property: TSESTree.Property | undefined,
    ): void {
      const foreign = isLibraryState(value) === false;
      const inScopeClone = recognizer.cloneFunctionInScope(call);
      // A harness's own state is never handed to our clone, even when it is in scope.
      const inScope = foreign && inScopeClone === RUNTIME_CLONE_FUNCTION ? undefined : inScopeClone;
      const namespace = runtimeNamespace();
      const runtimeClone = namespace ? `${namespace}.${RUNTIME_CLONE_FUNCTION}` : RUNTIME_CLONE_FUNCTION;
      const data: ReportData['stateSharedWithFork'] = {
        stateName: sourceCode.getText(value),
        callee: getCalleeName(call) ?? getCalleeLastName(call) ?? 'fork',
        cloneFunction: inScope ?? (foreign ? STRUCTURED_CLONE : RUNTIME_CLONE_FUNCTION),
        property: property ? (getStaticKeyName(property.key, property.computed) ?? '') : '',
      };
      const suggest: TSESLint.SuggestionReportDescriptor<MessageIds>[] = [];
      if (!inScope && foreign) {
        const local = isModule ? localModuleClone() : undefined;
        if (local && CLONE_FUNCTION_PATTERN.test(local.name)) {
          suggest.push({
            messageId: 'wrapWithModuleClone',
            data: { ...data, cloneFunction: local.name, module: local.module },
            fix: (fixer) => [wrapFix(fixer, value, property, local.name), ...importFixes(fixer, local.name, local.module)],
          });
        }
        suggest.push({ messageId: 'wrapWithStructuredClone', data, fix: (fixer) => wrapFix(fixer, value, property, STRUCTURED_CLONE) });
      } else if (!inScope && isModule) {
        const local = localModuleClone();
        if (local && CLONE_FUNCTION_PATTERN.test(local.name)) {
          suggest.push({
            messageId: 'wrapWithModuleClone',
            data: { ...data, cloneFunction: local.name, module: local.module },
            fix: (fixer) => [wrapFix(fixer, value, property, local.name), ...importFixes(fixer, local.name, local.module)],
          });
        }
        suggest.push({
          messageId: 'wrapWithRuntimeClone',
          data,
          fix: (fixer) => [
            wrapFix(fixer, value, property, runtimeClone),
            ...(namespace ? [] : importFixes(fixer, RUNTIME_CLONE_FUNCTION, RUNTIME_MODULE)),
          ],
        });
      }
      context.report({
        node: property ?? value,
        messageId: 'stateSharedWithFork',
        data,
        ...(inScope ? { fix: (fixer: TSESLint.RuleFixer) => wrapFix(fixer, value, property, inScope) } : {}),
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
