import { describe, expect, it } from "vitest";
import { instrument } from "./coverage.js";

/**
 * A lifted module in the shape of the releases': an adapter that gives call() a state made by `emptyState()`, and
 * call() asking it for a cache that it refreshes once with the list of tools. `edits` change one part each.
 */
const module = (
  edits: { fields?: string; method?: string; before?: string; use?: string; key?: string; list?: string; extra?: string } = {},
) => `
function toolSearch(query, deferred) {
  const tools = [...deferred.map((t) => ({ name: t.name }))];
  const release = createReleaseSearch();
  return release.call({ query }, { options: { tools, reload: undefined }, state: emptyState() });
}
function emptyState() {
  return new Proxy(function () {}, {});
}
function createReleaseSearch() {
  async function callSearch(input, { options: { tools, reload }, state }) {
    let all = reload?.() ?? tools;
    let listed = ${edits.list ?? "all.filter((t) => t.name !== input.query)"};
    ${edits.use ?? "let cache = state.get(NameCache);\n    cache.refresh(listed);"}
    return cache.names(listed);
  }
  class NameCache {
    ${edits.fields ?? "#seen = new Map();\n    #key = null;"}
    ${edits.extra ?? ""}
    names(list) {
      return list.map((t) => this.#seen.get(t.name) ?? t.name);
    }
    ${edits.method ?? "refresh"}(list) {
      ${edits.before ?? ""}
      let key = ${edits.key ?? 'list.map((t) => t.name).sort().join(",")'};
      if (this.#key !== key) { // MARK
        this.#seen.clear();
        this.#key = key;
      }
    }
  }
  return { call: callSearch };
}
export { toolSearch };
`;

/** Why the marked test is never false, or null when it may be. */
const neverFalse = (text: string): string | null => {
  const line = text.split("\n").findIndex((l) => l.includes("// MARK")) + 1;
  const points = instrument(text, new Set([line])).points.filter((p) => p.kind === "condition" && p.why === "never false");
  expect(points.length).toBe(1);
  return points[0]!.unreachable ?? null;
};

describe("a field compared on the first use of a new instance (fresh-instance.ts)", () => {
  it("still holds its initial value: the comparison is never false, with why", () => {
    expect(neverFalse(module())).toBe(
      "reachable only when `this.#key !== key` is false — `refresh` runs only as the first use of a new NameCache (`state.get(NameCache)`, of the empty state, makes one on each run), so `#key` still holds its initial null, while `key` is always a string",
    );
  });

  it("also in a loop that makes the instance on each turn, and with the field written by other methods", () => {
    const loop = module({
      use: "let cache;\n    for (let t of listed) {\n      let own = state.get(NameCache);\n      own.refresh(listed);\n      cache = own;\n    }",
    });
    expect(neverFalse(loop.replace("return cache.names(listed);", "return listed;"))).not.toBeNull();
    expect(neverFalse(module({ extra: "reset() { this.#key = null; }" }))).not.toBeNull();
  });

  it("not when the method runs a second time on the same instance, or in a loop on one made before it", () => {
    expect(
      neverFalse(module({ use: "let cache = state.get(NameCache);\n    cache.refresh(listed);\n    cache.refresh(all);" })),
    ).toBeNull();
    expect(neverFalse(module({ use: "let cache = state.get(NameCache);\n    for (let t of all) cache.refresh(listed);" }))).toBeNull();
    // A \`var\` made after the call: on the second turn the call runs on the instance the first turn made and used.
    const late =
      "for (let t of all) {\n      cache.refresh(listed);\n      var cache = state.get(NameCache);\n      cache.names(all);\n    }";
    expect(neverFalse(module({ use: late }))).toBeNull();
  });

  it("not when the instance is used before the call, or handed to the call, or named in a function declared after it", () => {
    expect(neverFalse(module({ use: "let cache = state.get(NameCache);\n    cache.names(all);\n    cache.refresh(listed);" }))).toBeNull();
    expect(neverFalse(module({ use: "let cache = state.get(NameCache);\n    cache.refresh(listed, cache);" }))).toBeNull();
    const hoisted =
      "let cache = state.get(NameCache);\n    early();\n    cache.refresh(listed);\n    function early() { cache.names(all); }";
    expect(neverFalse(module({ use: hoisted }))).toBeNull();
  });

  it("not when the instance comes from anywhere but the empty state, or the method is read any other way", () => {
    expect(neverFalse(module({ use: "let cache = new NameCache();\n    cache.refresh(listed);" }))).toBeNull();
    expect(neverFalse(module({ use: "let cache = input.cache;\n    cache.refresh(listed);" }))).toBeNull();
    expect(neverFalse(module({ extra: "again(list) { this.refresh(list); }" }))).toBeNull();
    expect(neverFalse(module({ extra: "named(list) { return this[input.name]; }" }))).toBeNull();
  });

  it("not when the field is written before the test, starts with something else, or the class can run code on making", () => {
    expect(neverFalse(module({ before: 'this.#key = "";' }))).toBeNull();
    expect(neverFalse(module({ fields: '#seen = new Map();\n    #key = "";' }))).toBeNull();
    expect(neverFalse(module({ extra: "constructor() { this.#key = 'x'; }" }))).toBeNull();
    expect(neverFalse(module({ fields: "#seen = new Map();\n    #key = null;\n    #other = this.refresh([]);" }))).toBeNull();
    // An async method lets the caller use the instance while it waits.
    expect(neverFalse(module({ method: "async refresh" }))).toBeNull();
  });

  it("not when the other side may be null: not an array's join, or joined from something not known to be an array", () => {
    expect(neverFalse(module({ key: 'list.length ? list.join(",") : null' }))).toBeNull();
    expect(neverFalse(module({ list: "input.tools" }))).toBeNull();
    expect(neverFalse(module({ key: "list.map((t) => t.name).find((n) => n)" }))).toBeNull();
  });
});
