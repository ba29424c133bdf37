/**
 * The witness search on two small modules written here (the same search; the second one also counts a
 * description word): a difference found on a 100-tool catalog is reported on the one tool it is about, and
 * each witness replays differently on its own; and the search decides on work alone, never on the clock.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Tool } from "../routines/tool-search/corpus.js";
import { witnessFocus, witnessKind } from "../routines/tool-search/witness-summary.js";
import { resultsAgree } from "../verify/verify.js";
import { runCallsOnBoth, type ContractCall } from "./witness-run.js";
import { searchWitnesses } from "./witness-search.js";

function module(descriptions: boolean): string {
  return `(function () {
  function scoreTools(query, deferred) {
    var terms = query.toLowerCase().split(/\\s+/).filter(Boolean);
    return deferred.map(function (t) {
      var s = 0;
      terms.forEach(function (w) {
        if (t.name.toLowerCase().indexOf(w) >= 0) s += 10;
        ${descriptions ? `if ((t.description || "").toLowerCase().split(/\\s+/).indexOf(w) >= 0) s += 2;` : ""}
      });
      return { name: t.name, score: s };
    });
  }
  function searchTools(query, deferred) {
    return scoreTools(query, deferred).filter(function (x) { return x.score > 0; }).sort(function (a, b) { return b.score - a.score; }).slice(0, 5).map(function (x) { return x.name; });
  }
  globalThis.__searchlift = { searchTools: searchTools, scoreTools: scoreTools, toolSearch: searchTools };
})();`;
}

const catalog: Tool[] = Array.from({ length: 100 }, (_, i) => ({
  name: `mcp__srv${i}__tool_${i}`,
  description: i === 81 ? "Reads the ledger" : "Does a thing",
}));

describe("witness search", () => {
  it("shrinks a difference on a 100-tool catalog to the one tool it is about, and it replays", async () => {
    const a = { script: module(false), label: "a" };
    const b = { script: module(true), label: "b" };
    const candidates: ContractCall[] = [
      { fn: "searchTools", query: "thing", deferred: catalog, loaded: [] },
      { fn: "scoreTools", query: "please read the ledger now", deferred: catalog, loaded: catalog.slice(0, 3) },
      { fn: "searchTools", query: "please read the ledger now", deferred: catalog, loaded: [] },
    ];
    const r = await searchWitnesses(a, b, candidates, { budget: { cases: 100 }, kindOf: witnessKind, focus: witnessFocus });
    expect(r.searched).toBe(3);
    // "thing": a description word of 99 tools, found by b only (a gained list); "ledger": one tool's score.
    expect(r.witnesses.length).toBeGreaterThan(0);
    for (const w of r.witnesses) expect(w.deferred.length + w.loaded.length).toBeLessThanOrEqual(1);
    const ledger = r.witnesses.find((w) => w.fn === "scoreTools");
    expect(ledger?.deferred.map((t) => t.name)).toEqual(["mcp__srv81__tool_81"]);
    expect(ledger?.query.length).toBeLessThan("please read the ledger now".length);
    const [ra, rb] = await runCallsOnBoth(a, b, r.witnesses);
    r.witnesses.forEach((_, i) => expect(resultsAgree(ra[i]!, rb[i]!)).toBe(false));
  }, 120_000);

  afterEach(() => vi.restoreAllMocks());

  it("stops on work, not on the clock: a clock that jumps an hour at each reading gives the same witnesses and count", async () => {
    const a = { script: module(false), label: "a" };
    const b = { script: module(true), label: "b" };
    // Three batches' worth (800 + 1100 + …): most calls agree; differences come in the first, second and third.
    const candidates: ContractCall[] = Array.from({ length: 2500 }, (_, i) =>
      [10, 1200, 2300].includes(i)
        ? {
            fn: i === 1200 ? "searchTools" : "scoreTools",
            query: i === 2300 ? "the ledger" : "ledger",
            deferred: catalog.slice(60, 90),
            loaded: [],
          }
        : { fn: "scoreTools", query: `tool_${i % 100}`, deferred: catalog.slice(i % 50, (i % 50) + 40), loaded: [] },
    );
    const search = () => searchWitnesses(a, b, candidates, { budget: { cases: 2400 }, kindOf: witnessKind, focus: witnessFocus });
    const steady = await search();
    expect(steady.searched).toBe(2400);
    expect(steady.witnesses.length).toBeGreaterThan(0);
    let clock = performance.now();
    let wall = Date.now();
    vi.spyOn(performance, "now").mockImplementation(() => (clock += 3_600_000));
    vi.spyOn(Date, "now").mockImplementation(() => (wall += 3_600_000));
    const jumping = await search();
    vi.restoreAllMocks();
    expect(jumping.searched).toBe(steady.searched);
    expect(jumping.witnesses).toEqual(steady.witnesses);
    expect(jumping.stopped).toBeUndefined();
    // Only the outcome's own seconds read the clock.
    expect(jumping.seconds).toBeGreaterThan(3600);
  }, 120_000);
});
