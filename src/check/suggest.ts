/**
 * `--suggest`: for each missed expectation, small edits to the tool — a query word added to its description,
 * the query's words put at the start of the description (where a release that reads only a prefix still reads
 * them), a searchHint holding them, a name part equal to a query word — each measured, not estimated: the
 * catalog is searched again by every release the expectation is judged on, with the tool replaced by its edited
 * copy (tool-probes.ts, the same sandboxed lifted modules as check). An edit is shown only when it places the
 * tool higher on some release and lower on none, and not when another shown edit of no other field ranks it
 * as high everywhere with no more characters changed; the best first (the best worst-case rank over the releases, then the fewest
 * characters changed).
 */
import { clientToolName, contractTool, type ClientTool } from "./naming.js";
import { nameParts, wordsOf } from "./explain-missed.js";
import { queryTerms } from "./reasons.js";
import type { ProbeBatch, ToolProbe } from "./tool-probes.js";

export type EditKind = "description" | "move" | "searchHint" | "rename" | "hint+description";

/** One edit: the tool's fields after it (only those it changes). */
export interface Edit {
  kind: EditKind;
  /** What to do, in words: `add "where" to the description`. */
  text: string;
  /** The tool's new name as the server lists it; its new description; its new searchHint. */
  toolName?: string;
  description?: string;
  searchHint?: string;
  /** Characters changed over the fields it edits. */
  chars: number;
}

export interface Suggestion extends Edit {
  /** Per release the expectation is judged on: the rank before and after the edit (null: not returned). */
  ranks: Record<string, { before: number | null; after: number | null }>;
  /** The releases where the edit places the tool higher (the releases it claims). */
  improves: string[];
  /** Whether the edit meets the expectation on every release it is judged on. */
  met: boolean;
}

export interface ExpectationSuggestions {
  query: string;
  tool: string;
  rank: number | null;
  /** Best first; empty when no edit tried places the tool higher. */
  edits: Suggestion[];
}

/** Suggestions shown per expectation at most. */
export const MAX_SUGGESTIONS = 5;

const q = JSON.stringify;
const words = (ts: string[]) => ts.map((t) => q(t)).join(", ");

/** Characters that differ between two texts: what lies between their common start and their common end. */
export function changedChars(a: string, b: string): number {
  let s = 0;
  while (s < a.length && s < b.length && a[s] === b[s]) s++;
  let e = 0;
  while (e < a.length - s && e < b.length - s && a[a.length - 1 - e] === b[b.length - 1 - e]) e++;
  return Math.max(a.length - s - e, b.length - s - e);
}

/** The edits tried for a query's tool; `readLimit` is the shortest description prefix some release reads (null: all). */
export function candidateEdits(tool: ClientTool, query: string, readLimit: number | null): Edit[] {
  if (/^select:/i.test(query.trim())) return [];
  const terms = queryTerms(query).filter((t) => /[\p{L}\p{N}]/u.test(t));
  if (!terms.length) return [];
  const desc = tool.description;
  const hint = tool.searchHint ?? "";
  const name = tool.mcpInfo.toolName;
  const out: Edit[] = [];
  const descWords = wordsOf(desc);
  const descMissing = terms.filter((t) => !descWords.includes(t));
  const withDesc = (d: string) => ({ description: d, chars: changedChars(desc, d) });
  if (descMissing.length) {
    const d = desc.trim() ? `${desc.trimEnd()}${/[.!?]$/.test(desc.trimEnd()) ? "" : "."} ${descMissing.join(" ")}` : descMissing.join(" ");
    out.push({ kind: "description", text: `add ${words(descMissing)} to the description`, ...withDesc(d) });
  }
  // A word past the prefix a release reads, or not there at all, put at the start.
  const lower = desc.toLowerCase();
  const late = terms.filter((t) => !descWords.includes(t) || (readLimit !== null && lower.indexOf(t) + t.length > readLimit));
  if (late.length && desc.trim()) {
    const d = `${late.join(" ")} — ${desc}`;
    const moved = late.filter((t) => descWords.includes(t));
    out.push({
      kind: "move",
      text: moved.length
        ? `put ${words(late)} at the start of the description (${words(moved)} ${moved.length === 1 ? "is" : "are"} past the first ${readLimit} characters a release reads)`
        : `put ${words(late)} at the start of the description`,
      ...withDesc(d),
    });
  }
  const hintWords = wordsOf(hint);
  const hintMissing = terms.filter((t) => !hintWords.includes(t));
  let newHint: string | undefined;
  if (hintMissing.length) {
    newHint = hint.trim() ? `${hint.trimEnd()} ${hintMissing.join(" ")}` : terms.join(" ");
    out.push({
      kind: "searchHint",
      text: hint.trim() ? `add ${words(hintMissing)} to the searchHint` : `add the searchHint ${q(newHint)}`,
      searchHint: newHint,
      chars: changedChars(hint, newHint),
    });
  }
  if (newHint !== undefined && descMissing.length) {
    const d = out.find((e) => e.kind === "description")!.description!;
    out.push({
      kind: "hint+description",
      text: `${hint.trim() ? `add ${words(hintMissing)} to the searchHint` : `add the searchHint ${q(newHint)}`} and ${words(descMissing)} to the description`,
      searchHint: newHint,
      description: d,
      chars: changedChars(hint, newHint) + changedChars(desc, d),
    });
  }
  const parts = nameParts(name);
  const sep = name.includes("_") || !/[-.]/.test(name) ? "_" : name.includes("-") ? "-" : ".";
  // A name takes words, not particles: words of one or two characters only when the query has no longer one.
  const long = terms.filter((t) => t.length > 2);
  const nameable = (long.length ? long : terms).filter((t) => /^[A-Za-z0-9_-]+$/.test(t) && !parts.includes(t));
  for (const t of nameable) {
    // A name part that contains the word (attachment for attach) becomes the word; else the word is added.
    const inside = parts.find((p) => p.includes(t));
    const renamed = inside ? name.replace(new RegExp(inside, "i"), t) : `${name}${sep}${t}`;
    if (renamed !== name)
      out.push({ kind: "rename", text: `rename to ${q(renamed)}`, toolName: renamed, chars: changedChars(name, renamed) });
  }
  if (nameable.length > 1) {
    const renamed = `${name}${sep}${nameable.join(sep)}`;
    out.push({ kind: "rename", text: `rename to ${q(renamed)}`, toolName: renamed, chars: changedChars(name, renamed) });
  }
  // Two ways to the same tool are one edit: the first (the simpler kind) stays.
  const seen = new Set<string>();
  return out.filter((e) => {
    const k = JSON.stringify([e.toolName, e.description, e.searchHint]);
    return !seen.has(k) && seen.add(k);
  });
}

/** The tool after an edit. */
export function edited(tool: ClientTool, e: Edit): ClientTool {
  const toolName = e.toolName ?? tool.mcpInfo.toolName;
  return {
    ...tool,
    name: e.toolName === undefined ? tool.name : clientToolName(tool.mcpInfo.serverName, toolName),
    ...(e.description !== undefined ? { description: e.description } : {}),
    ...(e.searchHint !== undefined ? { searchHint: e.searchHint } : {}),
    mcpInfo: { ...tool.mcpInfo, toolName },
  };
}

/** The search of the catalog with the tool (deferred[index]) replaced by its edited copy. */
export function editProbe(query: string, index: number, tool: ClientTool, e: Edit): ToolProbe {
  return { kind: "search", query, index, tool: contractTool(edited(tool, e)) };
}

const better = (a: number | null, b: number | null) => a !== null && (b === null || a < b);
const worse = (a: number | null, b: number | null) => better(b, a);

/**
 * The edits measured: per release (`batches`, by version), the rank each gives; kept only when it is better on
 * some release and worse on none; best first.
 */
export function measuredSuggestions(
  expectation: { query: string; tool: string; rank: number | null; results: Record<string, { rank: number | null; met: boolean }> },
  tool: ClientTool,
  index: number,
  edits: Edit[],
  batches: Map<string, ProbeBatch>,
): Suggestion[] {
  const releases = Object.keys(expectation.results);
  const out: Suggestion[] = [];
  for (const e of edits) {
    const name = edited(tool, e).name;
    const ranks: Suggestion["ranks"] = {};
    let known = true;
    for (const v of releases) {
      const answer = batches.get(v)?.get(editProbe(expectation.query, index, tool, e));
      if (!Array.isArray(answer)) {
        known = false;
        break;
      }
      const at = answer.indexOf(name);
      ranks[v] = { before: expectation.results[v]!.rank, after: at < 0 ? null : at + 1 };
    }
    if (!known) continue;
    const cells = Object.entries(ranks);
    const improves = cells.filter(([, c]) => better(c.after, c.before)).map(([v]) => v);
    if (!improves.length || cells.some(([, c]) => worse(c.after, c.before))) continue;
    const met = cells.every(([, c]) => c.after !== null && (expectation.rank === null || c.after <= expectation.rank));
    out.push({ ...e, ranks, improves, met });
  }
  // An edit that another shown one matches on every release, changing fewer characters of no other field (a
  // hint alone for a hint and a description), adds nothing. A rename does not hide a description edit: it costs
  // more than its characters.
  const at = (x: Suggestion, v: string) => x.ranks[v]!.after ?? Infinity;
  const fields = (x: Edit) => (["toolName", "description", "searchHint"] as const).filter((f) => x[f] !== undefined);
  const dominated = (e: Suggestion, by: Suggestion) =>
    by.chars <= e.chars && fields(by).every((f) => fields(e).includes(f)) && releases.every((v) => at(by, v) <= at(e, v));
  const kept: Suggestion[] = [];
  for (const e of out.sort(bestFirst)) if (!kept.some((k) => dominated(e, k))) kept.push(e);
  return kept.slice(0, MAX_SUGGESTIONS);
}

/** The best worst-case rank over the releases, then the fewest characters changed. */
export function bestFirst(a: Suggestion, b: Suggestion): number {
  const worst = (s: Suggestion) => Math.max(...Object.values(s.ranks).map((c) => c.after ?? 1e9));
  const sum = (s: Suggestion) => Object.values(s.ranks).reduce((n, c) => n + (c.after ?? 1e6), 0);
  return worst(a) - worst(b) || a.chars - b.chars || sum(a) - sum(b) || a.text.localeCompare(b.text);
}

/** `add "where" to the description: 0.5.0 — → 1, 0.7.0 — → 2 (meets it everywhere)`. */
export function suggestionText(s: Suggestion): string {
  const r = (n: number | null) => (n === null ? "—" : String(n));
  const cells = Object.entries(s.ranks).map(([v, c]) => `${v} ${r(c.before)} → ${r(c.after)}`);
  return `${s.text} (${s.chars} character${s.chars === 1 ? "" : "s"}): ${cells.join(", ")}${s.met ? "; meets it on every release" : ""}`;
}
