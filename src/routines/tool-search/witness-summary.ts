/**
 * What a tool-search witness means: its kind (the function, how the answer changed, the shape of the query),
 * by which the search keeps one witness per kind, and one plain-language line that says it.
 */
import type { Witness } from "../../diff/witness-search.js";
import { proseCode } from "../../safe-text.js";

type Scored = Array<{ name: string; score: number }>;

const isError = (v: unknown): v is { error: string } =>
  typeof v === "object" && v !== null && !Array.isArray(v) && typeof (v as { error?: unknown }).error === "string";
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

const list = (xs: string[]) => (xs.length ? xs.join(", ") : "nothing");
/** A witness's tools: the first few, then how many more (the witness itself has them all). */
const fewOf = (xs: string[]) => (xs.length > 4 ? `${xs.slice(0, 3).join(", ")} and ${xs.length - 3} more` : list(xs));

function toolsNote(w: Witness): string {
  // A tool given without mcpInfo.toolName is part of what the witness shows (releases differ on it).
  const d = w.deferred.map((t) => (t.mcpInfo && t.mcpInfo.toolName === undefined ? `${t.name} (mcpInfo without toolName)` : t.name));
  const l = w.loaded.map((t) => t.name);
  return `(deferred: ${fewOf(d)}${l.length ? `; loaded: ${fewOf(l)}` : ""}${w.maxResults !== undefined ? `; maxResults ${w.maxResults}` : ""})`;
}

/** One line that says what the witness shows, the inputs included. */
export function witnessSummary(w: Witness): string {
  const on = `${w.fn} ${showQuery(w.query)} ${toolsNote(w)}`;
  if (isError(w.after) && !isError(w.before))
    return `${on} now throws (${w.after.error.slice(0, 120)}); it returned ${list(names(w.before))}`;
  if (isError(w.before) && !isError(w.after))
    return `${on} no longer throws (${w.before.error.slice(0, 120)}); it returns ${list(names(w.after))}`;
  if (isError(w.before) && isError(w.after))
    return `${on} throws another error: ${w.before.error.slice(0, 80)} → ${w.after.error.slice(0, 80)}`;
  if (w.fn === "scoreTools") {
    const [a, b] = [w.before as Scored, w.after as Scored];
    const moved =
      Array.isArray(a) && Array.isArray(b)
        ? a.flatMap((x, i) => (b[i] && b[i]!.score !== x.score ? [`${x.name} ${x.score} → ${b[i]!.score}`] : []))
        : [];
    return `${on}: scores ${moved.length ? moved.slice(0, 3).join(", ") + (moved.length > 3 ? `, and ${moved.length - 3} more` : "") : "differ"}`;
  }
  const [a, b] = [names(w.before), names(w.after)];
  const gained = b.filter((x) => !a.includes(x));
  const lost = a.filter((x) => !b.includes(x));
  if (gained.length && !lost.length) return `${on} now also returns ${list(gained)} (was: ${list(a)})`;
  if (lost.length && !gained.length) return `${on} no longer returns ${list(lost)} (now: ${list(b)})`;
  return `${on} returns ${list(b)} (was: ${list(a)})`;
}
