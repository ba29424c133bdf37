/**
 * The counter of a `for` loop, named as people name one: `i`, then `j` and `k` in loops nested
 * inside it; a counter that steps by a constant other than one walks chunks, and is their `offset`.
 */
import type { ForStatement, VariableDeclaration } from "acorn";
import type { Node } from "../../ast/pattern.js";
import type { Binding, NameContext } from "./context.js";
import type { Rule } from "./rule.js";

export const COUNTERS = ["i", "j", "k"];

export const loopCounter: Rule = (b, ctx) => {
  const loop = loopOf(b, ctx);
  const step = loop && stepOf(loop.update, b);
  if (step === null || step === undefined) return null;
  if (step !== 1) return "offset";
  let depth = 0;
  for (let n = ctx.parent(loop as Node); n && !/Function/.test(n.type); n = ctx.parent(n))
    if (n.type === "ForStatement" && countsByOne(n, ctx)) depth++;
  return COUNTERS[depth] ?? null;
};

/** The `for` whose head declares `b`, or null. */
function loopOf(b: Binding, ctx: NameContext): ForStatement | null {
  if (b.kind !== "variable" || b.iterates) return null;
  const declaration = ctx.parent(ctx.parent(b.id) as Node) as VariableDeclaration | undefined;
  const loop = declaration && ctx.parent(declaration);
  return loop?.type === "ForStatement" && loop.init === (declaration as Node) ? loop : null;
}

/** How far `update` moves the counter each turn: 1 for `i++`, `--i`, `i += 1`; the constant of `i += 8192`; null otherwise. */
function stepOf(update: Node | null | undefined, b: Binding): number | null {
  const isCounter = (n: Node) => n.type === "Identifier" && b.uses.includes(n);
  if (update?.type === "UpdateExpression") return isCounter(update.argument) ? 1 : null;
  if (update?.type !== "AssignmentExpression" || !isCounter(update.left)) return null;
  if ((update.operator !== "+=" && update.operator !== "-=") || update.right.type !== "Literal") return null;
  const n = update.right.value;
  return typeof n === "number" && n > 0 && Number.isInteger(n) ? n : null;
}

/** Whether a loop counts by one with a counter it declares (it takes a letter, so the next loop takes the next one). */
function countsByOne(loop: ForStatement, ctx: NameContext): boolean {
  const declared = loop.init?.type === "VariableDeclaration" ? loop.init.declarations : [];
  return declared.some((d) => {
    const b = ctx.bindingOf(d.id);
    return !!b && stepOf(loop.update, b) === 1;
  });
}
