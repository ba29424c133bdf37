import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ExitCode } from "../src/errors.js";
import { relativeOutputPath } from "../src/extract/write-modules.js";
import { runCli } from "./helpers/cli.js";

function run(...args: string[]) {
  return runCli(args, { timeout: 60_000 });
}

function tmp(): string {
  return mkdtempSync(join(tmpdir(), "searchlift-cli-"));
}

const SCRIPT = "#!/usr/bin/env node\nimport { x } from './x.js';\nexport const greeting = 'héllo → world';\nconsole.log(greeting, x);\n";

describe("searchlift extract", () => {
  it("lists a plain script as one JSON object", () => {
    const dir = tmp();
    const file = join(dir, "app.mjs");
    writeFileSync(file, SCRIPT);
    const r = run("extract", file, "--list", "--json");
    expect(r.code).toBe(0);
    const l = JSON.parse(r.stdout);
    expect(l).toMatchObject({ input: file, format: "plain-script" });
    expect(l.modules).toHaveLength(1);
    expect(l.modules[0]).toMatchObject({
      kind: "js",
      moduleFormat: "esm",
      encoding: "utf8",
      size: Buffer.byteLength(SCRIPT),
      bytecode: false,
      start: 0,
      end: Buffer.byteLength(SCRIPT),
    });
    for (const k of ["path", "loader"]) expect(typeof l.modules[0][k]).toBe("string");
  });

  it("the human listing names format, entry and each module", () => {
    const dir = tmp();
    const file = join(dir, "app.mjs");
    writeFileSync(file, SCRIPT);
    const r = run("extract", file);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/format:\s+plain-script/);
    expect(r.stdout).toMatch(/app\.mjs/);
  });

  it("--out writes decoded modules and manifest.json, refuses an earlier extract, replaces it with --force", () => {
    const dir = tmp();
    const file = join(dir, "app.mjs");
    writeFileSync(file, SCRIPT);
    const out = join(dir, "out");
    expect(run("extract", file, "--out", out).code).toBe(0);
    const manifest = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8"));
    expect(manifest.format).toBe("plain-script");
    expect(readFileSync(join(out, manifest.modules[0].file), "utf8")).toBe(SCRIPT);

    const again = run("extract", file, "--out", out);
    expect(again.code).toBe(ExitCode.output);
    expect(again.stderr.trim().split("\n")).toHaveLength(1);
    expect(again.stderr).toMatch(/exists.*--force/);

    expect(run("extract", file, "--out", out, "--force").code).toBe(0);
    // --force replaces only what extract wrote: a file of the user's in the folder stops it (test/out-safety.test.ts).
    writeFileSync(join(out, "stale.txt"), "old");
    expect(run("extract", file, "--out", out, "--force").code).toBe(ExitCode.output);
    expect(existsSync(join(out, "stale.txt"))).toBe(true);
    // No temporary folders left beside the output.
    expect(readdirSync(dir).filter((f) => f.includes(".tmp-"))).toEqual([]);
  });

  it("bad inputs: one line on stderr naming the file, a distinct exit code, no stack trace", () => {
    const dir = tmp();
    const empty = join(dir, "empty.bin");
    writeFileSync(empty, "");
    const random = join(dir, "random.bin");
    let s = 12345;
    const bytes = Buffer.alloc(1 << 16, 0).map(() => ((s = (s * 1103515245 + 12345) >>> 0) >>> 16) & 0xff);
    writeFileSync(random, bytes);
    const noJs = join(dir, "nojs");
    mkdirSync(noJs);
    writeFileSync(join(noJs, "README.md"), "# nothing here\n");

    const cases: Array<[string, number]> = [
      [join(dir, "missing"), ExitCode.unreadable],
      [empty, ExitCode.unrecognized],
      [random, ExitCode.unrecognized],
      [noJs, ExitCode.unrecognized],
    ];
    for (const [input, code] of cases) {
      const r = run("extract", input, "--list");
      expect(r.code, input).toBe(code);
      const lines = r.stderr.trim().split("\n");
      expect(lines, r.stderr).toHaveLength(1);
      expect(lines[0]).toContain(input);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    expect(run("extract").code).toBe(ExitCode.usage);
  });
});

describe("relativeOutputPath", () => {
  it("drops virtual roots and never escapes the output folder", () => {
    expect(relativeOutputPath("/$bunfs/root/cli")).toBe("cli");
    expect(relativeOutputPath("B:/~BUN/root/chunk-abc.js")).toBe("chunk-abc.js");
    expect(relativeOutputPath("compiled://root/app")).toBe("app");
    expect(relativeOutputPath("/$bunfs/root/src/entrypoints/cli.js")).toBe("src/entrypoints/cli.js");
    expect(relativeOutputPath("../../etc/passwd")).toBe("etc/passwd");
    expect(relativeOutputPath("/abs/../x")).toBe("abs/x");
    expect(relativeOutputPath("C:\\a\\b.js")).toBe("C_/a/b.js");
    expect(relativeOutputPath("..")).toBe("module");
  });
});

describe("numeric options", () => {
  it("a value that is not a whole number of at least 1 is refused before any work, exit 2 with commander's reason", () => {
    for (const args of [
      ["lift", "missing.js", "--cases", "1.5"],
      ["lift", "missing.js", "--cases", "0"],
      ["lift", "missing.js", "--cases", "1e3"],
      ["track", "missing", "--jobs", "abc"],
      ["track", "missing", "--jobs", "0"],
      ["track", "missing", "--jobs", "-2"],
    ]) {
      const r = run(...args);
      expect(r.code, args.join(" ")).toBe(ExitCode.usage);
      expect(r.stderr, args.join(" ")).toMatch(
        /^error: option '--(cases|jobs) <n>' argument '.*' is invalid\. expected a whole number of at least 1\.\n$/,
      );
    }
  });

  it("--cases below the contract's 2,000 runs, with a note that the lift is then not verified to the contract", () => {
    const out = tmp();
    const r = run("lift", join(import.meta.dirname, "..", "samples", "releases", "0.3.0"), "--cases", "40", "--out", out);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/--cases 40 is below the contract's 2000/);
    expect(r.stdout).toMatch(/verified: 40\/40 cases agree/);
  });
});

/** The CLI as a user runs it: progress on (the suite turns it off, vitest.config.ts), no terminal, lift cache off. */
function runAsUser(args: string[], env: Record<string, string> = {}) {
  return runCli(args, { timeout: 300_000, env: { SEARCHLIFT_QUIET: undefined, ...env } });
}

const SAMPLES = join(import.meta.dirname, "..", "samples", "releases");

describe("progress on stderr", () => {
  it("lift without a terminal: a line per stage on stderr; --quiet or SEARCHLIFT_QUIET=1: none", () => {
    const input = join(SAMPLES, "0.3.0");
    const loud = runAsUser(["lift", input, "--cases", "40", "--out", tmp()]);
    expect(loud.code, loud.stderr).toBe(0);
    const stages = loud.stderr.split("\n").filter((l) => /^searchlift: (lift|verify)\b/.test(l));
    // Reading, the lift found, verification started and its count, the module written: in that order.
    expect(
      stages.map((l) =>
        l
          .replace(/,\s\d+ s:/, ":")
          .split(":")[1]!
          .trim(),
      ),
    ).toEqual(expect.arrayContaining(["lift", "verify 0/40", "verify 40/40"]));
    expect(stages[0]).toBe(`searchlift: lift: ${input}: reading`);
    expect(stages.some((l) => l === `searchlift: verify 0/40: ${input}: verifying on 40 cases`)).toBe(true);
    expect(stages.some((l) => l === `searchlift: verify 40/40: ${input}: 40/40 cases agree`)).toBe(true);
    expect(stages.at(-1)).toMatch(/^searchlift: lift: .*: wrote .*tool-search\.mjs$/);

    // Quiet, and without verification (the cheap run): nothing at all on stderr.
    const quiet = runAsUser(["lift", input, "--no-verify", "--out", tmp(), "--quiet"]);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr).toBe("");
    expect(quiet.stdout).toMatch(/^\S+: searchlift-sample 0\.3\.0 npm → .*not verified \(--no-verify\)\)\n$/);
    // SEARCHLIFT_QUIET=1 is --quiet for every command; without either, the same run has its stage lines.
    expect(runAsUser(["lift", input, "--no-verify", "--out", tmp()], { SEARCHLIFT_QUIET: "1" }).stderr).toBe("");
    expect(runAsUser(["lift", input, "--no-verify", "--out", tmp()]).stderr).toMatch(/^searchlift: lift: .*: reading\n/);
  });

  it("track without a terminal: the folder and its count, each release k of n, the change points; --quiet: none of it", () => {
    const dir = join(tmp(), "versions");
    mkdirSync(dir);
    for (const v of ["0.3.0", "0.4.0"]) writeFileSync(join(dir, v), readFileSync(join(SAMPLES, v)));
    const out = join(tmp(), "t");
    const cache = tmp();
    const loud = runAsUser(["track", dir, "--no-verify", "--out", out, "--cache", cache]);
    expect(loud.code, loud.stderr).toBe(0);
    const lines = loud.stderr.trim().split("\n");
    expect(lines[0]).toBe(`searchlift: ${dir}: 2 releases`);
    expect(lines[1]).toBe("searchlift: track 0/2: 2 releases to lift or read from the lift cache");
    const lifted = lines.filter((l) => /^searchlift: track [12]\/2: lifted 0\.[34]\.0 \(npm\)$/.test(l));
    expect(lifted.map((l) => l.split(":")[1])).toEqual([" track 1/2", " track 2/2"]);
    expect(lines).toContain("searchlift: diff 0/1: comparing 1 change point");
    expect(lines).toContain("searchlift: diff 1/1: compared 0.3.0 → 0.4.0");

    // Again from the cache (quick), quietly.
    const quiet = runAsUser(["track", dir, "--no-verify", "--out", out, "--cache", cache, "--quiet"]);
    expect(quiet.code, quiet.stderr).toBe(0);
    // The folder's count is a note (what the command took), not progress: it stays.
    expect(quiet.stderr).toBe(`searchlift: ${dir}: 2 releases\n`);
    // stdout is the command's own, progress or not: the same but for where the lifts came from.
    expect(quiet.stdout).toBe(loud.stdout.replace("(2 lifted now, 0 from the cache)", "(0 lifted now, 2 from the cache)"));
  });

  it("track of a folder with no release says where it looked; lift of a folder of releases points at track", () => {
    const empty = tmp();
    const none = runAsUser(["track", empty, "--out", join(tmp(), "t")]);
    expect(none.code).toBe(ExitCode.usage);
    expect(none.stderr).toBe(`searchlift: no releases to track: none found in ${empty}\n`);
    const folder = runAsUser(["lift", SAMPLES, "--out", tmp()]);
    expect(folder.code).toBe(ExitCode.usage);
    expect(folder.stderr).toBe(
      `searchlift: ${SAMPLES}: a folder of ${readdirSync(SAMPLES).length} releases: lift takes one release (name a file in it), and \`searchlift track ${SAMPLES}\` lifts them all\n`,
    );
  });

  it("fetch --list of a version nobody published exits 11 in one line, not 0 with an empty table", () => {
    // npm is our stand-in over a registry folder holding one version (test/helpers/fake-npm.mjs).
    const registry = tmp();
    mkdirSync(join(registry, "anthropic-ai-claude-code"));
    writeFileSync(join(registry, "anthropic-ai-claude-code", "0.5.0.tgz"), "not read by --list");
    const npm = join(import.meta.dirname, "helpers", "fake-npm.mjs");
    chmodSync(npm, 0o755);
    const env = { SEARCHLIFT_NPM: npm, FAKE_NPM_REGISTRY: registry };
    const none = runAsUser(["fetch", "--list", "9.9.9"], env);
    expect(none.code).toBe(ExitCode.notPublished);
    expect(none.stdout).toBe("");
    expect(none.stderr).toBe("searchlift: no release matches 9.9.9 (searchlift fetch --list shows every version)\n");
    const one = runAsUser(["fetch", "--list", "0.5.0"], env);
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout.split("\n")[1]).toMatch(/^0\.5\.0\s+cli\.js\s+npm$/);
  });

  it("a missing input reads the same in every command that takes one, exit 3, before any work", () => {
    const missing = join(tmp(), "no-such-release");
    for (const args of [
      ["extract", missing],
      ["locate", missing],
      ["lift", missing, "--out", tmp()],
      ["diff", missing, join(SAMPLES, "0.3.0")],
      ["track", missing, "--out", join(tmp(), "t")],
    ]) {
      const r = runAsUser(args);
      expect(r.code, args[0]).toBe(ExitCode.unreadable);
      expect(r.stderr, args[0]).toBe(`searchlift: ${missing}: no such file or folder, and not a version\n`);
    }
  });
});
