/**
 * Where a named type comes from, and what it declares, read from the
 * source without type information: the linted file's own interfaces, type
 * aliases and classes, and across relative imports and barrels the modules
 * it imports them from (parsed once by `module-graph.ts`). A fix that adds a
 * member to a tool object, or copies a replacement state, asks here whether
 * the declared type has room for the member, and whose type it is: a type
 * imported from a package is named by the package, never guessed at.
 *
 * Answers are three-valued: what cannot be read (a global type, a package's
 * declarations, a module that does not parse, a mapped or conditional type)
 * is `unknown`, and callers decide what is safe then.
 */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type ClassNode, getStaticKeyName, isClassNode } from './ast.js';
import type { FileIndex } from './file-index.js';
import { MAX_RE_EXPORT_DEPTH, loadModule, resolveRelativeModule } from './module-graph.js';

/** A named type as a module declares it. */
export type TypeDeclarationNode = TSESTree.TSInterfaceDeclaration | TSESTree.TSTypeAliasDeclaration | ClassNode;

/** Where a type name used in a module is declared. */
export type TypeOrigin =
  /** Imported from a package (`'ai'`, `'tool-result-guard'`): named by its module, not read. */
  | { kind: 'package'; module: string }
  /** Declared in a module we read: every declaration of the name (interfaces merge), with that module. */
  | { kind: 'declared'; declarations: readonly TypeDeclarationNode[]; file: FileIndex }
  | { kind: 'unknown' };

const UNKNOWN: TypeOrigin = { kind: 'unknown' };

/** A module specifier of a package: not relative, not absolute, not a subpath import. */
export function isPackageSpecifier(module: string): boolean {
  return !module.startsWith('.') && !module.startsWith('/') && !module.startsWith('#');
}

const declarationsByProgram = new WeakMap<TSESTree.Program, Map<string, TypeDeclarationNode[]>>();

/** The module's top-level interfaces, type aliases and classes, by name (exported or not). */
function typeDeclarationsOf(file: FileIndex): Map<string, TypeDeclarationNode[]> {
  let declarations = declarationsByProgram.get(file.program);
  if (declarations) return declarations;
  const found = new Map<string, TypeDeclarationNode[]>();
  const add = (node: TSESTree.Node | null | undefined): void => {
    if (
      node?.type === AST_NODE_TYPES.TSInterfaceDeclaration ||
      node?.type === AST_NODE_TYPES.TSTypeAliasDeclaration ||
      ((node?.type === AST_NODE_TYPES.ClassDeclaration || node?.type === AST_NODE_TYPES.ClassExpression) && node.id)
    ) {
      const name = node.id!.name;
      found.set(name, [...(found.get(name) ?? []), node]);
    }
  };
  for (const statement of file.program.body) {
    if (statement.type === AST_NODE_TYPES.ExportNamedDeclaration || statement.type === AST_NODE_TYPES.ExportDefaultDeclaration) {
      add(statement.declaration);
    } else add(statement);
  }
  declarations = found;
  declarationsByProgram.set(file.program, declarations);
  return declarations;
}

/** The origin of `name` as exported by `file`, through `export … from` and `export *` barrels. */
function originOfExport(file: FileIndex, exportedName: string, depth: number): TypeOrigin {
  if (depth > MAX_RE_EXPORT_DEPTH) return UNKNOWN;
  const target = file.exports.get(exportedName);
  if (target?.kind === 'local') return originOfTypeName(file, target.local, depth + 1);
  if (target?.kind === 're-export') return originOfImport(file, target.from, target.imported, depth + 1);
  // `export interface X` is indexed as a local export; an exported name missing from the map may still come from a star.
  for (const specifier of file.starExports) {
    if (isPackageSpecifier(specifier)) continue;
    const next = loadRelative(specifier, file);
    const origin = next ? originOfExport(next, exportedName, depth + 1) : UNKNOWN;
    if (origin.kind !== 'unknown') return origin;
  }
  // A barrel that re-exports a package wholesale: the name may be the package's.
  const packageStar = file.starExports.find(isPackageSpecifier);
  return packageStar === undefined ? UNKNOWN : { kind: 'package', module: packageStar };
}

function loadRelative(specifier: string, file: FileIndex): FileIndex | undefined {
  const resolved = resolveRelativeModule(specifier, file.filePath);
  return resolved ? loadModule(resolved) : undefined;
}

function originOfImport(file: FileIndex, module: string, imported: string, depth: number): TypeOrigin {
  if (isPackageSpecifier(module)) return { kind: 'package', module };
  const next = loadRelative(module, file);
  return next && imported !== '*' ? originOfExport(next, imported, depth) : UNKNOWN;
}

/** Where the type `name`, as used in `file`, is declared: in the file, or what its import stands for. */
export function originOfTypeName(file: FileIndex, name: string, depth = 0): TypeOrigin {
  if (depth > MAX_RE_EXPORT_DEPTH) return UNKNOWN;
  const own = typeDeclarationsOf(file).get(name);
  if (own) return { kind: 'declared', declarations: own, file };
  const binding = file.imports.get(name);
  if (!binding) return UNKNOWN;
  return originOfImport(file, binding.module, binding.imported, depth);
}

/** `Tool`, `types.Tool` (a namespace import): where the referenced type is declared. */
export function originOfTypeReference(file: FileIndex, typeName: TSESTree.EntityName): TypeOrigin {
  if (typeName.type === AST_NODE_TYPES.Identifier) return originOfTypeName(file, typeName.name);
  if (typeName.type !== AST_NODE_TYPES.TSQualifiedName || typeName.left.type !== AST_NODE_TYPES.Identifier) return UNKNOWN;
  const binding = file.imports.get(typeName.left.name);
  if (binding?.imported !== '*') return UNKNOWN;
  if (isPackageSpecifier(binding.module)) return { kind: 'package', module: binding.module };
  const next = loadRelative(binding.module, file);
  return next ? originOfExport(next, typeName.right.name, 1) : UNKNOWN;
}

/** Wrappers that keep the members of their argument: `Readonly<T>`, `Partial<T>`, `Required<T>`, `NonNullable<T>`. */
const MEMBER_PRESERVING_WRAPPERS: ReadonlySet<string> = new Set(['Readonly', 'Partial', 'Required', 'NonNullable']);

/** One member as a declaration states it, with the module whose names its type uses. */
export interface DeclaredMember {
  /** A method (`clone(): X`, a class method) or a property (whose type may still be a function type). */
  kind: 'method' | 'property';
  /** The property's type annotation, or the method's return type. */
  typeAnnotation: TSESTree.TypeNode | undefined;
  /** A method's parameters (none for a property). */
  parameters: readonly TSESTree.Parameter[];
  file: FileIndex;
}

/**
 * What a type says about one of its members: `present` (with the member when
 * its declaration can be read), `absent` (every part of the type is known and
 * none declares it), or `unknown`.
 */
export type MemberLookup = { presence: 'present'; member: DeclaredMember | undefined } | { presence: 'absent' } | { presence: 'unknown' };

const PRESENT_UNREAD: MemberLookup = { presence: 'present', member: undefined };
const ABSENT: MemberLookup = { presence: 'absent' };
const UNKNOWN_MEMBER: MemberLookup = { presence: 'unknown' };

/** The deepest a lookup follows type references and heritage clauses before it answers `unknown`. */
const MAX_TYPE_DEPTH = 8;

/** `a`, `'a'`, `#a` of a type element or class member. */
function memberName(node: { key: TSESTree.Node; computed: boolean }): string | undefined {
  return getStaticKeyName(node.key, node.computed);
}

/** Several parts each answered: present if any is, absent if all are, else unknown (an intersection, a merged interface). */
function anyPart(lookups: readonly MemberLookup[]): MemberLookup {
  const present = lookups.find((lookup) => lookup.presence === 'present');
  if (present) return present;
  return lookups.every((lookup) => lookup.presence === 'absent') ? ABSENT : UNKNOWN_MEMBER;
}

function lookUpInElements(elements: readonly TSESTree.TypeElement[], name: string, file: FileIndex): MemberLookup | undefined {
  for (const element of elements) {
    if (element.type === AST_NODE_TYPES.TSIndexSignature) {
      // `[key: string]: …` admits any name.
      const key = element.parameters[0];
      const keyType = key?.type === AST_NODE_TYPES.Identifier ? key.typeAnnotation?.typeAnnotation : undefined;
      if (keyType?.type === AST_NODE_TYPES.TSStringKeyword) return PRESENT_UNREAD;
      continue;
    }
    if (element.type === AST_NODE_TYPES.TSPropertySignature && memberName(element) === name) {
      return {
        presence: 'present',
        member: { kind: 'property', typeAnnotation: element.typeAnnotation?.typeAnnotation, parameters: [], file },
      };
    }
    if (element.type === AST_NODE_TYPES.TSMethodSignature && memberName(element) === name) {
      return {
        presence: 'present',
        member: { kind: 'method', typeAnnotation: element.returnType?.typeAnnotation, parameters: element.params, file },
      };
    }
  }
  return undefined;
}

function lookUpInClass(classNode: ClassNode, name: string, file: FileIndex, depth: number): MemberLookup {
  for (const member of classNode.body.body) {
    if (member.type === AST_NODE_TYPES.TSIndexSignature) return UNKNOWN_MEMBER;
    if (
      (member.type === AST_NODE_TYPES.PropertyDefinition ||
        member.type === AST_NODE_TYPES.AccessorProperty ||
        member.type === AST_NODE_TYPES.TSAbstractPropertyDefinition) &&
      !member.static &&
      memberName(member) === name
    ) {
      return {
        presence: 'present',
        member: { kind: 'property', typeAnnotation: member.typeAnnotation?.typeAnnotation, parameters: [], file },
      };
    }
    if (
      (member.type === AST_NODE_TYPES.MethodDefinition || member.type === AST_NODE_TYPES.TSAbstractMethodDefinition) &&
      !member.static &&
      memberName(member) === name
    ) {
      if (member.kind === 'constructor') continue;
      const kind = member.kind === 'method' ? 'method' : 'property';
      return {
        presence: 'present',
        member: { kind, typeAnnotation: member.value.returnType?.typeAnnotation, parameters: member.value.params, file },
      };
    }
    if (member.type === AST_NODE_TYPES.MethodDefinition && member.kind === 'constructor') {
      // `constructor(private readonly state: State)`: a parameter property is a member.
      for (const parameter of member.value.params) {
        if (parameter.type !== AST_NODE_TYPES.TSParameterProperty) continue;
        const bound = parameter.parameter.type === AST_NODE_TYPES.AssignmentPattern ? parameter.parameter.left : parameter.parameter;
        if (bound.type === AST_NODE_TYPES.Identifier && bound.name === name) {
          return {
            presence: 'present',
            member: { kind: 'property', typeAnnotation: bound.typeAnnotation?.typeAnnotation, parameters: [], file },
          };
        }
      }
    }
  }
  if (!classNode.superClass) return ABSENT;
  if (classNode.superClass.type !== AST_NODE_TYPES.Identifier) return UNKNOWN_MEMBER;
  return lookUpInOrigin(originOfTypeName(file, classNode.superClass.name), name, depth + 1);
}

function lookUpInDeclaration(declaration: TypeDeclarationNode, name: string, file: FileIndex, depth: number): MemberLookup {
  if (isClassNode(declaration)) return lookUpInClass(declaration, name, file, depth);
  if (declaration.type === AST_NODE_TYPES.TSTypeAliasDeclaration) return lookUpMemberOfType(declaration.typeAnnotation, name, file, depth);
  const own = lookUpInElements(declaration.body.body, name, file);
  if (own) return own;
  const heritage = (declaration.extends ?? []).map((clause) =>
    clause.expression.type === AST_NODE_TYPES.Identifier
      ? lookUpInOrigin(originOfTypeName(file, clause.expression.name), name, depth + 1)
      : UNKNOWN_MEMBER,
  );
  return anyPart(heritage);
}

/** What the declarations of a named type say about its member `name` (merged interfaces, base classes, heritage). */
export function lookUpMemberOfOrigin(origin: TypeOrigin, name: string): MemberLookup {
  return lookUpInOrigin(origin, name, 0);
}

function lookUpInOrigin(origin: TypeOrigin, name: string, depth: number): MemberLookup {
  if (origin.kind !== 'declared' || depth > MAX_TYPE_DEPTH) return UNKNOWN_MEMBER;
  return anyPart(origin.declarations.map((declaration) => lookUpInDeclaration(declaration, name, origin.file, depth)));
}

/**
 * Does the type `typeNode` (written in `file`) declare a member `name`? Type
 * literals, interfaces (merged, with what they extend), type aliases,
 * classes (with their base classes and parameter properties),
 * intersections (any part), unions (every part), `Readonly<T>`-style
 * wrappers, across the modules the names are imported from.
 */
export function lookUpMemberOfType(typeNode: TSESTree.TypeNode, name: string, file: FileIndex, depth = 0): MemberLookup {
  if (depth > MAX_TYPE_DEPTH) return UNKNOWN_MEMBER;
  switch (typeNode.type) {
    case AST_NODE_TYPES.TSTypeLiteral:
      return lookUpInElements(typeNode.members, name, file) ?? ABSENT;
    case AST_NODE_TYPES.TSIntersectionType:
      return anyPart(typeNode.types.map((part) => lookUpMemberOfType(part, name, file, depth + 1)));
    case AST_NODE_TYPES.TSUnionType: {
      const parts = typeNode.types
        .filter((part) => part.type !== AST_NODE_TYPES.TSUndefinedKeyword && part.type !== AST_NODE_TYPES.TSNullKeyword)
        .map((part) => lookUpMemberOfType(part, name, file, depth + 1));
      if (parts.some((part) => part.presence === 'absent')) return ABSENT;
      return parts.every((part) => part.presence === 'present') && parts[0] ? parts[0] : UNKNOWN_MEMBER;
    }
    case AST_NODE_TYPES.TSTypeOperator:
      return typeNode.operator === 'readonly' && typeNode.typeAnnotation
        ? lookUpMemberOfType(typeNode.typeAnnotation, name, file, depth + 1)
        : UNKNOWN_MEMBER;
    case AST_NODE_TYPES.TSTypeReference: {
      const wrapped = typeNode.typeArguments?.params[0];
      if (typeNode.typeName.type === AST_NODE_TYPES.Identifier && MEMBER_PRESERVING_WRAPPERS.has(typeNode.typeName.name) && wrapped) {
        const origin = originOfTypeName(file, typeNode.typeName.name);
        // The built-in wrapper, unless the module declares or imports its own of that name.
        if (origin.kind === 'unknown') return lookUpMemberOfType(wrapped, name, file, depth + 1);
      }
      return lookUpInOrigin(originOfTypeReference(file, typeNode.typeName), name, depth + 1);
    }
    default:
      return UNKNOWN_MEMBER;
  }
}

/** The element type of `Tool[]`, `readonly Tool[]`, `Array<Tool>`, `ReadonlyArray<Tool>`; the type itself otherwise. */
export function elementTypeOf(typeNode: TSESTree.TypeNode): TSESTree.TypeNode {
  if (typeNode.type === AST_NODE_TYPES.TSArrayType) return elementTypeOf(typeNode.elementType);
  if (typeNode.type === AST_NODE_TYPES.TSTypeOperator && typeNode.operator === 'readonly' && typeNode.typeAnnotation) {
    return elementTypeOf(typeNode.typeAnnotation);
  }
  if (
    typeNode.type === AST_NODE_TYPES.TSTypeReference &&
    typeNode.typeName.type === AST_NODE_TYPES.Identifier &&
    (typeNode.typeName.name === 'Array' || typeNode.typeName.name === 'ReadonlyArray') &&
    typeNode.typeArguments?.params[0]
  ) {
    return elementTypeOf(typeNode.typeArguments.params[0]);
  }
  return typeNode;
}
