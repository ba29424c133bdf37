/**
 * Calls of a local function that returns its argument as it is — what a port leaves of a
 * transformation the client applied (`function keep(tools) { return tools; }`) — are that argument:
 * `keep(x)` is `x`. Other arguments still run where they have effects. The function itself stays
 * while it is still passed as a value.
 */
import type { CallExpression, Identifier } from "acorn";
import type { FunctionNode, Node } from "../../ast/pattern.js";
import { effectsOf, undefinedAt, withEffects } from "./pure.js";
import type { Place, Rewrite } from "../../ast/traverse.js";
import { boundFunction, defineFold, loopHeadsOf, reads, soleReturn, variablesOf } from "./tree.js";
import { fromEstree } from "../../ast/estree-bridge.js";

/** `function (x, …) { return x; }` or `(x, …) => x`, plain parameters: the index of x, or -1. */
function returnedParameter(fn: FunctionNode | null): number {
  if (!fn || fn.generator || fn.async) return -1;
  if (fn.params.length === 0 || !fn.params.every((p: Node) => p.type === "Identifier")) return -1;
  const value = soleReturn(fn);
  if (value?.type !== "Identifier") return -1;
  const index = fn.params.findIndex((p: Node) => (p as Identifier).name === value.name);
  // A parameter named twice (sloppy mode) is the last one.
  return index >= 0 && fn.params.filter((p: Node) => (p as Identifier).name === value.name).length === 1 ? index : -1;
}

export const identityCalls = defineFold({ scope: true, rewrite: (root, changed) => foldIdentityCalls(root, changed) });

function foldIdentityCalls(root: Node, changed: () => void): Rewrite | null {
  const heads = loopHeadsOf(root);
  const callees = new Map<Node, number>();
  for (const v of variablesOf(root)) {
    const index = returnedParameter(boundFunction(v, heads));
    if (index < 0) continue;
    for (const r of reads(v)) callees.set(fromEstree(r.identifier), index);
  }
  if (callees.size === 0) return null;
  const leave = (n: Node, { parent, key }: Place): Node => {
    // `keep(o.m)()` calls m without o as `this`; `o.m()` would not.
    if ((key === "callee" && /^(Call|New)Expression$/.test(parent.type)) || key === "tag") return n;
    const index = n.type === "CallExpression" && !n.optional ? callees.get(n.callee) : undefined;
    if (index === undefined || (n as CallExpression).arguments.some((a: Node) => a.type === "SpreadElement")) return n;
    const args: Node[] = (n as CallExpression).arguments;
    const value = args[index] ?? undefinedAt(n);
    // Arguments run in order: those before the returned one keep their effects ahead of it; those after must be pure.
    if (!args.slice(index + 1).every((a) => effectsOf(a).length === 0)) return n;
    changed();
    return withEffects(
      args.slice(0, index).flatMap((a: Node) => effectsOf(a)),
      value,
    );
  };
  return { leave };
}
