/**
 * An element named after its collection: `for (const tool of tools)`, `tools.map((tool) => …)`,
 * the callback of a helper that walks its first argument (`eachOf(tools, (tool) => …)`), and the
 * two sides of a sort comparator (`toolA`, `toolB`).
 */
import type { ArrayPattern, MemberExpression } from "acorn";
import { memberName, type Node } from "../../ast/pattern.js";
import type { Rule } from "./rule.js";
import type { Binding, NameContext } from "./context.js";
import { baseOf, elementOf } from "./producing-call.js";
import { cap } from "./words.js";

const ITERATING = new Set([
  "map",
  "filter",
  "some",
  "every",
  "find",
  "findIndex",
  "findLast",
  "findLastIndex",
  "flatMap",
  "forEach",
  "reduce",
  "sort",
  "toSorted",
]);

export const iterationElement: Rule = (b, ctx) => {
  if (b.iterates) return b.id.type === "Identifier" ? elementOf(baseOf(b.init, ctx)) : null;
  if (b.kind === "parameter" && b.fn?.params[b.index]?.type === "ArrayPattern") return pairPart(b, ctx);
  if (b.kind !== "parameter" || !b.fn || b.fn.params[b.index] !== b.id) return null;
  const call = ctx.parent(b.fn);
  if (call?.type !== "CallExpression" || !(call.arguments as Node[]).includes(b.fn)) return null;
  const method = call.callee.type === "MemberExpression" ? memberName(call.callee) : undefined;
  if (method !== undefined && ITERATING.has(method)) return methodElement(method, (call.callee as MemberExpression).object, b.index, ctx);
  // A helper's callback over the collection passed first.
  if (call.callee.type === "Identifier" && call.arguments[0] !== b.fn && b.index === 0) return elementOf(baseOf(call.arguments[0], ctx));
  return null;
};

/**
 * A part of a pair taken apart by a callback over pairs the code made: in `pairs.flatMap(([item, found]) => …)`
 * after `pairs = items.map((item) => [item, …])`, item is named as the map named it.
 */
function pairPart(b: Binding, ctx: NameContext): string | null {
  const pattern = b.fn!.params[b.index] as ArrayPattern;
  const at = pattern.elements.indexOf(b.id);
  const call = ctx.parent(b.fn!);
  if (b.index !== 0 || at < 0 || call?.type !== "CallExpression" || call.arguments[0] !== b.fn) return null;
  if (call.callee.type !== "MemberExpression" || !ITERATING.has(memberName(call.callee) ?? "")) return null;
  const made = ctx.bindingOf(call.callee.object)?.init;
  if (made?.type !== "CallExpression" || made.callee.type !== "MemberExpression" || memberName(made.callee) !== "map") return null;
  const maker = made.arguments[0];
  const pair = maker?.type === "ArrowFunctionExpression" && maker.body.type === "ArrayExpression" ? maker.body : null;
  const part = pair?.elements[at];
  return part && part.type !== "SpreadElement" ? ctx.nameOf(part) : null;
}

function methodElement(method: string, collection: Node, index: number, ctx: NameContext): string | null {
  const element = elementOf(baseOf(collection, ctx));
  if (method === "sort" || method === "toSorted") return element && index < 2 ? `${element}${index === 0 ? "A" : "B"}` : null;
  if (method === "reduce") return index === 1 ? element : index === 0 ? "total" : null;
  if (index === 0) return element;
  return index === 1 && element ? `${element}Index` : null;
}

/** The name of a callback parameter standing for an element: `part` over `parts`, reused by function naming. */
export const elementWord = (collection: string | null): string | null =>
  collection ? (elementOf(collection) ?? `${collection}${cap("item")}`) : null;
