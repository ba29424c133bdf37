/**
 * Values for tool fields the contract does not name: seeded, mostly text holding the query's words, and the
 * corpus unchanged where there are no such fields.
 */
import { describe, expect, it } from "vitest";
import { defaultCorpus, withToolFields } from "./corpus.js";
import { createRng } from "./rng.js";
import { queryWords, setField, toolsWithFields } from "./field-values.js";

describe("tool field values", () => {
  it("no fields: the corpus itself", () => {
    const cases = defaultCorpus(3, 50);
    expect(withToolFields(cases, [])).toBe(cases);
  });

  it("the same fields give the same cases; other fields other values; the plain cases are left as they were", () => {
    const cases = defaultCorpus(3, 200);
    const before = structuredClone(cases);
    const a = withToolFields(cases, ["title", "tags"]);
    expect(withToolFields(cases, ["title", "tags"])).toEqual(a);
    expect(withToolFields(cases, ["label"]).map((c) => c.deferred.map((t) => t.label))).not.toEqual(
      a.map((c) => c.deferred.map((t) => t.title)),
    );
    expect(cases).toEqual(before);
    const values = a.flatMap((c) => c.deferred.map((t) => t.tags));
    expect(values.some((v) => typeof v === "string")).toBe(true);
    expect(values.some((v) => v === undefined)).toBe(true);
    expect(values.some((v) => Array.isArray(v))).toBe(true);
  });

  it("a field read inside (annotations.category) is often an object holding that property", () => {
    const cases = withToolFields(defaultCorpus(3, 200), ["annotations", "annotations.category"]);
    const values = cases.flatMap((c) => c.deferred.map((t) => t.annotations));
    const objects = values.filter((v): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v));
    expect(objects.filter((o) => typeof o.category === "string").length).toBeGreaterThan(100);
    expect(values.some((v) => typeof v === "string")).toBe(true);
  });

  it("text made of the query's words", () => {
    expect(queryWords("select: +alpha, beta  gamma")).toEqual(["alpha", "beta", "gamma"]);
    const rng = createRng(5);
    const tools = Array.from({ length: 40 }, (_, i) => ({ name: `mcp__s__tool_${i}` }));
    const set = setField(rng, tools, "title", "text", ["zephyr"]);
    expect(set.every((t) => typeof t.title === "string")).toBe(true);
    expect(set.filter((t) => String(t.title).toLowerCase().includes("zephyr")).length).toBeGreaterThan(10);
    expect(tools.every((t) => !("title" in t))).toBe(true);
  });

  it("witness tools: each tool in turn carrying the field, then all of them", () => {
    const tools = [{ name: "A" }, { name: "B" }];
    const sets = [...toolsWithFields(["title"], tools, "zephyr widget")];
    expect(sets[0]).toEqual([{ name: "A", title: "zephyr widget" }, { name: "B" }]);
    expect(sets[2]).toEqual([
      { name: "A", title: "zephyr widget" },
      { name: "B", title: "zephyr widget" },
    ]);
    expect(sets.some((s) => s.some((t) => typeof t.title !== "string" && "title" in t))).toBe(true);
  });
});
