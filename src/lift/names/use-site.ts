/**
 * Last resort before a number: a name for what the code does with the value — calls it (callback),
 * tests with it (pattern), looks things up in it (map, set), pushes to it (list), reads its text
 * methods (text), adds to it (total), or reads properties from it (entry).
 */
import { memberName } from "../../ast/pattern.js";
import type { Rule } from "./rule.js";

const TEXT = /^(toLowerCase|toUpperCase|trim|split|startsWith|endsWith|replace|replaceAll|charCodeAt|padStart|padEnd|matchAll)$/;
const LIST = /^(map|filter|some|every|find|findIndex|flatMap|forEach|reduce|push|join|slice|length|concat|findLastIndex|sort)$/;

export const useSite: Rule = (b, ctx) => {
  const seen = new Set<string>();
  for (const use of b.uses) {
    const p = ctx.parent(use);
    if (!p) continue;
    if ((p.type === "CallExpression" || p.type === "NewExpression") && p.callee === use && b.kind !== "function") seen.add("callback");
    if (p.type === "MemberExpression" && p.object === use && !p.computed) {
      const prop = memberName(p) ?? "";
      if (prop === "test" || prop === "exec") seen.add("pattern");
      else if (prop === "has" || prop === "add") seen.add("set");
      else if (prop === "get" || prop === "set") seen.add("map");
      else if (TEXT.test(prop)) seen.add("text");
      else if (LIST.test(prop)) seen.add("list");
      else if (prop === "then") seen.add("promise");
      else seen.add("entry");
    }
    if (p.type === "MemberExpression" && p.object === use && p.computed) seen.add("list");
    if (p.type === "AssignmentExpression" && p.left === use && p.operator === "+=") seen.add("total");
    if (p.type === "SpreadElement") seen.add("list");
    if (p.type === "TemplateLiteral") seen.add("text");
    if (p.type === "AwaitExpression") seen.add("pending");
  }
  for (const word of ["callback", "pattern", "map", "set", "list", "text", "total", "promise", "pending", "entry"])
    if (seen.has(word)) return word;
  if (b.init?.type === "Literal" && typeof b.init.value === "number") return "limit";
  return fallback(b.kind);
};

function fallback(kind: string): string {
  if (kind === "parameter") return "input";
  if (kind === "function") return "run";
  if (kind === "class") return "Helper";
  if (kind === "catch") return "error";
  return "result";
}
