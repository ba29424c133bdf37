import { describe, expect, it } from "vitest";
import { readerOrder } from "./reader-order.js";

const MODULE = `function createReleaseSearch(deferredByCaller) {
  function helperA(x) { return x + maxQuery; }
  let maxQuery = 10;
  class Cache { get() { return helperA(1); } }
  async function searchToolsByKeywords(query) { return helperA(query); }
  let cache = new Cache();
  function scoreToolsByKeywords(query) { return cache.get(query); }

  return { search: searchToolsByKeywords, scores: scoreToolsByKeywords };
}

/** A contract Tool as the release sees a tool. */
function releaseTool(tool) { return tool; }

const defaults = { maxResults: 5 };

async function searchTools(query) { return createReleaseSearch().search(query); }

async function scoreTools(query) { return createReleaseSearch().scores(query); }

function propertyKey(key) { return String(key); }
`;

const order = (text: string, names: string[]) => names.map((n) => text.search(new RegExp(`(function|class|let|const) ${n}\\b`)));

describe("the reader's order", () => {
  it("the contract first, the adapter, the factory with its entry points first, the ports last", () => {
    const out = readerOrder(MODULE, { exports: ["searchTools", "scoreTools"], about: new Map([["helperA", "Adds the cap."]]) });
    const at = order(out, [
      "searchTools",
      "scoreTools",
      "releaseTool",
      "defaults",
      "createReleaseSearch",
      "searchToolsByKeywords",
      "scoreToolsByKeywords",
      "helperA",
      "maxQuery",
      "Cache",
      "cache",
      "propertyKey",
    ]);
    expect(at.every((p) => p >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(out).toContain("// Adds the cap.\nfunction helperA");
    expect(out).toContain("// The release's tool search, as its signature located it");
    expect(out).toContain("/** A contract Tool as the release sees a tool. */\nfunction releaseTool");
    expect(out.trimEnd().endsWith("}")).toBe(true);
  });

  it("behaves as before: the same results", async () => {
    const run = async (text: string) => {
      const url = `data:text/javascript,${encodeURIComponent(`${text}\nexport { searchTools, scoreTools };`)}`;
      const m = (await import(url)) as { searchTools: (q: number) => Promise<number>; scoreTools: (q: number) => Promise<number> };
      return [await m.searchTools(1), await m.scoreTools(2)];
    };
    expect(await run(readerOrder(MODULE, { exports: ["searchTools", "scoreTools"] }))).toEqual(await run(MODULE));
  });

  it("statements other than function declarations keep their relative order; a name declared twice leaves the body alone", () => {
    const twice = MODULE.replace(
      "function helperA(x) { return x + maxQuery; }",
      "function helperA(x) { return x; }\n  function helperA(x) { return x + 1; }",
    );
    const out = readerOrder(twice, { exports: ["searchTools", "scoreTools"] });
    const inner = (t: string) => t.slice(t.indexOf("function createReleaseSearch"), t.indexOf("return { search"));
    expect(inner(out).replace(/\s+/g, " ")).toBe(inner(twice).replace(/\s+/g, " "));
  });

  it("a comment is not written where the name says it all, nor where the text is unknown", () => {
    const out = readerOrder(MODULE, { exports: ["searchTools"], about: new Map([["helperA", "Helper a."]]) });
    expect(out).not.toContain("// Helper a.");
    expect(out).not.toMatch(/\/\/.*\n\s*let maxQuery/);
  });
});
