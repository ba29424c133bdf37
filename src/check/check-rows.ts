/** The rows of a check's results: per query, our tools (and the other servers' it returned) with their rank on each release. */
import type { CheckInput, CheckRelease, CheckRow } from "./check.js";
import type { ClientTool } from "./naming.js";
import type { ModuleRanking } from "./rank.js";

/** The server's tools, one per client name (two that the renaming makes one are one to the search's answers). */
export function distinctTools(tools: ClientTool[]): ClientTool[] {
  const seen = new Set<string>();
  return tools.filter((t) => !seen.has(t.name) && seen.add(t.name));
}

export function rankIn(returned: string[], tool: string): number | null {
  const i = returned.indexOf(tool);
  return i < 0 ? null : i + 1;
}

/**
 * Query × tool pairs past which the rows of tools a query is not for and no release returned are left out: a
 * row is some 170 bytes of JSON, and 500 tools with their default queries make a million pairs (170 MB).
 */
export const MAX_FULL_ROWS = 250_000;

/**
 * Per query, a row for every tool of the server: those some release returned, best placed first (by the best
 * rank on any release, then release by release), then the rest — the tools the query is for first, then the
 * catalog's order. An always-loaded tool has a row only where some release returned it (select: finds it).
 * Past MAX_FULL_ROWS pairs, a tool the query is not for and no release returned has no row (counted in `omitted`).
 */
export function rows(input: CheckInput, rankings: ModuleRanking[], releases: CheckRelease[]): { rows: CheckRow[]; omitted: number } {
  const out: CheckRow[] = [];
  const ours = distinctTools(input.tools);
  const keys = releases.map((rel) => rel.version);
  const full = input.queries.length * ours.length <= MAX_FULL_ROWS;
  let omitted = 0;
  input.queries.forEach((q, qi) => {
    const returned = new Set(rankings.flatMap((r) => r.returned[qi]!));
    const names = [...new Set([...q.owners, ...ours.filter((t) => !t.alwaysLoad || returned.has(t.name)).map((t) => t.name)])];
    const mine = new Set(q.owners);
    const unreturned = names.filter((n) => !returned.has(n));
    const kept = full ? unreturned : unreturned.filter((n) => mine.has(n));
    omitted += unreturned.length - kept.length;
    const row = (tool: string): CheckRow => ({
      tool,
      query: q.text,
      ranks: Object.fromEntries(releases.map((rel, ri) => [rel.version, rankIn(rankings[ri]!.returned[qi]!, tool)])),
    });
    out.push(
      ...names
        .filter((n) => returned.has(n))
        .map(row)
        .sort(byPlace(keys)),
      ...kept.map(row),
    );
  });
  return { rows: out, omitted };
}

/** Per query, the other servers' tools some release returned for it, best placed first. */
export function competitorRows(input: CheckInput, rankings: ModuleRanking[], releases: CheckRelease[]): CheckRow[] {
  const others = distinctTools(input.competitors).filter((t) => !input.tools.some((x) => x.name === t.name));
  const keys = releases.map((rel) => rel.version);
  return input.queries.flatMap((q, qi) => {
    const returned = new Set(rankings.flatMap((r) => r.returned[qi]!));
    return others
      .filter((t) => returned.has(t.name))
      .map((t) => ({
        tool: t.name,
        query: q.text,
        ranks: Object.fromEntries(releases.map((rel, ri) => [rel.version, rankIn(rankings[ri]!.returned[qi]!, t.name)])),
      }))
      .sort(byPlace(keys));
  });
}

/** Rows by their best rank, then by their rank on each release in turn; a release that did not return a tool places it last. */
export function byPlace(keys: string[]): (a: CheckRow, b: CheckRow) => number {
  const places = (r: CheckRow) => {
    const ranks = keys.map((k) => r.ranks[k] ?? Infinity);
    return [Math.min(...ranks), ...ranks];
  };
  return (a, b) => {
    const pa = places(a);
    const pb = places(b);
    const i = pa.findIndex((x, n) => x !== pb[n]);
    return i < 0 ? 0 : pa[i]! < pb[i]! ? -1 : 1;
  };
}
