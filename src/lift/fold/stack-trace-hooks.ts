/**
 * `Error.captureStackTrace?.(error, fn)` before a throw: it only gives the error a `stack` that starts
 * above `fn`, and no value the contract returns depends on a stack. It also names the engine's stack
 * hook, which the emitted module may not (safety.ts), so where its value is not used it goes, and the
 * effects of its arguments stay. Verification compares the folded module with the original, which
 * keeps the call.
 */
import type { CallExpression, Expression } from "acorn";
import type { Node } from "../../ast/pattern.js";
import { effectsOf, withEffects } from "./pure.js";
import { rewriteUp, variablesOf, type Fold } from "./tree.js";

const callOf = (n: Node): Node => (n.type === "ChainExpression" ? n.expression : n);

/** `Error.captureStackTrace(…)`, called plainly or optionally (`?.`). */
function isHook(n: Node): boolean {
  const call = callOf(n);
  if (call.type !== "CallExpression" || call.callee.type !== "MemberExpression") return false;
  const { object, property, computed } = call.callee;
  return (
    !computed &&
    object.type === "Identifier" &&
    object.name === "Error" &&
    property.type === "Identifier" &&
    property.name === "captureStackTrace"
  );
}

/** What must still run in place of a hook: its arguments' effects. */
const argumentEffects = (n: Node): Node[] => (callOf(n) as CallExpression).arguments.flatMap((a) => effectsOf(a as Node));

export const stackTraceHooks: Fold = (root) => {
  let count = 0;
  // Asked at the first hook, before anything changed: a module that declares its own `Error` calls something else.
  let global: boolean | undefined;
  const isGlobalHook = (n: Node) => isHook(n) && (global ??= !variablesOf(root).some((v) => v.name === "Error"));
  rewriteUp(root, (n) => {
    if (n.type === "ExpressionStatement" && isGlobalHook(n.expression)) {
      count++;
      const effects = argumentEffects(n.expression);
      return effects.length ? { ...n, expression: withEffects(effects.slice(0, -1), effects.at(-1)!) } : null;
    }
    if (n.type !== "SequenceExpression") return n;
    const last = n.expressions.length - 1;
    if (!n.expressions.some((e: Node, i: number) => i < last && isGlobalHook(e))) return n;
    const kept = n.expressions.flatMap((e: Node, i: number) => {
      if (i === last || !isHook(e)) return [e];
      count++;
      return argumentEffects(e);
    });
    return kept.length === 1 ? kept[0]! : { ...n, expressions: kept as Expression[] };
  });
  return count;
};
