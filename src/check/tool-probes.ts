/**
 * Probe calls on a release's lifted module with tools we make up or edit, for `--explain` on missed tools
 * (explain-missed.ts) and `--suggest` (suggest.ts): a tool scored alone on one word, and the catalog searched
 * with one tool replaced by an edited copy. Like rank.ts, the module only ever runs in a sandbox child; the
 * catalog travels once inside the script, each call carries only the query and the one tool.
 */
import { runInSandbox, type SandboxOptions } from "../verify/sandbox.js";
import { checkedScript } from "./rank.js";
import { contractTool, type ClientTool } from "./naming.js";

/** A tool as the contract receives it (what crosses into the sandbox). */
export type ContractTool = Omit<ClientTool, "alwaysLoad">;

export type ToolProbe =
  /** scoreTools(query, [tool], { loaded: [] }): the tool's score alone. */
  | { kind: "score"; query: string; tool: ContractTool }
  /** toolSearch(query, deferred with deferred[index] replaced by tool, { loaded }): the names returned. */
  | { kind: "search"; query: string; index: number; tool: ContractTool };

/** Per probe, its answer: a score, a list of names, or null where the module could not answer (no export, it threw). */
export type ProbeAnswer = number | string[] | null;

const NAMES = { score: "__searchlift_probe_score", search: "__searchlift_probe_search" } as const;
const OPTIONS: SandboxOptions = { timeoutMs: 180_000, memoryMb: 512, callTimeoutMs: 5_000, scriptTimeoutMs: 10_000, turbofan: false };

function harness(deferred: ClientTool[], loaded: ClientTool[]): string {
  const json = (ts: ClientTool[]) => JSON.stringify(JSON.stringify(ts.map(contractTool)));
  return `;(function (deferredText, loadedText, names) {
  var api = globalThis.__searchlift;
  if (api === null || typeof api !== "object") return;
  var define = function (name, fn) { Object.defineProperty(api, name, { value: fn }); };
  define(names.score, async function (query, tool) {
    var r = await api.scoreTools(query, [tool], { loaded: [] });
    return r[0].score;
  });
  define(names.search, async function (query, index, tool) {
    var deferred = JSON.parse(deferredText);
    deferred[index] = tool;
    return api.toolSearch(query, deferred, { loaded: JSON.parse(loadedText) });
  });
})(${json(deferred)}, ${json(loaded)}, ${JSON.stringify(NAMES)});\n`;
}

/** Runs the probes on one release in one sandbox child; `all` is the catalog as check ranks it (ours and --with). */
export async function runToolProbes(module: string, all: ClientTool[], probes: ToolProbe[]): Promise<ProbeAnswer[]> {
  if (!probes.length) return [];
  const deferred = all.filter((t) => !t.alwaysLoad);
  const loaded = all.filter((t) => t.alwaysLoad);
  const calls = probes.map((p) =>
    p.kind === "score" ? { fn: NAMES.score, args: [p.query, p.tool] } : { fn: NAMES.search, args: [p.query, p.index, p.tool] },
  );
  const run = await runInSandbox(checkedScript(module) + harness(deferred, loaded), calls, OPTIONS);
  if (run.scriptError !== undefined) return probes.map(() => null);
  return run.results.map((r, i) => {
    if (!r.ok) return null;
    const kind = probes[i]!.kind;
    if (kind === "score") return typeof r.value === "number" ? r.value : null;
    return Array.isArray(r.value) && r.value.every((x) => typeof x === "string") ? r.value : null;
  });
}

/** Memoised probes of one release: ask for every probe first (`want`), run them all at once, then read (`get`). */
export class ProbeBatch {
  private readonly keys = new Map<string, number>();
  private readonly probes: ToolProbe[] = [];
  private answers: ProbeAnswer[] = [];

  want(p: ToolProbe): void {
    const k = JSON.stringify(p);
    if (!this.keys.has(k)) {
      this.keys.set(k, this.probes.length);
      this.probes.push(p);
    }
  }

  async run(module: string, all: ClientTool[]): Promise<void> {
    this.answers = await runToolProbes(module, all, this.probes);
  }

  get(p: ToolProbe): ProbeAnswer {
    const i = this.keys.get(JSON.stringify(p));
    return i === undefined ? null : (this.answers[i] ?? null);
  }
}
