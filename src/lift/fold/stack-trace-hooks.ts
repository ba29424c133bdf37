/**
 * `Error.captureStackTrace?.(error, fn)` just before `throw error`: it only gives the error a `stack` that
 * starts above `fn`, and no value the contract returns depends on a stack. It also names the engine's stack
 * hook, which the emitted module may not (safety.ts), so in that place, and only there, it goes; the effects
 * of its arguments stay. A hook whose stack the code goes on to read is left for the safety check to refuse.
 * Verification compares the folded module with the original, which keeps the call.
 */
import type { CallExpression, ExpressionStatement } from "acorn";
import { fieldsOf, type Node } from "../../ast/pattern.js";
import { effectsOf, withEffects } from "./pure.js";
import { defineFold, variablesOf } from "./tree.js";

const callOf = (n: Node): Node => (n.type === "ChainExpression" ? n.expression : n);

/** `Error.captureStackTrace(x, …)`, called plainly or optionally (`?.`), with x a name: x. */
function hookTarget(n: Node): string | null {
  const call = callOf(n);
  if (call.type !== "CallExpression" || call.callee.type !== "MemberExpression") return null;
  const { object, property, computed } = call.callee;
  const first = call.arguments[0];
  const isHook =
    !computed &&
    object.type === "Identifier" &&
    object.name === "Error" &&
    property.type === "Identifier" &&
    property.name === "captureStackTrace";
  return isHook && first?.type === "Identifier" ? first.name : null;
}

/** What must still run in place of a hook: its arguments' effects. */
const argumentEffects = (n: Node): Node[] => (callOf(n) as CallExpression).arguments.flatMap((a) => effectsOf(a as Node));

const throws = (s: Node | undefined, name: string): boolean =>
  s?.type === "ThrowStatement" && s.argument.type === "Identifier" && s.argument.name === name;

export const stackTraceHooks = defineFold({
  scope: true,
  // A module that declares its own `Error` calls something else.
  rewrite: (root, changed) => (variablesOf(root).some((v) => v.name === "Error") ? null : { leave: (n) => dropHooks(n, changed) }),
});

/** `n` without the hooks it holds just before a throw. */
function dropHooks(n: Node, changed: () => void): Node {
  // `throw (Error.captureStackTrace?.(e, f), e)`
  if (n.type === "ThrowStatement" && n.argument.type === "SequenceExpression") {
    const parts = n.argument.expressions as Node[];
    const last = parts.at(-1)!;
    const target = parts.length === 2 ? hookTarget(parts[0]!) : null;
    if (target === null || last.type !== "Identifier" || last.name !== target) return n;
    changed();
    return { ...n, argument: withEffects(argumentEffects(parts[0]!), last) };
  }
  // `Error.captureStackTrace(e, f); throw e;`
  const key = n.type === "BlockStatement" ? "body" : n.type === "SwitchCase" ? "consequent" : null;
  if (!key) return n;
  const list = fieldsOf(n)[key] as Node[];
  const hookAt = (s: Node, i: number) => {
    const target = s.type === "ExpressionStatement" ? hookTarget(s.expression) : null;
    return target !== null && throws(list[i + 1], target);
  };
  if (!list.some(hookAt)) return n;
  fieldsOf(n)[key] = list.flatMap((s, i): Node[] => {
    if (!hookAt(s, i)) return [s];
    changed();
    const effects = argumentEffects((s as ExpressionStatement).expression);
    if (!effects.length) return [];
    return [{ ...s, expression: withEffects(effects.slice(0, -1), effects.at(-1)!) } as ExpressionStatement];
  });
  return n;
}
