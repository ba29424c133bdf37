/**
 * Nothing a user had is lost to `--out` (issue 42): every command that writes checks `--out` before any work,
 * refuses a file or a folder that is not its own earlier output (exit 6, one line), and `extract --force`
 * replaces only an earlier extract. A track run that fails never replaces a better timeline, and its counts
 * are true. The CLI runs as a process, offline, on the sample releases.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ExitCode } from "../src/errors.js";
import { runCli } from "./helpers/cli.js";

const ROOT = join(import.meta.dirname, "..");
const RELEASES = join(ROOT, "samples", "releases");
const REFUSED = join(ROOT, "samples", "refused", "0.8.0");
const work = mkdtempSync(join(tmpdir(), "searchlift-out-safety-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const run = (...args: string[]) => runCli(args, { cwd: work });

/** A fresh folder under the test's work folder. */
function folder(name: string): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** A file of the user's, and a check that it is still there, unchanged. */
function userFile(path: string, text = "the user's own notes\n"): () => void {
  writeFileSync(path, text);
  return () => expect(readFileSync(path, "utf8")).toBe(text);
}

/** The refusal: exit 6, one line naming the path, and no work done before it (no lifting, no fetching). */
function expectRefused(r: ReturnType<typeof run>, path: string, why: RegExp): void {
  expect(r.code, r.stderr).toBe(ExitCode.output);
  const lines = r.stderr.trim().split("\n");
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toContain(path);
  expect(lines[0]).toMatch(why);
  expect(r.stdout).toBe("");
}

describe("--out naming a file: refused before any work, the file kept", () => {
  const file = join(work, "notes.txt");
  it.each([
    ["lift", [join(RELEASES, "0.1.0")]],
    ["track", [join(RELEASES, "0.1.0")]],
    ["diff", [join(RELEASES, "0.1.0"), join(RELEASES, "0.2.0")]],
    ["extract", [join(RELEASES, "0.1.0")]],
  ])("%s --out FILE exits 6 and leaves the file", (command, inputs) => {
    const kept = userFile(file);
    const r = run(command, ...inputs, "--out", file);
    expectRefused(r, file, /is a file, not a folder/);
    kept();
  });

  it("a version is not fetched for an output that is refused (no network needed)", () => {
    const kept = userFile(file);
    for (const command of ["lift", "track", "extract"]) {
      const r = run(command, "9.9.9", "--out", file);
      expectRefused(r, file, /is a file, not a folder/);
    }
    expectRefused(run("diff", "9.9.8", "9.9.9", "--out", file), file, /is a file, not a folder/);
    kept();
  });

  it("extract --out FILE does not call it a folder nor suggest --force, and --force does not delete it", () => {
    const kept = userFile(file);
    const r = run("extract", join(RELEASES, "0.1.0"), "--out", file);
    expectRefused(r, file, /is a file/);
    expect(r.stderr).not.toMatch(/folder exists|--force/);
    expectRefused(run("extract", join(RELEASES, "0.1.0"), "--out", file, "--force"), file, /is a file/);
    kept();
  });
});

describe("--out naming a folder searchlift did not write: refused, the folder untouched", () => {
  it.each([
    ["lift", [join(RELEASES, "0.1.0"), "--no-verify"]],
    ["track", [join(RELEASES, "0.1.0"), "--no-verify"]],
    ["diff", [join(RELEASES, "0.1.0"), join(RELEASES, "0.2.0")]],
    ["extract", [join(RELEASES, "0.1.0")]],
    ["extract", [join(RELEASES, "0.1.0"), "--force"]],
  ])("%s %j", (command, args) => {
    const dir = mkdtempSync(join(work, "mine-"));
    const kept = userFile(join(dir, "thesis.tex"));
    const r = run(command, ...args, "--out", dir);
    expectRefused(r, dir, /searchlift did not write \(it holds "thesis\.tex"\)/);
    kept();
    expect(readdirSync(dir)).toEqual(["thesis.tex"]);
  });

  it("an empty folder is taken, and one command's output is not another's", () => {
    const dir = folder("empty-then-lift");
    const r = run("lift", join(RELEASES, "0.1.0"), "--no-verify", "--out", dir);
    expect(r.code, r.stderr).toBe(0);
    // lift adds to its own earlier output.
    expect(run("lift", join(RELEASES, "0.2.0"), "--no-verify", "--out", dir).code).toBe(0);
    expect(readdirSync(join(dir, "searchlift-sample")).sort()).toEqual(["0.1.0", "0.2.0"]);
    // A lift folder is not a timeline, and track does not replace it.
    expectRefused(run("track", join(RELEASES, "0.1.0"), "--no-verify", "--out", dir), dir, /holds lift's output, not track's/);
    expect(readdirSync(join(dir, "searchlift-sample")).sort()).toEqual(["0.1.0", "0.2.0"]);
  });

  it("extract --force replaces an earlier extract, and nothing else", () => {
    const dir = join(work, "extracted");
    expect(run("extract", join(RELEASES, "0.1.0"), "--out", dir).code).toBe(0);
    const again = run("extract", join(RELEASES, "0.2.0"), "--out", dir);
    expectRefused(again, dir, /holds an earlier extract \(use --force to replace it\)/);
    expect(run("extract", join(RELEASES, "0.2.0"), "--out", dir, "--force").code).toBe(0);
    // A file of the user's among the extract's: --force no longer replaces the folder.
    const kept = userFile(join(dir, "my-notes.md"));
    expectRefused(run("extract", join(RELEASES, "0.3.0"), "--out", dir, "--force"), dir, /did not write \(it holds "my-notes\.md"\)/);
    kept();
  });
});

describe("track: a failed run never replaces a better timeline", () => {
  it("keeps the old timeline, writes the new one beside it and says where, with true counts", () => {
    const out = join(work, "timeline");
    const cache = folder("track-cache");
    const good = run("track", ...["0.1.0", "0.2.0", "0.3.0"].map((v) => join(RELEASES, v)), "--out", out, "--cache", cache, "--no-verify");
    expect(good.code, good.stderr).toBe(0);
    expect(good.stdout).toMatch(/^3 releases \(3 lifted now, 0 from the cache\), 3 groups:/);
    const before = readFileSync(join(out, "timeline.json"), "utf8");

    // Nothing lifts: the run says so, exits 17, and the three-release timeline stays.
    const bad = run("track", REFUSED, "--out", out, "--cache", cache, "--no-verify");
    expect(bad.code, bad.stderr).toBe(ExitCode.trackIncomplete);
    expect(bad.stdout).toMatch(/^1 release \(0 lifted now, 0 from the cache, 1 not lifted\), 1 group:/);
    const incomplete = `${out}.incomplete`;
    expect(bad.stdout).toContain(`wrote ${join(incomplete, "timeline.json")}`);
    expect(bad.stderr).toContain(`${out} holds a timeline with 3 releases lifted, more than this run's 0: it is left as it was`);
    expect(bad.stderr).toContain(incomplete);
    expect(readFileSync(join(out, "timeline.json"), "utf8")).toBe(before);
    expect(JSON.parse(readFileSync(join(incomplete, "timeline.json"), "utf8")).releases).toHaveLength(1);

    // A run that lifts as many (here: from the cache, and one more) replaces it.
    const more = run(
      "track",
      ...["0.1.0", "0.2.0", "0.3.0"].map((v) => join(RELEASES, v)),
      REFUSED,
      "--out",
      out,
      "--cache",
      cache,
      "--no-verify",
    );
    expect(more.code).toBe(ExitCode.trackIncomplete);
    expect(more.stdout).toMatch(/^4 releases \(0 lifted now, 4 from the cache, 1 not lifted\), 4 groups:/);
    expect(JSON.parse(readFileSync(join(out, "timeline.json"), "utf8")).releases).toHaveLength(4);
    // No temporary folder is left beside the output.
    expect(readdirSync(work).filter((f) => f.includes(".tmp-"))).toEqual([]);
    expect(existsSync(join(out, "modules"))).toBe(true);
  });
});
