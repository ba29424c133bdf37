/**
 * `await void 0` and `await []` wait one turn for a value that is already there. Without the await
 * the value is the same; only the turn is gone, which no one can see unless something else runs
 * concurrently and shares state with this function. Verification runs the folded module against the
 * original, so an ordering that mattered would fail the lift.
 */
import type { Node } from "../../ast/pattern.js";
import { isConstant, isPure } from "./pure.js";
import { defineFold } from "./tree.js";

/** A value that is known not to be a thenable: a constant, or an array literal (arrays have no `then`). */
const settled = (n: Node): boolean => isConstant(n) || (n.type === "ArrayExpression" && isPure(n));

export const awaitConstants = defineFold({
  scope: false,
  after: ["constantCalls"],
  rewrite: (_root, changed) => ({
    leave: (n) => {
      if (n.type !== "AwaitExpression" || !settled(n.argument)) return n;
      changed();
      return n.argument;
    },
  }),
});
