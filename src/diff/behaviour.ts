/**
 * The behaviour view of `searchlift diff`: what two lifted modules answer differently. Two parts, run together
 * (the probes go first in the search's first batch):
 * - probes (the routine pack's, e.g. routines/tool-search/probes.ts): each feature or weight row measured on both modules;
 * - witnesses (witness-search.ts): inputs found by search on which the modules answer differently, each shrunk
 *   and replayed, with one line that says what it shows.
 *
 * A lifted module is code from an input, so it never runs in this process: it is checked statically
 * (purity.ts), then run in the sandbox (verify/sandbox.ts), one child per module and batch; calls and results
 * cross as JSON.
 *
 * The view is bounded: in work by the search's budget and limits (witness-search.ts), which make it the same on
 * every run, and in wall-clock time, as a safety net only, by BEHAVIOUR_BOUND_S overall (probes, search, shrinking and replay together, as verification has its budget):
 * when the bound is reached, the sandbox run in progress is stopped and the view says so, in `stopped` and in
 * its first sentence.
 */
import { readFileSync } from "node:fs";
import { ExitCode, SearchliftError } from "../errors.js";
import { impurities } from "../lift/purity.js";
import type { RoutinePack, SemanticRow } from "../routines/pack.js";
import type { ContractTool as Tool } from "../routines/contract.js";
import { moduleToScript } from "../verify/module-script.js";
import { codeTokens, type CodeTokens } from "./code-tokens.js";
import { movedDefinitionLines } from "./code-summary.js";
import { ModuleRunError, runCalls, runCallsOnBoth, WITNESS_SANDBOX, type Side } from "./witness-run.js";
import { answerOf, DEFAULT_BUDGET, searchWitnesses, type Budget, type CoverageSides, type Witness } from "./witness-search.js";
import { changedLines, instrument, type ChangedPoint } from "./coverage.js";
import { liftedCode } from "../lift/lift.js";

/** A self-contained difference: replay it by calling `function(query, deferred, { loaded, maxResults })` on both modules. */
export interface WitnessReport {
  function: "toolSearch" | "searchTools" | "scoreTools";
  query: string;
  deferred: Tool[];
  loaded: Tool[];
  maxResults?: number;
  /** What each module returned; `{ error }` when it threw. */
  before: unknown;
  after: unknown;
  summary: string;
  /** The rule behind the difference, where calls made from the witness could tell (its sentence, witness included). */
  rule?: string;
}

export interface Behaviour {
  /** Candidate calls run on both modules, and the seconds the search (shrinking and replay included) took. */
  searched: number;
  seconds: number;
  /** Why the view ended before its work was done (its overall time bound was reached); absent when it finished. */
  stopped?: string;
  /** Calls stopped by a sandbox limit (time, stack, memory) on either side: not compared, never witnesses. */
  limitHits?: number;
  /** The changed code the search ran, on each side: the evidence behind "no difference found". */
  coverage?: { before: ChangedCodeRun; after: ChangedCodeRun };
  /** Distinct witnesses, at most ten. */
  changed: WitnessReport[];
  /** One plain-language line per difference: changed probe rows first, then the witnesses. */
  sentences: string[];
}

export interface BehaviourView {
  /** The probe rows, `{ feature, before, after, changed }`. */
  semantics: SemanticRow[];
  behaviour: Behaviour;
}

/** A module for the view: its text (read for its code's literals) and its sandbox script. */
export interface ModuleSide {
  text: string;
  script: string;
  label: string;
}

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
  if (first)
    throw new SearchliftError(`refused: the module uses ${first.what} at ${first.line}:${first.column}`, ExitCode.brokenModule, path);
  try {
    return moduleToScript(text);
  } catch (e) {
    throw new SearchliftError(`refused: ${(e as Error).message}`, ExitCode.brokenModule, path);
  }
}

/**
 * The behaviour view's overall wall-clock bound, in seconds: a safety net far above what a view takes (a few
 * seconds: the budget's calls in three batches, a few shrinking rounds, then the replay), reached only by code
 * that is slow on every call without timing out (2 s of CPU each) or on a machine far too loaded. It is the one
 * place the clock decides anything: below it, the witnesses depend on the two modules only (witness-search.ts).
 * Work comes first: a module that times out or overflows the stack on call after call fails in seconds
 * (brokenModule).
 */
export const BEHAVIOUR_BOUND_S = 120;

/** Probe rows and witnesses of two modules. A module that cannot be run is brokenModule, with its label. */
export async function behaviourView(
  a: ModuleSide,
  b: ModuleSide,
  budget: Budget = DEFAULT_BUDGET,
  pack: RoutinePack,
  boundSeconds: number = BEHAVIOUR_BOUND_S,
): Promise<BehaviourView> {
  const tokens = codeTokens(a.text, b.text);
  const probes = pack.probes(tokens.numbers);
  const side = (m: ModuleSide): Side => ({ script: m.script, label: m.label });
  const probed = instrumented(a, b, tokens);
  const bound = new AbortController();
  const timer = setTimeout(() => bound.abort(), boundSeconds * 1000);
  let found;
  try {
    found = await searchWitnesses(side(a), side(b), pack.witnessCandidates(tokens), {
      budget,
      prelude: probes.flatMap((p) => p.calls),
      kindOf: (w) => pack.witnessKind(w),
      focus: (w) => pack.witnessFocus(w),
      bound: { signal: bound.signal, seconds: boundSeconds },
      ...(probed ? { coverage: probed.sides } : {}),
    });
  } catch (e) {
    clearTimeout(timer);
    if (e instanceof ModuleRunError) throw new SearchliftError(e.message, ExitCode.brokenModule, e.label);
    throw e;
  }
  const { rows, sentences, throws = [] } = pack.probeRows(probes, found.prelude[0].map(answerOf), found.prelude[1].map(answerOf));
  const changed = found.witnesses.map((w): WitnessReport => {
    const { fn, ...rest } = w;
    return {
      function: fn,
      query: rest.query,
      deferred: rest.deferred,
      loaded: rest.loaded,
      ...(rest.maxResults !== undefined ? { maxResults: rest.maxResults } : {}),
      before: rest.before,
      after: rest.after,
      summary: pack.witnessSummary(w),
    };
  });
  // The rules behind the witnesses run under the same bound as the search.
  try {
    if (found.stopped === undefined) await sayRules(side(a), side(b), found.witnesses, changed, pack, bound.signal);
  } finally {
    clearTimeout(timer);
  }
  const kept = withinBytes(changed, MAX_WITNESS_BYTES);
  const coverage = probed && found.reach ? changedCodeRun(probed.points, found.reach.reached) : undefined;
  const witnessed = witnessSentences(kept);
  const limits = found.limitHits > 0 ? [`${found.limitHits} call(s) were stopped by a sandbox limit (time or stack) and not compared`] : [];
  return {
    semantics: rows,
    behaviour: {
      searched: found.searched,
      seconds: Math.round(found.seconds * 10) / 10,
      ...(found.stopped !== undefined ? { stopped: found.stopped } : {}),
      ...(found.limitHits > 0 ? { limitHits: found.limitHits } : {}),
      ...(coverage ? { coverage } : {}),
      changed: kept,
      // Where the view stopped early, it says so first: what follows is what was found by then. Then the
      // rules and results that changed, and last what now throws or no longer does (malformed input, limits
      // of the engine), which says less about the rules.
      sentences: [
        ...(found.stopped !== undefined ? [`stopped: ${found.stopped}`] : []),
        ...limits,
        ...sentences,
        ...witnessed.results,
        ...throws,
        ...witnessed.throws,
      ],
    },
  };
}

/**
 * The witnesses' sentences: changed results, and apart from them new and gone throws (malformed input and
 * engine limits, which say less about the rules); a toolSearch and a searchTools witness on the same input with
 * the same answers are one sentence naming both; a witness whose rule was found is said by its rule.
 */
function witnessSentences(ws: WitnessReport[]): { results: string[]; throws: string[] } {
  const throws = (w: WitnessReport) => [w.before, w.after].some((v) => typeof v === "object" && v !== null && "error" in v);
  const same = (x: WitnessReport, y: WitnessReport) =>
    JSON.stringify([x.query, x.deferred, x.loaded, x.maxResults, x.before, x.after]) ===
    JSON.stringify([y.query, y.deferred, y.loaded, y.maxResults, y.before, y.after]);
  const out = { results: [] as string[], throws: [] as string[] };
  const merged = new Set<WitnessReport>();
  const rules = new Set<string>();
  // A witness whose rule is said comes first, and another function's witness on the same input goes with it.
  const ruled = ws.filter((w) => w.rule !== undefined);
  const input = (x: WitnessReport) => JSON.stringify([x.query, x.deferred, x.loaded, x.maxResults]);
  const ruledInputs = new Set(ruled.map(input));
  for (const w of [...ruled, ...ws.filter((x) => x.rule === undefined)]) {
    if (merged.has(w) || (w.rule === undefined && ruledInputs.has(input(w)))) continue;
    const twin = w.function === "toolSearch" ? ws.find((x) => x.function === "searchTools" && !merged.has(x) && same(x, w)) : undefined;
    if (twin) merged.add(twin);
    // A rule said once: a second witness of the same rule adds nothing to its sentence.
    const head = w.rule?.split(": ")[0];
    if (head !== undefined && rules.has(head)) continue;
    if (head !== undefined) rules.add(head);
    const line = w.rule ?? (twin ? w.summary.replace(/^toolSearch /, "toolSearch and searchTools ") : w.summary);
    (throws(w) ? out.throws : out.results).push(line);
  }
  return out;
}

/** Witnesses whose rule calls made from them can say (the pack's witnessRule), the first few. */
const RULED_WITNESSES = 3;

/** Each witness's rule, where the pack can tell it, run on both modules (bounded in calls, and by `signal`). */
async function sayRules(
  a: Side,
  b: Side,
  witnesses: Witness[],
  reports: WitnessReport[],
  pack: RoutinePack,
  signal: AbortSignal,
): Promise<void> {
  const asked = witnesses
    .map((w, i) => ({ i, rule: pack.witnessRule?.(w) ?? null }))
    .filter((x): x is { i: number; rule: NonNullable<typeof x.rule> } => x.rule !== null && x.rule.calls.length > 0)
    .slice(0, RULED_WITNESSES);
  if (asked.length === 0 || signal.aborted) return;
  let results;
  try {
    results = await runCallsOnBoth(
      a,
      b,
      asked.flatMap((x) => x.rule.calls),
      { ...WITNESS_SANDBOX, signal },
    );
  } catch (e) {
    if (e instanceof ModuleRunError) throw new SearchliftError(e.message, ExitCode.brokenModule, e.label);
    throw e;
  }
  let at = 0;
  for (const { i, rule } of asked) {
    const n = rule.calls.length;
    const said = rule.say(results[0].slice(at, at + n).map(answerOf), results[1].slice(at, at + n).map(answerOf));
    at += n;
    if (said !== null) reports[i]!.rule = said;
  }
}

/**
 * One module's table measured by the pack's probes (the scoring table's "adds: …" rows, the caps, the `select:`
 * forms, the fast paths), as `{ feature, value }` rows: what `lift --json` shows. The module runs in the sandbox.
 */
export async function measuredTable(m: ModuleSide, pack: RoutinePack): Promise<Array<{ feature: string; value: string }>> {
  const probes = pack.probes(codeTokens(m.text, m.text).numbers);
  let results;
  try {
    results = await runCalls(
      { script: m.script, label: m.label },
      probes.flatMap((p) => p.calls),
    );
  } catch (e) {
    if (e instanceof ModuleRunError) throw new SearchliftError(e.message, ExitCode.brokenModule, e.label);
    throw e;
  }
  const answers = results.map(answerOf);
  return pack.probeRows(probes, answers, answers).rows.map((r) => ({ feature: r.feature, value: r.after }));
}

/** A lifted module file's measured table for `lift --json`: `{ table }`, or `{ tableError }` where it could not run. */
export async function moduleTable(
  path: string,
  pack: RoutinePack,
): Promise<{ table: Array<{ feature: string; value: string }> } | { tableError: string }> {
  try {
    const text = readFileSync(path, "utf8");
    return { table: await measuredTable({ text, script: sandboxScript(text, path), label: path }, pack) };
  } catch (e) {
    if (e instanceof SearchliftError) return { tableError: e.message };
    throw e;
  }
}

/**
 * Of one module's changed points (statements, branches, condition outcomes; coverage.ts) that the contract's
 * functions can run, how many the search saw, and those it never did; apart, the points they can never run,
 * each with why (reachability.ts), which no search could see and which do not count.
 */
export interface ChangedCodeRun {
  reached: number;
  of: number;
  unreached: ChangedPoint[];
  /** Absent from a timeline written before searchlift told these apart. */
  unreachable?: ChangedPoint[];
}

/** Both modules with probes at their changed lines, as sandbox scripts; null when the code is the same or a copy cannot be instrumented. */
function instrumented(
  a: ModuleSide,
  b: ModuleSide,
  tokens: CodeTokens,
): { sides: CoverageSides; points: [ChangedPoint[], ChangedPoint[]] } | null {
  const [la, lb] = changedLines(liftedCode(a.text), liftedCode(b.text));
  if (la.size + lb.size === 0) return null;
  // A definition only moved is not changed code: its lines get no probes.
  for (const l of movedDefinitionLines(a.text, b.text)) la.delete(l);
  for (const l of movedDefinitionLines(b.text, a.text)) lb.delete(l);
  try {
    const [ia, ib] = [instrument(a.text, moduleLines(a.text, la), b.text), instrument(b.text, moduleLines(b.text, lb), a.text)];
    return {
      sides: {
        a: { script: moduleToScript(ia.text), label: a.label },
        b: { script: moduleToScript(ib.text), label: b.label },
        points: [ia.points.length, ib.points.length],
        words: changedWords(tokens),
        fields: tokens.changedCode.members,
      },
      points: [ia.points, ib.points],
    };
  } catch {
    // A copy the probes cannot be put into is searched as it is, without coverage.
    return null;
  }
}

/** Words for the guided edits: those of the changed code's strings and fields first, then of the other strings. */
function changedWords(tokens: CodeTokens): string[] {
  const texts = [...tokens.changedCode.strings, ...tokens.changedCode.members, ...tokens.strings.slice(0, 24)];
  const words = texts.flatMap((t) => t.split(/[^\p{L}\p{N}_]+/u)).filter((w) => w.length > 1 && w.length < 40);
  return [...new Set(words)].slice(0, 64);
}

/** Lines of liftedCode (the module without its header comment) as lines of the module. */
function moduleLines(text: string, lines: Set<number>): Set<number> {
  const header = text.slice(0, Math.max(0, text.search(/^(?!\/\/)(?=\S)/m))).split("\n").length - 1;
  return new Set([...lines].map((l) => l + header));
}

function changedCodeRun(
  points: [ChangedPoint[], ChangedPoint[]],
  reached: [Set<number>, Set<number>],
): { before: ChangedCodeRun; after: ChangedCodeRun } {
  // A point said unreachable that a call did reach counts as reached: what ran is the evidence.
  const one = (ps: ChangedPoint[], r: Set<number>): ChangedCodeRun => ({
    reached: ps.filter((_, i) => r.has(i)).length,
    of: ps.filter((p, i) => r.has(i) || !p.unreachable).length,
    unreached: ps.filter((p, i) => !r.has(i) && !p.unreachable),
    unreachable: ps.filter((p, i) => !r.has(i) && p.unreachable),
  });
  return { before: one(points[0], reached[0]), after: one(points[1], reached[1]) };
}

/** The witnesses' JSON at most (a witness carries its tools and answers whole, so that it replays): a track of
 *  many change points stays readable. Beyond it the biggest go; the smallest always stays. */
const MAX_WITNESS_BYTES = 128 * 1024;

function withinBytes(ws: WitnessReport[], max: number): WitnessReport[] {
  const sizes = ws.map((w) => JSON.stringify(w).length);
  const order = ws.map((_, i) => i).sort((x, y) => sizes[x]! - sizes[y]!);
  const keep = new Set<number>();
  let total = 0;
  for (const i of order) {
    if (keep.size > 0 && total + sizes[i]! > max) break;
    keep.add(i);
    total += sizes[i]!;
  }
  return ws.filter((_, i) => keep.has(i));
}

/** What the text views say when no witness was found: how far the search went, never just "no change". */
export function noDifferenceFound(b: Behaviour): string {
  const found = `no behaviour difference found in ${b.searched} cases (${b.seconds} s)${coverageClause(b)}${b.stopped ? `; stopped: ${b.stopped}` : ""}`;
  if (!b.coverage) return found;
  return `${behaviourVerdict(b) === "refactor" ? "A refactor" : "Unknown"}: ${found}`;
}

/**
 * "; every changed point the tool search can reach was seen (…)", or what was never seen, by line; then the
 * points it can never run, by why ("; 3 more cannot run in the tool search: reachable only when … — …").
 */
function coverageClause(b: Behaviour): string {
  const c = b.coverage;
  if (!c) return "";
  const side = (run: ChangedCodeRun, name: string) => run.unreached.map((p) => ({ ...p, side: name }));
  const missed = [...side(c.before, "before"), ...side(c.after, "after")];
  const of = c.before.of + c.after.of;
  const none = "; the changed lines hold no statement, branch or condition of the routine's functions";
  const out =
    missed.length > 0
      ? `; ${missed.length} of ${of} reachable points of the changed code (statements, branches, condition outcomes) were never seen (${missed
          .slice(0, 3)
          .map((p) => `line ${p.line} ${p.side}: \`${p.code}\`${p.why ? `, ${p.why}` : ""}`)
          .join("; ")}${missed.length > 3 ? `, and ${missed.length - 3} more` : ""})`
      : of > 0
        ? `; every changed point the tool search can reach was seen: each statement and branch ran, each condition went both ways (${c.before.of} points before, ${c.after.of} after)`
        : unreachableCount(b) === 0
          ? none
          : "";
  return out + unreachableClause(b, (p) => p.unreachable ?? "");
}

/** "; 3 more points cannot run in the tool search: 2 reachable only when … — …; 1 …", grouped by `reason`. */
export function unreachableClause(b: Behaviour, reason: (p: ChangedPoint) => string): string {
  const c = b.coverage;
  const all = c ? [...(c.before.unreachable ?? []), ...(c.after.unreachable ?? [])] : [];
  if (all.length === 0) return "";
  const groups = new Map<string, number>();
  for (const p of all) groups.set(reason(p), (groups.get(reason(p)) ?? 0) + 1);
  const shown = [...groups].slice(0, 3).map(([why, n]) => `${n} ${why}`);
  const rest = groups.size - 3;
  const more = rest > 0 ? `, and ${rest} more ${rest === 1 ? "reason" : "reasons"}` : "";
  const points = `${all.length} ${all.length === 1 ? "point" : "points"}`;
  // Where no changed point can run at all, that is the whole evidence.
  const head =
    c!.before.of + c!.after.of === 0
      ? `none of the changed code can run in the tool search (${points})`
      : `${all.length} more ${all.length === 1 ? "point" : "points"} cannot run in the tool search`;
  return `; ${head}: ${shown.join("; ")}${more}`;
}

function unreachableCount(b: Behaviour): number {
  return (b.coverage?.before.unreachable?.length ?? 0) + (b.coverage?.after.unreachable?.length ?? 0);
}

/** What a change point's behaviour view shows: a difference, a refactor whose changed code all ran, or unknown. */
export function behaviourVerdict(b: Behaviour): "changed" | "refactor" | "unknown" {
  if (b.changed.length > 0) return "changed";
  if (b.stopped || !b.coverage) return "unknown";
  return b.coverage.before.unreached.length + b.coverage.after.unreached.length === 0 ? "refactor" : "unknown";
}
