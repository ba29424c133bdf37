/**
 * Functions nobody calls: a function declaration whose name is read only inside its own body (or
 * not at all), and never written, goes. Declaring a function has no effect.
 */
import type { Node } from "../../ast/pattern.js";
import { inside, rewriteUp, variablesOf, type Fold } from "./tree.js";

export const unusedFunctions: Fold = (root) => {
  const drop = new Set<Node>();
  for (const v of variablesOf(root)) {
    if (v.defs.length !== 1 || v.defs[0]!.type !== "FunctionName") continue;
    const fn = v.defs[0]!.node as unknown as Node;
    if (fn.type !== "FunctionDeclaration") continue;
    if (v.references.some((r) => r.isWrite())) continue;
    if (v.references.every((r) => inside(r.identifier as unknown as Node, fn))) drop.add(fn);
  }
  if (drop.size === 0) return 0;
  rewriteUp(root, (n) => (drop.has(n) ? null : n));
  return drop.size;
};
