/**
 * Witnesses by search: inputs on which two lifted modules answer differently. Candidate calls (whatever the
 * routine's generator yields, best first) run in batches on both modules, each module in its own sandbox
 * child per batch, until the budget (calls and seconds) is spent. Differences are grouped by their kind (the
 * routine says what a kind is); the first of each kind is shrunk (verify.ts's shrinkCandidates: fewer tools,
 * a shorter query, fewer tool fields) while it stays a difference of the same kind, and every witness
 * reported is replayed on fresh children of both modules, so that each one stands on its own.
 */
import type { CallResult } from "../verify/sandbox.js";
import { resultsAgree, shrinkCandidates } from "../verify/verify.js";
import { runCalls, type ContractCall, type Side } from "./witness-run.js";

/** What a call returned, or `{ error }` when it threw. */
export type Answer = unknown;

export interface Witness extends ContractCall {
  before: Answer;
  after: Answer;
}

export interface Budget {
  /** Candidate calls run at most (each on both modules). */
  cases: number;
  /** Wall-clock seconds for searching and shrinking (replaying the witnesses found comes after). */
  seconds: number;
}

export const DEFAULT_BUDGET: Budget = { cases: 3000, seconds: 6 };

export interface SearchOptions {
  budget?: Budget;
  /** Calls run first on each module (probes), their results returned as they are; not candidates. */
  prelude?: readonly ContractCall[];
  /** The kind of a difference: witnesses of one kind are one witness. */
  kindOf: (w: Witness) => string;
  /** Witnesses reported at most. */
  max?: number;
}

export interface SearchOutcome {
  witnesses: Witness[];
  searched: number;
  seconds: number;
  prelude: [CallResult[], CallResult[]];
}

/** Calls per batch: a child costs ~0.3–0.7 s to start and evaluate a release's module, a call ~0.1–1 ms. */
const BATCH = 1000;
/** Shrinking candidates tried per witness and round. */
const SHRINK_PER_ROUND = 60;

export function answerOf(r: CallResult): Answer {
  return r.ok ? r.value : { error: r.error };
}

export async function searchWitnesses(a: Side, b: Side, candidates: Iterable<ContractCall>, opts: SearchOptions): Promise<SearchOutcome> {
  const t0 = performance.now();
  const budget = opts.budget ?? DEFAULT_BUDGET;
  const max = opts.max ?? 10;
  const prelude = opts.prelude ?? [];
  // Searching stops at half the time, leaving the rest to shrinking.
  const searchUntil = t0 + budget.seconds * 500;
  const shrinkUntil = t0 + budget.seconds * 1000;
  const found = new Map<string, Witness>();
  const it = candidates[Symbol.iterator]();
  let searched = 0;
  let preludeResults: [CallResult[], CallResult[]] = [[], []];
  let first = true;
  while (searched < budget.cases && (first || performance.now() < searchUntil)) {
    const batch: ContractCall[] = [];
    for (let n = Math.min(BATCH, budget.cases - searched); batch.length < n; ) {
      const next = it.next();
      if (next.done) break;
      batch.push(next.value);
    }
    if (batch.length === 0 && !first) break;
    const calls = first ? [...prelude, ...batch] : batch;
    const [ra, rb] = await Promise.all([runCalls(a, calls), runCalls(b, calls)]);
    const skip = first ? prelude.length : 0;
    if (first) preludeResults = [ra.slice(0, skip), rb.slice(0, skip)];
    first = false;
    batch.forEach((c, i) => {
      const [x, y] = [ra[skip + i]!, rb[skip + i]!];
      if (resultsAgree(x, y)) return;
      const w: Witness = { ...c, before: answerOf(x), after: answerOf(y) };
      const kind = opts.kindOf(w);
      if (!found.has(kind)) found.set(kind, w);
    });
    searched += batch.length;
    if (batch.length === 0) break;
  }
  const shrunk = await shrinkAll(a, b, [...found.values()].slice(0, max + 4), opts.kindOf, shrinkUntil);
  const witnesses = await replayed(a, b, shrunk);
  const distinct = new Map<string, Witness>();
  for (const w of witnesses) if (!distinct.has(opts.kindOf(w))) distinct.set(opts.kindOf(w), w);
  return { witnesses: [...distinct.values()].slice(0, max), searched, seconds: (performance.now() - t0) / 1000, prelude: preludeResults };
}

function callOf(w: ContractCall): ContractCall {
  return { fn: w.fn, query: w.query, deferred: w.deferred, loaded: w.loaded, ...(w.maxResults !== undefined ? { maxResults: w.maxResults } : {}) };
}

/** Smaller calls of the same function, as verify.ts shrinks a disagreement. */
function smaller(w: Witness, seen: Set<string>): ContractCall[] {
  const out: ContractCall[] = [];
  for (const c of shrinkCandidates({ query: w.query, deferred: w.deferred, loaded: w.loaded, ...(w.maxResults !== undefined ? { maxResults: w.maxResults } : {}) })) {
    const call: ContractCall = { fn: w.fn, query: c.query, deferred: c.deferred, loaded: c.loaded ?? [], ...(c.maxResults !== undefined ? { maxResults: c.maxResults } : {}) };
    const key = JSON.stringify(call);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(call);
    if (out.length >= SHRINK_PER_ROUND) break;
  }
  return out;
}

/** Greedy shrinking of every witness at once: one batch per round holds the candidates of all of them. */
async function shrinkAll(a: Side, b: Side, start: Witness[], kindOf: (w: Witness) => string, until: number): Promise<Witness[]> {
  const cur = [...start];
  const kinds = cur.map(kindOf);
  const seen = cur.map((w) => new Set([JSON.stringify(callOf(w))]));
  const active = new Set(cur.map((_, i) => i));
  while (active.size > 0 && performance.now() < until) {
    const owners: number[] = [];
    const calls: ContractCall[] = [];
    for (const i of active) {
      const cands = smaller(cur[i]!, seen[i]!);
      if (cands.length === 0) active.delete(i);
      for (const c of cands) {
        owners.push(i);
        calls.push(c);
      }
    }
    if (calls.length === 0) break;
    const [ra, rb] = await Promise.all([runCalls(a, calls), runCalls(b, calls)]);
    const moved = new Set<number>();
    calls.forEach((c, k) => {
      const i = owners[k]!;
      if (moved.has(i) || resultsAgree(ra[k]!, rb[k]!)) return;
      const w: Witness = { ...c, before: answerOf(ra[k]!), after: answerOf(rb[k]!) };
      if (kindOf(w) !== kinds[i]) return;
      cur[i] = w;
      moved.add(i);
    });
    for (const i of active) if (!moved.has(i)) active.delete(i);
  }
  return cur;
}

/** The witnesses that still differ when run alone on fresh children, with those answers. */
async function replayed(a: Side, b: Side, ws: Witness[]): Promise<Witness[]> {
  if (ws.length === 0) return [];
  const calls = ws.map(callOf);
  const [ra, rb] = await Promise.all([runCalls(a, calls), runCalls(b, calls)]);
  return calls.flatMap((c, i) => (resultsAgree(ra[i]!, rb[i]!) ? [] : [{ ...c, before: answerOf(ra[i]!), after: answerOf(rb[i]!) }]));
}
