import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ExitCode } from "../errors.js";
import { expectationQueries, judgedOn, outcome, parseExpect, readExpectationsFile, resolveExpectations } from "./expectations.js";
import { clientTool } from "./naming.js";
import { LineTail } from "./server-tools.js";

const dir = mkdtempSync(join(tmpdir(), "searchlift-expectations-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const exitOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return (e as { exitCode?: number }).exitCode;
  }
  return undefined;
};

describe("--expect QUERY=>TOOL[@N]", () => {
  it("splits at the last =>, takes a trailing @digits as the rank, trims the parts", () => {
    expect(parseExpect(" weather forecast => get_forecast @3")).toEqual({ query: "weather forecast", tool: "get_forecast", rank: 3 });
    expect(parseExpect("a => b=>c")).toEqual({ query: "a => b", tool: "c" });
    expect(parseExpect("find=>mail@host")).toEqual({ query: "find", tool: "mail@host" });
  });

  it("refuses a missing arrow, an empty side and rank 0 as usage errors", () => {
    for (const bad of ["no arrow", "=>tool", "query=>", "query=>@2", "q=>t@0"])
      expect(
        exitOf(() => parseExpect(bad)),
        bad,
      ).toBe(ExitCode.usage);
  });
});

describe("expectations file", () => {
  const file = (name: string, text: string) => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };

  it("reads an array or { expectations }, with rank and releases optional (a single release as a string)", () => {
    const entries = [
      { query: " q ", tool: "t", rank: 2, releases: ["2.1.112", ">=2.1.300"] },
      { query: "r", tool: "u", releases: "0.7.0" },
    ];
    expect(readExpectationsFile(file("a.json", JSON.stringify(entries)))).toEqual([
      { query: "q", tool: "t", rank: 2, releases: ["2.1.112", ">=2.1.300"] },
      { query: "r", tool: "u", releases: ["0.7.0"] },
    ]);
    expect(readExpectationsFile(file("b.json", JSON.stringify({ expectations: [{ query: "q", tool: "t" }] })))).toEqual([
      { query: "q", tool: "t" },
    ]);
  });

  it("reads YAML (.yaml, .yml) as it reads JSON: versions written bare stay text", () => {
    const entries = [
      { query: "q", tool: "t", rank: 2, releases: ["2.1.112", ">=2.1.300"] },
      { query: "r: s", tool: "u", releases: "0.7.0" },
    ];
    const json = readExpectationsFile(file("same.json", JSON.stringify(entries)));
    const yaml = [
      "- query: q",
      "  tool: t",
      "  rank: 2",
      '  releases: [2.1.112, ">=2.1.300"]',
      '- query: "r: s"',
      "  tool: u",
      "  releases: 0.7.0",
    ];
    expect(readExpectationsFile(file("same.yaml", yaml.join("\n") + "\n"))).toEqual(json);
    const nested = ["# what the PR must keep", "expectations:", ...yaml.map((l) => `  ${l}`)].join("\n");
    expect(readExpectationsFile(file("same.yml", nested))).toEqual(json);
  });

  it("says a mistake on one line with the line it is on, in YAML and JSON alike", () => {
    const lines = (...l: string[]) => l.join("\n") + "\n";
    for (const [name, text, message] of [
      // The entry that starts on line 4 has no tool.
      [
        "h.yaml",
        lines("expectations:", "  - query: a", "    tool: b", "  - query: c", "    rank: 1"),
        /^line 4: expectation 2: "tool" must be/,
      ],
      ["i.yaml", lines("- query: a", "  tool: b: c"), /^not YAML, at line 2: Nested mappings are not allowed/],
      ["j.yaml", lines("- query: a", "  tool: b", "  query: c"), /^not YAML, at line 3: Map keys must be unique/],
      ["k.json", lines("[", '  { "query": "a", "tool": "b" },', '  { "query": "a" "tool": "b" }', "]"), /^not JSON, at line 3: /],
      [
        "l.json",
        lines("[", '  { "query": "a", "tool": "b" },', "", '  { "query": "a", "tool": 3 }', "]"),
        /^line 4: expectation 2: "tool" must be/,
      ],
    ] as const) {
      const p = file(name, text);
      expect(() => readExpectationsFile(p)).toThrow(message);
      expect(exitOf(() => readExpectationsFile(p))).toBe(ExitCode.usage);
      const e = (() => {
        try {
          readExpectationsFile(p);
        } catch (x) {
          return x as Error;
        }
      })();
      expect(e?.message).not.toContain("\n");
    }
  });

  it("refuses what is not an expectation, naming the entry; a missing file is unreadable", () => {
    for (const [name, text, message] of [
      ["c.json", JSON.stringify([{ query: "q" }]), /expectation 1: "tool" must be a non-empty string/],
      ["d.json", JSON.stringify([{ query: "q", tool: "t", rank: 1.5 }]), /"rank" must be a whole number/],
      ["e.json", JSON.stringify([{ query: "q", tool: "t", best: 1 }]), /unknown field "best"/],
      ["f.json", JSON.stringify({ tools: [] }), /not an expectations list/],
      ["h.json", JSON.stringify([{ query: "q", tool: "t" }, "q=>t"]), /line 1: expectation 2: not an object; expected/],
      [
        "i.json",
        JSON.stringify([{ query: "q", tool: "t", releases: ["2.1.1", " "] }]),
        /expectation 1: "releases" must be a list of versions/,
      ],
      ["j.json", JSON.stringify([{ query: "q", tool: "t", releases: 2 }]), /expectation 1: "releases" must be a list of versions/],
      ["k.json", JSON.stringify([{ query: "  ", tool: "t" }]), /expectation 1: "query" must be a non-empty string/],
      ["l.json", JSON.stringify([{ query: "q", tool: "t", rank: 0 }]), /"rank" must be a whole number, 1 or more/],
      ["g.yaml", "query: q\ntool: t\n", /not an expectations list: expected a list of \{ query, tool/],
    ] as const) {
      const p = file(name, text);
      expect(() => readExpectationsFile(p)).toThrow(message);
      expect(exitOf(() => readExpectationsFile(p))).toBe(ExitCode.usage);
    }
    expect(exitOf(() => readExpectationsFile(join(dir, "absent.json")))).toBe(ExitCode.unreadable);
  });
});

describe("resolving and judging", () => {
  const tools = [clientTool("my srv", { name: "geo.find" }), clientTool("my srv", { name: "get_it" })];

  it("finds the tool by client name, listed name or renamed name; the rank is its own, else --max-rank, else none", () => {
    const r = resolveExpectations(
      [
        { query: "a", tool: "mcp__my_srv__geo_find", rank: 1 },
        { query: "b", tool: "geo.find" },
        { query: "c", tool: "geo_find", releases: ["0.7.0"] },
      ],
      tools,
      3,
    );
    expect(r).toEqual([
      { query: "a", tool: "mcp__my_srv__geo_find", rank: 1 },
      { query: "b", tool: "mcp__my_srv__geo_find", rank: 3 },
      { query: "c", tool: "mcp__my_srv__geo_find", rank: 3, releases: ["0.7.0"] },
    ]);
    expect(resolveExpectations([{ query: "b", tool: "get_it" }], tools)[0]!.rank).toBeNull();
    expect(() => resolveExpectations([{ query: "q", tool: "nope" }], tools)).toThrow(/no tool "nope" \(it lists geo.find, get_it\)/);
    expect(exitOf(() => resolveExpectations([{ query: "q", tool: "get_it", releases: ["latest"] }], tools))).toBe(ExitCode.usage);
    expect(resolveExpectations([{ query: "q", tool: "get_it", releases: ["2.1.112 (npm)", "2.1.1-2.1.9"] }], tools)).toHaveLength(1);
  });

  it("is judged on the releases it names, by key, version or semver range", () => {
    expect(judgedOn({}, "2.1.112")).toBe(true);
    expect(judgedOn({ releases: ["2.1.112"] }, "2.1.112 (linux-x64)")).toBe(true);
    expect(judgedOn({ releases: ["2.1.112 (npm)"] }, "2.1.112 (linux-x64)")).toBe(false);
    expect(judgedOn({ releases: [">=2.1.300"] }, "2.1.332")).toBe(true);
    expect(judgedOn({ releases: [">=2.1.300"] }, "2.1.112")).toBe(false);
    expect(judgedOn({ releases: ["2.1.300-2.1.310"] }, "2.1.305")).toBe(true);
    expect(judgedOn({ releases: ["latest"] }, "unknown")).toBe(false);
  });

  it("is met when returned no lower than allowed", () => {
    expect(outcome(3, 3)).toEqual({ rank: 3, met: true });
    expect(outcome(4, 3)).toEqual({ rank: 4, met: false });
    expect(outcome(null, null)).toEqual({ rank: null, met: false });
    expect(outcome(5, null)).toEqual({ rank: 5, met: true });
  });

  it("makes each expectation's query for its tools only; other given queries are for none", () => {
    const e = [
      { query: "q", tool: "A", rank: null },
      { query: "q", tool: "B", rank: 1 },
      { query: "r", tool: "A", rank: null },
    ];
    expect(expectationQueries(e, [" r ", "s", ""])).toEqual([
      { text: "q", owners: ["A", "B"] },
      { text: "r", owners: ["A"] },
      { text: "s", owners: [] },
    ]);
  });
});

describe("a server's stderr tail", () => {
  it("keeps the last lines across chunks, the unfinished one too, terminal-safe", () => {
    const t = new LineTail(3);
    t.push("one\ntw");
    t.push("o\n\nthree\nfour\x1b[31m\nfi");
    expect(t.tail()).toEqual(["three", "four\\u001b[31m", "fi"]);
  });
});
