/**
 * A module-level constant named by what it holds: a regular expression by its words (`/^select:/` →
 * selectPattern), a string by its words, a Set of strings by its first member, a number by where it is
 * used (`.slice(0, N)` → sliceLimit, compared with a length → maxLength, passed to a helper that cuts
 * another of its arguments by it: `truncate(query, N)` → maxQuery).
 */
import type { Binding, NameContext } from "./context.js";
import type { Rule } from "./rule.js";
import { baseOf } from "./producing-call.js";
import { camelName, camelWords, join, textWords } from "./words.js";
import { memberName, type Node, type NodeOf } from "../../ast/pattern.js";
import { functionOf } from "./callee-parameter.js";
import { cutBy } from "./length-bound.js";

export const constantValue: Rule = (b, ctx) => {
  if (b.kind !== "variable" || b.iterates || !b.init) return null;
  const e = b.init;
  if (e.type === "Literal" && e.regex) return join(camelWords(e.regex.pattern, 2) ?? "", "pattern").replace(/^Pattern$/, "pattern");
  if (e.type === "Literal" && typeof e.value === "string") return stringName(e.value, b, ctx);
  if (e.type === "Literal" && typeof e.value === "number") return numberUse(b, ctx);
  if (e.type === "NewExpression" && e.callee.type === "Identifier" && /Set$/.test(e.callee.name)) {
    const first = e.arguments[0]?.type === "ArrayExpression" ? e.arguments[0].elements[0] : null;
    if (first?.type === "Literal" && typeof first.value === "string") return join(camelWords(first.value, 2) ?? "word", "set");
  }
  if (e.type === "TemplateLiteral") {
    const text = constantText(e, ctx);
    if (text !== null) return stringName(text, b, ctx);
    return join(camelWords(e.quasis.map((q) => q.value.cooked).join(" "), 3) ?? "", "text");
  }
  return null;
};

/** The text a constant holds: a string literal, or a template of string constants; null for anything else. */
function constantString(b: Binding, ctx: NameContext): string | null {
  if (b.kind !== "variable" || b.iterates || !b.init) return null;
  if (b.init.type === "Literal") return typeof b.init.value === "string" ? b.init.value : null;
  return b.init.type === "TemplateLiteral" ? constantText(b.init, ctx) : null;
}

/**
 * A template's text when each of its parts is a string constant (`mcp__${remoteDevices}__`): named as
 * the literal a later release writes in its place is. Null when a part is anything else.
 */
function constantText(t: NodeOf<"TemplateLiteral">, ctx: NameContext): string | null {
  let text = t.quasis[0]?.value.cooked ?? "";
  for (const [i, part] of t.expressions.entries()) {
    const bound = part.type === "Identifier" ? ctx.bindingOf(part) : undefined;
    const value = bound?.kind === "variable" && !bound.iterates ? bound.init : null;
    if (value?.type !== "Literal" || typeof value.value !== "string") return null;
    text += value.value + (t.quasis[i + 1]?.value.cooked ?? "");
  }
  return text;
}

/**
 * A string by its first three words (`"mcp__remote-devices__"` → mcpRemoteDevicesText); where another
 * constant nearby took that name, by its first and last two (`"mcp__remote-devices__device_bash"` →
 * mcpDeviceBashText), then by all its words.
 */
function stringName(text: string, b: Binding, ctx: NameContext): string {
  const words = textWords(text);
  // The first three words name the constant that has no more; a longer one leaves them to it, in whichever order the two are named.
  const head = words.slice(0, 3).join(" ");
  const yields =
    words.length > 3 && ctx.bindings.some((o) => o !== b && o.topLevel && textWords(constantString(o, ctx) ?? "").join(" ") === head);
  const candidates = [
    ...(yields ? [] : [words.slice(0, 3)]),
    [...words.slice(0, 1), ...words.slice(-2)],
    ...(words.length <= 5 ? [words] : []),
  ];
  const names = candidates.map((w) => join(camelName(w) ?? "empty", "text"));
  return names.find((n) => !ctx.clashes(n, b)) ?? names[0]!;
}

/** A number by its first telling use. */
function numberUse(b: Binding, ctx: NameContext): string | null {
  return ownUse(b, ctx) ?? helperBound(b, ctx);
}

/**
 * The most of what a number cuts (`words.slice(0, N)`, `words.length <= N` → maxWords). Until that has a
 * name, nothing (the rules come back to it), and at the last resort maxLength.
 */
function ownUse(b: Binding, ctx: NameContext): string | null {
  let cuts = false;
  for (const u of b.uses) {
    const p = ctx.parent(u);
    let of: string | null = null;
    if (p?.type === "CallExpression" && p.arguments.includes(u) && p.callee.type === "MemberExpression" && !p.callee.computed) {
      const m = memberName(p.callee);
      if (m !== "slice" && m !== "substring") continue;
      cuts = true;
      of = baseOf(p.callee.object, ctx);
    } else if (p?.type === "BinaryExpression" && /^[<>]=?$/.test(p.operator)) {
      const other = p.left === u ? p.right : p.left;
      cuts = true;
      of = other.type === "MemberExpression" && memberName(other) === "length" ? baseOf(other.object, ctx) : baseOf(other, ctx);
    }
    if (of) return join("max", of.replace(/^(max|lower|trimmed)(?=[A-Z])/, ""));
  }
  return cuts && ctx.lastResort ? "maxLength" : null;
}

/** Words that say what a value is nowhere: a bound named after one is no better than a number. */
const VAGUE = new Set(["input", "list", "value", "entry", "item", "text", "result", "length"]);

/**
 * `truncate(query, N)`, where the helper cuts its first argument by its second (`list.slice(0, limit)`,
 * `list.length <= limit`): N is the most of the query. Of several calls, the first whose argument has a
 * telling name decides.
 */
function helperBound(b: Binding, ctx: NameContext): string | null {
  for (const u of b.uses) {
    const call = ctx.parent(u);
    if (call?.type !== "CallExpression") continue;
    const fn = functionOf(call.callee, ctx);
    const param = fn?.params[call.arguments.indexOf(u)];
    const bound = param?.type === "Identifier" ? ctx.bindingOf(param) : undefined;
    const cut = bound ? cutParameter(bound, fn!.params, ctx) : -1;
    const name = cut >= 0 ? ctx.nameOf(call.arguments[cut]) : null;
    if (name && !VAGUE.has(name)) return join("max", name);
  }
  return null;
}

/** The index of the parameter a helper cuts by `bound` (see cutBy); -1 if none. */
function cutParameter(bound: Binding, params: Node[], ctx: NameContext): number {
  for (const use of bound.uses) {
    const owner = ctx.bindingOf(cutBy(use, ctx));
    const i = owner ? params.findIndex((q) => ctx.bindingOf(q) === owner) : -1;
    if (i >= 0) return i;
  }
  return -1;
}
