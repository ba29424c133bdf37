/**
 * A parameter that caps the length of something: `text.length <= limit`, `text.slice(0, limit)` —
 * its limit, whatever its callers pass (a parameter is the helper's, not one caller's constant).
 */
import type { MemberExpression } from "acorn";
import { memberName, type Node } from "../../ast/pattern.js";
import type { NameContext } from "./context.js";
import type { Rule } from "./rule.js";

export const lengthBound: Rule = (b, ctx) => (b.kind === "parameter" && b.uses.some((u) => cutBy(u, ctx)) ? "limit" : null);

const isLength = (n: Node): boolean => n.type === "MemberExpression" && memberName(n) === "length";

/**
 * What `u` caps: `x` where u is the end of `x.slice(0, u)`, or what `x.length` may reach (`x.length <= u`,
 * `u >= x.length`); null otherwise. A strict comparison says nothing: `x.length > u` is also how an index
 * is checked.
 */
export function cutBy(u: Node, ctx: NameContext): Node | null {
  const p = ctx.parent(u);
  if (p?.type === "CallExpression" && p.arguments[1] === u && p.callee.type === "MemberExpression") {
    const first = p.arguments[0];
    const slice = /^(slice|substring)$/.test(memberName(p.callee) ?? "") && first?.type === "Literal" && first.value === 0;
    return slice ? p.callee.object : null;
  }
  if (p?.type !== "BinaryExpression") return null;
  if (p.right === u && isLength(p.left) && p.operator === "<=") return (p.left as MemberExpression).object;
  if (p.left === u && isLength(p.right) && p.operator === ">=") return (p.right as MemberExpression).object;
  return null;
}
