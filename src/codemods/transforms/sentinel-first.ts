import { Node, SyntaxKind, type Block, type IfStatement, type Statement } from 'ts-morph';

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
import type { RuleFinding, TextEdit, Transform, UnresolvedSite } from '../transform.js';

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
  while (Node.isParenthesizedExpression(current) || Node.isAsExpression(current) || Node.isNonNullExpression(current) || Node.isSatisfiesExpression(current)) {
    current = current.getExpression();
  }
  return current;
}

function isInfinityName(node: Node): boolean {
  const text = withoutWrappers(node).getText();
  return text === 'Infinity' || text === 'Number.POSITIVE_INFINITY';
}

/**
 * The value an existing sentinel exit tests, when `statement` is one:
 * `if (!Number.isFinite(x)) return …;` / `!isFinite(x)` / `x === Infinity`,
 * with a `return` or `throw` (braced or not) and no `else`. The rule decides
 * whether a lookup is reached before the sentinel; this only finds the exit
 * the transform moves.
 */
function sentinelSubject(statement: IfStatement): Node | undefined {
  if (statement.getElseStatement()) return undefined;
  const then = statement.getThenStatement();
  const exit = Node.isBlock(then) && then.getStatements().length === 1 ? then.getStatements()[0]! : then;
  if (!Node.isReturnStatement(exit) && !Node.isThrowStatement(exit)) return undefined;
  const condition = withoutWrappers(statement.getExpression());
  if (Node.isPrefixUnaryExpression(condition) && condition.getOperatorToken() === SyntaxKind.ExclamationToken) {
    const operand = withoutWrappers(condition.getOperand());
    if (!Node.isCallExpression(operand)) return undefined;
    const callee = operand.getExpression().getText();
    const [argument] = operand.getArguments();
    return (callee === 'Number.isFinite' || callee === 'isFinite') && argument ? withoutWrappers(argument) : undefined;
  }
  if (Node.isBinaryExpression(condition)) {
    const operator = condition.getOperatorToken().getKind();
    if (operator !== SyntaxKind.EqualsEqualsEqualsToken && operator !== SyntaxKind.EqualsEqualsToken) return undefined;
    if (isInfinityName(condition.getRight())) return withoutWrappers(condition.getLeft());
    if (isInfinityName(condition.getLeft())) return withoutWrappers(condition.getRight());
  }
  return undefined;
}

/** Every descendant of `root` that belongs to it, not to a function nested in it. */
function ownDescendants(root: Node): Node[] {
  const found: Node[] = [];
  const visit = (node: Node): void => {
    for (const child of node.getChildren()) {
      if (isFunctionWithBody(child) || Node.isClassDeclaration(child) || Node.isClassExpression(child)) continue;
      found.push(child);
      visit(child);
    }
  };
  visit(root);
  return found;
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
    return !!argument && (Node.isStringLiteral(argument) || Node.isNumericLiteral(argument)) && isPureReadOf(target.getExpression(), parameters);
  }
  return false;
}

interface HoistPlan {
  edits: TextEdit[];
}

/**
 * Moves the function's sentinel exit up to where the declared value first
 * exists: the body's start for a parameter (or a property of one), right
 * after its `const` otherwise, taking a `const` that only reads a parameter
 * along when it was declared after the lookups. Lifting a pure check crosses
 * no side effect. Later copies of the exit become redundant and are removed.
 */
function planHoist(fn: FunctionWithBody, lookups: Node[]): HoistPlan | undefined {
  const body = fn.getBody();
  if (!body || !Node.isBlock(body)) return undefined;
  const statements = (body as Block).getStatements();
  const topLevelIndex = (node: Node): number => statements.findIndex((statement) => statement.getStart() <= node.getStart() && node.getEnd() <= statement.getEnd());
  const firstLookup = Math.min(...lookups.map(topLevelIndex).filter((index) => index !== -1));
  if (!Number.isFinite(firstLookup)) return undefined;

  const guards = ownDescendants(body)
    .filter((node): node is IfStatement => Node.isIfStatement(node))
    .map((statement) => ({ statement, subject: sentinelSubject(statement) }))
    .filter((guard): guard is { statement: IfStatement; subject: Node } => guard.subject !== undefined);
  const guard = guards[0];
  if (!guard) return undefined;
  const subjectText = guard.subject.getText();
  const parameters = parameterNames(fn);

  let insertionIndex: number;
  let movedDeclaration: Statement | undefined;
  const subject = guard.subject;
  if (Node.isIdentifier(subject) && parameters.has(subjectText)) {
    if (isAssignedIn(fn, subjectText)) return undefined;
    insertionIndex = 0;
  } else if (Node.isIdentifier(subject)) {
    const declarationIndex = statements.findIndex(
      (statement) =>
        Node.isVariableStatement(statement) &&
        statement.getDeclarationKind() === 'const' &&
        statement.getDeclarations().length === 1 &&
        statement.getDeclarations()[0]!.getName() === subjectText,
    );
    if (declarationIndex === -1) return undefined;
    const declaration = statements[declarationIndex]!;
    const initializer = Node.isVariableStatement(declaration) ? declaration.getDeclarations()[0]!.getInitializer() : undefined;
    if (declarationIndex < firstLookup) {
      insertionIndex = declarationIndex + 1;
    } else if (initializer && isPureReadOf(initializer, parameters)) {
      insertionIndex = 0;
      movedDeclaration = declaration;
    } else {
      // The declared value is computed after other work: moving it could reorder side effects.
      return undefined;
    }
  } else if (isPureReadOf(subject, parameters)) {
    insertionIndex = 0;
  } else {
    return undefined;
  }
  if (insertionIndex > firstLookup) return undefined;

  const sourceFile = fn.getSourceFile();
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

  const removals = [...(movedDeclaration ? [movedDeclaration] : []), ...guards.filter((other) => other.subject.getText() === subjectText).map((other) => other.statement)];
  for (const statement of removals) {
    const parent = statement.getParent();
    // Only an exit that is a statement of its own block can go; `else if (…) return` stays.
    if (!parent || !Node.isBlock(parent)) return undefined;
    const lines = wholeLinesOf(statement);
    if (!lines) return undefined;
    edits.push({ start: lines.start, end: lines.end, text: '' });
  }
  return { edits };
}

const TODO_MESSAGE =
  'test the sentinel (`if (!Number.isFinite(declared)) return declared;`) before this override lookup; ' +
  'the declared value is only known after other work here, so move it by hand.';

/**
 * `sentinel-first`: the seed-000 rule "test the self-bounding sentinel
 * before any remote override". The rule reports each override lookup some
 * path reaches before the sentinel exit; the transform moves that exit up.
 * Where it cannot (no exit to move, or the declared value only exists after
 * other side effects) it leaves a TODO comment and lists the site.
 */
export const sentinelFirst: Transform = {
  name: 'sentinel-first',
  description: 'the sentinel exit (!Number.isFinite(declared)) first, before every override lookup',
  ruleName: 'sentinel-before-override',
  run({ sourceFile, findings }) {
    const edits: TextEdit[] = [];
    const unresolved: UnresolvedSite[] = [];
    const byFunction = new Map<FunctionWithBody | undefined, { finding: RuleFinding; node: Node }[]>();
    for (const finding of findings) {
      const node = nodeAtRange(sourceFile, finding.start, finding.end);
      if (!node) continue;
      const fn = node.getFirstAncestor((ancestor) => isFunctionWithBody(ancestor)) as FunctionWithBody | undefined;
      const group = byFunction.get(fn) ?? [];
      group.push({ finding, node });
      byFunction.set(fn, group);
    }
    for (const [fn, group] of byFunction) {
      const plan = fn ? planHoist(fn, group.map(({ node }) => node)) : undefined;
      if (plan) {
        edits.push(...plan.edits);
        continue;
      }
      const marked = new Set<Node>();
      for (const { finding, node } of group) {
        unresolved.push({ line: finding.line, column: finding.column, reason: `${finding.message} (left a ${'TODO'} comment: move the sentinel exit by hand)` });
        const statement = statementInListOf(node);
        if (!statement || marked.has(statement)) continue;
        marked.add(statement);
        const todo = todoCommentEdit(statement, TODO_MESSAGE);
        if (todo) edits.push(todo);
      }
    }
    return { edits, unresolved };
  },
};
