/** `!0` and `!1`, the minifier's spelling of true and false, written as such. */
import { literalAt } from "./pure.js";
import { defineFold } from "./tree.js";

export const minifiedBooleans = defineFold({
  scope: false,
  rewrite: (_root, changed) => ({
    leave: (n) => {
      if (n.type !== "UnaryExpression" || n.operator !== "!" || n.argument.type !== "Literal" || typeof n.argument.value !== "number")
        return n;
      changed();
      return literalAt(!n.argument.value, n);
    },
  }),
});
