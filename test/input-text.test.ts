/**
 * Text taken from an input never becomes code: a Bun module name, or the input's own file name,
 * holding a line terminator (U+2028, U+2029, CR) followed by code would end the lifted module's
 * header comment and run when the module is imported. The lift escapes it, verifies, and the
 * module exports exactly the contract; commands that print the name print it inert.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { impurities } from "../src/lift/purity.js";
import { toolSearchPack } from "../src/routines/tool-search/index.js";
import { writeCraftedBun } from "./helpers/bun-craft.js";
import { runCli } from "./helpers/cli.js";
import { REPO } from "./helpers/bun-fixtures.js";

const SAMPLE = readFileSync(join(REPO, "samples", "releases", "0.3.0"), "utf8");
const RAW_TERMINATORS = /[\r\u2028\u2029]/;
const CONTRACT_EXPORTS = [...toolSearchPack.exports].sort();

/** Module names whose tail, once out of a `//` comment, is code: an extra export, an import-time hook, a stray character. */
const HOSTILE_NAMES = [
  "/$bunfs/root/cli\u2028export const hooked = 1;\u2029//",
  "/$bunfs/root/cli\u2029globalThis.hooked = 1;",
  "/$bunfs/root/cli\u2028await new Promise(() => {});",
  "/$bunfs/root/cli\u2028@",
];

function cli(args: string[]) {
  return runCli(args, { timeout: 300_000 });
}

function liftedModule(out: string): string {
  const find = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? find(join(dir, e.name)) : e.name.endsWith(".mjs") ? [join(dir, e.name)] : [],
    );
  const [module] = find(out);
  if (!module) throw new Error(`no module under ${out}`);
  return module;
}

/** Import the module in a child process and list its exports (it must return: an import that never settles is a hook). */
function exportsOf(module: string): string[] {
  const r = spawnSync(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      `const m = await import(${JSON.stringify(pathToFileURL(module).href)}); console.log(JSON.stringify(Object.keys(m).sort()));`,
    ],
    { encoding: "utf8", timeout: 20_000 },
  );
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as string[];
}

describe("text from an input never becomes code", () => {
  HOSTILE_NAMES.forEach((name, i) => {
    // One of them verified (a verification says nothing about the header); the rest lifted only.
    const verify = i === 0;
    it(`a module named ${JSON.stringify(name)}: the lift escapes it${verify ? ", verifies" : ""}, and the module exports only the contract`, () => {
      const dir = mkdtempSync(join(tmpdir(), "searchlift-input-text-"));
      const input = writeCraftedBun(join(dir, "app"), [{ name, contents: SAMPLE }]);
      const out = join(dir, "out");
      const r = cli(["lift", input, "--out", out, ...(verify ? [] : ["--no-verify"])]);
      expect(r.code, r.stderr).toBe(0);
      const module = liftedModule(out);
      const text = readFileSync(module, "utf8");
      expect(text).not.toMatch(RAW_TERMINATORS);
      expect(impurities(text)).toEqual([]);
      expect(text).toMatch(/^\/\/ From: .*cli\\u(2028|2029)/m);
      if (verify) expect(text).toMatch(/^\/\/ Verified: agrees with the original on \d+\/\d+ corpus cases/m);
      expect(exportsOf(module)).toEqual(CONTRACT_EXPORTS);

      for (const args of [
        ["extract", input, "--list"],
        ["locate", input],
        ["extract", input, "--list", "--json"],
        ["locate", input, "--json"],
      ]) {
        const shown = cli(args);
        expect(shown.code, `${args.join(" ")}: ${shown.stderr}`).toBe(0);
        expect(shown.stdout, args.join(" ")).not.toMatch(RAW_TERMINATORS);
        if (args.includes("--json")) expect(() => JSON.parse(shown.stdout)).not.toThrow();
      }
    }, 300_000);
  });

  it("track and check over a release with such a module name: reports and tables show it inert, the module exports only the contract", () => {
    const dir = mkdtempSync(join(tmpdir(), "searchlift-input-text-"));
    const input = writeCraftedBun(join(dir, "app"), [{ name: HOSTILE_NAMES[0]!, contents: SAMPLE }]);
    const out = join(dir, "timeline");
    const track = cli(["track", input, "--out", out, "--cache", join(dir, "cache")]);
    expect(track.code, track.stderr).toBe(0);
    for (const f of readdirSync(out)) {
      if (!/\.(md|html|json)$/.test(f)) continue;
      expect(readFileSync(join(out, f), "utf8"), f).not.toMatch(RAW_TERMINATORS);
    }
    expect(exportsOf(liftedModule(join(dir, "cache")))).toEqual(CONTRACT_EXPORTS);
    const tools = join(dir, "tools.json");
    writeFileSync(tools, JSON.stringify({ tools: [{ name: "read_file", description: "reads a file" }] }));
    for (const format of [[], ["--json"], ["--markdown"]]) {
      const args = ["check", "--tools", tools, "--server-name", "files", "--query", "read file", "--releases", input];
      const check = cli([...args, "--lift-cache", join(dir, "lift-cache"), ...format]);
      expect(check.code, check.stderr).toBe(0);
      expect(check.stdout + check.stderr, format.join(" ")).not.toMatch(RAW_TERMINATORS);
    }
  }, 300_000);

  it("a module name with a C0 control (CR) is refused as a broken graph: exit 5, one line", () => {
    const dir = mkdtempSync(join(tmpdir(), "searchlift-input-text-"));
    const input = writeCraftedBun(join(dir, "app"), [{ name: "/$bunfs/root/cli\rexport default 1;", contents: SAMPLE }]);
    for (const args of [
      ["extract", input, "--list"],
      ["lift", input, "--out", join(dir, "out")],
    ]) {
      const r = cli(args);
      expect(r.code, args[0]).toBe(5);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).not.toMatch(RAW_TERMINATORS);
    }
  });

  it("an input whose own file name holds U+2028 and code: named escaped in the header, nothing runs", () => {
    const dir = mkdtempSync(join(tmpdir(), "searchlift-input-name-"));
    const input = writeCraftedBun(join(dir, "app\u2028export const hooked = 1;"), [{ name: "/$bunfs/root/cli.js", contents: SAMPLE }]);
    const out = join(dir, "out");
    const r = cli(["lift", input, "--out", out, "--no-verify"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).not.toMatch(RAW_TERMINATORS);
    const module = liftedModule(out);
    const text = readFileSync(module, "utf8");
    expect(text).not.toMatch(RAW_TERMINATORS);
    expect(text).toContain("app\\u2028export const hooked = 1;");
    expect(exportsOf(module)).toEqual(CONTRACT_EXPORTS);
  }, 300_000);
});
