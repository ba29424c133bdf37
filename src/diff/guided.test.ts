import { describe, expect, it } from "vitest";
import { guidedCalls } from "./guided.js";
import type { ContractCall } from "./witness-run.js";

const seed: ContractCall = {
  fn: "searchTools",
  query: "send slack message",
  deferred: [
    { name: "mcp__slack__send", description: "Send a message" },
    { name: "Agent", description: "Launch an agent" },
  ],
  loaded: [],
};

/** The calls in which some tool's field holds a word of the call's own query (without its `+`), in any case. */
function withQueryWord(calls: ContractCall[], field: string): ContractCall[] {
  return calls.filter((c) => {
    const words = c.query
      .toLowerCase()
      .split(/\s+/)
      .map((w) => w.replace(/^\+/, ""));
    return c.deferred.some((t) => {
      const v = (t as unknown as Record<string, unknown>)[field];
      const values = Array.isArray(v) ? v.map(String) : typeof v === "string" ? v.split(/\s+/) : [];
      return values.some((x) => words.includes(x.toLowerCase()));
    });
  });
}

describe("guidedCalls", () => {
  it("gives a field the changed code reads a word of the call's own query, some of them required", () => {
    const calls = guidedCalls([seed], ["zephyr"], 200, 7, ["aliases"]);
    const hits = withQueryWord(calls, "aliases");
    expect(hits.length).toBeGreaterThan(0);
    // A list field gets a list.
    expect(hits.every((c) => c.deferred.every((t) => t.aliases === undefined || Array.isArray(t.aliases)))).toBe(true);
    expect(hits.some((c) => /(^|\s)\+\S/.test(c.query))).toBe(true);
  });

  it("leaves the fields alone when the changed code reads none, and gives the same calls for the same seed", () => {
    expect(withQueryWord(guidedCalls([seed], ["zephyr"], 200, 7), "aliases")).toEqual([]);
    expect(guidedCalls([seed], ["zephyr"], 50, 7, ["aliases"])).toEqual(guidedCalls([seed], ["zephyr"], 50, 7, ["aliases"]));
  });
});
