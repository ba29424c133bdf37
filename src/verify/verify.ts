/**
 * Does an emitted tool-search module behave exactly like the original code it was lifted from?
 *
 * Both sides run in the sandbox (one child per side, all calls of a batch in one request): the original as a
 * classic script that sets `globalThis.__searchlift = { searchTools, scoreTools, toolSearch }`, the emitted module
 * turned into such a script by rewriting its `export` statements (it has no imports, by contract). Every case is
 * passed to each function on both sides and the results compared as JSON values (deep equality; an error on
 * both sides agrees, whatever the messages). The first disagreement is shrunk, greedily, to a small case that
 * still disagrees: fewer tools, a shorter query, fewer tool fields.
 */
import type { ContractFn, ContractTool as Tool, VerifyCase } from "../routines/contract.js";
import { runInSandbox, type CallResult, type SandboxCall, type SandboxOptions } from "./sandbox.js";
import { assertSandboxable } from "./sandbox-node.js";
import { encodeArguments } from "./sandbox-wire.js";
import { moduleToScript } from "./module-script.js";
import { shrinkDisagreement } from "./shrink.js";

export const CONTRACT_FNS: readonly ContractFn[] = ["searchTools", "scoreTools", "toolSearch"];

/** One call's inputs; a CorpusCase is one. */
export type { ContractFn, VerifyCase };

export interface VerifyOptions {
  /** Functions compared, in this order. Default: all three of the contract. */
  fns?: readonly ContractFn[];
  /** Sandbox limits for each child. Defaults here: wall clock 10 min, heap 256 MB, 5 s per call, no restarts,
   *  the rest of a batch not run after 3 calls timed out. */
  sandbox?: SandboxOptions;
  /** `emitted` is an ES module (default) or already a classic script like `original`. */
  emittedFormat?: "module" | "script";
  /** Children per side, each with a slice of the cases. Default 1. */
  parallel?: number;
  /** Cases sent to the children at a time (a fresh pair of children per batch). Default 2000: a new child
   *  compiles the code again and runs it cold, which costs more than the cases' text held at once. */
  batchCases?: number;
  /** Told the cases run on both sides so far, at each multiple of CASES_EVERY and at the end of each batch (progress). */
  onCases?: (done: number, total: number) => void;
  /** Shrink the first disagreement (default true), within these bounds. */
  shrink?: boolean;
  maxShrinkRounds?: number;
  maxShrinkCandidates?: number;
  shrinkTimeMs?: number;
}

export interface Disagreement {
  case: VerifyCase;
  fn: ContractFn;
  original: CallResult;
  emitted: CallResult;
}

export interface FirstDisagreement extends Disagreement {
  /** Index of the case in the input. */
  index: number;
  /** The case as given, before shrinking, and its results. */
  unshrunk: Disagreement;
  /** Shrinking steps taken (each a smaller case that still disagreed) and rounds run. */
  shrinkSteps: number;
  shrinkRounds: number;
}

export interface VerifyResult {
  cases: number;
  /** Cases on which every compared function agreed: bothReturned + bothThrew. */
  agreed: number;
  /**
   * What each case's agreement rests on. A case counts once, by all its compared functions together:
   * bothReturned when every function returned normally on both sides with equal values (the only
   * agreement that compares behaviour); bothThrew when every function agreed and at least one threw on
   * both sides (whatever the messages: agreement by failing, which says little); differed when some
   * function disagreed, or a sandbox limit stopped it on either side (cases - agreed).
   */
  bothReturned: number;
  bothThrew: number;
  differed: number;
  /** Calls (case × function) compared, and those that failed on both sides (agreeing, but say nothing). */
  calls: number;
  bothErrored: number;
  /** Cases on which the original failed for some function (it threw, or hit a sandbox limit). */
  originalFailed: number;
  /** The original's first error, for the message when it failed on most cases. */
  firstOriginalError?: string;
  /** Calls stopped by a sandbox limit (time, memory, a crash), per side: never an agreement. */
  limitHits: { original: number; emitted: number };
  /** Why the run ended before every case ran (calls on the original timing out). */
  stopped?: string;
  /** Disagreeing calls per function. */
  disagreements: Record<ContractFn, number>;
  firstDisagreement?: FirstDisagreement;
  durationMs: { run: number; shrink: number };
}

/** A script or module that cannot even be evaluated is not a disagreement: it is refused. */
export class VerifySetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "VerifySetupError";
  }
}

/**
 * Semi-spaces of the sides and of the verifier, in MB, rather than V8's 16: the young generation touches less
 * fresh memory, which costs most where page faults are dear (both sides of 2.1.332: 3.57-3.60 s of CPU
 * against 3.90-4.07 s).
 */
export const VERIFY_SEMI_SPACE_MB = 4;

/**
 * A few calls over the call timeout say enough: code that loops would hold the run for hours. No
 * restarts after a child dies: a limit hit is never an agreement, so running on proves nothing more.
 * No TurboFan: each side runs its code 6,000 times and exits, and compiling for the top tier cost more
 * than it saved (a side of 2.1.332: 2.9 s of CPU with it, 2.1 s without).
 */
const VERIFY_SANDBOX: SandboxOptions = {
  timeoutMs: 600_000,
  memoryMb: 256,
  callTimeoutMs: 5_000,
  restarts: 0,
  maxTimeouts: 3,
  turbofan: false,
  semiSpaceMb: VERIFY_SEMI_SPACE_MB,
};

/** How often a verification tells its count (verify-process.ts passes it to the lift): 20 times in 2000 cases. */
export const CASES_EVERY = 100;

export async function verifyAgreement(
  original: string,
  emitted: string,
  cases: readonly VerifyCase[],
  opts: VerifyOptions = {},
): Promise<VerifyResult> {
  const fns = opts.fns ?? CONTRACT_FNS;
  if (fns.length === 0) throw new RangeError("no functions to compare");
  const emittedScript = opts.emittedFormat === "script" ? emitted : moduleToScript(emitted);
  const sandbox = { ...VERIFY_SANDBOX, ...opts.sandbox };
  const parallel = Math.max(1, Math.floor(opts.parallel ?? 1));
  const t0 = performance.now();

  // Cases go to the children in batches, which bound what a request, its results and a child's heap hold
  // (verification runs in a process of its own, beside the lift's, which may hold a 400 MB release).
  const batch = Math.max(1, Math.floor(opts.batchCases ?? 2000));
  const tally = newTally();
  let stopped: string | undefined;
  let ran = 0;
  let callCount = 0;
  // The count told so far: each batch's children tell theirs as it passes a multiple of CASES_EVERY, the loop
  // the batch's end.
  let told = 0;
  const tell = opts.onCases
    ? (done: number) => {
        if (done <= told) return;
        told = done;
        opts.onCases!(done, cases.length);
      }
    : undefined;
  for (let from = 0; from < cases.length; from += batch) {
    const slice = cases.slice(from, from + batch);
    const calls: SandboxCall[] = [];
    for (const c of slice) {
      const args = argsOf(c);
      for (const fn of fns) calls.push({ fn, args });
    }
    callCount += calls.length;
    const count = tell ? casesCounter(from, fns.length, tell) : undefined;
    const [ro, re] = await Promise.all([
      runSide("original", original, calls, sandbox, parallel, count?.side(0)),
      runSide("emitted", emittedScript, calls, sandbox, parallel, count?.side(1)),
    ]);
    tallyBatch(tally, ro, re, fns, from, slice.length);
    ran += slice.length;
    tell?.(ran);
    const gaveUp = ro.find((r): r is { ok: false; error: string } => !r.ok && r.limit === "gave-up");
    if (gaveUp !== undefined) {
      stopped = gaveUp.error.replace(/^not run: /, "on the original code, ");
      break;
    }
    // The original cannot be run on some case within the limits: the verdict is known (inconclusive).
    if (tally.limitHits.original > 0) break;
  }
  const tRun = performance.now() - t0;
  const firstDisagreement =
    tally.first === undefined ? undefined : await shrunkFirst(tally.first, cases, original, emittedScript, stopped, sandbox, opts);
  const { agreed, bothReturned, bothErrored, originalFailed, firstOriginalError, limitHits, disagreements } = tally;
  return {
    cases: ran,
    agreed,
    bothReturned,
    bothThrew: agreed - bothReturned,
    differed: ran - agreed,
    calls: callCount,
    bothErrored,
    originalFailed,
    ...(firstOriginalError !== undefined ? { firstOriginalError } : {}),
    limitHits,
    ...(stopped !== undefined ? { stopped } : {}),
    disagreements,
    ...(firstDisagreement !== undefined ? { firstDisagreement } : {}),
    durationMs: { run: tRun, shrink: performance.now() - t0 - tRun },
  };
}

/** The counts over the cases compared so far, and the first disagreement (by case index). */
interface Tally {
  agreed: number;
  bothReturned: number;
  bothErrored: number;
  originalFailed: number;
  firstOriginalError?: string;
  limitHits: { original: number; emitted: number };
  disagreements: Record<ContractFn, number>;
  first?: { index: number; fn: ContractFn; original: CallResult; emitted: CallResult };
}

function newTally(): Tally {
  const disagreements = Object.fromEntries(CONTRACT_FNS.map((f) => [f, 0])) as Record<ContractFn, number>;
  return { agreed: 0, bothReturned: 0, bothErrored: 0, originalFailed: 0, limitHits: { original: 0, emitted: 0 }, disagreements };
}

/** Compare one batch's results, `count` cases from case `from`, each with one result per function. */
function tallyBatch(t: Tally, ro: CallResult[], re: CallResult[], fns: readonly ContractFn[], from: number, count: number): void {
  for (let i = 0; i < count; i++) {
    let all = true;
    let originalOk = true;
    let threw = false;
    for (let j = 0; j < fns.length; j++) {
      const a = ro[i * fns.length + j]!;
      const b = re[i * fns.length + j]!;
      if (!a.ok && !b.ok) {
        t.bothErrored++;
        threw = true;
      }
      if (!a.ok) {
        originalOk = false;
        t.firstOriginalError ??= a.error;
      }
      if (hitLimit(a)) t.limitHits.original++;
      if (hitLimit(b)) t.limitHits.emitted++;
      if (!resultsAgree(a, b)) {
        all = false;
        t.disagreements[fns[j]!]++;
        t.first ??= { index: from + i, fn: fns[j]!, original: a, emitted: b };
      }
    }
    if (all) t.agreed++;
    if (all && !threw) t.bothReturned++;
    if (!originalOk) t.originalFailed++;
  }
}

/** The first disagreement, shrunk unless the run stopped early or a limit stopped either side. */
async function shrunkFirst(
  first: NonNullable<Tally["first"]>,
  cases: readonly VerifyCase[],
  original: string,
  emittedScript: string,
  stopped: string | undefined,
  sandbox: SandboxOptions,
  opts: VerifyOptions,
): Promise<FirstDisagreement> {
  const unshrunk: Disagreement = { case: cases[first.index]!, fn: first.fn, original: first.original, emitted: first.emitted };
  // A case stopped by a limit is not shrunk: every smaller candidate would likely wait for the limit again.
  const shrink = opts.shrink !== false && stopped === undefined && !hitLimit(first.original) && !hitLimit(first.emitted);
  const s = shrink ? await shrinkDisagreement(original, emittedScript, unshrunk, sandbox, opts) : { ...unshrunk, steps: 0, rounds: 0 };
  return {
    case: s.case,
    fn: s.fn,
    original: s.original,
    emitted: s.emitted,
    index: first.index,
    unshrunk,
    shrinkSteps: s.steps,
    shrinkRounds: s.rounds,
  };
}

/** The contract's arguments for one case: (query, deferred, { loaded, maxResults? }). */
export function callArgs(c: VerifyCase): unknown[] {
  const options: { loaded: Tool[]; maxResults?: number } = { loaded: c.loaded ?? [] };
  if (c.maxResults !== undefined) options.maxResults = c.maxResults;
  return [c.query, c.deferred, options];
}

/** One argument list per case, the same array each time it is asked for: the sandbox encodes it once. */
const caseArgs = new WeakMap<VerifyCase, unknown[]>();

function argsOf(c: VerifyCase): unknown[] {
  let args = caseArgs.get(c);
  if (args === undefined) caseArgs.set(c, (args = callArgs(c)));
  return args;
}

/**
 * What a verification on `cases` can do before it knows the two programs: encode every case's arguments
 * for the sandbox and check the sandbox itself (assertSandboxable). A verifier does it while the lift is
 * still at work, so that comparing starts as soon as the programs arrive.
 */
export function prepareVerification(cases: readonly VerifyCase[]): Promise<void> {
  for (const c of cases) encodeArguments(argsOf(c));
  return assertSandboxable();
}

/** Whether a call was stopped by a sandbox limit (time, memory, output, a crash, the stack) rather than returning
 *  or throwing: the sandbox says so in its own field (sandbox.ts, CallLimit), never in an error's text. */
export function hitLimit(r: CallResult): boolean {
  return !r.ok && r.limit !== undefined;
}

/** Equal as JSON values: both thrown errors, or both values and deeply equal (object key order aside). Two
 *  calls stopped by a limit do not agree: nothing was compared. */
export function resultsAgree(a: CallResult, b: CallResult): boolean {
  if (hitLimit(a) || hitLimit(b)) return false;
  if (!a.ok || !b.ok) return !a.ok && !b.ok;
  return jsonEqual(a.value, b.value);
}

export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    if (a.length !== bb.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], bb[i])) return false;
    return true;
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  const ob = b as Record<string, unknown>;
  for (const k of ka)
    if (!Object.prototype.hasOwnProperty.call(ob, k) || !jsonEqual((a as Record<string, unknown>)[k], ob[k])) return false;
  return true;
}

/**
 * A batch's count of cases run on both sides, from the children's counts of calls answered (each child tells its
 * own every CASES_EVERY cases' worth of calls): a case is run once both sides have answered all its calls. Told
 * when it passes the next multiple of CASES_EVERY.
 */
function casesCounter(from: number, fns: number, tell: (done: number) => void) {
  const answered: [number[], number[]] = [[], []];
  const update = () => {
    const calls = Math.min(...answered.map((slices) => slices.reduce((a, b) => a + b, 0)));
    const done = from + Math.floor(calls / fns);
    tell(done - (done % CASES_EVERY));
  };
  return {
    /** Side `s`'s counting, for runSide: slice `i` tells the calls of its own it has had answered. */
    side: (s: 0 | 1) => ({
      callsPerCase: fns,
      slice: (i: number) => (n: number) => {
        answered[s][i] = n;
        update();
      },
    }),
  };
}

async function runSide(
  side: string,
  script: string,
  calls: SandboxCall[],
  sandbox: SandboxOptions,
  parallel: number,
  count?: { callsPerCase: number; slice: (i: number) => (answered: number) => void },
): Promise<CallResult[]> {
  const n = Math.min(parallel, Math.max(1, calls.length));
  const size = Math.ceil(calls.length / n);
  const slices: SandboxCall[][] = [];
  for (let i = 0; i < n; i++) slices.push(calls.slice(i * size, (i + 1) * size));
  // Each slice tells its count every CASES_EVERY cases' worth of calls shared among the slices.
  const every = count ? Math.max(1, Math.floor((CASES_EVERY * count.callsPerCase) / n)) : 0;
  const outs = await Promise.all(
    slices.map((s, i) => runInSandbox(script, s, count ? { ...sandbox, onResults: count.slice(i), resultsEvery: every } : sandbox)),
  );
  for (const o of outs) {
    if (o.scriptError !== undefined) throw new VerifySetupError(`the ${side} script cannot be evaluated: ${o.scriptError}`);
  }
  return outs.flatMap((o) => o.results);
}
