/**
 * A second routine, added as the stages expect one to be (docs/layout.md, "A second routine"): a pack of its own,
 * handed to them as a parameter, and no stage edited. The routine is a made-up prefix search over tool names,
 * written here as two scorer-module contract modules: `before` matches a name's prefix as typed, `after` in any
 * case. Diff must measure them with this pack's probe, search with its candidates, and say what changed with its
 * sentences; lift --json's table comes from its probe as well.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { moduleTable } from "../src/diff/behaviour.js";
import { diffInputs } from "../src/diff/diff.js";
import type { ContractCall, ContractTool } from "../src/routines/contract.js";
import type { Probe, RoutinePack, SemanticRow } from "../src/routines/pack.js";

const TOOLS: ContractTool[] = [{ name: "ReadFile" }, { name: "readme" }, { name: "WriteFile" }];

/** A prefix search as a lifted module would hold it; `fold` is how a name and the query are compared. */
const prefixModule = (fold: string) => `
const match = (query, deferred) => deferred.filter((t) => ${fold}(t.name).startsWith(${fold}(query))).map((t) => t.name);
export function searchTools(query, deferred) { return Promise.resolve(match(query, deferred)); }
export function scoreTools(query, deferred) { return Promise.resolve(match(query, deferred).map((name) => ({ name, score: 1 }))); }
export function toolSearch(query, deferred) { return Promise.resolve(match(query, deferred)); }
`;

const search = (query: string): ContractCall => ({ fn: "searchTools", query, deferred: TOOLS, loaded: [] });

const READ_PROBE: Probe = {
  feature: 'names found for "read"',
  calls: [search("read")],
  read: (answers) => JSON.stringify(answers[0]),
  sentence: (before, after) => `"read" now finds ${after} (was ${before})`,
};

const prefixSearchPack: RoutinePack = {
  id: "prefix-search",
  verifier: join(import.meta.dirname, "no-verifier.js"),
  title: "prefix search",
  signatures: { routine: "prefix-search/routine", call: "prefix-search/call" },
  liftCode: () => Promise.reject(new Error("no release holds a prefix search")),
  contractSummary: "searchTools / scoreTools / toolSearch(query, deferred)",
  exports: ["searchTools", "scoreTools", "toolSearch"],
  declarations: () => "",
  corpus: (count) => Array.from({ length: count }, (_, i) => ({ query: ["re", "Wr", "x"][i % 3]!, deferred: TOOLS })),
  semantics: (text) => [{ feature: "case-folded", value: String(text.includes("toLowerCase")) }],
  semanticDiff: (before, after) =>
    before.map((r, i) => ({ feature: r.feature, before: r.value, after: after[i]!.value, changed: r.value !== after[i]!.value })),
  probes: () => [READ_PROBE],
  probeRows(probes, before, after) {
    let at = 0;
    const rows: SemanticRow[] = probes.map((p) => {
      const n = p.calls.length;
      const [b, a] = [p.read(before.slice(at, at + n)), p.read(after.slice(at, at + n))];
      at += n;
      return { feature: p.feature, before: b, after: a, changed: a !== b };
    });
    return { rows, sentences: rows.flatMap((r, i) => (r.changed ? [probes[i]!.sentence(r.before, r.after, [])] : [])) };
  },
  *witnessCandidates() {
    for (const query of ["re", "RE", "wr", "Write"]) yield search(query);
  },
  witnessKind: (w) => w.query.toLowerCase(),
  witnessFocus: () => [],
  witnessSummary: (w) => `prefix search: "${w.query}" finds other names`,
};

const dir = mkdtempSync(join(tmpdir(), "searchlift-second-pack-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const write = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};
const before = write("before.mjs", prefixModule(""));
const after = write("after.mjs", prefixModule("((s) => s.toLowerCase())"));

describe("a second routine pack", () => {
  it("diff measures, searches and says what changed through the pack it is given", async () => {
    const r = await diffInputs(before, after, { pack: prefixSearchPack, budget: { cases: 40 } });
    expect(r.semantics).toEqual([
      { feature: 'names found for "read"', before: '["readme"]', after: '["ReadFile","readme"]', changed: true },
    ]);
    expect(r.behaviour.sentences[0]).toBe('"read" now finds ["ReadFile","readme"] (was ["readme"])');
    expect(r.behaviour.changed.length).toBeGreaterThan(0);
    for (const w of r.behaviour.changed) expect(w.summary).toMatch(/^prefix search: ".*" finds other names/);
  }, 120_000);

  it("lift --json's table is the pack's probe, measured on one module", async () => {
    expect(await moduleTable(after, prefixSearchPack)).toEqual({
      table: [{ feature: 'names found for "read"', value: '["ReadFile","readme"]' }],
    });
  }, 60_000);
});
