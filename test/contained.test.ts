/**
 * No input can make searchlift write outside the folder the user chose, and text from an input reaches
 * the terminal escaped. Every case runs in a fresh temporary root holding the inputs, the output folder
 * and the TMPDIR of the child; the root is listed before and after to prove nothing else was written.
 * Run the build (`npm run build`) first: the CLI cases run bin/searchlift.js.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import * as tar from "tar";
import { afterAll, describe, expect, it } from "vitest";
import { ExitCode } from "../src/errors.js";
import { openContainer } from "../src/extract/open-container.js";
import { liftInput } from "../src/lift/lift.js";
import { ROOT, runCli } from "./helpers/cli.js";
import { toolSearchPack } from "../src/routines/tool-search/index.js";

const SAMPLE = readFileSync(join(ROOT, "samples", "releases", "0.1.0"), "utf8");
/** Raw terminal controls (ESC, BEL, CSI, bidi overrides) that must never reach stdout or stderr. */
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

function freshRoot(): string {
  const root = mkdtempSync(join(tmpdir(), "searchlift-contained-"));
  roots.push(root);
  mkdirSync(join(root, "tmp"));
  return root;
}

/** Every path under `root` (symlinks not followed), with each file's sha256: what a run may not change. */
function snapshot(root: string): string[] {
  return (readdirSync(root, { recursive: true }) as string[])
    .map((p) => {
      const st = lstatSync(join(root, p));
      return st.isFile()
        ? `${p} ${createHash("sha256")
            .update(readFileSync(join(root, p)))
            .digest("hex")}`
        : `${p} ${st.isSymbolicLink() ? "link" : "dir"}`;
    })
    .sort();
}

function run(root: string, args: string[], env: Record<string, string> = {}) {
  return runCli(args, { timeout: 300_000, env: { TMPDIR: join(root, "tmp"), ...env } });
}

/**
 * A gzipped tar of `entries` in order, written block by block with tar's Header, so that one path can
 * occur twice (as a crafted archive can; `tar.c` would not write that).
 */
function rawTgz(file: string, entries: Array<[string, string]>): string {
  const blocks: Buffer[] = [];
  for (const [path, body] of entries) {
    const data = Buffer.from(body, "utf8");
    const header = Buffer.alloc(512);
    new tar.Header({ path, size: data.length, mode: 0o644, type: "File", mtime: new Date(0) }).encode(header, 0);
    blocks.push(header, data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  writeFileSync(file, gzipSync(Buffer.concat(blocks)));
  return file;
}

const manifest = (m: Record<string, unknown>) => JSON.stringify({ name: "searchlift-sample", version: "0.1.0", bin: "cli.js", ...m });

/** The sample release as an npm package .tgz (built with tar.c, like `npm pack`), with package.json fields replaced. */
function samplePackage(root: string, name: string, fields: Record<string, unknown>, program = SAMPLE): string {
  const dir = join(root, `src-${name}`);
  mkdirSync(join(dir, "package"), { recursive: true });
  writeFileSync(join(dir, "package", "package.json"), manifest(fields));
  writeFileSync(join(dir, "package", "cli.js"), program);
  const file = join(root, `${name}.tgz`);
  tar.c({ gzip: true, file, cwd: dir, sync: true, portable: true }, ["package/package.json", "package/cli.js"]);
  return file;
}

describe("client, version and platform from the input never leave the output folder", () => {
  it("a well-formed package lifts into <out>/<client>/<version>/npm (the control case)", () => {
    const root = freshRoot();
    const good = samplePackage(root, "good", {});
    const r = run(root, ["lift", good, "--no-verify", "--out", join(root, "out")]);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(root, "out", "searchlift-sample", "0.1.0", "npm", "tool-search.mjs"))).toBe(true);
    expect(readdirSync(join(root, "tmp"))).toEqual([]);
  });

  const versions: Array<[string, string]> = [
    ["a relative escape", "../../x"],
    ["a deeper escape", "0.1.0/../../../../x"],
    ["an absolute path", "/tmp/x"],
    ["an absolute URL", "https://evil.example/x"],
    ["an escape sequence", "0.1.0\u001b[31m\u001b]0;pwned\u0007"],
    ["a bidi override", "0.1.0\u202e"],
    ["a folder separator", "a/b"],
  ];
  for (const [what, version] of versions) {
    it(`package.json version with ${what}: exit 5, the value shown escaped, nothing written`, () => {
      const root = freshRoot();
      const input = samplePackage(root, "evil", { version });
      const before = snapshot(root);
      const r = run(root, ["lift", input, "--no-verify", "--out", join(root, "out")]);
      expect(r.code, r.stderr).toBe(ExitCode.malformed);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toContain(
        `refusing version ${JSON.stringify(version).replace(/[\u007f-\u009f\u202a-\u202e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)}`,
      );
      expect(r.stderr + r.stdout).not.toMatch(RAW);
      expect(snapshot(root)).toEqual(before);
    });
  }

  it("an absolute package URL as the name, and a crafted embedded build info: exit 5, nothing written", () => {
    const root = freshRoot();
    const url = samplePackage(root, "url", { name: "https://evil.example/../../x" });
    const before = snapshot(root);
    const r = run(root, ["lift", url, "--no-verify", "--out", join(root, "out")]);
    expect(r.code, r.stderr).toBe(ExitCode.malformed);
    expect(r.stderr).toMatch(/refusing client name "https:\/\/evil\.example\/\.\.\/\.\.\/x"/);
    expect(snapshot(root)).toEqual(before);

    // A plain script (a versions-folder entry) whose embedded build info names the version.
    for (const [pkg, version] of [
      ["searchlift-sample", "../../../x"],
      ["/abs/pkg", "0.1.0"],
    ] as const) {
      const script = join(root, "script.js");
      writeFileSync(
        script,
        SAMPLE.replace(
          '{PACKAGE_URL:"searchlift-sample",VERSION:"0.1.0"}',
          `{PACKAGE_URL:${JSON.stringify(pkg)},VERSION:${JSON.stringify(version)}}`,
        ),
      );
      const snap = snapshot(root);
      const s = run(root, ["lift", script, "--no-verify", "--out", join(root, "out")]);
      expect(s.code, s.stderr).toBe(ExitCode.malformed);
      expect(snapshot(root)).toEqual(snap);
    }
  });

  it("a symlinked folder inside --out that leads elsewhere: exit 6, nothing written there", () => {
    const root = freshRoot();
    const good = samplePackage(root, "good", {});
    mkdirSync(join(root, "out"));
    mkdirSync(join(root, "elsewhere"));
    symlinkSync(join(root, "elsewhere"), join(root, "out", "searchlift-sample"));
    const r = run(root, ["lift", good, "--no-verify", "--out", join(root, "out")]);
    expect(r.code, r.stderr).toBe(ExitCode.output);
    // Refused before any work: a link in --out is not something lift wrote (src/output-folder.ts).
    expect(r.stderr).toMatch(/refusing to write outside the output folder|searchlift did not write \(it holds "searchlift-sample"\)/);
    expect(readdirSync(join(root, "elsewhere"))).toEqual([]);
  });
});

describe("temporary and final output names: no planted symlink is followed", () => {
  it("a symlink at tool-search.mjs.tmp-<pid> and at tool-search.d.ts: the targets are untouched, real files land in place", async () => {
    const root = freshRoot();
    const input = samplePackage(root, "good", {});
    const out = join(root, "out");
    const dir = join(out, "searchlift-sample", "0.1.0", "npm");
    mkdirSync(dir, { recursive: true });
    const victim = join(root, "victim.txt");
    const victim2 = join(root, "victim2.txt");
    writeFileSync(victim, "keep me\n");
    writeFileSync(victim2, "keep me too\n");
    // This process runs the lift, so the temporary name it would use first is known.
    symlinkSync(victim, join(dir, `tool-search.mjs.tmp-${process.pid}`));
    symlinkSync(victim2, join(dir, "tool-search.d.ts"));
    const r = await liftInput(input, { out, verify: false, pack: toolSearchPack });
    expect(r.module).toBe(join(dir, "tool-search.mjs"));
    expect(readFileSync(victim, "utf8")).toBe("keep me\n");
    expect(readFileSync(victim2, "utf8")).toBe("keep me too\n");
    expect(lstatSync(join(dir, "tool-search.mjs")).isFile()).toBe(true);
    expect(lstatSync(join(dir, "tool-search.d.ts")).isFile()).toBe(true);
    expect(readFileSync(join(dir, "tool-search.mjs"), "utf8")).toMatch(/export \{ searchTools/);
    // The planted link is left as it was, and no other temporary remains.
    expect(lstatSync(join(dir, `tool-search.mjs.tmp-${process.pid}`)).isSymbolicLink()).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(["tool-search.d.ts", "tool-search.mjs", `tool-search.mjs.tmp-${process.pid}`]);
  });
});

describe("npm packages are read as npm installs them", () => {
  it("package/cli.js twice in a .tgz: the last copy is lifted (npm installs the last); package.json too", () => {
    const root = freshRoot();
    // The first copies would be refused (a version that escapes, a program with no tool search); npm keeps the last.
    const input = rawTgz(join(root, "dup.tgz"), [
      ["package/package.json", manifest({ version: "../../x" })],
      ["package/cli.js", "console.log('not the program npm installs');\n"],
      ["package/package.json", manifest({})],
      ["package/cli.js", SAMPLE],
    ]);
    const c = openContainer(input);
    try {
      expect(c.text(c.modules[0]!)).toBe(SAMPLE);
      expect(c.package).toEqual({ name: "searchlift-sample", version: "0.1.0" });
    } finally {
      c.close();
    }
    const r = run(root, ["lift", input, "--no-verify", "--out", join(root, "out")]);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(root, "out", "searchlift-sample", "0.1.0", "npm", "tool-search.mjs"))).toBe(true);

    // And the other way round: a good first copy does not hide a last one that is not the program.
    const swapped = rawTgz(join(root, "dup2.tgz"), [
      ["package/package.json", manifest({})],
      ["package/cli.js", SAMPLE],
      ["package/cli.js", "console.log('the program npm installs');\n"],
    ]);
    expect(run(root, ["lift", swapped, "--no-verify", "--out", join(root, "out2")]).code).toBe(ExitCode.notLiftable);
    expect(readdirSync(join(root, "tmp"))).toEqual([]);
  });

  it("what real npm keeps of a duplicated member (offline install into a temporary folder)", () => {
    if (spawnSync("npm", ["--version"]).status !== 0) return;
    const root = freshRoot();
    const input = rawTgz(join(root, "dup.tgz"), [
      ["package/package.json", JSON.stringify({ name: "dup-member", version: "1.0.0" })],
      ["package/cli.js", "first\n"],
      ["package/cli.js", "last\n"],
    ]);
    const app = join(root, "app");
    mkdirSync(app);
    writeFileSync(join(app, "package.json"), "{}");
    const npm = spawnSync(
      "npm",
      ["install", "--offline", "--no-audit", "--no-fund", "--ignore-scripts", "--cache", join(root, "npm-cache"), input],
      { cwd: app, encoding: "utf8" },
    );
    expect(npm.status, npm.stderr).toBe(0);
    expect(readFileSync(join(app, "node_modules", "dup-member", "cli.js"), "utf8")).toBe("last\n");
  });

  it("a package folder whose cli.js (or bin folder) is a symlink to outside: exit 5; a link inside the package is fine", () => {
    const root = freshRoot();
    mkdirSync(join(root, "outside", "bin"), { recursive: true });
    writeFileSync(join(root, "outside", "cli.js"), SAMPLE);
    writeFileSync(join(root, "outside", "bin", "cli.js"), SAMPLE);

    const pkg = join(root, "pkg");
    mkdirSync(pkg);
    writeFileSync(join(pkg, "package.json"), manifest({}));
    symlinkSync(join(root, "outside", "cli.js"), join(pkg, "cli.js"));
    const viaDir = join(root, "pkg-dir");
    mkdirSync(viaDir);
    writeFileSync(join(viaDir, "package.json"), manifest({ bin: "bin/cli.js" }));
    symlinkSync(join(root, "outside", "bin"), join(viaDir, "bin"));
    const before = snapshot(root);
    for (const p of [pkg, viaDir]) {
      for (const args of [
        ["lift", p, "--no-verify", "--out", join(root, "out")],
        ["extract", p, "--list"],
      ]) {
        const r = run(root, args);
        expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(ExitCode.malformed);
        expect(r.stderr).toMatch(/leads outside the package folder/);
      }
    }
    expect(snapshot(root)).toEqual(before);

    const inside = join(root, "pkg-inside");
    mkdirSync(join(inside, "lib"), { recursive: true });
    writeFileSync(join(inside, "package.json"), manifest({}));
    writeFileSync(join(inside, "lib", "real.js"), SAMPLE);
    symlinkSync(join("lib", "real.js"), join(inside, "cli.js"));
    expect(run(root, ["lift", inside, "--no-verify", "--out", join(root, "out")]).code).toBe(0);
  });
});

describe("terminal output: names from the input are escaped", () => {
  it("lift, locate and extract print a file name with escape sequences inert", () => {
    const root = freshRoot();
    const versions = join(root, "versions");
    mkdirSync(versions);
    const evil = join(versions, "0.1.0\u001b]0;pwned\u0007\u202e.js");
    writeFileSync(evil, SAMPLE);
    for (const args of [
      ["lift", evil, "--no-verify", "--out", join(root, "out")],
      ["locate", evil, "-r", "tool-search/scorer"],
      ["extract", evil, "--list"],
    ]) {
      const r = run(root, args);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout + r.stderr, args[0]).not.toMatch(RAW);
      expect(r.stdout, args[0]).toContain("0.1.0\\u001b]0;pwned\\u0007\\u202e.js");
    }
    const broken = join(versions, "x\u001b[2J\u001b[H.tgz");
    writeFileSync(broken, gzipSync(Buffer.from("not a tar archive\n".repeat(50))));
    const r = run(root, ["lift", broken, "--out", join(root, "out")]);
    expect(r.code).toBe(ExitCode.unrecognized);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).not.toMatch(RAW);
    expect(r.stderr).toContain("x\\u001b[2J\\u001b[H.tgz");
  });
});

/**
 * A stand-in for npm (SEARCHLIFT_NPM): `view` answers the integrity the test chose for the registry, `pack` copies
 * the tarball the test chose; every call is logged.
 */
function fakeNpm(root: string, registryIntegrity: string, packs: string): string {
  const file = join(root, "fake-npm.mjs");
  writeFileSync(
    file,
    `#!${process.execPath}
import { createHash } from "node:crypto";
import { appendFileSync, copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
const args = process.argv.slice(2);
const npmCache = ${JSON.stringify(join(root, "npm-cache"))};
appendFileSync(${JSON.stringify(join(root, "npm-calls.log"))}, args[0] + "\\n");
if (args[0] === "config") {
  process.stdout.write(npmCache + "\\n");
} else if (args[0] === "cache") {
  // Filed as cacache files content: under the hash of what was downloaded.
  const hex = createHash("sha512").update(readFileSync(${JSON.stringify(packs)})).digest("hex");
  const content = join(npmCache, "_cacache", "content-v2", "sha512", hex.slice(0, 2), hex.slice(2, 4), hex.slice(4));
  mkdirSync(dirname(content), { recursive: true });
  copyFileSync(${JSON.stringify(packs)}, content);
} else if (args[0] === "view") {
  const version = args[1].slice(args[1].lastIndexOf("@") + 1);
  process.stdout.write(JSON.stringify({ version, "dist.integrity": ${JSON.stringify(registryIntegrity)} }));
} else if (args[0] === "pack") {
  const dest = args[args.indexOf("--pack-destination") + 1];
  copyFileSync(${JSON.stringify(packs)}, join(dest, "anthropic-ai-claude-code-2.0.70.tgz"));
} else process.exit(1);
`,
  );
  chmodSync(file, 0o755);
  return file;
}

describe("fetch: a cache hit is checked against the registry's integrity, not only the recorded one", () => {
  const sri = (file: string) => `sha512-${createHash("sha512").update(readFileSync(file)).digest("base64")}`;

  /** A cache holding `tarball` for 2.0.70 (npm) with its own hash recorded, as a tamperer would leave it. */
  function cacheWith(root: string, tarball: Buffer): { cache: string; cached: string } {
    const cache = join(root, "cache");
    const dir = join(cache, "2.0.70", "npm");
    mkdirSync(dir, { recursive: true });
    const cached = join(dir, "anthropic-ai-claude-code-2.0.70.tgz");
    writeFileSync(cached, tarball);
    const meta = {
      version: "2.0.70",
      platform: "npm",
      package: "@anthropic-ai/claude-code",
      tarball: "anthropic-ai-claude-code-2.0.70.tgz",
      integrity: sri(cached),
    };
    writeFileSync(join(dir, "release.json"), JSON.stringify(meta));
    return { cache, cached };
  }

  it("tarball and recorded integrity both changed: fetched again, and the registry's tarball replaces it", () => {
    const root = freshRoot();
    const genuine = samplePackage(root, "genuine", {});
    const { cache, cached } = cacheWith(root, Buffer.from(readFileSync(genuine).toString("latin1").replace(/./, "x"), "latin1"));
    const npm = fakeNpm(root, sri(genuine), genuine);
    const r = run(root, ["fetch", "2.0.70", "--cache", cache, "--json"], { SEARCHLIFT_NPM: npm });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).releases[0]).toMatchObject({ tarball: cached, integrity: sri(genuine), cached: false });
    expect(sri(cached)).toBe(sri(genuine));
    const calls = readFileSync(join(root, "npm-calls.log"), "utf8").trim().split("\n");
    expect(calls.sort()).toEqual(["cache", "config", "view"]);
    expect(readdirSync(cache).filter((f) => f.startsWith(".tmp-"))).toEqual([]);
  });

  it("and when the download does not match the registry either: exit 13", () => {
    const root = freshRoot();
    const genuine = samplePackage(root, "genuine", {});
    const forged = samplePackage(root, "forged", { description: "not the registry's" });
    const { cache } = cacheWith(root, readFileSync(forged));
    const r = run(root, ["fetch", "2.0.70", "--cache", cache], { SEARCHLIFT_NPM: fakeNpm(root, sri(genuine), forged) });
    expect(r.code, r.stderr).toBe(ExitCode.integrity);
    expect(r.stderr).toMatch(/is corrupt \(anthropic-ai-claude-code-2\.0\.70\.tgz does not match the registry's integrity\)/);
    expect(r.stderr).toMatch(/integrity mismatch/);
    // Not in npm's cache under the registry's integrity, the forged tarball was packed, then refused.
    expect(readFileSync(join(root, "npm-calls.log"), "utf8").trim().split("\n").sort()).toEqual(["cache", "config", "pack", "view"]);
  });

  it("an untampered cache is a hit (nothing packed); a recorded tarball name that points elsewhere is not", () => {
    const root = freshRoot();
    const genuine = samplePackage(root, "genuine", {});
    const { cache, cached } = cacheWith(root, readFileSync(genuine));
    const npm = fakeNpm(root, sri(genuine), genuine);
    const hit = run(root, ["fetch", "2.0.70", "--cache", cache, "--json"], { SEARCHLIFT_NPM: npm });
    expect(hit.code, hit.stderr).toBe(0);
    expect(JSON.parse(hit.stdout).releases[0]).toMatchObject({ tarball: cached, cached: true });
    expect(readFileSync(join(root, "npm-calls.log"), "utf8")).toBe("view\n");

    // release.json naming a file outside the release's folder (here: the genuine package) is not trusted.
    const meta = join(cache, "2.0.70", "npm", "release.json");
    writeFileSync(meta, JSON.stringify({ ...JSON.parse(readFileSync(meta, "utf8")), tarball: "../../../genuine.tgz" }));
    const r = run(root, ["fetch", "2.0.70", "--cache", cache, "--json"], { SEARCHLIFT_NPM: npm });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).releases[0]).toMatchObject({ tarball: cached, cached: false });
  });
});

describe("track: its cache entries and output files are checked too", () => {
  it("a cache entry naming a module outside the cache, or a version that escapes, is lifted again; timeline files replace planted symlinks", () => {
    const root = freshRoot();
    const versions = join(root, "versions");
    mkdirSync(versions);
    writeFileSync(join(versions, "0.1.0"), SAMPLE);
    const cache = join(root, "cache");
    const out = join(root, "timeline");
    const args = ["track", versions, "--cache", cache, "--out", out, "--no-verify", "--jobs", "1"];
    const first = run(root, args);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^1 release \(1 lifted now/);
    const [key] = readdirSync(cache).filter((f) => /^[0-9a-f]{64}$/.test(f));
    const entry = join(cache, key!, "release.json");
    const saved = JSON.parse(readFileSync(entry, "utf8"));

    // A planted module outside the cache, and symlinks where the timeline files go.
    const victim = join(root, "victim.md");
    writeFileSync(victim, "keep me\n");
    for (const tampered of [{ module: join(root, "planted.mjs") }, { version: "../../x" }]) {
      writeFileSync(entry, JSON.stringify({ ...saved, ...tampered }));
      rmSync(join(out, "timeline.md"));
      symlinkSync(victim, join(out, "timeline.md"));
      const r = run(root, args);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^1 release \(1 lifted now/);
      const timeline = JSON.parse(readFileSync(join(out, "timeline.json"), "utf8"));
      expect(timeline.releases[0]).toMatchObject({ version: "0.1.0", module: "modules/searchlift-sample/0.1.0/npm/tool-search.mjs" });
      expect(readFileSync(join(out, timeline.releases[0].module), "utf8")).toMatch(/^\/\/ searchlift-sample 0\.1\.0 \(npm\)/);
      expect(lstatSync(join(out, "timeline.md")).isFile()).toBe(true);
      expect(readFileSync(victim, "utf8")).toBe("keep me\n");
    }
  });
});
