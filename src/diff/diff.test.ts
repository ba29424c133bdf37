/**
 * searchlift diff on samples of ours: two generations bundled and minified (as a release is), a
 * lifted module with one weight edited by hand, caps read from the newest sample's code, errors,
 * and the command line.
 */
import { buildSync } from "esbuild";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ExitCode, SearchliftError } from "../errors.js";
import { liftInput } from "../lift/lift.js";
import { defaultCatalog, DEFAULT_QUERIES } from "../routines/tool-search/catalogs.js";
import { diffInputs, type DiffResult } from "./diff.js";
import { moduleSemantics } from "../routines/tool-search/semantics.js";
import { ROOT, runCli } from "../../test/helpers/cli.js";
import { toolSearchPack } from "../routines/tool-search/index.js";

const tmp = () => mkdtempSync(join(tmpdir(), "searchlift-diff-test-"));

function bundle(sample: string, minify = true): string {
  const out = buildSync({
    entryPoints: [join(ROOT, "samples", "tool-search", `${sample}.js`)],
    bundle: true,
    format: "esm",
    minifyIdentifiers: minify,
    minifyWhitespace: minify,
    write: false,
    logLevel: "silent",
  });
  const file = join(tmp(), `${basename(sample)}.js`);
  writeFileSync(file, out.outputFiles[0]!.text);
  return file;
}

const row = (r: DiffResult, feature: string) => {
  const found = r.semantics.find((s) => s.feature === feature);
  if (!found) throw new Error(`no row ${feature}`);
  return [found.before, found.after];
};
const changedFeatures = (r: DiffResult) => r.semantics.filter((s) => s.changed).map((s) => s.feature);

async function rejection(p: Promise<unknown>): Promise<SearchliftError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof SearchliftError) return e;
    throw e;
  }
  throw new Error("expected a SearchliftError");
}

describe("catalog", () => {
  it("has a few hundred distinct tools, MCP and built-in, and about a hundred queries", () => {
    const c = defaultCatalog();
    expect(c.length).toBeGreaterThanOrEqual(250);
    expect(new Set(c.map((t) => t.name)).size).toBe(c.length);
    expect(c.filter((t) => !t.isMcp).length).toBeGreaterThanOrEqual(10);
    expect(c.every((t) => t.description.length > 0)).toBe(true);
    expect(DEFAULT_QUERIES.length).toBeGreaterThanOrEqual(100);
  });
});

describe("searchlift diff on samples", () => {
  it("name-parts → search-hint: the generations in between appear as probe rows, the name weights stay", async () => {
    const r = await diffInputs(bundle("name-parts"), bundle("search-hint"), { pack: toolSearchPack });
    expect(r.code.changed).toBe(true);
    // required-terms.js: `+term`, a query equal to a name (any case), an mcp__ prefix; search-hint.js: select:
    // lists by name or alias, and a searchHint word +4.
    for (const f of [
      "+required terms",
      "exact name in another case",
      "mcp__ prefix: a server's tools",
      "select: comma list",
      "select: by alias",
      "searchHint words count",
    ])
      expect(row(r, f), f).toEqual(["no", "yes"]);
    expect(row(r, "adds: searchHint word, whole / part")).toEqual(["0 / 0", "4 / 0"]);
    // Exact part 12 (MCP) / 10 (built-in), substring 6/5, description word 2: the same in both generations.
    for (const s of r.semantics.filter((x) => x.feature.startsWith("adds: ") && !x.feature.startsWith("adds: searchHint")))
      expect(s.changed, s.feature).toBe(false);
    expect(row(r, "adds: name part, exact / partial")).toEqual(["12 / 6 (built-in 10 / 5)", "12 / 6 (built-in 10 / 5)"]);
    expect(r.behaviour.sentences.some((l) => /`\+required` terms/.test(l))).toBe(true);
    expect(r.behaviour.sentences.some((l) => /comma-separated list/.test(l))).toBe(true);
    expect(r.behaviour.sentences.some((l) => /searchHint/.test(l))).toBe(true);
    expect(r.behaviour.changed.length).toBeGreaterThan(0);
  });

  it("mcp-name-substring → mcp-server-actions: the MCPSearch weights change", async () => {
    const r = await diffInputs(bundle("mcp-name-substring"), bundle("mcp-server-actions"), { pack: toolSearchPack });
    // A name containing the term +5 (and equal to it +10) → a server name +12 / +6, an action word +8 / +4: beyond
    // what a term inside the name adds anyway, a server or action word adds nothing before and its weight after.
    expect(row(r, "adds: MCP server name part, exact / partial")).toEqual(["0 / 0", "12 / 6"]);
    expect(row(r, "adds: name part, exact / partial")[1]).toMatch(/^8 \/ 4 /);
    // A description substring counted before; only a whole word after.
    expect(row(r, "description: part of a word")).toEqual(["yes", "no"]);
    expect(row(r, "description: whole word")).toEqual(["yes", "yes"]);
    expect(r.behaviour.changed.length).toBeGreaterThan(0);
    expect(row(r, "keyword search: MCP tools")).toEqual(["yes", "yes"]);
    expect(r.behaviour.changed.every((w) => w.summary.startsWith(w.function))).toBe(true);
  });

  describe("a lifted module with one weight edited by hand (exact MCP part 12 → 11)", () => {
    let original: string;
    let edited: string;
    beforeAll(async () => {
      original = (await liftInput(bundle("search-hint"), { out: tmp(), verify: false, pack: toolSearchPack })).module;
      const text = readFileSync(original, "utf8");
      const count = text.split("isMcp ? 12 : 10").length - 1;
      expect(count).toBe(2); // searchTools' and scoreTools' copies of the scorer
      const dir = join(tmp(), "edited");
      mkdirSync(dir);
      edited = join(dir, "tool-search.mjs");
      writeFileSync(edited, text.replaceAll("isMcp ? 12 : 10", "isMcp ? 11 : 10"));
    });

    it("shows exactly that change in the code, the probe rows and the witnesses", async () => {
      const r = await diffInputs(original, edited, { pack: toolSearchPack });
      expect(r.code.changed).toBe(true);
      const lines = r.code.diff.split("\n").filter((l) => /^[-+](?![-+])/.test(l));
      expect(lines).toHaveLength(4);
      expect(lines.filter((l) => l.startsWith("-")).every((l) => l.includes("isMcp ? 12 : 10"))).toBe(true);
      expect(lines.filter((l) => l.startsWith("+")).every((l) => l.includes("isMcp ? 11 : 10"))).toBe(true);
      // An exact MCP name part, server or tool, adds 11 where it added 12; built-ins keep 10.
      expect(row(r, "adds: MCP server name part, exact / partial")).toEqual(["12 / 6", "11 / 6"]);
      expect(row(r, "adds: name part, exact / partial")).toEqual(["12 / 6 (built-in 10 / 5)", "11 / 6 (built-in 10 / 5)"]);
      expect(changedFeatures(r).every((f) => f.startsWith("adds: "))).toBe(true);
      expect(r.behaviour.sentences).toContain(
        'an exact name part now adds 11 for an MCP tool (was 12; 10 for a built-in): scoreTools `"charlie"` on mcp__alpha__bravo_charlie scores 12 → 11',
      );
      expect(r.behaviour.changed.length).toBeGreaterThan(0);
      for (const w of r.behaviour.changed) {
        // toolSearch's select: looks names up: the weight cannot change it (scoreTools scores any query as words).
        if (w.function === "toolSearch") expect(w.query.trim().toLowerCase().startsWith("select:"), w.summary).toBe(false);
        if (w.function !== "scoreTools" || !Array.isArray(w.before) || !Array.isArray(w.after)) continue;
        // Every score that changed is an MCP tool's (mcpInfo, else an mcp__server__tool name), and lower.
        const mcp = new Set(
          [...w.deferred, ...w.loaded].filter((t) => t.mcpInfo !== undefined || t.name.startsWith("mcp__")).map((t) => t.name),
        );
        const before = new Map((w.before as Array<{ name: string; score: number }>).map((x) => [x.name, x.score]));
        for (const x of w.after as Array<{ name: string; score: number }>) {
          if (before.get(x.name) === x.score) continue;
          expect(mcp.has(x.name), w.summary).toBe(true);
          expect(x.score).toBeLessThan(before.get(x.name)!);
        }
      }
      // The same module on both sides (a folder holding it on one side): nothing.
      const same = await diffInputs(dirname(original), original, { pack: toolSearchPack });
      expect([same.code.changed, same.semantics.some((s) => s.changed), same.behaviour.changed.length]).toEqual([false, false, 0]);
    });
  });

  it("reads the caps of the newest generation (query 16384 characters, 32 words, 64 select names, searchHint 4096)", () => {
    const rows = new Map(moduleSemantics(readFileSync(bundle("session-cache", false), "utf8")).map((r) => [r.feature, r.value]));
    expect(rows.get("query cap (characters)")).toBe("16384");
    expect(rows.get("query cap (words)")).toBe("32");
    expect(rows.get("select: cap (names)")).toBe("64");
    expect(rows.get("searchHint cap (characters)")).toBe("4096");
    expect(rows.get("coarse parts")).toBe("yes");
  });

  it("reads weights held in constants and lists a rule it does not know by its test", () => {
    const text = [
      "const EXACT_MCP = 12;",
      "function createReleaseSearch() {",
      "  async function search(query, tools) {",
      "    for (const tool of tools) {",
      "      let parsed = parse(tool), score = 0;",
      "      for (const term of query.split(/\\s+/)) {",
      "        if (parsed.parts.includes(term)) score += parsed.isMcp ? EXACT_MCP : 10;",
      "        if (tool.owner === term) score += 7;",
      "      }",
      "    }",
      "  }",
      "  return { search };",
      "}",
    ].join("\n");
    const rows = new Map(moduleSemantics(text).map((r) => [r.feature, r.value]));
    expect(rows.get("weight: exact part (MCP)")).toBe("12");
    expect(rows.get("weight: exact part (built-in)")).toBe("10");
    expect(rows.get("weight: other rule if (tool.owner === term)")).toBe("7");
    expect(rows.get("weight: searchHint word")).toBe("—");
    expect(rows.get("select: lookup")).toBe("no");
  });

  it("fails with one SearchliftError per cause", async () => {
    const good = bundle("search-hint");
    expect((await rejection(diffInputs(join(tmp(), "missing.js"), good, { pack: toolSearchPack }))).exitCode).toBe(ExitCode.unreadable);
    // A scorer that reads a weight from process.env is refused.
    expect((await rejection(diffInputs(good, bundle("../lift/env-weight"), { pack: toolSearchPack }))).exitCode).toBe(ExitCode.notLiftable);
    const d = tmp();
    writeFileSync(join(d, "throws.mjs"), 'throw new Error("boom");\nexport { searchTools, scoreTools, toolSearch };\n');
    expect((await rejection(diffInputs(join(d, "throws.mjs"), good, { pack: toolSearchPack }))).exitCode).toBe(ExitCode.brokenModule);
    // A module whose every call throws runs: its errors are answers, and the witnesses say so.
    writeFileSync(
      join(d, "fails.mjs"),
      "export async function searchTools() { throw new Error('no'); }\nexport const scoreTools = searchTools, toolSearch = searchTools;\n",
    );
    const r = await diffInputs(join(d, "fails.mjs"), good, { pack: toolSearchPack });
    expect(r.behaviour.changed.length).toBeGreaterThan(0);
    for (const w of r.behaviour.changed) expect(w.before).toEqual({ error: "Error: no" });
    expect(r.behaviour.sentences.some((l) => /no longer throws \(Error: no\)/.test(l))).toBe(true);
  });
});

describe("searchlift diff (command line)", () => {
  const run = (...args: string[]) => runCli(["diff", ...args], { timeout: 300_000 });

  it("prints the three views, or one JSON object, and exits 0 whether or not anything changed", () => {
    const a = bundle("required-terms");
    const b = bundle("search-hint");
    const human = run(a, b);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^== code ==$/m);
    expect(human.stdout).toMatch(/^\* adds: searchHint word, whole \/ part +0 \/ 0 +4 \/ 0$/m);
    expect(human.stdout).toMatch(/^== behaviour: \d+ witness(es)? in \d+ cases \([\d.]+ s\) ==$/m);
    expect(human.stdout).toMatch(/^- .*`select:` now also takes a comma-separated list/m);

    const json = run(a, b, "--json");
    expect(json.code).toBe(0);
    type Row = Record<string, unknown>;
    const r = JSON.parse(json.stdout) as { a: Row; code: Row; semantics: Row[]; behaviour: { changed: Row[] } };
    expect(Object.keys(r)).toEqual(["a", "b", "code", "semantics", "behaviour"]);
    expect(r.a).toEqual({ input: a, version: "unknown", platform: "npm" });
    expect(r.code.changed).toBe(true);
    expect(r.semantics[0]).toHaveProperty("changed");
    expect(Object.keys(r.behaviour)).toEqual(["searched", "seconds", "coverage", "changed", "sentences"]);
    expect(r.semantics[0]).toEqual({
      feature: expect.any(String) as unknown,
      before: expect.any(String) as unknown,
      after: expect.any(String) as unknown,
      changed: expect.any(Boolean) as unknown,
    });
    // maxResults where the call gave one; rule where calls made from the witness could tell it (docs/commands.md).
    for (const w of r.behaviour.changed) {
      expect(Object.keys(w).filter((k) => k !== "maxResults")).toEqual([
        "function",
        "query",
        "deferred",
        "loaded",
        "before",
        "after",
        "summary",
        ...("rule" in w ? ["rule"] : []),
      ]);
      if ("rule" in w) expect(w.rule).toMatch(/^\S.*: /);
    }

    const keep = tmp();
    const same = run(a, a, "--out", keep);
    expect(existsSync(join(keep, "a", "unknown", "unknown", "npm", "tool-search.mjs"))).toBe(true);
    expect(existsSync(join(keep, "b", "unknown", "unknown", "npm", "tool-search.mjs"))).toBe(true);
    expect(same.code).toBe(0);
    expect(same.stdout).toMatch(/^no code change$/m);
    expect(same.stdout).toMatch(/^no behaviour difference found in \d+ cases/m);
  });

  it("exits with the error's code and one line on stderr", () => {
    const r = run(join(tmp(), "nope.js"), bundle("search-hint"));
    expect(r.code).toBe(ExitCode.unreadable);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stdout).toBe("");
  });
});
