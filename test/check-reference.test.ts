/**
 * `check` against the independent reference: random servers and queries go through the CLI (tools named as
 * the client names them, every release's module in the sandbox), and each rank it prints must be where the
 * clean-room reference (test/reference/) puts that tool for that release's generation; and each expectation
 * (random queries, tools, bars and releases) is judged on exactly the releases it names, met there iff the
 * reference's rank is at most its bar. Skipped under SEARCHLIFT_SKIP_REAL=1.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import semver from "semver";
import { afterAll, describe, expect, it } from "vitest";
import { clientTool, type ListedTool } from "../src/check/naming.js";
import { runCli } from "./helpers/cli.js";
import { Rng } from "./helpers/random.js";
import { rulesFor } from "./reference/generations.js";
import { liftedModule, lifterKey } from "./reference/lifted-modules.js";
import { toolSearch } from "./reference/tool-search-reference.js";

const skip = process.env.SEARCHLIFT_SKIP_REAL === "1";
const SEED = Number(process.env.SEARCHLIFT_REFERENCE_SEED ?? 0xc4ec);
const dir = mkdtempSync(join(tmpdir(), "searchlift-check-reference-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** One release per scorer family that check users meet: cli.js, bare-name select, the caps, the latest. */
const RELEASES = [
  { version: "2.1.112", spec: "@anthropic-ai/claude-code@2.1.112", member: "package/cli.js" },
  { version: "2.1.271", spec: "@anthropic-ai/claude-code-linux-x64@2.1.271", member: "package/claude" },
  { version: "2.1.300", spec: "@anthropic-ai/claude-code-linux-x64@2.1.300", member: "package/claude" },
  { version: "2.1.332", spec: "@anthropic-ai/claude-code-linux-x64@2.1.332", member: "package/claude" },
];

const SERVERS = ["github", "linear", "Notion Docs", "fs.local", "jira"];
const VERBS = ["get", "list", "create", "update", "delete", "search", "sync", "export", "Fetch", "archive"];
const NOUNS = ["issue", "repo", "page", "file", "comment", "project", "user", "Label", "branch", "sprint"];
const FILLER = ["the", "a", "returns", "json", "with", "its", "id", "and", "state", "for", "team", "workspace"];

function randomServer(rng: Rng): { name: string; tools: ListedTool[] } {
  const names = new Set<string>();
  const count = 4 + rng.int(10);
  while (names.size < count) names.add(`${rng.pick(VERBS)}${rng.pick(["_", "-", ""])}${rng.pick(NOUNS)}`);
  const tools = [...names].map((name): ListedTool => {
    const words = Array.from({ length: 3 + rng.int(12) }, () => rng.pick(rng.chance(0.4) ? [...VERBS, ...NOUNS] : FILLER));
    const hint = rng.chance(0.3) ? { _meta: { "anthropic/searchHint": `${rng.pick(NOUNS)} ${rng.pick(VERBS)}` } } : {};
    return { name, description: words.join(" "), ...hint };
  });
  return { name: rng.pick(SERVERS), tools };
}

function randomQueries(rng: Rng, server: { name: string; tools: ListedTool[] }): string[] {
  const queries = new Set<string>();
  while (queries.size < 8) {
    const tool = rng.pick(server.tools);
    const kind = rng.int(6);
    if (kind === 0) queries.add(`select:${rng.chance(0.5) ? tool.name : clientTool(server.name, tool).name}`);
    else if (kind === 1) queries.add(`+${rng.pick(NOUNS).toLowerCase()} ${rng.pick(VERBS).toLowerCase()}`);
    else if (kind === 2) queries.add(clientTool(server.name, tool).name.slice(0, 5 + rng.int(12)));
    else queries.add(Array.from({ length: 1 + rng.int(3) }, () => rng.pick([...VERBS, ...NOUNS, ...FILLER])).join(" "));
  }
  return [...queries];
}

interface CheckJson {
  releases: Array<{ version: string }>;
  results: Array<{ tool: string; query: string; ranks: Record<string, number | null> }>;
  expectations: Array<{ query: string; tool: string; rank: number | null; results: Record<string, { rank: number | null; met: boolean }> }>;
  baseline: { items: Array<{ query: string; tool: string; ranks: Record<string, { old: number | null; new: number | null }> }> };
}

/** An earlier catalog of the same server: hints gone, descriptions cut to their first words, a tool dropped. */
function olderCatalog(rng: Rng, tools: ListedTool[]): ListedTool[] {
  return tools
    .filter(() => rng.chance(0.9))
    .map((t) => ({
      name: t.name,
      description: (t.description ?? "")
        .split(" ")
        .slice(0, 1 + rng.int(4))
        .join(" "),
    }));
}

interface ExpectationEntry {
  query: string;
  tool: string;
  rank?: number;
  releases?: string[];
}

/** Random expectations over the round's queries and a few of its own: a tool by either name, a bar or none, some releases. */
function randomExpectations(rng: Rng, server: { name: string; tools: ListedTool[] }, queries: string[]): ExpectationEntry[] {
  const out: ExpectationEntry[] = [];
  for (let i = 0; i < 10; i++) {
    const tool = rng.pick(server.tools);
    const query = rng.chance(0.7) ? rng.pick(queries) : `${rng.pick(VERBS).toLowerCase()} ${rng.pick(NOUNS).toLowerCase()}`;
    const releases = rng.chance(0.3)
      ? [rng.pick(RELEASES).version]
      : rng.chance(0.2)
        ? [rng.pick([">=2.1.200", "2.1.100-2.1.280", "<2.1.300 || 2.1.332"])]
        : undefined;
    out.push({
      query,
      tool: rng.chance(0.5) ? tool.name : clientTool(server.name, tool).name,
      ...(rng.chance(0.6) ? { rank: 1 + rng.int(5) } : {}),
      ...(releases ? { releases } : {}),
    });
  }
  return out;
}

/** Whether an expectation names a release: as check reads `releases` (a version, a hyphen range, a semver range). */
function names(e: ExpectationEntry, version: string): boolean {
  if (!e.releases) return true;
  return e.releases.some((r) => r === version || semver.satisfies(version, r.replace(/^(\S+)-(\S+)$/, "$1 - $2")));
}

describe.skipIf(skip)("check against the independent reference", () => {
  it("every rank check prints for random servers and queries is the reference's, on four releases", async () => {
    const key = lifterKey();
    const modules: string[] = [];
    for (const r of RELEASES) modules.push(await liftedModule(r.spec, r.member, key));
    const rng = new Rng(SEED);
    let compared = 0;
    let found = 0;
    const judged = { met: 0, missed: 0 };
    let moved = 0;
    for (let round = 0; round < 6; round++) {
      const server = randomServer(rng);
      const queries = randomQueries(rng, server);
      const expectations = randomExpectations(rng, server, queries);
      const maxRank = rng.chance(0.5) ? 1 + rng.int(4) : undefined;
      const tools = join(dir, `tools-${round}.json`);
      const queriesFile = join(dir, `queries-${round}.txt`);
      const expectationsFile = join(dir, `expectations-${round}.json`);
      writeFileSync(tools, JSON.stringify({ tools: server.tools }));
      writeFileSync(queriesFile, queries.join("\n"));
      writeFileSync(expectationsFile, JSON.stringify(expectations));
      const older = olderCatalog(rng, server.tools);
      const baselineFile = join(dir, `baseline-${round}.json`);
      writeFileSync(baselineFile, JSON.stringify({ tools: older }));
      const args = [
        "check",
        "--tools",
        tools,
        "--server-name",
        server.name,
        "--queries",
        queriesFile,
        "--releases",
        modules.join(","),
        "--expectations",
        expectationsFile,
        ...(maxRank ? ["--max-rank", String(maxRank)] : []),
        "--baseline",
        baselineFile,
        "--json",
      ];
      const r = runCli(args, { timeout: 0 });
      expect(r.code, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout) as CheckJson;
      expect(out.releases.map((x) => x.version)).toEqual(RELEASES.map((x) => x.version));
      const deferred = server.tools.map((t) => {
        const { alwaysLoad: _alwaysLoad, ...tool } = clientTool(server.name, t);
        return tool;
      });
      const reference = (version: string, query: string, tool: string) =>
        toolSearch(rulesFor(version), query, deferred, { loaded: [] }).indexOf(tool) + 1 || null;
      expect(out.expectations).toHaveLength(expectations.length);
      out.expectations.forEach((got, i) => {
        const e = expectations[i]!;
        const tool = clientTool(
          server.name,
          server.tools.find((t) => t.name === e.tool || clientTool(server.name, t).name === e.tool)!,
        ).name;
        const bar = e.rank ?? maxRank ?? null;
        expect([got.query, got.tool, got.rank]).toEqual([e.query, tool, bar]);
        for (const rel of RELEASES) {
          const where = `${rel.version} ${JSON.stringify(e)} (seed ${SEED}, round ${round})`;
          if (!names(e, rel.version)) {
            expect(got.results[rel.version], where).toBeUndefined();
            continue;
          }
          const rank = reference(rel.version, e.query, tool);
          const met = rank !== null && (bar === null || rank <= bar);
          expect(got.results[rel.version], where).toEqual({ rank, met });
          judged[met ? "met" : "missed"]++;
        }
      });
      // The baseline: the older catalog's ranks, as the reference ranks it, beside this one's.
      const olderDeferred = older.map((t) => {
        const { alwaysLoad: _alwaysLoad, ...tool } = clientTool(server.name, t);
        return tool;
      });
      const olderRank = (version: string, query: string, tool: string) =>
        toolSearch(rulesFor(version), query, olderDeferred, { loaded: [] }).indexOf(tool) + 1 || null;
      expect(out.baseline.items).toHaveLength(expectations.length);
      for (const item of out.baseline.items)
        for (const [version, cell] of Object.entries(item.ranks)) {
          if (cell.old !== cell.new) moved++;
          expect(cell, `baseline ${version} ${item.query} ${item.tool} (seed ${SEED}, round ${round})`).toEqual({
            old: olderRank(version, item.query, item.tool),
            new: reference(version, item.query, item.tool),
          });
        }
      for (const row of out.results) {
        for (const rel of RELEASES) {
          const rank = reference(rel.version, row.query, row.tool);
          expect(row.ranks[rel.version], `${rel.version} ${JSON.stringify(row.query)} ${row.tool} (seed ${SEED}, round ${round})`).toBe(
            rank,
          );
          compared++;
          if (rank !== null) found++;
        }
      }
    }
    // Both outcomes must occur, or the comparison says little.
    expect(found).toBeGreaterThan(compared / 10);
    expect(compared - found).toBeGreaterThan(compared / 10);
    expect(judged.met).toBeGreaterThan(10);
    expect(judged.missed).toBeGreaterThan(10);
    expect(moved).toBeGreaterThan(10);
  }, 900_000);
});
