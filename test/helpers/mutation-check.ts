/**
 * The mutation corpus's check (issue 39), shared by the sample and real-release tests: each mutant of a base
 * release must lift, verify 2000/2000 against its own code, and `diff` against the unedited base's lifted
 * module must find a witness exactly when the edit changes behaviour. Outcomes are collected for the table
 * the tests print: per kind, how many lifted, verified and were told apart correctly, and the share found.
 */
import { spawnSync } from "node:child_process";
import { appendFileSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type * as Searchlift from "../../src/index.js";
import type { TestContext } from "vitest";
import { charRange, MUTANT_KINDS, type Mutant, type MutantBase } from "./mutants.js";

export const CASES = 2000;

/**
 * The built package (dist/, as `npm test` builds it first), as library.test.ts loads it: a lift's verifier runs
 * the compiled verify-process.js in a process of its own, which the TypeScript sources cannot be.
 */
const api = (await import(join(import.meta.dirname, "..", "..", "dist", "index.js"))) as typeof Searchlift;
const { diff, lift, locate } = api;
export const { openContainer } = api;

export interface Outcome {
  mutant: Mutant;
  lifted: boolean;
  verified: boolean;
  /** null when the mutant did not lift (no module to compare). */
  diffCorrect: boolean | null;
  problems: string[];
  seconds: number;
}

/** A base release written as a script, its scorer located and its tool search lifted and verified. */
export interface LiftedBase {
  base: MutantBase;
  file: string;
  module: string;
}

/** Locate the scorer in `file` (a plain script) and make it a mutation base. */
export async function mutationBase(name: string, file: string, text: string, sourceType: "module" | "script"): Promise<MutantBase> {
  const [scorer] = await locate(file, { routines: ["tool-search/scorer"] });
  if (scorer?.status !== "found" || scorer.fileStart === undefined || scorer.fileEnd === undefined)
    throw new Error(`${name}: the unedited base's scorer is ${scorer?.status ?? "not reported"}`);
  return { name, text, sourceType, ...charRange(text, scorer.fileStart, scorer.fileEnd) };
}

/** Lift the unedited base once: it must verify, or the mutants say nothing. */
export async function liftBase(base: MutantBase, file: string, dir: string): Promise<LiftedBase> {
  const r = await lift(file, { out: join(dir, "base-out", base.name), cases: CASES });
  if (r.verified?.cases !== CASES || r.verified.agreed !== CASES)
    throw new Error(`${base.name}: the unedited base verifies ${r.verified?.agreed}/${r.verified?.cases}`);
  return { base, file, module: r.module };
}

const fileName = (m: Mutant) => m.id.replace(/[^A-Za-z0-9.-]+/g, "_") + ".js";

/** Write each mutant as a script beside the others. */
export function writeMutants(mutants: Mutant[], dir: string): Map<Mutant, string> {
  mkdirSync(dir, { recursive: true });
  return new Map(
    mutants.map((m) => {
      const file = join(dir, fileName(m));
      writeFileSync(file, m.text);
      return [m, file] as const;
    }),
  );
}

/** Evaluate each ES-module mutant in one child: the release must still load. Returns the files that failed, with why. */
export function unloadable(files: string[]): Map<string, string> {
  const program = `const out = {}; for (const f of JSON.parse(process.argv[1])) { try { await import(f); } catch (e) { out[f] = String(e); } } console.log(JSON.stringify(out));`;
  const urls = files.map((f) => pathToFileURL(f).href);
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", program, JSON.stringify(urls)], {
    encoding: "utf8",
    timeout: 120_000,
  });
  if (r.status !== 0) throw new Error(`loading the mutants failed: ${r.stderr}`);
  const failed = JSON.parse(r.stdout) as Record<string, string>;
  return new Map(files.filter((f) => failed[pathToFileURL(f).href]).map((f) => [f, failed[pathToFileURL(f).href]!]));
}

/** Lift and verify one mutant, then diff it against its base's lifted module. */
export async function checkMutant(m: Mutant, file: string, base: LiftedBase, dir: string): Promise<Outcome> {
  const t0 = Date.now();
  const problems: string[] = [];
  let lifted = false;
  let verified = false;
  let diffCorrect: boolean | null = null;
  try {
    const r = await lift(file, { out: join(dir, "out", fileName(m)), cases: CASES });
    lifted = true;
    verified = r.verified?.cases === CASES && r.verified.agreed === CASES;
    if (!verified) problems.push(`verify: ${r.verified ? `${r.verified.agreed}/${r.verified.cases} agree` : "no verification"}`);
    const d = await diff(base.module, r.module);
    const found = d.behaviour.changed.length > 0;
    diffCorrect = found === m.changesBehaviour;
    if (!diffCorrect) {
      const rows = d.semantics.filter((s) => s.changed).map((s) => `${s.feature}: ${s.before} → ${s.after}`);
      problems.push(
        m.changesBehaviour
          ? `diff: no witness in ${d.behaviour.searched} calls (${d.behaviour.seconds} s)${d.behaviour.stopped ? `, stopped: ${d.behaviour.stopped}` : ""}${rows.length ? `; changed probe rows: ${rows.join("; ")}` : ""}`
          : `diff: ${d.behaviour.changed.length} witness(es) for a refactor: ${d.behaviour.sentences.slice(0, 2).join(" | ")}`,
      );
    }
  } catch (e) {
    problems.push(`${lifted ? "diff" : "lift"}: ${(e as Error).message}`);
  }
  const seconds = (Date.now() - t0) / 1000;
  // A long run's outcomes as they come, one JSON line each (the table comes only at the end).
  const log = process.env.SEARCHLIFT_MUTANTS_LOG;
  if (log)
    appendFileSync(
      log,
      JSON.stringify({ id: m.id, changesBehaviour: m.changesBehaviour, lifted, verified, diffCorrect, problems, seconds }) + "\n",
    );
  return { mutant: m, lifted, verified, diffCorrect, problems, seconds };
}

/** One outcome on a line, for a test's annotation: what ran, what held, the problems. */
export function outcomeLine(o: Outcome): string {
  const diff = o.diffCorrect === null ? "not diffed" : o.diffCorrect ? "diff correct" : "diff wrong";
  const what = `${o.mutant.id}: ${o.lifted ? "lifted" : "not lifted"}, ${o.verified ? "verified" : "not verified"}, ${diff}`;
  return `${what} (${o.seconds.toFixed(1)} s)${o.problems.length ? `; ${o.problems.join("; ")}` : ""}`;
}

/**
 * The table of a file's outcomes, annotated on its last test and written to a file of its own, which outlives
 * the run's temporary folder (vitest annotates only a test that is running, not an afterAll).
 */
export async function annotateTable(annotate: TestContext["annotate"], title: string, outcomes: Outcome[]): Promise<void> {
  const table = outcomeTable(title, outcomes);
  const file = join(mkdtempSync(join(tmpdir(), "searchlift-mutation-table-")), "outcomes.txt");
  writeFileSync(file, table + "\n");
  await annotate(`${table}\n(written to ${file})`);
}

/** The table: per kind, mutants, lifted, verified, behaviour-diff correct; then the share found overall. */
export function outcomeTable(title: string, outcomes: Outcome[]): string {
  const rows: string[][] = [["kind", "mutants", "lifted", "verified", "diff correct", "all ok"]];
  const count = (os: Outcome[]) => [
    String(os.length),
    String(os.filter((o) => o.lifted).length),
    String(os.filter((o) => o.verified).length),
    String(os.filter((o) => o.diffCorrect === true).length),
    String(os.filter((o) => o.problems.length === 0).length),
  ];
  for (const kind of MUTANT_KINDS) {
    const os = outcomes.filter((o) => o.mutant.kind === kind);
    if (os.length) rows.push([kind, ...count(os)]);
  }
  rows.push(["all", ...count(outcomes)]);
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  const ok = outcomes.filter((o) => o.problems.length === 0).length;
  const share = outcomes.length ? ((100 * ok) / outcomes.length).toFixed(1) : "0";
  const byChange = (b: boolean) => {
    const os = outcomes.filter((o) => o.mutant.changesBehaviour === b && o.diffCorrect !== null);
    return `${os.filter((o) => o.diffCorrect).length}/${os.length}`;
  };
  return [
    `== ${title} ==`,
    ...rows.map(line),
    `share found: ${ok}/${outcomes.length} mutants (${share}%) lifted, verified ${CASES}/${CASES} and told apart correctly;` +
      ` behaviour changes found ${byChange(true)}, refactors with no witness ${byChange(false)} (of those lifted);` +
      ` ${outcomes.reduce((s, o) => s + o.seconds, 0).toFixed(0)} s of checks`,
  ].join("\n");
}
