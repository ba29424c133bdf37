/**
 * The behaviour view of `searchlift diff`: both lifted modules answer the same queries over the
 * same catalog (src/routines/tool-search/catalogs.ts); the queries whose top results (names, or their scores)
 * differ are the behaviour changes. Keyword queries go through `searchTools`, `select:` queries
 * through `toolSearch` (the whole call, which is where `select:` lives); scores come from
 * `scoreTools`. A module of the MCPSearch era searches MCP tools only, so it gets the MCP tools as
 * its deferred tools and the built-ins as loaded ones, as the contract asks.
 *
 * A lifted module is code from an input, so it never runs in this process: it is checked statically
 * (purity.ts), then run in the sandbox (verify/sandbox.ts), one child per module holding every query of
 * the view; calls and results cross as JSON.
 */
import { ExitCode, SearchliftError } from "../errors.js";
import { impurities } from "../lift/purity.js";
import type { CatalogTool } from "../routines/tool-search/catalogs.js";
import type { Semantics } from "../routines/tool-search/semantics.js";
import { runInSandbox, type CallResult, type SandboxCall, type SandboxOptions } from "../verify/sandbox.js";
import { moduleToScript } from "../verify/verify.js";

export interface Searcher {
  /** The module as a sandbox script (moduleToScript): it sets `globalThis.__searchlift`. */
  script: string;
  /** The module searches MCP tools only (the MCPSearch era). */
  mcpOnly: boolean;
  /** For messages. */
  label: string;
}

/** A result and its keyword score; null for results of `select:` and of fast paths, which are not scored. */
export interface Ranked {
  name: string;
  score: number | null;
}

export interface BehaviourChange {
  query: string;
  before: Ranked[];
  after: Ranked[];
}

export interface Behaviour {
  queries: number;
  changed: BehaviourChange[];
}

/** What one module answered: each query's results, in the order of the queries, and its provenance. */
export interface ModuleAnswers {
  answers: Ranked[][];
  provenance?: { version?: string; platform?: string };
}

/** Limits of the child that runs one module: every query of the view (about 1 s for a release), each call
 *  within 5 s of CPU, the module's evaluation (which only defines functions) within 10 s. */
export const BEHAVIOUR_SANDBOX: SandboxOptions = { timeoutMs: 120_000, memoryMb: 512, callTimeoutMs: 5_000, scriptTimeoutMs: 10_000 };

/**
 * A lifted module's text checked and made into a sandbox script. Refused (brokenModule) when it does not
 * parse, when the static check finds a way to the host (the first one, with its place), or when it cannot
 * be made into a script (an import).
 */
export function sandboxScript(text: string, path: string): string {
  let found;
  try {
    found = impurities(text);
  } catch (e) {
    throw new SearchliftError(`refused: the module does not parse: ${(e as Error).message}`, ExitCode.brokenModule, path);
  }
  const first = found[0];
  if (first) throw new SearchliftError(`refused: the module uses ${first.what} at ${first.line}:${first.column}`, ExitCode.brokenModule, path);
  try {
    return moduleToScript(text);
  } catch (e) {
    throw new SearchliftError(`refused: ${(e as Error).message}`, ExitCode.brokenModule, path);
  }
}

const CONTRACT = ["searchTools", "scoreTools", "toolSearch"];
/** Read in the sandbox as a value (a call with no arguments): the contract's functions the module lacks. */
const MISSING = "__searchlift_missing";
/** Called in the sandbox as (fn, query): the module's `fn` with the view's tools. */
const ASK = "__searchlift_ask";

/**
 * What the view adds after a module's script: the catalog travels once, inside the script, and each call
 * carries only its query (a 46 kB catalog sent with each of 240 calls cost more than the calls themselves).
 * Every call gets the same tool objects, as when the module was imported: a release memoises per tool object
 * (parsed names, descriptions), and fresh copies made each call twice as slow.
 */
function harness(mcpOnly: boolean, catalog: CatalogTool[]): string {
  const deferred = mcpOnly ? catalog.filter(isMcp) : catalog;
  const options = mcpOnly ? { loaded: catalog.filter((t) => !isMcp(t)) } : {};
  return `;(function (deferredText, optionsText) {
  var api = globalThis.__searchlift, parse = JSON.parse;
  if (api === null || typeof api !== "object") return;
  Object.defineProperty(api, ${JSON.stringify(MISSING)}, { get: function () {
    return ${JSON.stringify(CONTRACT)}.filter(function (k) { return typeof api[k] !== "function"; });
  } });
  var deferred = parse(deferredText), options = parse(optionsText), busy = false, failed = false;
  Object.defineProperty(api, ${JSON.stringify(ASK)}, { value: function (fn, query) {
    // Only the first failure is reported: after one, or after a call that never finished (stopped by its
    // time limit), the rest fail at once instead of each using up its own time limit.
    if (busy || failed) throw new Error("not run: an earlier call failed or did not finish");
    busy = true;
    var result;
    try { result = api[fn](query, deferred, options); } catch (e) { busy = false; failed = true; throw e; }
    return Promise.resolve(result).then(
      function (v) { busy = false; return v; },
      function (e) { busy = false; failed = true; throw e; });
  } });
})(${JSON.stringify(JSON.stringify(deferred))}, ${JSON.stringify(JSON.stringify(options))});\n`;
}

/** The module searches MCP tools only (the MCPSearch era), as its semantics say. */
export function searchesMcpOnly(semantics: Semantics): boolean {
  return semantics.find((r) => r.feature === "searches")?.value === "MCP tools";
}

const SELECT = /^select:/i;

/** The calls that answer one query: `toolSearch` for `select:`, else `searchTools` and `scoreTools`. */
function queryCalls(query: string): SandboxCall[] {
  const fns = SELECT.test(query) ? ["toolSearch"] : ["searchTools", "scoreTools"];
  return fns.map((fn) => ({ fn: ASK, args: [fn, query] }));
}

/** One query's results from its calls' results (as queryCalls made them). */
function ranked(query: string, results: CallResult[]): Ranked[] {
  const failed = results.find((r) => !r.ok);
  if (failed && !failed.ok) throw new Error(failed.error);
  const [names, scored] = results.map((r) => (r.ok ? r.value : undefined));
  if (!isStringArray(names)) throw new Error(`${SELECT.test(query) ? "toolSearch" : "searchTools"} did not return a list of names`);
  if (SELECT.test(query)) return names.map((name) => ({ name, score: null }));
  if (!Array.isArray(scored)) throw new Error("scoreTools did not return a list");
  const scores = new Map(scored.map((r: { name?: unknown; score?: unknown }) => [r?.name, r?.score]));
  // Keyword results always score above 0: a result scoring 0 came from a fast path (exact name, mcp__ prefix), which scoreTools does not apply.
  return names.map((name) => {
    const score = scores.get(name);
    return { name, score: typeof score !== "number" || score <= 0 ? null : score };
  });
}

/** Run every query through one module, in one sandbox child. Any failure is the module's: brokenModule. */
export async function moduleAnswers(s: Searcher, catalog: CatalogTool[], queries: readonly string[]): Promise<ModuleAnswers> {
  const perQuery = queries.map(queryCalls);
  const calls: SandboxCall[] = [{ fn: MISSING, args: [] }, { fn: "provenance", args: [] }, ...perQuery.flat()];
  const run = await runInSandbox(s.script + harness(s.mcpOnly, catalog), calls, BEHAVIOUR_SANDBOX);
  const broken = (message: string) => new SearchliftError(message, ExitCode.brokenModule, s.label);
  if (run.scriptError !== undefined) throw broken(`the lifted module throws when evaluated (in the sandbox): ${run.scriptError}`);
  const [missing, provenance] = run.results;
  if (!missing?.ok) throw broken(`the lifted module cannot be run in the sandbox: ${missing?.error}`);
  if (!isStringArray(missing.value) || missing.value.length) throw broken(`not a lifted tool-search module: no ${isStringArray(missing.value) ? missing.value.join(", ") : "contract"} export`);
  const answers: Ranked[][] = [];
  let at = 2;
  for (let i = 0; i < queries.length; i++) {
    const n = perQuery[i]!.length;
    try {
      answers.push(ranked(queries[i]!, run.results.slice(at, at + n)));
    } catch (e) {
      throw broken(`the lifted module failed on query ${JSON.stringify(queries[i])}: ${(e as Error).message}`);
    }
    at += n;
  }
  return { answers, ...(provenance?.ok ? { provenance: provenanceOf(provenance.value) } : {}) };
}

/** The queries whose answers differ between two modules. */
export function compareAnswers(queries: readonly string[], a: Ranked[][], b: Ranked[][]): Behaviour {
  const changed: BehaviourChange[] = [];
  queries.forEach((query, i) => {
    const [before, after] = [a[i]!, b[i]!];
    if (JSON.stringify(before) !== JSON.stringify(after)) changed.push({ query, before, after });
  });
  return { queries: queries.length, changed };
}

function provenanceOf(v: unknown): { version?: string; platform?: string } {
  const p = (typeof v === "object" && v !== null ? v : {}) as Record<string, unknown>;
  return {
    ...(typeof p["version"] === "string" ? { version: p["version"] } : {}),
    ...(typeof p["platform"] === "string" ? { platform: p["platform"] } : {}),
  };
}

function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === "string");
}

function isMcp(t: CatalogTool): boolean {
  return t.isMcp ?? t.name.startsWith("mcp__");
}
