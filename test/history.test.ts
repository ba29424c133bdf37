/**
 * history over the sample releases packed as successive npm releases of the client (2.0.70 on, in a release
 * cache of their own, read with --cached: nothing asked of the registry), checked against track over the same
 * programs as plain files; the changelog says every rule change the change report found, quotes no code of any
 * release, lists the release that cannot be lifted with why; an interrupted run resumes with only what it lost.
 * With the network: a real span downloaded through the window, each tarball deleted once its lift is recorded.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ExitCode } from "../src/errors.js";
import { markdownProse, markdownText } from "../src/safe-text.js";
import { ROOT, runCli } from "./helpers/cli.js";

const SAMPLES = [
  ...readdirSync(join(ROOT, "samples", "releases")).map((f) => join(ROOT, "samples", "releases", f)),
  join(ROOT, "samples", "refused", "0.8.0"),
];
const PACKAGE = "@anthropic-ai/claude-code";

function run(...args: string[]) {
  return runWith({}, ...args);
}

/** The CLI with these environment variables set (the suite sets SEARCHLIFT_QUIET=1; progress tests unset it). */
function runWith(env: Record<string, string>, ...args: string[]) {
  return runCli(args, { env, timeout: 900_000 });
}

/** The samples as npm releases 2.0.70, 2.0.71, … in fetch's cache layout, each published a day after the last. */
function sampleReleaseCache(): { dir: string; versions: string[] } {
  const dir = mkdtempSync(join(tmpdir(), "searchlift-history-releases-"));
  const versions = SAMPLES.map((_, i) => `2.0.${70 + i}`);
  SAMPLES.forEach((file, i) => {
    const v = versions[i]!;
    const work = mkdtempSync(join(tmpdir(), "searchlift-history-pkg-"));
    mkdirSync(join(work, "package"));
    writeFileSync(join(work, "package", "package.json"), JSON.stringify({ name: PACKAGE, version: v, bin: { claude: "cli.js" } }));
    writeFileSync(join(work, "package", "cli.js"), readFileSync(file));
    const rel = join(dir, v, "npm");
    mkdirSync(rel, { recursive: true });
    const tgz = join(rel, `anthropic-ai-claude-code-${v}.tgz`);
    const tar = spawnSync("tar", ["-czf", tgz, "-C", work, "package"]);
    expect(tar.status).toBe(0);
    rmSync(work, { recursive: true, force: true });
    const integrity = `sha512-${createHash("sha512").update(readFileSync(tgz)).digest("base64")}`;
    const published = `2026-01-${String(10 + i).padStart(2, "0")}T08:00:00.000Z`;
    writeFileSync(
      join(rel, "release.json"),
      JSON.stringify({ version: v, platform: "npm", package: PACKAGE, tarball: `anthropic-ai-claude-code-${v}.tgz`, integrity, published }),
    );
  });
  return { dir, versions };
}

interface Summary {
  releases: number;
  lifted: number;
  liftedNow: number;
  recorded: number;
  downloaded: number;
  deleted: number;
  failed: Array<{ version: string; error: string }>;
  skipped: Array<{ version: string; reason: string }>;
  files: { json: string; changelog: string };
}

describe("searchlift history", () => {
  it("lifts, groups and explains the sample releases as track does, writes a changelog without code, and resumes", () => {
    const { dir: releases, versions } = sampleReleaseCache();
    const cache = mkdtempSync(join(tmpdir(), "searchlift-history-cache-"));
    const out = join(mkdtempSync(join(tmpdir(), "searchlift-history-out-")), "history");
    const args = ["history", "--cached", "--release-cache", releases, "--cache", cache, "--out", out, "--no-verify", "--json"];
    const first = run(...args);
    // The refused sample (2.0.78) is not lifted: the timeline is still written, and the exit status says so.
    expect(first.code, first.stderr).toBe(ExitCode.trackIncomplete);
    expect(first.stderr).toMatch(/1 of 9 releases not lifted: 2\.0\.78 \(.*cannot lift/);
    const s = JSON.parse(first.stdout) as Summary;
    expect([s.releases, s.lifted, s.liftedNow, s.recorded, s.downloaded]).toEqual([9, 8, 8, 0, 0]);
    expect(s.failed.map((f) => f.version)).toEqual(["2.0.78"]);

    // The same programs as plain files, through track: the same routines, grouped the same way.
    const trackOut = join(mkdtempSync(join(tmpdir(), "searchlift-history-track-")), "t");
    const tr = run("track", ...SAMPLES, "--out", trackOut, "--cache", cache, "--no-verify", "--json");
    expect(tr.code, tr.stderr).toBe(ExitCode.trackIncomplete);
    const tracked = JSON.parse(tr.stdout) as { releases: Array<{ routineHash: string | null }>; groups: Array<{ releases: string[] }> };
    const timeline = JSON.parse(readFileSync(s.files.json, "utf8")) as {
      releases: Array<{ version: string; routineHash: string | null; published?: string }>;
      groups: Array<{ releases: string[] }>;
      changes: Array<{
        from: string;
        to: string;
        behaviour: { sentences: string[] } | null;
        semantics?: Array<{ feature: string; before: string; after: string }>;
      }>;
    };
    expect(timeline.releases.map((r) => r.routineHash)).toEqual(tracked.releases.map((r) => r.routineHash));
    expect(timeline.groups.map((g) => g.releases.length)).toEqual(tracked.groups.map((g) => g.releases.length));
    expect(timeline.releases.map((r) => r.version)).toEqual(versions);
    expect(timeline.releases[1]!.published).toBe("2026-01-11T08:00:00.000Z");

    // The changelog: a heading per change point with its day, every sentence of the change report, the release
    // not lifted with why, no absolute path, and no line of any release's code.
    const changelog = readFileSync(s.files.changelog, "utf8");
    const changed = timeline.changes.filter((c) => c.behaviour);
    expect(changed.length).toBeGreaterThanOrEqual(5);
    for (const c of changed) {
      const day = timeline.releases.find((r) => r.version === c.to)!.published!.slice(0, 10);
      expect(changelog).toContain(`### ${c.to} (${day})`);
      for (const sentence of c.behaviour!.sentences) expect(changelog).toContain(`- ${markdownProse(sentence)}`);
    }
    expect(changelog).toMatch(/\| 2\.0\.78 \| npm \| cannot lift/);
    expect(changelog).toContain("| weight or feature | value |");
    // Each generation's scoring table is the rows its change point measured (what diff and the chart show).
    for (const c of changed.filter((x) => x.semantics?.length)) {
      const section = changelog.slice(changelog.indexOf(`### ${c.to} (`)).split("\n### ")[0]!;
      for (const r of c.semantics!) expect(section).toContain(`| ${markdownText(r.feature)} | ${markdownText(r.after)} |`);
    }
    for (const p of [releases, cache, out, tmpdir()]) expect(changelog).not.toContain(p);
    const codeLines = SAMPLES.flatMap((f) => readFileSync(f, "utf8").split(/[\n;{}]/))
      .map((l) => l.trim())
      .filter((l) => l.length >= 30);
    expect(codeLines.length).toBeGreaterThan(50);
    for (const line of codeLines) expect(changelog.includes(line), line).toBe(false);

    // Interrupted: two releases' records and lifts are lost; the rerun lifts those two and nothing else.
    const records = join(cache, "history", "npm");
    for (const v of ["2.0.71", "2.0.75"]) {
      const rec = JSON.parse(readFileSync(join(records, `${v}.json`), "utf8")) as { sha256: string };
      rmSync(join(cache, rec.sha256), { recursive: true, force: true });
      rmSync(join(records, `${v}.json`));
    }
    // Without a terminal, progress is a plain line per event on stderr (stdout stays the JSON); --quiet has none.
    const progressLine = /^searchlift: [a-z]+( \d+\/\d+)?(, \d+ s)?: /m;
    const resumed = runWith({ SEARCHLIFT_QUIET: "0" }, ...args);
    expect(resumed.stderr).toMatch(progressLine);
    const second = JSON.parse(resumed.stdout) as Summary;
    expect([second.liftedNow, second.recorded, second.lifted]).toEqual([2, 7, 8]);
    // Nothing new: nothing lifted, and the same changelog, byte for byte.
    const quiet = runWith({ SEARCHLIFT_QUIET: "0" }, ...args, "--quiet");
    expect(quiet.stderr).not.toMatch(progressLine);
    const third = JSON.parse(quiet.stdout) as Summary;
    expect([third.liftedNow, third.recorded]).toEqual([0, 9]);
    expect(readFileSync(third.files.changelog, "utf8")).toBe(changelog);

    // A release's tarball gone once it was lifted (history deletes what it downloads): --cached still plans it,
    // from its record, with the day the registry published it.
    const gone = versions[1]!;
    rmSync(join(releases, gone), { recursive: true, force: true });
    const fourth = JSON.parse(run(...args).stdout) as Summary;
    expect([fourth.releases, fourth.recorded, fourth.liftedNow]).toEqual([9, 9, 0]);
    const kept = JSON.parse(readFileSync(fourth.files.json, "utf8")) as { releases: Array<{ version: string; published?: string }> };
    expect(kept.releases.find((r) => r.version === gone)?.published).toBe("2026-01-11T08:00:00.000Z");
    for (const d of [releases, cache]) rmSync(d, { recursive: true, force: true });
  }, 900_000);

  it("refuses bad input with one line and its exit code", () => {
    const empty = mkdtempSync(join(tmpdir(), "searchlift-history-empty-"));
    const out = join(empty, "out");
    const platform = run("history", "--platform", "amiga-m68k", "--cached", "--release-cache", empty, "--out", out);
    expect(platform.code).toBe(ExitCode.usage);
    expect(platform.stderr.trim().split("\n")).toHaveLength(1);
    const range = run("history", "2.1.5-2.1.1", "--cached", "--release-cache", empty, "--out", out);
    expect(range.code).toBe(ExitCode.usage);
    // Nothing in the release cache and no record of an earlier run (a lift cache of its own, not the user's).
    const none = run("history", "--cached", "--release-cache", empty, "--cache", join(empty, "lifts"), "--out", out);
    expect(none.code).toBe(ExitCode.notPublished);
    expect(none.stderr).toMatch(/holds no release with a tool search/);
    const file = join(empty, "a-file");
    writeFileSync(file, "x");
    expect(run("history", "--cached", "--release-cache", empty, "--out", file).code).toBe(ExitCode.output);
    rmSync(empty, { recursive: true, force: true });
  });

  it.skipIf(process.env.SEARCHLIFT_SKIP_REAL === "1")(
    "downloads a real span through its window, deletes each tarball once its lift is recorded, and asks only what is new after",
    () => {
      const releases = mkdtempSync(join(tmpdir(), "searchlift-history-real-releases-"));
      const cache = mkdtempSync(join(tmpdir(), "searchlift-history-real-cache-"));
      const out = join(cache, "out");
      const args = [
        "history",
        "2.1.112-2.1.113",
        "--platform",
        "linux-x64",
        "--release-cache",
        releases,
        "--cache",
        cache,
        "--out",
        out,
        "--json",
      ];
      const r = run(...args);
      expect(r.code, r.stderr).toBe(0);
      const s = JSON.parse(r.stdout) as Summary & { peakBytes: number };
      expect([s.releases, s.lifted, s.downloaded, s.deleted]).toEqual([2, 2, 2, 2]);
      // The tarballs are gone, and so is npm's copy of them; the records and the lifts stay.
      expect(readdirSync(releases).filter((n) => !n.startsWith("."))).toEqual([]);
      const npmFiles = (d: string): number[] =>
        existsSync(d)
          ? readdirSync(d, { withFileTypes: true }).flatMap((e) =>
              e.isDirectory() ? npmFiles(join(d, e.name)) : [statSync(join(d, e.name)).size],
            )
          : [];
      expect(Math.max(0, ...npmFiles(join(cache, "history", "npm-cache")))).toBeLessThan(5 << 20);
      expect(existsSync(join(cache, "history", "linux-x64", "2.1.113.json"))).toBe(true);
      expect(s.peakBytes).toBeGreaterThan(50 << 20);
      expect(s.peakBytes).toBeLessThan(2e9);
      // Nothing new: nothing downloaded or lifted.
      const again = JSON.parse(run(...args).stdout) as Summary;
      expect([again.downloaded, again.liftedNow, again.recorded]).toEqual([0, 0, 2]);
      for (const d of [releases, cache]) rmSync(d, { recursive: true, force: true });
    },
    900_000,
  );
});
