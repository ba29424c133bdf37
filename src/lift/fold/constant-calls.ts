/**
 * Calls of local functions that do nothing but return a constant — `let notify = () => void 0`,
 * `let admits = (tool, held) => false`, or `async function settle(a, b) { return; }` as a port left
 * it — are that constant: `notify(x)` is `void 0`, `await settle(x)` is `void 0` (an async one
 * gives a promise, so only its await, or a call whose value is unused, folds). A function that
 * returns a new empty array or object (`(name, tools = all) => []`) is one too: each call makes a
 * fresh one, as the literal in its place does. The arguments still run where they have effects.
 */
import type { BlockStatement, CallExpression, Expression } from "acorn";
import { isFunction, type Node } from "../../ast/pattern.js";
import { effectsOf, isConstant, isPure, undefinedAt, withEffects } from "./pure.js";
import type { Rewrite } from "../../ast/traverse.js";
import { boundFunction, defineFold, loopHeadsOf, reads, variablesOf } from "./tree.js";
import { fromEstree } from "../../ast/estree-bridge.js";

/** A value each evaluation makes anew, alike every time: `[]` or `{}`. */
const isFreshEmpty = (n: Node): boolean =>
  (n.type === "ArrayExpression" && n.elements.length === 0) || (n.type === "ObjectExpression" && n.properties.length === 0);

/** A parameter whose binding runs nothing: a name, or a name whose default has no effect. */
const isInertParameter = (p: Node): boolean =>
  p.type === "Identifier" || (p.type === "AssignmentPattern" && p.left.type === "Identifier" && isPure(p.right));

/** What the function returns if all it does is return a constant (`return;` returns undefined); null otherwise. */
function constantResult(fn: Node | null | undefined): Node | null {
  if (!fn || !isFunction(fn) || fn.generator) return null;
  // Patterns and defaults with effects run code (and may throw) on the call.
  if (!fn.params.every(isInertParameter)) return null;
  const constant = (value: Node) => isConstant(value) || isFreshEmpty(value);
  if (fn.expression) return constant(fn.body) ? fn.body : null;
  const body: Node[] = (fn.body as BlockStatement).body;
  if (body.length === 0) return undefinedAt(fn);
  if (body.length !== 1 || body[0]!.type !== "ReturnStatement") return null;
  const value = body[0].argument;
  return !value ? undefinedAt(fn) : constant(value) ? value : null;
}

export const constantCalls = defineFold({ scope: true, rewrite: (root, changed) => foldConstantCalls(root, changed) });

function foldConstantCalls(root: Node, changed: () => void): Rewrite | null {
  const heads = loopHeadsOf(root);
  // Callee identifier → the constant and whether the function is async.
  const callees = new Map<Node, { value: Node; async: boolean }>();
  for (const v of variablesOf(root)) {
    const fn = boundFunction(v, heads);
    const value = constantResult(fn);
    if (!value) continue;
    for (const r of reads(v)) callees.set(fromEstree(r.identifier), { value, async: !!fn!.async });
  }
  if (callees.size === 0) return null;
  const folded = (call: Node, valueUsed: boolean): Node | null => {
    const callee = call?.type === "CallExpression" && !call.optional ? callees.get(call.callee) : undefined;
    if (!callee || (call as CallExpression).arguments.some((a: Node) => a.type === "SpreadElement")) return null;
    if (callee.async && valueUsed) return null;
    const value = { ...structuredClone(callee.value), start: call.start, end: call.end };
    return withEffects(
      (call as CallExpression).arguments.flatMap((a: Node) => effectsOf(a)),
      value,
    );
  };
  const leave = (n: Node): Node => {
    let r: Node | null = null;
    if (n.type === "AwaitExpression") r = folded(n.argument, false);
    else if (n.type === "ExpressionStatement") {
      const expression = folded(n.expression, false);
      if (expression) r = { ...n, expression: expression as Expression };
    } else if (n.type === "CallExpression") r = folded(n, true);
    if (!r) return n;
    changed();
    return r;
  };
  return { leave };
}
