/**
 * The behaviour of each change point of a timeline: the behaviour view of `searchlift diff`
 * (behaviourDiff in behaviour.ts, the same comparison) between the first lifted module of group
 * i-1 and that of group i — adjacent groups only. The modules are imported into this process, as
 * diff imports them. Each result is cached under `<cache>/behaviour/` by the two routines' hashes
 * and the corpus (the same code answers the same way), so a warm rerun imports no module.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../safe-write.js";
import { ExitCode, SearchliftError } from "../errors.js";
import { behaviourDiff, importLifted, searchesMcpOnly, type Behaviour, type Searcher } from "../diff/behaviour.js";
import { DEFAULT_QUERIES, defaultCatalog, type CatalogTool } from "../routines/tool-search/catalogs.js";
import { moduleSemantics } from "../routines/tool-search/semantics.js";
import { groupMembers, type Change, type Group, type Release, type Timeline } from "./timeline.js";

export interface ChangeOptions {
  /** Folder of the track cache; behaviour results go to its `behaviour/` (default: not cached). */
  cache?: string;
  catalog?: CatalogTool[];
  queries?: readonly string[];
}

/** Part of every cache key: raise it when behaviourDiff would answer differently for the same two modules. */
const CACHE_FORMAT = 1;

export async function timelineChanges(t: Timeline, opts: ChangeOptions = {}): Promise<Change[]> {
  const members = groupMembers(t);
  const catalog = opts.catalog ?? defaultCatalog();
  const queries = opts.queries ?? DEFAULT_QUERIES;
  const corpus = sha256(JSON.stringify({ catalog, queries }));
  const dir = opts.cache ? join(opts.cache, "behaviour") : null;
  // A group's module is the later side of one change and the earlier of the next: imported once.
  const searchers = new Map<string, Promise<Searcher>>();
  const searcher = (path: string) => {
    if (!searchers.has(path)) searchers.set(path, loadSearcher(path));
    return searchers.get(path)!;
  };

  const changes: Change[] = [];
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
    if (cached) {
      changes.push({ ...base, behaviour: cached });
      continue;
    }
    try {
      const behaviour = await behaviourDiff(await searcher(a.module!), await searcher(b.module!), { catalog, queries });
      if (file) writeCached(file, behaviour);
      changes.push({ ...base, behaviour });
    } catch (e) {
      if (!(e instanceof SearchliftError)) throw e;
      changes.push({ ...base, behaviour: null, note: `${e.message}${e.file ? ` (${e.file})` : ""}` });
    }
  }
  return changes;
}

/** The group's first lifted release (its module is read only when the result is not cached). */
function lifted(rs: Release[]): Release | undefined {
  return rs.find((r) => r.routineHash && r.module);
}

/** A lifted module as diff runs it: imported, and told whether it searches MCP tools only. */
async function loadSearcher(path: string): Promise<Searcher> {
  const module = await importLifted(path);
  let semantics;
  try {
    semantics = moduleSemantics(readFileSync(path, "utf8"));
  } catch (e) {
    throw new SearchliftError(`cannot read the lifted module: ${(e as Error).message}`, ExitCode.brokenModule, path);
  }
  return { module, mcpOnly: searchesMcpOnly(semantics), label: path };
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
