/**
 * Expression statements that are really control flow, written as if statements:
 *
 *   a && b();          →   if (a) b();
 *   a || b();          →   if (!a) b();
 *   a ?? b();          →   if (a == null) b();
 *   c ? d() : e();     →   if (c) d(); else e();
 *   a && (b(), c());   →   if (a) { b(); c(); }
 *
 * The value of the statement was unused, so only the test and the branch taken run, as before.
 */
import type { Expression, LogicalExpression } from "acorn";
import type { Node } from "../../ast/pattern.js";
import { blockOf, ifOf, statementsOf } from "./statement-lists.js";
import type { Place } from "../../ast/traverse.js";
import { defineFold } from "./tree.js";

const NEGATED: Record<string, string> = { "===": "!==", "!==": "===", "==": "!=", "!=": "==" };

/** The test that holds when `e` is falsy: `!e`, with `!!x` read as `x` and an equality turned around. */
export function negated(e: Node): Expression {
  if (e.type === "UnaryExpression" && e.operator === "!") return e.argument;
  if (e.type === "BinaryExpression" && NEGATED[e.operator]) return { ...e, operator: NEGATED[e.operator] as "===" };
  return { type: "UnaryExpression", operator: "!", prefix: true, argument: e as Expression, start: e.start, end: e.end };
}

function testOf(e: LogicalExpression): Expression {
  if (e.operator === "&&") return e.left;
  if (e.operator === "||") return negated(e.left);
  const nil = { type: "Literal", value: null, raw: "null", start: e.left.start, end: e.left.end } as Expression;
  return { type: "BinaryExpression", operator: "==", left: e.left, right: nil, start: e.left.start, end: e.left.end };
}

export const controlExpressions = defineFold({
  scope: false,
  rewrite: (_root, changed) => ({ leave: (n, at) => ifStatementOf(n, at, changed) }),
});

/** The if statement an expression statement `n` at `at` is, or `n`. */
function ifStatementOf(n: Node, { parent, key }: Place, changed: () => void): Node {
  if (n.type !== "ExpressionStatement" || n.directive) return n;
  const e = n.expression;
  let r: Node;
  if (e.type === "LogicalExpression") r = ifOf(testOf(e), statementsOf(e.right), null, n);
  else if (e.type === "ConditionalExpression") r = ifOf(e.test, statementsOf(e.consequent), statementsOf(e.alternate), n);
  else return n;
  changed();
  // An if without else in the consequent of an if with one would take that else when printed.
  if (parent.type === "IfStatement" && key === "consequent" && parent.alternate) return blockOf([r], n);
  return r;
}
