/**
 * Top-down rewriting of a syntax tree in place: each node is offered to `replace` before its
 * children, and the replacement's own children are visited in turn.
 */
import type { Node } from "./pattern.js";

export function rewriteTree(root: Node, replace: (n: Node) => Node): void {
  const visit = (n: Node) => {
    if (!n || typeof n !== "object") return;
    for (const key in n) {
      const v = n[key];
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) if (v[i] && typeof v[i] === "object") visit((v[i] = replace(v[i])));
      } else if (v && typeof v === "object" && typeof v.type === "string") visit((n[key] = replace(v)));
    }
  };
  visit(root);
}
