/**
 * A list that starts as another and may be narrowed to some of it: `let x = tools; if (required.length > 0)
 * x = tools.filter(…)`. What the code goes on with are its candidates, whichever way the test went.
 */
import { memberName, someNode, type Node } from "../../ast/pattern.js";
import type { Binding, NameContext } from "./context.js";
import type { Rule } from "./rule.js";

export const narrowedList: Rule = (b, ctx) => {
  if (b.kind !== "variable" || b.iterates || b.init?.type !== "Identifier") return null;
  const source = ctx.bindingOf(b.init);
  if (!source) return null;
  let narrowed = false;
  for (const use of b.uses) {
    const p = ctx.parent(use);
    if (p?.type !== "AssignmentExpression" || p.left !== use) continue;
    if (p.operator !== "=" || !filters(p.right, source, ctx)) return null;
    narrowed = true;
  }
  return narrowed ? "candidates" : null;
};

/** `….filter(…)` over something made from `source`. */
function filters(e: Node, source: Binding, ctx: NameContext): boolean {
  if (e.type !== "CallExpression" || e.callee.type !== "MemberExpression" || memberName(e.callee) !== "filter") return false;
  return someNode(e.callee.object, (n) => n.type === "Identifier" && ctx.bindingOf(n) === source);
}
