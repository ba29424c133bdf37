/**
 * The mutation corpus on real releases (issue 39): the same future-shaped edits (test/helpers/mutants.ts), the
 * first of each kind, made to the scorer of 2.1.112's cli.js (npm) and of 2.1.124's linux-x64 executable (its
 * JavaScript extracted with the library's openContainer: a single bundle, so the module is a whole program; the
 * later builds are code-split, and their scorer's chunk does not run alone). Each base's text and each mutant
 * are written as plain scripts in a temporary folder, so the edit is the only difference; the unedited script
 * must lift and verify first. Releases come from the test cache (test/helpers/cache.ts) and are never
 * committed; SEARCHLIFT_SKIP_REAL=1 skips this file.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { npmPackMember } from "./helpers/cache.js";
import {
  checkMutant,
  liftBase,
  mutationBase,
  openContainer,
  annotateTable,
  outcomeLine,
  writeMutants,
  type LiftedBase,
  type Outcome,
} from "./helpers/mutation-check.js";
import { generateMutants, type Mutant, type MutantBase } from "./helpers/mutants.js";

const skip = process.env.SEARCHLIFT_SKIP_REAL === "1";

/** The JavaScript of a release: cli.js as it is, or the executable's entry module (a single bundle). */
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

/** A lift and a diff of a 14 MB release each: minutes on a loaded machine. */
const MUTANT_TIMEOUT = 1_800_000;

describe.skipIf(skip)("mutation corpus: real releases", async () => {
  if (skip) return;
  const dir = mkdtempSync(join(tmpdir(), "searchlift-mutants-real-"));
  const bases: Array<{ base: MutantBase; file: string }> = [];
  const mutants: Array<{ mutant: Mutant; file: string }> = [];
  // Made at collection, so that each mutant is a test of its own; the texts are dropped once written.
  for (const [name, spec, member] of RELEASES) {
    const { text, sourceType } = releaseText(spec, member);
    const file = join(dir, `base-${name}.js`);
    writeFileSync(file, text);
    const base = await mutationBase(name, file, text, sourceType);
    const ms = generateMutants(base, { perKind: 1 });
    const files = writeMutants(ms, join(dir, "mutants"));
    for (const m of ms) mutants.push({ mutant: { ...m, text: "" }, file: files.get(m)! });
    bases.push({ base: { ...base, text: "" }, file });
  }
  const lifted = new Map<string, LiftedBase>();
  const outcomes: Outcome[] = [];

  beforeAll(async () => {
    for (const { base, file } of bases) lifted.set(base.name, await liftBase(base, file, dir));
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("has mutants of every kind on each release, behaviour changes and refactors", () => {
    for (const { base } of bases) {
      const mine = mutants.filter((m) => m.mutant.base === base.name).map((m) => m.mutant);
      expect(mine.length, base.name).toBeGreaterThanOrEqual(10);
      expect(new Set(mine.map((m) => m.changesBehaviour)), base.name).toEqual(new Set([true, false]));
    }
  });

  const lastId = mutants.at(-1)?.mutant.id;
  it.for(mutants.map((m) => [m.mutant.id, m] as const))("%s", { timeout: MUTANT_TIMEOUT }, async ([id, { mutant, file }], { annotate }) => {
    const o = await checkMutant(mutant, file, lifted.get(mutant.base)!, dir);
    outcomes.push(o);
    await annotate(outcomeLine(o));
    if (id === lastId) await annotateTable(annotate, "mutation corpus: real releases", outcomes);
    expect(o.problems, `${mutant.id} (${mutant.changesBehaviour ? "behaviour change" : "refactor"}: ${mutant.description})`).toEqual([]);
  });
});
