/**
 * The behaviour of each change point of a timeline: the behaviour view of `searchlift diff`
 * (moduleAnswers and compareAnswers in behaviour.ts, the same comparison) between the first lifted module of group
 * i-1 and that of group i — adjacent groups only. Each module runs in a sandbox child, as diff runs
 * it (never in this process), once for both of its change points. Each result is cached under
 * `<cache>/behaviour/` by the two routines' hashes and the corpus (the same code answers the same
 * way), so a warm rerun runs no module.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../safe-write.js";
import { ExitCode, SearchliftError } from "../errors.js";
import { compareAnswers, moduleAnswers, sandboxScript, searchesMcpOnly, type Behaviour, type ModuleAnswers, type Searcher } from "../diff/behaviour.js";
import { DEFAULT_QUERIES, defaultCatalog, type CatalogTool } from "../routines/tool-search/catalogs.js";
import { moduleSemantics } from "../routines/tool-search/semantics.js";
import { groupMembers, type Change, type Group, type Release, type Timeline } from "./timeline.js";

export interface ChangeOptions {
  /** Folder of the track cache; behaviour results go to its `behaviour/` (default: not cached). */
  cache?: string;
  catalog?: CatalogTool[];
  queries?: readonly string[];
}

/** Part of every cache key: raise it when the behaviour view would answer differently for the same two modules. */
const CACHE_FORMAT = 1;

export async function timelineChanges(t: Timeline, opts: ChangeOptions = {}): Promise<Change[]> {
  const members = groupMembers(t);
  const catalog = opts.catalog ?? defaultCatalog();
  const queries = opts.queries ?? DEFAULT_QUERIES;
  const corpus = sha256(JSON.stringify({ catalog, queries }));
  const dir = opts.cache ? join(opts.cache, "behaviour") : null;
  // A group's module is the later side of one change and the earlier of the next: run once. A run is read
  // later (the next change's starts early), so its failure is marked handled here and reported when awaited.
  const runs = new Map<string, Promise<ModuleAnswers>>();
  const answers = (path: string) => {
    let run = runs.get(path);
    if (!run) {
      run = loadSearcher(path).then((s) => moduleAnswers(s, catalog, queries));
      run.catch(() => {});
      runs.set(path, run);
    }
    return run;
  };

  const changes: Change[] = [];
  const todo: Array<{ at: number; a: string; b: string; file: string | null }> = [];
  for (let i = 1; i < t.groups.length; i++) {
    const [g0, g1] = [t.groups[i - 1]!, t.groups[i]!];
    const base = { from: g0.last, to: g1.first };
    const a = lifted(members[i - 1]!);
    const b = lifted(members[i]!);
    if (!a || !b || !g0.routineHash || !g1.routineHash) {
      const sides = ([[g0, a], [g1, b]] as const).filter(([g, r]) => !r || !g.routineHash).map(([g]) => `${span(g)}: ${g.error ?? "no lifted module"}`);
      changes.push({ ...base, behaviour: null, note: `a side was not lifted (${sides.join("; ")})` });
      continue;
    }
    const file = dir ? join(dir, `${sha256(JSON.stringify([CACHE_FORMAT, g0.routineHash, g1.routineHash, corpus]))}.json`) : null;
    const cached = file ? readCached(file) : null;
    changes.push({ ...base, behaviour: cached });
    if (!cached) todo.push({ at: changes.length - 1, a: a.module!, b: b.module!, file });
  }
  for (let k = 0; k < todo.length; k++) {
    const { at, a, b, file } = todo[k]!;
    // The next change's modules start while this change's run: two sandbox children at a time, not one.
    const next = todo[k + 1];
    if (next) {
      answers(next.a);
      answers(next.b);
    }
    const change = changes[at]!;
    try {
      const [ra, rb] = await Promise.all([answers(a), answers(b)]);
      change.behaviour = compareAnswers(queries, ra.answers, rb.answers);
      if (file) writeCached(file, change.behaviour);
    } catch (e) {
      if (!(e instanceof SearchliftError)) throw e;
      change.note = `${e.message}${e.file ? ` (${e.file})` : ""}`;
    }
  }
  return changes;
}

/** The group's first lifted release (its module is read only when the result is not cached). */
function lifted(rs: Release[]): Release | undefined {
  return rs.find((r) => r.routineHash && r.module);
}

/** A lifted module as diff runs it: checked, made a sandbox script, and told whether it searches MCP tools only. */
async function loadSearcher(path: string): Promise<Searcher> {
  let text;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new SearchliftError(`cannot read the lifted module: ${(e as NodeJS.ErrnoException).code ?? e}`, ExitCode.brokenModule, path);
  }
  const script = sandboxScript(text, path);
  let semantics;
  try {
    semantics = moduleSemantics(text);
  } catch (e) {
    throw new SearchliftError(`cannot read the lifted module: ${(e as Error).message}`, ExitCode.brokenModule, path);
  }
  return { script, mcpOnly: searchesMcpOnly(semantics), label: path };
}

function span(g: Group): string {
  return g.first === g.last ? g.first : `${g.first} – ${g.last}`;
}

function sha256(s: string): string {
  return createHash("sha256").update(s).digest("hex");
}

function readCached(file: string): Behaviour | null {
  try {
    const b = JSON.parse(readFileSync(file, "utf8")) as Behaviour;
    return typeof b.queries === "number" && Array.isArray(b.changed) ? b : null;
  } catch {
    return null;
  }
}

function writeCached(file: string, b: Behaviour): void {
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileAtomic(file, JSON.stringify(b));
}
