/**
 * `(a(), b = c(), d());` as a statement — the minifier's way to save braces, and what the folds leave
 * of a dropped value's effects — written as one statement each, in the same order.
 */
import type { Expression, ExpressionStatement, SequenceExpression } from "acorn";
import { fieldsOf, type Node } from "../../ast/pattern.js";
import { defineFold } from "./tree.js";

const isSequenceStatement = (s: Node): s is ExpressionStatement & { expression: SequenceExpression } =>
  s.type === "ExpressionStatement" && s.expression.type === "SequenceExpression";

export const sequenceStatements = defineFold({ scope: false, rewrite: (_root, changed) => ({ leave: (n) => split(n, changed) }) });

/** The statements of `n`'s list (if it holds one) with each sequence statement split. */
function split(n: Node, changed: () => void): Node {
  const key = n.type === "BlockStatement" ? "body" : n.type === "SwitchCase" ? "consequent" : null;
  if (!key || !(fieldsOf(n)[key] as Node[]).some(isSequenceStatement)) return n;
  fieldsOf(n)[key] = (fieldsOf(n)[key] as Node[]).flatMap((s: Node) => {
    if (!isSequenceStatement(s)) return [s];
    changed();
    return s.expression.expressions.map((e: Expression): ExpressionStatement => ({
      type: "ExpressionStatement",
      expression: e,
      start: e.start,
      end: e.end,
    }));
  });
  return n;
}
