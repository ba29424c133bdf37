import { parse } from "acorn";
import { describe, expect, it } from "vitest";
import type { Node } from "../ast/pattern.js";
import { deadMethods } from "./dead-methods.js";

/** A session cache in the shape of 2.1.229's, with `use` added to the module's code. */
const module = (use = "") => `
class DescriptionCache {
  #descriptions = new Map();
  #names = null;
  clear() { this.#descriptions.clear(); this.#names = null; }
  describe(name) { return this.#descriptions.get(name) ?? ""; }
}
function search(cache, names) { ${use} return names.map((n) => cache.describe(n)); }
export { search };
`;

/** The methods said dead, as `Class.method: why`. */
const dead = (text: string) => {
  const ast = parse(text, { ecmaVersion: "latest", sourceType: "module" }) as unknown as Node;
  return deadMethods(ast, () => true).map(([body, why]) => `${text.slice(body.start, body.start + 20)}… ${why}`);
};

describe("methods no code of the module can call (dead-methods.ts)", () => {
  it("a method whose name is read only on a Map of the class's own is never called", () => {
    expect(dead(module())).toEqual([
      "{ this.#descriptions… reachable only when `clear` of DescriptionCache is called — no code of the module calls it (`.clear` is read only on `this.#descriptions`, a collection of its own)",
    ]);
  });

  it("is called wherever its name is read on anything else, taken apart in a pattern, or reachable by a computed key", () => {
    expect(dead(module("cache.clear();"))).toEqual([]);
    expect(dead(module("let { clear } = cache;"))).toEqual([]);
    expect(dead(module('cache["clear"]();'))).toEqual([]);
    expect(dead(module("let key = names[0]; cache[key]();"))).toEqual([]);
  });

  it("not when the private field can be given something else than its Map", () => {
    const swapped = module("cache.swap(names);").replace("describe(name) {", "swap(x) { this.#descriptions = x; }\n  describe(name) {");
    expect(dead(swapped)).toEqual([]);
  });

  it("never a method the engine or the host calls by name", () => {
    expect(dead(module().replace("clear()", "toJSON()"))).toEqual([]);
  });
});
