/**
 * `searchlift check`: will Claude Code find an MCP server's tools? The server's tools (named as the client
 * names them), plus competitors, are ranked by each release's own tool search for each query; a tool that
 * none of its own queries returns on some release is unfound.
 */
import { assertSandboxable } from "../verify/sandbox.js";
import type { ClientTool } from "./naming.js";
import type { Query } from "./queries.js";
import { explain, explainRequests, type Explained } from "./explain.js";
import { checkedScript, probeWithModule, rankWithModule, type ModuleRanking, type ProbeRequest, type ReleaseProbes } from "./rank.js";
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
  const rankings = distinctReleases(await Promise.all(input.modules.map((m) => rankWithModule(m, scripts.get(m)!, all, texts))), input.log);
  const releases = releaseKeys(rankings);
  const missed = rankings.map((r) => missedQueries(input, r));
  // A second run per release, only where a tool went unfound or scores were asked for.
  const probes = await Promise.all(
    rankings.map((r, ri) => {
      const req = probeRequest(input, missed[ri]!, texts);
      return req ? probeWithModule(r.module, scripts.get(r.module)!, all, req) : null;
    }),
  );
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
    out.set(t.name, own.map(({ q, qi }) => ({ query: q.text, returned: r.returned[qi]! })));
  }
  return out;
}

function probeRequest(input: CheckInput, missed: Missed, texts: string[]): ProbeRequest | null {
  const queries = [...new Set([...missed.values()].flat().map((m) => m.query))];
  const scores = [...queries.filter((x) => !/^select:/i.test(x.trim())).map((query) => ({ query, variant: "full" as const })), ...(input.explain ? explainRequests(texts) : [])];
  const unique = [...new Map(scores.map((x) => [`${x.variant}\0${x.query}`, x])).values()];
  const req = { scores: unique, bareSelect: queries.some((x) => /^select:/i.test(x.trim())), readLimits: missed.size > 0 };
  return req.scores.length || req.bareSelect || req.readLimits ? req : null;
}

function addExplanations(results: CheckRow[], releases: CheckRelease[], probes: Array<ReleaseProbes | null>, deferred: ClientTool[]): void {
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

/** Per query: its own tools, then the server's other tools some release returned for it. */
function rows(input: CheckInput, rankings: ModuleRanking[], releases: CheckRelease[]): CheckRow[] {
  const out: CheckRow[] = [];
  input.queries.forEach((q, qi) => {
    const returnedSomewhere = input.tools.filter((t) => !q.owners.includes(t.name) && rankings.some((r) => r.returned[qi]!.includes(t.name)));
    for (const tool of [...q.owners, ...returnedSomewhere.map((t) => t.name)]) {
      const ranks = Object.fromEntries(releases.map((rel, ri) => [rel.version, rankIn(rankings[ri]!.returned[qi]!, tool)]));
      out.push({ tool, query: q.text, ranks });
    }
  });
  return out;
}

function unfoundTools(input: CheckInput, missed: Missed[], probes: Array<ReleaseProbes | null>, releases: CheckRelease[], deferred: ClientTool[]): Unfound[] {
  const out: Unfound[] = [];
  for (const t of input.tools.filter((x) => !x.alwaysLoad)) {
    const on = releases.map((rel, ri) => ({ rel, ri })).filter(({ ri }) => missed[ri]!.has(t.name));
    if (!on.length) continue;
    const reasons = Object.fromEntries(on.map(({ rel, ri }) => [rel.version, unfoundReason(t, missed[ri]!.get(t.name)!, deferred, probes[ri]!)]));
    out.push({ tool: t.name, releases: on.map(({ rel }) => rel.version), reasons });
  }
  return out;
}
