import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { defaultCorpus, generateCorpus, type CorpusCase, type Tool } from "./corpus.js";
import { QUERY_KINDS } from "./corpus-queries.js";
import { CAPS } from "./corpus-words.js";
import { createRng } from "./rng.js";

const corpus = defaultCorpus();
const allTools = (c: CorpusCase) => [...c.deferred, ...c.loaded];
const countWhere = (p: (c: CorpusCase) => boolean) => corpus.filter(p).length;
const words = (q: string) => q.trim().split(/\s+/).filter(Boolean);
const selectNames = (q: string) => /^\s*select:(.*)$/is.exec(q)?.[1]!.split(",") ?? [];

describe("createRng", () => {
  it("is deterministic per seed and spreads over its range", () => {
    const a = createRng(42),
      b = createRng(42),
      c = createRng(43);
    const sa = Array.from({ length: 1000 }, () => a.next());
    expect(Array.from({ length: 1000 }, () => b.next())).toEqual(sa);
    expect(Array.from({ length: 1000 }, () => c.next())).not.toEqual(sa);
    expect(Math.min(...sa)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...sa)).toBeLessThan(1);
    const r = createRng(7);
    const hist = new Array(10).fill(0);
    for (let i = 0; i < 10000; i++) hist[r.int(10)]++;
    for (const h of hist) expect(h).toBeGreaterThan(850);
    expect(() => r.pick([])).toThrow(RangeError);
    expect(r.shuffle([1, 2, 3, 4, 5]).sort()).toEqual([1, 2, 3, 4, 5]);
  });
});

describe("defaultCorpus", () => {
  it("has 2,000 cases, the same for the same seed, byte for byte, and others for another seed", () => {
    expect(corpus).toHaveLength(2000);
    const hash = (x: unknown) => createHash("sha256").update(JSON.stringify(x)).digest("hex");
    expect(hash(defaultCorpus(1, 2000))).toBe(hash(corpus));
    expect(hash(defaultCorpus(2, 2000))).not.toBe(hash(corpus));
    // A prefix of a longer run is the shorter run.
    expect(hash(defaultCorpus(1, 2500).slice(0, 2000))).toBe(hash(corpus));
    const gen = generateCorpus(1);
    expect(gen.next().value).toEqual(corpus[0]);
  });

  it("every case is plain JSON (round-trips exactly) with valid Tool shapes", () => {
    for (const c of corpus) {
      expect(JSON.parse(JSON.stringify(c))).toEqual(c);
      expect(typeof c.query).toBe("string");
      expect(QUERY_KINDS).toContain(c.kind);
      if (c.maxResults !== undefined) expect(Number.isInteger(c.maxResults) && c.maxResults >= 0).toBe(true);
      for (const t of allTools(c)) {
        expect(Object.keys(t).every((k) => ["name", "description", "searchHint", "isMcp", "mcpInfo", "aliases"].includes(k))).toBe(true);
        expect(typeof t.name === "string" && t.name.length > 0).toBe(true);
        for (const v of Object.values(t)) expect(v).not.toBeUndefined();
        if (t.description !== undefined) expect(typeof t.description).toBe("string");
        if (t.searchHint !== undefined) expect(typeof t.searchHint).toBe("string");
        if (t.isMcp !== undefined) expect(typeof t.isMcp).toBe("boolean");
        if (t.mcpInfo !== undefined) expect(typeof t.mcpInfo.serverName).toBe("string");
        if (t.aliases !== undefined) expect(t.aliases.every((a) => typeof a === "string")).toBe(true);
      }
    }
  });

  it("uses every query kind, each often enough to matter", () => {
    for (const k of QUERY_KINDS)
      expect(
        countWhere((c) => c.kind === k),
        k,
      ).toBeGreaterThanOrEqual(40);
  });

  it("catalogs: MCP and built-in tools, name styles, mcpInfo variants, duplicates, tools both deferred and loaded", () => {
    const tools = corpus.flatMap(allTools);
    const mcp = tools.filter((t) => t.name.startsWith("mcp__"));
    const toolPart = (t: Tool) => t.name.split("__").slice(2).join("__");
    const serverPart = (t: Tool) => t.name.split("__")[1] ?? "";
    expect(mcp.filter((t) => /^[a-z0-9]+(_[a-z0-9]+)+$/.test(toolPart(t))).length).toBeGreaterThan(500); // snake_case
    expect(mcp.filter((t) => /^[a-z]+[A-Z][a-zA-Z]*$/.test(toolPart(t))).length).toBeGreaterThan(200); // camelCase
    expect(mcp.filter((t) => toolPart(t).includes(".")).length).toBeGreaterThan(50);
    expect(mcp.filter((t) => serverPart(t).includes(".")).length).toBeGreaterThan(50);
    expect(mcp.filter((t) => serverPart(t).includes(" ")).length).toBeGreaterThan(20);
    expect(tools.filter((t) => !t.name.startsWith("mcp__") && t.isMcp === true && t.mcpInfo).length).toBeGreaterThan(10); // prefix-less MCP
    expect(
      mcp.filter(
        (t) => t.mcpInfo && t.mcpInfo.serverName !== serverPart(t) && t.mcpInfo.serverName.toLowerCase() === serverPart(t).toLowerCase(),
      ).length,
    ).toBeGreaterThan(50);
    expect(mcp.filter((t) => t.mcpInfo && t.mcpInfo.serverName.toLowerCase() !== serverPart(t).toLowerCase()).length).toBeGreaterThan(20);
    expect(mcp.filter((t) => t.mcpInfo && t.mcpInfo.toolName === undefined).length).toBeGreaterThan(20);
    expect(mcp.filter((t) => t.isMcp === false).length).toBeGreaterThan(20);
    const builtins = tools.filter((t) => /^[A-Z][A-Za-z]*$/.test(t.name));
    expect(new Set(builtins.map((t) => t.name)).size).toBeGreaterThanOrEqual(25);
    expect(builtins.filter((t) => t.aliases && t.aliases.length > 0).length).toBeGreaterThan(100);
    expect(tools.filter((t) => t.description === undefined).length).toBeGreaterThan(50);
    expect(tools.filter((t) => t.description === "").length).toBeGreaterThan(50);
    expect(countWhere((c) => new Set(c.deferred.map((t) => t.name)).size < c.deferred.length)).toBeGreaterThan(20);
    expect(countWhere((c) => c.loaded.some((l) => c.deferred.some((d) => d.name === l.name)))).toBeGreaterThan(50);
    expect(countWhere((c) => c.deferred.length === 0)).toBeGreaterThan(20);
    expect(countWhere((c) => c.deferred.length >= 30)).toBeGreaterThan(50);
    expect(countWhere((c) => c.maxResults !== undefined)).toBeGreaterThan(300);
    expect(countWhere((c) => c.maxResults === 0)).toBeGreaterThan(20);
  });

  it("descriptions and hints: word-boundary traps, punctuation, regex specials, unicode, over the caps", () => {
    const tools = corpus.flatMap(allTools);
    const descs = tools.map((t) => t.description ?? "");
    for (const needle of ["(", "[", "$", "\\", "|", "+", "*", "?", ".", "^", "{"])
      expect(
        descs.some((d) => d.includes(needle)),
        needle,
      ).toBe(true);
    expect(descs.filter((d) => /\w+_id\b/.test(d)).length).toBeGreaterThan(100);
    expect(descs.filter((d) => /\bre[a-z]+/.test(d)).length).toBeGreaterThan(100);
    expect(descs.filter((d) => /[^\x00-\x7f]/.test(d)).length).toBeGreaterThan(100);
    expect(descs.filter((d) => d.length > 4096).length).toBeGreaterThan(20);
    const hints = tools.flatMap((t) => (t.searchHint !== undefined ? [t.searchHint] : []));
    expect(hints.length).toBeGreaterThan(1000);
    const long = hints.filter((h) => h.length > CAPS.searchHintChars);
    expect(long.length).toBeGreaterThan(50);
    // Some long hints end in a word that exists only past the 4096-character cut.
    expect(
      long.filter(
        (h) => /(hintbeyondcut|quokka|farawayword)$/.test(h) && !h.slice(0, CAPS.searchHintChars).match(/hintbeyondcut|quokka|farawayword/),
      ).length,
    ).toBeGreaterThan(20);
  });

  it("queries: required terms, select forms, exact names in other case, mcp__ prefixes", () => {
    expect(countWhere((c) => words(c.query).some((w) => w.startsWith("+") && w.length > 1))).toBeGreaterThan(100);
    expect(countWhere((c) => /^select:[^,]+$/.test(c.query))).toBeGreaterThan(40);
    const lists = corpus.filter((c) => selectNames(c.query).length > 1);
    expect(lists.length).toBeGreaterThan(150);
    const names = (c: CorpusCase) => new Set(allTools(c).map((t) => t.name));
    expect(lists.filter((c) => selectNames(c.query).some((n) => n.trim() !== "" && !names(c).has(n.trim()))).length).toBeGreaterThan(50); // missing
    expect(
      lists.filter((c) => {
        const s = selectNames(c.query)
          .map((n) => n.trim())
          .filter(Boolean);
        return new Set(s).size < s.length;
      }).length,
    ).toBeGreaterThan(20); // duplicates
    expect(lists.filter((c) => selectNames(c.query).some((n) => n !== n.trim())).length).toBeGreaterThan(50); // spaces
    expect(countWhere((c) => /^\s*(SELECT|Select):/.test(c.query))).toBeGreaterThan(20);
    expect(
      countWhere((c) =>
        allTools(c).some((t) =>
          t.aliases?.some((a) =>
            selectNames(c.query)
              .map((n) => n.trim())
              .includes(a),
          ),
        ),
      ),
    ).toBeGreaterThan(10);
    expect(
      countWhere((c) => allTools(c).some((t) => t.name !== c.query && t.name.toLowerCase() === c.query.toLowerCase())),
    ).toBeGreaterThan(30);
    expect(countWhere((c) => allTools(c).some((t) => t.name === c.query))).toBeGreaterThan(30);
    expect(countWhere((c) => /^mcp__[^_\s]/i.test(c.query))).toBeGreaterThan(60);
    expect(countWhere((c) => /^MCP__/.test(c.query))).toBeGreaterThan(3);
  });

  it("queries at and over the caps of 32 words, 16,384 characters and 64 select names", () => {
    expect(countWhere((c) => words(c.query).length > CAPS.queryWords && !c.query.startsWith("select:"))).toBeGreaterThan(40);
    expect(countWhere((c) => words(c.query).length === CAPS.queryWords)).toBeGreaterThan(3);
    expect(countWhere((c) => c.query.length > CAPS.queryChars)).toBeGreaterThan(15);
    expect(countWhere((c) => c.query.length === CAPS.queryChars)).toBeGreaterThan(3);
    expect(countWhere((c) => selectNames(c.query).length > CAPS.selectNames)).toBeGreaterThan(20);
    expect(countWhere((c) => selectNames(c.query).length === CAPS.selectNames)).toBeGreaterThan(3);
  });

  it("queries: empty and whitespace, unicode, regex-special characters", () => {
    expect(countWhere((c) => c.query === "")).toBeGreaterThan(3);
    expect(countWhere((c) => c.query !== "" && c.query.trim() === "")).toBeGreaterThan(10);
    expect(countWhere((c) => /[\u00c0-\u024f]/.test(c.query))).toBeGreaterThan(30); // accents
    expect(countWhere((c) => /[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]/.test(c.query))).toBeGreaterThan(20); // CJK
    expect(countWhere((c) => /\p{Extended_Pictographic}/u.test(c.query))).toBeGreaterThan(10); // emoji
    expect(countWhere((c) => c.query.includes("İ"))).toBeGreaterThan(2); // lowercases to two code units
    for (const ch of [".", "*", "+", "?", "^", "$", "{", "}", "(", ")", "|", "[", "]", "\\"])
      expect(
        countWhere((c) => c.kind === "regex" && c.query.includes(ch)),
        ch,
      ).toBeGreaterThan(5);
    expect(countWhere((c) => /\t|\n|\u00a0/.test(c.query))).toBeGreaterThan(50);
  });
});
