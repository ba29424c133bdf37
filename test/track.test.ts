/**
 * track over the sample releases (our tool-search samples bundled as successive versions): one
 * change point per generation, none between 0.3.0 and 0.3.1 (same code, other names), the release
 * that cannot be lifted on its own, a warm rerun from the cache, and a resumed run.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildTimeline, compareVersions } from "../src/track/timeline.js";

const ROOT = join(import.meta.dirname, "..");
const RELEASES = join(ROOT, "samples", "releases");

function run(...args: string[]) {
  const r = spawnSync(process.execPath, [join(ROOT, "bin", "searchlift.js"), ...args], { encoding: "utf8", timeout: 600_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("searchlift track", () => {
  it("groups the sample releases by routine, caches the lifts, and resumes", () => {
    const out = mkdtempSync(join(tmpdir(), "searchlift-track-"));
    const cache = mkdtempSync(join(tmpdir(), "searchlift-track-cache-"));
    const first = run("track", RELEASES, "--out", out, "--cache", cache, "--no-verify", "--json");
    expect(first.code, first.stderr).toBe(0);
    const t = JSON.parse(first.stdout);
    expect(t.releases.map((r: { version: string }) => r.version)).toEqual(["0.1.0", "0.2.0", "0.3.0", "0.3.1", "0.4.0", "0.5.0", "0.6.0", "0.7.0"]);
    // One group per generation: the two builds of name-parts share one.
    expect(t.groups.map((g: { first: string; last: string }) => `${g.first}-${g.last}`)).toEqual(["0.1.0-0.1.0", "0.2.0-0.2.0", "0.3.0-0.3.1", "0.4.0-0.4.0", "0.5.0-0.5.0", "0.6.0-0.6.0", "0.7.0-0.7.0"]);
    const hashes = t.groups.map((g: { routineHash: string | null }) => g.routineHash);
    expect(new Set(hashes.slice(0, 6)).size).toBe(6);
    expect(hashes[6]).toBeNull();
    expect(t.groups[6].error).toMatch(/cannot lift/);
    expect(t.releases[2]).toMatchObject({ version: "0.3.0", platform: "npm" });
    expect(readFileSync(join(out, "timeline.md"), "utf8")).toContain("| 0.3.0 – 0.3.1 (2) |");
    // The HTML report beside them (tested in a browser in report-browser.test.ts).
    expect(readFileSync(join(out, "timeline.html"), "utf8")).toMatch(/<table class="groups">[\s\S]*0\.3\.0 – 0\.3\.1/);

    // Warm: nothing lifted again, same timeline.
    const warm = run("track", RELEASES, "--out", out, "--cache", cache, "--no-verify");
    expect(warm.code).toBe(0);
    expect(warm.stdout).toMatch(/8 releases \(0 lifted now/);

    // Interrupted run: one release's result missing — only that one is lifted again.
    const dirs = readdirSync(cache).filter((d) => /^[0-9a-f]{64}$/.test(d));
    expect(dirs).toHaveLength(8);
    rmSync(join(cache, dirs[0]!), { recursive: true });
    const resumed = run("track", RELEASES, "--out", out, "--cache", cache, "--no-verify");
    expect(resumed.stdout).toMatch(/8 releases \(1 lifted now/);
  });
});

describe("timeline", () => {
  it("orders versions numerically and keeps an unliftable release apart", () => {
    expect(["2.1.10", "2.1.9", "2.0.70", "2.1.100"].sort(compareVersions)).toEqual(["2.0.70", "2.1.9", "2.1.10", "2.1.100"]);
    const t = buildTimeline([
      { input: "b", version: "1.0.1", platform: "npm", routineHash: "x", verified: null },
      { input: "a", version: "1.0.0", platform: "npm", routineHash: "x", verified: null },
      { input: "c", version: "1.0.2", platform: "npm", routineHash: null, verified: null, error: "no" },
      { input: "d", version: "1.0.3", platform: "npm", routineHash: "x", verified: null },
    ]);
    expect(t.groups.map((g) => [g.first, g.last])).toEqual([["1.0.0", "1.0.1"], ["1.0.2", "1.0.2"], ["1.0.3", "1.0.3"]]);
  });
});
