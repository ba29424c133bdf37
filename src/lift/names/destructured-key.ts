/** `const { tools: t } = …` → tools: the key a binding is destructured from. */
import type { Rule } from "./rule.js";
import { keyWord } from "./key-word.js";

export const destructuredKey: Rule = (b, ctx) => {
  const p = ctx.parent(b.id);
  const prop = p?.type === "AssignmentPattern" && p.left === b.id ? ctx.parent(p) : p;
  if (prop?.type !== "Property" || prop.computed || ctx.parent(prop)?.type !== "ObjectPattern") return null;
  return keyWord(prop.key);
};
