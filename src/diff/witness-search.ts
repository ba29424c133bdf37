/**
 * Witnesses by search: inputs on which two lifted modules answer differently. Candidate calls (whatever the
 * routine's generator yields, best first: the pack puts those built from the changed code first) run in batches
 * of fixed sizes on both modules, each module in its own sandbox child per batch, until the budget's calls are
 * spent or enough kinds are found. Differences are grouped by their kind (the routine says what a kind is); the
 * first of each kind is shrunk while it stays a difference of the same kind — first to the few tools its
 * answers name, then by verify.ts's shrinkCandidates (a shorter query, fewer tools and fields), in a fixed
 * number of rounds — and every witness reported is replayed on fresh children of both modules, so that each
 * one stands on its own.
 *
 * The same two modules give the same witnesses on every run, on any machine and under any load: every decision
 * (the batches, when to stop, what to shrink and for how long) is taken on work done and answers received, never
 * on the clock, and the candidates are a fixed sequence (the pack's generator is seeded). Bounded in work (the
 * budget's calls, SHRINK_ROUNDS rounds of at most SHRINK_PER_ROUND calls per witness, one replay; each call
 * within its CPU time, and a child gives up after 3 calls time out or overflow the stack). The one exception is
 * the caller's wall-clock safety net (SearchOptions.bound): when it is reached, the run in progress is stopped,
 * the search ends with what it has, and the outcome says so (`stopped`). A call that a sandbox limit stopped on
 * either side is never a witness: nothing was compared (`limitHits` counts them).
 */
import type { CallResult } from "../verify/sandbox.js";
import { shrinkCandidates } from "../verify/shrink.js";
import { hitLimit, resultsAgree } from "../verify/verify.js";
import { runCallsOnBoth, runCallsReaching, WITNESS_SANDBOX, type ContractCall, type Reaching, type Side } from "./witness-run.js";
import { comparedValueCalls, guidedCalls } from "./guided.js";

/** What a call returned, or `{ error }` when it threw. */
export type Answer = unknown;

export interface Witness extends ContractCall {
  before: Answer;
  after: Answer;
}

/** The search's work: never time (see the file's comment). */
export interface Budget {
  /** Candidate calls run at most (each on both modules), in batches of FIRST_BATCH, then BATCH calls. */
  cases: number;
}

export const DEFAULT_BUDGET: Budget = { cases: 3000 };

export interface SearchOptions {
  budget?: Budget;
  /** Calls run first on each module (probes), their results returned as they are; not candidates. */
  prelude?: readonly ContractCall[];
  /** The kind of a difference: witnesses of one kind are one witness. */
  kindOf: (w: Witness) => string;
  /** Witnesses reported at most. */
  max?: number;
  /** Names of the tools a difference is about (the routine reads them from the answers), tried first when shrinking. */
  focus?: (w: Witness) => string[];
  /** The overall wall-clock bound: aborted when `seconds` have passed (see behaviour.ts). */
  bound?: { signal: AbortSignal; seconds: number };
  /** Both modules instrumented at their changed code (coverage.ts): the search runs these copies, says which
   *  probes it reached, and spends GUIDED_CALLS more on edits of the calls that reached them (guided.ts). */
  coverage?: CoverageSides;
}

export interface CoverageSides {
  a: Side;
  b: Side;
  /** Probes in each copy. */
  points: [number, number];
  /** Words of the changed code, for the guided edits. */
  words: readonly string[];
  /** The tool fields the changed code reads (not JavaScript's built-ins), which the guided edits fill with the
   *  call's own query words. */
  fields?: readonly string[];
}

/** Which probes of each side the search reached. */
export interface Reach {
  reached: [Set<number>, Set<number>];
  points: [number, number];
}

export interface SearchOutcome {
  witnesses: Witness[];
  searched: number;
  seconds: number;
  prelude: [CallResult[], CallResult[]];
  /** Calls stopped by a sandbox limit on either side (never witnesses). */
  limitHits: number;
  /** Why the search ended before its work was done: its overall time bound was reached. */
  stopped?: string;
  /** With SearchOptions.coverage: the changed code the search ran. */
  reach?: Reach;
}

/** Calls in the first batch (after the prelude), and in each later one: fixed, so that where the search stops
 *  (enough kinds found) depends on the answers only. A batch costs a child per module; the default budget is
 *  800 + 1100 + 1100. */
const FIRST_BATCH = 800;
const BATCH = 1100;
/** Shrinking candidates tried per witness and round (after the tools round), and rounds at most: each round
 *  is a child per module, so a few wide rounds cost less than many narrow ones. */
const SHRINK_PER_ROUND = 80;
const SHRINK_ROUNDS = 4;
/** Characters of a query or of a tool's text past which a witness is shrunk by cutting its long texts only (see
 *  cutLongTexts): such a witness is mostly about that length (a cap), and verify.ts's cuts of every chunk of
 *  such a text cost more than all the calls of a round. */
const LONG_TEXT = 2000;

export function answerOf(r: CallResult): Answer {
  return r.ok ? r.value : { error: r.error };
}

/** Guided calls after the candidates, in rounds: each round edits the calls that reached probes the rounds
 *  before had not. A fixed number, as the budget is. */
const GUIDED_CALLS = 600;
const GUIDED_ROUNDS = 2;
/** Calls made from the strings the changed code compared, at most (guided.ts's comparedValueCalls). */
const COMPARED_CALLS = 400;
/** The guided edits' seed: fixed, so the same modules give the same calls. */
const GUIDED_SEED = 0x5ea1;

/** A pair of runs for the search: in the caller's bound, counting the calls a limit stopped. */
interface Runner {
  run(calls: readonly ContractCall[]): Promise<[CallResult[], CallResult[]]>;
  /** As run, on the instrumented copies where there are some: also the probes each call reached first, and the
   *  strings the changed code compared. */
  reaching(calls: readonly ContractCall[]): Promise<Reaching>;
  /** Whether two results say something: both ran to an answer (or a throw) of the code's own. */
  compared(x: CallResult, y: CallResult): boolean;
  readonly over: boolean;
  limitHits: number;
}

function runner(a: Side, b: Side, bound: SearchOptions["bound"], coverage: CoverageSides | undefined): Runner {
  const options = bound ? { ...WITNESS_SANDBOX, signal: bound.signal } : WITNESS_SANDBOX;
  const r: Runner = {
    run: (calls) => runCallsOnBoth(a, b, calls, options),
    reaching: async (calls) =>
      coverage
        ? runCallsReaching(coverage.a, coverage.b, calls, options)
        : {
            results: await runCallsOnBoth(a, b, calls, options),
            reached: [new Map<number, number>(), new Map<number, number>()],
            seen: [new Map<string, number[]>(), new Map<string, number[]>()],
          },
    compared(x, y) {
      if (!hitLimit(x) && !hitLimit(y)) return true;
      r.limitHits++;
      return false;
    },
    get over() {
      return bound?.signal.aborted === true;
    },
    limitHits: 0,
  };
  return r;
}

export async function searchWitnesses(a: Side, b: Side, candidates: Iterable<ContractCall>, opts: SearchOptions): Promise<SearchOutcome> {
  // Read for the outcome's `seconds` only: no decision below depends on it.
  const t0 = performance.now();
  const run = runner(a, b, opts.bound, opts.coverage);
  const budget = opts.budget ?? DEFAULT_BUDGET;
  const max = opts.max ?? 10;
  const found = new Map<string, Witness>();
  const compare = (c: ContractCall, x: CallResult, y: CallResult) => {
    if (!run.compared(x, y) || resultsAgree(x, y)) return;
    const w: Witness = { ...c, before: answerOf(x), after: answerOf(y) };
    const kind = opts.kindOf(w);
    if (!found.has(kind)) found.set(kind, w);
  };
  const reach = new ReachLog();
  const it = candidates[Symbol.iterator]();
  let searched = 0;
  let prelude: readonly ContractCall[] = opts.prelude ?? [];
  let preludeResults: [CallResult[], CallResult[]] | undefined;
  // Enough kinds found: the rest of the budget would only find more of the same, at the cost of the report's length.
  while (searched < budget.cases && found.size < max + 4 && !run.over) {
    const batch = take(it, Math.min(preludeResults ? BATCH : FIRST_BATCH, budget.cases - searched));
    if (batch.length === 0 && preludeResults) break;
    const all = [...prelude, ...batch];
    const { results, reached, seen } = await run.reaching(all);
    const [ra, rb] = results;
    const skip = prelude.length;
    preludeResults ??= [ra.slice(0, skip), rb.slice(0, skip)];
    prelude = [];
    reach.record(all, reached, seen);
    batch.forEach((c, i) => compare(c, ra[skip + i]!, rb[skip + i]!));
    searched += batch.length;
    if (batch.length === 0) break;
  }
  // The strings the changed code compared, put into the calls that made them: a name the code looks for is given.
  if (opts.coverage && found.size < max + 4 && !run.over) {
    const calls = comparedValueCalls(reach.comparedValues(), COMPARED_CALLS);
    const { results, reached, seen } = await run.reaching(calls);
    reach.record(calls, reached, seen);
    calls.forEach((c, i) => compare(c, results[0][i]!, results[1][i]!));
    searched += calls.length;
  }
  // Guided rounds: edits of the calls that got to changed code, for the differences there that the candidates missed.
  let seeds = reach.firstReachers();
  for (let round = 0; opts.coverage && round < GUIDED_ROUNDS && seeds.length > 0 && found.size < max + 4 && !run.over; round++) {
    const calls = guidedCalls(seeds, opts.coverage.words, GUIDED_CALLS / GUIDED_ROUNDS, GUIDED_SEED + round, opts.coverage.fields);
    const { results, reached, seen } = await run.reaching(calls);
    const before = reach.size();
    const fresh = reach.record(calls, reached, seen);
    calls.forEach((c, i) => compare(c, results[0][i]!, results[1][i]!));
    searched += calls.length;
    seeds = reach.size() > before ? fresh : seeds;
  }
  const focus = opts.focus ?? (() => []);
  const shrunk = await shrinkAll(run, [...found.values()].slice(0, max + 4), { kindOf: opts.kindOf, focus });
  // Past the bound nothing more runs: differences not replayed on their own are not reported.
  const witnesses = run.over ? [] : await replayed(run, shrunk);
  const distinct = new Map<string, Witness>();
  for (const w of witnesses) if (!distinct.has(opts.kindOf(w))) distinct.set(opts.kindOf(w), w);
  let stopped: string | undefined;
  if (run.over && opts.bound) {
    const lost = shrunk.length > 0 ? `; ${shrunk.length} difference(s) found were not replayed and are not shown` : "";
    stopped = `the behaviour search reached its overall bound of ${opts.bound.seconds} s after ${searched} cases${lost}`;
  }
  return {
    witnesses: [...distinct.values()].slice(0, max),
    searched,
    seconds: (performance.now() - t0) / 1000,
    prelude: preludeResults ?? [[], []],
    limitHits: run.limitHits,
    ...(stopped !== undefined ? { stopped } : {}),
    ...(opts.coverage ? { reach: { reached: reach.reached, points: opts.coverage.points } } : {}),
  };
}

/** The probes reached on each side, and the call that reached each first; the strings compared, and the call that
 *  made each first. */
class ReachLog {
  readonly reached: [Set<number>, Set<number>] = [new Set(), new Set()];
  private by: ContractCall[] = [];
  private values = new Map<string, ContractCall[]>();

  /** Adds a batch's probes and compared strings; returns the calls that reached a probe no earlier batch had. */
  record(calls: readonly ContractCall[], maps: Reaching["reached"], seen: Reaching["seen"]): ContractCall[] {
    for (const m of seen)
      for (const [value, ks] of m) {
        const known = this.values.get(value) ?? [];
        const made = ks.map((k) => calls[k]).filter((c): c is ContractCall => c !== undefined && !known.includes(c));
        this.values.set(value, [...known, ...made].slice(0, 4));
      }
    const fresh = new Set<ContractCall>();
    maps.forEach((m, side) => {
      for (const [point, k] of m) {
        if (this.reached[side]!.has(point)) continue;
        this.reached[side]!.add(point);
        const call = calls[k];
        if (call) fresh.add(call);
      }
    });
    this.by.push(...fresh);
    return [...fresh];
  }

  firstReachers(): ContractCall[] {
    return [...this.by];
  }

  /** The strings compared so far, in the order first seen (the first module's first), each with the first calls
   *  that made it. */
  comparedValues(): Array<[string, ContractCall[]]> {
    return [...this.values];
  }

  size(): number {
    return this.reached[0].size + this.reached[1].size;
  }
}

function take<T>(it: Iterator<T>, n: number): T[] {
  const out: T[] = [];
  while (out.length < n) {
    const next = it.next();
    if (next.done) break;
    out.push(next.value);
  }
  return out;
}

function callOf(w: ContractCall): ContractCall {
  return {
    fn: w.fn,
    query: w.query,
    deferred: w.deferred,
    loaded: w.loaded,
    ...(w.maxResults !== undefined ? { maxResults: w.maxResults } : {}),
  };
}

const size = (c: ContractCall) => c.deferred.length + c.loaded.length;
const longText = (c: ContractCall) =>
  c.query.length > LONG_TEXT ||
  [...c.deferred, ...c.loaded].some((t) => (t.description?.length ?? 0) > LONG_TEXT || (t.searchHint?.length ?? 0) > LONG_TEXT);

/** Smaller calls of the same function, as verify.ts shrinks a disagreement. */
function smaller(w: Witness, seen: Set<string>): ContractCall[] {
  const out: ContractCall[] = [];
  for (const c of shrinkCandidates({
    query: w.query,
    deferred: w.deferred,
    loaded: w.loaded,
    ...(w.maxResults !== undefined ? { maxResults: w.maxResults } : {}),
  })) {
    const call: ContractCall = {
      fn: w.fn,
      query: c.query,
      deferred: c.deferred,
      loaded: c.loaded ?? [],
      ...(c.maxResults !== undefined ? { maxResults: c.maxResults } : {}),
    };
    if (!fresh(call, seen)) continue;
    out.push(call);
    if (out.length >= SHRINK_PER_ROUND) break;
  }
  return out;
}

/** A witness with a long text made smaller by keeping the first half, three quarters or seven eighths of each
 *  such text (the query, a tool's description or searchHint), or by dropping that field. */
function cutLongTexts(w: Witness, seen: Set<string>): ContractCall[] {
  const heads = (s: string) => {
    const cps = [...s];
    return [2, 4 / 3, 8 / 7].map((d) => cps.slice(0, Math.floor(cps.length / d)).join(""));
  };
  const base = callOf(w);
  const out: ContractCall[] = [];
  if (w.query.length > LONG_TEXT) for (const q of heads(w.query)) out.push({ ...base, query: q });
  for (const list of ["deferred", "loaded"] as const)
    base[list].forEach((t, i) => {
      for (const field of ["description", "searchHint"] as const) {
        const text = t[field];
        if (text === undefined || text.length <= LONG_TEXT) continue;
        const { [field]: _drop, ...without } = t;
        for (const tool of [without, ...heads(text).map((h) => ({ ...t, [field]: h }))])
          out.push({ ...base, [list]: base[list].map((x, j) => (j === i ? tool : x)) });
      }
    });
  return out.filter((c) => fresh(c, seen));
}

function fresh(c: ContractCall, seen: Set<string>): boolean {
  const key = JSON.stringify(c);
  if (seen.has(key)) return false;
  seen.add(key);
  return true;
}

/** Few tools taken from a witness, each kept where it was (deferred or loaded): the tools its answers name
 *  (`focus`) alone, in pairs and together, and, for a long list, its halves and quarters; for a short list,
 *  each tool alone. One round of these takes a 300-tool witness to one or two tools, where dropping tools one
 *  chunk at a time takes many rounds. */
function fewTools(w: Witness, focus: readonly string[], seen: Set<string>): ContractCall[] {
  const pool = [...w.deferred.map((t) => ({ t, loaded: false })), ...w.loaded.map((t) => ({ t, loaded: true }))];
  const keep = (xs: typeof pool): ContractCall => ({
    ...callOf(w),
    deferred: xs.filter((x) => !x.loaded).map((x) => x.t),
    loaded: xs.filter((x) => x.loaded).map((x) => x.t),
  });
  const named = focus
    .slice(0, 8)
    .map((n) => pool.filter((x) => x.t.name === n))
    .filter((xs) => xs.length > 0);
  const sets: Array<typeof pool> = [];
  named.forEach((x, i) => {
    sets.push(x);
    for (const y of named.slice(i + 1)) sets.push([...x, ...y]);
  });
  if (named.length > 2) sets.push(named.flat());
  if (pool.length <= 40) for (const x of pool) sets.push([x]);
  else
    for (const parts of [2, 4])
      for (let i = 0; i < parts; i++)
        sets.push(pool.slice(Math.floor((i * pool.length) / parts), Math.floor(((i + 1) * pool.length) / parts)));
  return sets.map(keep).filter((c) => size(c) < size(w) && fresh(c, seen));
}

interface ShrinkRules {
  kindOf: (w: Witness) => string;
  focus: (w: Witness) => string[];
}

/**
 * Shrinking every witness at once, one batch per round for all of them: a first round of few-tools calls,
 * then rounds of verify.ts's smaller calls (a shorter query, fewer tools and fields), for a witness without a
 * long text (LONG_TEXT). Each round keeps, per
 * witness, the smallest call (fewest tools, then the shortest query) that is still a difference of its kind.
 */
async function shrinkAll(run: Runner, start: Witness[], rules: ShrinkRules): Promise<Witness[]> {
  const cur = [...start];
  const kinds = cur.map(rules.kindOf);
  const seen = cur.map((w) => new Set([JSON.stringify(callOf(w))]));
  const active = new Set(cur.map((_, i) => i));
  for (let round = 0; round <= SHRINK_ROUNDS && active.size > 0 && !run.over; round++) {
    const owners: number[] = [];
    const calls: ContractCall[] = [];
    for (const i of active) {
      const w = cur[i]!;
      const cands = round === 0 ? fewTools(w, rules.focus(w), seen[i]!) : longText(w) ? cutLongTexts(w, seen[i]!) : smaller(w, seen[i]!);
      if (cands.length === 0 && round > 0) active.delete(i);
      for (const c of cands) {
        owners.push(i);
        calls.push(c);
      }
    }
    if (calls.length === 0) continue;
    const [ra, rb] = await run.run(calls);
    const moved = new Set<number>();
    calls.forEach((c, k) => {
      const i = owners[k]!;
      if (!run.compared(ra[k]!, rb[k]!) || resultsAgree(ra[k]!, rb[k]!)) return;
      const w: Witness = { ...c, before: answerOf(ra[k]!), after: answerOf(rb[k]!) };
      if (rules.kindOf(w) !== kinds[i] || !smallerThan(w, cur[i]!)) return;
      cur[i] = w;
      moved.add(i);
    });
    if (round > 0) for (const i of active) if (!moved.has(i)) active.delete(i);
  }
  return cur;
}

/** Fewer tools, or as many and a shorter query, or as long a query and fewer characters in the tools. */
function smallerThan(x: ContractCall, y: ContractCall): boolean {
  if (size(x) !== size(y)) return size(x) < size(y);
  if (x.query.length !== y.query.length) return x.query.length < y.query.length;
  return JSON.stringify([x.deferred, x.loaded]).length < JSON.stringify([y.deferred, y.loaded]).length;
}

/** The witnesses that still differ when run alone on fresh children, with those answers. */
async function replayed(run: Runner, ws: Witness[]): Promise<Witness[]> {
  if (ws.length === 0) return [];
  const calls = ws.map(callOf);
  const [ra, rb] = await run.run(calls);
  return calls.flatMap((c, i) =>
    !run.compared(ra[i]!, rb[i]!) || resultsAgree(ra[i]!, rb[i]!) ? [] : [{ ...c, before: answerOf(ra[i]!), after: answerOf(rb[i]!) }],
  );
}
