import { codeSpans } from "../safe-text.js";

/** Text and attribute values for the HTML report: everything that goes into the page passes through esc. */
export function esc(s: string | number): string {
  return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/** Prose whose code is marked with backticks (the behaviour sentences), with that code in <code>. */
export function escProse(s: string): string {
  return codeSpans(s)
    .map((p) => (p.code ? `<code>${esc(p.text)}</code>` : esc(p.text)))
    .join("");
}
