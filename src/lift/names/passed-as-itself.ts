/**
 * A parameter that every call fills with a variable of one name may take that name, though a variable
 * of that name is in scope: `getHandler = (allTools) => …` called only as `getHandler(allTools)` reads as
 * hand-written code, where `getHandlerAllTools` or `secondAllTools` make the reader look for a difference
 * that is not there. Shadowing is safe only where nothing inside the function refers to an outer variable of
 * that name, so the inner name can capture no reference.
 */
import type { FunctionNode } from "../../ast/pattern.js";
import type { Binding, NameContext } from "./context.js";

/** Whether `b` may take `name`, held by `holders` (bindings whose scopes meet b's), by the rule above. */
export function passedAsItself(b: Binding, name: string, holders: Binding[], ctx: NameContext): boolean {
  if (b.kind !== "parameter" || !b.fn || b.index < 0) return false;
  const passed = argumentsEverywhere(b, ctx);
  if (!passed?.every((p) => ctx.chosen.get(p) === name)) return false;
  return holders.every((h) => !inside(h.id, b.fn!, ctx) && !h.uses.some((u) => inside(u, b.fn!, ctx)));
}

/** The variables the calls of b's function pass at b's place; null unless every use of it is such a call. */
function argumentsEverywhere(b: Binding, ctx: NameContext): Binding[] | null {
  const owner = ctx.byFunction.get(b.fn!);
  if (!owner?.uses.length) return null;
  const passed: Binding[] = [];
  for (const use of owner.uses) {
    const call = ctx.parent(use);
    if (call?.type !== "CallExpression" || call.callee !== use) return null;
    const arg = ctx.bindingOf(call.arguments[b.index]);
    if (!arg) return null;
    passed.push(arg);
  }
  return passed;
}

function inside(n: Binding["id"], fn: FunctionNode, ctx: NameContext): boolean {
  for (let p = ctx.parent(n); p; p = ctx.parent(p)) if (p === fn) return true;
  return false;
}
