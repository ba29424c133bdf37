/**
 * What the folds that rewrite statements share: where statement lists are (a block's or a program's
 * body, a switch case's consequent), and statements made from expressions.
 */
import type { BlockStatement, Expression, ExpressionStatement, IfStatement, Statement } from "acorn";
import { fieldsOf, type Node } from "../../ast/pattern.js";

/** The field of `n` that holds a list of statements, or null. */
export function listKey(n: Node): "body" | "consequent" | null {
  if (n.type === "BlockStatement" || n.type === "Program" || n.type === "StaticBlock") return "body";
  if (n.type === "SwitchCase") return "consequent";
  return null;
}

/** The statement list `n` holds, or null. */
export function listOf(n: Node): Node[] | null {
  const key = listKey(n);
  return key ? (fieldsOf(n)[key] as Node[]) : null;
}

/** Replace the statement list of `n` (which must hold one). */
export function setList(n: Node, statements: Node[]): void {
  fieldsOf(n)[listKey(n)!] = statements;
}

export const blockOf = (body: Node[], at: Node): BlockStatement => ({
  type: "BlockStatement",
  body: body as Statement[],
  start: at.start,
  end: at.end,
});

export const statementOf = (e: Node): ExpressionStatement => ({
  type: "ExpressionStatement",
  expression: e as Expression,
  start: e.start,
  end: e.end,
});

/** `e` as a statement, or, for a comma sequence, one statement per part in a block. */
export function statementsOf(e: Node): Statement {
  if (e.type === "SequenceExpression") return blockOf(e.expressions.map(statementOf), e);
  return statementOf(e);
}

export const ifOf = (test: Node, consequent: Node, alternate: Node | null, at: Node): IfStatement => ({
  type: "IfStatement",
  test: test as Expression,
  consequent: consequent as Statement,
  alternate: alternate as Statement | null,
  start: at.start,
  end: at.end,
});

/** Whether a statement always leaves the code after it: a return, throw, break or continue, or a block or if that always does. */
export function exits(s: Node | null | undefined): boolean {
  if (!s) return false;
  switch (s.type) {
    case "ReturnStatement":
    case "ThrowStatement":
    case "BreakStatement":
    case "ContinueStatement":
      return true;
    case "BlockStatement":
      return exits(s.body.at(-1));
    case "IfStatement":
      return !!s.alternate && exits(s.consequent) && exits(s.alternate);
    default:
      return false;
  }
}

/** Whether a block declares anything scoped to it (let, const, class, function), so its statements cannot simply join another list. */
export const declaresInBlock = (statements: Node[]): boolean =>
  statements.some(
    (x) => (x.type === "VariableDeclaration" && x.kind !== "var") || x.type === "FunctionDeclaration" || x.type === "ClassDeclaration",
  );
