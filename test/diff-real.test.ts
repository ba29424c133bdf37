/**
 * searchlift diff on real releases (cached outside the checkout; nothing from a release is
 * committed). Expectations come from docs/tool-search-history.md, not from what diff printed:
 * 2.1.111 → 2.1.112 changes nothing; 2.0.70 (MCPSearch: name +10/+5, description substring +2)
 * → 2.1.112 (ToolSearch: name parts 12/10, 6/5, fallback 3, searchHint 4, word-boundary
 * description, +required, fast paths, select lists); 2.1.19 → 2.1.64 adds searchHint (+4) and
 * select lists by name or alias, looked up in deferred tools, then all tools. The semantics rows are probes
 * (a few calls each, run on both modules) and the behaviour view is witnesses found by search, each replayed.
 */
import { readdirSync, readFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sandboxScript } from "../src/diff/behaviour.js";
import { diffInputs, formatDiff, type DiffResult } from "../src/diff/diff.js";
import { runCalls } from "../src/diff/witness-run.js";
import { resultsAgree } from "../src/verify/verify.js";
import { npmPackMember } from "./helpers/cache.js";
import { toolSearchPack } from "../src/routines/tool-search/index.js";

const skip = process.env.SEARCHLIFT_SKIP_REAL === "1";
const cli = (v: string) => npmPackMember(`@anthropic-ai/claude-code@${v}`, "package/cli.js");
const row = (r: DiffResult, feature: string) => {
  const found = r.semantics.find((s) => s.feature === feature);
  if (!found) throw new Error(`no row ${feature}`);
  return [found.before, found.after];
};

/** diff with the lifted modules kept, and each witness replayed on fresh children of both: it must still differ. */
async function diffReplayed(a: string, b: string): Promise<DiffResult> {
  const out = mkdtempSync(join(tmpdir(), "searchlift-diff-real-"));
  try {
    const r = await diffInputs(a, b, { out, pack: toolSearchPack });
    const module = (side: string) =>
      join(
        out,
        side,
        readdirSync(join(out, side), { recursive: true, encoding: "utf8" }).find((f) => f.endsWith("tool-search.mjs"))!,
      );
    const sides = ["a", "b"].map(module).map((p) => ({ script: sandboxScript(readFileSync(p, "utf8"), p), label: p }));
    const calls = r.behaviour.changed.map((w) => ({
      fn: w.function,
      query: w.query,
      deferred: w.deferred,
      loaded: w.loaded,
      ...(w.maxResults !== undefined ? { maxResults: w.maxResults } : {}),
    }));
    if (calls.length) {
      const [ra, rb] = await Promise.all(sides.map((s) => runCalls(s, calls)));
      calls.forEach((_, i) => expect(resultsAgree(ra![i]!, rb![i]!), r.behaviour.changed[i]!.summary).toBe(false));
    }
    return r;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

describe.skipIf(skip)("searchlift diff on real releases", () => {
  it("2.1.111 → 2.1.112: only minified names changed, so nothing does", async () => {
    const r = await diffInputs(cli("2.1.111"), cli("2.1.112"), { pack: toolSearchPack });
    expect(r.a).toMatchObject({ version: "2.1.111", platform: "npm" });
    expect(r.b).toMatchObject({ version: "2.1.112", platform: "npm" });
    expect(r.code).toEqual({ changed: false, diff: "", summary: { added: [], removed: [], changed: [] } });
    expect(r.semantics.filter((s) => s.changed)).toEqual([]);
    expect(r.behaviour.searched).toBeGreaterThan(0);
    expect(r.behaviour.changed).toEqual([]);
    expect(r.behaviour.sentences).toEqual([]);
  });

  it("2.0.70 → 2.1.112: MCPSearch's name/description rules give way to ToolSearch's name parts", async () => {
    const r = await diffReplayed(cli("2.0.70"), cli("2.1.112"));
    expect(r.code.changed).toBe(true);
    expect(r.code.diff).toMatch(/^-.*score \+= 10/m);
    expect(r.code.diff).toMatch(/^\+.*isMcp \? 12 : 10/m);
    expect(r.code.diff).not.toMatch(/provenance =|sha256/);
    expect(row(r, "keyword search: MCP tools")).toEqual(["yes", "yes"]);
    // 2.0.70's call() filtered its tools by isMcp; the lift searches the caller's deferred list instead (the
    // contract: pass the MCP tools for MCPSearch-era releases), so a built-in given as deferred is returned by both.
    expect(row(r, "keyword search: a built-in given as deferred")).toEqual(["yes", "yes"]);
    // A name containing the term +5 → an exact MCP name part +12, a partial one +6 (built-in +10 / +5); a searchHint word +4.
    expect(row(r, "adds: name part, exact / partial")).toEqual(["0 / 0 (built-in 0 / 0)", "12 / 6 (built-in 10 / 5)"]);
    expect(row(r, "adds: searchHint word, whole / part")).toEqual(["0 / 0", "4 / 0"]);
    for (const f of ["select: comma list", "+required terms", "mcp__ prefix: a server's tools", "searchHint words count"])
      expect(row(r, f), f).toEqual(["no", "yes"]);
    // A description substring counted before; a whole word only after.
    expect(row(r, "description: part of a word")).toEqual(["yes", "no"]);
    expect(row(r, "default max results")).toEqual(["5", "5"]);
    expect(r.behaviour.changed.length).toBeGreaterThan(0);
    expect(r.behaviour.sentences.some((l) => /honours `\+required` terms/.test(l))).toBe(true);
  });

  it("2.1.333 → 2.1.334 (linux-x64): the code says which definitions changed where no behaviour the contract reaches did", async () => {
    const native = (v: string) => npmPackMember(`@anthropic-ai/claude-code-linux-x64@${v}`, "package/claude");
    const r = await diffInputs(native("2.1.333"), native("2.1.334"), { pack: toolSearchPack });
    // 2.1.334 gives the name parser a second parameter (a server's own name, added to the coarse parts) and the
    // description cache a flag that passes it; the contract's client leaves the flag off.
    expect(r.code.summary).toEqual({ added: [], removed: [], changed: ["parseToolName", "ToolDescriptionCache"] });
    expect(r.code.diff).toMatch(/^\+ {2}function parseToolName\(entry, \w+\)/m);
    expect(formatDiff(r)).toContain("== code ==\nChanged: parseToolName and ToolDescriptionCache.\n");
    // The parser reads two properties inside mcpInfo that the contract does not name there: noticed and named,
    // though no call through the contract reaches them.
    const changed = r.semantics.filter((s) => s.changed);
    expect(changed.map((s) => s.feature)).toEqual(["tool fields read beyond the contract"]);
    expect(changed[0]!.after).toContain("mcpInfo.nameKey");
    expect(changed[0]!.after).toContain("mcpInfo.serverInfoName");
    expect(changed[0]!.before).not.toContain("mcpInfo.");
    expect(r.behaviour.changed).toEqual([]);
    // No witness, and the new branch runs only with a constructor option the tool search never passes: a refactor,
    // said first with the points that cannot run and why, then the field sentence.
    expect(formatDiff(r)).toMatch(
      /^A refactor: no behaviour difference found in \d+ cases .*every changed point the tool search can reach was seen.*cannot run in the tool search: \d+ reachable only when `this\.#\w+` is true — the tool search never makes ToolDescriptionCache with its constructor option \w+/m,
    );
    expect(formatDiff(r)).toMatch(/^- now reads the tool fields `mcpInfo\.nameKey`, `mcpInfo\.serverInfoName`/m);
  });

  it("2.1.19 → 2.1.64: searchHint (+4) and select lists appear; the name weights stay", async () => {
    const r = await diffReplayed(cli("2.1.19"), cli("2.1.64"));
    expect(r.code.changed).toBe(true);
    for (const f of ["select: comma list", "select: by alias", "select: loaded tools too", "searchHint words count"])
      expect(row(r, f), f).toEqual(["no", "yes"]);
    expect(row(r, "adds: searchHint word, whole / part")).toEqual(["0 / 0", "4 / 0"]);
    expect(row(r, "+required terms")).toEqual(["yes", "yes"]);
    // Exact part 12 (MCP) / 10 (built-in), description word 2: unchanged.
    expect(row(r, "adds: name part, exact / partial")).toEqual(["12 / 6 (built-in 10 / 5)", "12 / 6 (built-in 10 / 5)"]);
    expect(row(r, "adds: description word, whole / part")).toEqual(["2 / 0", "2 / 0"]);
    expect(r.behaviour.sentences.some((l) => /comma-separated list/.test(l))).toBe(true);
    expect(r.behaviour.sentences.some((l) => /searchHint/.test(l))).toBe(true);
    expect(r.behaviour.changed.length).toBeGreaterThan(0);
  });
});
