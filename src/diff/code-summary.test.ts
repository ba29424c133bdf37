import { describe, expect, it } from "vitest";
import { codeSummary, movedDefinitionLines, summarySentence } from "./code-summary.js";

/** A lifted module's shape: a header comment, the factory with its definitions, an adapter, the provenance. */
const lifted = (inner: string, adapter = "function searchTools(q) { return createReleaseSearch()(q); }") =>
  `// claude-code 9.9.9 (linux-x64) — tool search, lifted by searchlift\n\nfunction createReleaseSearch(deferredByCaller) {\n${inner}\n  return search;\n}\n\n${adapter}\nconst provenance = {};\n`;

describe("codeSummary", () => {
  const before = lifted(`  function search(q) { return parse(q); }
  function parse(q) { return q.split(" "); }
  let maxQuery = 200, oldFlag = true;`);

  it("names the factory's definitions that are new, gone or changed, by their readable names", () => {
    const after = lifted(`  function search(q) { return parse(q).slice(0, maxWords); }
  function parse(q) { return q.split(" "); }
  let maxQuery = 200, maxWords = 32;
  class Cache {}`);
    const s = codeSummary(before, after);
    expect(s).toEqual({ added: ["maxWords", "Cache"], removed: ["oldFlag"], changed: ["search"] });
    expect(summarySentence(s)).toBe("New: maxWords and Cache. Changed: search. Gone: oldFlag.");
  });

  it("the header and the provenance are not code; a changed adapter is", () => {
    const other = before.replace("9.9.9", "9.9.10").replace("const provenance = {};", 'const provenance = { version: "9.9.10" };');
    expect(summarySentence(codeSummary(before, other))).toBeNull();
    const adapter = lifted(
      `  function search(q) { return parse(q); }
  function parse(q) { return q.split(" "); }
  let maxQuery = 200, oldFlag = true;`,
      "function searchTools(q, max) { return createReleaseSearch()(q).slice(0, max); }",
    );
    expect(codeSummary(before, adapter)).toEqual({ added: [], removed: [], changed: ["searchTools"] });
    // An adapter with locals of its own is still one definition: its `result` is not the module's.
    const withLocal = (call: string) =>
      lifted(
        `  function search(q) { return parse(q); }
  function parse(q) { return q.split(" "); }
  let maxQuery = 200, oldFlag = true;`,
        `async function toolSearch(q) {\n  const result = await createReleaseSearch().call(${call});\n  return result.data;\n}`,
      );
    expect(codeSummary(withLocal("q"), withLocal("q, {}"))).toEqual({ added: [], removed: [], changed: ["toolSearch"] });
  });

  it("a long list ends in how many more", () => {
    const many = (n: number) => lifted(Array.from({ length: n }, (_, i) => `  function f${i}() { return ${i}; }`).join("\n"));
    expect(summarySentence(codeSummary(many(1), many(11)))).toBe("New: f1, f2, f3, f4, f5, f6, f7, f8 and 2 more.");
  });
});

describe("movedDefinitionLines", () => {
  it("gives the lines of a definition only moved, and not those of one changed or new", () => {
    const before = lifted(`  function search(q) { return parse(q); }
  function parse(q) {
    return q.split(" ");
  }`);
    const after = lifted(`  function parse(q) {
    return q.split(" ");
  }
  function search(q) { return parse(q).slice(0, 5); }`);
    // In the lifted code (the factory from its first line): parse spans lines 2-4 after, 3-5 before; the adapter,
    // the same in both, is line 9; search, changed, is in neither.
    expect([...movedDefinitionLines(after, before)]).toEqual([2, 3, 4, 9]);
    expect([...movedDefinitionLines(before, after)]).toEqual([3, 4, 5, 9]);
    const changed = after.replace('q.split(" ")', "q.split(/\\s+/)");
    expect([...movedDefinitionLines(changed, before)]).toEqual([9]);
  });
});
