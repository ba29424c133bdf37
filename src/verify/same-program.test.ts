import { describe, expect, it } from "vitest";
import { programKey } from "./same-program.js";

const wrap = (body: string) => `function adapter(input) {\n${body}\n}\nglobalThis.__searchlift = { adapter };\n`;

describe("programKey: the same program up to the names of its bindings", () => {
  const original = wrap(`
    function score(tools, query) {
      const words = query.toLowerCase().split(/\\s+/);
      let total = 0;
      for (const tool of tools) if (words.includes(tool.name)) total += 10;
      return { total, words };
    }
    return score(input.tools, input.query);`);

  it("names every local afresh, as a minifier run again does: the same key", () => {
    const renamed = wrap(`
    function a(b, c) {
      const d = c.toLowerCase().split(/\\s+/);
      let e = 0;
      for (const f of b) if (d.includes(f.name)) e += 10;
      return { total: e, words: d };
    }
    return a(input.tools, input.query);`);
    expect(programKey(renamed)).toBe(programKey(original));
    expect(programKey(original.replace(/\n\s*/g, " "))).toBe(programKey(original));
  });

  it("any other difference is another program", () => {
    const variants = [
      original.replace("+= 10", "+= 11"), // a constant
      original.replace("tool.name", "tool.title"), // a property read
      original.replace("{ total, words }", "{ total, terms: words }"), // a key written
      original.replace("toLowerCase", "toUpperCase"), // a method of a global type
      original.replace("/\\s+/", "/ /"), // a pattern
      original.replace("adapter", "adapter2").replace("{ adapter }", "{ adapter: adapter2 }"), // a top-level name: a global
      original.replace("const words", "var words"), // a declaration kind
    ];
    const keys = new Set(variants.map(programKey));
    expect(keys.size).toBe(variants.length);
    expect(keys.has(programKey(original))).toBe(false);
  });

  it("a shorthand property keeps its key: { a } and { b } are different objects", () => {
    expect(programKey(wrap("const a = 1; return { a };"))).not.toBe(programKey(wrap("const b = 1; return { b };")));
    expect(programKey(wrap("const a = 1; return { a };"))).toBe(programKey(wrap("const b = 1; return { a: b };")));
  });

  it("a name resolved to no binding is a global: kept", () => {
    expect(programKey(wrap("return Math.max(1, input);"))).not.toBe(programKey(wrap("return Mxth.max(1, input);")));
  });

  it("no key for code that looks names up at run time, or that does not parse", () => {
    expect(programKey(wrap("const a = 1; return eval('a');"))).toBeNull();
    expect(programKey(wrap("with (input) { return tools; }"))).toBeNull();
    expect(programKey("function (")).toBeNull();
  });
});
