/**
 * searchlift diff on samples of ours: two generations bundled and minified (as a release is), a
 * lifted module with one weight edited by hand, caps read from the newest sample's code, errors,
 * and the command line.
 */
import { spawnSync } from "node:child_process";
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

const ROOT = join(import.meta.dirname, "..", "..");
const BIN = join(ROOT, "bin", "searchlift.js");
const tmp = () => mkdtempSync(join(tmpdir(), "searchlift-diff-test-"));

function bundle(sample: string, minify = true): string {
  const out = buildSync({ entryPoints: [join(ROOT, "samples", "tool-search", `${sample}.js`)], bundle: true, format: "esm", minifyIdentifiers: minify, minifyWhitespace: minify, write: false, logLevel: "silent" });
  const file = join(tmp(), `${basename(sample)}.js`);
  writeFileSync(file, out.outputFiles[0]!.text);
  return file;
}

const changedRows = (r: DiffResult) => r.semantics.filter((s) => s.changed).map((s) => [s.feature, s.before, s.after]);
const change = (r: DiffResult, query: string) => r.behaviour.changed.find((c) => c.query === query);

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
  it("name-parts → search-hint: the generations in between appear, the name weights stay", async () => {
    const r = await diffInputs(bundle("name-parts"), bundle("search-hint"));
    expect(r.code.changed).toBe(true);
    expect(changedRows(r)).toEqual([
      ["weight: searchHint word", "—", "4"],
      ["select: comma list", "no", "yes"],
      ["select: by alias", "no", "yes"],
      ["+required terms", "no", "yes"],
      ["mcp__ prefix fast path", "no", "yes"],
      ["exact-name fast path", "no", "yes"],
      ["searchHint", "no", "yes"],
    ]);
    expect(r.semantics.find((s) => s.feature === "weight: exact part (MCP)")).toMatchObject({ before: "12", after: "12" });
    expect(change(r, "bug report")?.after[0]).toEqual({ name: "mcp__github__create_issue", score: 8 });
    expect(change(r, "mcp__slack")?.after.every((x) => x.name.startsWith("mcp__slack__") && x.score === null)).toBe(true);
    expect(change(r, "create jira issue")).toBeUndefined();
  });

  it("mcp-name-substring → mcp-server-actions: the MCPSearch weights change", async () => {
    const r = await diffInputs(bundle("mcp-name-substring"), bundle("mcp-server-actions"));
    expect(changedRows(r)).toEqual([
      ["weight: name equals term (first generation)", "10", "—"],
      ["weight: name contains term (first generation)", "5", "—"],
      ["weight: server name equals term", "—", "12"],
      ["weight: server name contains term", "—", "6"],
      ["weight: action word equals term", "—", "8"],
      ["weight: action word contains term", "—", "4"],
      ["weight: full-name fallback", "—", "3"],
      ["word-boundary description match", "no", "yes"],
    ]);
    expect(r.semantics.find((s) => s.feature === "searches")).toMatchObject({ before: "MCP tools", after: "MCP tools" });
    expect(r.behaviour.changed.length).toBeGreaterThan(0);
    // Both search MCP tools only: no built-in is ever a result.
    expect(r.behaviour.changed.every((c) => [...c.before, ...c.after].every((x) => x.name.startsWith("mcp__")))).toBe(true);
  });

  describe("a lifted module with one weight edited by hand (exact MCP part 12 → 11)", () => {
    let original: string;
    let edited: string;
    beforeAll(async () => {
      original = (await liftInput(bundle("search-hint"), { out: tmp(), verify: false })).module;
      const text = readFileSync(original, "utf8");
      const count = text.split("isMcp ? 12 : 10").length - 1;
      expect(count).toBe(2); // searchTools' and scoreTools' copies of the scorer
      const dir = join(tmp(), "edited");
      mkdirSync(dir);
      edited = join(dir, "tool-search.mjs");
      writeFileSync(edited, text.replaceAll("isMcp ? 12 : 10", "isMcp ? 11 : 10"));
    });

    it("shows exactly that change in the code and the table", async () => {
      const r = await diffInputs(original, edited);
      expect(r.code.changed).toBe(true);
      const lines = r.code.diff.split("\n").filter((l) => /^[-+](?![-+])/.test(l));
      expect(lines).toHaveLength(4);
      expect(lines.filter((l) => l.startsWith("-")).every((l) => l.includes("isMcp ? 12 : 10"))).toBe(true);
      expect(lines.filter((l) => l.startsWith("+")).every((l) => l.includes("isMcp ? 11 : 10"))).toBe(true);
      expect(changedRows(r)).toEqual([["weight: exact part (MCP)", "12", "11"]]);
    });

    it("lists the queries whose MCP results matched a whole part, and no others", async () => {
      const r = await diffInputs(original, edited);
      expect(r.behaviour.queries).toBe(DEFAULT_QUERIES.length);
      // "create github issue" matches three whole parts of mcp__github__create_issue: 3 × (12 − 11).
      const c = change(r, "create github issue")!;
      expect(c.before[0]).toEqual({ name: "mcp__github__create_issue", score: 42 });
      expect(c.after[0]).toEqual({ name: "mcp__github__create_issue", score: 39 });
      // Built-ins, select: and fast paths do not use the weight.
      for (const q of ["jupyter notebook", "plan mode", "select:mcp__github__create_issue", "select:WebFetch,WebSearch", "mcp__slack", "NotebookEdit"]) expect(change(r, q)).toBeUndefined();
      // Every change lowers scores (never raises one), and only MCP tools' scores.
      for (const ch of r.behaviour.changed) {
        const before = new Map(ch.before.map((x) => [x.name, x.score]));
        for (const x of ch.after) {
          if (!before.has(x.name)) continue;
          if (before.get(x.name) !== x.score) {
            expect(x.name.startsWith("mcp__")).toBe(true);
            expect(x.score!).toBeLessThan(before.get(x.name)!);
          }
        }
      }
      // The same module on both sides (a folder holding it on one side): nothing.
      const same = await diffInputs(dirname(original), original);
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
    expect((await rejection(diffInputs(join(tmp(), "missing.js"), good))).exitCode).toBe(ExitCode.unreadable);
    // A scorer that reads a weight from process.env is refused.
    expect((await rejection(diffInputs(good, bundle("../lift/env-weight")))).exitCode).toBe(ExitCode.notLiftable);
    const d = tmp();
    writeFileSync(join(d, "throws.mjs"), 'throw new Error("boom");\nexport { searchTools, scoreTools, toolSearch };\n');
    expect((await rejection(diffInputs(join(d, "throws.mjs"), good))).exitCode).toBe(ExitCode.brokenModule);
    writeFileSync(join(d, "fails.mjs"), "export async function searchTools() { throw new Error('no'); }\nexport const scoreTools = searchTools, toolSearch = searchTools;\n");
    const e = await rejection(diffInputs(join(d, "fails.mjs"), good));
    expect(e.exitCode).toBe(ExitCode.brokenModule);
    expect(e.message).toMatch(/failed on query/);
  });
});

describe("searchlift diff (command line)", () => {
  const run = (...args: string[]) => {
    const r = spawnSync(process.execPath, [BIN, "diff", ...args], { encoding: "utf8", timeout: 300_000 });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };

  it("prints the three views, or one JSON object, and exits 0 whether or not anything changed", () => {
    const a = bundle("required-terms");
    const b = bundle("search-hint");
    const human = run(a, b);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^== code ==$/m);
    expect(human.stdout).toMatch(/^\* weight: searchHint word +— +4$/m);
    expect(human.stdout).toMatch(/^== behaviour: \d+ of \d+ queries changed/m);
    expect(human.stdout).toMatch(/^"bug report"\n {2}before: \(none\)\n {2}after: {2}mcp__github__create_issue 8/m);

    const json = run(a, b, "--json");
    expect(json.code).toBe(0);
    const r = JSON.parse(json.stdout);
    expect(Object.keys(r)).toEqual(["a", "b", "code", "semantics", "behaviour"]);
    expect(r.a).toEqual({ input: a, version: "unknown", platform: "npm" });
    expect(r.code.changed).toBe(true);
    expect(r.semantics[0]).toHaveProperty("changed");
    expect(r.behaviour.queries).toBe(DEFAULT_QUERIES.length);

    const keep = tmp();
    const same = run(a, a, "--out", keep);
    expect(existsSync(join(keep, "a", "unknown", "unknown", "npm", "tool-search.mjs"))).toBe(true);
    expect(existsSync(join(keep, "b", "unknown", "unknown", "npm", "tool-search.mjs"))).toBe(true);
    expect(same.code).toBe(0);
    expect(same.stdout).toMatch(/^no code change$/m);
    expect(same.stdout).toMatch(/^no behaviour change$/m);
  });

  it("exits with the error's code and one line on stderr", () => {
    const r = run(join(tmp(), "nope.js"), bundle("search-hint"));
    expect(r.code).toBe(ExitCode.unreadable);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stdout).toBe("");
  });
});
