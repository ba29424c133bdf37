import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ExitCode } from "../errors.js";
import { compareBaseline, oldRanks, readBaselineFile, type SavedCheck } from "./baseline.js";
import type { CheckResult } from "./check.js";

const dir = mkdtempSync(join(tmpdir(), "searchlift-baseline-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A check result with only what the comparison reads. */
function result(partial: Pick<CheckResult, "releases" | "results" | "queries" | "expectations">): CheckResult {
  return {
    server: "s",
    summary: { tools: 0, loaded: 0, queries: 0, releases: 0, expectations: { total: 0, met: 0, missed: 0, unjudged: 0 }, omittedRows: 0 },
    unfound: [],
    competitors: [],
    loaded: [],
    renamed: {},
    warnings: [],
    ...partial,
  };
}

const rel = (version: string) => ({ version, platform: "npm", module: `${version}.mjs`, maxResults: 5 });

describe("old ranks of a saved check", () => {
  // A check from before every query had a row per tool: rows for the tools a query is for and the returned.
  const saved: SavedCheck = {
    releases: [{ version: "1.0.0" }],
    results: [
      { query: "q", tool: "A", ranks: { "1.0.0": 2 } },
      { query: "r", tool: "B", ranks: { "1.0.0": null } },
    ],
    loaded: ["L"],
  };
  const old = oldRanks(saved);

  it("reads a row's rank; a known tool without a row for an asked query was not returned; the rest is unknown", () => {
    expect(old("q", "A", "1.0.0")).toBe(2);
    expect(old("r", "B", "1.0.0")).toBeNull();
    expect(old("q", "B", "1.0.0")).toBeNull();
    expect(old("q", "L", "1.0.0")).toBeNull();
    expect(old("q", "NEW", "1.0.0")).toBeUndefined();
    expect(old("never asked", "A", "1.0.0")).toBeUndefined();
    expect(old("q", "A", "2.0.0")).toBeUndefined();
  });

  it("compares per expectation on the releases it is judged on, and counts moves per release", () => {
    const now = result({
      releases: [rel("1.0.0"), rel("2.0.0")],
      queries: [{ text: "q", owners: ["A", "B"] }],
      results: [
        { query: "q", tool: "A", ranks: { "1.0.0": 1, "2.0.0": 1 } },
        { query: "q", tool: "B", ranks: { "1.0.0": null, "2.0.0": 3 } },
      ],
      expectations: [
        { query: "q", tool: "A", rank: 1, results: {}, reasons: {} },
        { query: "q", tool: "B", rank: null, releases: ["2.0.0"], results: {}, reasons: {} },
      ],
    });
    const ranks: Record<string, number | null> = { "q\0A\x001.0.0": 2, "q\0A\x002.0.0": null, "q\0B\x002.0.0": 3 };
    const b = compareBaseline("old.json", "tools", now, (q, t, v) => ranks[`${q}\0${t}\0${v}`] ?? null);
    expect(b.items).toEqual([
      {
        query: "q",
        tool: "A",
        rank: 1,
        ranks: {
          "1.0.0": { old: 2, new: 1 },
          "2.0.0": { old: null, new: 1 },
        },
      },
      { query: "q", tool: "B", rank: null, ranks: { "2.0.0": { old: 3, new: 3 } } },
    ]);
    expect([b.improved, b.regressed, b.unchanged]).toEqual([2, 0, 1]);
    // Without expectations: each query and each tool it is for, on every release whose old rank is known.
    const plain = compareBaseline("old.json", "saved", { ...now, expectations: [] }, () => undefined);
    expect(plain.items.map((i) => [i.tool, i.ranks])).toEqual([
      ["A", {}],
      ["B", {}],
    ]);
  });
});

describe("a baseline file", () => {
  const file = (name: string, value: unknown) => {
    const p = join(dir, name);
    writeFileSync(p, typeof value === "string" ? value : JSON.stringify(value));
    return p;
  };

  it("is a saved check when it has releases and results, else a tools list", () => {
    const saved = readBaselineFile(file("saved.json", { releases: [{ version: "1.0.0" }], results: [], loaded: [] }));
    expect(saved.kind).toBe("saved");
    const tools = readBaselineFile(file("tools.json", { serverName: "x", tools: [{ name: "a" }] }));
    expect(tools).toEqual({ kind: "tools", file: { serverName: "x", tools: [{ name: "a" }] } });
    expect(readBaselineFile(file("bare.json", [{ name: "b", description: "d" }]))).toEqual({
      kind: "tools",
      file: { tools: [{ name: "b", description: "d" }] },
    });
  });

  it("refuses what is neither (usage) and a missing file (unreadable)", () => {
    const code = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return (e as { exitCode: number }).exitCode;
      }
    };
    expect(code(() => readBaselineFile(file("neither.json", { something: 1 })))).toBe(ExitCode.usage);
    expect(code(() => readBaselineFile(file("text.json", "not json")))).toBe(ExitCode.usage);
    expect(code(() => readBaselineFile(file("damaged.json", { releases: [{}], results: [] })))).toBe(ExitCode.usage);
    expect(code(() => readBaselineFile(join(dir, "absent.json")))).toBe(ExitCode.unreadable);
  });

  it("says in one line which release, result or tool is malformed (usage)", () => {
    const message = (value: unknown) => {
      try {
        readBaselineFile(file("malformed.json", value));
      } catch (e) {
        expect((e as { exitCode: number }).exitCode).toBe(ExitCode.usage);
        return (e as Error).message;
      }
      return "read";
    };
    const results = [{ tool: "a", query: "q", ranks: { "1.0.0": 1 } }];
    expect(message({ releases: [{ version: "1.0.0" }, { version: 2 }], results })).toMatch(
      /^the saved check is damaged: a release without a version \(release 2: version: [^\n]*\)$/,
    );
    expect(message({ releases: [], results: [...results, { tool: "b", query: "q", ranks: null }] })).toMatch(
      /^the saved check is damaged: a result without tool, query and ranks \(result 2: ranks: [^\n]*\)$/,
    );
    expect(message({ tools: [{ name: "a" }, { name: 3 }] })).toMatch(/^the baseline is neither .* \(tool 2: name: [^\n]*\)$/);
  });

  it("reads a saved check's later fields when they fit, and drops them when not", () => {
    const base = { releases: [{ version: "1.0.0" }], results: [{ tool: "a", query: "q", ranks: { "1.0.0": 2, "1.0.1": 0 } }] };
    const read = (extra: object) => {
      const b = readBaselineFile(file("saved2.json", { ...base, ...extra }));
      return b.kind === "saved" ? b.saved : null;
    };
    expect(read({ loaded: ["a", 1], queries: [{ text: "q", owners: ["a"] }, { owners: [] }] })).toEqual({
      ...base,
      results: [{ tool: "a", query: "q", ranks: { "1.0.0": 2, "1.0.1": null } }],
      loaded: ["a"],
      queries: [{ text: "q", owners: ["a"] }],
    });
    expect(read({ loaded: "a", queries: {} })).toMatchObject({ loaded: [] });
    expect(read({ loaded: "a", queries: {} })).not.toHaveProperty("queries");
  });
});
