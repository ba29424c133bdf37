/**
 * A choice between two equal things is no choice: `ready ? tools : tools` is `tools`, and
 * `if (t) S; else S` is S. The test still runs where it may have an effect: `(t(), tools)`.
 */
import type { ExpressionStatement } from "acorn";
import { sameCode } from "../../ast/pattern.js";
import { effectsOf, withEffects } from "./pure.js";
import { rewriteUp, type Fold } from "./tree.js";

export const equalBranches: Fold = (root) => {
  let count = 0;
  rewriteUp(root, (n) => {
    if (n.type === "ConditionalExpression" && sameCode(n.consequent, n.alternate)) {
      count++;
      return withEffects(effectsOf(n.test), n.consequent);
    }
    if (n.type === "IfStatement" && n.alternate && sameCode(n.consequent, n.alternate)) {
      count++;
      const effects = effectsOf(n.test);
      if (effects.length === 0) return n.consequent;
      const test: ExpressionStatement = {
        type: "ExpressionStatement",
        expression: withEffects(effects.slice(0, -1), effects.at(-1)!),
        start: n.start,
        end: n.start,
      };
      return { type: "BlockStatement", body: [test, n.consequent], start: n.start, end: n.end };
    }
    return n;
  });
  return count;
};
