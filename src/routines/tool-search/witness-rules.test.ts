/**
 * The rule behind a witness, asked of two small modules written here: a description-word search, one of which
 * drops a fixed paragraph from descriptions before matching. The rule must name that paragraph, and nothing
 * must be said of a change that is not a paragraph's.
 */
import { describe, expect, it } from "vitest";
import { runCallsOnBoth } from "../../diff/witness-run.js";
import { answerOf, type Witness } from "../../diff/witness-search.js";
import { witnessRule } from "./witness-rules.js";

const PARAGRAPH = "When a parcel is late, write to the courier and wait a day.";

/** Scores 2 for each query word that is a whole word of the description; `drop` is removed from it first. */
function module(drop: string | null, all = false): string {
  const clean = all ? `""` : drop === null ? "d" : `d.split(${JSON.stringify(drop)}).join("")`;
  return `(function () {
  function scoreTools(query, deferred) {
    var terms = query.toLowerCase().split(/\\s+/).filter(Boolean);
    return deferred.map(function (t) {
      var d = t.description || ""; d = (${clean}).toLowerCase();
      var words = d.split(/[^a-z0-9_]+/);
      var s = 0; terms.forEach(function (w) { if (words.indexOf(w) >= 0) s += 2; });
      return { name: t.name, score: s };
    });
  }
  function searchTools(q, d) { return scoreTools(q, d).filter(function (x) { return x.score > 0; }).map(function (x) { return x.name; }); }
  globalThis.__searchlift = { searchTools: searchTools, scoreTools: scoreTools, toolSearch: searchTools };
})();`;
}

const tool = { name: "mcp__shop__track", description: `Track orders. ${PARAGRAPH}`, isMcp: true };
const witness: Witness = {
  fn: "scoreTools",
  query: "courier",
  deferred: [tool],
  loaded: [],
  before: [{ name: tool.name, score: 2 }],
  after: [{ name: tool.name, score: 0 }],
};

async function said(before: string, after: string): Promise<string | null> {
  const rule = witnessRule(witness)!;
  const [a, b] = await runCallsOnBoth({ script: before, label: "a" }, { script: after, label: "b" }, rule.calls);
  return rule.say(a.map(answerOf), b.map(answerOf));
}

describe("witnessRule", () => {
  it("names the paragraph a release drops from descriptions before matching, with the witness", async () => {
    expect(await said(module(null), module(PARAGRAPH))).toBe(
      'descriptions lose the passage \'When a parcel…\' before matching: scoreTools `"courier"` on mcp__shop__track (description "Track orders. When a pa…") scores 2 → 0',
    );
  }, 60_000);

  it("says nothing when the whole description stops counting, or for a witness whose query is not in it", async () => {
    expect(await said(module(null), module(null, true))).toBeNull();
    expect(witnessRule({ ...witness, query: "zebra" })).toBeNull();
    expect(witnessRule({ ...witness, fn: "searchTools", before: [tool.name], after: [] })).toBeNull();
  }, 60_000);
});
