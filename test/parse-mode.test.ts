/**
 * The original runs as its runtime runs it: a release is parsed, and its faithful copy verified, in the mode its
 * runtime uses — a script (sloppy unless "use strict") for CommonJS, where `<!--` begins a comment; an ES module
 * (strict) only where the runtime would make one. Checked against Node itself on crafted releases
 * (samples/parse-mode/build-release.mjs).
 */
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import * as tar from "tar";
import { describe, expect, it } from "vitest";
import { moduleHtmlComment, parseModule, runtimeGoal } from "../src/ast/parse-module.js";
import type { Node } from "../src/ast/pattern.js";
import { ExitCode } from "../src/errors.js";
import { openContainer } from "../src/extract/open-container.js";
import { StatementParser } from "../src/locate/partial-parse.js";
import { statementStarts } from "../src/locate/statement-starts.js";
import { runCli } from "./helpers/cli.js";

const ROOT = join(import.meta.dirname, "..");
const work = mkdtempSync(join(tmpdir(), "searchlift-parse-mode-"));

type Answer = { ok: true; value: unknown } | { ok: false; error: string };
const builder = (await import(join(ROOT, "samples", "parse-mode", "build-release.mjs"))) as {
  buildParseModeRelease: (kind: string, out: string) => string;
  searchWithNode: (file: string, query: string, side: "release" | "lifted") => Answer;
};
const build = builder.buildParseModeRelease;
const search = builder.searchWithNode;

const run = (...args: string[]) => runCli(args);

/** The declaration of `name` among the statements covering the text's first occurrence of `let name`. */
function declaration(p: StatementParser, text: string, name: string): Node {
  const at = text.indexOf(`let ${name}`);
  const s = p.statementsCovering(at, at + 4)!.find((x) => x.start <= at && x.end > at)!;
  expect(s.type).toBe("VariableDeclaration");
  return s;
}

const HTML = "let x = 1;\nlet injected = 0 <!--x\n;\nfunction f() { return injected; }\n";

describe("the parse follows the runtime's goal", () => {
  it("runtimeGoal: esm → module, cjs → script; unrecorded: Bun's are modules, Node's scripts", () => {
    expect(runtimeGoal({ format: "npm-package" }, { moduleFormat: "esm" })).toBe("module");
    expect(runtimeGoal({ format: "bun-elf" }, { moduleFormat: "cjs" })).toBe("script");
    expect(runtimeGoal({ format: "plain-script" }, { moduleFormat: "none" })).toBe("script");
    expect(runtimeGoal({ format: "npm-package" }, { moduleFormat: "none" })).toBe("script");
    expect(runtimeGoal({ format: "bun-legacy" }, { moduleFormat: "none" })).toBe("module");
  });

  it("a script reads `<!--` as a comment, a module as operators", () => {
    const init = (p: StatementParser) =>
      (declaration(p, HTML, "injected") as Node & { declarations: Array<{ init: Node }> }).declarations[0]!.init;
    expect(init(new StatementParser(HTML, "script"))).toMatchObject({ type: "Literal", value: 0 });
    expect(init(new StatementParser(HTML, "module")).type).toBe("BinaryExpression");
    expect((parseModule(HTML, "script")!.body[1] as Node & { declarations: Array<{ init: Node }> }).declarations[0]!.init.type).toBe(
      "Literal",
    );
    // An ES module holding `<!--` as operators, which V8 refuses to load, is found; a string or a spaced `< !--` is not one.
    const mod = parseModule(HTML, "module")!;
    expect(moduleHtmlComment(HTML, mod as unknown as Node)).toBe(HTML.indexOf("<!--"));
    const other = 'let s = "<!--";\nlet y = 0 < !--x;\n';
    expect(moduleHtmlComment(other, parseModule(other, "module") as unknown as Node)).toBe(-1);
  });

  it("the scan skips a script's HTML-like comments, which may hold quotes and brackets", () => {
    const text = "a();\n<!-- it's { \"open\nb();\n  --> and ` [ too\nc();\n";
    const starts = statementStarts(text, 0, true);
    for (const call of ["b();", "c();"]) expect(starts).toContain(text.indexOf(call) + call.length);
    // As a module, the quote in the comment swallows the rest: no start after it.
    expect(statementStarts(text, 0, false)).not.toContain(text.indexOf("c();") + 4);
  });

  it("when no proposed start parses, the whole text is parsed once, with the same goal", () => {
    // After `)` the scan takes `/` for a division: every `;` of the regex is proposed as a start, and all fail.
    const text = `if (a) /${";".repeat(60)}/.test(b) && f(0 <!--x\n);\n`;
    const at = text.indexOf("f(");
    const script = new StatementParser(text, "script");
    const got = script.statementsCovering(at, at + 1);
    expect(got?.map((s) => s.type)).toEqual(["IfStatement"]);
    expect(got![0]!.start).toBe(0);
    // Asked again: the same objects.
    expect(script.statementsCovering(at, at + 1)![0]).toBe(got![0]);
    // As a module it parses too, but `<!--x` is then an operand: a different program.
    const call = (p: StatementParser) =>
      (p.statementsCovering(at, at + 1)![0] as Node & { consequent: { expression: { right: { arguments: Node[] } } } }).consequent
        .expression.right.arguments[0]!.type;
    expect(call(script)).toBe("Literal");
    expect(call(new StatementParser(text, "module"))).toBe("BinaryExpression");
  });

  it("strictAt: a module always; a script where its prologue, an enclosing function or a class says so", () => {
    const at = (text: string, goal: "script" | "module", name: string) => {
      const p = new StatementParser(text, goal);
      const i = text.indexOf(`function ${name}`);
      const [s] = p.statementsCovering(i, i + 1)!;
      let found: Node | undefined;
      const find = (n: Node): void => {
        if (n.type === "FunctionDeclaration" && n.id?.name === name) found = n;
        for (const v of Object.values(n))
          for (const c of Array.isArray(v) ? v : [v]) if (c && typeof c === "object" && "type" in c) find(c as Node);
      };
      find(s!);
      return p.strictAt(found!);
    };
    expect(at("function f() {}\n", "script", "f")).toBe(false);
    expect(at("function f() {}\n", "module", "f")).toBe(true);
    expect(at('#!/usr/bin/env node\n"a";\n"use strict";\nfunction f() {}\n', "script", "f")).toBe(true);
    expect(at('x();\n"use strict";\nfunction f() {}\n', "script", "f")).toBe(false); // not a prologue
    expect(at('("use strict");\nfunction f() {}\n', "script", "f")).toBe(false); // not a directive
    expect(at('var g = function () { "use strict"; function f() {} };\n', "script", "f")).toBe(true);
    expect(at("var g = function () { function f() {} };\n", "script", "f")).toBe(false);
    expect(at("class K { m() { function f() {} } }\n", "script", "f")).toBe(true);
    const bun = '// @bun @bun-cjs\n(function(exports, require, module, __filename, __dirname) {"use strict";\nfunction f() {}\n})\n';
    expect(at(bun, "script", "f")).toBe(true);
    expect(at(bun.replace('"use strict";', ""), "script", "f")).toBe(false);
  });
});

describe("the format Node runs a program in", () => {
  const tree = (files: Record<string, string>) => {
    const dir = mkdtempSync(join(work, "pkg-"));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return dir;
  };
  const formatOf = (input: string) => {
    const c = openContainer(input);
    try {
      return c.modules[0]!.moduleFormat;
    } finally {
      c.close();
    }
  };
  const PLAIN = "console.log(1 + 1);\n";
  const manifest = (extra: object) => JSON.stringify({ name: "p", version: "1.0.0", bin: "cli.js", ...extra });

  it("a file alone: .cjs is CommonJS and .mjs a module whatever they hold", () => {
    const dir = tree({ "a.cjs": "export const x = 1;\n", "b.mjs": 'const fs = require("fs");\n', "c.js": "export const x = 1;\n" });
    expect(formatOf(join(dir, "a.cjs"))).toBe("cjs");
    expect(formatOf(join(dir, "b.mjs"))).toBe("esm");
    expect(formatOf(join(dir, "c.js"))).toBe("esm"); // module syntax, no package.json: detect-module
  });

  it("a package's .js: by the nearest package.json's type; without one, CommonJS unless it has module syntax", () => {
    expect(formatOf(tree({ "package.json": manifest({ type: "module" }), "cli.js": PLAIN }))).toBe("esm");
    expect(formatOf(tree({ "package.json": manifest({ type: "commonjs" }), "cli.js": PLAIN }))).toBe("cjs");
    expect(formatOf(tree({ "package.json": manifest({}), "cli.js": PLAIN }))).toBe("cjs");
    expect(formatOf(tree({ "package.json": manifest({}), "cli.js": "export default 1;\n" }))).toBe("esm");
    // A nested package.json scopes the files under it; one directly inside node_modules ends the search.
    const nested = tree({
      "package.json": manifest({ type: "module", bin: "lib/cli.js" }),
      "lib/package.json": '{"type":"commonjs"}',
      "lib/cli.js": PLAIN,
    });
    expect(formatOf(nested)).toBe("cjs");
    const bounded = tree({ "package.json": manifest({ type: "module", bin: "node_modules/x/cli.js" }), "node_modules/x/cli.js": PLAIN });
    expect(formatOf(bounded)).toBe("cjs");
    // The extension decides first.
    expect(formatOf(tree({ "package.json": manifest({ type: "commonjs", bin: "cli.mjs" }), "cli.mjs": PLAIN }))).toBe("esm");
  });

  it("the same from a .tgz, nested package.json included", async () => {
    const dir = tree({
      "package/package.json": manifest({ type: "module", bin: "lib/cli.js" }),
      "package/lib/package.json": '{"type":"commonjs"}',
      "package/lib/cli.js": PLAIN,
    });
    const file = join(work, "nested.tgz");
    await tar.c({ gzip: true, file, cwd: dir }, ["package"]);
    expect(formatOf(file)).toBe("cjs");
    const flat = tree({ "package/package.json": manifest({ type: "module" }), "package/cli.js": PLAIN });
    const flatFile = join(work, "flat.tgz");
    await tar.c({ gzip: true, file: flatFile, cwd: flat }, ["package"]);
    expect(formatOf(flatFile)).toBe("esm");
  });
});

describe("crafted releases, lifted and run with Node", () => {
  const lifted = (stdout: string) => JSON.parse(stdout).results[0].module as string;

  it("a .cjs release with `0 <!--x`: the lifted module answers `injected` as Node runs the release", () => {
    const release = build("cjs", join(work, "cjs"));
    expect(search(release, "injected", "release")).toEqual({ ok: true, value: [] });
    const r = run("lift", release, "--out", join(work, "out-cjs"), "--json", "--cases", "300");
    expect(r.code, r.stderr).toBe(0);
    expect(search(lifted(r.stdout), "injected", "lifted")).toEqual({ ok: true, value: [] });
    expect(search(lifted(r.stdout), "read", "lifted")).toEqual(search(release, "read", "release"));
  });

  it('a package with "type": "commonjs", as a folder and as a .tgz: the same', async () => {
    const dir = build("commonjs-package", join(work, "cjs-pkg"));
    const file = join(work, "cjs-pkg.tgz");
    await tar.c({ gzip: true, file, cwd: dirname(dir) }, ["package"]);
    expect(search(join(dir, "cli.js"), "injected", "release")).toEqual({ ok: true, value: [] });
    for (const input of [dir, file]) {
      const r = run("lift", input, "--out", join(work, `out-${input === dir ? "dir" : "tgz"}`), "--json", "--cases", "300");
      expect(r.code, r.stderr).toBe(0);
      expect(search(lifted(r.stdout), "injected", "lifted"), input).toEqual({ ok: true, value: [] });
    }
  });

  it("`<!--` in an ES module, which Node refuses to load: the lift refuses it (exit 9), never verified", () => {
    const dir = build("esm-package", join(work, "esm-pkg"));
    expect(search(join(dir, "cli.js"), "injected", "release")).toEqual({
      ok: false,
      error: expect.stringContaining("HTML comments are not allowed in modules"),
    });
    const out = join(work, "out-esm");
    const r = run("lift", dir, "--out", out, "--cases", "300");
    expect(r.code, r.stderr).toBe(ExitCode.notLiftable);
    const lines = r.stderr
      .trim()
      .split("\n")
      .filter((l) => !l.startsWith("note: --cases"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/cannot lift: package\/cli\.js:\d+:\d+ holds "<!--" in an ES module, which the runtime refuses to load/);
    expect(() => readdirSync(out)).toThrow();
  });

  it("strictness: a sloppy CommonJS release that a strict module would answer otherwise fails verification (exit 10)", () => {
    const release = build("cjs-this", join(work, "cjs-this"));
    expect(search(release, "injected", "release")).toEqual({ ok: true, value: [] });
    const r = run("lift", release, "--out", join(work, "out-cjs-this"), "--cases", "300");
    expect(r.code, r.stderr).toBe(ExitCode.disagreement);
    expect(r.stderr).toMatch(
      /verification failed: \d+\/300 cases agree \(\d+ returned normally on both sides, 0 threw on both, \d+ differed\)/,
    );
  });

  it("strictness: an ES module release runs strict on both sides, verifies, and answers as Node runs it", () => {
    const release = build("esm-this", join(work, "esm-this"));
    const want = search(release, "injected", "release");
    expect(want).toEqual({ ok: true, value: ["Bash", "ReadFile"] });
    const r = run("lift", release, "--out", join(work, "out-esm-this"), "--json", "--cases", "300");
    expect(r.code, r.stderr).toBe(0);
    expect(search(lifted(r.stdout), "injected", "lifted")).toEqual(want);
  });
});
