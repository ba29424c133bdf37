/**
 * One API, one behaviour (issue 42): the library's lift, diff and track take every input form the CLI takes —
 * versions, ranges, folders of releases — through the CLI's resolver, and check `out` before any work. Offline: a
 * stand-in npm (test/helpers/fake-npm.mjs) serves the sample releases as @anthropic-ai/claude-code versions.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as Searchlift from "../src/index.js";
import { useSampleRegistry } from "./helpers/sample-registry.js";

const ROOT = join(import.meta.dirname, "..");
const work = mkdtempSync(join(tmpdir(), "searchlift-library-inputs-"));
const releaseCache = join(work, "releases");
const npmLog = join(work, "npm.log");

async function entry(): Promise<typeof Searchlift> {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  return (await import(join(ROOT, pkg.exports["."].default))) as typeof Searchlift;
}

let restoreEnv = () => {};

beforeAll(() => {
  restoreEnv = useSampleRegistry(work, ["0.3.0", "0.4.0", "0.5.0"], { FAKE_NPM_LOG: npmLog });
});

afterAll(() => {
  restoreEnv();
  rmSync(work, { recursive: true, force: true });
});

describe("the library takes the CLI's inputs", () => {
  it("lift: a version, and ranges in an array; a range alone is refused as the CLI refuses it", async () => {
    const s = await entry();
    const out = join(work, "lifted");
    const events: Searchlift.ProgressEvent[] = [];
    const one = await s.lift("0.5.0", { out, verify: false, releaseCache, onProgress: (e) => events.push(e) });
    expect(one).toMatchObject({ version: "0.5.0", platform: "npm" });
    expect(existsSync(one.module)).toBe(true);
    // Which file the version became is said, as the CLI says it on stderr.
    expect(events.some((e) => e.stage === "fetch" && /0\.5\.0 \(npm\) → .*\.tgz/.test(e.message))).toBe(true);
    const many = await s.lift(["0.3.0-0.4.0"], { out, verify: false, releaseCache });
    expect(many.map((r) => r.version)).toEqual(["0.3.0", "0.4.0"]);
    await expect(s.lift("0.3.0-0.4.0", { out, verify: false, releaseCache })).rejects.toMatchObject({ exitCode: s.ExitCode.usage });
  });

  it("diff: two versions", async () => {
    const s = await entry();
    const d = await s.diff("0.4.0", "0.5.0", { releaseCache });
    expect([d.a.version, d.b.version]).toEqual(["0.4.0", "0.5.0"]);
    expect(d.semantics.find((r) => r.feature === "select: comma list")).toMatchObject({ before: "no", after: "yes" });
  });

  it("track: a range, and a folder of releases (fetch's cache)", async () => {
    const s = await entry();
    const cache = join(work, "track-cache");
    const t = await s.track(["0.3.0-0.4.0"], { out: join(work, "timeline-range"), cache, verify: false, jobs: 1, releaseCache });
    expect(t.timeline.releases.map((r) => r.version)).toEqual(["0.3.0", "0.4.0"]);
    const f = await s.track([releaseCache], { out: join(work, "timeline-folder"), cache, verify: false, jobs: 1 });
    expect(f.timeline.releases.map((r) => r.version)).toEqual(["0.3.0", "0.4.0", "0.5.0"]);
  });

  it("an out that would be refused is refused before anything is fetched", async () => {
    const s = await entry();
    const file = join(work, "notes.txt");
    writeFileSync(file, "mine\n");
    rmSync(npmLog, { force: true });
    await expect(s.lift("0.5.0", { out: file, releaseCache: join(work, "other-cache") })).rejects.toMatchObject({
      exitCode: s.ExitCode.output,
    });
    await expect(s.track(["0.5.0"], { out: file, verify: false, releaseCache: join(work, "other-cache") })).rejects.toMatchObject({
      exitCode: s.ExitCode.output,
    });
    await expect(s.diff("0.4.0", "0.5.0", { out: file, releaseCache: join(work, "other-cache") })).rejects.toMatchObject({
      exitCode: s.ExitCode.output,
    });
    expect(existsSync(npmLog)).toBe(false);
    expect(readFileSync(file, "utf8")).toBe("mine\n");
  });
});
