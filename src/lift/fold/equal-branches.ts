/**
 * A choice between two equal things is no choice: `ready ? tools : tools` is `tools`, and
 * `if (t) S; else S` is S. The test still runs where it may have an effect: `(t(), tools)`.
 */
import type { ExpressionStatement } from "acorn";
import { sameCode, type Node } from "../../ast/pattern.js";
import { effectsOf, withEffects } from "./pure.js";
import { defineFold } from "./tree.js";

export const equalBranches = defineFold({ scope: false, rewrite: (_root, changed) => ({ leave: (n) => foldChoice(n, changed) }) });

function foldChoice(n: Node, changed: () => void): Node {
  if (n.type === "ConditionalExpression" && sameCode(n.consequent, n.alternate)) {
    changed();
    return withEffects(effectsOf(n.test), n.consequent);
  }
  if (n.type === "IfStatement" && n.alternate && sameCode(n.consequent, n.alternate)) {
    changed();
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
}
