/**
 * Forks, clones and reconstructions: which calls fork an agent, which values
 * are copies of a state, and which are the live state itself (the one a
 * fork must never share).
 */
import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { functionNameOf, getCalleeLastName, getCalleeName, getStaticKeyName, matchesDottedName, skipChainAndTypeWrappers } from '../ast.js';
import {
  CLONE_FUNCTION_PATTERN,
  CREATE_STATE_PATTERN,
  FORK_CALLEE_PATTERN,
  RECONSTRUCT_FUNCTION_PATTERN,
  RUNTIME_CLONE_FUNCTION,
  RUNTIME_MODULE,
} from './names.js';
import type { CallLike } from './persistence.js';
import type { StateFile } from './state-file.js';

/** A clone function a fix can call where the fork is. */
export interface CloneFunctionInScope {
  /** Its local name (`cloneState` for `import { cloneReplacementState as cloneState }`). */
  name: string;
  /** Imported from tool-result-guard: only the library's own state may be handed to it. */
  fromRuntime: boolean;
}

export class ForksAndClones {
  private readonly cloneFunctionNames: ReadonlySet<string>;
  private readonly forkCalleeLastNames: ReadonlySet<string>;

  constructor(private readonly file: StateFile) {
    this.cloneFunctionNames = new Set(file.settings.cloneFunctions);
    this.forkCalleeLastNames = new Set(file.settings.forkCallees.map((name) => name.slice(name.lastIndexOf('.') + 1)));
  }

  isForkCall(call: CallLike): boolean {
    // Every call of a file passes here: the last name decides cheaply before any dotted name is built.
    const lastName = getCalleeLastName(call);
    if (lastName === undefined) return false;
    const forkNamed =
      FORK_CALLEE_PATTERN.test(lastName) ||
      ((this.forkCalleeLastNames.has(lastName) || lastName.includes('.')) &&
        matchesDottedName(getCalleeName(call), this.file.settings.forkCallees));
    return forkNamed && !this.isCloneCall(call);
  }

  /** A clone or reconstruction call: `cloneReplacementState(s)`, `structuredClone(s)`, `s.clone()`. */
  isCloneCall(node: TSESTree.Node): boolean {
    const target = skipChainAndTypeWrappers(node);
    if (target.type !== AST_NODE_TYPES.CallExpression && target.type !== AST_NODE_TYPES.NewExpression) return false;
    const lastName = getCalleeLastName(target);
    if (this.isCloneFunctionName(lastName)) return true;
    const calleeName = getCalleeName(target);
    if (calleeName !== undefined && matchesDottedName(calleeName, this.file.settings.cloneFunctions)) return true;
    // state.clone(): a method clone on any receiver
    return lastName === 'clone' && target.callee.type !== AST_NODE_TYPES.Identifier;
  }

  /**
   * A clone call, a `const` that holds one (`const child = cloneReplacementState(s)`),
   * or (with type information) a value typed `ForkableState<…>`.
   */
  isClonedValue(node: TSESTree.Node): boolean {
    const target = skipChainAndTypeWrappers(node);
    if (this.isCloneCall(target)) return true;
    if (target.type === AST_NODE_TYPES.Identifier) {
      const initializer = this.file.constInitializerOf(target);
      if (initializer !== undefined && this.isCloneCall(initializer)) return true;
    }
    return this.file.isCloneTyped(target);
  }

  /** A function whose job is to copy or rebuild a state (its writes re-apply frozen decisions). */
  isCloneOrReconstructFunction(functionNode: TSESTree.Node): boolean {
    return this.isCloneFunctionName(functionNameOf(functionNode));
  }

  /**
   * Whether `value` is a live replacement state: by name, by its
   * `create…ReplacementState()` initialiser, by its `.seenIds`/`.replacements`
   * use, or by type. Clones are not.
   */
  isLiveState(value: TSESTree.Node): boolean {
    const target = skipChainAndTypeWrappers(value);
    if (target.type === AST_NODE_TYPES.ConditionalExpression) {
      return this.isLiveState(target.consequent) || this.isLiveState(target.alternate);
    }
    if (target.type === AST_NODE_TYPES.LogicalExpression) return this.isLiveState(target.left) || this.isLiveState(target.right);
    if (target.type !== AST_NODE_TYPES.Identifier && target.type !== AST_NODE_TYPES.MemberExpression) return false;
    // Syntax first, types last (and only when syntax says nothing): a fork call's arguments are many, states few.
    const live = this.isLiveStateBySyntax(target) || this.file.isStateTyped(target);
    return live && !this.isClonedValue(target);
  }

  /** A clone function (`clone…State`, settings) visible at `node`, preferring `cloneReplacementState`. */
  cloneFunctionInScope(node: TSESTree.Node): string | undefined {
    const candidates = this.cloneFunctionsInScope(node);
    return (candidates.find((candidate) => candidate.name === RUNTIME_CLONE_FUNCTION) ?? candidates[0])?.name;
  }

  /** The clone functions visible at `node`, innermost scope first, each with whether it is tool-result-guard's. */
  cloneFunctionsInScope(node: TSESTree.Node): CloneFunctionInScope[] {
    const candidates: CloneFunctionInScope[] = [];
    for (let scope: TSESLint.Scope.Scope | null = this.file.sourceCode.getScope(node); scope; scope = scope.upper) {
      for (const [name, variable] of scope.set) {
        if (
          CLONE_FUNCTION_PATTERN.test(name) ||
          (this.cloneFunctionNames.has(name) && name !== 'structuredClone' && !RECONSTRUCT_FUNCTION_PATTERN.test(name))
        ) {
          const definition = variable.defs[0];
          const fromRuntime =
            definition?.type === 'ImportBinding' &&
            definition.parent.type === AST_NODE_TYPES.ImportDeclaration &&
            definition.parent.source.value === RUNTIME_MODULE;
          candidates.push({ name, fromRuntime });
        }
      }
    }
    return candidates;
  }

  private isCloneFunctionName(name: string | undefined): boolean {
    return (
      name !== undefined &&
      (CLONE_FUNCTION_PATTERN.test(name) || RECONSTRUCT_FUNCTION_PATTERN.test(name) || this.cloneFunctionNames.has(name))
    );
  }

  /** A variable used as the base of `.seenIds`/`.replacements` somewhere is a state. */
  private isUsedAsStateBase(variable: TSESLint.Scope.Variable): boolean {
    const { settings } = this.file;
    return variable.references.some((reference) => {
      const parent = reference.identifier.parent;
      if (parent?.type !== AST_NODE_TYPES.MemberExpression || parent.object !== reference.identifier) return false;
      const name = getStaticKeyName(parent.property, parent.computed);
      return name !== undefined && (settings.seenSetNames.includes(name) || settings.replacementsMapNames.includes(name));
    });
  }

  private isLiveStateBySyntax(target: TSESTree.Identifier | TSESTree.MemberExpression): boolean {
    let lastName: string | undefined;
    if (target.type === AST_NODE_TYPES.Identifier) {
      lastName = target.name;
      const initializer = this.file.constInitializerOf(target);
      if (initializer && initializer.type === AST_NODE_TYPES.CallExpression) {
        if (CREATE_STATE_PATTERN.test(getCalleeLastName(initializer) ?? '')) return true;
      }
      const variable = this.file.variableOf(target);
      if (variable && this.isUsedAsStateBase(variable)) return true;
    } else {
      lastName = getStaticKeyName(target.property, target.computed);
    }
    return lastName !== undefined && this.file.settings.stateNames.includes(lastName);
  }
}
