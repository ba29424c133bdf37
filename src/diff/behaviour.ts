/**
 * The behaviour view of `searchlift diff`: both lifted modules answer the same queries over the
 * same catalog (src/routines/tool-search/catalogs.ts); the queries whose top results (names, or their scores)
 * differ are the behaviour changes. Keyword queries go through `searchTools`, `select:` queries
 * through `toolSearch` (the whole call, which is where `select:` lives); scores come from
 * `scoreTools`. A module of the MCPSearch era searches MCP tools only, so it gets the MCP tools as
 * its deferred tools and the built-ins as loaded ones, as the contract asks.
 */
import { pathToFileURL } from "node:url";
import { ExitCode, SearchliftError } from "../errors.js";
import { DEFAULT_QUERIES, defaultCatalog, type CatalogTool } from "../routines/tool-search/catalogs.js";
import type { Semantics } from "../routines/tool-search/semantics.js";

export interface LiftedModule {
  searchTools(query: string, deferred: CatalogTool[], options?: { loaded?: CatalogTool[]; maxResults?: number }): Promise<string[]>;
  scoreTools(query: string, deferred: CatalogTool[], options?: { loaded?: CatalogTool[]; maxResults?: number }): Promise<Array<{ name: string; score: number }>>;
  toolSearch(query: string, deferred: CatalogTool[], options?: { loaded?: CatalogTool[]; maxResults?: number }): Promise<string[]>;
  defaults?: { maxResults: number };
  provenance?: { client?: string; version?: string; platform?: string };
}

export interface Searcher {
  module: LiftedModule;
  /** The module searches MCP tools only (the MCPSearch era). */
  mcpOnly: boolean;
  /** For messages. */
  label: string;
}

/** A result and its keyword score; null for results of `select:` and of fast paths, which are not scored. */
export interface Ranked {
  name: string;
  score: number | null;
}

export interface BehaviourChange {
  query: string;
  before: Ranked[];
  after: Ranked[];
}

export interface Behaviour {
  queries: number;
  changed: BehaviourChange[];
}

let imports = 0;

/** Import a lifted module (a fresh instance each time, so an edited file is read again). */
export async function importLifted(path: string): Promise<LiftedModule> {
  let m: Record<string, unknown>;
  try {
    m = (await import(`${pathToFileURL(path).href}?diff=${++imports}`)) as Record<string, unknown>;
  } catch (e) {
    throw new SearchliftError(`cannot import the lifted module: ${(e as Error).message}`, ExitCode.brokenModule, path);
  }
  const missing = ["searchTools", "scoreTools", "toolSearch"].filter((f) => typeof m[f] !== "function");
  if (missing.length) throw new SearchliftError(`not a lifted tool-search module: no ${missing.join(", ")} export`, ExitCode.brokenModule, path);
  return m as unknown as LiftedModule;
}

/** The module searches MCP tools only (the MCPSearch era), as its semantics say. */
export function searchesMcpOnly(semantics: Semantics): boolean {
  return semantics.find((r) => r.feature === "searches")?.value === "MCP tools";
}

const SELECT = /^select:/i;

export async function run(s: Searcher, query: string, catalog: CatalogTool[]): Promise<Ranked[]> {
  const deferred = s.mcpOnly ? catalog.filter(isMcp) : catalog;
  const options = s.mcpOnly ? { loaded: catalog.filter((t) => !isMcp(t)) } : {};
  try {
    if (SELECT.test(query)) return (await s.module.toolSearch(query, deferred, options)).map((name) => ({ name, score: null }));
    const names = await s.module.searchTools(query, deferred, options);
    const scores = new Map((await s.module.scoreTools(query, deferred, options)).map((r) => [r.name, r.score]));
    // Keyword results always score above 0: a result scoring 0 came from a fast path (exact name, mcp__ prefix), which scoreTools does not apply.
    return names.map((name) => {
      const score = scores.get(name);
      return { name, score: score === undefined || score <= 0 ? null : score };
    });
  } catch (e) {
    throw new SearchliftError(`the lifted module failed on query ${JSON.stringify(query)}: ${(e as Error)?.message ?? e}`, ExitCode.brokenModule, s.label);
  }
}

export async function behaviourDiff(a: Searcher, b: Searcher, corpus: { catalog?: CatalogTool[]; queries?: readonly string[] } = {}): Promise<Behaviour> {
  const catalog = corpus.catalog ?? defaultCatalog();
  const queries = corpus.queries ?? DEFAULT_QUERIES;
  const changed: BehaviourChange[] = [];
  for (const query of queries) {
    const [before, after] = await Promise.all([run(a, query, catalog), run(b, query, catalog)]);
    if (JSON.stringify(before) !== JSON.stringify(after)) changed.push({ query, before, after });
  }
  return { queries: queries.length, changed };
}

function isMcp(t: CatalogTool): boolean {
  return t.isMcp ?? t.name.startsWith("mcp__");
}
