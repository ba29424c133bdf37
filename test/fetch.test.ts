/**
 * searchlift fetch against the real npm registry (through the machine's npm). Downloads are kept small: only
 * 2.0.70's cli.js package (~26 MB, usually already in npm's cache) is fetched; ranges and platform packages are
 * resolved with --list and --dry-run. Run the build (`npm run build`) before the CLI tests. Under
 * SEARCHLIFT_SKIP_REAL=1 only the range grammar (no registry) runs.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ExitCode } from "../src/errors.js";
import { fetchReleases, hostPlatform } from "../src/fetch/fetch.js";
import { downloadRelease, RELEASE_META } from "../src/fetch/release-cache.js";
import { parseReleaseSpec, satisfies } from "../src/fetch/release-range.js";
import { compareVersions } from "../src/release-names.js";
import { runCli } from "./helpers/cli.js";

const PKG = "@anthropic-ai/claude-code";
const SKIP_REAL = process.env.SEARCHLIFT_SKIP_REAL === "1";

const run = (args: string[], env: Record<string, string> = {}) => runCli(args, { timeout: 300_000, env });

const tmp = () => mkdtempSync(join(tmpdir(), "searchlift-fetch-"));
const sha512 = (file: string) => `sha512-${createHash("sha512").update(readFileSync(file)).digest("base64")}`;
const sha256 = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");
const registryIntegrity = (spec: string) =>
  JSON.parse(execFileSync("npm", ["view", spec, "dist.integrity", "--json"], { encoding: "utf8" })) as string;
/** Everything under `dir`, relative: what a failed fetch must not leave behind. */
const contents = (dir: string) => readdirSync(dir, { recursive: true }).map(String).sort();

describe.skipIf(SKIP_REAL)("fetch 2.0.70 (cli.js era) into a temporary cache", () => {
  const cache = tmp();
  let tarball: string;

  beforeAll(async () => {
    const r = await fetchReleases("2.0.70", { cache });
    expect(r.releases).toHaveLength(1);
    expect(r.releases[0]).toMatchObject({ version: "2.0.70", platform: "npm", package: PKG, cached: false });
    tarball = r.releases[0]!.tarball;
    expect(r.releases[0]!.sha256).toBe(sha256(tarball));
  });

  it("writes the tarball under <cache>/<version>/<platform>/ and its hash is the registry's dist.integrity", () => {
    expect(tarball).toBe(join(cache, "2.0.70", "npm", "anthropic-ai-claude-code-2.0.70.tgz"));
    expect(existsSync(tarball)).toBe(true);
    expect(statSync(tarball).size).toBeGreaterThan(20_000_000);
    const want = registryIntegrity(`${PKG}@2.0.70`);
    expect(sha512(tarball)).toBe(want);
    expect(JSON.parse(readFileSync(join(cache, "2.0.70", "npm", RELEASE_META), "utf8"))).toMatchObject({
      version: "2.0.70",
      platform: "npm",
      package: PKG,
      integrity: want,
      // The registry's publish time, for the timeline's release dates.
      published: JSON.parse(execFileSync("npm", ["view", `${PKG}@2.0.70`, "time", "--json"], { encoding: "utf8" }))["2.0.70"],
    });
    expect(contents(cache).filter((f) => f.startsWith(".tmp-"))).toEqual([]);
  });

  it("a second fetch (library and CLI) uses the cached tarball without downloading it again, and dates it if undated", async () => {
    const before = statSync(tarball).mtimeMs;
    const metaFile = join(cache, "2.0.70", "npm", RELEASE_META);
    const { published, ...undated } = JSON.parse(readFileSync(metaFile, "utf8")) as Record<string, unknown>;
    writeFileSync(metaFile, JSON.stringify(undated));
    const again = await fetchReleases("2.0.70", { cache });
    expect(again.releases[0]).toMatchObject({ tarball, cached: true });
    expect(JSON.parse(readFileSync(metaFile, "utf8"))).toEqual({ ...undated, published });
    const r = run(["fetch", "2.0.70", "--cache", cache, "--json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toEqual({
      releases: [
        {
          version: "2.0.70",
          platform: "npm",
          package: PKG,
          tarball,
          integrity: registryIntegrity(`${PKG}@2.0.70`),
          sha256: sha256(tarball),
          cached: true,
        },
      ],
    });
    expect(statSync(tarball).mtimeMs).toBe(before);
    const human = run(["fetch", "2.0.70", "--cache", cache]);
    expect(human.stdout).toBe(`2.0.70 npm ${tarball} (cached)\n`);
  });

  it("without the registry a cached version is served on its recorded integrity, with a warning; an uncached one exits 12", () => {
    const before = contents(cache);
    const offline = run(["fetch", "2.0.70", "--cache", cache, "--json"], { SEARCHLIFT_NPM: "/nonexistent/npm" });
    expect(offline.code, offline.stderr).toBe(0);
    expect(JSON.parse(offline.stdout).releases[0]).toMatchObject({
      version: "2.0.70",
      cached: true,
      integrity: registryIntegrity(`${PKG}@2.0.70`),
    });
    const human = run(["fetch", "2.0.70", "--cache", cache], { SEARCHLIFT_NPM: "/nonexistent/npm" });
    expect(human.stderr).toMatch(
      /^searchlift: cannot ask the registry \(.*\); using the cached 2\.0\.70 \(npm\), checked against the integrity recorded when it was fetched\n$/,
    );
    const r = run(["fetch", "2.0.71", "--cache", cache, "--json"], { SEARCHLIFT_NPM: "/nonexistent/npm" });
    expect(r.code, r.stderr).toBe(ExitCode.npmFailed);
    expect(r.stderr).toMatch(/cannot run \/nonexistent\/npm/);
    expect(contents(cache)).toEqual(before);
  });

  it("a corrupted cached tarball is detected and fetched again", async () => {
    const other = tmp();
    cpSync(join(cache, "2.0.70"), join(other, "2.0.70"), { recursive: true });
    const copy = join(other, "2.0.70", "npm", "anthropic-ai-claude-code-2.0.70.tgz");
    const bytes = readFileSync(copy);
    bytes[1000] = bytes[1000]! ^ 0xff;
    writeFileSync(copy, bytes);
    // A download killed a day ago left its temporary folder: the next download removes it.
    mkdirSync(join(other, ".tmp-killed"));
    const dayAgo = new Date(Date.now() - 25 * 3600 * 1000);
    utimesSync(join(other, ".tmp-killed"), dayAgo, dayAgo);
    const warnings: string[] = [];
    const r = await fetchReleases("2.0.70", { cache: other, warn: (m) => warnings.push(m) });
    expect(r.releases[0]).toMatchObject({ tarball: copy, cached: false });
    expect(warnings.join("\n")).toMatch(/corrupt.*fetching it again/);
    expect(sha512(copy)).toBe(registryIntegrity(`${PKG}@2.0.70`));
    expect(contents(other).filter((f) => f.startsWith(".tmp-"))).toEqual([]);

    // The CLI says so on stderr, in one line.
    writeFileSync(copy, "not a tarball");
    const cli = run(["fetch", "2.0.70", "--cache", other]);
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stderr.trim().split("\n")).toHaveLength(1);
    expect(cli.stderr).toMatch(/cached 2\.0\.70 \(npm\) is corrupt/);
    expect(sha512(copy)).toBe(registryIntegrity(`${PKG}@2.0.70`));
  });

  it("a download whose hash is not the registry's is refused and nothing is cached", async () => {
    const other = tmp();
    const wrong = `sha512-${createHash("sha512").update("something else").digest("base64")}`;
    await expect(downloadRelease(other, { version: "2.0.70", platform: "npm", package: PKG }, wrong)).rejects.toMatchObject({
      exitCode: ExitCode.integrity,
      message: expect.stringMatching(/integrity mismatch for @anthropic-ai\/claude-code@2\.0\.70/),
    });
    expect(contents(other)).toEqual([]);
  });

  it("takes the tarball from npm's own cache, where npm cache add files it, without npm pack", () => {
    const other = tmp();
    const log = join(other, "npm.log");
    const npm = join(other, "npm");
    writeFileSync(npm, `#!/bin/sh\necho "$1 $2" >> "${log}"\nexec npm "$@"\n`, { mode: 0o755 });
    const r = run(["fetch", "2.0.70", "--cache", join(other, "releases"), "--json"], { SEARCHLIFT_NPM: npm });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(log, "utf8").trim().split("\n").sort()).toEqual(["cache add", "config get", `view ${PKG}@2.0.70`]);
    expect(sha512(JSON.parse(r.stdout).releases[0].tarball)).toBe(registryIntegrity(`${PKG}@2.0.70`));
  });
});

describe.skipIf(SKIP_REAL)("fetch errors: one line, a distinct exit code, nothing written", () => {
  it("an unknown version", () => {
    const cache = tmp();
    const r = run(["fetch", "9.9.9", "--cache", cache]);
    expect(r.code).toBe(ExitCode.notPublished);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/^searchlift: 9\.9\.9 is not a published version of @anthropic-ai\/claude-code$/m);
    expect(r.stdout).toBe("");
    expect(contents(cache)).toEqual([]);
  });

  it("a platform that does not exist for the version", () => {
    const cache = tmp();
    const r = run(["fetch", "2.0.70", "--platform", "linux-x64", "--cache", cache]);
    expect(r.code).toBe(ExitCode.notPublished);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/2\.0\.70 has no linux-x64 package .*start at 2\.1\.110.*without --platform/);
    expect(contents(cache)).toEqual([]);
  });

  it("the cli.js package after 2.1.112 (only a wrapper)", () => {
    const r = run(["fetch", "2.1.332", "--platform", "npm", "--cache", tmp()]);
    expect(r.code).toBe(ExitCode.notPublished);
    expect(r.stderr).toMatch(/2\.1\.332 has no cli\.js package.*wrapper/);
  });

  it("an unknown platform and a bad range are usage errors", () => {
    expect(run(["fetch", "2.1.112", "--platform", "beos-x64"]).code).toBe(ExitCode.usage);
    const r = run(["fetch", "2.1.112-2.1.100"]);
    expect(r.code).toBe(ExitCode.usage);
    expect(r.stderr).toMatch(/bad version range/);
    expect(run(["fetch"]).code).toBe(ExitCode.usage);
  });

  it("npm missing, or npm failing (its configured registry unreachable)", () => {
    const cache = tmp();
    const missing = run(["fetch", "2.0.71", "--cache", cache], { SEARCHLIFT_NPM: "/nonexistent/npm" });
    expect(missing.code).toBe(ExitCode.npmFailed);
    expect(missing.stderr.trim().split("\n")).toHaveLength(1);
    expect(missing.stderr).toMatch(/cannot run \/nonexistent\/npm: not found/);

    // The registry comes from npm's configuration (here npm_config_registry), not from searchlift.
    const down = run(["fetch", "2.0.71", "--cache", cache], { npm_config_registry: "http://127.0.0.1:9/", npm_config_fetch_retries: "0" });
    expect(down.code).toBe(ExitCode.npmFailed);
    expect(down.stderr.trim().split("\n")).toHaveLength(1);
    expect(down.stderr).toMatch(/npm view .* failed: .*127\.0\.0\.1:9/);
    expect(contents(cache)).toEqual([]);
  });
});

describe.skipIf(SKIP_REAL)("fetch --list and ranges", () => {
  it("--list --json: which versions exist for which platform, with the era marked", () => {
    const r = run(["fetch", "--list", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const l = JSON.parse(r.stdout) as {
      packages: Record<string, string>;
      distTags: Record<string, string>;
      versions: Array<{ version: string; era: string; platforms: string[] }>;
    };
    const row = (v: string) => l.versions.find((x) => x.version === v)!;
    expect(row("2.0.70")).toEqual({ version: "2.0.70", era: "cli.js", platforms: ["npm"] });
    expect(row("2.1.332")).toMatchObject({ era: "native" });
    expect(row("2.1.332").platforms).toContain("linux-x64");
    expect(row("2.1.332").platforms).not.toContain("npm");
    expect(row("2.1.110").platforms).toEqual(expect.arrayContaining(["npm", "linux-x64", "darwin-arm64", "win32-x64"]));
    expect(l.packages["linux-x64"]).toBe("@anthropic-ai/claude-code-linux-x64");
    expect(l.distTags.latest).toMatch(/^\d+\.\d+\.\d+$/);
    // Oldest first.
    for (let i = 1; i < l.versions.length; i++) expect(compareVersions(l.versions[i - 1]!.version, l.versions[i]!.version)).toBeLessThan(0);
  });

  it("--list --platform with a range", () => {
    const r = run(["fetch", "--list", "2.1.100-2.1.114", "--platform", "linux-x64", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const l = JSON.parse(r.stdout);
    expect(l.versions.map((x: { version: string }) => x.version)).toEqual(["2.1.110", "2.1.111", "2.1.112", "2.1.113", "2.1.114"]);
    expect(l.versions.every((x: { platforms: string[] }) => x.platforms.join() === "linux-x64")).toBe(true);
  });

  it("a range resolves to cli.js packages up to 2.1.112 and the host's build after (--dry-run downloads nothing)", () => {
    const cache = tmp();
    const r = run(["fetch", "2.1.109-2.1.114", "--dry-run", "--json", "--cache", cache]);
    expect(r.code, r.stderr).toBe(0);
    const releases = JSON.parse(r.stdout).releases as Array<{
      version: string;
      platform: string;
      package: string;
      integrity: string;
      cached: boolean;
    }>;
    const host = hostPlatform();
    expect(releases.map((x) => `${x.version} ${x.platform}`)).toEqual([
      "2.1.109 npm",
      "2.1.110 npm",
      "2.1.111 npm",
      "2.1.112 npm",
      ...(host ? [`2.1.113 ${host}`, `2.1.114 ${host}`] : []),
    ]);
    for (const x of releases) {
      expect(x.cached).toBe(false);
      expect(x.integrity).toMatch(/^sha512-/);
      expect(x).not.toHaveProperty("sha256");
    }
    expect(releases[3]!.integrity).toBe(registryIntegrity(`${PKG}@2.1.112`));
    expect(contents(cache)).toEqual([]);
  });

  it('a semver range with --platform: ">=2.1.100 <2.1.113" has darwin-arm64 builds from 2.1.110 (the rest skipped)', () => {
    const r = run(["fetch", ">=2.1.100 <2.1.113", "--platform", "darwin-arm64", "--dry-run", "--json", "--cache", tmp()]);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.releases.map((x: { version: string }) => x.version)).toEqual(["2.1.110", "2.1.111", "2.1.112"]);
    expect(j.releases[0].package).toBe("@anthropic-ai/claude-code-darwin-arm64");
    expect(j.skipped.map((x: { version: string }) => x.version)).toContain("2.1.109");
  });

  it("no version in a range: an error", () => {
    const r = run(["fetch", "9.0.0-9.9.9", "--cache", tmp()]);
    expect(r.code).toBe(ExitCode.notPublished);
    expect(r.stderr).toMatch(/no published version .* is in 9\.0\.0-9\.9\.9/);
  });
});

describe("version ranges (no registry)", () => {
  const range = (s: string) => {
    const r = parseReleaseSpec(s);
    if (r.kind !== "range") throw new Error(`${s} is ${r.kind}`);
    return r;
  };

  it("tells versions, tags and ranges apart", () => {
    expect(parseReleaseSpec("2.1.112")).toEqual({ kind: "exact", version: "2.1.112" });
    expect(parseReleaseSpec("v2.1.112")).toEqual({ kind: "exact", version: "2.1.112" });
    expect(parseReleaseSpec("latest")).toEqual({ kind: "tag", tag: "latest" });
    expect(parseReleaseSpec("2.1.100-2.1.112").kind).toBe("range");
    expect(parseReleaseSpec("2.1.0-beta.1")).toEqual({ kind: "exact", version: "2.1.0-beta.1" });
  });

  it("hyphen ranges include both ends; comparators, || and * as in semver; prereleases never match", () => {
    const h = range("2.1.100-2.1.112");
    expect(["2.1.99", "2.1.100", "2.1.105", "2.1.112", "2.1.113", "2.10.0"].filter((v) => satisfies(v, h))).toEqual([
      "2.1.100",
      "2.1.105",
      "2.1.112",
    ]);
    const c = range(">= 2.1.100 <2.1.113");
    expect(["2.1.99", "2.1.100", "2.1.112", "2.1.113"].filter((v) => satisfies(v, c))).toEqual(["2.1.100", "2.1.112"]);
    const alt = range("2.0.70 || >2.1.300");
    expect(["2.0.70", "2.0.71", "2.1.300", "2.1.332"].filter((v) => satisfies(v, alt))).toEqual(["2.0.70", "2.1.332"]);
    expect(satisfies("1.0.0", range("*"))).toBe(true);
    expect(satisfies("2.1.110-rc.1", range(">=2.1.100"))).toBe(false);
    expect(() => parseReleaseSpec(">=banana")).toThrow(/bad version range/);
  });

  it("compares numerically, releases after their prereleases", () => {
    const sorted = ["2.1.112", "2.1.9", "2.0.70", "2.1.100", "2.1.100-rc.2", "2.1.100-rc.10", "10.0.0"].sort(compareVersions);
    expect(sorted).toEqual(["2.0.70", "2.1.9", "2.1.100-rc.2", "2.1.100-rc.10", "2.1.100", "2.1.112", "10.0.0"]);
  });
});
