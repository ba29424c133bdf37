/**
 * track over real cli.js releases (cached from the npm registry, never committed), spanning four
 * generations of the tool search. What changed where was read from each release's code: 2.0.70 and
 * 2.0.76 share the first MCPSearch scorer and call(); 2.1.10 scores servers and actions; 2.1.14 is
 * ToolSearch with name parts; 2.1.19 adds +required terms and fast paths; 2.1.111 and 2.1.112 are
 * the same routines under other minified names; 2.1.64 (between 2.1.19 and 2.1.111) adds searchHint.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Change } from "../src/track/timeline.js";
import { npmPack } from "./helpers/cache.js";
import { runCli } from "./helpers/cli.js";

const skip = process.env.SEARCHLIFT_SKIP_REAL === "1";
const versions = ["2.0.70", "2.0.76", "2.1.10", "2.1.14", "2.1.19", "2.1.111", "2.1.112"];

describe.skipIf(skip)("track on real releases", () => {
  it("puts a change point exactly where the routine changed, and none where only names did", () => {
    const inputs = versions.map((v) => npmPack(`@anthropic-ai/claude-code@${v}`));
    const out = mkdtempSync(join(tmpdir(), "searchlift-track-real-"));
    const cache = mkdtempSync(join(tmpdir(), "searchlift-track-real-cache-"));
    const r = runCli(["track", ...inputs, "--out", out, "--cache", cache, "--no-verify", "--json"], { timeout: 900_000 });
    expect(r.code, r.stderr).toBe(0);
    const t = JSON.parse(r.stdout);
    expect(t.releases.map((x: { version: string; platform: string }) => `${x.version}/${x.platform}`)).toEqual(
      versions.map((v) => `${v}/npm`),
    );
    expect(t.groups.map((g: { first: string; last: string }) => `${g.first}-${g.last}`)).toEqual([
      "2.0.70-2.0.76",
      "2.1.10-2.1.10",
      "2.1.14-2.1.14",
      "2.1.19-2.1.19",
      "2.1.111-2.1.112",
    ]);
    expect(t.groups.every((g: { routineHash: string | null }) => g.routineHash !== null)).toBe(true);
    // Each change point's probe rows say what the generation added.
    const changes = t.changes as Change[];
    expect(changes.map((c) => `${c.from}-${c.to}`)).toEqual(["2.0.76-2.1.10", "2.1.10-2.1.14", "2.1.14-2.1.19", "2.1.19-2.1.111"]);
    for (const c of changes) expect(c.behaviour!.searched).toBeGreaterThan(0);
    const row = (c: Change, f: string) =>
      c.semantics!.find((r) => r.feature === f) && [
        c.semantics!.find((r) => r.feature === f)!.before,
        c.semantics!.find((r) => r.feature === f)!.after,
      ];
    // 2.0.76 → 2.1.10: a name containing the term +5 → a server name +12 (exact) / +6 (partial), beyond that.
    expect(row(changes[0]!, "adds: MCP server name part, exact / partial")).toEqual(["0 / 0", "12 / 6"]);
    expect(row(changes[2]!, "+required terms")).toEqual(["no", "yes"]);
    expect(row(changes[3]!, "searchHint words count")).toEqual(["no", "yes"]);
  });
});
