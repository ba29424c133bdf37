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

/**
 * Text inside a `//` comment of emitted JavaScript: every line terminator (LF, CR, U+2028, U+2029)
 * escaped, so that nothing after it can leave the comment and run, and the rest made inert as for a
 * terminal (a module is read on one).
 */
export function lineCommentText(s: string): string {
  return terminalSafe(s);
}

/**
 * A value as a JavaScript literal: JSON, with U+2028 and U+2029 escaped too (JSON leaves them raw,
 * which only engines before ES2019 and some tools read as line ends).
 */
export function jsLiteral(value: unknown, indent?: number): string {
  return escapeLineSeparators(JSON.stringify(value, null, indent));
}

/** JSON text (or a piece of it) with U+2028 and U+2029 escaped: outside strings JSON never holds them. */
export function escapeLineSeparators(json: string): string {
  return json.replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
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
  return proseCode(terminalSafe(s));
}

/**
 * Prose that marks code with backticks, as the behaviour sentences do (`` `select:` now also finds… ``), cut
 * into its text and code parts. A span opens with a run of backticks and closes at the next run of the same
 * length, as in CommonMark (so a longer fence can hold a backtick); a run that is never closed is text.
 */
export function codeSpans(s: string): Array<{ code: boolean; text: string }> {
  const out: Array<{ code: boolean; text: string }> = [];
  const runs = [...s.matchAll(/`+/g)];
  let text = 0;
  for (let i = 0; i < runs.length; i++) {
    const open = runs[i]!;
    const close = runs.findIndex((r, j) => j > i && r[0].length === open[0].length);
    if (close < 0) continue;
    const inner = s.slice(open.index + open[0].length, runs[close]!.index);
    if (open.index > text) out.push({ code: false, text: s.slice(text, open.index) });
    // One space on each side is padding (it lets code start or end with a backtick), not content.
    out.push({ code: true, text: /^ .* $/s.test(inner) && inner.trim() !== "" ? inner.slice(1, -1) : inner });
    text = runs[close]!.index + runs[close]![0].length;
    i = close;
  }
  if (text < s.length) out.push({ code: false, text: s.slice(text) });
  return out;
}

/** Such prose in Markdown: its code as code spans, the rest as plain text (markdownText). */
export function markdownProse(s: string): string {
  return codeSpans(s)
    .map((p) => (p.code ? markdownCode(p.text) : markdownText(p.text)))
    .join("");
}

/** The fence that quotes `s` as code in such prose: one backtick more than its longest run, padded where it touches one. */
export function proseCode(s: string): string {
  const ticks = "`".repeat(Math.max(0, ...[...s.matchAll(/`+/g)].map((m) => m[0].length)) + 1);
  const pad = s.startsWith("`") || s.endsWith("`") || s === "" ? " " : "";
  return `${ticks}${pad}${s}${pad}${ticks}`;
}
