/**
 * A list that starts empty and is filled by the code around it: named by what goes in (`chunks.push(piece)`
 * → pieces, `codes[i] = text.charCodeAt(i)` → charCodes); filled with records that have no name, by what the
 * function that returns it gives (`collectToolReferences` → toolReferences).
 */
import type { Expression } from "acorn";
import { isFunction, memberName, returnedValues, type Node } from "../../ast/pattern.js";
import type { Binding, NameContext } from "./context.js";
import { baseOf, verbResult } from "./producing-call.js";
import type { Rule } from "./rule.js";
import { plural, singular } from "./words.js";

export const filledList: Rule = (b, ctx) => {
  if (b.kind !== "variable" || b.iterates || !startsEmpty(b.init)) return null;
  const added = addedValues(b, ctx);
  if (!added?.length) return null;
  const names = new Set(added.map((v) => (v.type === "ObjectExpression" ? null : baseOf(v, ctx))));
  const [name] = names;
  if (names.size === 1 && name) return plural(name);
  return added.every((v) => v.type === "ObjectExpression") ? returnedBy(b, ctx) : null;
};

/** `[]`, or a typed array made by its length. */
function startsEmpty(e: Node | null): boolean {
  if (e?.type === "ArrayExpression") return e.elements.length === 0;
  return (
    e?.type === "NewExpression" && e.callee.type === "Identifier" && /^(Uint|Int|Float)(8|16|32|64)(Clamped)?Array$/.test(e.callee.name)
  );
}

/** What each `b.push(…)` and `b[i] = …` adds; null when the list is used any other way that changes it. */
function addedValues(b: Binding, ctx: NameContext): Expression[] | null {
  const out: Expression[] = [];
  for (const use of b.uses) {
    const p = ctx.parent(use);
    if (p?.type === "MemberExpression" && p.object === use) {
      const call = ctx.parent(p);
      if (!p.computed && memberName(p) === "push" && call?.type === "CallExpression" && call.callee === p) {
        for (const a of call.arguments) if (a.type !== "SpreadElement") out.push(a);
        continue;
      }
      const set = ctx.parent(p);
      if (p.computed && set?.type === "AssignmentExpression" && set.left === p) {
        if (set.operator !== "=") return null;
        out.push(set.right);
      }
      continue;
    }
    if (p?.type === "AssignmentExpression" && p.left === use) return null;
  }
  return out;
}

/** The function's result, as its name says, when `b` is what it returns (`return list`). */
function returnedBy(b: Binding, ctx: NameContext): string | null {
  let fn = ctx.parent(b.id);
  while (fn && !isFunction(fn)) fn = ctx.parent(fn);
  if (!fn || !returnedValues(fn).some((v) => v?.type === "Identifier" && ctx.bindingOf(v) === b)) return null;
  const own = ctx.byFunction.get(fn);
  const name = own ? ctx.chosen.get(own) : undefined;
  const made = name ? verbResult(name) : null;
  return made && !made.endsWith("Result") && singular(made) ? made : null;
}
