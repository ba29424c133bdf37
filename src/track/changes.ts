/**
 * The behaviour of each change point of a timeline: the behaviour view of `searchlift diff` (behaviourView in
 * behaviour.ts: probe rows and witnesses found by search) between the first lifted module of group i-1 and
 * that of group i — adjacent groups only. Modules run in sandbox children, as diff runs them (never in this
 * process). Each result is cached under `<cache>/behaviour/` by the two routines' hashes, the view's format
 * and the budget (the same code answers the same way), so a warm rerun runs no module.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import * as z from "zod/mini";
import { writeFileAtomic } from "../safe-write.js";
import { parseJsonOrNull } from "../schemas/json.js";
import { ExitCode, SearchliftError } from "../errors.js";
import { behaviourView, sandboxScript, type BehaviourView, type ModuleSide } from "../diff/behaviour.js";
import { DEFAULT_BUDGET, type Budget } from "../diff/witness-search.js";
import { codeSummary, type CodeSummary } from "../diff/code-summary.js";
import { withInputChanges } from "../diff/diff.js";
import type { RoutinePack } from "../routines/pack.js";
import { groupMembers, type Change, type Group, type Release, type Timeline } from "./timeline.js";

export interface ChangeOptions {
  /** Folder of the track cache; behaviour results go to its `behaviour/` (default: not cached). */
  cache?: string;
  budget?: Budget;
  /** Change points compared at once (default 1). */
  jobs?: number;
  /** The folder relative paths to modules start from (track: the timeline folder). Default: the working folder. */
  dir?: string;
  /** The routine whose modules are compared. */
  pack: RoutinePack;
  /** Called as each change point is done (from the cache or compared): how many of how many, and which. */
  onChange?: (done: number, total: number, change: Change) => void;
}

/** Part of every cache key: raise it when the behaviour view would answer differently for the same two modules.
 *  2: witnesses by search and probe rows (1 was the fixed catalog's queries); 3: witnesses shrunk to few tools;
 *  5: the code summary kept beside the view; 6: work-bounded, steered search with the changed code's coverage;
 *  7: the scoring table's "adds: …" rows in place of single-query scores, throws said after result changes;
 *  8: a witness's rule said where calls made from it find one (a paragraph dropped from descriptions);
 *  9: the changed points the contract's functions can never run counted apart (coverage's `unreachable`);
 *  10: more of them known (empty arrays through the select path's pairs, hand-offs and copies);
 *  11–13: the alias, malformed-field and companion rules, and names and non-objects as candidates;
 *  14: the strings the changed code compares given back to it, a word of the query as a rule, map reads that
 *  always find their entry and methods no code calls known unreachable; 15: the query-word rule said only of a
 *  tool added beside what was returned; 16: lookups of a list element's own name and comparisons on a new
 *  instance's first use known. */
const CACHE_FORMAT = 16;

/** What is cached of a change point: the behaviour view and the code summary (both fixed by the two modules). */
type Compared = BehaviourView & { code: CodeSummary };

export async function timelineChanges(t: Timeline, opts: ChangeOptions): Promise<Change[]> {
  const members = groupMembers(t);
  const budget = opts.budget ?? DEFAULT_BUDGET;
  const dir = opts.cache ? join(opts.cache, "behaviour") : null;
  const change = async (i: number): Promise<Change> => {
    const [g0, g1] = [t.groups[i - 1]!, t.groups[i]!];
    const base = { from: g0.last, to: g1.first };
    const a = lifted(members[i - 1]!);
    const b = lifted(members[i]!);
    if (!a || !b || !g0.routineHash || !g1.routineHash) {
      const sides = (
        [
          [g0, a],
          [g1, b],
        ] as const
      )
        .filter(([g, r]) => !r || !g.routineHash)
        .map(([g]) => `${span(g)}: ${g.error ?? "no lifted module"}`);
      return { ...base, behaviour: null, note: `a side was not lifted (${sides.join("; ")})` };
    }
    const file = dir ? join(dir, `${sha256(JSON.stringify([CACHE_FORMAT, g0.routineHash, g1.routineHash, budget]))}.json`) : null;
    let view = file ? readCached(file) : null;
    try {
      if (!view) {
        const [sa, sb] = [loadSide(a.module!, opts.dir), loadSide(b.module!, opts.dir)];
        view = {
          ...withInputChanges(await behaviourView(sa, sb, budget, opts.pack), opts.pack.inputChanges?.(sa.text, sb.text)),
          code: codeSummary(sa.text, sb.text),
        };
        if (file) writeCached(file, view);
      }
      return { ...base, behaviour: view.behaviour, semantics: view.semantics, code: view.code };
    } catch (e) {
      if (!(e instanceof SearchliftError)) throw e;
      return { ...base, behaviour: null, note: `${e.message}${e.file ? ` (${e.file})` : ""}` };
    }
  };
  // Change points are independent: `jobs` of them at once (each runs its two modules in sandbox children).
  const changes = new Array<Change>(Math.max(0, t.groups.length - 1));
  let next = 1;
  let done = 0;
  const worker = async () => {
    for (let i = next++; i < t.groups.length; i = next++) {
      changes[i - 1] = await change(i);
      opts.onChange?.(++done, changes.length, changes[i - 1]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.floor(opts.jobs ?? 1)) }, worker));
  return changes;
}

/** The group's first lifted release (its module is read only when the result is not cached). */
function lifted(rs: Release[]): Release | undefined {
  return rs.find((r) => r.routineHash && r.module);
}

/** A lifted module as diff runs it: read, checked and made a sandbox script. */
function loadSide(path: string, dir = "."): ModuleSide {
  let text;
  try {
    text = readFileSync(resolve(dir, path), "utf8");
  } catch (e) {
    throw new SearchliftError(
      `cannot read the lifted module: ${(e as NodeJS.ErrnoException).code ?? String(e)}`,
      ExitCode.brokenModule,
      path,
    );
  }
  return { text, script: sandboxScript(text, path), label: path };
}

function span(g: Group): string {
  return g.first === g.last ? g.first : `${g.first} – ${g.last}`;
}

function sha256(s: string): string {
  return createHash("sha256").update(s).digest("hex");
}

/** A cached comparison as writeCached wrote it: other fields are kept, as the view may carry more. */
const comparedSchema = z.looseObject({
  semantics: z.array(z.unknown()),
  behaviour: z.looseObject({ searched: z.number(), changed: z.array(z.unknown()), sentences: z.array(z.unknown()) }),
  code: z.looseObject({ added: z.array(z.string()), removed: z.array(z.string()), changed: z.array(z.string()) }),
});

/** The comparison cached in `file`, or null (compared again) when there is none or it is of another shape. */
export function readCached(file: string): Compared | null {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return null;
  }
  // The rows and sentences are what this same view wrote (writeCached), under a key that holds its format.
  return parseJsonOrNull(comparedSchema, text) as Compared | null;
}

function writeCached(file: string, v: Compared): void {
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileAtomic(file, JSON.stringify(v));
}
