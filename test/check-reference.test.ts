/**
 * `check` against the independent reference: random servers and queries go through the CLI (tools named as
 * the client names them, every release's module in the sandbox), and each rank it prints must be where the
 * clean-room reference (test/reference/) puts that tool for that release's generation. Skipped under
 * SEARCHLIFT_SKIP_REAL=1.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { clientTool, type ListedTool } from "../src/check/naming.js";
import { Rng } from "./helpers/random.js";
import { rulesFor } from "./reference/generations.js";
import { liftedModule, lifterKey } from "./reference/lifted-modules.js";
import { toolSearch } from "./reference/tool-search-reference.js";

const skip = process.env.SEARCHLIFT_SKIP_REAL === "1";
const SEED = Number(process.env.SEARCHLIFT_REFERENCE_SEED ?? 0xc4ec);
const BIN = join(import.meta.dirname, "..", "bin", "searchlift.js");
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
}

describe.skipIf(skip)("check against the independent reference", () => {
  it("every rank check prints for random servers and queries is the reference's, on four releases", async () => {
    const key = lifterKey();
    const modules: string[] = [];
    for (const r of RELEASES) modules.push(await liftedModule(r.spec, r.member, key));
    const rng = new Rng(SEED);
    let compared = 0;
    let found = 0;
    for (let round = 0; round < 6; round++) {
      const server = randomServer(rng);
      const queries = randomQueries(rng, server);
      const tools = join(dir, `tools-${round}.json`);
      const queriesFile = join(dir, `queries-${round}.txt`);
      writeFileSync(tools, JSON.stringify({ tools: server.tools }));
      writeFileSync(queriesFile, queries.join("\n"));
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
        "--json",
      ];
      const r = spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8", maxBuffer: 1 << 28 });
      expect(r.status, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout) as CheckJson;
      expect(out.releases.map((x) => x.version)).toEqual(RELEASES.map((x) => x.version));
      const deferred = server.tools.map((t) => {
        const { alwaysLoad: _alwaysLoad, ...tool } = clientTool(server.name, t);
        return tool;
      });
      for (const row of out.results) {
        for (const rel of RELEASES) {
          const expected = toolSearch(rulesFor(rel.version), row.query, deferred, { loaded: [] });
          const rank = expected.indexOf(row.tool) + 1 || null;
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
  }, 900_000);
});
