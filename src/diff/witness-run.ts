/**
 * Running contract calls with their own tools on one lifted module in the sandbox, many at a time: the
 * engine under the witness search (witness-search.ts) and the probes. A module's script gets tables of the
 * queries and tool lists its calls use (each sent once, inside the script), and each call names its entries by
 * index, so three calls over one 300-tool catalog send the catalog once, not three times.
 *
 * A failing call is an answer like any other (the module throws on that input), not the module's failure:
 * the witness search compares failures too. Only a script that does not evaluate, or a sandbox that dies,
 * fails the run.
 */
import type { ContractCall, ContractTool as Tool } from "../routines/contract.js";
import { runInSandbox, type CallResult, type SandboxOptions } from "../verify/sandbox.js";
import { COVERAGE_EXPORT } from "./coverage.js";

export type { ContractCall };

/** Limits of one child: every call of a batch within the wall clock, each call within 2 s of CPU (a
 *  release answers in milliseconds; a call that runs 2 s is stopped and counts as a failure), and no more calls
 *  once 3 have timed out or overflowed the stack: code that spins or recurses without end on every input fails
 *  the run in seconds, not after a batch's calls × 2 s (the module cannot be compared; see runPrepared). */
export const WITNESS_SANDBOX: SandboxOptions = {
  timeoutMs: 120_000,
  memoryMb: 512,
  callTimeoutMs: 2_000,
  scriptTimeoutMs: 10_000,
  maxTimeouts: 3,
};

/** Called in the sandbox as (fn, queryIndex, deferredIndex, loadedIndex, maxResults | null[, callIndex]); the
 *  call's index goes to an instrumented module's recorder (coverage.ts) first. */
const CALL = "__searchlift_call";
/** An instrumented module's recorder, and the call that reads it after the others. */
const COVERAGE = COVERAGE_EXPORT;
const REACHED = "__searchlift_reached";
const SEEN = "__searchlift_seen";

/**
 * The script's tail: the queries and tool lists, as literals (JSON is JavaScript, and a literal is escaped once
 * where a JSON text inside a string literal would be escaped twice, then again in the request), and the
 * function each call goes through.
 */
function harness(queries: string[], lists: Tool[][]): string {
  return `;(function (queries, lists) {
  var api = globalThis.__searchlift;
  if (api === null || typeof api !== "object") return;
  var missing = ["searchTools", "scoreTools", "toolSearch"].filter(function (k) { return typeof api[k] !== "function"; });
  if (missing.length) throw new Error("not a lifted tool-search module: no " + missing.join(", ") + " export");
  Object.defineProperty(api, ${JSON.stringify(CALL)}, { value: function (fn, q, d, l, max, k) {
    if (k !== undefined) api.${COVERAGE}(k);
    var options = { loaded: lists[l] };
    if (max !== null) options.maxResults = max;
    return api[fn](queries[q], lists[d], options);
  } });
  if (typeof api.${COVERAGE} === "function") {
    Object.defineProperty(api, ${JSON.stringify(REACHED)}, { value: function () { return api.${COVERAGE}(); } });
    Object.defineProperty(api, ${JSON.stringify(SEEN)}, { value: function () { return api.${COVERAGE}("seen"); } });
  }
})(${JSON.stringify(queries)}, ${JSON.stringify(lists)});\n`;
}

/** A module as the search runs it: its sandbox script, and a label for messages. */
export interface Side {
  script: string;
  label: string;
}

/** The module cannot be run (it does not evaluate, or its child died): no answer of it can be compared. */
export class ModuleRunError extends Error {
  constructor(
    message: string,
    readonly label: string,
  ) {
    super(message);
  }
}

/** Calls made ready for the sandbox: the script tail holding their tool lists, and the calls naming them. */
interface PreparedCalls {
  tail: string;
  sandboxCalls: Array<{ fn: string; args: unknown[] }>;
}

/** The tool lists of `calls`, each sent once: the same array is found by identity (cheap), an equal one by
 *  its text, so that the catalog of a thousand calls is neither stringified a thousand times nor sent twice. */
function prepare(calls: readonly ContractCall[], reach = false): PreparedCalls {
  const lists: Tool[][] = [];
  const byArray = new Map<Tool[], number>();
  const byText = new Map<string, number>();
  const listIndex = (l: Tool[]) => {
    let i = byArray.get(l);
    if (i !== undefined) return i;
    const key = JSON.stringify(l);
    i = byText.get(key);
    if (i === undefined) {
      i = lists.length;
      lists.push(l);
      byText.set(key, i);
    }
    byArray.set(l, i);
    return i;
  };
  // A long query goes to the three functions: sent once too.
  const queries: string[] = [];
  const queryIndex = new Map<string, number>();
  const indexOfQuery = (q: string) => {
    let i = queryIndex.get(q);
    if (i === undefined) {
      i = queries.push(q) - 1;
      queryIndex.set(q, i);
    }
    return i;
  };
  const sandboxCalls = calls.map((c, k) => ({
    fn: CALL,
    args: [c.fn, indexOfQuery(c.query), listIndex(c.deferred), listIndex(c.loaded), c.maxResults ?? null, ...(reach ? [k] : [])],
  }));
  return { tail: harness(queries, lists), sandboxCalls };
}

async function runPrepared(side: Side, p: PreparedCalls, options: SandboxOptions): Promise<CallResult[]> {
  const run = await runInSandbox(side.script + p.tail, p.sandboxCalls, options);
  if (run.scriptError !== undefined)
    throw new ModuleRunError(`the lifted module cannot be run (in the sandbox): ${run.scriptError}`, side.label);
  // The caller's time bound stopped the run: what did run is returned, the rest says so in its limit.
  if (options.signal?.aborted) return run.results;
  // A killed child leaves the rest of its calls unanswered: no comparison can use them.
  if (run.failure) throw new ModuleRunError(`the lifted module failed in the sandbox: ${run.failure.message}`, side.label);
  // So does a child that gave up after calls that timed out or overflowed the stack (the sandbox's own status).
  const gaveUp = run.results.find((r): r is { ok: false; error: string } => !r.ok && r.limit === "gave-up");
  if (gaveUp) throw new ModuleRunError(`the lifted module failed in the sandbox: ${gaveUp.error}`, side.label);
  return run.results;
}

/** Each call's result on one module, in order. */
export async function runCalls(
  side: Side,
  calls: readonly ContractCall[],
  options: SandboxOptions = WITNESS_SANDBOX,
): Promise<CallResult[]> {
  return runPrepared(side, prepare(calls), options);
}

/** Each call's result on both modules (a child each, side by side), the calls prepared once for both. With
 *  `options.signal` aborted, the calls not run by then fail with a sandbox limit (CallResult's `limit`). */
export async function runCallsOnBoth(
  a: Side,
  b: Side,
  calls: readonly ContractCall[],
  options: SandboxOptions = WITNESS_SANDBOX,
): Promise<[CallResult[], CallResult[]]> {
  const p = prepare(calls);
  return Promise.all([runPrepared(a, p, options), runPrepared(b, p, options)]);
}

/** Each call's result on both instrumented modules (coverage.ts), and for each side the probes reached: probe
 *  index → the index of the first call that reached it. */
export async function runCallsReaching(
  a: Side,
  b: Side,
  calls: readonly ContractCall[],
  options: SandboxOptions = WITNESS_SANDBOX,
): Promise<Reaching> {
  const p = prepare(calls, true);
  const withReadout = { ...p, sandboxCalls: [...p.sandboxCalls, { fn: REACHED, args: [] }, { fn: SEEN, args: [] }] };
  const [ra, rb] = await Promise.all([runPrepared(a, withReadout, options), runPrepared(b, withReadout, options)]);
  // Both readouts are lists of pairs: [probe, call] and [string, calls].
  const readout = <K, V = number>(r: CallResult[], at: number) => {
    const out = r.length > calls.length + at ? r[calls.length + at] : undefined;
    return new Map<K, V>(out?.ok && Array.isArray(out.value) ? (out.value as Array<[K, V]>) : []);
  };
  return {
    results: [ra.slice(0, calls.length), rb.slice(0, calls.length)],
    reached: [readout<number>(ra, 0), readout<number>(rb, 0)],
    seen: [readout<string, number[]>(ra, 1), readout<string, number[]>(rb, 1)],
  };
}

/** Each call's result on both sides; the probes each side reached, each with the index of the call that first got
 *  there, and the strings its changed code compared, each with the first few calls that made it. */
export interface Reaching {
  results: [CallResult[], CallResult[]];
  reached: [Map<number, number>, Map<number, number>];
  seen: [Map<string, number[]>, Map<string, number[]>];
}
