/** `!0` and `!1`, the minifier's spelling of true and false, written as such. */
import { literalAt } from "./pure.js";
import { rewriteUp, type Fold } from "./tree.js";

export const minifiedBooleans: Fold = (root) => {
  let count = 0;
  rewriteUp(root, (n) => {
    if (n.type !== "UnaryExpression" || n.operator !== "!" || n.argument.type !== "Literal" || typeof n.argument.value !== "number")
      return n;
    count++;
    return literalAt(!n.argument.value, n);
  });
  return count;
};
