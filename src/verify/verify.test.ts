import { describe, expect, it } from "vitest";
import { defaultCorpus, type Tool } from "../routines/tool-search/corpus.js";
import { runInSandbox } from "./sandbox.js";
import { callArgs, jsonEqual, prepareVerification, resultsAgree, verifyAgreement, VerifySetupError, type VerifyCase } from "./verify.js";
import { moduleToScript } from "./module-script.js";
import { shrinkCandidates } from "./shrink.js";

// A small keyword scorer in the style of the ToolSearch generations (name parts, substring and full-name
// fallbacks, description and searchHint words at word boundaries, +required, caps, fast paths, select:).
// %SUB% is the MCP substring weight; %SORT% the ranking; %EXPORT_*% where the module form puts `export`.
const CORE = String.raw`
const MAX_QUERY = 16384, MAX_WORDS = 32, MAX_SELECT = 64, MAX_HINT = 4096;
function parseName(tool) {
  const isMcp = tool.isMcp ?? tool.name.startsWith("mcp__");
  if (isMcp) {
    let server, action;
    if (tool.mcpInfo) { server = tool.mcpInfo.serverName; action = tool.mcpInfo.toolName ?? ""; }
    else {
      const rest = tool.name.replace(/^mcp__/, "");
      const i = rest.indexOf("__");
      server = i < 0 ? rest : rest.slice(0, i);
      action = i < 0 ? "" : rest.slice(i + 2);
    }
    return { isMcp, parts: (server + " " + action).toLowerCase().split(/[\s_.]+/).filter(Boolean), full: tool.name.toLowerCase() };
  }
  return { isMcp: false, parts: tool.name.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase().split(/\s+/).filter(Boolean), full: tool.name.toLowerCase() };
}
function escapeRe(s) { return s.replace(/[.*+?^\${}()|[\]\\]/g, "\\$&"); }
function terms(query) { return query.slice(0, MAX_QUERY).toLowerCase().trim().split(/\s+/).filter(Boolean).slice(0, MAX_WORDS); }
function scoreOne(tool, words) {
  const p = parseName(tool);
  const desc = (tool.description ?? "").toLowerCase();
  const hint = (tool.searchHint ?? "").slice(0, MAX_HINT).toLowerCase();
  let score = 0;
  for (const raw of words) {
    const t = raw.startsWith("+") ? raw.slice(1) : raw;
    if (!t) continue;
    if (p.parts.includes(t)) score += p.isMcp ? 12 : 10;
    else if (p.parts.some((x) => x.includes(t))) score += p.isMcp ? %SUB% : 5;
    else if (p.full.includes(t)) score += 3;
    const re = new RegExp("\\b" + escapeRe(t) + "\\b");
    if (re.test(desc)) score += 2;
    if (hint && re.test(hint)) score += 4;
  }
  return score;
}
%EXPORT_FN%async function searchTools(query, deferred, options) {
  const max = options?.maxResults ?? 5;
  const q = query.trim().toLowerCase();
  const exact = deferred.find((t) => t.name.toLowerCase() === q);
  if (exact) return [exact.name];
  if (q.startsWith("mcp__") && q.length > 5) return deferred.filter((t) => t.name.toLowerCase().startsWith(q)).slice(0, max).map((t) => t.name);
  const words = terms(query);
  const required = words.filter((w) => w.startsWith("+") && w.length > 1).map((w) => w.slice(1));
  const scored = [];
  for (const t of deferred) {
    await null;
    if (required.length > 0) {
      const hay = parseName(t).parts.join(" ") + " " + (t.description ?? "").toLowerCase();
      if (!required.every((r) => hay.includes(r))) continue;
    }
    const score = scoreOne(t, words);
    if (score > 0) scored.push({ name: t.name, score });
  }
  %SORT%
  return scored.slice(0, max).map((x) => x.name);
}
async function scoreImpl(query, deferred) {
  const words = terms(query);
  const out = [];
  for (const t of deferred) { await Promise.resolve(); out.push({ name: t.name, score: scoreOne(t, words) }); }
  return out;
}
%EXPORT_CONST%const toolSearch = async (query, deferred, options) => {
  const all = [...deferred, ...(options?.loaded ?? [])];
  const m = /^select:(.+)$/is.exec(query.trim());
  if (m) {
    const found = [];
    for (const n of m[1].split(",").map((s) => s.trim()).filter(Boolean).slice(0, MAX_SELECT)) {
      const hit = (t) => t.name === n || (t.aliases ?? []).includes(n);
      const t = deferred.find(hit) ?? all.find(hit);
      if (t && !found.includes(t.name)) found.push(t.name);
    }
    return found;
  }
  return searchTools(query, deferred, options);
};
`;

const STABLE = "scored.sort((a, b) => b.score - a.score);";
const BY_NAME = "scored.sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));";

function core(sub: number, sort: string, module: boolean): string {
  return CORE.replace("%SUB%", String(sub))
    .replace("%SORT%", sort)
    .replace("%EXPORT_FN%", module ? "export " : "")
    .replace("%EXPORT_CONST%", module ? "export " : "");
}
const ORIGINAL_SCRIPT = `(function () {\n${core(6, STABLE, false)}\nglobalThis.__searchlift = { searchTools, scoreTools: scoreImpl, toolSearch };\n})();`;
const moduleOf = (sub: number, sort: string) =>
  `${core(sub, sort, true)}\nexport { scoreImpl as scoreTools };\nexport const defaults = { maxResults: 5 };\nexport const provenance = { routine: "tool-search" };\n`;
const SAME_MODULE = moduleOf(6, STABLE);
const WRONG_WEIGHT_MODULE = moduleOf(5, STABLE);
const UNSTABLE_MODULE = moduleOf(6, BY_NAME);

const corpus = defaultCorpus(1, 2000);
const toolCount = (c: VerifyCase) => c.deferred.length + (c.loaded?.length ?? 0);

describe("verifyAgreement on synthetic scorers", () => {
  it("the script and the same code as an ES module agree on all 2,000 cases × 3 functions", async ({ annotate }) => {
    const t0 = performance.now();
    const r = await verifyAgreement(ORIGINAL_SCRIPT, SAME_MODULE, corpus);
    const ms = performance.now() - t0;
    await annotate(`verify: ${r.cases} cases × 3 functions in ${Math.round(ms)} ms (run ${Math.round(r.durationMs.run)} ms)`);
    expect(r.firstDisagreement).toBeUndefined();
    expect(r).toMatchObject({
      cases: 2000,
      agreed: 2000,
      bothReturned: 2000,
      bothThrew: 0,
      differed: 0,
      calls: 6000,
      bothErrored: 0,
      disagreements: { searchTools: 0, scoreTools: 0, toolSearch: 0 },
    });
  });

  it("the calls really return results: some non-empty, and select:, fast paths and ranking all occur", async () => {
    const sample = corpus.slice(0, 300);
    const out = await runInSandbox(
      moduleToScript(SAME_MODULE),
      sample.map((c) => ({ fn: "toolSearch", args: callArgs(c) })),
    );
    const values = out.results.map((r) => (r.ok ? (r.value as string[]) : null));
    expect(values.every((v) => Array.isArray(v))).toBe(true);
    expect(values.filter((v) => v!.length > 0).length).toBeGreaterThan(100);
    expect(values.filter((v) => v!.length === 0).length).toBeGreaterThan(10);
    expect(values.some((v) => v!.length > 1)).toBe(true);
  });

  it("catches a weight of 5 instead of 6 and shrinks it to a small case that still disagrees", async ({ annotate }) => {
    const r = await verifyAgreement(ORIGINAL_SCRIPT, WRONG_WEIGHT_MODULE, corpus);
    expect(r.agreed).toBeLessThan(r.cases);
    expect(r.disagreements.scoreTools).toBeGreaterThan(0);
    const d = r.firstDisagreement!;
    expect(d).toBeDefined();
    expect(toolCount(d.case)).toBeLessThanOrEqual(3);
    expect(toolCount(d.case)).toBeLessThanOrEqual(toolCount(d.unshrunk.case));
    expect(d.case.query.length).toBeLessThanOrEqual(d.unshrunk.case.query.length);
    expect(d.shrinkSteps).toBeGreaterThan(0);
    expect(resultsAgree(d.original, d.emitted)).toBe(false);
    // The shrunk case, run again on its own, still disagrees, and the unshrunk one is in the corpus.
    const again = await verifyAgreement(ORIGINAL_SCRIPT, WRONG_WEIGHT_MODULE, [d.case], { fns: [d.fn], shrink: false });
    expect(again.agreed).toBe(0);
    expect(again.firstDisagreement?.original).toEqual(d.original);
    expect(again.firstDisagreement?.emitted).toEqual(d.emitted);
    expect(corpus[d.index]).toBe(d.unshrunk.case);
    await annotate(`weight 5 vs 6, shrunk: ${JSON.stringify({ fn: d.fn, case: d.case, original: d.original, emitted: d.emitted })}`);
  });

  it("catches ties ordered by name instead of input order (scores all agree)", async ({ annotate }) => {
    const r = await verifyAgreement(ORIGINAL_SCRIPT, UNSTABLE_MODULE, corpus);
    expect(r.disagreements.scoreTools).toBe(0);
    expect(r.disagreements.searchTools).toBeGreaterThan(0);
    const d = r.firstDisagreement!;
    expect(d.fn).not.toBe("scoreTools");
    expect(toolCount(d.case)).toBeLessThanOrEqual(3);
    expect(d.case.deferred.length).toBeGreaterThanOrEqual(2); // a tie needs two tools
    const again = await verifyAgreement(ORIGINAL_SCRIPT, UNSTABLE_MODULE, [d.case], { fns: [d.fn], shrink: false });
    expect(again.agreed).toBe(0);
    // Same names, other order.
    expect(d.original.ok && d.emitted.ok).toBe(true);
    if (d.original.ok && d.emitted.ok)
      expect([...(d.original.value as string[])].sort()).toEqual([...(d.emitted.value as string[])].sort());
    await annotate(`tie order, shrunk: ${JSON.stringify({ fn: d.fn, case: d.case, original: d.original, emitted: d.emitted })}`);
  });

  it("an error on one side only is a disagreement; errors on both sides agree", async () => {
    const throwsOnEmpty = SAME_MODULE.replace(
      "const max = options?.maxResults ?? 5;",
      'const max = options?.maxResults ?? 5; if (query === "") throw new Error("empty");',
    );
    const cases = corpus
      .filter((c) => c.query === "")
      .slice(0, 3)
      .concat(corpus.slice(0, 5));
    expect(cases.length).toBe(8);
    const r = await verifyAgreement(ORIGINAL_SCRIPT, throwsOnEmpty, cases, { shrink: false });
    expect(r.agreed).toBe(5);
    expect([r.bothReturned, r.bothThrew, r.differed]).toEqual([5, 0, 3]);
    expect(r.firstDisagreement?.emitted).toEqual({ ok: false, error: "Error: empty" });
    const both = await verifyAgreement(moduleToScript(throwsOnEmpty), throwsOnEmpty, cases, { shrink: false });
    expect(both.agreed).toBe(8);
    expect(both.bothErrored).toBe(3 * 2); // searchTools and toolSearch throw on each of the 3 empty queries
    // Counted by case: scoreTools returns on the empty queries, but the case threw on both sides all the same.
    expect([both.bothReturned, both.bothThrew, both.differed]).toEqual([5, 3, 0]);
  });

  it("a call that hangs on one side is a disagreement (timed out), and the other calls still agree", async () => {
    const hangs = SAME_MODULE.replace(
      "const max = options?.maxResults ?? 5;",
      'const max = options?.maxResults ?? 5; if (query === "") for (;;) {}',
    );
    const cases = [...corpus.filter((c) => c.query === "").slice(0, 3), ...corpus.filter((c) => c.query !== "").slice(0, 297)];
    const empty = cases.filter((c) => c.query === "").length;
    expect(empty).toBeGreaterThan(0);
    // Every call runs here (maxTimeouts: 0): by default the rest of a batch is not run after 3 timeouts.
    const r = await verifyAgreement(ORIGINAL_SCRIPT, hangs, cases, { shrink: false, sandbox: { callTimeoutMs: 200, maxTimeouts: 0 } });
    expect(r.agreed).toBe(cases.length - empty);
    // A call stopped by a limit never agrees: its case differed, and did not "throw on both".
    expect([r.bothReturned, r.bothThrew, r.differed]).toEqual([cases.length - empty, 0, empty]);
    expect(r.disagreements).toEqual({ searchTools: empty, scoreTools: 0, toolSearch: empty });
    expect(r.firstDisagreement?.case.query).toBe("");
    expect(r.firstDisagreement?.emitted).toEqual({
      ok: false,
      error: "timed out: the call ran for more than 200 ms (sync code and promise jobs)",
      limit: "timeout",
    });
    expect(r.firstDisagreement?.original.ok).toBe(true);
  });

  it("refuses a side that cannot be evaluated instead of calling everything an agreement", async () => {
    await expect(verifyAgreement("throw new Error('broken original')", SAME_MODULE, corpus.slice(0, 2))).rejects.toThrow(VerifySetupError);
    await expect(verifyAgreement(ORIGINAL_SCRIPT, `import x from "node:fs";\n${SAME_MODULE}`, corpus.slice(0, 2))).rejects.toThrow(
      /forbids imports/,
    );
    await expect(verifyAgreement(ORIGINAL_SCRIPT, "export const = 1", corpus.slice(0, 2))).rejects.toThrow(/does not parse/);
  });

  it("shrinking stays within its bounds, and can be turned off", async () => {
    const cases = corpus.slice(0, 200);
    const one = await verifyAgreement(ORIGINAL_SCRIPT, WRONG_WEIGHT_MODULE, cases, { maxShrinkRounds: 1 });
    expect(one.firstDisagreement!.shrinkRounds).toBe(1);
    expect(one.firstDisagreement!.shrinkSteps).toBeLessThanOrEqual(1);
    const off = await verifyAgreement(ORIGINAL_SCRIPT, WRONG_WEIGHT_MODULE, cases, { shrink: false });
    expect(off.firstDisagreement!.case).toBe(cases[off.firstDisagreement!.index]);
    expect(off.firstDisagreement!.shrinkSteps).toBe(0);
  });

  it("runs the cases split over several children per side with the same result", async () => {
    const counts: string[] = [];
    const onCases = (done: number, total: number) => void counts.push(`${done}/${total}`);
    const r = await verifyAgreement(ORIGINAL_SCRIPT, WRONG_WEIGHT_MODULE, corpus.slice(0, 400), { parallel: 3, shrink: false, onCases });
    const one = await verifyAgreement(ORIGINAL_SCRIPT, WRONG_WEIGHT_MODULE, corpus.slice(0, 400), { parallel: 1, shrink: false });
    expect(r.agreed).toBe(one.agreed);
    expect(r.disagreements).toEqual(one.disagreements);
    expect(r.firstDisagreement?.index).toBe(one.firstDisagreement?.index);
    // The count of cases both sides have run, summed over each side's three children: each hundred once.
    expect(counts).toEqual(["100/400", "200/400", "300/400", "400/400"]);
  });

  it("tells the cases run so far at each hundred and at each batch's end, never once per case", async () => {
    const counts: number[] = [];
    const r = await verifyAgreement(ORIGINAL_SCRIPT, SAME_MODULE, corpus.slice(0, 250), {
      batchCases: 120,
      onCases: (done, total) => {
        expect(total).toBe(250);
        counts.push(done);
      },
    });
    expect(r.agreed).toBe(250);
    expect(counts).toEqual([100, 120, 200, 240, 250]);
  });

  it("a verification prepared before its programs are known (the verifier's wait) finds what one unprepared does", async () => {
    const copies = () => corpus.slice(0, 400).map((c) => ({ ...c }));
    const prepared = copies();
    await prepareVerification(prepared);
    const r = await verifyAgreement(ORIGINAL_SCRIPT, WRONG_WEIGHT_MODULE, prepared, { shrink: false });
    const plain = await verifyAgreement(ORIGINAL_SCRIPT, WRONG_WEIGHT_MODULE, copies(), { shrink: false });
    expect(r.agreed).toBeLessThan(r.cases);
    expect([r.agreed, r.disagreements, r.firstDisagreement?.index]).toEqual([
      plain.agreed,
      plain.disagreements,
      plain.firstDisagreement?.index,
    ]);
  });
});

describe("moduleToScript", () => {
  const run = async (mod: string, fns: string[]) =>
    (
      await runInSandbox(
        moduleToScript(mod),
        fns.map((fn) => ({ fn, args: [] })),
      )
    ).results.map((r) => (r.ok ? r.value : `ERR ${r.error}`));

  it("handles every export form, keeps live bindings, strict mode and module `this`", async () => {
    const mod = `
      let counter = 0;
      export function bump() { return ++counter; }
      export { counter as "live count", helper as renamed };
      function helper() { return typeof this; }
      export const { a, b: [c] } = { a: 1, b: [2] };
      export class K {}
      export default 40 + 2
      export const sloppy = () => { try { undeclared = 1; return "sloppy"; } catch { return "strict"; } };
      export const top = this === undefined;`;
    expect(await run(mod, ["bump", "live count", "bump", "live count", "renamed", "a", "c", "default", "sloppy", "top"])).toEqual([
      1,
      1,
      2,
      2,
      "undefined",
      1,
      2,
      42,
      "strict",
      true,
    ]);
    const k = await run(mod, ["K"]);
    expect(k[0]).toMatch(/^ERR TypeError: Class constructor K cannot be invoked without 'new'/); // called like the contract's functions
  });

  it("supports export default function declarations and top-level await", async () => {
    expect(await run(`export default function f() { return "d"; }\nexport const g = () => f();`, ["default", "g"])).toEqual(["d", "d"]);
    expect(await run(`const v = await Promise.resolve(7);\nexport const get = () => v;`, ["get"])).toEqual([7]);
  });

  it("refuses imports and re-exports", () => {
    expect(() => moduleToScript(`import { x } from "./x.js"; export const y = x;`)).toThrow(/imports "\.\/x\.js"/);
    expect(() => moduleToScript(`export * from "./x.js";`)).toThrow(/re-exports/);
    expect(() => moduleToScript(`export { x } from "./x.js";`)).toThrow(/re-exports/);
  });
});

describe("shrinking and comparison helpers", () => {
  it("jsonEqual ignores key order only", () => {
    expect(jsonEqual([{ name: "a", score: 1 }], [{ score: 1, name: "a" }])).toBe(true);
    expect(jsonEqual(["a", "b"], ["b", "a"])).toBe(false);
    expect(jsonEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(jsonEqual([1], { 0: 1 })).toBe(false);
    expect(jsonEqual(null, {})).toBe(false);
    expect(resultsAgree({ ok: false, error: "x" }, { ok: false, error: "y" })).toBe(true);
    expect(resultsAgree({ ok: true, value: [] }, { ok: false, error: "y" })).toBe(false);
  });

  it("candidates are all strictly smaller cases", () => {
    const tool = (name: string, extra: Partial<Tool> = {}): Tool => ({ name, description: "some words here", ...extra });
    const c: VerifyCase = {
      query: "select:a, b,c d e",
      deferred: [tool("a", { searchHint: "hint", aliases: ["x", "y"], mcpInfo: { serverName: "s", toolName: "t" } }), tool("b"), tool("c")],
      loaded: [tool("L")],
      maxResults: 3,
    };
    const size = (v: VerifyCase) => JSON.stringify(v).length;
    const cands = shrinkCandidates(c);
    expect(cands.length).toBeGreaterThan(20);
    for (const v of cands) expect(size(v)).toBeLessThan(size(c));
    expect(cands).toContainEqual({ ...c, deferred: [c.deferred[1]] });
    expect(cands).toContainEqual({ ...c, loaded: [] });
    expect(cands).toContainEqual({ ...c, query: "select:a, b,c d" });
    expect(cands).toContainEqual({ ...c, query: "select:a,c d e" });
  });

  it("a field the contract does not name is shrunk away too", () => {
    const c: VerifyCase = { query: "zephyr", deferred: [{ name: "a", description: "d", title: "Zephyr" }] };
    expect(shrinkCandidates(c)).toContainEqual({ query: "zephyr", deferred: [{ name: "a", description: "d" }] });
  });
});
