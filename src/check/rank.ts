/**
 * Ranking in the sandbox: each release's lifted module answers every query with its own
 * `toolSearch(query, deferred, { loaded })` — the whole call, where `select:` and the fast paths live — and a
 * tool's rank is its 1-based place in what came back. A lifted module is code from a release, so it never runs
 * in this process: it is checked statically (purity.ts), then run in a sandbox child (one per module, all its
 * queries batched), the tool lists travelling once inside the script.
 */
import { readFileSync } from "node:fs";
import { ExitCode, SearchliftError } from "../errors.js";
import { sandboxScript } from "../diff/behaviour.js";
import { runInSandbox, type CallResult, type SandboxOptions } from "../verify/sandbox.js";
import { contractTool, type ClientTool } from "./naming.js";

export interface ModuleRanking {
  module: string;
  version: string;
  platform: string;
  /** Per query (in the order given), the names toolSearch returned, in order. */
  returned: string[][];
  probes: ReleaseProbes;
}

/** Limits of one module's child: every query (a few hundred calls), each within 5 s of CPU. Too few calls
 *  to repay TurboFan's compiling (sandbox.ts). */
const CHECK_SANDBOX: SandboxOptions = { timeoutMs: 120_000, memoryMb: 512, callTimeoutMs: 5_000, scriptTimeoutMs: 10_000, turbofan: false };
const ASK = "__searchlift_check";

/** Scripts checked in this process, by path and text: a cached lift is checked when it is found and when it is ranked. */
const checked = new Map<string, { text: string; script: string }>();

/** A lifted module's text made into a sandbox script, refused (brokenModule) when the static check finds a way out. */
export function checkedScript(path: string): string {
  const text = readFileSync(path, "utf8");
  const known = checked.get(path);
  if (known?.text === text) return known.script;
  const script = sandboxScript(text, path);
  checked.set(path, { text, script });
  return script;
}

/** Names of the harness's functions on `globalThis.__searchlift` (non-enumerable, beside the module's exports). */
export const HARNESS = {
  ask: ASK,
  score: "__searchlift_check_score",
  bareSelect: "__searchlift_check_bare_select",
  readLimit: "__searchlift_check_read_limit",
  maxResults: "__searchlift_check_max_results",
} as const;

/** Tools the max_results probe offers, all matching its query: a release returning them all shows no cut. */
export const MAX_RESULTS_PROBE = 64;

/** Which of a tool's fields a score is measured without (for --explain's parts). */
export type ScoreVariant = "full" | "noHint" | "noDescription" | "nameOnly";

/** Characters of a probe description at most (a release that reads more reads "all" as far as we know). */
export const READ_PROBE_CAP = 1 << 16;

/** Added after the module's script: `ASK(query)` calls toolSearch with the same tool objects each time (a
 *  release memoises per tool object, as the client's objects live across calls). `SCORE(query, variant)` is
 *  scoreTools' scores, in deferred order, with hints and/or descriptions left out of every tool. The probes ask
 *  the release about a made-up tool: whether `select:` finds it by its bare name, and how far into a field
 *  (description, searchHint) a word still scores. */
function harness(deferred: ClientTool[], loaded: ClientTool[]): string {
  const json = (ts: ClientTool[]) => JSON.stringify(JSON.stringify(ts.map(contractTool)));
  return `;(function (deferredText, loadedText, names, cap) {
  var api = globalThis.__searchlift;
  if (api === null || typeof api !== "object") return;
  var deferred = JSON.parse(deferredText), options = { loaded: JSON.parse(loadedText) }, variants = { full: deferred };
  function need(fn) {
    if (typeof api[fn] !== "function") throw new Error("not a lifted tool-search module: no " + fn + " export");
  }
  function without(fields) {
    return deferred.map(function (t) {
      var c = Object.assign({}, t);
      fields.forEach(function (f) { delete c[f]; });
      return c;
    });
  }
  function variant(v) {
    if (!variants[v]) variants[v] = v === "noHint" ? without(["searchHint"]) : v === "noDescription" ? without(["description"]) : without(["searchHint", "description"]);
    return variants[v];
  }
  var probeName = "zz_searchlift_probe", probeServer = "searchlift_probe";
  function probe(extra) {
    return Object.assign({ name: "mcp__" + probeServer + "__" + probeName, description: "", isMcp: true, mcpInfo: { serverName: probeServer, toolName: probeName } }, extra);
  }
  async function scoresAt(field, offset) {
    var word = "qqzprobeword", filler = "x ".repeat(Math.ceil(offset / 2)).slice(0, offset), extra = {};
    extra[field] = filler + " " + word;
    var r = await api.scoreTools(word, [probe(extra)], { loaded: [] });
    return r[0].score > 0;
  }
  var define = function (name, fn) { Object.defineProperty(api, name, { value: fn }); };
  define(names.ask, function (query) { need("toolSearch"); return api.toolSearch(query, deferred, options); });
  define(names.score, async function (query, v) {
    need("scoreTools");
    var r = await api.scoreTools(query, variant(v), options);
    return r.map(function (x) { return x.score; });
  });
  define(names.bareSelect, async function () {
    need("toolSearch");
    var r = await api.toolSearch("select:" + probeName, [probe({ description: "probe" })], { loaded: [] });
    return r.indexOf(probe({}).name) >= 0;
  });
  /* How many tools a release returns at most, when more match: MAX_RESULTS_PROBE made-up tools that all score. */
  define(names.maxResults, async function (n) {
    need("toolSearch");
    var word = "qqzprobeword", many = [];
    for (var i = 0; i < n; i++) many.push(Object.assign(probe({ description: word + " " + i }), { name: "mcp__" + probeServer + "__" + word + "_" + i, mcpInfo: { serverName: probeServer, toolName: word + "_" + i } }));
    var r = await api.toolSearch(word, many, { loaded: [] });
    return Array.isArray(r) ? r.length : -1;
  });
  /* The end of the last probe word that still scores: -1 when none does, cap when the word at cap still does. */
  define(names.readLimit, async function (field) {
    need("scoreTools");
    if (!(await scoresAt(field, 0))) return -1;
    if (await scoresAt(field, cap)) return cap;
    var lo = 0, hi = cap;
    while (hi - lo > 1) {
      var mid = Math.floor((lo + hi) / 2);
      if (await scoresAt(field, mid)) lo = mid; else hi = mid;
    }
    return lo + 1 + "qqzprobeword".length;
  });
})(${json(deferred)}, ${json(loaded)}, ${JSON.stringify(HARNESS)}, ${READ_PROBE_CAP});\n`;
}

/** What the run asks a release beside its answers: scores and probes, for reasons and --explain. */
export interface ProbeRequest {
  scores: Array<{ query: string; variant: ScoreVariant }>;
  bareSelect: boolean;
  readLimits: boolean;
}

/** A release's answers; null where its module could not answer (no scoreTools, or it threw). */
export interface ReleaseProbes {
  /** By scoreKey(query, variant): each deferred tool's score, in catalog order. */
  scores: Map<string, number[] | null>;
  bareSelect: boolean | null;
  /** The end of the last word that still scores in that field; -1: none does; READ_PROBE_CAP: all probed. */
  readLimit: { description: number | null; searchHint: number | null };
  /** The most tools it returned for one query when MAX_RESULTS_PROBE matched; null: unknown, or no cut seen. */
  maxResults: number | null;
}

export const scoreKey = (query: string, variant: ScoreVariant) => `${variant}\0${query}`;

/** One sandbox child per release: provenance, toolSearch for every query, then the scores and probes asked. */
export async function rankWithModule(
  path: string,
  script: string,
  tools: ClientTool[],
  queries: string[],
  req: ProbeRequest,
): Promise<ModuleRanking> {
  const deferred = tools.filter((t) => !t.alwaysLoad);
  const loaded = tools.filter((t) => t.alwaysLoad);
  const probeCalls = [
    ...req.scores.map((s) => ({ fn: HARNESS.score, args: [s.query, s.variant] })),
    ...(req.bareSelect ? [{ fn: HARNESS.bareSelect, args: [] }] : []),
    ...(req.readLimits ? ["description", "searchHint"].map((f) => ({ fn: HARNESS.readLimit, args: [f] })) : []),
    { fn: HARNESS.maxResults, args: [MAX_RESULTS_PROBE] },
  ];
  const calls = [{ fn: "provenance", args: [] }, ...queries.map((q) => ({ fn: ASK, args: [q] })), ...probeCalls];
  const run = await runInSandbox(script + harness(deferred, loaded), calls, CHECK_SANDBOX);
  const broken = (m: string) => new SearchliftError(m, ExitCode.brokenModule, path);
  if (run.scriptError !== undefined) throw broken(`the lifted module throws when evaluated (in the sandbox): ${run.scriptError}`);
  const [prov, ...rest] = run.results;
  const returned = rest.slice(0, queries.length).map((r, i) => {
    if (!r.ok) throw broken(`toolSearch failed on query ${JSON.stringify(queries[i])}: ${r.error}`);
    if (!Array.isArray(r.value) || !r.value.every((x) => typeof x === "string"))
      throw broken(`toolSearch did not return a list of names for ${JSON.stringify(queries[i])}`);
    return r.value;
  });
  const p = (prov?.ok && typeof prov.value === "object" && prov.value !== null ? prov.value : {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === "string" && v ? v : "unknown");
  return {
    module: path,
    version: str(p["version"]),
    platform: str(p["platform"]),
    returned,
    probes: probeAnswers(req, rest.slice(queries.length)),
  };
}

/** The probes' answers; a call that failed (no scoreTools, it threw) leaves null: "reports no scores". */
function probeAnswers(req: ProbeRequest, results: CallResult[]): ReleaseProbes {
  const answer = <T>(i: number, ok: (v: unknown) => v is T): T | null => {
    const r = results[i];
    return r?.ok && ok(r.value) ? r.value : null;
  };
  const isScores = (v: unknown): v is number[] => Array.isArray(v) && v.every((x) => typeof x === "number");
  const isBool = (v: unknown): v is boolean => typeof v === "boolean";
  const isNum = (v: unknown): v is number => typeof v === "number";
  const scores = new Map(req.scores.map((s, i) => [scoreKey(s.query, s.variant), answer(i, isScores)]));
  let i = req.scores.length;
  const bareSelect = req.bareSelect ? answer(i++, isBool) : null;
  const readLimit = req.readLimits
    ? { description: answer(i, isNum), searchHint: answer(i + 1, isNum) }
    : { description: null, searchHint: null };
  if (req.readLimits) i += 2;
  const cut = answer(i, isNum);
  const maxResults = cut !== null && cut > 0 && cut < MAX_RESULTS_PROBE ? cut : null;
  return { scores, bareSelect, readLimit, maxResults };
}
