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
import { ExitCode, SearchliftError } from "../errors.js";
import { impurities } from "../lift/purity.js";
import type { RoutinePack } from "../routines/pack.js";
import { toolSearchPack } from "../routines/tool-search/index.js";
import type { SemanticRow } from "../routines/pack.js";
import type { Tool } from "../routines/tool-search/corpus.js";
import { moduleToScript } from "../verify/verify.js";
import { codeTokens } from "./code-tokens.js";
import { ModuleRunError, type Side } from "./witness-run.js";
import { answerOf, DEFAULT_BUDGET, searchWitnesses, type Budget } from "./witness-search.js";

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
}

export interface Behaviour {
  /** Candidate calls run on both modules, and the seconds the search (shrinking and replay included) took. */
  searched: number;
  seconds: number;
  /** Why the view ended before its work was done (its overall time bound was reached); absent when it finished. */
  stopped?: string;
  /** Calls stopped by a sandbox limit (time, stack, memory) on either side: not compared, never witnesses. */
  limitHits?: number;
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
  pack: RoutinePack = toolSearchPack,
  boundSeconds: number = BEHAVIOUR_BOUND_S,
): Promise<BehaviourView> {
  const tokens = codeTokens(a.text, b.text);
  const probes = pack.probes(tokens.numbers);
  const side = (m: ModuleSide): Side => ({ script: m.script, label: m.label });
  const bound = new AbortController();
  const timer = setTimeout(() => bound.abort(), boundSeconds * 1000);
  let found;
  try {
    found = await searchWitnesses(side(a), side(b), pack.witnessCandidates(tokens), {
      budget,
      prelude: probes.flatMap((p) => p.calls),
      kindOf: pack.witnessKind,
      focus: pack.witnessFocus,
      bound: { signal: bound.signal, seconds: boundSeconds },
    });
  } catch (e) {
    if (e instanceof ModuleRunError) throw new SearchliftError(e.message, ExitCode.brokenModule, e.label);
    throw e;
  } finally {
    clearTimeout(timer);
  }
  const { rows, sentences } = pack.probeRows(probes, found.prelude[0].map(answerOf), found.prelude[1].map(answerOf));
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
  const kept = withinBytes(changed, MAX_WITNESS_BYTES);
  const limits = found.limitHits > 0 ? [`${found.limitHits} call(s) were stopped by a sandbox limit (time or stack) and not compared`] : [];
  return {
    semantics: rows,
    behaviour: {
      searched: found.searched,
      seconds: Math.round(found.seconds * 10) / 10,
      ...(found.stopped !== undefined ? { stopped: found.stopped } : {}),
      ...(found.limitHits > 0 ? { limitHits: found.limitHits } : {}),
      changed: kept,
      // Where the view stopped early, it says so first: what follows is what was found by then.
      sentences: [
        ...(found.stopped !== undefined ? [`stopped: ${found.stopped}`] : []),
        ...limits,
        ...sentences,
        ...kept.map((w) => w.summary),
      ],
    },
  };
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
  return `no behaviour difference found in ${b.searched} cases (${b.seconds} s)${b.stopped ? `; stopped: ${b.stopped}` : ""}`;
}
