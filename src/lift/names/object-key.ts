/** `{ server: x }`, `o.server = x` → server: the key a value flows into, at its first such use. */
import type { Rule } from "./rule.js";
import { keyWord } from "./key-word.js";

export const objectKey: Rule = (b, ctx) => {
  for (const use of b.uses) {
    const p = ctx.parent(use);
    if (p?.type === "Property" && p.value === use && !p.computed && ctx.parent(p)?.type === "ObjectExpression") {
      const k = keyWord(p.key);
      if (k) return k;
    }
    if (p?.type === "AssignmentExpression" && p.right === use && p.left.type === "MemberExpression" && !p.left.computed) {
      const k = keyWord(p.left.property);
      if (k) return k;
    }
  }
  return null;
};
