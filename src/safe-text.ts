/**
 * Text read from an input (versions, package names, module paths, error details) is untrusted: it may
 * hold terminal escape sequences, bidi overrides that reorder what is shown, line breaks that forge
 * extra lines, or Markdown/HTML. Everything such text passes through one of these before it reaches a
 * terminal or a Markdown file (HTML has report/html.ts `esc`; JSON is escaped by JSON.stringify).
 */

/**
 * Characters a terminal acts on or that change what a line appears to say: C0 and C1 controls, DEL,
 * zero-width and bidi formatting characters, line/paragraph separators, the BOM, lone surrogates.
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]|\p{Surrogate}/gu;
const SHORT: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** `s` with every unsafe character written as a JSON-style escape (`\u001b`, `\n`): one inert line. */
export function terminalSafe(s: string): string {
  return s.replace(UNSAFE, (c) => SHORT[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** A value quoted for a message, JSON.stringify-style, unsafe characters escaped, at most `max` characters. */
export function quoted(value: string, max = 100): string {
  const cut = value.length > max ? value.slice(0, max) : value;
  return terminalSafe(JSON.stringify(cut)) + (cut === value ? "" : "…");
}

/** A message on one line: our own line breaks become spaces, then anything unsafe is escaped. */
export function messageLine(s: string): string {
  return terminalSafe(s.replace(/\s*\n\s*/g, " ").trim());
}

/**
 * Plain text inside Markdown (a table cell, a heading, a list item): no HTML, no links, no emphasis,
 * no table-cell break. CommonMark takes a backslash before ASCII punctuation as the literal character.
 */
export function markdownText(s: string): string {
  return terminalSafe(s).replace(/[\\`*_{}[\]<>|&~#!]/g, "\\$&");
}

/**
 * A Markdown code span holding `s` literally (no HTML or emphasis is read inside one); backticks in
 * the text get a longer fence, line breaks and controls are escaped so the span stays on its line.
 */
export function markdownCode(s: string): string {
  const t = terminalSafe(s);
  const ticks = "`".repeat(Math.max(0, ...[...t.matchAll(/`+/g)].map((m) => m[0].length)) + 1);
  const pad = t.startsWith("`") || t.endsWith("`") || t === "" ? " " : "";
  return `${ticks}${pad}${t}${pad}${ticks}`;
}
