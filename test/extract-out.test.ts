/**
 * `extract --out` on hostile module graphs: names that clash on disk (a file and a folder of one
 * name, case variants, `..`, empty, thousands of repeats), refused destinations, and temporary
 * folders left by killed runs. The CLI runs as a process, as a user would run it.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ExitCode } from "../src/errors.js";
import { writeCraftedBun, type CraftedModule } from "./helpers/bun-craft.js";
import { REPO } from "./helpers/bun-fixtures.js";
import { BIN, runCli } from "./helpers/cli.js";

const work = mkdtempSync(join(tmpdir(), "searchlift-extract-out-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const run = (args: string[], cwd = REPO) => runCli(args, { timeout: 60_000, cwd });

const rooted = (name: string, i: number): CraftedModule => ({ name: `/$bunfs/root/${name}`, contents: `export const m${i} = ${i};\n` });

/** Extract `names` and return manifest file paths, checking each file holds its own module. */
function extractNames(names: string[], tag: string): string[] {
  const input = writeCraftedBun(join(work, `${tag}.bin`), names.map(rooted));
  const out = join(work, `${tag}-out`);
  const r = run(["extract", input, "--out", out]);
  expect(r.stderr).toMatch(/^wrote /);
  expect(r.code).toBe(0);
  const manifest = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8")) as { modules: Array<{ path: string; file: string }> };
  const files = manifest.modules.map((m) => m.file);
  files.forEach((f, i) => expect(readFileSync(join(out, f), "utf8"), f).toBe(`export const m${i} = ${i};\n`));
  expect(new Set(files.map((f) => f.toLowerCase())).size).toBe(files.length);
  return files;
}

describe("extract --out: module names that clash on disk", () => {
  it("a file and then a folder of the same name (a, a/b), and the other order", () => {
    expect(extractNames(["a", "a/b", "a/c"], "file-then-folder")).toEqual(["a", "a~2/b", "a~2/c"]);
    expect(extractNames(["a/b", "a", "a/c"], "folder-then-file")).toEqual(["a/b", "a~2", "a/c"]);
  });

  it("names equal on a case-insensitive disk, `..`, empty names and the manifest's own name", () => {
    expect(extractNames(["A", "a", "x/Y", "X/y"], "case")).toEqual(["A", "a~2", "x/Y", "x/y~2"]);
    expect(extractNames(["../../etc/passwd", "", "./.", "manifest.json", "a/../b"], "dots")).toEqual([
      "etc/passwd",
      "module",
      "module~2",
      "manifest.json~2",
      "a/b",
    ]);
  });

  it("20,000 repeats of one name get distinct numbered files, the same on every run", () => {
    const names = Array.from({ length: 20_000 }, (_, i) => (i % 1000 === 999 ? `x~${i + 1}` : "x"));
    const first = extractNames(names, "repeats");
    expect(first[0]).toBe("x");
    expect(first[1]).toBe("x~2");
    rmSync(join(work, "repeats-out"), { recursive: true });
    expect(extractNames(names, "repeats")).toEqual(first);
  });
});

describe("extract --list: very many modules", () => {
  it("lists 130,000 modules as text and as JSON", () => {
    const input = writeCraftedBun(
      join(work, "many.bin"),
      Array.from({ length: 130_000 }, (_, i) => rooted(`m${i}.js`, i)),
    );
    const text = run(["extract", input, "--list"]);
    expect(text.stderr).toBe("");
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/modules: 130000/);
    expect(text.stdout).toMatch(/\/\$bunfs\/root\/m129999\.js/);
    const json = run(["extract", input, "--list", "--json"]);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).modules).toHaveLength(130_000);
  });
});

describe("extract --out: refused destinations and left-over temporaries", () => {
  const input = writeCraftedBun(join(work, "small.bin"), ["main.js"].map(rooted));

  it("refuses the current folder, an ancestor of it, the input, a folder holding the input, / and home, even with --force", () => {
    const cwd = mkdtempSync(join(work, "cwd-"));
    mkdirSync(join(cwd, "sub"));
    const inside = join(cwd, "sub");
    const cases: Array<[string, RegExp]> = [
      [".", /current folder/],
      ["..", /holding the current folder/],
      [input, /the input/],
      [work, /holding the (input|current folder)/],
      ["/", /filesystem root/],
      [process.env.HOME ?? "/root", /home folder|holding the/],
    ];
    for (const [out, why] of cases) {
      const r = run(["extract", input, "--out", out, "--force"], inside);
      expect(r.code, out).toBe(ExitCode.output);
      expect(r.stderr, out).toMatch(why);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
    }
    expect(existsSync(inside) && statSync(input).isFile()).toBe(true);
  });

  it("SIGTERM in the middle of writing removes the temporary folder and leaves no output", async () => {
    const many = writeCraftedBun(
      join(work, "slow.bin"),
      Array.from({ length: 20_000 }, (_, i) => rooted(`d${i % 50}/m${i}.js`, i)),
    );
    const dir = mkdtempSync(join(work, "signal-"));
    const child = spawn(process.execPath, [BIN, "extract", many, "--out", join(dir, "out")], { stdio: "ignore" });
    const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
    while (!readdirSync(dir).some((f) => f.startsWith(".out.tmp-"))) await new Promise((r) => setTimeout(r, 20));
    child.kill("SIGTERM");
    expect(await exited).toBe(128 + 15);
    expect(readdirSync(dir)).toEqual([]);
  }, 120_000);

  it("removes temporary folders of dead processes beside the destination, keeps a live one's", () => {
    const dir = mkdtempSync(join(work, "stale-"));
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout;
    // Named as mkdtemp names them: the pid, then six random characters.
    mkdirSync(join(dir, `.out.tmp-${dead}-aB3dE1`));
    mkdirSync(join(dir, `.out.tmp-${dead}-aB3dE1.old`));
    mkdirSync(join(dir, `.out.tmp-${process.pid}-Zz9yX2`));
    mkdirSync(join(dir, `.other.tmp-${dead}-Qq7wE3`));
    expect(run(["extract", input, "--out", join(dir, "out")]).code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual([`.other.tmp-${dead}-Qq7wE3`, `.out.tmp-${process.pid}-Zz9yX2`, "out"]);
  });
});
