/**
 * `(a(), b = c(), d());` as a statement — the minifier's way to save braces, and what the folds leave
 * of a dropped value's effects — written as one statement each, in the same order.
 */
import type { Expression, ExpressionStatement, SequenceExpression } from "acorn";
import { fieldsOf, type Node } from "../../ast/pattern.js";
import { rewriteUp, type Fold } from "./tree.js";

const isSequenceStatement = (s: Node): s is ExpressionStatement & { expression: SequenceExpression } =>
  s.type === "ExpressionStatement" && s.expression.type === "SequenceExpression";

export const sequenceStatements: Fold = (root) => {
  let count = 0;
  rewriteUp(root, (n) => {
    const key = n.type === "BlockStatement" ? "body" : n.type === "SwitchCase" ? "consequent" : null;
    if (!key || !(fieldsOf(n)[key] as Node[]).some(isSequenceStatement)) return n;
    fieldsOf(n)[key] = (fieldsOf(n)[key] as Node[]).flatMap((s: Node) => {
      if (!isSequenceStatement(s)) return [s];
      count++;
      return s.expression.expressions.map((e: Expression): ExpressionStatement => ({
        type: "ExpressionStatement",
        expression: e,
        start: e.start,
        end: e.end,
      }));
    });
    return n;
  });
  return count;
};
