/**
 * `(a(), b = c(), d());` as a statement — the minifier's way to save braces, and what the folds leave
 * of a dropped value's effects — written as one statement each, in the same order.
 */
import type { Node } from "../../ast/pattern.js";
import { rewriteUp, type Fold } from "./tree.js";

const isSequenceStatement = (s: Node): boolean => s.type === "ExpressionStatement" && s.expression.type === "SequenceExpression";

export const sequenceStatements: Fold = (root) => {
  let count = 0;
  rewriteUp(root, (n) => {
    const key = n.type === "BlockStatement" ? "body" : n.type === "SwitchCase" ? "consequent" : null;
    if (!key || !n[key].some(isSequenceStatement)) return n;
    n[key] = n[key].flatMap((s: Node) => {
      if (!isSequenceStatement(s)) return [s];
      count++;
      return s.expression.expressions.map((e: Node) => ({ type: "ExpressionStatement", expression: e, start: e.start, end: e.end }));
    });
    return n;
  });
  return count;
};
