/**
 * Whose replacement state a value is, and how it can be copied for a fork.
 * tool-result-guard's own state (typed with, or created by, an import from
 * `tool-result-guard`) is copied with `cloneReplacementState`; a harness's
 * own state never is (a type error, TS2345 and TS2322, and
 * `ERR_NOT_A_REPLACEMENT_STATE` at run time), however it is named: a
 * harness class called `ReplacementState` is still the harness's. Its copy
 * is its own `clone()` method when its type declares one; `structuredClone`
 * when its type is plain data (Sets, Maps, arrays, primitives), which
 * `structuredClone` copies deeply; otherwise there is no copy a fix can
 * write safely (`structuredClone` of a class instance drops its class and
 * methods, and throws on functions).
 *
 * With type information the checker answers from the value's type: whether
 * its declaration is one of the symbols the `tool-result-guard` module
 * exports, and what members it has. Without it (and where the checker sees
 * only `any`) the declaration is read from the source: the variable's or
 * parameter's annotation, its initialiser (`new X()`, `createX()`, an object
 * literal), a class field or parameter property for `this.x`, the member's
 * declared type for `a.b`, across the modules those types are imported from
 * (`type-declarations.ts`).
 */
import { AST_NODE_TYPES, ASTUtils, type TSESTree } from '@typescript-eslint/utils';
import type ts from 'typescript';

import { getMemberPath, getStaticKeyName, isClassNode, isFunctionNode, isNullOrUndefined, skipTypeWrappers } from '../ast.js';
import type { FileIndex } from '../file-index.js';
import { resolveLocalName } from '../module-graph.js';
import {
  type DeclaredMember,
  type TypeDeclarationNode,
  type TypeOrigin,
  isPackageSpecifier,
  lookUpMemberOfOrigin,
  lookUpMemberOfType,
  originOfTypeName,
  originOfTypeReference,
} from '../type-declarations.js';
import { RUNTIME_MODULE } from './names.js';
import type { StateFile } from './state-file.js';

/** How a harness's own state is copied: its `clone()` method, `structuredClone`, or nothing a fix can write. */
export type HarnessStateCopy = 'clone-method' | 'structured-clone' | 'none';

/** Why no copy is safe, for the message that tells the user what to do. */
export type NoCopyReason = 'class' | 'functions' | 'unreadable';

export type StateOwner =
  | { owner: 'library' }
  | { owner: 'harness'; typeName: string | undefined; copy: HarnessStateCopy; noCopyReason?: NoCopyReason }
  | { owner: 'unknown' };

/** The method a harness's state copies itself with. */
export const CLONE_METHOD = 'clone';

const UNKNOWN: StateOwner = { owner: 'unknown' };
const LIBRARY: StateOwner = { owner: 'library' };
const MAX_DEPTH = 6;

function isRuntimeModule(module: string): boolean {
  return module === RUNTIME_MODULE || module.startsWith(`${RUNTIME_MODULE}/`);
}

function harness(typeName: string | undefined, copy: HarnessStateCopy, noCopyReason?: NoCopyReason): StateOwner {
  return noCopyReason ? { owner: 'harness', typeName, copy, noCopyReason } : { owner: 'harness', typeName, copy };
}

// ---------------------------------------------------------------------------
// Reading declarations (no type information)
// ---------------------------------------------------------------------------

/** Types `structuredClone` copies as they are, given copyable type arguments. */
const STRUCTURED_CONTAINERS: ReadonlySet<string> = new Set([
  'Set',
  'ReadonlySet',
  'Map',
  'ReadonlyMap',
  'Array',
  'ReadonlyArray',
  'Record',
  'Readonly',
  'Partial',
  'Required',
  'Date',
  'RegExp',
]);

/** Can a parameter be left out (`x?`, `x = 1`, `...rest`)? A clone method to call bare takes none that cannot. */
function isOptionalParameter(parameter: TSESTree.Parameter): boolean {
  if (parameter.type === AST_NODE_TYPES.AssignmentPattern || parameter.type === AST_NODE_TYPES.RestElement) return true;
  return parameter.type === AST_NODE_TYPES.Identifier && parameter.optional === true;
}

function isBareCallable(member: DeclaredMember): boolean {
  if (member.kind === 'method') return member.parameters.every(isOptionalParameter);
  const type = member.typeAnnotation;
  return type?.type === AST_NODE_TYPES.TSFunctionType && type.params.every(isOptionalParameter);
}

/** Is every value of this type plain data that `structuredClone` copies faithfully? Unreadable parts are not. */
function isPlainDataType(typeNode: TSESTree.TypeNode, file: FileIndex, depth: number): boolean {
  if (depth > MAX_DEPTH) return false;
  switch (typeNode.type) {
    case AST_NODE_TYPES.TSStringKeyword:
    case AST_NODE_TYPES.TSNumberKeyword:
    case AST_NODE_TYPES.TSBooleanKeyword:
    case AST_NODE_TYPES.TSBigIntKeyword:
    case AST_NODE_TYPES.TSNullKeyword:
    case AST_NODE_TYPES.TSUndefinedKeyword:
    case AST_NODE_TYPES.TSLiteralType:
    case AST_NODE_TYPES.TSTemplateLiteralType:
      return true;
    case AST_NODE_TYPES.TSArrayType:
      return isPlainDataType(typeNode.elementType, file, depth + 1);
    case AST_NODE_TYPES.TSTupleType:
      return typeNode.elementTypes.every((element) => isPlainDataType(element, file, depth + 1));
    case AST_NODE_TYPES.TSNamedTupleMember:
      return isPlainDataType(typeNode.elementType, file, depth + 1);
    case AST_NODE_TYPES.TSOptionalType:
    case AST_NODE_TYPES.TSRestType:
      return isPlainDataType(typeNode.typeAnnotation, file, depth + 1);
    case AST_NODE_TYPES.TSTypeOperator:
      return typeNode.operator === 'readonly' && typeNode.typeAnnotation !== undefined
        ? isPlainDataType(typeNode.typeAnnotation, file, depth + 1)
        : false;
    case AST_NODE_TYPES.TSUnionType:
    case AST_NODE_TYPES.TSIntersectionType:
      return typeNode.types.every((part) => isPlainDataType(part, file, depth + 1));
    case AST_NODE_TYPES.TSTypeLiteral:
      return areDataElements(typeNode.members, file, depth);
    case AST_NODE_TYPES.TSTypeReference: {
      const origin = originOfTypeReference(file, typeNode.typeName);
      if (origin.kind === 'unknown' && typeNode.typeName.type === AST_NODE_TYPES.Identifier) {
        if (!STRUCTURED_CONTAINERS.has(typeNode.typeName.name)) return false;
        const typeArguments = typeNode.typeArguments?.params ?? [];
        // `Record<K, V>`: the keys are strings or numbers; the values decide.
        const decisive = typeNode.typeName.name === 'Record' ? typeArguments.slice(1) : typeArguments;
        return decisive.every((argument) => isPlainDataType(argument, file, depth + 1));
      }
      return (
        origin.kind === 'declared' &&
        origin.declarations.every((declaration) => isPlainDataDeclaration(declaration, origin.file, depth + 1))
      );
    }
    default:
      return false;
  }
}

function areDataElements(elements: readonly TSESTree.TypeElement[], file: FileIndex, depth: number): boolean {
  return elements.every((element) => {
    if (element.type === AST_NODE_TYPES.TSPropertySignature) {
      const type = element.typeAnnotation?.typeAnnotation;
      return type !== undefined && isPlainDataType(type, file, depth + 1);
    }
    if (element.type === AST_NODE_TYPES.TSIndexSignature) {
      const type = element.typeAnnotation?.typeAnnotation;
      return type !== undefined && isPlainDataType(type, file, depth + 1);
    }
    // Methods, call and construct signatures: functions, which structuredClone cannot copy.
    return false;
  });
}

function isPlainDataDeclaration(declaration: TypeDeclarationNode, file: FileIndex, depth: number): boolean {
  if (depth > MAX_DEPTH || isClassNode(declaration)) return false;
  if (declaration.type === AST_NODE_TYPES.TSTypeAliasDeclaration) return isPlainDataType(declaration.typeAnnotation, file, depth + 1);
  if (!areDataElements(declaration.body.body, file, depth)) return false;
  return (declaration.extends ?? []).every((clause) => {
    if (clause.expression.type !== AST_NODE_TYPES.Identifier) return false;
    const origin = originOfTypeName(file, clause.expression.name);
    return origin.kind === 'declared' && origin.declarations.every((base) => isPlainDataDeclaration(base, origin.file, depth + 1));
  });
}

/** The owner and copy of a state whose type is written as `typeNode` in `file`. */
function ownerOfTypeNode(typeNode: TSESTree.TypeNode, file: FileIndex, depth: number): StateOwner {
  if (depth > MAX_DEPTH) return UNKNOWN;
  if (typeNode.type === AST_NODE_TYPES.TSUnionType) {
    // `State | undefined`: the references decide, `undefined` and `null` do not.
    const parts = typeNode.types.filter(
      (part) => part.type !== AST_NODE_TYPES.TSUndefinedKeyword && part.type !== AST_NODE_TYPES.TSNullKeyword,
    );
    const owners = parts.map((part) => ownerOfTypeNode(part, file, depth + 1));
    const [first] = owners;
    if (first && owners.every((owner) => owner.owner === 'library')) return LIBRARY;
    if (first?.owner === 'harness' && owners.length === 1) return first;
    return owners.every((owner) => owner.owner === 'harness') && owners.length > 0 ? harness(undefined, 'none', 'unreadable') : UNKNOWN;
  }
  if (typeNode.type === AST_NODE_TYPES.TSTypeOperator && typeNode.operator === 'readonly' && typeNode.typeAnnotation) {
    return ownerOfTypeNode(typeNode.typeAnnotation, file, depth + 1);
  }
  if (typeNode.type === AST_NODE_TYPES.TSTypeLiteral) return ownerOfTypeLiteral(typeNode, file);
  if (typeNode.type !== AST_NODE_TYPES.TSTypeReference) return UNKNOWN;
  const origin = originOfTypeReference(file, typeNode.typeName);
  const typeName = nameOfEntity(typeNode.typeName);
  if (origin.kind === 'unknown') {
    const wrapped = typeNode.typeArguments?.params[0];
    // `Readonly<State>`: the built-in wrapper keeps the state's owner.
    if (typeName === 'Readonly' && wrapped) return ownerOfTypeNode(wrapped, file, depth + 1);
    return UNKNOWN;
  }
  return ownerOfOrigin(origin, typeName);
}

function nameOfEntity(name: TSESTree.EntityName): string | undefined {
  if (name.type === AST_NODE_TYPES.Identifier) return name.name;
  return name.type === AST_NODE_TYPES.TSQualifiedName ? name.right.name : undefined;
}

function ownerOfOrigin(origin: TypeOrigin, typeName: string | undefined): StateOwner {
  if (origin.kind === 'package') return isRuntimeModule(origin.module) ? LIBRARY : harness(typeName, 'none', 'unreadable');
  if (origin.kind !== 'declared') return UNKNOWN;
  const clone = lookUpMemberOfOrigin(origin, CLONE_METHOD);
  if (clone.presence === 'present' && clone.member && isBareCallable(clone.member)) return harness(typeName, 'clone-method');
  if (origin.declarations.some(isClassNode)) return harness(typeName, 'none', 'class');
  return origin.declarations.every((declaration) => isPlainDataDeclaration(declaration, origin.file, 0))
    ? harness(typeName, 'structured-clone')
    : harness(typeName, 'none', 'functions');
}

/** A state typed with a type literal: its own clone method, else structuredClone when it is plain data. */
function ownerOfTypeLiteral(typeNode: TSESTree.TSTypeLiteral, file: FileIndex): StateOwner {
  const clone = lookUpMemberOfType(typeNode, CLONE_METHOD, file);
  if (clone.presence === 'present' && clone.member && isBareCallable(clone.member)) return harness(undefined, 'clone-method');
  return isPlainDataType(typeNode, file, 0) ? harness(undefined, 'structured-clone') : harness(undefined, 'none', 'functions');
}

/** A state built by an object literal: plain data unless a property holds a function. */
function ownerOfObjectLiteral(object: TSESTree.ObjectExpression): StateOwner {
  const holdsFunction = object.properties.some(
    (property) =>
      property.type === AST_NODE_TYPES.Property && (property.method || property.kind !== 'init' || isFunctionNode(property.value)),
  );
  return holdsFunction ? harness(undefined, 'none', 'functions') : harness(undefined, 'structured-clone');
}

// ---------------------------------------------------------------------------
// The checker's answer (type information)
// ---------------------------------------------------------------------------

/**
 * `ts.TypeFlags.Any` and `ts.TypeFlags.Unknown`: the only flags whose values
 * every supported TypeScript shares (6.0 renumbered the others), so the
 * other questions go to the checker.
 */
const ANY_OR_UNKNOWN_FLAGS = 1 | 2;
/** `ts.SymbolFlags.Class` and `ts.SymbolFlags.Alias` (the same in every supported TypeScript). */
const SymbolFlag = { Class: 32, Alias: 2097152 } as const;
/** `ts.SignatureKind.Call` and `ts.SignatureKind.Construct`. */
const SignatureKind = { Call: 0, Construct: 1 } as const;
/** Intrinsic types with no symbol that are not data `structuredClone` copies. */
const NON_DATA_INTRINSICS: ReadonlySet<string> = new Set(['object', 'symbol', 'never', 'any', 'unknown']);

const libraryExportsByProgram = new WeakMap<ts.Program, ReadonlySet<ts.Symbol>>();

/**
 * The declarations `tool-result-guard` exports, as the program resolves the
 * package (from `node_modules`, a workspace link or `paths`): found through
 * any import or export of it in the program's files.
 */
function libraryExportsOf(program: ts.Program, checker: ts.TypeChecker): ReadonlySet<ts.Symbol> {
  const known = libraryExportsByProgram.get(program);
  if (known) return known;
  const exported = new Set<ts.Symbol>();
  const seenModules = new Set<ts.Symbol>();
  for (const sourceFile of program.getSourceFiles()) {
    if (!sourceFile.text.includes(RUNTIME_MODULE)) continue;
    for (const statement of sourceFile.statements) {
      const specifier = (statement as Partial<ts.ImportDeclaration>).moduleSpecifier as ts.StringLiteral | undefined;
      if (typeof specifier?.text !== 'string' || !isRuntimeModule(specifier.text)) continue;
      const moduleSymbol = checker.getSymbolAtLocation(specifier);
      if (!moduleSymbol || seenModules.has(moduleSymbol)) continue;
      seenModules.add(moduleSymbol);
      for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
        exported.add(symbol.flags & SymbolFlag.Alias ? checker.getAliasedSymbol(symbol) : symbol);
      }
    }
  }
  libraryExportsByProgram.set(program, exported);
  return exported;
}

/** The type without `undefined` and `null`; `undefined` for `any`, `unknown`, a type parameter, or a union of several others. */
function definiteType(type: ts.Type, checker: ts.TypeChecker): ts.Type | undefined {
  if (type.flags & ANY_OR_UNKNOWN_FLAGS) return undefined;
  const definite = checker.getNonNullableType(type);
  // A type parameter (`fork<S>(state: S)`) says nothing about whose state it is.
  if (definite.flags & ANY_OR_UNKNOWN_FLAGS || definite.isUnion() || definite.isTypeParameter()) return undefined;
  return definite;
}

function isBareCallableType(type: ts.Type, checker: ts.TypeChecker): boolean {
  return checker.getSignaturesOfType(type, SignatureKind.Call).some((signature) =>
    signature.getParameters().every((parameter) => {
      const declaration = parameter.valueDeclaration as ts.ParameterDeclaration | undefined;
      return (
        declaration !== undefined &&
        (declaration.questionToken !== undefined || declaration.initializer !== undefined || declaration.dotDotDotToken !== undefined)
      );
    }),
  );
}

/** Generic containers `structuredClone` copies (their type arguments decide), and the built-in values it copies as they are. */
const CHECKED_CONTAINERS: ReadonlySet<string> = new Set(['Set', 'ReadonlySet', 'Map', 'ReadonlyMap', 'Array', 'ReadonlyArray']);
const CHECKED_VALUES: ReadonlySet<string> = new Set(['Date', 'RegExp']);

function isPlainDataByChecker(type: ts.Type, checker: ts.TypeChecker, depth: number): boolean {
  if (depth > MAX_DEPTH || type.flags & ANY_OR_UNKNOWN_FLAGS) return false;
  if (type.isUnionOrIntersection()) return type.types.every((part) => isPlainDataByChecker(part, checker, depth + 1));
  const symbol = type.getSymbol();
  // Strings, numbers, booleans, bigints, `undefined`, `null`, their literals and template literal types.
  if (type.isLiteral() || (!symbol && !NON_DATA_INTRINSICS.has(checker.typeToString(type)))) return true;
  if (checker.getSignaturesOfType(type, SignatureKind.Call).length > 0) return false;
  if (checker.getSignaturesOfType(type, SignatureKind.Construct).length > 0) return false;
  if (symbol && CHECKED_VALUES.has(symbol.getName())) return true;
  if (symbol && CHECKED_CONTAINERS.has(symbol.getName())) {
    const typeArguments = checker.getTypeArguments(type as ts.TypeReference);
    return typeArguments.every((argument) => isPlainDataByChecker(argument, checker, depth + 1));
  }
  if (symbol && symbol.flags & SymbolFlag.Class) return false;
  const stringIndex = type.getStringIndexType();
  if (stringIndex && !isPlainDataByChecker(stringIndex, checker, depth + 1)) return false;
  return checker.getPropertiesOfType(type).every((property) => isPlainDataByChecker(checker.getTypeOfSymbol(property), checker, depth + 1));
}

function ownerByChecker(file: StateFile, node: TSESTree.Node): StateOwner | undefined {
  const checker = file.checker();
  const program = file.program();
  const found = file.typeOf(node);
  const type = found && checker ? definiteType(found, checker) : undefined;
  if (!type || !checker || !program) return undefined;
  const symbol = type.aliasSymbol ?? type.getSymbol();
  const exports = libraryExportsOf(program, checker);
  if (symbol && exports.has(symbol)) return LIBRARY;
  // The type's own symbol may be a library interface reached through an alias of the harness (`type State = ReplacementState`).
  const ownSymbol = type.getSymbol();
  if (ownSymbol && exports.has(ownSymbol)) return LIBRARY;
  const typeName = symbol && !symbol.getName().startsWith('__') ? symbol.getName() : undefined;
  const clone = checker.getPropertyOfType(type, CLONE_METHOD);
  if (clone && isBareCallableType(checker.getTypeOfSymbol(clone), checker)) return harness(typeName, 'clone-method');
  if (ownSymbol && ownSymbol.flags & SymbolFlag.Class) return harness(typeName, 'none', 'class');
  return isPlainDataByChecker(type, checker, 0) ? harness(typeName, 'structured-clone') : harness(typeName, 'none', 'functions');
}

// ---------------------------------------------------------------------------
// The value's declaration (the linted file's scopes)
// ---------------------------------------------------------------------------

/** Where a value gets its type: a written type, or the expression that made it. */
type ValueSource =
  { kind: 'type'; typeNode: TSESTree.TypeNode; file: FileIndex } | { kind: 'value'; expression: TSESTree.Node } | undefined;

/** The class whose `this` an expression sees (arrow functions keep it; other functions rebind it). */
function classOfThis(node: TSESTree.Node): TSESTree.ClassDeclaration | TSESTree.ClassExpression | undefined {
  for (let current = node.parent; current; current = current.parent) {
    if (isClassNode(current)) return current;
    if (
      (current.type === AST_NODE_TYPES.FunctionExpression || current.type === AST_NODE_TYPES.FunctionDeclaration) &&
      current.parent?.type !== AST_NODE_TYPES.MethodDefinition &&
      current.parent?.type !== AST_NODE_TYPES.PropertyDefinition
    ) {
      return undefined;
    }
  }
  return undefined;
}

export class StateOwnership {
  constructor(
    private readonly file: StateFile,
    private readonly index: () => FileIndex,
  ) {}

  /** Whose state `value` is, and how a fork's copy of it is made. */
  ownerOf(value: TSESTree.Node): StateOwner {
    const target = skipTypeWrappers(value);
    if (target.type === AST_NODE_TYPES.ConditionalExpression || target.type === AST_NODE_TYPES.LogicalExpression) {
      // Either branch may be the state: one owner for both, or nothing sure.
      const [first, second] =
        target.type === AST_NODE_TYPES.ConditionalExpression ? [target.consequent, target.alternate] : [target.left, target.right];
      const owners = [first, second].filter((branch) => !isNullOrUndefined(branch)).map((branch) => this.ownerOf(branch));
      return owners.length === 1 || (owners.length === 2 && sameOwner(owners[0]!, owners[1]!)) ? owners[0]! : UNKNOWN;
    }
    if (this.file.hasTypeInformation) {
      const byChecker = ownerByChecker(this.file, value);
      if (byChecker) return byChecker;
    }
    return this.ownerBySource(this.sourceOf(value, 0), 0);
  }

  private ownerBySource(source: ValueSource, depth: number): StateOwner {
    if (!source || depth > MAX_DEPTH) return UNKNOWN;
    if (source.kind === 'type') return ownerOfTypeNode(source.typeNode, source.file, 0);
    const made = skipTypeWrappers(source.expression);
    if (made.type === AST_NODE_TYPES.ObjectExpression) return ownerOfObjectLiteral(made);
    if (made.type === AST_NODE_TYPES.NewExpression || made.type === AST_NODE_TYPES.CallExpression) return this.ownerOfMade(made, depth);
    return this.ownerBySource(this.sourceOf(made, depth + 1), depth + 1);
  }

  /** `new X(…)` / `createX(…)`: by where `X` / `createX` comes from. */
  private ownerOfMade(made: TSESTree.NewExpression | TSESTree.CallExpression, depth: number): StateOwner {
    const path = getMemberPath(made.callee);
    const root = path?.[0];
    if (root === undefined) return UNKNOWN;
    const index = this.index();
    const binding = index.imports.get(root);
    if (binding && isRuntimeModule(binding.module)) return LIBRARY;
    if (path!.length > 1) {
      // `guard.createReplacementState()` of a namespace import, or a method of something else.
      return binding && binding.imported === '*' && !isRuntimeModule(binding.module) ? harness(undefined, 'none', 'unreadable') : UNKNOWN;
    }
    if (made.type === AST_NODE_TYPES.NewExpression) {
      const origin = originOfTypeName(index, root);
      if (origin.kind === 'unknown') return binding ? harness(root, 'none', 'unreadable') : UNKNOWN;
      return ownerOfOrigin(origin, root);
    }
    // A function of the harness: its declared return type, or the object literal it returns.
    if (binding && isPackageSpecifier(binding.module)) return harness(undefined, 'none', 'unreadable');
    const resolved = resolveLocalName(index, root);
    if (!resolved) return binding ? harness(undefined, 'none', 'unreadable') : UNKNOWN;
    const returnType = resolved.fn.returnType?.typeAnnotation;
    if (returnType) return ownerOfTypeNode(returnType, resolved.file, depth + 1);
    const returned = returnedExpression(resolved.fn);
    const value = returned ? skipTypeWrappers(returned) : undefined;
    if (value?.type === AST_NODE_TYPES.ObjectExpression) return ownerOfObjectLiteral(value);
    // A helper of this file that returns what another call makes (`return createReplacementState()`): that call decides.
    if (resolved.file === index && (value?.type === AST_NODE_TYPES.CallExpression || value?.type === AST_NODE_TYPES.NewExpression)) {
      return depth < MAX_DEPTH ? this.ownerOfMade(value, depth + 1) : UNKNOWN;
    }
    return harness(undefined, 'none', 'unreadable');
  }

  /** What gives `node` its value or type, in the linted file. */
  private sourceOf(node: TSESTree.Node, depth: number): ValueSource {
    if (depth > MAX_DEPTH) return undefined;
    const index = this.index();
    let target = node;
    while (target.type === AST_NODE_TYPES.TSNonNullExpression || target.type === AST_NODE_TYPES.TSSatisfiesExpression) {
      target = target.expression;
    }
    if (target.type === AST_NODE_TYPES.TSAsExpression || target.type === AST_NODE_TYPES.TSTypeAssertion) {
      return { kind: 'type', typeNode: target.typeAnnotation, file: index };
    }
    if (target.type === AST_NODE_TYPES.ChainExpression) return this.sourceOf(target.expression, depth + 1);
    if (target.type === AST_NODE_TYPES.Identifier) return this.sourceOfVariable(target);
    if (target.type !== AST_NODE_TYPES.MemberExpression) return { kind: 'value', expression: target };
    const property = getStaticKeyName(target.property, target.computed);
    if (property === undefined) return undefined;
    if (target.object.type === AST_NODE_TYPES.ThisExpression) return this.sourceOfField(target, property, depth);
    const base = this.sourceOf(target.object, depth + 1);
    if (base?.kind !== 'type') return undefined;
    const member = lookUpMemberOfType(base.typeNode, property, base.file);
    if (member.presence !== 'present' || member.member?.kind !== 'property' || !member.member.typeAnnotation) return undefined;
    return { kind: 'type', typeNode: member.member.typeAnnotation, file: member.member.file };
  }

  private sourceOfVariable(identifier: TSESTree.Identifier): ValueSource {
    const definition = ASTUtils.findVariable(this.file.sourceCode.getScope(identifier), identifier.name)?.defs[0];
    if (!definition) return undefined;
    const index = this.index();
    if (definition.type === 'Variable') {
      const annotation = definition.node.id.typeAnnotation?.typeAnnotation;
      if (annotation && definition.node.id.type === AST_NODE_TYPES.Identifier) return { kind: 'type', typeNode: annotation, file: index };
      return definition.node.init && definition.node.id.type === AST_NODE_TYPES.Identifier
        ? { kind: 'value', expression: definition.node.init }
        : undefined;
    }
    if (definition.type === 'Parameter' && definition.name.type === AST_NODE_TYPES.Identifier) {
      const annotation = definition.name.typeAnnotation?.typeAnnotation;
      if (annotation) return { kind: 'type', typeNode: annotation, file: index };
      const defaulted = definition.name.parent;
      return defaulted?.type === AST_NODE_TYPES.AssignmentPattern && defaulted.left === definition.name
        ? { kind: 'value', expression: defaulted.right }
        : undefined;
    }
    return undefined;
  }

  /** `this.x`: the class field, the constructor's parameter property, or the constructor's `this.x = …`. */
  private sourceOfField(member: TSESTree.MemberExpression, property: string, depth: number): ValueSource {
    const classNode = classOfThis(member);
    if (!classNode) return undefined;
    const index = this.index();
    for (const element of classNode.body.body) {
      if (
        element.type === AST_NODE_TYPES.PropertyDefinition &&
        !element.static &&
        getStaticKeyName(element.key, element.computed) === property
      ) {
        const annotation = element.typeAnnotation?.typeAnnotation;
        if (annotation) return { kind: 'type', typeNode: annotation, file: index };
        return element.value ? { kind: 'value', expression: element.value } : undefined;
      }
      if (element.type !== AST_NODE_TYPES.MethodDefinition || element.kind !== 'constructor') continue;
      for (const parameter of element.value.params) {
        if (parameter.type !== AST_NODE_TYPES.TSParameterProperty) continue;
        const inner = parameter.parameter;
        const bound = inner.type === AST_NODE_TYPES.AssignmentPattern ? inner.left : inner;
        if (bound.type !== AST_NODE_TYPES.Identifier || bound.name !== property) continue;
        const annotation = bound.typeAnnotation?.typeAnnotation;
        if (annotation) return { kind: 'type', typeNode: annotation, file: index };
        return inner.type === AST_NODE_TYPES.AssignmentPattern ? { kind: 'value', expression: inner.right } : undefined;
      }
      for (const statement of element.value.body?.body ?? []) {
        if (statement.type !== AST_NODE_TYPES.ExpressionStatement || statement.expression.type !== AST_NODE_TYPES.AssignmentExpression)
          continue;
        const path = getMemberPath(statement.expression.left);
        if (path?.length === 2 && path[0] === 'this' && path[1] === property) {
          return depth < MAX_DEPTH ? { kind: 'value', expression: statement.expression.right } : undefined;
        }
      }
    }
    return undefined;
  }
}

function sameOwner(left: StateOwner, right: StateOwner): boolean {
  if (left.owner !== right.owner) return false;
  return left.owner !== 'harness' || (right.owner === 'harness' && left.copy === right.copy && left.typeName === right.typeName);
}

/** The object a function returns when its body is an expression or a single `return`. */
function returnedExpression(fn: TSESTree.FunctionLike): TSESTree.Node | undefined {
  const body = fn.body;
  if (!body) return undefined;
  if (body.type !== AST_NODE_TYPES.BlockStatement) return body;
  const returns = body.body.filter((statement): statement is TSESTree.ReturnStatement => statement.type === AST_NODE_TYPES.ReturnStatement);
  return returns.length === 1 ? (returns[0]!.argument ?? undefined) : undefined;
}
