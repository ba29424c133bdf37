/**
 * Probe rows on two small modules written here: the same keyword search, one of which caps the query in its
 * toolSearch (call()) only. The cap must show in the toolSearch row, not in the scoreTools row.
 */
import { describe, expect, it } from "vitest";
import { runCallsOnBoth } from "../../diff/witness-run.js";
import { answerOf } from "../../diff/witness-search.js";
import { probeRows, toolSearchProbes } from "./probes.js";

/** A keyword search over name parts and searchHint words; `callCap` cuts the query in toolSearch only. */
function module(callCap: number | null): string {
  return `(function () {
  function parts(t) { return t.name.toLowerCase().split(/__|_|-/).filter(Boolean).concat((t.searchHint || "").toLowerCase().split(/\\s+/).filter(Boolean)); }
  function scoreTools(query, deferred) {
    var terms = query.toLowerCase().split(/\\s+/).filter(Boolean);
    return deferred.map(function (t) { var p = parts(t), s = 0; terms.forEach(function (w) { if (p.indexOf(w) >= 0) s += 10; }); return { name: t.name, score: s }; });
  }
  function searchTools(query, deferred, o) {
    return scoreTools(query, deferred).filter(function (x) { return x.score > 0; }).sort(function (a, b) { return b.score - a.score; }).slice(0, (o && o.maxResults) || 5).map(function (x) { return x.name; });
  }
  function toolSearch(query, deferred, o) { return searchTools(${callCap === null ? "query" : `query.slice(0, ${callCap})`}, deferred, o); }
  globalThis.__searchlift = { searchTools: searchTools, scoreTools: scoreTools, toolSearch: toolSearch };
})();`;
}

describe("cap probes", () => {
  it("a long input on which the module throws is not read as a cap", async () => {
    const probes = toolSearchProbes([]);
    const calls = probes.flatMap((p) => p.calls);
    // As 2.1.10 does: a whole-word RegExp per query term, which V8 refuses for a term of tens of thousands of characters.
    const regex = module(null).replace(
      "var terms = query",
      "query.split(/\\s+/).forEach(function (w) { if (w.length > 30000) throw new SyntaxError('Invalid regular expression: too large'); }); var terms = query",
    );
    const [a, b] = await runCallsOnBoth({ script: module(null), label: "a" }, { script: regex, label: "b" }, calls);
    const { rows, sentences, throws } = probeRows(probes, a.map(answerOf), b.map(answerOf));
    expect(rows.find((r) => r.feature === "query cap (characters)")?.after).toMatch(
      /^none up to 16385; throws at 65536 \(SyntaxError: Invalid regular expression/,
    );
    // Said with the throws, after the result changes, and not as a cap.
    expect(sentences.filter((l) => /query/.test(l))).toEqual([]);
    expect(throws[0]).toMatch(
      /^a query input of 65536 characters now throws \(SyntaxError: Invalid regular expression: too large\); no cap up to 16385/,
    );
  }, 60_000);

  it("a query cap applied in toolSearch only shows in the toolSearch row, to the character", async () => {
    const probes = toolSearchProbes([1000]);
    const calls = probes.flatMap((p) => p.calls);
    const [a, b] = await runCallsOnBoth({ script: module(null), label: "a" }, { script: module(1000), label: "b" }, calls);
    const { rows, sentences } = probeRows(probes, a.map(answerOf), b.map(answerOf));
    const row = (f: string) => rows.find((r) => r.feature === f);
    expect(row("query cap (characters)")).toMatchObject({ changed: false });
    expect(row("query cap (characters)")!.after).toMatch(/^none up to/);
    expect(row("query cap (characters) in toolSearch")).toMatchObject({ after: "1000", changed: true });
    expect(sentences).toContain(
      `the query cap (characters) in toolSearch is now 1000 (was ${row("query cap (characters) in toolSearch")!.before})`,
    );
  }, 60_000);

  it("a cap both entry points apply gives one sentence that says so", async () => {
    const probes = toolSearchProbes([4096]);
    const calls = probes.flatMap((p) => p.calls);
    // The cap in scoreTools, which toolSearch goes through.
    const capped = module(null).replace("var terms = query", "query = query.slice(0, 4096); var terms = query");
    const [a, b] = await runCallsOnBoth({ script: module(null), label: "a" }, { script: capped, label: "b" }, calls);
    const { rows, sentences } = probeRows(probes, a.map(answerOf), b.map(answerOf));
    expect(rows.find((r) => r.feature === "query cap (characters)")?.after).toBe("4096");
    expect(rows.find((r) => r.feature === "query cap (characters) in toolSearch")?.after).toBe("4096");
    expect(sentences.filter((l) => /query cap \(characters\)/.test(l))).toEqual([
      expect.stringMatching(/is now 4096 .* through scoreTools and toolSearch alike$/),
    ]);
  }, 60_000);
});
