/**
 * The body of the sample-release mutation tests: the mutants of each base release (generated at collection,
 * so each is its own test), the unedited bases lifted once, one test per mutant, each annotated with its outcome,
 * and the table annotated on the last.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  checkMutant,
  liftBase,
  mutationBase,
  annotateTable,
  outcomeLine,
  unloadable,
  writeMutants,
  type LiftedBase,
  type Outcome,
} from "./mutation-check.js";
import { generateMutants, type Mutant } from "./mutants.js";

const RELEASES = join(import.meta.dirname, "..", "..", "samples", "releases");

export async function mutationCorpus(versions: string[]): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "searchlift-mutants-"));
  const bases = await Promise.all(
    versions.map(async (v) => {
      const text = readFileSync(join(RELEASES, v), "utf8");
      const file = join(dir, `base-${v}.js`);
      writeFileSync(file, text);
      return { base: await mutationBase(v, file, text, "module"), file };
    }),
  );
  const mutants: Mutant[] = bases.flatMap(({ base }) => generateMutants(base));
  const files = writeMutants(mutants, join(dir, "mutants"));
  const lifted = new Map<string, LiftedBase>();
  const outcomes: Outcome[] = [];
  let broken = new Map<string, string>();

  beforeAll(async () => {
    for (const { base, file } of bases) lifted.set(base.name, await liftBase(base, file, dir));
    broken = unloadable([...files.values()]);
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("has mutants of every kind, each labelled and distinct from its base", () => {
    expect(mutants.length).toBeGreaterThanOrEqual(25 * versions.length);
    expect(new Set(mutants.map((m) => m.id)).size).toBe(mutants.length);
    for (const m of mutants) expect(m.text, m.id).not.toBe(bases.find((b) => b.base.name === m.base)!.base.text);
    // Deterministic: the same base gives the same mutants.
    const again = generateMutants(bases[0]!.base);
    expect(again.map((m) => [m.id, m.text])).toEqual(mutants.filter((m) => m.base === bases[0]!.base.name).map((m) => [m.id, m.text]));
    expect(new Set(mutants.map((m) => m.changesBehaviour))).toEqual(new Set([true, false]));
  });

  const lastId = mutants.at(-1)?.id;
  it.for(mutants.map((m) => [m.id, m] as const))("%s", async ([id, m], { annotate }) => {
    const file = files.get(m)!;
    const why = broken.get(file);
    expect(why, `${m.id} does not load`).toBeUndefined();
    const o = await checkMutant(m, file, lifted.get(m.base)!, dir);
    outcomes.push(o);
    await annotate(outcomeLine(o));
    if (id === lastId) await annotateTable(annotate, `mutation corpus: samples ${versions.join(", ")}`, outcomes);
    expect(o.problems, `${m.id} (${m.changesBehaviour ? "behaviour change" : "refactor"}: ${m.description})`).toEqual([]);
  });
}
