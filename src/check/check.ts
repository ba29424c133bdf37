/**
 * `searchlift check`: will Claude Code find an MCP server's tools? The server's tools (named as the client
 * names them), plus competitors, are ranked by each release's own tool search for each query; a tool that
 * none of its own queries returns on some release is unfound.
 */
import { assertSandboxable } from "../verify/sandbox.js";
import type { ClientTool } from "./naming.js";
import type { Query } from "./queries.js";
import { checkedScript, rankWithModule, type ModuleRanking } from "./rank.js";

export interface CheckRelease {
  /** The key of this release in `ranks`: its version, with its platform when two releases share a version. */
  version: string;
  platform: string;
  module: string;
}

export interface CheckRow {
  tool: string;
  query: string;
  /** 1-based place in what the release's toolSearch returned; null when not returned. */
  ranks: Record<string, number | null>;
}

export interface Unfound {
  tool: string;
  /** The releases on which none of the tool's own queries returns it. */
  releases: string[];
}

export interface CheckResult {
  server: string;
  releases: CheckRelease[];
  results: CheckRow[];
  unfound: Unfound[];
  /** The server's always-loaded tools: never searched for, so never unfound. */
  loaded: string[];
}

export interface CheckInput {
  server: string;
  /** The server's own tools. */
  tools: ClientTool[];
  /** Other servers' tools, searched among but not reported. */
  competitors: ClientTool[];
  queries: Query[];
  /** Lifted module paths. */
  modules: string[];
  /** Told when two modules are the same release (installed and latest often are): it is ranked once. */
  log?: (line: string) => void;
}

export async function runCheck(input: CheckInput): Promise<CheckResult> {
  // The sandbox's one-time check runs while the modules are read and checked.
  assertSandboxable().catch(() => {});
  const scripts = input.modules.map((m) => checkedScript(m));
  const all = [...input.tools, ...input.competitors];
  const texts = input.queries.map((q) => q.text);
  const rankings = distinctReleases(await Promise.all(input.modules.map((m, i) => rankWithModule(m, scripts[i]!, all, texts))), input.log);
  const releases = releaseKeys(rankings);
  return {
    server: input.server,
    releases,
    results: rows(input, rankings, releases),
    unfound: unfoundTools(input, rankings, releases),
    loaded: input.tools.filter((t) => t.alwaysLoad).map((t) => t.name),
  };
}

/** The rankings without a second one of the same version and platform (the same release, lifted twice). */
function distinctReleases(rankings: ModuleRanking[], log?: (line: string) => void): ModuleRanking[] {
  return rankings.filter((r, i) => {
    const first = rankings.findIndex((x) => x.version === r.version && x.platform === r.platform && r.version !== "unknown");
    if (first === i || first < 0) return true;
    log?.(`${r.module} is ${r.version} (${r.platform}) again: ranked once`);
    return false;
  });
}

function releaseKeys(rankings: ModuleRanking[]): CheckRelease[] {
  const count = (v: string) => rankings.filter((r) => r.version === v).length;
  const used = new Set<string>();
  return rankings.map((r) => {
    let key = count(r.version) > 1 ? `${r.version} (${r.platform})` : r.version;
    for (let n = 2; used.has(key); n++) key = `${r.version} (${r.platform}) #${n}`;
    used.add(key);
    return { version: key, platform: r.platform, module: r.module };
  });
}

function rankIn(returned: string[], tool: string): number | null {
  const i = returned.indexOf(tool);
  return i < 0 ? null : i + 1;
}

/** Per query: its own tools, then the server's other tools some release returned for it. */
function rows(input: CheckInput, rankings: ModuleRanking[], releases: CheckRelease[]): CheckRow[] {
  const out: CheckRow[] = [];
  input.queries.forEach((q, qi) => {
    const returnedSomewhere = input.tools.filter((t) => !q.owners.includes(t.name) && rankings.some((r) => r.returned[qi]!.includes(t.name)));
    for (const tool of [...q.owners, ...returnedSomewhere.map((t) => t.name)]) {
      const ranks = Object.fromEntries(releases.map((rel, ri) => [rel.version, rankIn(rankings[ri]!.returned[qi]!, tool)]));
      out.push({ tool, query: q.text, ranks });
    }
  });
  return out;
}

function unfoundTools(input: CheckInput, rankings: ModuleRanking[], releases: CheckRelease[]): Unfound[] {
  const out: Unfound[] = [];
  for (const t of input.tools.filter((x) => !x.alwaysLoad)) {
    const own = input.queries.map((q, qi) => (q.owners.includes(t.name) ? qi : -1)).filter((qi) => qi >= 0);
    const missed = releases.filter((_, ri) => !own.some((qi) => rankings[ri]!.returned[qi]!.includes(t.name)));
    if (missed.length) out.push({ tool: t.name, releases: missed.map((r) => r.version) });
  }
  return out;
}
