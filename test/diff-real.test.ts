/**
 * searchlift diff on real releases (cached outside the checkout; nothing from a release is
 * committed). Expectations come from docs/tool-search-history.md, not from what diff printed:
 * 2.1.111 → 2.1.112 changes nothing; 2.0.70 (MCPSearch: name +10/+5, description substring +2)
 * → 2.1.112 (ToolSearch: name parts 12/10, 6/5, fallback 3, searchHint 4, word-boundary
 * description, +required, fast paths, select lists); 2.1.19 → 2.1.64 adds searchHint (+4) and
 * select lists by name or alias, looked up in deferred tools, then all tools.
 */
import { describe, expect, it } from "vitest";
import { diffInputs, type DiffResult } from "../src/diff/diff.js";
import { npmPackMember } from "./helpers/cache.js";

const skip = process.env.SEARCHLIFT_SKIP_REAL === "1";
const cli = (v: string) => npmPackMember(`@anthropic-ai/claude-code@${v}`, "package/cli.js");
const row = (r: DiffResult, feature: string) => {
  const found = r.semantics.find((s) => s.feature === feature);
  if (!found) throw new Error(`no row ${feature}`);
  return [found.before, found.after];
};
const change = (r: DiffResult, query: string) => r.behaviour.changed.find((c) => c.query === query);

describe.skipIf(skip)("searchlift diff on real releases", () => {
  it("2.1.111 → 2.1.112: only minified names changed, so nothing does", async () => {
    const r = await diffInputs(cli("2.1.111"), cli("2.1.112"));
    expect(r.a).toMatchObject({ version: "2.1.111", platform: "npm" });
    expect(r.b).toMatchObject({ version: "2.1.112", platform: "npm" });
    expect(r.code).toEqual({ changed: false, diff: "" });
    expect(r.semantics.filter((s) => s.changed)).toEqual([]);
    expect(r.behaviour.queries).toBeGreaterThanOrEqual(100);
    expect(r.behaviour.changed).toEqual([]);
  });

  it("2.0.70 → 2.1.112: MCPSearch's name/description rules give way to ToolSearch's name parts", async () => {
    const r = await diffInputs(cli("2.0.70"), cli("2.1.112"));
    expect(r.code.changed).toBe(true);
    expect(r.code.diff).toMatch(/^-.*score \+= 10/m);
    expect(r.code.diff).toMatch(/^\+.*isMcp \? 12 : 10/m);
    expect(r.code.diff).not.toMatch(/provenance =|sha256/);
    expect(row(r, "weight: name equals term (first generation)")).toEqual(["10", "—"]);
    expect(row(r, "weight: name contains term (first generation)")).toEqual(["5", "—"]);
    expect(row(r, "weight: exact part (MCP)")).toEqual(["—", "12"]);
    expect(row(r, "weight: exact part (built-in)")).toEqual(["—", "10"]);
    expect(row(r, "weight: substring part (MCP)")).toEqual(["—", "6"]);
    expect(row(r, "weight: substring part (built-in)")).toEqual(["—", "5"]);
    expect(row(r, "weight: full-name fallback")).toEqual(["—", "3"]);
    expect(row(r, "weight: searchHint word")).toEqual(["—", "4"]);
    expect(row(r, "weight: description match")).toEqual(["2", "2"]);
    expect(row(r, "searches")).toEqual(["MCP tools", "deferred tools"]);
    expect(row(r, "select: lookup")).toEqual(["yes", "yes"]);
    expect(row(r, "select: comma list")).toEqual(["no", "yes"]);
    expect(row(r, "+required terms")).toEqual(["no", "yes"]);
    expect(row(r, "mcp__ prefix fast path")).toEqual(["no", "yes"]);
    expect(row(r, "exact-name fast path")).toEqual(["no", "yes"]);
    expect(row(r, "word-boundary description match")).toEqual(["no", "yes"]);
    // Coarse parts (generation 8) and caps (generation 9) come later.
    expect(row(r, "coarse parts")).toEqual(["no", "no"]);
    expect(row(r, "query cap (words)")).toEqual(["no", "no"]);
    expect(row(r, "default max results")).toEqual(["5", "5"]);

    // Behaviour. MCPSearch searched MCP tools only: a built-in is found later, not before.
    expect(change(r, "select:NotebookEdit")).toEqual({ query: "select:NotebookEdit", before: [], after: [{ name: "NotebookEdit", score: null }] });
    expect(change(r, "jupyter notebook")?.before).toEqual([]);
    expect(change(r, "jupyter notebook")?.after[0]?.name).toBe("NotebookEdit");
    // The exact name is a fast path later; before, the whole name is one term that no key equals or contains.
    expect(change(r, "mcp__github__create_issue")).toEqual({ query: "mcp__github__create_issue", before: [], after: [{ name: "mcp__github__create_issue", score: null }] });
    // A select list is one name that does not exist in the first generation.
    expect(change(r, "select:WebFetch,WebSearch")?.after.map((x) => x.name)).toEqual(["WebFetch", "WebSearch"]);
    // "create github issue": 3 × contains 5 + 3 × description 2 = 21 → 3 × exact MCP part 12 + 3 × description word 2 = 42.
    expect(change(r, "create github issue")?.before[0]).toEqual({ name: "mcp__github__create_issue", score: 21 });
    expect(change(r, "create github issue")?.after[0]).toEqual({ name: "mcp__github__create_issue", score: 42 });
  });

  it("2.1.19 → 2.1.64: searchHint (+4) and select lists appear; the name weights stay", async () => {
    const r = await diffInputs(cli("2.1.19"), cli("2.1.64"));
    expect(r.code.changed).toBe(true);
    expect(r.semantics.filter((s) => s.changed).map((s) => [s.feature, s.before, s.after])).toEqual([
      ["weight: searchHint word", "—", "4"],
      ["select: comma list", "no", "yes"],
      ["select: by alias", "no", "yes"],
      ["exact-name fast path: loaded tools too", "no", "yes"],
      // "looked up in deferred tools, then all tools"
      ["select: loaded tools too", "no", "yes"],
      ["searchHint", "no", "yes"],
    ]);
    expect(row(r, "weight: exact part (MCP)")).toEqual(["12", "12"]);
    expect(row(r, "+required terms")).toEqual(["yes", "yes"]);
    // Our catalog gives mcp__github__create_issue the searchHint "bug report ticket".
    expect(change(r, "bug report")?.before).toEqual([]);
    expect(change(r, "bug report")?.after[0]).toEqual({ name: "mcp__github__create_issue", score: 8 });
    expect(change(r, "select:WebFetch,WebSearch")).toEqual({
      query: "select:WebFetch,WebSearch",
      before: [],
      after: [
        { name: "WebFetch", score: null },
        { name: "WebSearch", score: null },
      ],
    });
    // Queries no searchHint or select touches are unchanged.
    expect(change(r, "create jira issue")).toBeUndefined();
  });
});
