/**
 * The mutation corpus on real releases (issue 39): the same future-shaped edits (test/helpers/mutants.ts), the
 * first of each kind, made to the scorer of 2.1.112's cli.js (npm) and of 2.1.124's linux-x64 executable (its
 * JavaScript extracted with the library's openContainer: a single bundle, so the module is a whole program; the
 * later builds are code-split and their scorer's chunk does not run alone). Each base's text and each mutant
 * are written as plain scripts in a temporary folder, so the edit is the only difference; the unedited script
 * must lift and verify first. Releases come from the test cache (test/helpers/cache.ts) and are never
 * committed; SEARCHLIFT_SKIP_REAL=1 skips this file.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { npmPackMember } from "./helpers/cache.js";
import {
  checkMutant,
  liftBase,
  mutationBase,
  openContainer,
  outcomeTable,
  writeMutants,
  type LiftedBase,
  type Outcome,
} from "./helpers/mutation-check.js";
import { generateMutants, type Mutant, type MutantBase } from "./helpers/mutants.js";

const skip = process.env.SEARCHLIFT_SKIP_REAL === "1";

/** The JavaScript of a release: cli.js as it is, or the executable's module that holds the scorer. */
function releaseText(spec: string, member: string): { text: string; sourceType: "module" | "script" } {
  const c = openContainer(npmPackMember(spec, member));
  try {
    const js = c.modules.filter((m) => m.kind === "js");
    const m = js.find((x) => x.path === c.entry) ?? js.sort((a, b) => b.size - a.size)[0]!;
    return { text: c.text(m), sourceType: m.moduleFormat === "cjs" ? "script" : "module" };
  } finally {
    c.close();
  }
}

const RELEASES: Array<[name: string, spec: string, member: string]> = [
  ["2.1.112", "@anthropic-ai/claude-code@2.1.112", "package/cli.js"],
  ["2.1.124", "@anthropic-ai/claude-code-linux-x64@2.1.124", "package/claude"],
];

describe.skipIf(skip)("mutation corpus: real releases", () => {
  const dir = mkdtempSync(join(tmpdir(), "searchlift-mutants-real-"));
  const outcomes: Outcome[] = [];
  afterAll(() => {
    console.log(outcomeTable("mutation corpus: real releases", outcomes));
    const failing = outcomes.filter((o) => o.problems.length);
    if (failing.length) console.log(failing.map((o) => `${o.mutant.id}: ${o.problems.join("; ")}`).join("\n"));
    rmSync(dir, { recursive: true, force: true });
  });

  for (const [name, spec, member] of RELEASES) {
    it(`${name}: the unedited release lifts and verifies, and every kind of edit to it lifts, verifies and diffs right`, async () => {
      const { text, sourceType } = releaseText(spec, member);
      const file = join(dir, `base-${name}.js`);
      writeFileSync(file, text);
      const base: MutantBase = await mutationBase(name, file, text, sourceType);
      const lifted: LiftedBase = await liftBase(base, file, dir);
      const mutants: Mutant[] = generateMutants(base, { perKind: 1 });
      expect(mutants.length).toBeGreaterThanOrEqual(10);
      expect(new Set(mutants.map((m) => m.changesBehaviour))).toEqual(new Set([true, false]));
      const files = writeMutants(mutants, join(dir, "mutants"));
      const mine: Outcome[] = [];
      for (const m of mutants) {
        const o = await checkMutant(m, files.get(m)!, lifted, dir);
        outcomes.push(o);
        mine.push(o);
      }
      const failing = mine
        .filter((o) => o.problems.length)
        .map((o) => `${o.mutant.id} (${o.mutant.description}): ${o.problems.join("; ")}`);
      expect(failing).toEqual([]);
    });
  }
});
