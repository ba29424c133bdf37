/**
 * Names across calls: a value passed to a function takes the name of the parameter it lands in
 * (`truncate(q, maxLength)`) unless that name is held nearby, and a parameter takes the name of what its
 * callers pass.
 */
import type { FunctionNode, Node } from "../../ast/pattern.js";
import type { NameContext } from "./context.js";
import { isFunction } from "./context.js";
import type { Rule } from "./rule.js";
import { baseOf } from "./producing-call.js";

export const calleeParameter: Rule = (b, ctx) => {
  for (const use of b.uses) {
    const call = ctx.parent(use);
    if (call?.type !== "CallExpression" && call?.type !== "NewExpression") continue;
    const i = call.arguments.indexOf(use);
    // Only a module-level helper's parameter names are trusted: a local's may come from this very rule.
    const fn = i < 0 || !ctx.bindingOf(call.callee)?.topLevel ? null : functionOf(call.callee, ctx);
    const param = fn?.params[i];
    const id = param?.type === "AssignmentPattern" ? param.left : param;
    if (id?.type !== "Identifier") continue;
    const target = ctx.bindingOf(id);
    const name = target && target !== b ? ctx.chosen.get(target) : null;
    // A name already held nearby would come back as `otherQuery`: what the value is made from says more,
    // and the parameter's name waits until the other rules have had their turn.
    if (name && (ctx.lastResort || !ctx.clashes(name, b))) return name;
  }
  return null;
};

export const callerArgument: Rule = (b, ctx) => {
  if (b.kind !== "parameter" || !b.fn || b.index < 0) return null;
  const owner = ctx.byFunction.get(b.fn);
  // Every caller must pass a value of the same name: one caller's word is not the parameter's.
  let agreed: string | null = null;
  for (const use of owner?.uses ?? []) {
    const call = ctx.parent(use);
    if ((call?.type !== "CallExpression" && call?.type !== "NewExpression") || call.callee !== use) continue;
    const arg = call.arguments[b.index];
    if (!arg || arg.type === "SpreadElement") return null;
    const name = baseOf(arg, ctx);
    if (!name || name === "length" || (agreed && agreed !== name)) return null;
    agreed = name;
  }
  return agreed;
};

/** The function a callee names, where the program defines it. */
export function functionOf(callee: Node, ctx: NameContext): FunctionNode | null {
  const b = ctx.bindingOf(callee);
  return b && (b.kind === "function" || (b.kind === "variable" && !b.iterates)) && isFunction(b.init) ? b.init : null;
}
