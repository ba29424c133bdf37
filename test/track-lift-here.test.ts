/**
 * history lifts in its own process (track's liftHere) where track starts `searchlift lift` for each release
 * (liftOne). Both must leave the same thing in the lift cache: the same module, byte for byte, the same entry,
 * the same verification, the same refusal. Checked on sample releases packed as npm tarballs (history's inputs),
 * with the tarball's sha256 taken here, independently, as history passes it.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..");
// The built track (npm run build), as both lifts are the CLI's: a verifier runs its own compiled file, which
// the TypeScript source under vitest does not have.
const { liftHere, liftOne, readCached } = (await import(
  pathToFileURL(join(ROOT, "dist", "track", "track.js")).href
)) as typeof import("../src/track/track.js");
// Its pack too: the built lift's errors are the built pack's, and its verifier is the pack's built program.
const { toolSearchPack } = (await import(
  pathToFileURL(join(ROOT, "dist", "routines", "tool-search", "index.js")).href
)) as typeof import("../src/routines/tool-search/index.js");
const made: string[] = [];
const tmp = (prefix: string) => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  made.push(d);
  return d;
};
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** A sample program as the npm tarball of release `version`, and the tarball's sha256. */
function packed(program: string, version: string): { tgz: string; sha256: string } {
  const work = tmp("searchlift-lift-here-pkg-");
  mkdirSync(join(work, "package"));
  writeFileSync(
    join(work, "package", "package.json"),
    JSON.stringify({ name: "@anthropic-ai/claude-code", version, bin: { claude: "cli.js" } }),
  );
  writeFileSync(join(work, "package", "cli.js"), readFileSync(program));
  const tgz = join(tmp("searchlift-lift-here-tgz-"), `anthropic-ai-claude-code-${version}.tgz`);
  expect(spawnSync("tar", ["-czf", tgz, "-C", work, "package"]).status).toBe(0);
  return { tgz, sha256: createHash("sha256").update(readFileSync(tgz)).digest("hex") };
}

/** The cache entry `key` as text, with the cache's own folder named alike (the only difference allowed). */
function entry(cache: string, key: string): string {
  return readFileSync(join(cache, key, "release.json"), "utf8").replaceAll(cache, "<cache>");
}

describe("liftHere", () => {
  it("leaves what a lift in a child process leaves: the same module, entry and verification", async () => {
    const { tgz, sha256 } = packed(join(ROOT, "samples", "releases", "0.5.0"), "2.0.74");
    const [child, here] = [tmp("searchlift-lift-child-"), tmp("searchlift-lift-here-")];
    const a = await liftOne(tgz, sha256, child, true);
    const b = await liftHere(tgz, sha256, here, true, { pack: toolSearchPack });
    expect(a.error, a.error).toBeUndefined();
    expect(b.routineHash).toBe(a.routineHash);
    expect(b.verified).toEqual(a.verified);
    expect(b.verified).toMatchObject({ cases: 2000, agreed: 2000 });
    const [ma, mb] = [readFileSync(a.module!, "utf8"), readFileSync(b.module!, "utf8")];
    expect(mb).toBe(ma);
    // The tarball's hash given to liftHere is the one a lift takes itself: the module's provenance says it.
    expect(mb).toContain(`"sha256": "${sha256}"`);
    expect(entry(here, sha256)).toBe(entry(child, sha256));
    expect(readCached(here, sha256, true)).toEqual({ ...readCached(child, sha256, true), module: b.module });
    // Each recorded the verification it ran, under the same key.
    const recorded = (cache: string) => spawnSync("ls", [join(cache, "verifications")], { encoding: "utf8" }).stdout;
    expect(recorded(here)).toBe(recorded(child));
    expect(recorded(here).trim()).not.toBe("");
  }, 300_000);

  it("refuses what lift refuses, with lift's words, cached as definite", async () => {
    const { tgz, sha256 } = packed(join(ROOT, "samples", "refused", "0.8.0"), "2.0.78");
    const [child, here] = [tmp("searchlift-lift-child-"), tmp("searchlift-lift-here-")];
    const a = await liftOne(tgz, sha256, child, false);
    const b = await liftHere(tgz, sha256, here, false, { pack: toolSearchPack });
    expect(a.error).toMatch(/cannot lift/);
    expect(b).toEqual(a);
    expect(entry(here, sha256)).toBe(entry(child, sha256));
  }, 300_000);

  it("a sha256 that is not the tarball's is what the module's provenance records: callers pass the one they took", async () => {
    // Not a check liftHere makes (it trusts its caller, as lift trusts check's), so the test pins who is trusted:
    // a different hash gives a different entry key and provenance, and nothing else in the module.
    const { tgz, sha256 } = packed(join(ROOT, "samples", "releases", "0.1.0"), "2.0.70");
    const other = createHash("sha256").update("not the tarball").digest("hex");
    const cache = tmp("searchlift-lift-here-");
    const [a, b] = [
      await liftHere(tgz, sha256, cache, false, { pack: toolSearchPack }),
      await liftHere(tgz, other, cache, false, { pack: toolSearchPack }),
    ];
    const [ma, mb] = [readFileSync(a.module!, "utf8"), readFileSync(b.module!, "utf8")];
    expect(ma).not.toBe(mb);
    expect(mb.replaceAll(other, sha256)).toBe(ma);
  }, 300_000);
});
