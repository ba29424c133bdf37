/**
 * What a tool-search witness means: its kind (the function, how the answer changed, the shape of the query),
 * by which the search keeps one witness per kind, and one plain-language line that says it.
 */
import type { Witness } from "../../diff/witness-search.js";
import { proseCode } from "../../safe-text.js";
import type { Tool } from "./corpus.js";
import { isError } from "./probe-calls.js";

type Scored = Array<{ name: string; score: number }>;

const names = (v: unknown): string[] =>
  Array.isArray(v) ? v.map((x) => (typeof x === "string" ? x : String((x as { name?: unknown })?.name))) : [];

/** The shape of a query, as a kind of input: `select:` lists and single names, `+required`, prefixes, length. */
function queryShape(q: string): string {
  const t = q.trim();
  if (/^select:/i.test(t)) return t.includes(",") ? "select-list" : /__/.test(t) ? "select-full" : "select-bare";
  if (t === "") return "empty";
  if (t.length > 200) return "long";
  if (/(^|\s)\+\S/.test(t)) return "required";
  if (/^mcp__/i.test(t)) return "mcp-prefix";
  if (/[^\x00-\x7f]/.test(t)) return "unicode";
  return t.split(/\s+/).length > 1 ? "words" : "word";
}

/** How the answer changed: thrown, found more, found less, reordered, other results, or scores only. */
function changeClass(w: Witness): string {
  if (isError(w.before) || isError(w.after))
    return isError(w.after) ? (isError(w.before) ? "error-changed" : "throws-now") : "throws-no-longer";
  if (w.fn === "scoreTools") {
    const [a, b] = [w.before as Scored, w.after as Scored];
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return "scores-shape";
    const up = a.some((x, i) => (b[i]?.score ?? 0) > x.score);
    const down = a.some((x, i) => (b[i]?.score ?? 0) < x.score);
    return up && down ? "scores-mixed" : up ? "scores-up" : "scores-down";
  }
  const [a, b] = [names(w.before), names(w.after)];
  const gained = b.filter((x) => !a.includes(x));
  const lost = a.filter((x) => !b.includes(x));
  if (gained.length && !lost.length) return "gained";
  if (lost.length && !gained.length) return "lost";
  if (!gained.length && !lost.length) return "reordered";
  return "replaced";
}

/** The tools a difference is about, most telling first: for scores, those whose score changed; for lists,
 *  those gained or lost, then the rest of both answers (a reordering needs two of them). */
export function witnessFocus(w: Witness): string[] {
  if (w.fn === "scoreTools") {
    const [a, b] = [w.before as Scored, w.after as Scored];
    if (!Array.isArray(a) || !Array.isArray(b)) return [];
    const score = (xs: Scored, name: string) => xs.find((x) => x?.name === name)?.score;
    const all = [...new Set([...a, ...b].map((x) => String(x?.name)))];
    return [...all.filter((n) => score(a, n) !== score(b, n)), ...all.filter((n) => score(a, n) === score(b, n))];
  }
  const [a, b] = [names(w.before), names(w.after)];
  const moved = [...b.filter((x) => !a.includes(x)), ...a.filter((x) => !b.includes(x))];
  return [...new Set([...moved, ...a, ...b])];
}

export function witnessKind(w: Witness): string {
  const c = changeClass(w);
  // A new error is one kind whatever the query: its message says which.
  if (c === "throws-now") return `${w.fn}|${c}|${(w.after as { error: string }).error}`;
  return `${w.fn}|${c}|${queryShape(w.query)}`;
}

/** A query as a reader can take it in: quoted, long ones cut with their length. */
export function showQuery(q: string): string {
  const shown = q.length > 48 ? `${JSON.stringify(q.slice(0, 24))}… (${q.length} characters)` : JSON.stringify(q);
  return proseCode(shown);
}

/** A sentence's length at most: the query, the tools that matter and the answers before → after fit in it. */
export const MAX_SENTENCE = 200;

/** A tool name as a sentence shows it: long ones cut (the witness itself has it whole). */
const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
/** A name cut in its middle: names of one server share their head and differ at the end. */
const cutName = (s: string, n: number) =>
  s.length > n ? `${s.slice(0, Math.ceil((n - 1) / 2))}…${s.slice(s.length - Math.floor((n - 1) / 2))}` : s;
const list = (xs: string[], most = 3) =>
  xs.length === 0 ? "nothing" : xs.length > most + 1 ? `${xs.slice(0, most).join(", ")} and ${xs.length - most} more` : xs.join(", ");

/** The witness's tools that matter (witnessFocus's order: those the answers differ on first), then how many more. */
function toolsNote(w: Witness, most: number, name: number): string {
  const focus = witnessFocus(w);
  // A tool given without mcpInfo.toolName is part of what the witness shows (releases differ on it): first.
  // So is one whose mcpInfo is not an object at all (a text, a flag): code reading it may refuse it.
  const notObject = (t: Tool) => t.mcpInfo !== undefined && (typeof t.mcpInfo !== "object" || t.mcpInfo === null);
  const odd = (t: Tool) => notObject(t) || (t.mcpInfo !== undefined && t.mcpInfo.toolName === undefined);
  const rank = (t: Tool) => (odd(t) ? -1 : focus.includes(t.name) ? focus.indexOf(t.name) : focus.length);
  // An alias that is another tool's name of the witness is part of what it shows too (which of the two the name means).
  const all = [...w.deferred, ...w.loaded];
  const alias = (t: Tool) => (t.aliases ?? []).find((a) => a !== t.name && all.some((u) => u !== t && u.name === a));
  const note = (t: Tool) => {
    const a = alias(t);
    if (notObject(t)) return ` (mcpInfo ${cut(JSON.stringify(t.mcpInfo) ?? "", 24)}, not an object)`;
    return odd(t) ? " (mcpInfo without toolName)" : a !== undefined ? ` (alias ${cutName(a, name)})` : "";
  };
  const shown = (ts: Tool[]) => [...ts].sort((x, y) => rank(x) - rank(y)).map((t) => `${cutName(t.name, name)}${note(t)}`);
  const [d, l] = [shown(w.deferred), shown(w.loaded)];
  return `(deferred: ${list(d, most)}${l.length ? `; loaded: ${list(l, most)}` : ""}${w.maxResults !== undefined ? `; maxResults ${w.maxResults}` : ""})`;
}

/** One line that says what the witness shows, the inputs that matter included, at most MAX_SENTENCE characters:
 *  fewer tools are named where more would not fit, and what still does not fit is cut. */
export function witnessSummary(w: Witness): string {
  // A list line may become "toolSearch and searchTools …" (behaviour.ts says twins once): room for that, the
  // same in both twins — "toolSearch" is a character shorter than "searchTools", so its line gets a character
  // less, and both twins shorten their inputs alike and cut at the same place after their names.
  const max = w.fn === "scoreTools" ? MAX_SENTENCE : MAX_SENTENCE - "and searchTools ".length - ("searchTools".length - w.fn.length);
  // Tools named, and characters of an error and of a name, fewer at each try.
  const tries: Array<[most: number, error: number, name: number]> = [
    [3, 80, 40],
    [1, 60, 32],
    [1, 30, 20],
  ];
  const line = tries.map((t) => summaryWith(w, ...t)).find((l) => l.length <= max) ?? summaryWith(w, ...tries[2]!);
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

function summaryWith(w: Witness, most: number, error: number, name: number): string {
  const shortName = (n: string) => cutName(n, name);
  // Short of room, tools the answers name anyway are counted, not named again.
  const named = new Set([...names(w.before), ...names(w.after)]);
  const counted =
    error <= 30 && w.loaded.length === 0 && w.deferred.every((t) => named.has(t.name) && !(t.mcpInfo && t.mcpInfo.toolName === undefined));
  const note = counted ? `(${w.deferred.length} deferred tool${w.deferred.length === 1 ? "" : "s"})` : toolsNote(w, most, name);
  const on = `${w.fn} ${showQuery(w.query)} ${note}`;
  const few = (xs: string[]) => list(xs.map(shortName), most);
  if (isError(w.after) && !isError(w.before)) return `${on} now throws (${cut(w.after.error, error)}); it returned ${few(names(w.before))}`;
  if (isError(w.before) && !isError(w.after))
    return `${on} no longer throws (${cut(w.before.error, error)}); it returns ${few(names(w.after))}`;
  if (isError(w.before) && isError(w.after))
    return `${on} throws another error: ${cut(w.before.error, error)} → ${cut(w.after.error, error)}`;
  if (w.fn === "scoreTools") {
    const [a, b] = [w.before as Scored, w.after as Scored];
    const moved =
      Array.isArray(a) && Array.isArray(b)
        ? a.flatMap((x, i) => (b[i] && b[i].score !== x.score ? [`${shortName(x.name)} ${x.score} → ${b[i].score}`] : []))
        : [];
    return `${on}: scores ${moved.length ? moved.slice(0, most).join(", ") + (moved.length > most ? `, and ${moved.length - most} more` : "") : "differ"}`;
  }
  const [a, b] = [names(w.before), names(w.after)];
  const gained = b.filter((x) => !a.includes(x));
  const lost = a.filter((x) => !b.includes(x));
  if (gained.length && !lost.length) return `${on} now also returns ${few(gained)} (was: ${few(a)})`;
  if (lost.length && !gained.length) return `${on} no longer returns ${few(lost)} (now: ${few(b)})`;
  // Where only the order changed after a common head, the lists are shown from where they part.
  const k = a.findIndex((x, i) => b[i] !== x);
  const from = (xs: string[]) => (k > 0 ? `…, ${few(xs.slice(k))}` : few(xs));
  return `${on} returns ${from(b)} (was: ${from(a)})`;
}
