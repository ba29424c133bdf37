/**
 * The scorer as a method, and back (issue 39): on several sample releases, the scorer made a class method
 * (reached through a one-line arrow of its old name), a static method and an object-literal method that call()
 * calls by member (test/helpers/mutants.ts, kind scorer-method), each checked against the unedited release; then
 * the other way, each such release taken as the base and the scorer turned back into the function it was (the
 * unedited release) checked against it. Every one must lift, verify 2000/2000, and diff must find no witness:
 * all are refactors. A scorer method that uses `this` is refused with a message saying so. Offline.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { annotateTable, checkMutant, liftBase, mutationBase, outcomeLine, writeMutants, type Outcome } from "./helpers/mutation-check.js";
import { generateMutants, type Mutant } from "./helpers/mutants.js";
import { ExitCode } from "../src/errors.js";
import { runCli } from "./helpers/cli.js";

const RELEASES = join(import.meta.dirname, "..", "samples", "releases");
const VERSIONS = ["0.3.0", "0.5.0", "0.7.0"];

describe("the scorer as a method, and back", async () => {
  const dir = mkdtempSync(join(tmpdir(), "searchlift-methods-"));
  const cases = await Promise.all(
    VERSIONS.map(async (v) => {
      const text = readFileSync(join(RELEASES, v), "utf8");
      const file = join(dir, `base-${v}.js`);
      writeFileSync(file, text);
      const base = await mutationBase(v, file, text, "module");
      const mutants = generateMutants(base).filter((m) => m.kind === "scorer-method");
      return { v, text, file, base, mutants, files: writeMutants(mutants, join(dir, "mutants")) };
    }),
  );

  const outcomes: Outcome[] = [];
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("makes the three method forms of each base, as refactors", () => {
    for (const c of cases) {
      expect(
        c.mutants.map((m) => m.id.split("/")[2]),
        c.v,
      ).toEqual(["class-method", "static-method", "object-method"]);
      for (const m of c.mutants) expect(m.changesBehaviour).toBe(false);
      // The scorer's declaration is gone: each form defines the old name only as a one-line delegate.
      for (const m of c.mutants) expect(m.text).not.toContain(c.text.slice(c.base.start, c.base.end));
    }
  });

  for (const c of cases) {
    it(`${c.v}: each method form lifts, verifies and diffs as no change; turned back into a function, likewise`, async ({ annotate }) => {
      const lifted = await liftBase(c.base, c.file, dir);
      for (const m of c.mutants) {
        const o = await checkMutant(m, c.files.get(m)!, lifted, dir);
        outcomes.push(o);
        await annotate(outcomeLine(o));
        expect(o.problems, m.id).toEqual([]);
      }
      for (const m of c.mutants) {
        // The method form as the base, located where it now is; the unedited release is its edit.
        const file = c.files.get(m)!;
        const methodBase = await mutationBase(`${m.id}`, file, m.text, "module");
        const asBase = await liftBase(methodBase, file, join(dir, "back"));
        const back: Mutant = {
          id: `${m.id}-back`,
          base: methodBase.name,
          kind: "scorer-method",
          description: "the scorer method turned back into the function it was",
          changesBehaviour: false,
          text: c.text,
        };
        const o = await checkMutant(back, c.file, asBase, join(dir, "back"));
        outcomes.push(o);
        await annotate(outcomeLine(o));
        expect(o.problems, back.id).toEqual([]);
      }
      if (c === cases.at(-1)) await annotateTable(annotate, `scorer as a method and back: samples ${VERSIONS.join(", ")}`, outcomes);
    });
  }

  it("refuses a scorer method that uses this, saying so", () => {
    const c = cases[0]!;
    const m = c.mutants.find((x) => x.id.endsWith("/static-method"))!;
    // A static method that reads a constant through `this` (its class): the standalone copy would lose it.
    const edited = m.text.replace(
      /\{ static (async )?rankTools\([^)]*\) \{/,
      (head) => `${head.replace("{ static", "{ static limit = 1; static")} void this.limit;`,
    );
    expect(edited).toContain("void this.limit;");
    const file = join(dir, "uses-this.js");
    writeFileSync(file, edited);
    const r = runCli(["lift", file, "--out", join(dir, "uses-this"), "--no-verify", "--no-lift-cache", "-q"], { timeout: 0 });
    expect(r.code, r.stdout + r.stderr + String(r.signal ?? "")).toBe(ExitCode.notLiftable);
    expect(r.stderr).toMatch(/is a method that uses this; it is lifted only as a function of its arguments/);
  });
});
