/**
 * `searchlift check`: will Claude Code find an MCP server's tools? The server's tools (named as the client
 * names them), plus competitors, are ranked by each release's own tool search for each query; a tool that
 * none of its own queries returns on some release is unfound.
 */
import { assertSandboxable } from "../verify/sandbox-node.js";
import { ExitCode, SearchliftError } from "../errors.js";
import { compareBaseline, oldRanks, oldRanksOfRun, type Baseline, type SavedCheck } from "./baseline.js";
import { judgedOn, outcome, type Expectation, type ExpectationOutcome, type ExpectationResult } from "./expectations.js";
import { normalizeNamePart, type ClientTool } from "./naming.js";
import type { Query } from "./queries.js";
import { explain, explainRequests, type Explained } from "./explain.js";
import { checkedScript, rankWithModule, type ModuleRanking, type ProbeRequest, type ReleaseProbes } from "./rank.js";
import { expectationReason, unfoundReason } from "./reasons.js";
import { explainMissed, wantMissed, type MissedExplained } from "./explain-missed.js";
import { candidateEdits, edited, editProbe, measuredSuggestions, type ExpectationSuggestions } from "./suggest.js";
import { ProbeBatch } from "./tool-probes.js";
import { READ_PROBE_CAP } from "./rank.js";
import type { OnProgress } from "../progress.js";
import { competitorRows, distinctTools, rankIn, rows } from "./check-rows.js";

export { byPlace, MAX_FULL_ROWS } from "./check-rows.js";

export interface CheckRelease {
  /** The key of this release in `ranks`: its version, with its platform when two releases share a version. */
  version: string;
  platform: string;
  module: string;
  /** The most tools its tool search returned for one query when more matched (its max_results); null: no cut seen. */
  maxResults: number | null;
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

export interface CheckSummary {
  /** The server's tools (distinct client names), of which `loaded` are always loaded. */
  tools: number;
  loaded: number;
  queries: number;
  releases: number;
  /** met: on every release it is judged on; missed: on some; unjudged: judged on no release of this run. */
  expectations: { total: number; met: number; missed: number; unjudged: number };
  /** Rows left out (past MAX_FULL_ROWS query × tool pairs): tools a query is not for that no release returned. */
  omittedRows: number;
}

export interface CheckResult {
  server: string;
  releases: CheckRelease[];
  summary: CheckSummary;
  /** Every query asked, with the tools it is for (a tool none of its own queries returns is unfound). */
  queries: Query[];
  /** A row per query and tool of the server (deferred, or loaded and returned somewhere), returned or not. */
  results: CheckRow[];
  /** Other servers' tools (--with) some release returned for a query: the places they take from the server's tools. */
  competitors: CheckRow[];
  expectations: ExpectationResult[];
  unfound: Unfound[];
  /** The server's always-loaded tools: never searched for, so never unfound. */
  loaded: string[];
  /** Client names the client's renaming changed, with the name as the server lists it. */
  renamed: Record<string, string>;
  /** What the user should know beside the ranks: tools the renaming makes one, expectations judged nowhere. */
  warnings: string[];
  /** --baseline: the old catalog's ranks beside these. */
  baseline?: Baseline;
  /** --explain: per query and tool it missed (an expectation missed, or a query of its own), per release, each word's parts. */
  missed?: MissedItem[];
  /** --suggest: per missed expectation, the edits that place the tool higher, measured on each release. */
  suggestions?: ExpectationSuggestions[];
}

export interface MissedItem {
  query: string;
  tool: string;
  /** Per release where the query missed the tool (and the module reports scores). */
  explain: Record<string, MissedExplained>;
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
  /** Add each returned tool's score per query word (explain.ts), and each missed tool's parts (explain-missed.ts). */
  explain?: boolean;
  /** For each missed expectation, edits measured on every release it is judged on (suggest.ts). */
  suggest?: boolean;
  /**
   * What must hold, judged on each release; an expectation's query is asked (added when `queries` lacks it)
   * and is for its tool; on releases the expectation does not name, the query is not for that tool.
   */
  expectations?: Expectation[];
  /**
   * An earlier catalog to compare with: its tools (from a tools file, or from a server: `kind`, default "tools"),
   * ranked now with the same queries and releases, or a saved check.
   */
  baseline?: { source: string; tools: ClientTool[]; kind?: "tools" | "server" } | { source: string; saved: SavedCheck };
}

/**
 * `onProgress` is told each release as it is ranked (stage "check", k of n) and the steps after the ranking
 * that run in the sandbox again (--explain, --suggest, a baseline).
 */
export async function runCheck(input: CheckInput, onProgress?: OnProgress): Promise<CheckResult> {
  // The sandbox's one-time check runs while the modules are read and checked.
  assertSandboxable().catch(() => {});
  const expectations = input.expectations ?? [];
  for (const e of expectations)
    if (!input.tools.some((t) => t.name === e.tool))
      throw new SearchliftError(
        `expectation ${JSON.stringify(`${e.query}=>${e.tool}`)}: no tool of the server is named so`,
        ExitCode.usage,
      );
  const run: CheckInput = { ...input, queries: withExpectationQueries(input.queries, expectations) };
  const scripts = new Map(input.modules.map((m) => [m, checkedScript(m)]));
  const all = [...input.tools, ...input.competitors];
  const texts = run.queries.map((q) => q.text);
  // Scores and probes are asked in the same child as the ranks: a second child per release costs more than
  // scoring every query once more.
  const req = probeRequest(run, texts);
  let ranked = 0;
  const rankings = distinctReleases(
    await Promise.all(
      input.modules.map(async (m) => {
        const r = await rankWithModule(m, scripts.get(m)!, all, texts, req);
        onProgress?.({ stage: "check", message: `ranked with ${r.version} (${r.platform})`, done: ++ranked, total: input.modules.length });
        return r;
      }),
    ),
    input.log,
  );
  const releases = releaseKeys(rankings);
  const missed = rankings.map((r, ri) => missedQueries(run, r, releases[ri]!.version));
  const probes = rankings.map((r) => r.probes);
  const deferred = all.filter((t) => !t.alwaysLoad);
  const { rows: results, omitted } = rows(run, rankings, releases);
  if (input.explain) addExplanations(results, releases, probes, deferred);
  const judged = judge(run, rankings, releases, deferred);
  const ours = distinctTools(input.tools);
  const result: CheckResult = {
    server: input.server,
    releases,
    summary: { ...summary(ours, run.queries, releases, judged), omittedRows: omitted },
    queries: run.queries.map((q) => ({ text: q.text, owners: [...q.owners] })),
    results,
    competitors: competitorRows(run, rankings, releases),
    expectations: judged,
    unfound: unfoundTools(run, missed, probes, releases, deferred),
    loaded: ours.filter((t) => t.alwaysLoad).map((t) => t.name),
    renamed: Object.fromEntries(
      ours.filter((t) => normalizeNamePart(t.mcpInfo.toolName) !== t.mcpInfo.toolName).map((t) => [t.name, t.mcpInfo.toolName]),
    ),
    warnings: [...collisionWarnings(input.tools), ...judged.filter((e) => !Object.keys(e.results).length).map(unjudgedWarning)],
  };
  if (input.explain || input.suggest) {
    onProgress?.({
      stage: "check",
      message: input.suggest ? "measuring edits to the missed tools on every release" : "explaining the ranks",
    });
    await addAdvice(run, result, all, missed, probes);
  }
  if (input.baseline) {
    onProgress?.({ stage: "check", message: `the baseline, ${input.baseline.source}` });
    result.baseline = await baselineOf(input.baseline, run, result);
  }
  return result;
}

/**
 * --explain on missed tools and --suggest: one more sandbox child per release, with every probe both need
 * (the tool alone on each word, the catalog searched with an edited tool), read back into the result.
 */
async function addAdvice(
  run: CheckInput,
  result: CheckResult,
  all: ClientTool[],
  missed: Missed[],
  probes: ReleaseProbes[],
): Promise<void> {
  const releases = result.releases;
  const batches = releases.map(() => new ProbeBatch());
  const byVersion = new Map(releases.map((rel, ri) => [rel.version, batches[ri]!]));
  const tool = (name: string) => run.tools.find((t) => t.name === name)!;
  const pairs = new Map<string, { query: string; tool: string; on: number[] }>();
  const pair = (query: string, name: string, ri: number) => {
    const k = `${query}\0${name}`;
    const p = pairs.get(k) ?? { query, tool: name, on: [] };
    if (!p.on.includes(ri)) p.on.push(ri);
    pairs.set(k, p);
  };
  if (run.explain) {
    for (const e of result.expectations)
      releases.forEach((rel, ri) => {
        if (e.results[rel.version]?.met === false) pair(e.query, e.tool, ri);
      });
    missed.forEach((m, ri) => {
      for (const [name, qs] of m) for (const x of qs) pair(x.query, name, ri);
    });
    for (const p of pairs.values()) for (const ri of p.on) wantMissed(batches[ri]!, p.query, tool(p.tool));
  }
  const deferred = all.filter((t) => !t.alwaysLoad);
  const plans = run.suggest
    ? result.expectations
        .filter((e) => Object.values(e.results).some((o) => !o.met))
        .map((e) => {
          const t = tool(e.tool);
          const index = t.alwaysLoad ? -1 : deferred.findIndex((x) => x.name === t.name);
          const limits = Object.keys(e.results)
            .map((v) => probes[releases.findIndex((rel) => rel.version === v)]?.readLimit.description ?? null)
            .filter((n): n is number => n !== null && n >= 0 && n < READ_PROBE_CAP);
          // A rename onto a name the catalog already has would be two tools the answers cannot tell apart.
          const edits = (index < 0 ? [] : candidateEdits(t, e.query, limits.length ? Math.min(...limits) : null)).filter(
            (ed) => ed.toolName === undefined || !all.some((x) => x.name === edited(t, ed).name),
          );
          for (const v of Object.keys(e.results)) for (const ed of edits) byVersion.get(v)!.want(editProbe(e.query, index, t, ed));
          return { e, t, index, edits };
        })
    : [];
  await Promise.all(releases.map((rel, ri) => batches[ri]!.run(rel.module, all)));
  if (run.explain)
    result.missed = [...pairs.values()].flatMap((p) => {
      const entries = p.on.flatMap((ri) => {
        const x = explainMissed(batches[ri]!, p.query, tool(p.tool), probes[ri]!);
        return x ? [[releases[ri]!.version, x] as const] : [];
      });
      return entries.length ? [{ query: p.query, tool: p.tool, explain: Object.fromEntries(entries) }] : [];
    });
  if (run.suggest)
    result.suggestions = plans.map(({ e, t, index, edits }) => ({
      query: e.query,
      tool: e.tool,
      rank: e.rank,
      edits: measuredSuggestions(e, t, index, edits, byVersion),
    }));
}

/** The baseline's ranks beside the run's: a saved check as it was, or the old tools ranked now on the same queries. */
async function baselineOf(b: NonNullable<CheckInput["baseline"]>, run: CheckInput, now: CheckResult): Promise<Baseline> {
  if ("saved" in b) return compareBaseline(b.source, "saved", now, oldRanks(b.saved));
  const old = await runCheck({
    server: run.server,
    tools: b.tools,
    competitors: run.competitors,
    queries: run.queries,
    modules: run.modules,
  });
  return compareBaseline(b.source, b.kind ?? "tools", now, oldRanksOfRun(old));
}

/** The queries with every expectation's: a query already there becomes for the expected tool too. */
function withExpectationQueries(queries: Query[], expectations: Expectation[]): Query[] {
  const out = queries.map((q) => ({ text: q.text, owners: [...q.owners] }));
  for (const e of expectations) {
    const q = out.find((x) => x.text === e.query);
    if (!q) out.push({ text: e.query, owners: [e.tool] });
    else if (!q.owners.includes(e.tool)) q.owners.push(e.tool);
  }
  return out;
}

/** Whether a query is for a tool on a release: it is among its owners, and an expectation that made it so names the release. */
function ownsOn(input: CheckInput, q: Query, tool: string, release: string): boolean {
  if (!q.owners.includes(tool)) return false;
  const expected = (input.expectations ?? []).filter((e) => e.query === q.text && e.tool === tool);
  return !expected.length || expected.some((e) => judgedOn(e, release));
}

/** Tools the client's renaming gives one name: said once per name, with every name the server lists. */
function collisionWarnings(tools: ClientTool[]): string[] {
  const byName = new Map<string, string[]>();
  for (const t of tools) byName.set(t.name, [...(byName.get(t.name) ?? []), t.mcpInfo.toolName]);
  return [...byName]
    .filter(([, names]) => names.length > 1)
    .map(
      ([name, names]) =>
        `the server's tools ${names.map((n) => JSON.stringify(n)).join(" and ")} are all named ${name} by the client ` +
        `(every character outside [A-Za-z0-9_-] becomes _): their ranks cannot be told apart, and one row stands for them`,
    );
}

function unjudgedWarning(e: ExpectationResult): string {
  return `expectation ${JSON.stringify(`${e.query}=>${e.tool}`)} names releases none of which was ranked (${(e.releases ?? []).join(", ")}): not judged`;
}

function summary(
  tools: ClientTool[],
  queries: Query[],
  releases: CheckRelease[],
  judged: ExpectationResult[],
): Omit<CheckSummary, "omittedRows"> {
  const outcomes = judged.map((e) => Object.values(e.results));
  return {
    tools: tools.length,
    loaded: tools.filter((t) => t.alwaysLoad).length,
    queries: queries.length,
    releases: releases.length,
    expectations: {
      total: judged.length,
      met: outcomes.filter((o) => o.length && o.every((x) => x.met)).length,
      missed: outcomes.filter((o) => o.some((x) => !x.met)).length,
      unjudged: outcomes.filter((o) => !o.length).length,
    },
  };
}

/** Each expectation on each release it names: the tool's rank for its query there, met or not, and why not. */
function judge(input: CheckInput, rankings: ModuleRanking[], releases: CheckRelease[], deferred: ClientTool[]): ExpectationResult[] {
  return (input.expectations ?? []).map((e) => {
    const qi = input.queries.findIndex((q) => q.text === e.query);
    const tool = input.tools.find((t) => t.name === e.tool)!;
    const results: Record<string, ExpectationOutcome> = {};
    const reasons: Record<string, string> = {};
    releases.forEach((rel, ri) => {
      if (!judgedOn(e, rel.version)) return;
      const returned = rankings[ri]!.returned[qi]!;
      const o = outcome(rankIn(returned, e.tool), e.rank);
      results[rel.version] = o;
      if (!o.met) reasons[rel.version] = expectationReason(tool, e.query, returned, e.rank, deferred, rankings[ri]!.probes);
    });
    return { ...e, results, reasons };
  });
}

/** Per deferred tool of ours that none of its own queries returns on this release: those queries, as missed. */
type Missed = Map<string, Array<{ query: string; returned: string[] }>>;

function missedQueries(input: CheckInput, r: ModuleRanking, release: string): Missed {
  const out: Missed = new Map();
  for (const t of distinctTools(input.tools).filter((x) => !x.alwaysLoad)) {
    const own = input.queries.map((q, qi) => ({ q, qi })).filter(({ q }) => ownsOn(input, q, t.name, release));
    // A tool no query is for (on this release) is not judged: with expectations, only the tools they name are.
    if (!own.length || own.some(({ qi }) => r.returned[qi]!.includes(t.name))) continue;
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
    return { version: key, platform: r.platform, module: r.module, maxResults: r.probes.maxResults };
  });
}

function unfoundTools(
  input: CheckInput,
  missed: Missed[],
  probes: ReleaseProbes[],
  releases: CheckRelease[],
  deferred: ClientTool[],
): Unfound[] {
  const out: Unfound[] = [];
  for (const t of distinctTools(input.tools).filter((x) => !x.alwaysLoad)) {
    const on = releases.map((rel, ri) => ({ rel, ri })).filter(({ ri }) => missed[ri]!.has(t.name));
    if (!on.length) continue;
    const reasons = Object.fromEntries(
      on.map(({ rel, ri }) => [rel.version, unfoundReason(t, missed[ri]!.get(t.name)!, deferred, probes[ri]!)]),
    );
    out.push({ tool: t.name, releases: on.map(({ rel }) => rel.version), reasons });
  }
  return out;
}
