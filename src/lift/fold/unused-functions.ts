/**
 * Functions nobody calls: a function declaration whose name is read only inside its own body (or
 * not at all), and never written, goes. Declaring a function has no effect.
 */
import type { Node } from "../../ast/pattern.js";
import type { Rewrite } from "../../ast/traverse.js";
import { defineFold, inside, variablesOf } from "./tree.js";
import { fromEstree } from "../../ast/estree-bridge.js";

export const unusedFunctions = defineFold({
  scope: true,
  after: ["forwardingCalls"],
  rewrite: (root, changed) => dropUnused(root, changed),
});

function dropUnused(root: Node, changed: (k: number) => void): Rewrite | null {
  const drop = new Set<Node>();
  for (const v of variablesOf(root)) {
    if (v.defs.length !== 1 || v.defs[0]!.type !== "FunctionName") continue;
    const fn = fromEstree(v.defs[0]!.node);
    if (fn.type !== "FunctionDeclaration") continue;
    if (v.references.some((r) => r.isWrite())) continue;
    if (v.references.every((r) => inside(fromEstree(r.identifier), fn))) drop.add(fn);
  }
  if (drop.size === 0) return null;
  changed(drop.size);
  return { leave: (n) => (drop.has(n) ? null : n) };
}
