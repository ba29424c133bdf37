/**
 * Absurdly nested JavaScript (thousands of `if (1) {`, template `${`, parentheses) must give a
 * result or a one-line error from every command that parses it — never V8's abort
 * ("RegExpCompiler Allocation failed", exit 134) nor a stack trace. See src/ast/acorn-warm.ts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ExitCode } from "../src/errors.js";
import { REPO } from "./helpers/bun-fixtures.js";
import { runCli } from "./helpers/cli.js";

const work = mkdtempSync(join(tmpdir(), "searchlift-deep-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const run = (...args: string[]) => runCli(args, { timeout: 120_000 });

const NESTS: Array<[string, string, string, string]> = [
  ["if", "if (1) {\n", "}\n", "x++;"],
  ["template", "`${", "}`", "x"],
  ["paren", "(", ")", "x"],
];

function deep(kind: [string, string, string, string], depth: number): string {
  const [, open, close, middle] = kind;
  return `function deep(x) {\n${open.repeat(depth)}${middle}${close.repeat(depth)}\n}\n`;
}

describe("deeply nested input", () => {
  const sample = readFileSync(join(REPO, "samples", "releases", "0.1.0"), "utf8");

  for (const kind of NESTS) {
    it(`${kind[0]} nested 2,000 and 20,000 deep: extract, locate and lift end with a documented code and one line`, () => {
      for (const depth of [2000, 20_000]) {
        const alone = join(work, `${kind[0]}-${depth}.js`);
        writeFileSync(alone, deep(kind, depth));
        for (const args of [
          ["extract", alone, "--list"],
          ["extract", alone, "--list", "--json"],
          ["locate", alone],
          ["lift", alone, "--no-verify", "--out", join(work, "out")],
        ]) {
          const r = run(...args);
          expect(r.signal, args.join(" ")).toBeNull();
          expect([ExitCode.ok, ExitCode.absent, ExitCode.notLiftable], `${args.join(" ")}: ${r.stderr}`).toContain(r.code);
          expect(r.stderr.trim().split("\n").length, r.stderr).toBeLessThanOrEqual(1);
        }
      }
    });
  }

  it("a routine beside 5,000-deep code is still found and lifted", () => {
    const file = join(work, "sample-and-deep.js");
    writeFileSync(file, sample + "\n" + deep(NESTS[0]!, 5000));
    const r = run("lift", file, "--no-verify", "--out", join(work, "lifted"));
    expect(r.stderr).toBe("");
    expect(r.code).toBe(ExitCode.ok);
  });
});
