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
import { runInSandbox, type SandboxOptions } from "../verify/sandbox.js";
import { contractTool, type ClientTool } from "./naming.js";

export interface ModuleRanking {
  module: string;
  version: string;
  platform: string;
  /** Per query (in the order given), the names toolSearch returned, in order. */
  returned: string[][];
}

/** Limits of one module's child: every query (a few hundred calls), each within 5 s of CPU. */
const CHECK_SANDBOX: SandboxOptions = { timeoutMs: 120_000, memoryMb: 512, callTimeoutMs: 5_000, scriptTimeoutMs: 10_000 };
const ASK = "__searchlift_check";

/** A lifted module's text made into a sandbox script, refused (brokenModule) when the static check finds a way out. */
export function checkedScript(path: string): string {
  return sandboxScript(readFileSync(path, "utf8"), path);
}

/** Added after the module's script: `ASK(query)` calls toolSearch with the same tool objects each time (a
 *  release memoises per tool object, as the client's objects live across calls). */
function harness(deferred: ClientTool[], loaded: ClientTool[]): string {
  const json = (ts: ClientTool[]) => JSON.stringify(JSON.stringify(ts.map(contractTool)));
  return `;(function (deferredText, loadedText) {
  var api = globalThis.__searchlift;
  if (api === null || typeof api !== "object") return;
  var deferred = JSON.parse(deferredText), options = { loaded: JSON.parse(loadedText) };
  Object.defineProperty(api, ${JSON.stringify(ASK)}, { value: function (query) {
    if (typeof api.toolSearch !== "function") throw new Error("not a lifted tool-search module: no toolSearch export");
    return api.toolSearch(query, deferred, options);
  } });
})(${json(deferred)}, ${json(loaded)});\n`;
}

export async function rankWithModule(path: string, script: string, tools: ClientTool[], queries: string[]): Promise<ModuleRanking> {
  const deferred = tools.filter((t) => !t.alwaysLoad);
  const loaded = tools.filter((t) => t.alwaysLoad);
  const calls = [{ fn: "provenance", args: [] }, ...queries.map((q) => ({ fn: ASK, args: [q] }))];
  const run = await runInSandbox(script + harness(deferred, loaded), calls, CHECK_SANDBOX);
  const broken = (m: string) => new SearchliftError(m, ExitCode.brokenModule, path);
  if (run.scriptError !== undefined) throw broken(`the lifted module throws when evaluated (in the sandbox): ${run.scriptError}`);
  const [prov, ...answers] = run.results;
  const returned = answers.map((r, i) => {
    if (!r.ok) throw broken(`toolSearch failed on query ${JSON.stringify(queries[i])}: ${r.error}`);
    if (!Array.isArray(r.value) || !r.value.every((x) => typeof x === "string")) throw broken(`toolSearch did not return a list of names for ${JSON.stringify(queries[i])}`);
    return r.value as string[];
  });
  const p = (prov?.ok && typeof prov.value === "object" && prov.value !== null ? prov.value : {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === "string" && v ? v : "unknown");
  return { module: path, version: str(p["version"]), platform: str(p["platform"]), returned };
}
