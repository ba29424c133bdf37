/**
 * Release dates in the timeline: fetch records the registry's publish time in the release.json beside each
 * tarball, and track shows it at each change point (timeline.json, .md, .html). Here the fetch cache is made by
 * hand from two sample releases, so no network is needed.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isPublishTime, recordedPublishTime, recordPublishTime, RELEASE_META, tarballName } from "../src/fetch/release-cache.js";
import { ROOT, runCli } from "./helpers/cli.js";

const dir = mkdtempSync(join(tmpdir(), "searchlift-published-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PKG = "searchlift-sample";

/** `<cache>/<version>/npm/<tarball>` holding samples/releases/<version> as the package's program, and its release.json. */
function cachedSample(cache: string, version: string, published: unknown): string {
  const staging = join(dir, `staging-${version}`, "package");
  mkdirSync(staging, { recursive: true });
  cpSync(join(ROOT, "samples", "releases", version), join(staging, "cli.js"));
  writeFileSync(join(staging, "package.json"), JSON.stringify({ name: PKG, version, bin: { sample: "cli.js" } }));
  const folder = join(cache, version, "npm");
  mkdirSync(folder, { recursive: true });
  const tarball = join(folder, tarballName(PKG, version));
  execFileSync("tar", ["-czf", tarball, "-C", join(staging, ".."), "package"]);
  const meta = { version, platform: "npm", package: PKG, tarball: tarballName(PKG, version), integrity: "sha512-x", published };
  writeFileSync(join(folder, RELEASE_META), JSON.stringify(meta));
  return tarball;
}

describe("publish times", () => {
  it("are ISO 8601 times as registries write them, and nothing else", () => {
    expect(isPublishTime("2026-05-15T07:22:18.436Z")).toBe(true);
    expect(isPublishTime("2026-05-15T07:22:18.436000+00:00")).toBe(true);
    for (const bad of ["2026-05-15", "yesterday", "2026-05-15T07:22:18Z\n# injected", "<b>2026</b>"])
      expect(isPublishTime(bad)).toBe(false);
  });

  it("are read from the release.json beside a tarball that names it, else unknown", () => {
    const cache = join(dir, "read");
    const tarball = cachedSample(cache, "0.3.1", "2026-05-15T07:22:18.436Z");
    expect(recordedPublishTime(tarball)).toBe("2026-05-15T07:22:18.436Z");
    const odd = cachedSample(join(dir, "odd"), "0.3.1", "2026-05-15 <script>");
    expect(recordedPublishTime(odd)).toBeNull();
    expect(recordedPublishTime(join(ROOT, "samples", "releases", "0.3.1"))).toBeNull();
  });

  it("are added to a cached release that has none (fetch's cache hit), and never replace one", () => {
    const cache = join(dir, "backfill");
    const undated = cachedSample(cache, "0.4.0", undefined);
    expect(recordedPublishTime(undated)).toBeNull();
    recordPublishTime(undated, "not a time");
    expect(recordedPublishTime(undated)).toBeNull();
    recordPublishTime(undated, "2026-04-20T09:30:00.000Z");
    expect(recordedPublishTime(undated)).toBe("2026-04-20T09:30:00.000Z");
    const meta = JSON.parse(readFileSync(join(cache, "0.4.0", "npm", RELEASE_META), "utf8"));
    expect(meta).toMatchObject({ version: "0.4.0", package: PKG, integrity: "sha512-x" });
    recordPublishTime(undated, "2027-01-01T00:00:00.000Z");
    expect(recordedPublishTime(undated)).toBe("2026-04-20T09:30:00.000Z");
    expect(readdirSync(join(cache, "0.4.0", "npm")).sort()).toEqual([RELEASE_META, tarballName(PKG, "0.4.0")].sort());
  });

  it("track shows the later release's day at each change point, in timeline.json, .md and .html", () => {
    const cache = join(dir, "releases");
    cachedSample(cache, "0.3.1", "2026-03-02T10:00:00.000Z");
    cachedSample(cache, "0.4.0", "2026-04-20T09:30:00.000+00:00");
    const out = join(dir, "timeline");
    const r = runCli(["track", cache, "--no-verify", "--out", out, "--cache", join(dir, "track-cache")], { timeout: 0 });
    expect(r.code, r.stderr).toBe(0);
    const timeline = JSON.parse(readFileSync(join(out, "timeline.json"), "utf8"));
    expect(timeline.releases.map((x: { version: string; published?: string }) => [x.version, x.published])).toEqual([
      ["0.3.1", "2026-03-02T10:00:00.000Z"],
      ["0.4.0", "2026-04-20T09:30:00.000+00:00"],
    ]);
    expect(readFileSync(join(out, "timeline.md"), "utf8")).toContain("### 0.3.1 → 0.4.0 (2026-04-20)");
    expect(readFileSync(join(out, "timeline.html"), "utf8")).toMatch(
      /<span class="to">0\.4\.0<\/span> <span class="date">2026-04-20<\/span>/,
    );
  }, 300_000);
});
