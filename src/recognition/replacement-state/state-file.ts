/**
 * What every part of the replacement-state recognition asks of the linted
 * file: its settings, scopes, tokens and (when the parser has a program) the
 * types of its nodes. One per file, shared by the parts (like
 * typescript-eslint's `ClassScope`, which its rule builds once and queries).
 */
import { AST_NODE_TYPES, ASTUtils, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import type ts from 'typescript';

import { programSpellsAny } from '../program-text.js';
import type { ProgramTypes } from '../program-types.js';
import type { RecognitionSettings } from '../settings.js';
import { CLONED_STATE_TYPE_NAMES } from './names.js';

/** The type's own name or its alias's, looking through `| undefined` and brands (`State & { [brand]: … }`). */
function typeHasName(type: ts.Type, names: ReadonlySet<string>, depth = 0): boolean {
  if (depth > 3) return false;
  const aliasName = type.aliasSymbol?.getName();
  if (aliasName !== undefined && names.has(aliasName)) return true;
  const symbolName = type.getSymbol()?.getName();
  if (symbolName !== undefined && names.has(symbolName)) return true;
  if (type.isUnionOrIntersection()) return type.types.some((part) => typeHasName(part, names, depth + 1));
  return false;
}

export class StateFile {
  readonly hasTypeInformation: boolean;
  private readonly stateTypeNames: ReadonlySet<string>;
  /**
   * A type can carry one of these names only if some file of the program
   * declares it, so the (expensive) type queries are skipped entirely in
   * programs that never spell them.
   */
  private readonly programMayHaveStateType: boolean;
  private readonly programMayHaveClonedType: boolean;
  private readonly types = new WeakMap<TSESTree.Node, ts.Type | undefined>();

  constructor(
    readonly settings: RecognitionSettings,
    readonly sourceCode: Readonly<TSESLint.SourceCode>,
    private readonly programTypes: ProgramTypes | undefined,
  ) {
    this.hasTypeInformation = programTypes !== undefined;
    this.stateTypeNames = new Set(settings.stateTypeNames);
    this.programMayHaveStateType = programTypes !== undefined && programSpellsAny(programTypes.program, this.stateTypeNames);
    this.programMayHaveClonedType = programTypes !== undefined && programSpellsAny(programTypes.program, CLONED_STATE_TYPE_NAMES);
  }

  /** The parser's program, when there is type information. */
  program(): ts.Program | undefined {
    return this.programTypes?.program;
  }

  /** The checker, when there is type information (created on first use). */
  checker(): ts.TypeChecker | undefined {
    return this.programTypes?.checker();
  }

  typeOf(node: TSESTree.Node): ts.Type | undefined {
    if (!this.programTypes) return undefined;
    if (this.types.has(node)) return this.types.get(node);
    const tsNode = this.programTypes.esTreeNodeToTSNodeMap.get(node);
    const checker = tsNode ? this.checker() : undefined;
    const type = tsNode && checker ? checker.getTypeAtLocation(tsNode) : undefined;
    this.types.set(node, type);
    return type;
  }

  /** Typed as the runtime's `ReplacementState` or a settings-named state type. */
  isStateTyped(node: TSESTree.Node): boolean {
    if (!this.programMayHaveStateType) return false;
    const type = this.typeOf(node);
    return type !== undefined && typeHasName(type, this.stateTypeNames);
  }

  /** Typed `ForkableState<…>`, the brand of a copy. */
  isCloneTyped(node: TSESTree.Node): boolean {
    if (!this.programMayHaveClonedType) return false;
    const type = this.typeOf(node);
    return type !== undefined && type.aliasSymbol !== undefined && CLONED_STATE_TYPE_NAMES.has(type.aliasSymbol.getName());
  }

  variableOf(identifier: TSESTree.Identifier): TSESLint.Scope.Variable | null {
    return ASTUtils.findVariable(this.sourceCode.getScope(identifier), identifier);
  }

  /** The `const x = <init>` declarator of an identifier, if that is how it is bound. */
  constInitializerOf(identifier: TSESTree.Identifier): TSESTree.Expression | undefined {
    const definition = this.variableOf(identifier)?.defs[0];
    if (definition?.type !== 'Variable') return undefined;
    const declarator = definition.node;
    if (declarator.parent.kind !== 'const' || declarator.id.type !== AST_NODE_TYPES.Identifier) return undefined;
    return declarator.init ?? undefined;
  }

  /** The node's tokens joined, `?.` read as `.`: `this.state?.seenIds` → `this.state.seenIds`. */
  tokensOf(node: TSESTree.Node): string {
    return this.sourceCode
      .getTokens(node)
      .map((token) => token.value)
      .join('')
      .replaceAll('?.', '.');
  }
}
