/**
 * Calls of a local function that only hands its parameters on to another one — what a port leaves of
 * a wrapper (`function names() { return pendingNames(); }`) — are calls of that other function:
 * `names()` is `pendingNames()`. A call is rewritten only where it passes exactly the parameters (so
 * the target sees the same arguments) and where the target's name means the same binding; the wrapper
 * goes once nothing calls it (unusedFunctions).
 */
import type { CallExpression, Identifier } from "acorn";
import type { Scope, Variable } from "eslint-scope";
import type { FunctionNode, Node } from "../../ast/pattern.js";
import type { Rewrite } from "../../ast/traverse.js";
import { boundFunction, defineFold, laterWrites, loopHeadsOf, reads, soleReturn, variablesOf } from "./tree.js";
import { fromEstree } from "../../ast/estree-bridge.js";

/** The call a function is made of — `return g(a, b)` or `=> g(a, b)`, its own plain parameters in order — or null. */
function forwardedCall(fn: FunctionNode | null): CallExpression | null {
  if (!fn || fn.generator || fn.async) return null;
  const params = fn.params as Node[];
  if (!params.every((p) => p.type === "Identifier")) return null;
  const value = soleReturn(fn);
  if (value?.type !== "CallExpression" || value.optional || value.callee.type !== "Identifier") return null;
  const names = params.map((p) => p.name);
  if (new Set(names).size !== names.length || names.includes(value.callee.name)) return null;
  const args = value.arguments as Node[];
  const passed = args.length === names.length && args.every((a, i) => a.type === "Identifier" && a.name === names[i]);
  return passed ? value : null;
}

/** Whether `name`, read in `from`, means `target`: no scope between them declares it again. */
function resolvesTo(from: Scope | null, name: string, target: Variable): boolean {
  for (let s = from; s; s = s.upper) {
    if (s === target.scope) return true;
    if (s.set.has(name)) return false;
  }
  return false;
}

export const forwardingCalls = defineFold({ scope: true, rewrite: (root, changed) => foldForwardingCalls(root, changed) });

function foldForwardingCalls(root: Node, changed: () => void): Rewrite | null {
  const variables = variablesOf(root);
  const heads = loopHeadsOf(root);
  const variableOf = new Map<Node, Variable>();
  for (const v of variables) for (const r of v.references) variableOf.set(fromEstree(r.identifier), v);
  // Calls of wrappers, by callee identifier: the wrapper's target and parameter count, and the scope the call is in.
  const calls = new Map<Node, { target: Variable; params: number; from: Scope }>();
  for (const v of variables) {
    const call = forwardedCall(boundFunction(v, heads));
    const target = call && variableOf.get(call.callee);
    // The target is read when the wrapper runs, after the arguments: one never written reads the same either way.
    if (!target || target === v || laterWrites(target).length > 0) continue;
    for (const r of reads(v)) calls.set(fromEstree(r.identifier), { target, params: call.arguments.length, from: r.from });
  }
  if (calls.size === 0) return null;
  const leave = (n: Node): Node => {
    const call = n.type === "CallExpression" && !n.optional ? calls.get(n.callee) : undefined;
    const args: Node[] = call ? (n as CallExpression).arguments : [];
    if (!call || args.length !== call.params || args.some((a) => a.type === "SpreadElement")) return n;
    if (!resolvesTo(call.from, call.target.name, call.target)) return n;
    changed();
    const callee = (n as CallExpression).callee as Identifier;
    return { ...n, callee: { type: "Identifier", name: call.target.name, start: callee.start, end: callee.end } as Identifier } as Node;
  };
  return { leave };
}
