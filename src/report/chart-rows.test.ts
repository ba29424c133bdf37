import { describe, expect, it } from "vitest";
import { buildTimeline, type Change, type Release } from "../track/timeline.js";
import { chartModel } from "./chart-rows.js";
import { timelineHtml } from "./report-html.js";
import { toolSearchPack } from "../routines/tool-search/index.js";

const release = (version: string, hash: string | null): Release => ({
  input: version,
  version,
  platform: "npm",
  routineHash: hash,
  verified: null,
  ...(hash ? { module: `modules/${version}.mjs` } : { error: "cannot lift" }),
});
const row = (feature: string, before: string, after: string) => ({ feature, before, after, changed: before !== after });

describe("chartModel", () => {
  // Groups: A (1.0.0, 1.0.1) → B (1.1.0) → C (1.2.0), then 1.3.0 not lifted, then D (1.4.0).
  const t = buildTimeline([
    release("1.0.0", "a"),
    release("1.0.1", "a"),
    release("1.1.0", "b"),
    release("1.2.0", "c"),
    release("1.3.0", null),
    release("1.4.0", "d"),
  ]);
  const changes: Change[] = [
    {
      from: "1.0.1",
      to: "1.1.0",
      behaviour: null,
      semantics: [row("select: comma list", "no", "yes"), row("score: name part", "10", "12"), row("query cap", "none up to 256", "32")],
    },
    {
      from: "1.1.0",
      to: "1.2.0",
      behaviour: null,
      // The same module measured against another: the cap's value depends on the pair.
      semantics: [
        row("select: comma list", "yes", "yes"),
        row("score: name part", "12", "12"),
        row("query cap", "33", "32"),
        row("empty", "", "—"),
      ],
    },
    { from: "1.2.0", to: "1.3.0", behaviour: null, note: "a side was not lifted (1.3.0: cannot lift)" },
    { from: "1.3.0", to: "1.4.0", behaviour: null, note: "a side was not lifted (1.3.0: cannot lift)" },
  ];
  const m = chartModel({ ...t, changes });
  const lane = (f: string) => m.lanes.find((l) => l.feature === f)!;

  it("gives each release its group's readings, from both change points beside it", () => {
    expect(lane("select: comma list").cells.map((c) => [m.columns[c.column]!.version, c.value])).toEqual([
      ["1.0.0", "no"],
      ["1.0.1", "no"],
      ["1.1.0", "yes"],
      ["1.2.0", "yes"],
    ]);
    expect(lane("query cap").cells.find((c) => m.columns[c.column]!.version === "1.1.0")).toEqual({
      column: 2,
      readings: [
        { change: 0, side: "after", value: "32" },
        { change: 1, side: "before", value: "33" },
      ],
      value: "32 | 33",
    });
  });

  it("tells the rows' kinds by their values alone, and leaves out a row with no value", () => {
    expect(m.lanes.map((l) => [l.feature, l.kind])).toEqual([
      ["select: comma list", "yes/no"],
      ["score: name part", "number"],
      ["query cap", "text"],
    ]);
    expect(m.leftOut).toEqual([{ feature: "empty", reason: "no release has a value in it: every reading is empty" }]);
  });

  it("says why a release has no readings", () => {
    expect(m.columns.map((c) => [c.version, c.state])).toEqual([
      ["1.0.0", "measured"],
      ["1.0.1", "measured"],
      ["1.1.0", "measured"],
      ["1.2.0", "measured"],
      ["1.3.0", "not lifted"],
      ["1.4.0", "not measured"],
    ]);
    expect(m.columns[5]!.reason).toBe("no change point beside it was measured (a side was not lifted (1.3.0: cannot lift))");
    expect(chartModel(buildTimeline([release("1.0.0", "a")])).columns[0]!.reason).toBe(
      "one group: no change point, so nothing was measured",
    );
  });

  it("names the row it leaves out under the chart, with why, and draws no lane for it", () => {
    const html = timelineHtml({ ...t, changes }, { read: () => "", pack: toolSearchPack });
    expect(html).toContain(
      `<tr data-feature="empty"><td>empty</td><td class="why">no release has a value in it: every reading is empty</td></tr>`,
    );
    expect(html).not.toContain(`class="lane text" data-feature="empty"`);
    expect(html).toContain(`class="lane text" data-feature="query cap"`);
  });

  it("takes no reading from a change point that does not lie between its groups", () => {
    const shifted = chartModel({ ...t, changes: [{ ...changes[0]!, from: "1.0.0" }, ...changes.slice(1)] });
    expect(shifted.columns.slice(0, 2).map((c) => c.state)).toEqual(["not measured", "not measured"]);
    expect(shifted.lanes.find((l) => l.feature === "query cap")!.cells.map((c) => c.value)).toEqual(["33", "32"]);
  });
});
