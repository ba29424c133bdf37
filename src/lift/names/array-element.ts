/**
 * `let [a, b, ...c] = name.split("__")`: the places of an array pattern say what the parts are. The rest
 * that is joined back into a value is that value's parts (`toolNameParts`, once `toolName` has its name);
 * the first piece of a split, with more after it, is the prefix. Other places are left to the rules that
 * read how each is used.
 */
import type { VariableDeclarator } from "acorn";
import { memberName, type Node } from "../../ast/pattern.js";
import type { Binding, NameContext } from "./context.js";
import { methodCalls } from "./producing-call.js";
import type { Rule } from "./rule.js";

export const arrayElement: Rule = (b, ctx) => {
  const holder = ctx.parent(b.id);
  const rest = holder?.type === "RestElement" ? holder : null;
  const pattern = rest ? ctx.parent(rest) : holder;
  if (pattern?.type !== "ArrayPattern" || ctx.parent(pattern)?.type !== "VariableDeclarator") return null;
  if (rest) {
    const joined = joinedInto(b, ctx);
    return joined ? `${joined}Parts` : ctx.lastResort ? "rest" : null;
  }
  const first = pattern.elements[0] === b.id && pattern.elements.length > 1;
  return first && isSplit((ctx.parent(pattern) as VariableDeclarator).init, ctx) ? "prefix" : null;
};

/** The name of the variable whose value is made by joining `b` (`toolName = … b.join("__") …`). */
function joinedInto(b: Binding, ctx: NameContext): string | null {
  for (const call of methodCalls(b, /^join$/, ctx))
    for (let n: Node | undefined = call; n && !/Statement|Function/.test(n.type); n = ctx.parent(n))
      if (n.type === "VariableDeclarator") return ctx.nameOf(n.id);
  return null;
}

/** A `.split(…)` call, or a variable made by one. */
function isSplit(n: Node | null | undefined, ctx: NameContext): boolean {
  const init = n?.type === "Identifier" ? ctx.bindingOf(n)?.init : n;
  return init?.type === "CallExpression" && init.callee.type === "MemberExpression" && memberName(init.callee) === "split";
}
