import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { Node, SyntaxKind, type Block, type Statement } from 'ts-morph';

import { createBindingResolver } from '../../recognition/bindings.js';
import { exitsUnconditionally, isDeclaredThreshold, notFiniteSubject } from '../../recognition/guards.js';
import { isFunctionNode, walk } from '../../recognition/index.js';

import {
  indentationAt,
  newlineOf,
  nodeAtRange,
  reindent,
  startWithOwnComments,
  statementInListOf,
  todoCommentEdit,
  wholeLinesOf,
} from '../source-edits.js';
import type { RuleFinding, RuleTransform, TextEdit, UnresolvedSite } from '../transform.js';

type FunctionWithBody = Node & { getBody(): Node | undefined; getParameters(): Node[] };

function isFunctionWithBody(node: Node): node is FunctionWithBody {
  return (
    Node.isFunctionDeclaration(node) ||
    Node.isFunctionExpression(node) ||
    Node.isArrowFunction(node) ||
    Node.isMethodDeclaration(node) ||
    Node.isGetAccessorDeclaration(node) ||
    Node.isSetAccessorDeclaration(node) ||
    Node.isConstructorDeclaration(node)
  );
}

function withoutWrappers(node: Node): Node {
  let current = node;
  while (
    Node.isParenthesizedExpression(current) ||
    Node.isAsExpression(current) ||
    Node.isNonNullExpression(current) ||
    Node.isSatisfiesExpression(current)
  ) {
    current = current.getExpression();
  }
  return current;
}

/**
 * The sentinel exits of the function around the reported lookup, as the
 * recognition core sees them (the same guards the rule waits for):
 * `if (!Number.isFinite(declared)) return …;` and its variants, on the
 * declared threshold, with no `else`.
 */
function sentinelExitsAround(
  finding: RuleFinding<'sentinel-before-override'>,
): { statement: [number, number]; subject: [number, number] }[] {
  const context = finding.ruleContext;
  let fn: TSESTree.Node | undefined = finding.reportedNode;
  while (fn && !isFunctionNode(fn)) fn = fn.parent;
  if (!context || !fn || !isFunctionNode(fn)) return [];
  const resolve = createBindingResolver(context.sourceCode);
  const exits: { statement: [number, number]; subject: [number, number] }[] = [];
  const body = fn.body;
  walk(body, (node) => {
    if (node !== body && isFunctionNode(node)) return false;
    if (node.type !== AST_NODE_TYPES.IfStatement || node.alternate || !exitsUnconditionally(node.consequent)) return undefined;
    const subject = notFiniteSubject(node.test);
    if (subject && isDeclaredThreshold(subject, resolve)) exits.push({ statement: node.range, subject: subject.range });
    return undefined;
  });
  return exits;
}

function parameterNames(fn: FunctionWithBody): Set<string> {
  const names = new Set<string>();
  for (const parameter of fn.getParameters()) {
    for (const identifier of [parameter, ...parameter.getDescendantsOfKind(SyntaxKind.Identifier)]) {
      if (Node.isIdentifier(identifier) || Node.isParameterDeclaration(identifier)) {
        const nameNode = Node.isParameterDeclaration(identifier) ? identifier.getNameNode() : identifier;
        if (Node.isIdentifier(nameNode)) names.add(nameNode.getText());
      }
    }
  }
  return names;
}

function isAssignedIn(fn: FunctionWithBody, name: string): boolean {
  return fn.getDescendantsOfKind(SyntaxKind.BinaryExpression).some((binary) => {
    const kind = binary.getOperatorToken().getKind();
    return kind >= SyntaxKind.FirstAssignment && kind <= SyntaxKind.LastAssignment && withoutWrappers(binary.getLeft()).getText() === name;
  });
}

/** A read with no side effect: a parameter, `this`, and property accesses on them. */
function isPureReadOf(node: Node, parameters: ReadonlySet<string>): boolean {
  const target = withoutWrappers(node);
  if (Node.isIdentifier(target)) return parameters.has(target.getText());
  if (Node.isThisExpression(target)) return true;
  if (Node.isPropertyAccessExpression(target)) return isPureReadOf(target.getExpression(), parameters);
  if (Node.isElementAccessExpression(target)) {
    const argument = target.getArgumentExpression();
    return (
      !!argument && (Node.isStringLiteral(argument) || Node.isNumericLiteral(argument)) && isPureReadOf(target.getExpression(), parameters)
    );
  }
  return false;
}

type HoistPlan = { edits: TextEdit[] } | { unresolved: string };

/**
 * Moves the function's sentinel exit up to where the declared value first
 * exists: the body's start for a parameter (or a property of one), right
 * after its `const` otherwise, taking a `const` that only reads a parameter
 * along when it was declared after the lookups. Lifting a pure check crosses
 * no side effect. Later copies of the exit become redundant and are removed.
 */
function planHoist(fn: FunctionWithBody, lookups: Node[], finding: RuleFinding<'sentinel-before-override'>): HoistPlan {
  const body = fn.getBody();
  if (!body || !Node.isBlock(body)) return { unresolved: 'the function has an expression body; add the sentinel exit by hand' };
  const statements = (body as Block).getStatements();
  const topLevelIndex = (node: Node): number =>
    statements.findIndex((statement) => statement.getStart() <= node.getStart() && node.getEnd() <= statement.getEnd());
  const firstLookup = Math.min(...lookups.map(topLevelIndex).filter((index) => index !== -1));
  if (!Number.isFinite(firstLookup)) return { unresolved: 'move the sentinel exit before this override lookup by hand' };

  const sourceFile = fn.getSourceFile();
  const guards = sentinelExitsAround(finding)
    .map((exit) => ({
      statement: sourceFile.getDescendantAtStartWithWidth(exit.statement[0], exit.statement[1] - exit.statement[0]),
      subject: withoutWrappers(nodeAtRange(sourceFile, exit.subject[0], exit.subject[1])!),
    }))
    .filter((guard): guard is { statement: Node; subject: Node } => !!guard.statement && Node.isIfStatement(guard.statement));
  const guard = guards[0];
  if (!guard)
    return {
      unresolved: 'there is no sentinel exit to move: add `if (!Number.isFinite(declared)) return declared;` before this override lookup',
    };
  const subjectText = guard.subject.getText();
  const parameters = parameterNames(fn);

  let insertionIndex: number;
  let movedDeclaration: Statement | undefined;
  const subject = guard.subject;
  if (Node.isIdentifier(subject) && parameters.has(subjectText)) {
    if (isAssignedIn(fn, subjectText))
      return { unresolved: 'the declared value is reassigned in this function: move the sentinel exit by hand' };
    insertionIndex = 0;
  } else if (Node.isIdentifier(subject)) {
    const declarationIndex = statements.findIndex(
      (statement) =>
        Node.isVariableStatement(statement) &&
        statement.getDeclarationKind() === 'const' &&
        statement.getDeclarations().length === 1 &&
        statement.getDeclarations()[0]!.getName() === subjectText,
    );
    if (declarationIndex === -1)
      return { unresolved: 'the declared value is not a `const` of this function body: move the sentinel exit by hand' };
    const declaration = statements[declarationIndex]!;
    const initializer = Node.isVariableStatement(declaration) ? declaration.getDeclarations()[0]!.getInitializer() : undefined;
    if (declarationIndex < firstLookup) {
      insertionIndex = declarationIndex + 1;
    } else if (initializer && isPureReadOf(initializer, parameters)) {
      insertionIndex = 0;
      movedDeclaration = declaration;
    } else {
      // The declared value is computed after other work: moving it could reorder side effects.
      return { unresolved: 'the declared value is only computed after other work here: move the sentinel exit before this lookup by hand' };
    }
  } else if (isPureReadOf(subject, parameters)) {
    insertionIndex = 0;
  } else {
    return { unresolved: 'move the sentinel exit before this override lookup by hand' };
  }
  if (insertionIndex > firstLookup) return { unresolved: 'move the sentinel exit before this override lookup by hand' };

  const newline = newlineOf(sourceFile);
  const anchor = statements[insertionIndex]!;
  const anchorStart = startWithOwnComments(anchor);
  const indentation = indentationAt(sourceFile, anchorStart);
  const text = sourceFile.getFullText();
  const moved = (statement: Node): string => {
    const start = startWithOwnComments(statement);
    return reindent(text.slice(start, statement.getEnd()), indentationAt(sourceFile, start), indentation);
  };

  const edits: TextEdit[] = [];
  const inserted = [...(movedDeclaration ? [moved(movedDeclaration)] : []), moved(guard.statement)];
  edits.push({ start: anchorStart, end: anchorStart, text: inserted.map((piece) => `${piece}${newline}${indentation}`).join('') });

  if (movedDeclaration) {
    // The `const` moves: it cannot stay behind as a second declaration.
    const lines = wholeLinesOf(movedDeclaration);
    if (!lines) return { unresolved: 'the declared value shares its line with other code: move the sentinel exit by hand' };
    edits.push({ start: lines.start, end: lines.end, text: '' });
  }
  // The later copies are redundant once the exit comes first. One that is not a
  // statement of its own lines (`else if (…) return`, code on the same line)
  // stays: a redundant pure check is harmless, a broken `else` is not.
  for (const other of guards.filter((candidate) => candidate.subject.getText() === subjectText)) {
    const parent = other.statement.getParent();
    const lines = parent && Node.isBlock(parent) ? wholeLinesOf(other.statement) : undefined;
    if (lines) edits.push({ start: lines.start, end: lines.end, text: '' });
  }
  return { edits };
}

/**
 * `sentinel-first`: the circular-persistence rule "test the self-bounding sentinel
 * before any remote override". The rule reports each override lookup some
 * path reaches before the sentinel exit; the transform moves that exit up.
 * Where it cannot (no exit to move, or the declared value only exists after
 * other side effects) it leaves a TODO comment and lists the site.
 */
export const sentinelFirst: RuleTransform<'sentinel-before-override'> = {
  name: 'sentinel-first',
  description: 'the sentinel exit (!Number.isFinite(declared)) first, before every override lookup',
  ruleName: 'sentinel-before-override',
  run({ sourceFile, findings }) {
    const edits: TextEdit[] = [];
    const unresolved: UnresolvedSite[] = [];
    const byFunction = new Map<FunctionWithBody | undefined, { finding: RuleFinding<'sentinel-before-override'>; node: Node }[]>();
    for (const finding of findings) {
      const node = nodeAtRange(sourceFile, finding.start, finding.end);
      if (!node) continue;
      const fn = node.getFirstAncestor((ancestor) => isFunctionWithBody(ancestor)) as FunctionWithBody | undefined;
      const group = byFunction.get(fn) ?? [];
      group.push({ finding, node });
      byFunction.set(fn, group);
    }
    for (const [fn, group] of byFunction) {
      const plan: HoistPlan = fn
        ? planHoist(
            fn,
            group.map(({ node }) => node),
            group[0]!.finding,
          )
        : { unresolved: 'the lookup is outside any function: add the sentinel exit by hand' };
      if ('edits' in plan) {
        edits.push(...plan.edits);
        continue;
      }
      const marked = new Set<Node>();
      for (const { finding, node } of group) {
        unresolved.push({
          line: finding.line,
          column: finding.column,
          reason: `override lookup before the sentinel exit: ${plan.unresolved}`,
        });
        const statement = statementInListOf(node);
        if (!statement || marked.has(statement)) continue;
        marked.add(statement);
        const todo = todoCommentEdit(
          statement,
          `${plan.unresolved.replaceAll('declared', finding.data.threshold)} (circular persistence: ` +
            `a remote override must never re-enable persistence for a self-reading tool).`,
        );
        if (todo) edits.push(todo);
      }
    }
    return { edits, unresolved };
  },
};
