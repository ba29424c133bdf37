/**
 * `--baseline OLD`: the ranks of an earlier catalog beside this one's, per expectation (else per query and a tool
 * it is for) and per release. OLD is a tools file or a live server's tools, ranked now with the same queries,
 * competitors and releases, or the saved `--json` of an earlier check, read as it was. Improvements and regressions are counted per release.
 */
import { readFileSync } from "node:fs";
import * as z from "zod/mini";
import { ExitCode, SearchliftError } from "../errors.js";
import { checkShape } from "../schemas/json.js";
import type { CheckResult } from "./check.js";
import { judgedOn } from "./expectations.js";
import { listedTool, toolsListSchema, type ToolsFile } from "./tools-file.js";

export interface BaselineCell {
  /** The rank before (null: not returned, or the tool was not in the old catalog) and now. */
  old: number | null;
  new: number | null;
}

export interface BaselineItem {
  query: string;
  tool: string;
  /** The best rank allowed, when the item is an expectation. */
  rank?: number | null;
  /** Per release both sides ranked (others are absent). */
  ranks: Record<string, BaselineCell>;
}

export interface Baseline {
  /** Where the old ranks come from (a file, or the command or URL of a server), and what it is. */
  source: string;
  kind: "tools" | "server" | "saved";
  /** Cells (item × release) placed higher now, lower now, or the same. */
  improved: number;
  regressed: number;
  unchanged: number;
  items: BaselineItem[];
}

/** What a saved `--json` of check holds that a baseline reads (a check before the expectations had no `queries`). */
export interface SavedCheck {
  releases: Array<{ version: string }>;
  results: Array<{ tool: string; query: string; ranks: Record<string, number | null> }>;
  queries?: Array<{ text: string; owners: string[] }>;
  loaded?: string[];
}

/** The old rank of a tool for a query on a release: null when not returned, undefined when not known (not asked there). */
export type OldRanks = (query: string, tool: string, release: string) => number | null | undefined;

export type BaselineFile = { kind: "saved"; saved: SavedCheck } | { kind: "tools"; file: ToolsFile };

/** What tells a saved check from a tools list; `loaded` and `queries` came later, and are dropped when of another shape. */
const savedSchema = z.looseObject({
  releases: z.array(z.unknown()),
  results: z.array(z.unknown()),
  loaded: z.catch(z.array(z.unknown()), []),
  queries: z.catch(z.optional(z.array(z.unknown())), undefined),
});
const savedRelease = z.looseObject({ version: z.string() });
const savedResult = z.looseObject({ tool: z.string(), query: z.string(), ranks: z.record(z.string(), z.unknown()) });
const savedQuery = z.looseObject({ text: z.string(), owners: z.catch(z.array(z.unknown()), []) });

/** A baseline file: a saved check (`releases` and `results`) or anything a tools file may be. */
export function readBaselineFile(path: string): BaselineFile {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code) throw new SearchliftError(`cannot read the baseline: ${code}`, ExitCode.unreadable, path);
    throw new SearchliftError(`the baseline is not JSON: ${(e as Error).message}`, ExitCode.usage, path);
  }
  const saved = checkShape(savedSchema, value);
  if (saved.ok) return { kind: "saved", saved: savedCheck(saved.value, path) };
  const bad = (why?: string) =>
    new SearchliftError(
      `the baseline is neither a saved check --json ({ "releases", "results" }) nor a tools list ({ "tools": [...] } or an array)${why ? ` (${why})` : ""}`,
      ExitCode.usage,
      path,
    );
  const r = checkShape(toolsListSchema, value);
  if (!r.ok) throw bad();
  const list = Array.isArray(r.value) ? r.value : r.value.tools;
  const tools = list.map((t, i) => listedTool(t, (why) => bad(`tool ${i + 1}: ${why}`)));
  const serverName =
    !Array.isArray(r.value) && typeof r.value.serverName === "string" && r.value.serverName ? r.value.serverName : undefined;
  return { kind: "tools", file: { tools, ...(serverName ? { serverName } : {}) } };
}

function savedCheck(v: z.output<typeof savedSchema>, path: string): SavedCheck {
  const bad = (why: string) => new SearchliftError(`the saved check is damaged: ${why}`, ExitCode.usage, path);
  const releases = v.releases.map((x, i) => {
    const r = checkShape(savedRelease, x);
    if (!r.ok) throw bad(`a release without a version (release ${i + 1}: ${r.why})`);
    return { version: r.value.version };
  });
  const results = v.results.map((x, i) => {
    const r = checkShape(savedResult, x);
    if (!r.ok) throw bad(`a result without tool, query and ranks (result ${i + 1}: ${r.why})`);
    const ranks = Object.fromEntries(Object.entries(r.value.ranks).map(([k, n]) => [k, typeof n === "number" && n > 0 ? n : null]));
    return { tool: r.value.tool, query: r.value.query, ranks };
  });
  const loaded = v.loaded.filter((x): x is string => typeof x === "string");
  const queries = v.queries?.flatMap((x) => {
    const q = checkShape(savedQuery, x);
    return q.ok ? [{ text: q.value.text, owners: q.value.owners.map(String) }] : [];
  });
  return { releases, results, loaded, ...(queries ? { queries } : {}) };
}

/**
 * The old ranks a check's rows give. A row's absence means "not returned" when the old run asked the query and
 * knew the tool (checks before the JSON had a row per query and tool listed only the returned and the tools a
 * query was for), else the old rank is unknown.
 */
export function oldRanks(old: SavedCheck): OldRanks {
  const rows = new Map(old.results.map((r) => [`${r.query}\0${r.tool}`, r.ranks]));
  const asked = new Set([...old.results.map((r) => r.query), ...(old.queries ?? []).map((q) => q.text)]);
  const known = new Set([...old.results.map((r) => r.tool), ...(old.loaded ?? []), ...(old.queries ?? []).flatMap((q) => q.owners)]);
  const releases = new Set(old.releases.map((r) => r.version));
  return (query, tool, release) => {
    if (!releases.has(release) || !asked.has(query)) return undefined;
    const ranks = rows.get(`${query}\0${tool}`);
    if (ranks) return release in ranks ? ranks[release]! : undefined;
    return known.has(tool) ? null : undefined;
  };
}

/** The old ranks of a catalog ranked now: a tool it does not have is not returned. */
export function oldRanksOfRun(old: CheckResult): OldRanks {
  const rows = new Map(old.results.map((r) => [`${r.query}\0${r.tool}`, r.ranks]));
  return (query, tool, release) => rows.get(`${query}\0${tool}`)?.[release] ?? null;
}

/** Lower is better; not returned is worst. */
const place = (r: number | null) => r ?? Infinity;

/**
 * Old against new, per expectation on each release it is judged on (with none: per query and each tool it is
 * for, on every release), on the releases whose old rank is known.
 */
export function compareBaseline(source: string, kind: Baseline["kind"], now: CheckResult, old: OldRanks): Baseline {
  const releases = now.releases.map((r) => r.version);
  const rankNow = new Map(now.results.map((r) => [`${r.query}\0${r.tool}`, r.ranks]));
  const pairs: Array<{ query: string; tool: string; rank?: number | null; on: string[] }> = now.expectations.length
    ? now.expectations.map((e) => ({ query: e.query, tool: e.tool, rank: e.rank, on: releases.filter((v) => judgedOn(e, v)) }))
    : now.queries.flatMap((q) => q.owners.map((tool) => ({ query: q.text, tool, on: releases })));
  const counts = { improved: 0, regressed: 0, unchanged: 0 };
  const items = pairs.map(({ query, tool, rank, on }) => {
    const ranks: Record<string, BaselineCell> = {};
    for (const v of on) {
      const before = old(query, tool, v);
      if (before === undefined) continue;
      const after = rankNow.get(`${query}\0${tool}`)?.[v] ?? null;
      ranks[v] = { old: before, new: after };
      const [a, b] = [place(before), place(after)];
      counts[b < a ? "improved" : b > a ? "regressed" : "unchanged"]++;
    }
    return { query, tool, ...(rank !== undefined ? { rank } : {}), ranks };
  });
  return { source, kind, ...counts, items };
}

/** Whether an item's rank moved on some release. */
export const changed = (item: BaselineItem) => Object.values(item.ranks).some((c) => c.old !== c.new);
