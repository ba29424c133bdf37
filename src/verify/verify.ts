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
import { parse } from "acorn";
import "../ast/acorn-warm.js"; // before any parse: see acorn-warm.ts
import type { CorpusCase, Tool } from "../routines/tool-search/corpus.js";
import { assertSandboxable, encodeArguments, runInSandbox, type CallResult, type SandboxCall, type SandboxOptions } from "./sandbox.js";

export type ContractFn = "searchTools" | "scoreTools" | "toolSearch";
export const CONTRACT_FNS: readonly ContractFn[] = ["searchTools", "scoreTools", "toolSearch"];

/** One call's inputs; a CorpusCase is one. */
export interface VerifyCase {
  query: string;
  deferred: Tool[];
  loaded?: Tool[];
  maxResults?: number;
  kind?: CorpusCase["kind"];
}

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
  for (let from = 0; from < cases.length; from += batch) {
    const slice = cases.slice(from, from + batch);
    const calls: SandboxCall[] = [];
    for (const c of slice) {
      const args = argsOf(c);
      for (const fn of fns) calls.push({ fn, args });
    }
    callCount += calls.length;
    const [ro, re] = await Promise.all([
      runSide("original", original, calls, sandbox, parallel),
      runSide("emitted", emittedScript, calls, sandbox, parallel),
    ]);
    tallyBatch(tally, ro, re, fns, from, slice.length);
    ran += slice.length;
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

async function runSide(
  side: string,
  script: string,
  calls: SandboxCall[],
  sandbox: SandboxOptions,
  parallel: number,
): Promise<CallResult[]> {
  const n = Math.min(parallel, Math.max(1, calls.length));
  const size = Math.ceil(calls.length / n);
  const slices: SandboxCall[][] = [];
  for (let i = 0; i < n; i++) slices.push(calls.slice(i * size, (i + 1) * size));
  const outs = await Promise.all(slices.map((s) => runInSandbox(script, s, sandbox)));
  for (const o of outs) {
    if (o.scriptError !== undefined) throw new VerifySetupError(`the ${side} script cannot be evaluated: ${o.scriptError}`);
  }
  return outs.flatMap((o) => o.results);
}

// ---------------------------------------------------------------------------------------------------------
// Module → script

/** Turn an import-free ES module into a classic script that assigns its exports to `globalThis.__searchlift`
 *  (as getters, so live bindings stay live). The module body runs in a strict function, as in a module. */
export function moduleToScript(source: string): string {
  let ast;
  try {
    ast = parse(source, { ecmaVersion: "latest", sourceType: "module" });
  } catch (e) {
    throw new VerifySetupError(`the emitted module does not parse: ${(e as Error).message}`);
  }
  const edits: Array<{ start: number; end: number; text: string }> = [];
  const exported = new Map<string, string>(); // exported name -> local name
  for (const node of ast.body) {
    switch (node.type) {
      case "ImportDeclaration":
        throw new VerifySetupError(`the emitted module imports "${String(node.source.value)}"; the contract forbids imports`);
      case "ExportAllDeclaration":
        throw new VerifySetupError(`the emitted module re-exports "${String(node.source.value)}"; the contract forbids imports`);
      case "ExportNamedDeclaration": {
        if (node.source)
          throw new VerifySetupError(`the emitted module re-exports "${String(node.source.value)}"; the contract forbids imports`);
        if (node.declaration) {
          edits.push({ start: node.start, end: node.declaration.start, text: "" });
          const d = node.declaration;
          if (d.type === "VariableDeclaration")
            for (const decl of d.declarations) for (const n of patternNames(decl.id)) exported.set(n, n);
          else exported.set(d.id.name, d.id.name);
        } else {
          edits.push({ start: node.start, end: node.end, text: "" });
          for (const s of node.specifiers) {
            const local = s.local.type === "Identifier" ? s.local.name : String(s.local.value);
            const name = s.exported.type === "Identifier" ? s.exported.name : String(s.exported.value);
            exported.set(name, local);
          }
        }
        break;
      }
      case "ExportDefaultDeclaration": {
        const d = node.declaration;
        if ((d.type === "FunctionDeclaration" || d.type === "ClassDeclaration") && d.id) {
          edits.push({ start: node.start, end: d.start, text: "" });
          exported.set("default", d.id.name);
        } else {
          edits.push({ start: node.start, end: d.start, text: "const __searchlift_default = " });
          edits.push({ start: node.end, end: node.end, text: ";" });
          exported.set("default", "__searchlift_default");
        }
        break;
      }
      default:
        break;
    }
  }
  // Top-level await is legal in a module only; keep it legal by running the body in an async function.
  const hasAwait = containsTopLevelAwait(ast.body);
  let body = source;
  for (const e of [...edits].sort((a, b) => b.start - a.start)) body = body.slice(0, e.start) + e.text + body.slice(e.end);
  const getters = [...exported].map(([name, local]) => `get ${JSON.stringify(name)}() { return ${local}; }`).join(",\n  ");
  const api = `globalThis.__searchlift = {\n  ${getters}\n};`;
  return hasAwait
    ? `(async function () {\n"use strict";\n${body}\n;${api}\n})();\n`
    : `(function () {\n"use strict";\n${body}\n;${api}\n})();\n`;
}

function patternNames(p: import("acorn").Pattern): string[] {
  switch (p.type) {
    case "Identifier":
      return [p.name];
    case "ObjectPattern":
      return p.properties.flatMap((q) => (q.type === "RestElement" ? patternNames(q.argument) : patternNames(q.value)));
    case "ArrayPattern":
      return p.elements.flatMap((q) => (q ? patternNames(q) : []));
    case "RestElement":
      return patternNames(p.argument);
    case "AssignmentPattern":
      return patternNames(p.left);
    default:
      return [];
  }
}

/** An `await` outside any function, found by a walk that does not enter functions. */
function containsTopLevelAwait(node: unknown): boolean {
  if (node === null || typeof node !== "object") return false;
  if (Array.isArray(node)) return node.some(containsTopLevelAwait);
  const n = node as { type?: string };
  if (n.type === "AwaitExpression") return true;
  if (n.type === "ForOfStatement" && (n as { await?: boolean }).await) return true;
  if (n.type === "FunctionDeclaration" || n.type === "FunctionExpression" || n.type === "ArrowFunctionExpression") return false;
  for (const [k, v] of Object.entries(n)) {
    if (k === "type" || k === "start" || k === "end" || k === "loc" || k === "range") continue;
    if (typeof v === "object" && containsTopLevelAwait(v)) return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------------------
// Shrinking

/** Smaller variants of a case, biggest reductions first. */
export function shrinkCandidates(c: VerifyCase): VerifyCase[] {
  const out: VerifyCase[] = [];
  const loaded = c.loaded ?? [];
  const withDeferred = (deferred: Tool[]) => ({ ...c, deferred });
  const withLoaded = (l: Tool[]) => ({ ...c, loaded: l });
  // Tools: keep a single deferred tool, drop loaded tools, then remove chunks (halves … singles).
  if (c.deferred.length > 1) for (const t of c.deferred) out.push(withDeferred([t]));
  if (loaded.length > 0) out.push(withLoaded([]));
  for (const [list, make] of [
    [c.deferred, withDeferred],
    [loaded, withLoaded],
  ] as const) {
    for (const chunk of chunkSizes(list.length)) {
      for (let i = 0; i < list.length; i += chunk) {
        if (chunk === list.length && list === loaded) continue; // already: loaded = []
        out.push(make([...list.slice(0, i), ...list.slice(i + chunk)]));
      }
    }
  }
  if (c.maxResults !== undefined) {
    const { maxResults: _m, ...rest } = c;
    out.push(rest);
  }
  // Query: drop whitespace-separated tokens, comma-separated entries, then chunks of characters.
  for (const q of shorterQueries(c.query)) out.push({ ...c, query: q });
  // Tool fields, once there are few tools left.
  if (c.deferred.length + loaded.length <= 8) {
    const fieldVariants = (t: Tool): Tool[] => {
      const v: Tool[] = [];
      for (const k of ["description", "searchHint", "aliases", "mcpInfo", "isMcp"] as const) {
        if (t[k] !== undefined) {
          const { [k]: _drop, ...rest } = t;
          v.push(rest);
        }
      }
      // Fields the contract does not name (provenance.toolFields), which the corpus gives some tools.
      for (const k of Object.keys(t)) {
        if (CONTRACT_KEYS.has(k)) continue;
        const { [k]: _drop, ...rest } = t;
        v.push(rest as Tool);
      }
      for (const k of ["description", "searchHint"] as const) {
        const s = t[k];
        if (s !== undefined && s.length > 1) for (const shorter of shorterText(s)) v.push({ ...t, [k]: shorter });
      }
      if (t.aliases && t.aliases.length > 1) t.aliases.forEach((_, i) => v.push({ ...t, aliases: t.aliases!.filter((_a, j) => j !== i) }));
      if (t.mcpInfo?.toolName !== undefined) v.push({ ...t, mcpInfo: { serverName: t.mcpInfo.serverName } });
      return v;
    };
    c.deferred.forEach((t, i) => {
      for (const v of fieldVariants(t)) out.push(withDeferred(c.deferred.map((x, j) => (j === i ? v : x))));
    });
    loaded.forEach((t, i) => {
      for (const v of fieldVariants(t)) out.push(withLoaded(loaded.map((x, j) => (j === i ? v : x))));
    });
  }
  return out;
}

/** The contract's Tool fields: any other key of a tool is one of a release's own (provenance.toolFields). */
const CONTRACT_KEYS: ReadonlySet<string> = new Set(["name", "description", "searchHint", "aliases", "mcpInfo", "isMcp"]);

function chunkSizes(n: number): number[] {
  const sizes: number[] = [];
  for (let k = Math.ceil(n / 2); k >= 1; k = k === 1 ? 0 : Math.ceil(k / 2)) if (!sizes.includes(k)) sizes.push(k);
  return sizes;
}

function shorterQueries(q: string): string[] {
  const out = new Set<string>();
  const tokens = q.split(/(\s+)/); // keep separators at odd indices
  const words = tokens.filter((_, i) => i % 2 === 0);
  if (words.filter((w) => w !== "").length > 1) {
    // Remove chunks of words (with the separator before them).
    const n = words.length;
    for (const chunk of chunkSizes(n)) {
      if (n / chunk > 64) continue;
      for (let i = 0; i < n; i += chunk) {
        const kept: string[] = [];
        for (let w = 0; w < n; w++) {
          if (w >= i && w < i + chunk) continue;
          if (kept.length > 0) kept.push(tokens[2 * w - 1] ?? " ");
          kept.push(words[w]!);
        }
        out.add(kept.join(""));
      }
    }
  }
  const m = /^(\s*select:\s*)(.*)$/is.exec(q);
  if (m && m[2]!.includes(",")) {
    const entries = m[2]!.split(",");
    for (const chunk of chunkSizes(entries.length)) {
      if (entries.length / chunk > 64) continue;
      for (let i = 0; i < entries.length; i += chunk) out.add(m[1]! + [...entries.slice(0, i), ...entries.slice(i + chunk)].join(","));
    }
  }
  for (const s of shorterText(q)) out.add(s);
  out.delete(q);
  return [...out];
}

/** Remove chunks of characters (code points), halves first, at most 64 candidates per chunk size. */
function shorterText(s: string): string[] {
  const cps = [...s];
  const out: string[] = [];
  for (const chunk of chunkSizes(cps.length)) {
    if (cps.length / chunk > 64) continue;
    for (let i = 0; i < cps.length; i += chunk) out.push([...cps.slice(0, i), ...cps.slice(i + chunk)].join(""));
  }
  return out;
}

async function shrinkDisagreement(
  original: string,
  emittedScript: string,
  start: Disagreement,
  sandbox: SandboxOptions,
  opts: VerifyOptions,
): Promise<Disagreement & { steps: number; rounds: number }> {
  const maxRounds = opts.maxShrinkRounds ?? 200;
  const maxCandidates = opts.maxShrinkCandidates ?? 600;
  const deadline = performance.now() + (opts.shrinkTimeMs ?? 120_000);
  let cur = start;
  let steps = 0;
  let rounds = 0;
  const seen = new Set<string>([JSON.stringify(start.case)]);
  while (rounds < maxRounds && performance.now() < deadline) {
    // A case already tried agreed then and agrees now: results depend on the case only.
    const cands: VerifyCase[] = [];
    for (const c of shrinkCandidates(cur.case)) {
      if (cands.length >= maxCandidates) break;
      const k = JSON.stringify(c);
      if (seen.has(k)) continue;
      seen.add(k);
      cands.push(c);
    }
    if (cands.length === 0) break;
    rounds++;
    const calls = cands.map((c) => ({ fn: cur.fn, args: callArgs(c) }));
    const [ro, re] = await Promise.all([runInSandbox(original, calls, sandbox), runInSandbox(emittedScript, calls, sandbox)]);
    const i = cands.findIndex((_, k) => !resultsAgree(ro.results[k]!, re.results[k]!));
    if (i < 0) break;
    cur = { case: cands[i]!, fn: cur.fn, original: ro.results[i]!, emitted: re.results[i]! };
    steps++;
  }
  return { ...cur, steps, rounds };
}
