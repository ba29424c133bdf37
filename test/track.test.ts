/**
 * track over the sample releases (our tool-search samples bundled as successive versions): one
 * change point per generation, none between 0.3.0 and 0.3.1 (same code, other names), the release
 * that cannot be lifted on its own, a warm rerun from the cache, and a resumed run. Each change
 * point's behaviour: what the samples' generations are known to change (samples/tool-search/*.js,
 * samples/build-releases.mjs) shows up, and two builds of the same code change no query.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Behaviour, BehaviourChange } from "../src/diff/behaviour.js";
import { ExitCode } from "../src/errors.js";
import { defaultCatalog, DEFAULT_QUERIES } from "../src/routines/tool-search/catalogs.js";
import { timelineChanges } from "../src/track/changes.js";
import { buildTimeline, compareVersions, timelineMarkdown, type Change, type Timeline } from "../src/track/timeline.js";

const ROOT = join(import.meta.dirname, "..");
const RELEASES = join(ROOT, "samples", "releases");
/** The sample releases and one the lift must refuse (samples/lift/env-weight.js bundled as 0.8.0). */
const INPUTS = [...readdirSync(RELEASES).map((f) => join(RELEASES, f)), join(ROOT, "samples", "refused", "0.8.0")];

function run(...args: string[]) {
  const r = spawnSync(process.execPath, [join(ROOT, "bin", "searchlift.js"), ...args], { encoding: "utf8", timeout: 600_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("searchlift track", () => {
  it("groups the sample releases by routine, caches the lifts, and resumes", () => {
    const out = mkdtempSync(join(tmpdir(), "searchlift-track-"));
    const cache = mkdtempSync(join(tmpdir(), "searchlift-track-cache-"));
    const first = run("track", ...INPUTS, "--out", out, "--cache", cache, "--no-verify", "--json");
    // The timeline is written, and the exit status says that not every release lifted, and which.
    expect(first.code, first.stderr).toBe(ExitCode.trackIncomplete);
    expect(first.stderr).toMatch(/^searchlift: 1 of 9 releases not lifted: 0\.8\.0 \(.*refused[/\\]0\.8\.0\)\n$/);
    const t = JSON.parse(first.stdout);
    expect(t.releases.map((r: { version: string }) => r.version)).toEqual(["0.1.0", "0.2.0", "0.3.0", "0.3.1", "0.4.0", "0.5.0", "0.6.0", "0.7.0", "0.8.0"]);
    // One group per generation: the two builds of name-parts share one.
    expect(t.groups.map((g: { first: string; last: string }) => `${g.first}-${g.last}`)).toEqual(["0.1.0-0.1.0", "0.2.0-0.2.0", "0.3.0-0.3.1", "0.4.0-0.4.0", "0.5.0-0.5.0", "0.6.0-0.6.0", "0.7.0-0.7.0", "0.8.0-0.8.0"]);
    const hashes = t.groups.map((g: { routineHash: string | null }) => g.routineHash);
    expect(new Set(hashes.slice(0, 7)).size).toBe(7);
    // 0.8.0's scorer reads a weight from process.env (samples/lift/env-weight.js): refused, and why.
    expect(hashes[7]).toBeNull();
    expect(t.groups[7].error).toMatch(/cannot lift: the tool search reaches the host through process/);
    // Refused, but still known: the version and platform come from the file, not from a lift.
    expect(t.releases[8]).toMatchObject({ version: "0.8.0", platform: "npm", routineHash: null });
    expect(t.releases[2]).toMatchObject({ version: "0.3.0", platform: "npm" });
    const md = readFileSync(join(out, "timeline.md"), "utf8");
    expect(md).toContain("| 0.3.0 – 0.3.1 (2) |");
    // The HTML report beside them (tested in a browser in report-browser.test.ts).
    expect(readFileSync(join(out, "timeline.html"), "utf8")).toMatch(/<table class="groups">[\s\S]*0\.3\.0 – 0\.3\.1/);

    // One change per group boundary, each with its behaviour.
    const changes = t.changes as Change[];
    expect(changes.map((c) => `${c.from}-${c.to}`)).toEqual(["0.1.0-0.2.0", "0.2.0-0.3.0", "0.3.1-0.4.0", "0.4.0-0.5.0", "0.5.0-0.6.0", "0.6.0-0.7.0", "0.7.0-0.8.0"]);
    for (const c of changes.slice(0, 6)) expect(c.behaviour?.queries).toBe(DEFAULT_QUERIES.length);
    // 0.3.x → 0.4.0 (name-parts → required-terms) keeps every weight and adds `+term` and the fast
    // paths (a query equal to a name, an mcp__ prefix that matches): exactly those queries change.
    const r34 = changes[2]!.behaviour!;
    expect(queries(r34).sort()).toEqual(requiredTermsQueries().sort());
    expect(queries(r34)).not.toContain("create jira issue");
    const postgres = byQuery(r34, "+postgres query");
    expect(postgres.after.length).toBeGreaterThan(0);
    for (const x of postgres.after) expect(mentions(x.name, "postgres")).toBe(true);
    expect(postgres.before.some((x) => !mentions(x.name, "postgres"))).toBe(true);
    expect(byQuery(r34, "mcp__slack").after.every((x) => x.name.startsWith("mcp__slack__") && x.score === null)).toBe(true);
    // 0.4.0 → 0.5.0 (search-hint): select: takes a comma list, and a searchHint word scores.
    const r45 = changes[3]!.behaviour!;
    expect(byQuery(r45, "select:WebFetch,WebSearch")).toEqual({ query: "select:WebFetch,WebSearch", before: [], after: [{ name: "WebFetch", score: null }, { name: "WebSearch", score: null }] });
    expect(byQuery(r45, "bug report").after[0]!.name).toBe("mcp__github__create_issue"); // its hint is "bug report ticket"
    // 0.1.0 → 0.2.0 (new MCPSearch weights) and 0.5.0 → 0.6.0 (coarse parts stacked on the parts) rescore keyword queries.
    expect(byQuery(changes[0]!.behaviour!, "create github issue")).toBeDefined();
    expect(byQuery(changes[4]!.behaviour!, "create github issue")).toBeDefined();
    // 0.6.0 → 0.7.0 (session-cache) is new code with the same scoring rules: a session cache, caps far
    // above the catalog's queries, a case-sensitive exact name first, a select: fallback for
    // NotebookRead, which no catalog query names. A change point with no query changed.
    expect(changes[5]!.behaviour!.changed).toEqual([]);
    expect(DEFAULT_QUERIES.some((q) => q.includes("NotebookRead"))).toBe(false);
    // 0.8.0 could not be lifted: nothing compared, and said why.
    expect(changes[6]!.behaviour).toBeNull();
    expect(changes[6]!.note).toMatch(/not lifted[\s\S]*0\.8\.0: cannot lift/);
    // The Markdown: a count per change and the first changed queries, before → after.
    expect(md).toContain(`### 0.3.1 → 0.4.0\n\n${r34.changed.length} of ${DEFAULT_QUERIES.length} queries changed:`);
    const section = md.split("### 0.3.1 → 0.4.0\n")[1]!.split("\n### ")[0]!;
    const listed = [...section.matchAll(/^- `([^`]+)`: /gm)].map((m) => m[1]);
    expect(listed).toEqual(requiredTermsQueries().slice(0, 10));
    expect(section).toContain("- `NotebookEdit`: (none) → `NotebookEdit`\n"); // the exact-name fast path
    expect(md).toMatch(/### 0\.6\.0 → 0\.7\.0\n\nNo query changed \(0 of 120\)/);
    expect(md).toMatch(/### 0\.7\.0 → 0\.8\.0\n\nBehaviour not compared: a side was not lifted/);

    // Warm: nothing lifted again, same timeline, the behaviour from the cache.
    expect(readdirSync(join(cache, "behaviour"))).toHaveLength(6);
    const warm = run("track", ...INPUTS, "--out", out, "--cache", cache, "--no-verify");
    expect(warm.code).toBe(ExitCode.trackIncomplete);
    expect(warm.stdout).toMatch(/9 releases \(0 lifted now/);
    expect(JSON.parse(readFileSync(join(out, "timeline.json"), "utf8"))).toEqual(t);

    // Interrupted run: one release's result missing — only that one is lifted again.
    const dirs = readdirSync(cache).filter((d) => /^[0-9a-f]{64}$/.test(d));
    expect(dirs).toHaveLength(9);
    rmSync(join(cache, dirs[0]!), { recursive: true });
    const resumed = run("track", ...INPUTS, "--out", out, "--cache", cache, "--no-verify");
    expect(resumed.stdout).toMatch(/9 releases \(1 lifted now/);

    // A result cached by another searchlift version is lifted again.
    const entry = join(cache, dirs[1]!, "release.json");
    writeFileSync(entry, JSON.stringify({ ...JSON.parse(readFileSync(entry, "utf8")), searchlift: "0.0.0-other" }));
    expect(run("track", ...INPUTS, "--out", out, "--cache", cache, "--no-verify").stdout).toMatch(/9 releases \(1 lifted now/);
  });

  it("exits 0 when every release lifted", () => {
    const out = mkdtempSync(join(tmpdir(), "searchlift-track-"));
    const r = run("track", join(RELEASES, "0.3.0"), join(RELEASES, "0.3.1"), "--out", out, "--cache", mkdtempSync(join(tmpdir(), "searchlift-track-cache-")), "--no-verify");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe("");
  });
});

const queries = (b: Behaviour) => b.changed.map((c) => c.query);
function byQuery(b: Behaviour, query: string): BehaviourChange {
  const c = b.changed.find((x) => x.query === query);
  if (!c) throw new Error(`${query} did not change`);
  return c;
}
/** The tool's name or description says the word. */
function mentions(name: string, word: string): boolean {
  const t = defaultCatalog().find((x) => x.name === name)!;
  return `${t.name} ${t.description}`.toLowerCase().includes(word);
}
/** The queries required-terms.js answers differently from name-parts.js: `+term`, an exact tool name, an mcp__ prefix some tool has. */
function requiredTermsQueries(): string[] {
  const names = defaultCatalog().map((t) => t.name.toLowerCase());
  return DEFAULT_QUERIES.filter((q) => {
    const l = q.trim().toLowerCase();
    if (/^select:/.test(l)) return false;
    return l.split(/\s+/).some((w) => w.startsWith("+") && w.length > 1) || names.includes(l) || (l.startsWith("mcp__") && l.length > 5 && names.some((n) => n.startsWith(l)));
  });
}

describe("behaviour per change", () => {
  it("two builds of the same code (0.3.0 unminified, 0.3.1 mangled) change no query; results are cached by routine", async () => {
    const dir = mkdtempSync(join(tmpdir(), "searchlift-track-behaviour-"));
    const lift = (v: string) => {
      const r = run("lift", join(RELEASES, v), "--out", join(dir, "lifted"), "--no-verify", "--json");
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout).results[0].module as string;
    };
    // As if the two builds were two routines (track gives them one hash, so no change point).
    const t = buildTimeline([
      { input: "a", version: "0.3.0", platform: "npm", routineHash: "a".repeat(64), verified: null, module: lift("0.3.0") },
      { input: "b", version: "0.3.1", platform: "npm", routineHash: "b".repeat(64), verified: null, module: lift("0.3.1") },
    ]);
    const cache = join(dir, "cache");
    const [c] = await timelineChanges(t, { cache });
    expect(c).toEqual({ from: "0.3.0", to: "0.3.1", behaviour: { queries: DEFAULT_QUERIES.length, changed: [] } });
    expect(timelineMarkdown({ ...t, changes: [c!] })).toContain(`### 0.3.0 → 0.3.1\n\nNo query changed (0 of ${DEFAULT_QUERIES.length}).`);

    // The same two routines again: answered from the cache, the modules are not read.
    rmSync(join(dir, "lifted"), { recursive: true });
    expect(await timelineChanges(t, { cache })).toEqual([c]);
    // Without the cache a missing module is a note, not a failed track.
    const [missing] = await timelineChanges(t);
    expect(missing!.behaviour).toBeNull();
    expect(missing!.note).toMatch(/cannot read the lifted module: ENOENT/);
    rmSync(dir, { recursive: true, force: true });
  });

  it("lists the first ten changed queries in Markdown, code spans safe for backticks", () => {
    const t: Timeline = buildTimeline([
      { input: "a", version: "1.0.0", platform: "npm", routineHash: "a", verified: null },
      { input: "b", version: "1.0.1", platform: "npm", routineHash: "b", verified: null },
    ]);
    const changed = Array.from({ length: 12 }, (_, i) => ({ query: `q${i}`, before: [{ name: "x", score: i }], after: [] }));
    changed[0]!.query = "a `tick`";
    const md = timelineMarkdown({ ...t, changes: [{ from: "1.0.0", to: "1.0.1", behaviour: { queries: 20, changed } }] });
    expect(md).toContain("12 of 20 queries changed:");
    expect(md).toContain("- `` a `tick` ``: `x` 0 → (none)"); // CommonMark strips the one space each side
    expect(md).toContain("- `q9`: `x` 9 → (none)");
    expect(md).not.toContain("`q10`");
    expect(md).toContain("- … and 2 more");
  });
});

describe("timeline", () => {
  it("orders versions numerically and keeps an unliftable release apart", () => {
    expect(["2.1.10", "2.1.9", "2.0.70", "2.1.100"].sort(compareVersions)).toEqual(["2.0.70", "2.1.9", "2.1.10", "2.1.100"]);
    // npm's precedence (semver §11): a prerelease comes before its release, numeric identifiers by number.
    expect(["2.1.0", "2.1.0-beta.10", "2.1.0-beta.2", "2.0.9"].sort(compareVersions)).toEqual(["2.0.9", "2.1.0-beta.2", "2.1.0-beta.10", "2.1.0"]);
    const t = buildTimeline([
      { input: "b", version: "1.0.1", platform: "npm", routineHash: "x", verified: null },
      { input: "a", version: "1.0.0", platform: "npm", routineHash: "x", verified: null },
      { input: "c", version: "1.0.2", platform: "npm", routineHash: null, verified: null, error: "no" },
      { input: "d", version: "1.0.3", platform: "npm", routineHash: "x", verified: null },
    ]);
    expect(t.groups.map((g) => [g.first, g.last])).toEqual([["1.0.0", "1.0.1"], ["1.0.2", "1.0.2"], ["1.0.3", "1.0.3"]]);
  });
});
