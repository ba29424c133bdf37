/**
 * A module-level constant that holds a paragraph (two sentences or more, or thirty words) is named for
 * what the text is about and what the code does with it, not by its first words: a paragraph the code
 * strips out of other text (`description.replace(text, "")`) is boilerplate, any other a paragraph.
 *
 *   let ifAnUploadText = "If an upload or send would be any of these, decline …";   // before
 *   let uploadBoilerplate = "If an upload or send would be any of these, decline …"; // after
 *
 * The subject is the text's first word of four letters or more that is not a function word; the name
 * follows the text, so a release that keeps the paragraph's opening keeps the name.
 */
import type { Rule } from "./rule.js";
import type { NameContext, Binding } from "./context.js";
import { memberName } from "../../ast/pattern.js";
import { textWords } from "./words.js";

const FUNCTION_WORDS = new Set(
  (
    "when where what which while with without would should could will shall must this that these those there their they them " +
    "your yours from into onto over under about above below after before each every some such than then only also just more most " +
    "other been being have having does done make made "
  )
    .trim()
    .split(/\s+/),
);

/** Whether a text is a paragraph: two sentences or more, or thirty words. */
export function isParagraph(text: string): boolean {
  const sentences = text.split(/[.!?:](?:\s+|$)/).filter((s) => textWords(s).length >= 3);
  return sentences.length >= 2 || textWords(text).length >= 30;
}

/** The word a paragraph is about: its first word of four letters or more that is not a function word. */
export function subjectOf(text: string): string | null {
  return textWords(text).find((w) => w.length >= 4 && !FUNCTION_WORDS.has(w)) ?? null;
}

export const longText: Rule = (b, ctx) => {
  if (!b.topLevel || b.kind !== "variable" || b.iterates || b.init?.type !== "Literal" || typeof b.init.value !== "string") return null;
  const text = b.init.value;
  if (!isParagraph(text)) return null;
  const subject = subjectOf(text);
  if (!subject) return null;
  return `${subject}${stripped(b, ctx) ? "Boilerplate" : "Paragraph"}`;
};

/** Whether the code removes the text from another (`s.replace(text, "")`, `s.replaceAll(text, "")`, `s.split(text).join("")`). */
function stripped(b: Binding, ctx: NameContext): boolean {
  return b.uses.some((u) => {
    const call = ctx.parent(u);
    if (call?.type !== "CallExpression" || call.arguments[0] !== u || call.callee.type !== "MemberExpression") return false;
    const method = memberName(call.callee);
    const empty = (n: unknown) => (n as { type?: string; value?: unknown })?.type === "Literal" && (n as { value: unknown }).value === "";
    if (method === "replace" || method === "replaceAll") return empty(call.arguments[1]);
    if (method !== "split") return false;
    const member = ctx.parent(call);
    const join = member && ctx.parent(member);
    return (
      member?.type === "MemberExpression" && memberName(member) === "join" && join?.type === "CallExpression" && empty(join.arguments[0])
    );
  });
}
