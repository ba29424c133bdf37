/**
 * `void 0`, the minifier's spelling of undefined, written as `undefined` wherever no binding of the
 * module shadows that name (the global undefined cannot be written).
 *
 *   if (x === void 0) return void 0;   →   if (x === undefined) return undefined;
 */
import type { Node } from "../../ast/pattern.js";
import { defineFold, inside, variablesOf } from "./tree.js";
import { fromEstree } from "../../ast/estree-bridge.js";

export const undefinedValues = defineFold({ scope: true, rewrite: (root, changed) => ({ leave: undefinedOf(root, changed) }) });

/** `void 0` as `undefined`, where no binding of the module's own is named so. */
function undefinedOf(root: Node, changed: () => void): (n: Node) => Node {
  // The blocks where `undefined` names a binding of the module's own.
  const shadowed = variablesOf(root)
    .filter((v) => v.name === "undefined")
    .map((v) => fromEstree(v.scope.block));
  return (n) => {
    if (n.type !== "UnaryExpression" || n.operator !== "void" || n.argument.type !== "Literal") return n;
    if (shadowed.length > 0 && (!n.range || shadowed.some((block) => block === root || inside(n, block)))) return n;
    changed();
    return { type: "Identifier", name: "undefined", start: n.start, end: n.end };
  };
}
