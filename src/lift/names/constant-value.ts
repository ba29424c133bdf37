/**
 * A module-level constant named by what it holds: a regular expression by its words (`/^select:/` →
 * selectPattern), a string by its words, a Set of strings by its first member, a number by where it is
 * used (`.slice(0, N)` → sliceLimit, compared with a length → maxLength).
 */
import type { Binding, NameContext } from "./context.js";
import type { Rule } from "./rule.js";
import { baseOf } from "./producing-call.js";
import { camelWords, join } from "./words.js";
import { memberName } from "../../ast/pattern.js";

export const constantValue: Rule = (b, ctx) => {
  if (b.kind !== "variable" || b.iterates || !b.init) return null;
  const e = b.init;
  if (e.type === "Literal" && e.regex) return join(camelWords(e.regex.pattern, 2) ?? "", "pattern").replace(/^Pattern$/, "pattern");
  if (e.type === "Literal" && typeof e.value === "string") return join(camelWords(e.value, 3) ?? "empty", "text");
  if (e.type === "Literal" && typeof e.value === "number") return numberUse(b, ctx);
  if (e.type === "NewExpression" && e.callee.type === "Identifier" && /Set$/.test(e.callee.name)) {
    const first = e.arguments[0]?.type === "ArrayExpression" ? e.arguments[0].elements[0] : null;
    if (first?.type === "Literal" && typeof first.value === "string") return join(camelWords(first.value, 2) ?? "word", "set");
  }
  if (e.type === "TemplateLiteral") return join(camelWords(e.quasis.map((q) => q.value.cooked).join(" "), 3) ?? "", "text");
  return null;
};

/** A number by its first telling use. */
function numberUse(b: Binding, ctx: NameContext): string | null {
  for (const u of b.uses) {
    const p = ctx.parent(u);
    if (p?.type === "CallExpression" && p.arguments.includes(u) && p.callee.type === "MemberExpression" && !p.callee.computed) {
      const m = memberName(p.callee);
      if (m === "slice" || m === "substring") return join("max", baseOf(p.callee.object, ctx) ?? "length");
    }
    if (p?.type === "BinaryExpression" && /^[<>]=?$/.test(p.operator)) {
      const other = p.left === u ? p.right : p.left;
      const of = other.type === "MemberExpression" && memberName(other) === "length" ? baseOf(other.object, ctx) : baseOf(other, ctx);
      if (of) return join("max", of.replace(/^(max|lower|trimmed)(?=[A-Z])/, ""));
    }
  }
  return null;
}
