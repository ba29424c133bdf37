/**
 * track over the sample releases (our tool-search samples bundled as successive versions): one
 * change point per generation, none between 0.3.0 and 0.3.1 (same code, other names), the release
 * that cannot be lifted on its own, a warm rerun from the cache, and a resumed run. Each change
 * point's behaviour (probe rows and witnesses found by search): what the samples' generations are known to
 * change (samples/tool-search/*.js) shows up, and two builds of the same code give no witness.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sandboxScript, type WitnessReport } from "../src/diff/behaviour.js";
import { runCalls } from "../src/diff/witness-run.js";
import { ExitCode } from "../src/errors.js";
import type { SemanticRow } from "../src/routines/tool-search/semantics.js";
import { timelineChanges } from "../src/track/changes.js";
import { buildTimeline, compareVersions, timelineMarkdown, type Change, type Timeline } from "../src/track/timeline.js";
import { track } from "../src/track/track.js";
import type { ProgressEvent } from "../src/progress.js";
import { ROOT, runCli } from "./helpers/cli.js";
import { toolSearchPack } from "../src/routines/tool-search/index.js";

const RELEASES = join(ROOT, "samples", "releases");
/** The sample releases and one the lift must refuse (samples/lift/env-weight.js bundled as 0.8.0). */
const INPUTS = [...readdirSync(RELEASES).map((f) => join(RELEASES, f)), join(ROOT, "samples", "refused", "0.8.0")];

function run(...args: string[]) {
  return runCli(args);
}

describe("searchlift track", () => {
  it("groups the sample releases by routine, caches the lifts, and resumes", async () => {
    const out = mkdtempSync(join(tmpdir(), "searchlift-track-"));
    const cache = mkdtempSync(join(tmpdir(), "searchlift-track-cache-"));
    const first = run("track", ...INPUTS, "--out", out, "--cache", cache, "--no-verify", "--json");
    // The timeline is written, and the exit status says that not every release lifted, and which.
    expect(first.code, first.stderr).toBe(ExitCode.trackIncomplete);
    expect(first.stderr).toMatch(/^searchlift: 1 of 9 releases not lifted: 0\.8\.0 \(.*refused[/\\]0\.8\.0\)\n$/);
    const t = JSON.parse(first.stdout);
    expect(t.releases.map((r: { version: string }) => r.version)).toEqual([
      "0.1.0",
      "0.2.0",
      "0.3.0",
      "0.3.1",
      "0.4.0",
      "0.5.0",
      "0.6.0",
      "0.7.0",
      "0.8.0",
    ]);
    // One group per generation: the two builds of name-parts share one.
    expect(t.groups.map((g: { first: string; last: string }) => `${g.first}-${g.last}`)).toEqual([
      "0.1.0-0.1.0",
      "0.2.0-0.2.0",
      "0.3.0-0.3.1",
      "0.4.0-0.4.0",
      "0.5.0-0.5.0",
      "0.6.0-0.6.0",
      "0.7.0-0.7.0",
      "0.8.0-0.8.0",
    ]);
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
    expectSelfContained(out, t, cache);

    // One change per group boundary, each with its behaviour.
    const changes = t.changes as Change[];
    expect(changes.map((c) => `${c.from}-${c.to}`)).toEqual([
      "0.1.0-0.2.0",
      "0.2.0-0.3.0",
      "0.3.1-0.4.0",
      "0.4.0-0.5.0",
      "0.5.0-0.6.0",
      "0.6.0-0.7.0",
      "0.7.0-0.8.0",
    ]);
    for (const c of changes.slice(0, 6)) {
      expect(c.behaviour!.searched).toBeGreaterThan(0);
      expect(c.behaviour!.changed.length, `${c.from}-${c.to}`).toBeGreaterThan(0);
      expect(
        c.semantics!.some((r) => r.changed),
        `${c.from}-${c.to}`,
      ).toBe(true);
    }
    // 0.3.x → 0.4.0 (name-parts → required-terms) keeps every weight and adds `+term` and the fast paths
    // (a query equal to a name in any case, an mcp__ prefix).
    const c34 = changes[2]!;
    for (const f of ["+required terms", "exact name in another case", "mcp__ prefix: a server's tools"])
      expect(row(c34.semantics!, f), f).toEqual(["no", "yes"]);
    for (const r of c34.semantics!.filter((x) => x.feature.startsWith("adds: "))) expect(r.changed, r.feature).toBe(false);
    expect(c34.behaviour!.sentences.some((l) => /honours `\+required` terms/.test(l))).toBe(true);
    // 0.4.0 → 0.5.0 (search-hint): select: takes a comma list, and a searchHint word scores 4.
    const c45 = changes[3]!;
    expect(row(c45.semantics!, "select: comma list")).toEqual(["no", "yes"]);
    expect(row(c45.semantics!, "adds: searchHint word, whole / part")).toEqual(["0 / 0", "4 / 0"]);
    expect(c45.behaviour!.sentences.some((l) => /`select:` now also takes a comma-separated list/.test(l))).toBe(true);
    await expectSelectListWitness(c45.behaviour!.changed, join(out, moduleOf(t, "0.4.0")), join(out, moduleOf(t, "0.5.0")));
    // In the code: a lookup for the list's names and a cap on the query's words are new; the scorer, the
    // name parser (it takes the tool, for its searchHint) and call() changed; nothing went.
    expect(c45.code).toEqual({
      added: ["getFound", "capQueryWords"],
      removed: [],
      changed: expect.arrayContaining(["searchToolsByKeywords", "parseToolName", "callToolSearch"]),
    });
    expect(md.split("### 0.4.0 → 0.5.0\n")[1]!.split("\n### ")[0]).toContain("\n**Code.** New: getFound and capQueryWords. Changed: ");
    expect(readFileSync(join(out, "timeline.html"), "utf8")).toContain(
      '<p class="code-summary">New: getFound and capQueryWords. Changed: ',
    );
    // 0.6.0 → 0.7.0 (session-cache): the caps on the paths the probes call, measured: 32 words and a 4096-character
    // searchHint in the scorer, 64 select: names in toolSearch. (Its 16384-character cap is applied in the tool's
    // call() before the scorer, which the scoreTools probe does not pass through.)
    const c67 = changes[5]!;
    for (const [f, cap] of [
      ["query cap (words)", "32"],
      ["select: cap (names)", "64"],
      ["searchHint cap (characters)", "4096"],
    ]) {
      expect(row(c67.semantics!, f!)[1], f).toBe(cap);
      expect(row(c67.semantics!, f!)[0], f).not.toBe(cap);
    }
    // 0.8.0 could not be lifted: nothing compared, and said why.
    expect(changes[6]!.behaviour).toBeNull();
    expect(changes[6]!.note).toMatch(/not lifted[\s\S]*0\.8\.0: cannot lift/);
    // The Markdown, oldest change first as in timeline.html: a count, the sentences, the changed probe rows.
    const order = [...md.matchAll(/^### (\S+) → (\S+)$/gm)].map((m) => `${m[1]}-${m[2]}`);
    expect(order).toEqual(changes.map((c) => `${c.from}-${c.to}`));
    const html = readFileSync(join(out, "timeline.html"), "utf8");
    expect(
      [...html.matchAll(/<section class="change" id="change-\d+" data-from="([^"]+)" data-to="([^"]+)"/g)].map((m) => `${m[1]}-${m[2]}`),
    ).toEqual(order);
    const section = md.split("### 0.3.1 → 0.4.0\n")[1]!.split("\n### ")[0]!;
    const b34 = c34.behaviour!;
    expect(section).toContain(
      `\n${b34.changed.length} witness${b34.changed.length === 1 ? "" : "es"} in ${b34.searched} cases (${b34.seconds} s):\n`,
    );
    expect(section).toContain("\n- searchTools now also honours `+required` terms: ");
    // The page shows the sentence's code as code too.
    expect(html).toContain("<li>searchTools now also honours <code>+required</code> terms: ");
    expect(section).toContain("| +required terms | no | yes |");
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
    const r = run(
      "track",
      join(RELEASES, "0.3.0"),
      join(RELEASES, "0.3.1"),
      "--out",
      out,
      "--cache",
      mkdtempSync(join(tmpdir(), "searchlift-track-cache-")),
      "--no-verify",
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe("");
  });

  it("with verification on, a release whose routine was verified before in the same cache reuses that verification", () => {
    const cache = mkdtempSync(join(tmpdir(), "searchlift-track-cache-"));
    const out = () => mkdtempSync(join(tmpdir(), "searchlift-track-"));
    const first = run("track", join(RELEASES, "0.3.0"), "--out", out(), "--cache", cache, "--json");
    expect(first.code, first.stderr).toBe(0);
    // 0.3.1 is 0.3.0 with mangled names; no verification of 12,000 calls fits in a millisecond, so it ran none.
    const second = run("track", join(RELEASES, "0.3.1"), "--out", out(), "--cache", cache, "--verify-timeout", "0.001", "--json");
    expect(second.code, second.stderr).toBe(0);
    const t = JSON.parse(second.stdout) as Timeline;
    expect(t.releases.map((r) => [r.version, r.verified])).toEqual([
      ["0.3.1", { cases: 2000, agreed: 2000, bothReturned: 2000, bothThrew: 0 }],
    ]);
  });

  it("with verification on, tells each lift's count of cases verified as it goes, with the release it is for", async () => {
    const events: ProgressEvent[] = [];
    const cache = mkdtempSync(join(tmpdir(), "searchlift-track-cache-"));
    const out = join(mkdtempSync(join(tmpdir(), "searchlift-track-")), "timeline");
    await track([join(RELEASES, "0.4.0")], { out, cache, verify: true, pack: toolSearchPack, onProgress: (e) => events.push(e) });
    const counts = events.filter((e) => e.stage === "verify");
    expect(counts.every((e) => e.message === "verifying 0.4.0" && e.total === 2000)).toBe(true);
    const done = counts.map((e) => e.done!);
    // The child tells its count every 100 cases: from 0, rising, never the end (the release's own line says that).
    expect(done[0]).toBe(0);
    expect(done.some((d) => d > 0)).toBe(true);
    expect(done.every((d, i) => d < 2000 && (i === 0 || d >= done[i - 1]!))).toBe(true);
    expect(events.at(-1)?.stage).not.toBe("verify");
  });
});

/**
 * The timeline folder names no absolute path (the cache, the inputs' folders, a home folder) and holds every
 * module it names: moved elsewhere, its modules are still there, and its report still shows the code diffs.
 */
function expectSelfContained(out: string, t: Timeline, cache: string): void {
  for (const f of ["timeline.json", "timeline.md", "timeline.html"]) {
    const text = readFileSync(join(out, f), "utf8");
    for (const leak of [cache, ROOT, tmpdir(), homedir()]) expect(text.includes(leak), `${f} names ${leak}`).toBe(false);
  }
  const lifted = t.releases.filter((r) => r.routineHash);
  expect(lifted.length).toBeGreaterThan(0);
  expect(t.releases.map((r) => r.input)).toEqual(t.releases.map((r) => r.version));
  const moved = join(mkdtempSync(join(tmpdir(), "searchlift-moved-")), "timeline");
  renameSync(out, moved);
  try {
    for (const r of lifted) {
      expect(r.module).toBe(`modules/searchlift-sample/${r.version}/npm/tool-search.mjs`);
      expect(readFileSync(join(moved, r.module!), "utf8")).toMatch(
        new RegExp(`^// searchlift-sample ${r.version.replace(/\./g, "\\.")} \\(npm\\)`),
      );
      expect(existsSync(join(moved, r.module!.replace(/\.mjs$/, ".d.ts")))).toBe(true);
    }
    // The code diff of a change point is read from the folder's own modules (no "cannot read").
    const html = readFileSync(join(moved, "timeline.html"), "utf8");
    expect(html).not.toContain("cannot read the lifted module");
    expect(html).toContain(`<details class="code-diff">`);
  } finally {
    renameSync(moved, out);
  }
}

function row(rows: SemanticRow[], feature: string): [string, string] {
  const r = rows.find((x) => x.feature === feature);
  if (!r) throw new Error(`no row ${feature}`);
  return [r.before, r.after];
}

function moduleOf(t: Timeline, version: string): string {
  const m = t.releases.find((r) => r.version === version)?.module;
  if (!m) throw new Error(`${version}: no lifted module`);
  return m;
}

/**
 * 0.4.0's select: takes one name, 0.5.0's a comma list: a witness of a select: list returns after every listed
 * name that is one of its tools, and not all of them before; and `select:A,B` over two of its tools, replayed
 * on both modules, returns both after and not before.
 */
async function expectSelectListWitness(changed: WitnessReport[], before: string, after: string): Promise<void> {
  const w = changed.find((x) => x.function === "toolSearch" && /^\s*select:[^,]*,/i.test(x.query));
  expect(w, "a select: list witness").toBeDefined();
  const names = [...w!.deferred, ...w!.loaded].map((t) => t.name);
  const listed = w!.query
    .trim()
    .slice("select:".length)
    .split(",")
    .map((n) => n.trim())
    .filter((n) => names.includes(n));
  expect(listed.length).toBeGreaterThan(0);
  for (const n of listed) expect(w!.after).toContain(n);
  expect(listed.every((n) => (w!.before as string[]).includes(n))).toBe(false);
  // The witness's own tool (shrinking may leave one) and a built-in beside it.
  const tools = [w!.deferred[0]!, { name: "WebFetch", description: "Fetch content from a URL and process it", isMcp: false }];
  expect(tools[0]!.name).not.toBe("WebFetch");
  const call = { fn: "toolSearch" as const, query: `select:${tools[0]!.name},${tools[1]!.name}`, deferred: tools, loaded: [] };
  const side = (p: string) => ({ script: sandboxScript(readFileSync(p, "utf8"), p), label: p });
  const [[a], [b]] = await Promise.all([runCalls(side(before), [call]), runCalls(side(after), [call])]);
  expect(b).toEqual({ ok: true, value: [tools[0]!.name, tools[1]!.name] });
  expect(a!.ok && Array.isArray(a!.value) && tools.every((x) => (a!.value as string[]).includes(x.name))).toBe(false);
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
    const [c] = await timelineChanges(t, { cache, pack: toolSearchPack });
    expect(c).toMatchObject({ from: "0.3.0", to: "0.3.1", behaviour: { changed: [], sentences: [] } });
    expect(c!.behaviour!.searched).toBeGreaterThan(0);
    expect(c!.semantics!.length).toBeGreaterThan(0);
    expect(c!.semantics!.filter((r) => r.changed)).toEqual([]);
    expect(c!.code).toEqual({ added: [], removed: [], changed: [] });
    expect(timelineMarkdown({ ...t, changes: [c!] })).not.toContain("**Code.**");
    expect(timelineMarkdown({ ...t, changes: [c!] })).toContain(
      `### 0.3.0 → 0.3.1\n\nno behaviour difference found in ${c!.behaviour!.searched} cases (${c!.behaviour!.seconds} s).`,
    );

    // The same two routines again: answered from the cache, the modules are not read.
    rmSync(join(dir, "lifted"), { recursive: true });
    expect(await timelineChanges(t, { cache, pack: toolSearchPack })).toEqual([c]);
    // Without the cache a missing module is a note, not a failed track.
    const [missing] = await timelineChanges(t, { pack: toolSearchPack });
    expect(missing!.behaviour).toBeNull();
    expect(missing!.note).toMatch(/cannot read the lifted module: ENOENT/);
    rmSync(dir, { recursive: true, force: true });
  });

  it("lists the sentences and changed probe rows in Markdown, escaped", () => {
    const t: Timeline = buildTimeline([
      { input: "a", version: "1.0.0", platform: "npm", routineHash: "a", verified: null },
      { input: "b", version: "1.0.1", platform: "npm", routineHash: "b", verified: null },
    ]);
    const witness = (i: number): WitnessReport => ({
      function: "searchTools",
      query: `q${i}`,
      deferred: [],
      loaded: [],
      before: ["x"],
      after: [],
      summary: `searchTools \`"q${i}"\` no longer returns x`,
    });
    const changed = Array.from({ length: 2 }, (_, i) => witness(i));
    const sentences = ["a *probe* <b>row</b> | changed", ...changed.map((w) => w.summary)];
    const semantics: SemanticRow[] = [
      { feature: "select: comma list", before: "no", after: "yes", changed: true },
      { feature: "select: full name", before: "yes", after: "yes", changed: false },
    ];
    const md = timelineMarkdown({
      ...t,
      changes: [{ from: "1.0.0", to: "1.0.1", behaviour: { searched: 20, seconds: 1.5, changed, sentences }, semantics }],
    });
    expect(md).toContain("### 1.0.0 → 1.0.1\n\n2 witnesses in 20 cases (1.5 s):\n\n");
    expect(md).toContain("- a \\*probe\\* \\<b\\>row\\</b\\> \\| changed\n");
    expect(md).toContain('- searchTools `"q1"` no longer returns x\n');
    expect(md).toContain("| select: comma list | no | yes |");
    expect(md).not.toContain("select: full name");
  });
});

describe("timeline", () => {
  it("orders versions numerically and keeps an unliftable release apart", () => {
    expect(["2.1.10", "2.1.9", "2.0.70", "2.1.100"].sort(compareVersions)).toEqual(["2.0.70", "2.1.9", "2.1.10", "2.1.100"]);
    // npm's precedence (semver §11): a prerelease comes before its release, numeric identifiers by number.
    expect(["2.1.0", "2.1.0-beta.10", "2.1.0-beta.2", "2.0.9"].sort(compareVersions)).toEqual([
      "2.0.9",
      "2.1.0-beta.2",
      "2.1.0-beta.10",
      "2.1.0",
    ]);
    const t = buildTimeline([
      { input: "b", version: "1.0.1", platform: "npm", routineHash: "x", verified: null },
      { input: "a", version: "1.0.0", platform: "npm", routineHash: "x", verified: null },
      { input: "c", version: "1.0.2", platform: "npm", routineHash: null, verified: null, error: "no" },
      { input: "d", version: "1.0.3", platform: "npm", routineHash: "x", verified: null },
    ]);
    expect(t.groups.map((g) => [g.first, g.last])).toEqual([
      ["1.0.0", "1.0.1"],
      ["1.0.2", "1.0.2"],
      ["1.0.3", "1.0.3"],
    ]);
  });
});
