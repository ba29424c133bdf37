/**
 * Every command's <input> as the CLI takes it (`node bin/searchlift.js …` after the build): version specs
 * resolved through the release cache (against a fake npm over tarballs of our sample releases, and, unless
 * SEARCHLIFT_SKIP_REAL=1, the real registry), fetch's cache folder as a track input, and the user's own
 * Claude Code found in a fake HOME and PATH: a versions folder with a `claude` symlink into it, a global npm
 * root and a global bun install. The program files are samples/releases/0.x.0 (a fake client of ours).
 */
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ExitCode } from "../src/errors.js";
import { readVersionSpec } from "../src/inputs/version-spec.js";
import { cacheDir } from "./helpers/cache.js";
import { runCli } from "./helpers/cli.js";

const ROOT = join(import.meta.dirname, "..");
const SAMPLES = join(ROOT, "samples", "releases");
const FAKE_NPM = join(import.meta.dirname, "helpers", "fake-npm.mjs");
const PKG = "@anthropic-ai/claude-code";
const SKIP_REAL = process.env.SEARCHLIFT_SKIP_REAL === "1";

const tmp = () => realpathSync(mkdtempSync(join(tmpdir(), "searchlift-inputs-")));

/** A machine of its own: HOME, PATH (our bin folder and node's), bun's root and npm (the fake one unless given). */
interface Machine {
  home: string;
  bin: string;
  env: Record<string, string> &
    Record<"HOME" | "PATH" | "BUN_INSTALL" | "XDG_CACHE_HOME" | "SEARCHLIFT_NPM" | "FAKE_NPM_ROOT" | "FAKE_NPM_REGISTRY", string>;
}

function machine(opts: { npmRoot?: string; registry?: string } = {}): Machine {
  const home = tmp();
  const bin = join(home, "bin");
  mkdirSync(bin);
  chmodSync(FAKE_NPM, 0o755);
  const env = {
    HOME: home,
    PATH: [bin, dirname(process.execPath)].join(":"),
    BUN_INSTALL: join(home, ".bun"),
    XDG_CACHE_HOME: join(home, ".cache"),
    SEARCHLIFT_NPM: FAKE_NPM,
    FAKE_NPM_ROOT: opts.npmRoot ?? join(home, "npm", "lib", "node_modules"),
    FAKE_NPM_REGISTRY: opts.registry ?? join(home, "registry"),
  };
  return { home, bin, env };
}

const run = (m: Machine | null, args: string[], cwd = ROOT) => runCli(args, { timeout: 300_000, env: m?.env ?? {}, cwd });

/** The sample release `version` as an npm package folder named @anthropic-ai/claude-code (bin: cli.js). */
function samplePackage(dir: string, version: string): string {
  mkdirSync(dir, { recursive: true });
  copyFileSync(join(SAMPLES, version), join(dir, "cli.js"));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: PKG, version, bin: { claude: "cli.js" } }));
  return dir;
}

/** The same as a tarball, as npm pack writes it (a `package/` folder inside). */
function sampleTarball(file: string, version: string): string {
  const work = tmp();
  samplePackage(join(work, "package"), version);
  mkdirSync(dirname(file), { recursive: true });
  const r = spawnSync("tar", ["-czf", file, "-C", work, "package"]);
  if (r.status !== 0) throw new Error(`tar failed: ${String(r.stderr)}`);
  return file;
}

/** A versions folder of sample releases (as the native installer keeps them) and `claude` on PATH linking into it. */
function installNative(m: Machine, versions: string[]): string {
  const dir = join(m.home, ".local", "share", "claude", "versions");
  mkdirSync(dir, { recursive: true });
  for (const v of versions) {
    copyFileSync(join(SAMPLES, v), join(dir, v));
    chmodSync(join(dir, v), 0o755);
  }
  symlinkSync(join(dir, versions.at(-1)!), join(m.bin, "claude"));
  return dir;
}

describe("version specs", () => {
  it("read a version, a package@version, a tag, a range; bare words and paths are not specs", () => {
    expect(readVersionSpec("2.1.300")).toMatchObject({ fetchSpec: "2.1.300", kind: "exact" });
    expect(readVersionSpec("claude-code@2.1.300")).toMatchObject({ fetchSpec: "2.1.300", kind: "exact" });
    expect(readVersionSpec("@anthropic-ai/claude-code@latest")).toMatchObject({ fetchSpec: "latest", kind: "tag" });
    expect(readVersionSpec("claude-code@next")).toMatchObject({ fetchSpec: "next", kind: "tag" });
    expect(readVersionSpec("latest")).toMatchObject({ kind: "tag" });
    expect(readVersionSpec("claude-code-darwin-arm64@2.1.332")).toMatchObject({
      fetchSpec: "2.1.332",
      kind: "exact",
      platform: "darwin-arm64",
    });
    expect(readVersionSpec("2.1.290-2.1.300")).toMatchObject({ kind: "range" });
    expect(readVersionSpec(">=2.1.290 <2.1.300")).toMatchObject({ kind: "range" });
    for (const notSpec of ["claude", "next", "cli.js", "./2.1.300", "2.1", "claude-code-plan9-x64@2.1.300", "other@2.1.300", ""]) {
      expect(readVersionSpec(notSpec), notSpec).toBeNull();
    }
  });
});

describe("version inputs through the release cache (a fake npm over sample tarballs)", () => {
  const m = machine();
  for (const v of ["0.5.0", "0.6.0", "0.7.0"]) sampleTarball(join(m.env.FAKE_NPM_REGISTRY, "anthropic-ai-claude-code", `${v}.tgz`), v);
  const cache = join(m.env.XDG_CACHE_HOME, "searchlift", "releases");
  const cached = (v: string) => join(cache, v, "npm", `anthropic-ai-claude-code-${v}.tgz`);

  it("extract 0.5.0 fetches into the default cache, names the file on stderr, and lists it; again it is cached", () => {
    const r = run(m, ["extract", "0.5.0", "--list", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ input: cached("0.5.0"), format: "npm-package" });
    expect(r.stderr).toContain(`searchlift: fetching 0.5.0 (npm) 1/1…`);
    expect(r.stderr).toContain(`searchlift: 0.5.0 (npm) → ${cached("0.5.0")}\n`);
    const again = run(m, ["locate", "claude-code@0.5.0", "--json"]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toBe(`searchlift: claude-code@0.5.0 (npm) → ${cached("0.5.0")} (cached)\n`);
    expect(JSON.parse(again.stdout).routines.find((x: { id: string }) => x.id === "tool-search/scorer").status).toBe("found");
  });

  it("lift takes a range (each release) and latest; --cache puts releases elsewhere", () => {
    const other = join(m.home, "other-cache");
    const r = run(m, [
      "lift",
      "0.5.0-0.6.0",
      "@anthropic-ai/claude-code@latest",
      "--cache",
      other,
      "--out",
      join(m.home, "lifted"),
      "--no-verify",
      "--json",
    ]);
    expect(r.code, r.stderr).toBe(0);
    const results = JSON.parse(r.stdout).results as Array<{ input: string; version: string }>;
    expect(results.map((x) => x.version)).toEqual(["0.5.0", "0.6.0", "0.7.0"]);
    expect(results.map((x) => x.input)).toEqual(
      ["0.5.0", "0.6.0", "0.7.0"].map((v) => join(other, v, "npm", `anthropic-ai-claude-code-${v}.tgz`)),
    );
    expect(r.stderr).toContain(
      `@anthropic-ai/claude-code@latest: 0.7.0 (npm) → ${join(other, "0.7.0", "npm", "anthropic-ai-claude-code-0.7.0.tgz")}`,
    );
  });

  it("track without --cache keeps its lifts under $XDG_CACHE_HOME/searchlift, beside fetch's releases", () => {
    const xdg = join(m.home, "xdg");
    const r = run({ ...m, env: { ...m.env, XDG_CACHE_HOME: xdg } }, [
      "track",
      "0.5.0",
      "--no-verify",
      "--json",
      "--out",
      join(m.home, "tl"),
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(join(xdg, "searchlift", "track")).length).toBeGreaterThan(0);
    expect(existsSync(join(xdg, "searchlift", "releases", "0.5.0", "npm"))).toBe(true);
    expect(existsSync(join(m.home, ".cache", "searchlift", "track"))).toBe(false);
  });
  it("diff of two versions lifts both; a range there is a usage error", () => {
    const r = run(m, ["diff", "0.6.0", "0.7.0", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const d = JSON.parse(r.stdout);
    expect([d.a.version, d.b.version]).toEqual(["0.6.0", "0.7.0"]);
    expect(d.a.input).toBe(cached("0.6.0"));
    const range = run(m, ["diff", "0.5.0-0.6.0", "0.7.0"]);
    expect(range.code).toBe(ExitCode.usage);
    expect(range.stderr).toBe("searchlift: 0.5.0-0.6.0 is a range of releases; diff takes one (track and lift take ranges)\n");
  });

  it("a path that exists wins over the spec it spells", () => {
    const cwd = tmp();
    copyFileSync(join(SAMPLES, "0.3.0"), join(cwd, "0.5.0"));
    const r = run(m, ["extract", "0.5.0", "--list", "--json"], cwd);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ input: "0.5.0", format: "plain-script" });
    expect(r.stderr).toBe("");
  });

  it("a version not published exits 11, npm failing 12, contradicting platforms 2, a missing non-spec file 3", () => {
    const missing = run(m, ["locate", "0.9.9"]);
    expect(missing.code).toBe(ExitCode.notPublished);
    expect(missing.stderr).toMatch(/^searchlift: 0\.9\.9 is not a published version of @anthropic-ai\/claude-code\n$/);
    // Without npm, a version the cache holds is still served (offline); one it does not hold cannot be fetched.
    const noNpmEnv = { ...m, env: { ...m.env, SEARCHLIFT_NPM: join(m.home, "no-npm") } };
    expect(run(noNpmEnv, ["extract", "0.5.0", "--list"]).code).toBe(0);
    const noNpm = run(noNpmEnv, ["extract", "0.5.0", "--cache", join(m.home, "empty-release-cache")]);
    expect(noNpm.code).toBe(ExitCode.npmFailed);
    expect(noNpm.stderr).toMatch(/cannot run .*no-npm: not found/);
    const platforms = run(m, ["lift", "claude-code-linux-x64@2.1.300", "--platform", "darwin-arm64"]);
    expect(platforms.code).toBe(ExitCode.usage);
    expect(platforms.stderr).toMatch(/names platform linux-x64 but --platform is darwin-arm64/);
    const typo = run(m, ["extract", "claude"]);
    expect(typo.code).toBe(ExitCode.unreadable);
    expect(typo.stderr).toBe("searchlift: claude: no such file or folder, and not a version\n");
  });
});

describe("fetch downloads through npm's cache (a fake npm over sample tarballs)", () => {
  const m = machine();
  const published = sampleTarball(join(m.env.FAKE_NPM_REGISTRY, "anthropic-ai-claude-code", "0.6.0.tgz"), "0.6.0");
  const npmCache = join(m.home, "npm-cache");
  const hex = createHash("sha512").update(readFileSync(published)).digest("hex");
  const filed = join(npmCache, "_cacache", "content-v2", "sha512", hex.slice(0, 2), hex.slice(2, 4), hex.slice(4));

  /** fetch 0.6.0 into a new cache; the npm commands it ran (command and subcommand), in the order they started. */
  function fetchWith(name: string, env: Record<string, string>) {
    const log = join(m.home, `${name}.log`);
    const cache = join(m.home, name);
    const r = run({ ...m, env: { ...m.env, ...env, FAKE_NPM_LOG: log } }, ["fetch", "0.6.0", "--cache", cache, "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const tarball = (JSON.parse(r.stdout) as { releases: Array<{ tarball: string }> }).releases[0]!.tarball;
    expect(readFileSync(tarball)).toEqual(readFileSync(published));
    const npm = readFileSync(log, "utf8").trim().split("\n");
    return { npm: npm.map((l) => l.split(" ").slice(0, 2).join(" ")), tarball };
  }

  it("copies the tarball npm cache add filed in npm's cache, and packs nothing", () => {
    const { npm } = fetchWith("copied", { FAKE_NPM_CACHE: npmCache });
    expect(existsSync(filed)).toBe(true);
    // npm cache add runs beside the view of the release's integrity, which the copy is checked against after.
    expect(npm.sort()).toEqual(["cache add", "config get", "view @anthropic-ai/claude-code@0.6.0"]);
  });

  it("a tarball npm's cache already holds is copied without waiting for npm cache add", () => {
    // Filed by the test above; npm cache add now fails, and the fetch does not depend on it.
    expect(existsSync(filed)).toBe(true);
    const { npm } = fetchWith("held", { FAKE_NPM_CACHE: npmCache, FAKE_NPM_CACHE_ADD_FAILS: "1" });
    expect(npm.filter((c) => c.startsWith("pack"))).toEqual([]);
  });

  it("npm packs a tarball npm's cache holds elsewhere or damaged, and checks it the same", () => {
    const elsewhere = fetchWith("elsewhere", {});
    expect(elsewhere.npm.sort()).toEqual([
      "cache add",
      "config get",
      "pack @anthropic-ai/claude-code@0.6.0",
      "view @anthropic-ai/claude-code@0.6.0",
    ]);
    const bytes = readFileSync(published);
    bytes[bytes.length >> 1]! ^= 0xff;
    mkdirSync(dirname(filed), { recursive: true });
    writeFileSync(filed, bytes);
    const damaged = fetchWith("damaged", { FAKE_NPM_CACHE: npmCache });
    expect(damaged.npm.at(-1)).toBe("pack @anthropic-ai/claude-code@0.6.0");
    expect(readdirSync(dirname(damaged.tarball)).sort()).toEqual(["anthropic-ai-claude-code-0.6.0.tgz", "release.json"]);
  });
});

describe("a release out for some platforms before the client package has it (a fake npm)", () => {
  // 2.1.201 is published for linux-x64 only; the client package and darwin-arm64 stop at 2.1.200. The
  // tarballs are never unpacked here (listing and --dry-run), so any bytes do.
  const m = machine();
  const publish = (pkg: string, v: string) => {
    const dir = join(m.env.FAKE_NPM_REGISTRY, pkg);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${v}.tgz`), `${pkg} ${v}`);
  };
  publish("anthropic-ai-claude-code", "2.1.200");
  for (const v of ["2.1.200", "2.1.201"]) publish("anthropic-ai-claude-code-linux-x64", v);
  publish("anthropic-ai-claude-code-darwin-arm64", "2.1.200");

  it("fetch --list shows it, with the platforms that have it", () => {
    const r = run(m, ["fetch", "--list", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const rows = (JSON.parse(r.stdout) as { versions: Array<{ version: string; platforms: string[] }> }).versions;
    expect(rows.map((x) => [x.version, x.platforms.join(" ")])).toEqual([
      ["2.1.200", "linux-x64 darwin-arm64"],
      ["2.1.201", "linux-x64"],
    ]);
  });

  it("a range takes it for that platform; for another it is not asked for", () => {
    const linux = run(m, ["fetch", "2.1.200-2.1.201", "--platform", "linux-x64", "--dry-run", "--json", "--cache", join(m.home, "c")]);
    expect(linux.code, linux.stderr).toBe(0);
    expect(JSON.parse(linux.stdout).releases.map((x: { version: string }) => x.version)).toEqual(["2.1.200", "2.1.201"]);
    const darwin = run(m, ["fetch", "2.1.200-2.1.201", "--platform", "darwin-arm64", "--dry-run", "--json", "--cache", join(m.home, "c")]);
    expect(darwin.code, darwin.stderr).toBe(0);
    expect(JSON.parse(darwin.stdout).releases.map((x: { version: string }) => x.version)).toEqual(["2.1.200"]);
  });

  it("asked for exactly on a platform without it: which platforms have it, in one line", () => {
    const r = run(m, ["fetch", "2.1.201", "--platform", "darwin-arm64", "--cache", join(m.home, "c")]);
    expect(r.code).toBe(ExitCode.notPublished);
    expect(r.stderr).toBe("searchlift: 2.1.201 has no darwin-arm64 package; it is published for linux-x64 only: pass --platform\n");
  });
});

describe("track over fetch's release cache", () => {
  it("takes every <version>/<platform>/<tarball> as a release, and one version's folder too", () => {
    const cache = tmp();
    for (const v of ["0.1.0", "0.2.0", "0.3.0"]) {
      sampleTarball(join(cache, v, "npm", `anthropic-ai-claude-code-${v}.tgz`), v);
      writeFileSync(join(cache, v, "npm", "release.json"), JSON.stringify({ version: v, platform: "npm", package: PKG }));
    }
    mkdirSync(join(cache, ".tmp-interrupted"));
    const out = join(cache, "..", `timeline-${Date.now()}`);
    const r = run(null, ["track", cache, "--no-verify", "--json", "--out", out, "--cache", join(cache, "..", `track-cache-${Date.now()}`)]);
    expect(r.code, r.stderr).toBe(0);
    const timeline = JSON.parse(r.stdout) as { releases: Array<{ version: string; routineHash: string | null; input: string }> };
    expect(timeline.releases.map((x) => x.version)).toEqual(["0.1.0", "0.2.0", "0.3.0"]);
    expect(timeline.releases.every((x) => x.routineHash)).toBe(true);
    const one = run(null, [
      "track",
      join(cache, "0.2.0"),
      "--no-verify",
      "--json",
      "--out",
      out,
      "--cache",
      join(cache, "..", `track-cache-${Date.now()}`),
    ]);
    expect(one.code, one.stderr).toBe(0);
    expect(JSON.parse(one.stdout).releases.map((x: { version: string }) => x.version)).toEqual(["0.2.0"]);
  });
});

describe("the user's Claude Code", () => {
  it("where finds the versions folder, the claude on PATH through its link, a global npm and a global bun install", () => {
    const m = machine();
    const versions = installNative(m, ["0.6.0", "0.7.0"]);
    const npm = samplePackage(join(m.env.FAKE_NPM_ROOT, PKG), "0.5.0");
    const bun = samplePackage(join(m.env.BUN_INSTALL, "install", "global", "node_modules", PKG), "0.4.0");
    const r = run(m, ["where", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).installs).toEqual([
      { kind: "versions-folder", path: join(versions, "0.6.0"), version: "0.6.0" },
      { kind: "versions-folder", path: join(versions, "0.7.0"), version: "0.7.0" },
      { kind: "npm-global", path: npm, version: "0.5.0" },
      { kind: "bun-global", path: bun, version: "0.4.0" },
      { kind: "path", path: join(versions, "0.7.0"), version: "0.7.0", link: join(m.bin, "claude") },
    ]);
    const human = run(m, ["where"]);
    expect(human.stdout.split("\n")[4]).toBe(`path             0.7.0      ${join(versions, "0.7.0")} ← ${join(m.bin, "claude")}`);
  });

  it("a global npm install of the wrapper points at its platform package; npm failing is a note, not a failure", () => {
    const m = machine();
    const main = join(m.env.FAKE_NPM_ROOT, PKG);
    mkdirSync(main, { recursive: true });
    writeFileSync(join(main, "package.json"), JSON.stringify({ name: PKG, version: "2.1.300", bin: { claude: "bin/claude.exe" } }));
    const platform = join(main, "node_modules", "@anthropic-ai", "claude-code-linux-x64");
    mkdirSync(platform, { recursive: true });
    writeFileSync(join(platform, "package.json"), JSON.stringify({ name: `${PKG}-linux-x64`, version: "2.1.300" }));
    expect(JSON.parse(run(m, ["where", "--json"]).stdout).installs).toEqual([{ kind: "npm-global", path: platform, version: "2.1.300" }]);
    const noNpm = run({ ...m, env: { ...m.env, SEARCHLIFT_NPM: join(m.home, "no-npm") } }, ["where"]);
    expect(noNpm.code).toBe(0);
    expect(noNpm.stdout).toBe("");
    expect(noNpm.stderr).toMatch(/^note: no global npm install looked for: cannot run .*\nno Claude Code installation found \(looked in /);
  });

  it("lift with no input lifts the newest install and says which; with none it is a usage error", () => {
    const m = machine();
    const versions = installNative(m, ["0.5.0", "0.7.0", "0.6.0"]);
    const r = run(m, ["lift", "--no-verify", "--json", "--out", join(m.home, "lifted")]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).results).toMatchObject([{ input: join(versions, "0.7.0"), version: "0.7.0" }]);
    expect(r.stderr).toBe(
      `note: no input given: lifting the newest installed Claude Code, versions-folder 0.7.0 at ${join(versions, "0.7.0")}\n`,
    );

    const bare = machine();
    const none = run(bare, ["lift"]);
    expect(none.code).toBe(ExitCode.usage);
    expect(none.stderr).toMatch(
      /^searchlift: no input given and no Claude Code installation found \(looked in .*\.local\/share\/claude\/versions/,
    );
  });

  it("track with no versions folder takes the other installs (a PATH claude inside the npm package counted once)", () => {
    const m = machine();
    const npm = samplePackage(join(m.env.FAKE_NPM_ROOT, PKG), "0.5.0");
    const bun = samplePackage(join(m.env.BUN_INSTALL, "install", "global", "node_modules", PKG), "0.6.0");
    chmodSync(join(npm, "cli.js"), 0o755);
    symlinkSync(join(npm, "cli.js"), join(m.bin, "claude"));
    const r = run(m, ["track", "--no-verify", "--json", "--out", join(m.home, "timeline"), "--cache", join(m.home, "track-cache")]);
    expect(r.code, r.stderr).toBe(0);
    // Named by folder name in the timeline (no absolute path in it: timeline-folder.ts).
    expect(JSON.parse(r.stdout).releases.map((x: { input: string; version: string }) => [x.input, x.version])).toEqual([
      [basename(npm), "0.5.0"],
      [basename(bun), "0.6.0"],
    ]);
    expect(r.stderr).toMatch(
      /^note: .*versions does not exist: tracking the other installs found \(npm-global 0\.5\.0 at .*; bun-global 0\.6\.0 at /,
    );

    const bare = machine();
    const samples = run(bare, [
      "track",
      "--no-verify",
      "--json",
      "--out",
      join(bare.home, "timeline"),
      "--cache",
      join(bare.home, "track-cache"),
    ]);
    expect(samples.code, samples.stderr).toBe(0);
    expect(samples.stderr).toMatch(/no Claude Code installation found .*: tracking the bundled sample releases/);
    expect(JSON.parse(samples.stdout).releases).toHaveLength(readdirSync(SAMPLES).length);
  });
});

describe.skipIf(SKIP_REAL)("version inputs from the real registry", () => {
  const cache = cacheDir("releases");

  it("diff 2.1.111 2.1.112 fetches (or finds) both cli.js releases and says no code change", () => {
    const r = run(null, ["diff", "2.1.111", "claude-code@2.1.112", "--cache", cache]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/== code ==\nno code change\n/);
    expect(r.stderr).toContain(`2.1.111 (npm) → ${join(cache, "2.1.111", "npm", "anthropic-ai-claude-code-2.1.111.tgz")}`);
    expect(r.stderr).toContain(`claude-code@2.1.112 (npm) → ${join(cache, "2.1.112", "npm", "anthropic-ai-claude-code-2.1.112.tgz")}`);
  });

  it("a version that is not published exits 11", () => {
    const r = run(null, ["extract", "2.0.999", "--cache", cache]);
    expect(r.code).toBe(ExitCode.notPublished);
    expect(r.stderr).toBe("searchlift: 2.0.999 is not a published version of @anthropic-ai/claude-code\n");
  });
});
