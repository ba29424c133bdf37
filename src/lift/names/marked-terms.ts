/**
 * Search syntax marks a term with a prefix: `+word` must occur, `-word` must not. Code that sorts a query's
 * words by that mark into two lists,
 *   for (w of words) if (w.startsWith("+") …) a.push(w.slice(1)); else b.push(w);
 * names them for what the mark means: `requiredWords` and `optionalWords`.
 */
import type { IfStatement } from "acorn";
import { memberName, type Node } from "../../ast/pattern.js";
import type { Binding, NameContext } from "./context.js";
import { methodCalls } from "./producing-call.js";
import type { Rule } from "./rule.js";
import { join, lastWord } from "./words.js";

/** A mark, and what the terms with it and the terms without it are. */
const MARKS = new Map<string, [string, string]>([
  ["+", ["required", "optional"]],
  ["-", ["excluded", "included"]],
]);

export const markedTerms: Rule = (b, ctx) => {
  if (b.kind !== "variable" || b.init?.type !== "ArrayExpression" || b.init.elements.length > 0) return null;
  const sorted = sortedBy(b, ctx);
  if (!sorted) return null;
  const collection = ctx.nameOf(sorted.collection);
  const words = collection && (lastWord(collection) ?? collection);
  if (!words) return ctx.lastResort ? `${sorted.meaning}Terms` : null;
  return join(sorted.meaning, words);
};

/** The mark that sorts elements into `b`, what it means for `b`, and the collection sorted; null if `b` is not so filled. */
function sortedBy(b: Binding, ctx: NameContext): { meaning: string; collection: Node } | null {
  let found: { meaning: string; collection: Node } | null = null;
  for (const call of methodCalls(b, /^push$/, ctx)) {
    if (call.arguments.length !== 1) return null;
    const statement = ctx.parent(call);
    const branch = statement?.type === "ExpressionStatement" ? statement : null;
    const test = branch && ctx.parent(branch);
    if (test?.type !== "IfStatement" || !test.alternate) return null;
    const mark = markTested(test, ctx);
    if (!mark) return null;
    const inMarked = test.consequent === branch;
    if (!inMarked && test.alternate !== branch) return null;
    if (!pushesTheOther(inMarked ? test.alternate : test.consequent, b, ctx)) return null;
    found = { meaning: mark.meanings[inMarked ? 0 : 1], collection: mark.collection };
  }
  return found;
}

/** The mark an if's test checks with `element.startsWith(mark)` (alone or first of `&&`), for a for-of element. */
function markTested(s: IfStatement, ctx: NameContext): { meanings: [string, string]; collection: Node } | null {
  let test: Node = s.test;
  while (test.type === "LogicalExpression" && test.operator === "&&") test = test.left;
  if (test.type !== "CallExpression" || test.callee.type !== "MemberExpression" || memberName(test.callee) !== "startsWith") return null;
  const arg = test.arguments[0];
  const meanings = arg?.type === "Literal" && typeof arg.value === "string" ? MARKS.get(arg.value) : undefined;
  if (!meanings) return null;
  const element = ctx.bindingOf(test.callee.object);
  if (!element?.iterates || !element.init) return null;
  return { meanings, collection: element.init };
}

/** Whether the other branch pushes into another list: the elements are sorted in two, not filtered into one. */
function pushesTheOther(branch: Node, b: Binding, ctx: NameContext): boolean {
  if (branch.type !== "ExpressionStatement" || branch.expression.type !== "CallExpression") return false;
  const callee = branch.expression.callee;
  if (callee.type !== "MemberExpression" || memberName(callee) !== "push") return false;
  const other = ctx.bindingOf(callee.object);
  return !!other && other !== b;
}
