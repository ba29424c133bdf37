/**
 * `searchlift check`: will Claude Code find an MCP server's tools? The server's tools (named as the client
 * names them), plus competitors, are ranked by each release's own tool search for each query; a tool that
 * none of its own queries returns on some release is unfound.
 */
import { assertSandboxable } from "../verify/sandbox.js";
import type { ClientTool } from "./naming.js";
import type { Query } from "./queries.js";
import { explain, explainRequests, type Explained } from "./explain.js";
import { checkedScript, rankWithModule, type ModuleRanking, type ProbeRequest, type ReleaseProbes } from "./rank.js";
import { unfoundReason } from "./reasons.js";

export interface CheckRelease {
  /** The key of this release in `ranks`: its version, with its platform when two releases share a version. */
  version: string;
  platform: string;
  module: string;
}

export interface CheckRow {
  tool: string;
  query: string;
  /** 1-based place in what the release's toolSearch returned; null when not returned. */
  ranks: Record<string, number | null>;
  /** --explain: per release that returned the tool and reports scores, its score per query word. */
  explain?: Record<string, Explained>;
}

export interface Unfound {
  tool: string;
  /** The releases on which none of the tool's own queries returns it. */
  releases: string[];
  /** Per release, one plain line on why, read from that release's behaviour (reasons.ts). */
  reasons: Record<string, string>;
}

export interface CheckResult {
  server: string;
  releases: CheckRelease[];
  results: CheckRow[];
  unfound: Unfound[];
  /** The server's always-loaded tools: never searched for, so never unfound. */
  loaded: string[];
}

export interface CheckInput {
  server: string;
  /** The server's own tools. */
  tools: ClientTool[];
  /** Other servers' tools, searched among but not reported. */
  competitors: ClientTool[];
  queries: Query[];
  /** Lifted module paths. */
  modules: string[];
  /** Told when two modules are the same release (installed and latest often are): it is ranked once. */
  log?: (line: string) => void;
  /** Add each returned tool's score per query word (explain.ts). */
  explain?: boolean;
}

export async function runCheck(input: CheckInput): Promise<CheckResult> {
  // The sandbox's one-time check runs while the modules are read and checked.
  assertSandboxable().catch(() => {});
  const scripts = new Map(input.modules.map((m) => [m, checkedScript(m)]));
  const all = [...input.tools, ...input.competitors];
  const texts = input.queries.map((q) => q.text);
  // Scores and probes are asked in the same child as the ranks: a second child per release costs more than
  // scoring every query once more.
  const req = probeRequest(input, texts);
  const rankings = distinctReleases(
    await Promise.all(input.modules.map((m) => rankWithModule(m, scripts.get(m)!, all, texts, req))),
    input.log,
  );
  const releases = releaseKeys(rankings);
  const missed = rankings.map((r) => missedQueries(input, r));
  const probes = rankings.map((r) => r.probes);
  const deferred = all.filter((t) => !t.alwaysLoad);
  const results = rows(input, rankings, releases);
  if (input.explain) addExplanations(results, releases, probes, deferred);
  return {
    server: input.server,
    releases,
    results,
    unfound: unfoundTools(input, missed, probes, releases, deferred),
    loaded: input.tools.filter((t) => t.alwaysLoad).map((t) => t.name),
  };
}

/** Per deferred tool of ours that none of its own queries returns on this release: those queries, as missed. */
type Missed = Map<string, Array<{ query: string; returned: string[] }>>;

function missedQueries(input: CheckInput, r: ModuleRanking): Missed {
  const out: Missed = new Map();
  for (const t of input.tools.filter((x) => !x.alwaysLoad)) {
    const own = input.queries.map((q, qi) => ({ q, qi })).filter(({ q }) => q.owners.includes(t.name));
    if (own.some(({ qi }) => r.returned[qi]!.includes(t.name))) continue;
    out.set(
      t.name,
      own.map(({ q, qi }) => ({ query: q.text, returned: r.returned[qi]! })),
    );
  }
  return out;
}

/** Every keyword query's scores (a missed tool's reason needs them), --explain's, and the release probes. */
function probeRequest(input: CheckInput, texts: string[]): ProbeRequest {
  const isSelect = (x: string) => /^select:/i.test(x.trim());
  const scores = [
    ...texts.filter((x) => !isSelect(x)).map((query) => ({ query, variant: "full" as const })),
    ...(input.explain ? explainRequests(texts) : []),
  ];
  const unique = [...new Map(scores.map((x) => [`${x.variant}\0${x.query}`, x])).values()];
  return { scores: unique, bareSelect: texts.some(isSelect), readLimits: input.tools.some((t) => !t.alwaysLoad) };
}

function addExplanations(results: CheckRow[], releases: CheckRelease[], probes: ReleaseProbes[], deferred: ClientTool[]): void {
  for (const row of results) {
    const entries = releases.flatMap((rel, ri) => {
      const p = probes[ri];
      const e = p && row.ranks[rel.version] !== null ? explain(row.query, row.tool, deferred, p) : null;
      return e ? [[rel.version, e] as const] : [];
    });
    if (entries.length) row.explain = Object.fromEntries(entries);
  }
}

/** The rankings without a second one of the same version and platform (the same release, lifted twice). */
function distinctReleases(rankings: ModuleRanking[], log?: (line: string) => void): ModuleRanking[] {
  return rankings.filter((r, i) => {
    const first = rankings.findIndex((x) => x.version === r.version && x.platform === r.platform && r.version !== "unknown");
    if (first === i || first < 0) return true;
    log?.(`${r.module} is ${r.version} (${r.platform}) again: ranked once`);
    return false;
  });
}

function releaseKeys(rankings: ModuleRanking[]): CheckRelease[] {
  const count = (v: string) => rankings.filter((r) => r.version === v).length;
  const used = new Set<string>();
  return rankings.map((r) => {
    let key = count(r.version) > 1 ? `${r.version} (${r.platform})` : r.version;
    for (let n = 2; used.has(key); n++) key = `${r.version} (${r.platform}) #${n}`;
    used.add(key);
    return { version: key, platform: r.platform, module: r.module };
  });
}

function rankIn(returned: string[], tool: string): number | null {
  const i = returned.indexOf(tool);
  return i < 0 ? null : i + 1;
}

/**
 * Per query: its own tools and the server's other tools some release returned for it, best placed first (by
 * the best rank on any release, then release by release), then its own tools no release returned.
 */
function rows(input: CheckInput, rankings: ModuleRanking[], releases: CheckRelease[]): CheckRow[] {
  const out: CheckRow[] = [];
  input.queries.forEach((q, qi) => {
    const returnedSomewhere = input.tools.filter(
      (t) => !q.owners.includes(t.name) && rankings.some((r) => r.returned[qi]!.includes(t.name)),
    );
    const query: CheckRow[] = [...q.owners, ...returnedSomewhere.map((t) => t.name)].map((tool) => ({
      tool,
      query: q.text,
      ranks: Object.fromEntries(releases.map((rel, ri) => [rel.version, rankIn(rankings[ri]!.returned[qi]!, tool)])),
    }));
    out.push(...query.sort(byPlace(releases.map((rel) => rel.version))));
  });
  return out;
}

/** Rows by their best rank, then by their rank on each release in turn; a release that did not return a tool places it last. */
function byPlace(keys: string[]): (a: CheckRow, b: CheckRow) => number {
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

function unfoundTools(
  input: CheckInput,
  missed: Missed[],
  probes: ReleaseProbes[],
  releases: CheckRelease[],
  deferred: ClientTool[],
): Unfound[] {
  const out: Unfound[] = [];
  for (const t of input.tools.filter((x) => !x.alwaysLoad)) {
    const on = releases.map((rel, ri) => ({ rel, ri })).filter(({ ri }) => missed[ri]!.has(t.name));
    if (!on.length) continue;
    const reasons = Object.fromEntries(
      on.map(({ rel, ri }) => [rel.version, unfoundReason(t, missed[ri]!.get(t.name)!, deferred, probes[ri]!)]),
    );
    out.push({ tool: t.name, releases: on.map(({ rel }) => rel.version), reasons });
  }
  return out;
}
