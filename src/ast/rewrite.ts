/**
 * Top-down rewriting of a syntax tree in place: each node is offered to `replace` before its
 * children, and the replacement's own children are visited in turn.
 */
import { fieldsOf, isNode, type Node } from "./pattern.js";

export function rewriteTree(root: Node, replace: (n: Node) => Node): void {
  const visit = (n: Node) => {
    if (!n || typeof n !== "object") return;
    const fields = fieldsOf(n);
    for (const key in fields) {
      const v = fields[key];
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) if (v[i] && typeof v[i] === "object") visit((v[i] = replace(v[i] as Node)));
      } else if (isNode(v)) visit((fields[key] = replace(v)));
    }
  };
  visit(root);
}
