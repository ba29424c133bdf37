/**
 * `searchlift check` as a process (`node bin/searchlift.js check …` after the build), against the sample
 * releases 0.5.0 and 0.7.0 lifted by `lift`. The expected ranks follow from the sample scorers' rules
 * (samples/tool-search/search-hint.js for 0.5.0, session-cache.js for 0.7.0): an MCP name part equal to a term
 * +12, containing it +6; a hint word +4; a description word +2; and in 0.7.0 only, the whole server or tool
 * name equal to the term +12 more, containing it +4. `select:` finds a name among the deferred tools, then
 * among all tools. The live server is samples/mcp-server/server.mjs (the official SDK over stdio).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, sep } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ExitCode } from "../src/errors.js";
import type { CheckSummary } from "../src/check/check.js";
import { ROOT, runCli, runCliAsync, type CliRun } from "./helpers/cli.js";

const SERVER = `node ${join(ROOT, "samples", "mcp-server", "server.mjs")}`;
const SKIP_REAL = process.env.SEARCHLIFT_SKIP_REAL === "1";

/** Progress on, as a user has it (the suite turns it off, vitest.config.ts); stderr is not a terminal here. */
const AS_USER = { SEARCHLIFT_QUIET: "" };

const tmp = () => realpathSync(mkdtempSync(join(tmpdir(), `searchlift-check-${process.pid}-`)));

function run(args: string[], env: Record<string, string> = {}) {
  // A given env replaces the process's own for the keys it names (HOME, PATH, … of a fake machine).
  return runCli(args, { timeout: 300_000, cwd: ROOT, env });
}

function findModule(dir: string): string {
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile() && e.name === "tool-search.mjs") return join(e.parentPath, e.name);
  }
  throw new Error(`no tool-search.mjs under ${dir}`);
}

interface TermScore {
  term: string;
  score: number;
  nameOnly: number;
  hint: number;
  description: number;
}

interface CheckJson {
  server: string;
  releases: Array<{ version: string; platform: string; module: string }>;
  results: Array<{
    tool: string;
    query: string;
    ranks: Record<string, number | null>;
    explain?: Record<string, { score: number; terms: TermScore[] }>;
  }>;
  unfound: Array<{ tool: string; releases: string[]; reasons: Record<string, string> }>;
  loaded: string[];
  summary: CheckSummary;
  queries: Array<{ text: string; owners: string[] }>;
  expectations: Array<{
    query: string;
    tool: string;
    rank: number | null;
    releases?: string[];
    results: Record<string, { rank: number | null; met: boolean }>;
    reasons: Record<string, string>;
  }>;
  renamed: Record<string, string>;
  warnings: string[];
  competitors: Array<{ tool: string; query: string; ranks: Record<string, number | null> }>;
}

function checkJson(args: string[]): CheckJson {
  const r = run(["check", ...args, "--json"]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as CheckJson;
}

const ranksOf = (j: CheckJson, query: string, tool: string) => j.results.find((x) => x.query === query && x.tool === tool)?.ranks;

let releases = "";
let dir = "";

beforeAll(() => {
  dir = tmp();
  const modules = ["0.5.0", "0.7.0"].map((v) => {
    const out = join(dir, v);
    const r = run(["lift", join(ROOT, "samples", "releases", v), "--out", out]);
    expect(r.code, r.stderr).toBe(0);
    return findModule(out);
  });
  releases = modules.join(",");
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Tools of a server "acme" whose ranks for "report" differ between 0.5.0 and 0.7.0 (see the header). */
function acmeTools(): string {
  const file = join(dir, "acme.json");
  writeFileSync(
    file,
    JSON.stringify({
      tools: [
        { name: "report", description: "Build a summary" }, // 0.5.0: 12; 0.7.0: 12 + 12 (whole tool name) = 24
        { name: "report_export", description: "Export the monthly report as PDF" }, // 0.5.0: 12 + 2 = 14; 0.7.0: 12 + 4 + 2 = 18
        { name: "fetch_data", description: "Fetch rows", _meta: { "anthropic/searchHint": "report spreadsheet" } }, // 4 on both
        { name: "report_status", description: "Status of a report", _meta: { "anthropic/alwaysLoad": true } },
      ],
    }),
  );
  return file;
}

describe("check --tools", () => {
  it("ranks exactly as each release's scorer scores, hint and alwaysLoad included", () => {
    const j = checkJson([
      "--tools",
      acmeTools(),
      "--server-name",
      "acme",
      "--releases",
      releases,
      "--query",
      "report",
      "--query",
      "select:mcp__acme__report_status",
      "--query",
      "select:report",
    ]);
    expect(j.releases.map((r) => [r.version, r.platform])).toEqual([
      ["0.5.0", "npm"],
      ["0.7.0", "npm"],
    ]);
    expect(ranksOf(j, "report", "mcp__acme__report")).toEqual({ "0.5.0": 2, "0.7.0": 1 });
    expect(ranksOf(j, "report", "mcp__acme__report_export")).toEqual({ "0.5.0": 1, "0.7.0": 2 });
    expect(ranksOf(j, "report", "mcp__acme__fetch_data")).toEqual({ "0.5.0": 3, "0.7.0": 3 });
    // A query's rows read best placed first: report_export and report both come first somewhere, and
    // report_export does on the first release. Where no release returns a tool, the catalog's order stays.
    const order = (query: string) => j.results.filter((r) => r.query === query).map((r) => r.tool);
    expect(order("report")).toEqual(["mcp__acme__report_export", "mcp__acme__report", "mcp__acme__fetch_data"]);
    expect(order("select:report")).toEqual(["mcp__acme__report", "mcp__acme__report_export", "mcp__acme__fetch_data"]);
    // Always loaded: never a deferred result, never unfound, but `select:` falls back to all tools.
    expect(j.loaded).toEqual(["mcp__acme__report_status"]);
    expect(ranksOf(j, "report", "mcp__acme__report_status")).toBeUndefined();
    expect(ranksOf(j, "select:mcp__acme__report_status", "mcp__acme__report_status")).toEqual({ "0.5.0": 1, "0.7.0": 1 });
    // No bare-name select in either release.
    expect(ranksOf(j, "select:report", "mcp__acme__report")).toEqual({ "0.5.0": null, "0.7.0": null });
    expect(j.unfound).toEqual([]);
  });

  it("--with adds competitors that take places but are not reported", () => {
    const rival = join(dir, "rival.json");
    // mcp__rival__report "Create a report": 0.5.0: 12 + 2 = 14 (after report_export's 14: ours come first);
    // 0.7.0: 12 + 12 + 2 = 26, above report's 24.
    writeFileSync(rival, JSON.stringify({ serverName: "rival", tools: [{ name: "report", description: "Create a report" }] }));
    const j = checkJson(["--tools", acmeTools(), "--server-name", "acme", "--with", rival, "--releases", releases, "--query", "report"]);
    expect(ranksOf(j, "report", "mcp__acme__report")).toEqual({ "0.5.0": 3, "0.7.0": 2 });
    expect(ranksOf(j, "report", "mcp__acme__report_export")).toEqual({ "0.5.0": 1, "0.7.0": 3 });
    expect(j.results.some((r) => r.tool.startsWith("mcp__rival__"))).toBe(false);
    // The places they take are said: in the JSON apart, in the tables among the server's tools, marked.
    expect(j.competitors).toEqual([{ tool: "mcp__rival__report", query: "report", ranks: { "0.5.0": 2, "0.7.0": 1 } }]);
    const text = run([
      "check",
      "--tools",
      acmeTools(),
      "--server-name",
      "acme",
      "--with",
      rival,
      "--releases",
      releases,
      "--query",
      "report",
    ]);
    expect(text.stdout).toContain(
      [
        '"report"',
        "  tool                         0.5.0  0.7.0",
        "  mcp__acme__report_export     1      3",
        "  mcp__rival__report (--with)  2      1",
        "  mcp__acme__report            3      2",
        "  mcp__acme__fetch_data        4      4",
        "",
      ].join("\n"),
    );
  });

  it("--loaded makes a tool of ours loaded (not searched, still selectable) and adds loaded tools that take no places", () => {
    const loaded = join(dir, "loaded.json");
    // acme's report, now loaded; rival's report, which --with puts above ours in 0.7.0, loaded takes no place.
    writeFileSync(loaded, JSON.stringify({ serverName: "rival", tools: [{ name: "report", description: "Create a report" }] }));
    const ours = join(dir, "acme-loaded.json");
    writeFileSync(ours, JSON.stringify({ serverName: "acme", tools: [{ name: "report" }] }));
    const j = checkJson([
      "--tools",
      acmeTools(),
      "--server-name",
      "acme",
      "--loaded",
      loaded,
      "--loaded",
      ours,
      "--releases",
      releases,
      "--query",
      "report",
      "--query",
      "select:mcp__acme__report",
    ]);
    expect(j.loaded.sort()).toEqual(["mcp__acme__report", "mcp__acme__report_status"]);
    expect(ranksOf(j, "report", "mcp__acme__report")).toBeUndefined();
    expect(ranksOf(j, "report", "mcp__acme__report_export")).toEqual({ "0.5.0": 1, "0.7.0": 1 });
    expect(ranksOf(j, "select:mcp__acme__report", "mcp__acme__report")).toEqual({ "0.5.0": 1, "0.7.0": 1 });
    expect(j.results.some((r) => r.tool.startsWith("mcp__rival__"))).toBe(false);
    expect(j.unfound).toEqual([]);
  });

  it("takes a bare array and names the server after the file; --markdown prints tables", () => {
    const file = join(dir, "my.server.json");
    writeFileSync(file, JSON.stringify([{ name: "ping", description: "Check the connection" }]));
    const r = run(["check", "--tools", file, "--releases", releases, "--markdown"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("| `mcp__my_server__ping` | 1 | 1 |");
    expect(r.stdout).toContain("| tool | 0.5.0 | 0.7.0 |");
    expect(r.stdout).toContain("Every tool is returned by one of its own queries on every release.");
  });

  it("a query of the user's counts the many tools no release returned instead of listing them", () => {
    const file = join(dir, "many.json");
    const others = ["alpha", "beta", "gamma", "delta", "epsilon"].map((name) => ({ name, description: `The ${name} step` }));
    writeFileSync(file, JSON.stringify([{ name: "ping", description: "Check the connection" }, ...others]));
    const args = ["check", "--tools", file, "--server-name", "many", "--releases", releases, "--query", "ping"];
    const text = run(args);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(
      ['"ping"', "  tool             0.5.0  0.7.0", "  mcp__many__ping  1      1", "  5 more tools, returned by no release", ""].join("\n"),
    );
    // The five miss "ping" for one reason, said once above them.
    expect(text.stdout).toMatch(
      /\n {2}5 tools on 0\.5\.0, 0\.7\.0: "ping": scores 0; [^\n]*:\n {4}mcp__many__alpha\n {4}mcp__many__beta\n {4}mcp__many__gamma\n {4}mcp__many__delta\n {4}mcp__many__epsilon\n/,
    );
    const md = run([...args, "--markdown"]);
    expect(md.stdout).toContain("| `mcp__many__ping` | 1 | 1 |\n\n5 more tools, returned by no release.\n");
    expect(md.stdout).not.toContain("mcp__many__alpha` |");
    // JSON keeps every row.
    const j = JSON.parse(run([...args, "--json"]).stdout) as CheckJson;
    expect(j.results.filter((r) => r.query === "ping")).toHaveLength(6);
    expect(ranksOf(j, "ping", "mcp__many__alpha")).toEqual({ "0.5.0": null, "0.7.0": null });
  });

  it("--fail-on-unfound exits unfound when a tool's own queries miss it; without it the run succeeds", () => {
    const args = ["check", "--tools", acmeTools(), "--server-name", "acme", "--releases", releases, "--query", "spreadsheet"];
    const plain = run(args);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toMatch(/unfound: returned by none of their own queries\n {2}mcp__acme__report on 0\.5\.0, 0\.7\.0/);
    const failing = run([...args, "--fail-on-unfound", "--json"]);
    expect(failing.code).toBe(ExitCode.unfound);
    const j = JSON.parse(failing.stdout) as CheckJson;
    // Only fetch_data has "spreadsheet" (in its hint); the other deferred tools are unfound on both releases.
    expect(j.unfound.map((u) => u.tool).sort()).toEqual(["mcp__acme__report", "mcp__acme__report_export"]);
    expect(ranksOf(j, "spreadsheet", "mcp__acme__fetch_data")).toEqual({ "0.5.0": 1, "0.7.0": 1 });
    expect(run([...args, "--query", "report", "--fail-on-unfound"]).code).toBe(0);
  });

  it("refuses a file that is not a tools list (usage) and one that is missing (unreadable)", () => {
    const bad = join(dir, "bad.json");
    writeFileSync(bad, JSON.stringify({ tools: [{ description: "no name" }] }));
    const r = run(["check", "--tools", bad, "--releases", releases]);
    expect(r.code).toBe(ExitCode.usage);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(run(["check", "--tools", join(dir, "absent.json"), "--releases", releases]).code).toBe(ExitCode.unreadable);
    expect(run(["check", "--releases", releases]).code).toBe(ExitCode.usage);
  });
});

/** samples/check-modules/capped.mjs: a name part +10; a word of the description's first 40 characters +2, of
 *  the hint's first 20 +4; select: by full name only. */
const CAPPED = join(ROOT, "samples", "check-modules", "capped.mjs");
function cappedTools(): string {
  const file = join(dir, "capped-one.json");
  writeFileSync(file, JSON.stringify({ serverName: "acme", tools: [{ name: "report", description: "Build a summary" }] }));
  return file;
}

describe("check: reasons for unfound tools, read from the release", () => {
  function cappedCase(): string[] {
    const ours = join(dir, "capped-ours.json");
    writeFileSync(
      ours,
      JSON.stringify({
        serverName: "acme",
        tools: [
          { name: "report", description: "Build a summary" }, // "summary": 2, below five rivals' 10
          { name: "fetch_rows", description: "Reads rows from the warehouse in pages; each page is a spreadsheet" }, // "spreadsheet" ends at 66
          { name: "archive", description: "Moves old items away", _meta: { "anthropic/searchHint": "cold storage for old ledger files" } }, // "ledger" ends at 26
          { name: "geo.find", description: "Finds places" },
        ],
      }),
    );
    const rival = join(dir, "capped-rival.json");
    writeFileSync(rival, JSON.stringify({ serverName: "rival", tools: ["a", "b", "c", "d", "e"].map((x) => ({ name: `summary_${x}` })) }));
    return [
      "--tools",
      ours,
      "--with",
      rival,
      "--releases",
      CAPPED,
      "--query",
      "summary",
      "--query",
      "spreadsheet",
      "--query",
      "ledger",
      "--query",
      "select:geo.find",
      "--query",
      "nothing here",
    ];
  }

  it("names the rival to beat, a word past what the release reads (description, hint) and a missing bare-name select", () => {
    const j = checkJson(cappedCase());
    const reason = (tool: string) => j.unfound.find((u) => u.tool === tool)?.reasons["0.9.0"];
    expect(j.unfound.map((u) => u.tool)).toEqual([
      "mcp__acme__report",
      "mcp__acme__fetch_rows",
      "mcp__acme__archive",
      "mcp__acme__geo_find",
    ]);
    expect(reason("mcp__acme__report")).toBe(
      '"summary": 5 tools rank above it; the last of the 5 returned, mcp__rival__summary_e, scores 10 to its 2 (and 4 other queries missed it)',
    );
    expect(reason("mcp__acme__fetch_rows")).toBe(
      '"spreadsheet": scores 0; its words occur in its description only after character 40, past the part this release reads (and 4 other queries missed it)',
    );
    expect(reason("mcp__acme__archive")).toBe(
      '"ledger": scores 0; its words occur in its search hint only after character 20, past the part this release reads (and 4 other queries missed it)',
    );
    expect(reason("mcp__acme__geo_find")).toBe(
      '"select:geo.find": this release has no bare-name select: (only select:mcp__acme__geo_find finds it) (and 4 other queries missed it)',
    );
  });

  it("prints one line per unfound tool (text and Markdown) and still exits unfound with --fail-on-unfound", () => {
    const text = run(["check", ...cappedCase()]);
    expect(text.code, text.stderr).toBe(0);
    const lines = text.stdout.split("\n");
    const unfound = lines.slice(lines.indexOf("unfound: returned by none of their own queries") + 1).filter(Boolean);
    expect(unfound).toHaveLength(4);
    expect(unfound[3]).toBe(
      // The name the server lists is shown beside the client's, which the renaming changed.
      '  mcp__acme__geo_find (geo.find) on 0.9.0: "select:geo.find": this release has no bare-name select: (only select:mcp__acme__geo_find finds it) (and 4 other queries missed it)',
    );
    const md = run(["check", ...cappedCase(), "--markdown", "--fail-on-unfound"]);
    expect(md.code).toBe(ExitCode.unfound);
    expect(md.stdout).toContain("**4 tools not found by their own queries:**");
    expect(md.stdout).toContain(
      '- `mcp__acme__report` on 0.9.0: "summary": 5 tools rank above it; the last of the 5 returned, mcp__rival__summary_e, scores 10 to its 2',
    );
  });
});

describe("check --explain", () => {
  it("gives each returned tool's score per word and what name, hint and description add, per release", () => {
    const j = checkJson([
      "--tools",
      acmeTools(),
      "--server-name",
      "acme",
      "--releases",
      releases,
      "--query",
      "report",
      "--query",
      "select:report",
      "--explain",
    ]);
    const explained = (tool: string) => j.results.find((r) => r.query === "report" && r.tool === tool)?.explain;
    const term = (score: number, nameOnly: number, hint: number, description: number): TermScore => ({
      term: "report",
      score,
      nameOnly,
      hint,
      description,
    });
    // See the header: 0.7.0 adds the whole-name bonuses; the hint word +4; the description word +2.
    expect(explained("mcp__acme__report")).toEqual({
      "0.5.0": { score: 12, terms: [term(12, 12, 0, 0)] },
      "0.7.0": { score: 24, terms: [term(24, 24, 0, 0)] },
    });
    expect(explained("mcp__acme__report_export")).toEqual({
      "0.5.0": { score: 14, terms: [term(14, 12, 0, 2)] },
      "0.7.0": { score: 18, terms: [term(18, 16, 0, 2)] },
    });
    expect(explained("mcp__acme__fetch_data")).toEqual({
      "0.5.0": { score: 4, terms: [term(4, 0, 4, 0)] },
      "0.7.0": { score: 4, terms: [term(4, 0, 4, 0)] },
    });
    // select: is not scored.
    expect(j.results.filter((r) => r.query === "select:report").every((r) => r.explain === undefined)).toBe(true);
    const text = run(["check", "--tools", acmeTools(), "--server-name", "acme", "--releases", releases, "--query", "report", "--explain"]);
    expect(text.stdout).toContain('      0.7.0: score 18; "report" 18 = name 16 + description 2');
    const multi = checkJson(["--tools", cappedTools(), "--releases", CAPPED, "--query", "report summary", "--explain"]);
    expect(multi.results.find((r) => r.tool === "mcp__acme__report")?.explain?.["0.9.0"]).toEqual({
      score: 12,
      terms: [
        { term: "report", score: 10, nameOnly: 10, hint: 0, description: 0 },
        { term: "summary", score: 2, nameOnly: 0, hint: 0, description: 2 },
      ],
    });
  });
});

describe("check expectations (--expect, --expectations, --max-rank, --fail-on-expect)", () => {
  const acme = () => ["check", "--tools", acmeTools(), "--server-name", "acme", "--releases", releases];
  const expects = ["--expect", "report=>report@1", "--expect", "report => mcp__acme__fetch_data", "--expect", "spreadsheet=>report_export"];

  it("judges each expectation on each release: met, or missed with the rank there and why", () => {
    const j = checkJson([...acme().slice(1), ...expects]);
    const none = "scores 0; none of its words is in the tool's name, hint or description";
    // See acmeTools: for "report", report is 2nd on 0.5.0 (12 to report_export's 14) and 1st on 0.7.0.
    expect(j.expectations).toEqual([
      {
        query: "report",
        tool: "mcp__acme__report",
        rank: 1,
        results: { "0.5.0": { rank: 2, met: false }, "0.7.0": { rank: 1, met: true } },
        reasons: { "0.5.0": "ranks 2, top 1 allowed; mcp__acme__report_export, at place 1, scores 14 to its 12" },
      },
      {
        query: "report",
        tool: "mcp__acme__fetch_data",
        rank: null,
        results: { "0.5.0": { rank: 3, met: true }, "0.7.0": { rank: 3, met: true } },
        reasons: {},
      },
      {
        query: "spreadsheet",
        tool: "mcp__acme__report_export",
        rank: null,
        results: { "0.5.0": { rank: null, met: false }, "0.7.0": { rank: null, met: false } },
        reasons: { "0.5.0": none, "0.7.0": none },
      },
    ]);
    expect(j.summary).toEqual({
      tools: 4,
      loaded: 1,
      queries: 2,
      releases: 2,
      expectations: { total: 3, met: 1, missed: 2, unjudged: 0 },
      omittedRows: 0,
    });
    // Each query is for the tools expected of it.
    expect(j.queries).toEqual([
      { text: "report", owners: ["mcp__acme__report", "mcp__acme__fetch_data"] },
      { text: "spreadsheet", owners: ["mcp__acme__report_export"] },
    ]);
  });

  it("shows them under the summary and the legend (text, Markdown); --fail-on-expect exits unfound, without it 0", () => {
    const text = run([...acme(), ...expects]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stderr).toBe("");
    const lines = text.stdout.split("\n");
    expect(lines[0]).toBe("acme: 4 tools (1 always loaded), 2 queries, 2 releases, 1 of 3 expectations met on every release");
    expect(lines[1]).toBe(
      "—: not returned; each release returns at most 5 tools for a query (its max_results), so a tool placed lower reads —",
    );
    expect(text.stdout).toContain(
      [
        "expectations (met: placed no lower than allowed on that release; ·: not judged there)",
        "  query          tool                      allowed   0.5.0     0.7.0",
        '  "report"       mcp__acme__report         top 1     missed 2  met 1',
        '  "report"       mcp__acme__fetch_data     returned  met 3     met 3',
        '  "spreadsheet"  mcp__acme__report_export  returned  missed —  missed —',
        "  missed:",
        '    "report" => mcp__acme__report on 0.5.0: ranks 2, top 1 allowed; mcp__acme__report_export, at place 1, scores 14 to its 12',
        `    "spreadsheet" => mcp__acme__report_export on 0.5.0, 0.7.0: scores 0; none of its words is in the tool's name, hint or description`,
      ].join("\n"),
    );
    const md = run([...acme(), ...expects, "--markdown", "--fail-on-expect"]);
    expect(md.code).toBe(ExitCode.unfound);
    expect(md.stderr).toBe("searchlift: 2 expectations are missed on some release\n");
    expect(md.stdout).toContain("**Expectations: 1 of 3 met on every release.**");
    expect(md.stdout).toContain("| `report` | `mcp__acme__report` | top 1 | ❌ 2 | ✅ 1 |");
    expect(md.stdout).toContain("| `spreadsheet` | `mcp__acme__report_export` | returned | ❌ — | ❌ — |");
    // Met everywhere: --fail-on-expect exits 0.
    expect(run([...acme(), "--expect", "report=>report_export@2", "--fail-on-expect"]).code).toBe(0);
  });

  it("an expectations file names releases by version or range; --max-rank is the default bar; one judged nowhere is said", () => {
    const file = join(dir, "expectations.json");
    writeFileSync(
      file,
      JSON.stringify({
        expectations: [
          { query: "report", tool: "report", releases: ["0.5.0"] },
          { query: "report", tool: "report_export", releases: [">=0.6.0"] },
          { query: "report", tool: "report", rank: 1 },
          { query: "report", tool: "fetch_data", releases: ["9.9.9"] },
        ],
      }),
    );
    const r = run([...acme(), "--expectations", file, "--max-rank", "2", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout) as CheckJson;
    expect(j.expectations.map((e) => [e.tool, e.rank, e.results])).toEqual([
      ["mcp__acme__report", 2, { "0.5.0": { rank: 2, met: true } }],
      ["mcp__acme__report_export", 2, { "0.7.0": { rank: 2, met: true } }],
      ["mcp__acme__report", 1, { "0.5.0": { rank: 2, met: false }, "0.7.0": { rank: 1, met: true } }],
      ["mcp__acme__fetch_data", 2, {}],
    ]);
    expect(j.summary.expectations).toEqual({ total: 4, met: 2, missed: 1, unjudged: 1 });
    const warning = 'expectation "report=>mcp__acme__fetch_data" names releases none of which was ranked (9.9.9): not judged';
    expect(j.warnings).toEqual([warning]);
    expect(r.stderr).toBe(`searchlift: warning: ${warning}\n`);
    const text = run([...acme(), "--expectations", file, "--max-rank", "2"]);
    expect(text.stdout).toContain('  "report"  mcp__acme__report         top 2    met 2     ·\n');
  });

  it("with expectations, --fail-on-unfound judges only the expected tool for its query, and the reason names that query", () => {
    const args = [...acme(), "--expect", "spreadsheet=>report_export", "--query", "report", "--fail-on-unfound", "--json"];
    const r = run(args);
    expect(r.code).toBe(ExitCode.unfound);
    const j = JSON.parse(r.stdout) as CheckJson;
    // "report" is asked and shown, but is for no tool: report and fetch_data are not judged.
    expect(j.queries).toEqual([
      { text: "spreadsheet", owners: ["mcp__acme__report_export"] },
      { text: "report", owners: [] },
    ]);
    expect(j.unfound.map((u) => u.tool)).toEqual(["mcp__acme__report_export"]);
    expect(j.unfound[0]!.reasons["0.5.0"]).toBe(`"spreadsheet": scores 0; none of its words is in the tool's name, hint or description`);
    expect(ranksOf(j, "report", "mcp__acme__report_export")).toEqual({ "0.5.0": 1, "0.7.0": 2 });
    expect(run([...acme(), "--expect", "report=>report_export", "--query", "spreadsheet", "--fail-on-unfound"]).code).toBe(0);
  });

  it("an expectation on an always-loaded tool says why it is missed; one limited to a release is for its tool there only", () => {
    const file = join(dir, "expectations-loaded.json");
    writeFileSync(
      file,
      JSON.stringify([
        { query: "report", tool: "report_status" },
        { query: "select:mcp__acme__report_status", tool: "report_status", rank: 1 },
        { query: "spreadsheet", tool: "report_export", releases: ["0.7.0"] },
      ]),
    );
    const r = run([...acme(), "--expectations", file, "--fail-on-unfound", "--json"]);
    expect(r.code).toBe(ExitCode.unfound);
    const j = JSON.parse(r.stdout) as CheckJson;
    expect(j.expectations[0]!.reasons).toEqual({
      "0.5.0": "it is always loaded: the tool search never ranks it (only select: by its name returns it)",
      "0.7.0": "it is always loaded: the tool search never ranks it (only select: by its name returns it)",
    });
    expect(j.expectations[1]!.results).toEqual({ "0.5.0": { rank: 1, met: true }, "0.7.0": { rank: 1, met: true } });
    // "spreadsheet" is for report_export on 0.7.0 only: unfound there, not on 0.5.0; the loaded tool never is.
    expect(j.unfound).toEqual([
      { tool: "mcp__acme__report_export", releases: ["0.7.0"], reasons: { "0.7.0": expect.stringMatching(/^"spreadsheet": scores 0/) } },
    ]);
  });

  it("refuses malformed expectations, an unknown tool, and --max-rank or --fail-on-expect without expectations (usage)", () => {
    const bad = join(dir, "bad-expectations.json");
    writeFileSync(bad, JSON.stringify([{ query: "report" }]));
    const badYaml = join(dir, "bad-expectations.yaml");
    writeFileSync(badYaml, "- query: report\n  tool: report\n- query: report\n  tool: report\n  rank: 0\n");
    const cases: Array<[string[], RegExp]> = [
      [["--expect", "report"], /write it as "QUERY=>TOOL"/],
      [["--expect", "report=>nope"], /the server has no tool "nope" \(it lists report, report_export, fetch_data, report_status\)/],
      [["--expect", "report=>report", "--max-rank", "0"], /--max-rank must be a whole number/],
      [["--max-rank", "2"], /--max-rank needs expectations/],
      [["--fail-on-expect"], /--fail-on-expect needs expectations/],
      [["--expectations", bad], /line 1: expectation 1: "tool" must be a non-empty string/],
      [["--expectations", badYaml], /bad-expectations\.yaml: line 3: expectation 2: "rank" must be a whole number, 1 or more/],
    ];
    for (const [extra, message] of cases) {
      const r = run([...acme(), ...extra]);
      expect(r.code, `${extra.join(" ")}: ${r.stderr}`).toBe(ExitCode.usage);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
    }
    const missing = run([...acme(), "--expectations", join(dir, "no-such.json")]);
    expect(missing.code).toBe(ExitCode.unreadable);
    expect(missing.stderr).toMatch(/cannot read the expectations file: ENOENT/);
  });
});

describe("check --baseline", () => {
  /** acme's tools edited: a description word for report, a hint for report_export, fetch_data's hint gone. */
  function editedTools(): string {
    const file = join(dir, "acme-edited.json");
    writeFileSync(
      file,
      JSON.stringify({
        tools: [
          { name: "report", description: "Build a summary report" }, // 0.5.0: 14, ties report_export and comes first
          { name: "report_export", description: "Export the monthly report as PDF", _meta: { "anthropic/searchHint": "spreadsheet" } },
          { name: "fetch_data", description: "Fetch rows" },
          { name: "report_status", description: "Status of a report", _meta: { "anthropic/alwaysLoad": true } },
        ],
      }),
    );
    return file;
  }
  const edited = () => ["check", "--tools", editedTools(), "--server-name", "acme", "--releases", releases];
  const expects = ["--expect", "report=>report@1", "--expect", "spreadsheet=>report_export", "--expect", "report=>fetch_data"];

  it("a tools file is ranked now beside this catalog: old → new per expectation and release, moves counted", () => {
    const r = run([...edited(), ...expects, "--baseline", acmeTools(), "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const b = (JSON.parse(r.stdout) as CheckJson & { baseline: unknown }).baseline;
    expect(b).toEqual({
      source: acmeTools(),
      kind: "tools",
      improved: 3,
      regressed: 2,
      unchanged: 1,
      items: [
        { query: "report", tool: "mcp__acme__report", rank: 1, ranks: { "0.5.0": { old: 2, new: 1 }, "0.7.0": { old: 1, new: 1 } } },
        {
          query: "spreadsheet",
          tool: "mcp__acme__report_export",
          rank: null,
          ranks: { "0.5.0": { old: null, new: 1 }, "0.7.0": { old: null, new: 1 } },
        },
        {
          query: "report",
          tool: "mcp__acme__fetch_data",
          rank: null,
          ranks: { "0.5.0": { old: 3, new: null }, "0.7.0": { old: 3, new: null } },
        },
      ],
    });
    const text = run([...edited(), ...expects, "--baseline", acmeTools()]);
    expect(text.stdout).toContain(
      [
        `baseline ${acmeTools()} (its tools ranked now): 3 improved, 2 regressed, 1 unchanged of 6 ranks compared`,
        "  query          tool                      allowed   0.5.0    0.7.0",
        '  "report"       mcp__acme__report         top 1     2 → 1 ↑  1 → 1',
        '  "spreadsheet"  mcp__acme__report_export  returned  — → 1 ↑  — → 1 ↑',
        '  "report"       mcp__acme__fetch_data     returned  3 → — ↓  3 → — ↓',
        "",
      ].join("\n"),
    );
  });

  it("a saved --json is read as it was; without expectations the moved pairs are listed, the rest counted (Markdown too)", () => {
    const saved = join(dir, "acme-saved.json");
    const queries = ["--query", "report", "--query", "spreadsheet"];
    const old = run(["check", "--tools", acmeTools(), "--server-name", "acme", "--releases", releases, ...queries, "--json"]);
    expect(old.code, old.stderr).toBe(0);
    writeFileSync(saved, old.stdout);
    const md = run([...edited(), ...queries, "--baseline", saved, "--markdown"]);
    expect(md.code, md.stderr).toBe(0);
    expect(md.stdout).toContain(
      [
        `**Baseline ${saved} (a saved check): 3 improved, 5 regressed, 4 unchanged of 12 ranks compared.**`,
        "",
        "| query | tool | 0.5.0 | 0.7.0 |",
        "| --- | --- | ---: | ---: |",
        "| `report` | `mcp__acme__report` | 2 → 1 ↑ | 1 → 1 |",
        "| `report` | `mcp__acme__report_export` | 1 → 2 ↓ | 2 → 2 |",
        "| `report` | `mcp__acme__fetch_data` | 3 → — ↓ | 3 → — ↓ |",
        "| `spreadsheet` | `mcp__acme__report_export` | — → 1 ↑ | — → 1 ↑ |",
        "| `spreadsheet` | `mcp__acme__fetch_data` | 1 → — ↓ | 1 → — ↓ |",
        "",
        "1 more (query, tool) pair ranked as before.",
      ].join("\n"),
    );
    // The same comparison from the old tools ranked now: the saved check agrees with today's ranking.
    const fromTools = run([...edited(), ...queries, "--baseline", acmeTools(), "--json"]);
    const fromSaved = run([...edited(), ...queries, "--baseline", saved, "--json"]);
    const items = (r: ReturnType<typeof run>) => (JSON.parse(r.stdout) as { baseline: { items: unknown } }).baseline.items;
    expect(items(fromSaved)).toEqual(items(fromTools));
  });

  it("a server's tools (--baseline-server) are ranked now as the same tools in a file are; one that lists none exits 18", () => {
    /** The sample server's tools as tools.mjs registers them; `edit` changes them. */
    const weather = (name: string, edit: (tools: Array<Record<string, unknown>>) => void = () => {}) => {
      const tools: Array<Record<string, unknown>> = [
        { name: "get_forecast", description: "Get the weather forecast for a city for the next days" },
        {
          name: "list_alerts",
          description: "List active severe weather alerts for a region",
          _meta: { "anthropic/searchHint": "storm warning" },
        },
        {
          name: "convert_units",
          description: "Convert temperatures between Celsius and Fahrenheit",
          _meta: { "anthropic/alwaysLoad": true },
        },
        { name: "geocode.lookup", description: "Find the coordinates of a place name" },
      ];
      edit(tools);
      const file = join(dir, name);
      writeFileSync(file, JSON.stringify({ tools }));
      return file;
    };
    // The new catalog: list_alerts loses its hint, geocode.lookup gets one.
    const now = weather("weather-edited.json", (t) => {
      delete t[1]!["_meta"];
      t[3]!["_meta"] = { "anthropic/searchHint": "where is" };
    });
    const args = ["check", "--tools", now, "--server-name", "weather demo", "--releases", releases];
    const expects = ["--expect", "storm warning=>list_alerts", "--expect", "where is=>geocode.lookup"];
    const fromServer = run([...args, ...expects, "--baseline-server", SERVER, "--json"]);
    expect(fromServer.code, fromServer.stderr).toBe(0);
    const fromFile = run([...args, ...expects, "--baseline", weather("weather.json"), "--json"]);
    expect(fromFile.code, fromFile.stderr).toBe(0);
    type WithBaseline = CheckJson & { baseline: { source: string; kind: string; items: Array<{ ranks: unknown }> } };
    const parsed = (r: { stdout: string }) => JSON.parse(r.stdout) as WithBaseline;
    const [s, f] = [parsed(fromServer), parsed(fromFile)];
    expect(s.baseline.kind).toBe("server");
    expect(s.baseline.source).toBe(SERVER);
    const { source: _s, kind: _k, ...counted } = s.baseline;
    const { source: _fs, kind: _fk, ...countedFromFile } = f.baseline;
    expect(counted).toEqual(countedFromFile);
    // The old ranks are the server's: "storm warning" was its hint (returned, the only tool with those words), and
    // no tool held "where"; the new ranks are this run's own.
    const [storm, whereIs] = s.expectations.map((e) => Object.fromEntries(Object.entries(e.results).map(([v, x]) => [v, x.rank])));
    const [v5, v7] = s.releases.map((r) => r.version);
    expect(s.baseline.items.map((i) => i.ranks)).toEqual([
      { [v5!]: { old: 1, new: storm![v5!] }, [v7!]: { old: 1, new: storm![v7!] } },
      { [v5!]: { old: null, new: whereIs![v5!] }, [v7!]: { old: null, new: whereIs![v7!] } },
    ]);
    expect(Object.values(storm!)).toEqual([null, null]);
    expect(Object.values(whereIs!).every((r) => typeof r === "number")).toBe(true);
    const text = run([...args, ...expects, "--baseline-server", SERVER]);
    expect(text.stdout).toContain(
      `baseline ${SERVER} (the server's tools ranked now): 2 improved, 2 regressed, 0 unchanged of 4 ranks compared`,
    );
    // A baseline server is held to what the catalog's is: one that lists no tools exits 18, said of the baseline.
    const empty = run([...args, ...expects, "--baseline-server", `${SERVER} --no-tools`]);
    expect(empty.code).toBe(ExitCode.serverFailed);
    expect(empty.stderr.trim()).toBe(`searchlift: baseline ${SERVER} --no-tools: lists no tools: there is nothing to check`);
    const two = run([...args, ...expects, "--baseline-server", SERVER, "--baseline", now]);
    expect(two.code).toBe(ExitCode.usage);
    expect(two.stderr).toMatch(/give one baseline/);
  });

  it("refuses a baseline that is neither a tools list nor a saved check (usage), and a missing one (unreadable)", () => {
    const neither = join(dir, "neither.json");
    writeFileSync(neither, JSON.stringify({ something: 1 }));
    const bad = run([...edited(), "--query", "report", "--baseline", neither]);
    expect(bad.code).toBe(ExitCode.usage);
    expect(bad.stderr).toMatch(/neither a saved check --json/);
    expect(run([...edited(), "--query", "report", "--baseline", join(dir, "gone.json")]).code).toBe(ExitCode.unreadable);
  });
});

describe("check: odd catalogs and failures", () => {
  it("an empty catalog, from a tools file or a server, exits serverFailed with the same message", () => {
    const messages = [JSON.stringify([]), JSON.stringify({ tools: [] })].map((content, i) => {
      const file = join(dir, `empty-${i}.json`);
      writeFileSync(file, content);
      const r = run(["check", "--tools", file, "--releases", releases]);
      expect(r.code, r.stderr).toBe(ExitCode.serverFailed);
      return r.stderr.slice(`searchlift: ${file}: `.length);
    });
    const server = run(["check", "--server", `${SERVER} --no-tools`, "--releases", releases]);
    expect(server.code).toBe(ExitCode.serverFailed);
    expect(server.stderr.slice(`searchlift: ${SERVER} --no-tools: `.length)).toBe(messages[0]);
    expect(messages).toEqual(["lists no tools: there is nothing to check\n", "lists no tools: there is nothing to check\n"]);
  });

  it("warns of tools the client's renaming makes one, naming both; shows the listed name beside a renamed one", () => {
    const file = join(dir, "collide.json");
    writeFileSync(
      file,
      JSON.stringify({
        serverName: "s",
        tools: [{ name: "a.b", description: "first" }, { name: "a_b", description: "second" }, { name: "ü" }],
      }),
    );
    const r = run(["check", "--tools", file, "--releases", releases, "--query", "first", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout) as CheckJson;
    expect(j.warnings).toHaveLength(1);
    expect(j.warnings[0]).toMatch(/^the server's tools "a\.b" and "a_b" are all named mcp__s__a_b by the client/);
    expect(r.stderr).toBe(`searchlift: warning: ${j.warnings[0]}\n`);
    // One row for the name, not two alike.
    expect(j.results.filter((x) => x.query === "first").map((x) => x.tool)).toEqual(["mcp__s__a_b", "mcp__s___"]);
    expect(j.renamed).toEqual({ mcp__s__a_b: "a.b", mcp__s___: "ü" });
    const text = run(["check", "--tools", file, "--releases", releases, "--query", "first"]);
    expect(text.stdout).toContain("warning: the server's tools");
    expect(text.stdout).toMatch(/\n {2}mcp__s__a_b \(a\.b\) {2}1 {6}1\n/);
  });

  it("a server that crashes shows the tail of its stderr, terminal-safe, above the one-line error", () => {
    const script = join(dir, "crash.mjs");
    const noise = Array.from({ length: 30 }, (_, i) => `console.error("log line ${i}");`).join("\n");
    writeFileSync(script, `${noise}\nconsole.error("\\x1b[31mred");\nfunction deep() { throw new Error("boom at startup"); }\ndeep();\n`);
    const r = run(["check", "--server", `node ${script}`, "--releases", releases]);
    expect(r.code).toBe(ExitCode.serverFailed);
    const lines = r.stderr.trimEnd().split("\n");
    expect(lines[0]).toBe("searchlift: the MCP server's stderr ended with:");
    const tail = lines.slice(1, -1);
    expect(tail.length).toBeGreaterThan(5);
    expect(tail.length).toBeLessThanOrEqual(20);
    expect(tail.every((l) => l.startsWith("  | "))).toBe(true);
    expect(tail).toContain("  | Error: boom at startup");
    expect(tail).toContain("  | \\u001b[31mred");
    expect(tail.some((l) => l.includes("log line 0"))).toBe(false);
    expect(tail.at(-1)).toMatch(/^ {2}\| Node\.js v/);
    expect(lines.at(-1)).toMatch(
      new RegExp(
        `^searchlift: node ${script.replace(/[.]/g, "\\.")}: the MCP server did not start or could not be reached: .*\\(its stderr: Node\\.js v`,
      ),
    );
    expect(r.stderr).not.toContain("\x1b");
  });

  it("the JSON has the same keys and a row per query and deferred tool whatever the queries' source", () => {
    const shapes = [[], ["--query", "forecast"], ["--expect", "forecast=>get_forecast"]].map((extra) => {
      const j = checkJson(["--server", SERVER, "--releases", releases, ...extra]);
      const deferred = ["mcp__weather_demo__get_forecast", "mcp__weather_demo__list_alerts", "mcp__weather_demo__geocode_lookup"];
      for (const q of j.queries) for (const t of deferred) expect(ranksOf(j, q.text, t), `${q.text} ${t}`).toBeDefined();
      expect(j.results.length).toBeGreaterThanOrEqual(j.queries.length * deferred.length);
      return Object.keys(j).sort();
    });
    expect(shapes[1]).toEqual(shapes[0]);
    expect(shapes[2]).toEqual(shapes[0]);
  });
});

describe("check --server (the sample MCP server, over stdio with the SDK)", () => {
  it("lists the server's tools, names them as the client does and ranks the default queries", () => {
    const j = checkJson(["--server", SERVER, "--releases", releases]);
    expect(j.server).toBe("weather demo");
    const tools = [...new Set(j.results.map((r) => r.tool))].sort();
    expect(tools).toEqual(["mcp__weather_demo__geocode_lookup", "mcp__weather_demo__get_forecast", "mcp__weather_demo__list_alerts"]);
    expect(j.loaded).toEqual(["mcp__weather_demo__convert_units"]);
    for (const t of tools) expect(ranksOf(j, `select:${t}`, t)).toEqual({ "0.5.0": 1, "0.7.0": 1 });
    // The hint is a query of its own, and only list_alerts has its words; the other deferred tools have rows
    // too (not returned), as with queries of the user's own: the JSON's shape does not depend on the source.
    expect(j.results.filter((r) => r.query === "storm warning")).toEqual([
      { tool: "mcp__weather_demo__list_alerts", query: "storm warning", ranks: { "0.5.0": 1, "0.7.0": 1 } },
      { tool: "mcp__weather_demo__get_forecast", query: "storm warning", ranks: { "0.5.0": null, "0.7.0": null } },
      { tool: "mcp__weather_demo__geocode_lookup", query: "storm warning", ranks: { "0.5.0": null, "0.7.0": null } },
    ]);
    expect(j.queries.find((q) => q.text === "storm warning")?.owners).toEqual(["mcp__weather_demo__list_alerts"]);
    // The bare name keeps its dot: no release selects it.
    expect(ranksOf(j, "select:geocode.lookup", "mcp__weather_demo__geocode_lookup")).toEqual({ "0.5.0": null, "0.7.0": null });
    expect(ranksOf(j, "geocode lookup", "mcp__weather_demo__geocode_lookup")).toEqual({ "0.5.0": 1, "0.7.0": 1 });
    expect(j.unfound).toEqual([]);
  });

  it("--server-name is the name in Claude Code", () => {
    const j = checkJson(["--server", SERVER, "--server-name", "My Weather!", "--releases", releases, "--query", "forecast"]);
    expect(ranksOf(j, "forecast", "mcp__My_Weather___get_forecast")).toEqual({ "0.5.0": 1, "0.7.0": 1 });
  });

  it("a server that exits at once, lists no tools or never answers is serverFailed, in one line", () => {
    for (const server of [
      `node -e "console.error('bad config'); process.exit(3)"`,
      `${SERVER} --no-tools`,
      "searchlift-no-such-command-here",
    ]) {
      const r = run(["check", "--server", server, "--releases", releases]);
      expect(r.code, `${server}: ${r.stderr}`).toBe(ExitCode.serverFailed);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
    }
    const exited = run(["check", "--server", `node -e "console.error('bad config'); process.exit(3)"`, "--releases", releases]);
    expect(exited.stderr).toContain("bad config");
    const silent = run(["check", "--server", `node -e "setInterval(() => {}, 1000)"`, "--server-timeout", "1", "--releases", releases]);
    expect(silent.code).toBe(ExitCode.serverFailed);
    expect(silent.stderr).toContain("within 1 s");
  });
});

/** The sample HTTP server (samples/mcp-server/http-server.mjs) on a free port; its URL once it listens. */
async function startHttpServer(...flags: string[]): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [join(ROOT, "samples", "mcp-server", "http-server.mjs"), ...flags], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString("utf8");
      if (out.includes("\n")) resolve(out.trim());
    });
    child.on("exit", (code) => reject(new Error(`the sample HTTP server exited (${code})`)));
  });
  return { url, child };
}

/** check as a process, asynchronously: the HTTP server lives in this process's event loop's children. */
function runAsync(args: string[]): Promise<CliRun> {
  return runCliAsync(args, { cwd: ROOT });
}

describe("check --url (the sample MCP server over streamable HTTP, with the SDK)", () => {
  const servers: ChildProcess[] = [];
  afterAll(() => servers.forEach((c) => c.kill()));
  const start = async (...flags: string[]) => {
    const s = await startHttpServer(...flags);
    servers.push(s.child);
    return s.url;
  };

  it("lists the server's tools over HTTP and ranks them as over stdio", async () => {
    const url = await start();
    const r = await runAsync(["check", "--url", url, "--releases", releases, "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const overHttp = JSON.parse(r.stdout) as CheckJson;
    expect(overHttp.server).toBe("weather demo");
    expect(overHttp.loaded).toEqual(["mcp__weather_demo__convert_units"]);
    expect(overHttp).toEqual(checkJson(["--server", SERVER, "--releases", releases]));
  });

  it("a URL nothing listens on, a server that never answers or lists no tools is serverFailed, in one line", async () => {
    const cases: Array<[string[], RegExp]> = [
      [["--url", "http://127.0.0.1:9/mcp"], /could not be reached/],
      [["--url", await start("--silent"), "--server-timeout", "1"], /within 1 s/],
      [["--url", await start("--no-tools")], /lists no tools/],
    ];
    for (const [args, message] of cases) {
      const r = await runAsync(["check", ...args, "--releases", releases]);
      expect(r.code, r.stderr).toBe(ExitCode.serverFailed);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toMatch(message);
    }
    const notHttp = await runAsync(["check", "--url", "file:///etc/passwd", "--releases", releases]);
    expect(notHttp.code).toBe(ExitCode.usage);
    expect((await runAsync(["check", "--url", "http://127.0.0.1:9/mcp", "--tools", "x.json"])).code).toBe(ExitCode.usage);
  });
});

describe("check --releases given as inputs", () => {
  it("lifts a release once into the lift cache, and reads it back on the next run", () => {
    const cache = join(dir, "lift-cache");
    const release = join(ROOT, "samples", "releases", "0.7.0");
    const args = [
      "check",
      "--tools",
      acmeTools(),
      "--server-name",
      "acme",
      "--releases",
      release,
      "--lift-cache",
      cache,
      "--query",
      "report",
      "--json",
    ];
    // The cache is keyed by the input's sha256, which the lifted module records as its provenance.
    const sha = createHash("sha256").update(readFileSync(release)).digest("hex");
    const first = run(args, AS_USER);
    expect(first.code, first.stderr).toBe(0);
    // What the user sees meanwhile on stderr: the release lifted and where it is kept, its verification with its
    // count, the ranking (a line per step without a terminal).
    const lines = first.stderr.trim().split("\n");
    expect(lines[0]).toBe(`searchlift: lift: ${release}: lifting (once; kept in ${join(cache, sha)})`);
    expect(lines).toContain(`searchlift: verify 0/2000: ${release}: verifying on 2000 cases`);
    expect(lines).toContain(`searchlift: verify 2000/2000: ${release}: 2000/2000 cases agree`);
    expect(lines.slice(-3)).toEqual([
      "searchlift: check 0/1: ranking 4 tools on 1 query with 1 release",
      "searchlift: check 1/1: ranked with 0.7.0 (npm)",
      "searchlift: check 1/1: 0 tools unfound",
    ]);
    // Read back: said so; --quiet and SEARCHLIFT_QUIET=1 say nothing; the result on stdout is the same each time.
    const again = run(args, AS_USER);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr.split("\n")[0]).toBe(`searchlift: lift: ${release}: lifted before, read from ${join(cache, sha)}`);
    expect(again.stderr).not.toContain("verify");
    const quiet = run([...args, "--quiet"], AS_USER);
    expect(quiet.stderr).toBe("");
    const second = run(args);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toBe("");
    for (const r of [again, quiet]) expect(r.stdout).toBe(second.stdout);
    expect(JSON.parse(second.stdout)).toEqual(JSON.parse(first.stdout));
    expect(ranksOf(JSON.parse(second.stdout) as CheckJson, "report", "mcp__acme__report")).toEqual({ "0.7.0": 1 });
    // Beside the lifts, the verification they recorded.
    expect(readdirSync(cache).sort()).toEqual([sha, "inputs", "verifications"].sort());
    expect(readdirSync(join(cache, "verifications"))).toHaveLength(1);
    const module = (JSON.parse(second.stdout) as CheckJson).releases[0]!.module;
    expect(readFileSync(module, "utf8")).toContain(`"sha256": "${sha}"`);
    // A lift made before the module's form changed (its mark names no form, or another) is made again.
    const mark = join(cache, sha, "lifted.json");
    const { module: kept } = JSON.parse(readFileSync(mark, "utf8")) as { module: string };
    writeFileSync(mark, JSON.stringify({ module: kept }) + "\n");
    const third = run(args, AS_USER);
    expect(third.code, third.stderr).toBe(0);
    expect(third.stderr.split("\n")[0]).toBe(`searchlift: lift: ${release}: lifting (once; kept in ${join(cache, sha)})`);
    expect(JSON.parse(third.stdout)).toEqual(JSON.parse(first.stdout));
    // A kept lift the static check now refuses (a later searchlift trusts another text of a port, or checks a
    // new rule) is lifted again, not reported broken.
    const keptModule = (JSON.parse(third.stdout) as CheckJson).releases[0]!.module;
    writeFileSync(keptModule, readFileSync(keptModule, "utf8") + "\nnew Proxy({}, {});\n");
    const fourth = run(args);
    expect(fourth.code, fourth.stderr).toBe(0);
    expect(fourth.stderr).toContain("is refused by this searchlift's static check (an earlier one made it): lifting again");
    expect(JSON.parse(fourth.stdout)).toEqual(JSON.parse(first.stdout));
    expect(readFileSync(keptModule, "utf8")).not.toContain("new Proxy({}, {});");
  });

  /** Sample release `version` as the client package's tarball in the fake npm's registry, once. */
  function publishSample(registry: string, version: string): void {
    const tgz = join(registry, "anthropic-ai-claude-code", `${version}.tgz`);
    if (existsSync(tgz)) return;
    const work = join(dir, `pkg-${version}`);
    mkdirSync(join(work, "package"), { recursive: true });
    copyFileSync(join(ROOT, "samples", "releases", version), join(work, "package", "cli.js"));
    writeFileSync(
      join(work, "package", "package.json"),
      JSON.stringify({ name: "@anthropic-ai/claude-code", version, bin: { claude: "cli.js" } }),
    );
    mkdirSync(dirname(tgz), { recursive: true });
    expect(spawnSync("tar", ["-czf", tgz, "-C", work, "package"]).status).toBe(0);
  }

  /** A machine of its own (as in inputs.test.ts): a HOME, a PATH without npm or claude, the fake npm whose
   *  registry holds sample 0.7.0 as the package's latest, and optionally 0.5.0 in the native versions folder. */
  function machine(installed: string | null): Record<string, string> {
    const home = join(dir, `home-${installed ?? "none"}`);
    const registry = join(dir, "registry");
    publishSample(registry, "0.7.0");
    if (installed) {
      const versions = join(home, ".local", "share", "claude", "versions");
      mkdirSync(versions, { recursive: true });
      copyFileSync(join(ROOT, "samples", "releases", installed), join(versions, installed));
    }
    mkdirSync(join(home, "bin"), { recursive: true });
    return {
      HOME: home,
      PATH: [join(home, "bin"), dirname(process.execPath)].join(":"),
      BUN_INSTALL: join(home, ".bun"),
      XDG_CACHE_HOME: join(dir, "machine-cache"),
      SEARCHLIFT_NPM: join(ROOT, "test", "helpers", "fake-npm.mjs"),
      FAKE_NPM_ROOT: join(home, "npm-root"),
      FAKE_NPM_REGISTRY: registry,
    };
  }

  it("by default ranks with the installed Claude Code and the latest release; with none installed, says so and uses latest", () => {
    const args = ["check", "--tools", acmeTools(), "--server-name", "acme", "--query", "report", "--json"];
    const both = run(args, machine("0.5.0"));
    expect(both.code, both.stderr).toBe(0);
    expect(both.stderr).toMatch(/installed: Claude Code 0\.5\.0 at .*versions\/0\.5\.0/);
    const j = JSON.parse(both.stdout) as CheckJson;
    expect(j.releases.map((r) => r.version)).toEqual(["0.5.0", "0.7.0"]);
    expect(ranksOf(j, "report", "mcp__acme__report")).toEqual({ "0.5.0": 2, "0.7.0": 1 });
    const none = run(args, machine(null));
    expect(none.code, none.stderr).toBe(0);
    expect(none.stderr).toContain("installed: no Claude Code installation found");
    expect((JSON.parse(none.stdout) as CheckJson).releases.map((r) => r.version)).toEqual(["0.7.0"]);
    const installedOnly = run([...args, "--releases", "installed"], machine("0.5.0"));
    expect(installedOnly.code, installedOnly.stderr).toBe(0);
    expect((JSON.parse(installedOnly.stdout) as CheckJson).releases.map((r) => r.version)).toEqual(["0.5.0"]);
  });

  it("a release named by version or tag is read back from the lift cache without npm or its tarball; a removed lift is redone", () => {
    const env = machine(null);
    const liftCache = join(dir, "named-lift-cache");
    const log = join(dir, "npm-calls.log");
    const check = (release: string, extra: Record<string, string> = {}) => {
      rmSync(log, { force: true });
      const args = ["check", "--tools", acmeTools(), "--server-name", "acme", "--query", "report", "--releases", release];
      const out = run([...args, "--lift-cache", liftCache, "--json"], { ...env, FAKE_NPM_LOG: log, ...extra });
      expect(out.code, out.stderr).toBe(0);
      // `config get` (where npm connects, for the registry probe) asks no registry.
      const calls = existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : [];
      return { out, npm: calls.filter((l) => !l.startsWith("config get")) };
    };
    const first = check("latest");
    // The tag, then the version's integrity (its tarball is in the release cache after the test above, or is packed).
    expect(first.npm.slice(0, 2).map((l) => l.split(" ").slice(0, 3).join(" "))).toEqual([
      "view @anthropic-ai/claude-code dist-tags",
      "view @anthropic-ai/claude-code@0.7.0 version",
    ]);
    const answer = JSON.parse(first.out.stdout) as CheckJson;
    expect(ranksOf(answer, "report", "mcp__acme__report")).toEqual({ "0.7.0": 1 });
    // Lifted into the folder of the tarball's sha256, taken by fetch as it checked the integrity, and recorded as
    // the module's provenance.
    const tarball = /→ (\S+\.tgz)/.exec(first.out.stderr)?.[1];
    expect(tarball, first.out.stderr).toBeDefined();
    const sha = createHash("sha256").update(readFileSync(tarball!)).digest("hex");
    expect(answer.releases[0]!.module.startsWith(join(liftCache, sha) + sep)).toBe(true);
    expect(readFileSync(answer.releases[0]!.module, "utf8")).toContain(`"sha256": "${sha}"`);
    // latest: only the tag is asked for. The version itself: nothing, with npm gone.
    const again = check("latest");
    expect(again.npm).toEqual(["view @anthropic-ai/claude-code dist-tags"]);
    expect(JSON.parse(again.out.stdout)).toEqual(answer);
    const byVersion = check("0.7.0", { SEARCHLIFT_NPM: join(dir, "no-npm-here") });
    expect(byVersion.npm).toEqual([]);
    expect(byVersion.out.stderr).toBe("");
    expect(JSON.parse(byVersion.out.stdout)).toEqual(answer);
    // Without its lift the note leads nowhere: the release is taken from the release cache and lifted again.
    for (const e of readdirSync(liftCache)) if (/^[0-9a-f]{64}$/.test(e)) rmSync(join(liftCache, e), { recursive: true });
    const redone = check("0.7.0", AS_USER);
    expect(redone.out.stderr).toMatch(/^searchlift: lift: 0\.7\.0: lifting \(once; kept in /m);
    expect(redone.npm.filter((l) => /^(pack|cache) /.test(l))).toEqual([]);
    expect(JSON.parse(redone.out.stdout)).toEqual(answer);
  });

  it("asks the registry about the versions it fetches in one npm view; a version not published still says so", () => {
    const env = machine(null);
    publishSample(env.FAKE_NPM_REGISTRY!, "0.5.0");
    const log = join(dir, "npm-calls-two.log");
    const check = (releases: string, liftCache = "two-lift-cache") => {
      rmSync(log, { force: true });
      const args = ["check", "--tools", acmeTools(), "--server-name", "acme", "--query", "report", "--releases", releases];
      const cache = ["--cache", join(dir, "two-releases"), "--lift-cache", join(dir, liftCache), "--json"];
      const out = run([...args, ...cache], { ...env, FAKE_NPM_LOG: log });
      return { out, views: (existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : []).filter((l) => l.startsWith("view ")) };
    };
    const both = check("0.5.0,0.7.0");
    expect(both.out.code, both.out.stderr).toBe(0);
    expect(both.views.map((l) => l.split(" ").slice(0, 4).join(" "))).toEqual(["view @anthropic-ai/claude-code@0.5.0 || 0.7.0"]);
    expect(ranksOf(JSON.parse(both.out.stdout) as CheckJson, "report", "mcp__acme__report")).toEqual({ "0.5.0": 2, "0.7.0": 1 });
    // Lifted before, they are not asked about again.
    expect(check("0.5.0,0.7.0").views).toEqual([]);
    // A version that does not exist, asked about with another, gets fetch's own error.
    const missing = check("0.5.0,0.6.9", "two-lift-cache-missing");
    expect(missing.out.code).toBe(ExitCode.notPublished);
    expect(missing.out.stderr).toContain("0.6.9 is not a published version of @anthropic-ai/claude-code");
    expect(missing.views[0]).toMatch(/^view @anthropic-ai\/claude-code@0\.5\.0 \|\| 0\.6\.9 version/);
  });

  it.each(["a file", "a package folder"])(
    "%s rewritten in place to the same size and mtime is hashed and lifted again; unchanged, it is read back",
    (kind) => {
      const liftCache = join(dir, `in-place-${kind.replace(/ /g, "-")}`);
      const input = join(dir, `release-in-place-${kind.replace(/ /g, "-")}`);
      const text = readFileSync(join(ROOT, "samples", "releases", "0.7.0"), "utf8");
      const edited = text.replace('VERSION:"0.7.0"', 'VERSION:"0.7.1"');
      expect(edited).not.toBe(text);
      expect(edited.length).toBe(text.length);
      const program = kind === "a file" ? input : join(input, "cli.js");
      if (kind === "a package folder") {
        mkdirSync(input, { recursive: true });
        const manifest = { name: "@anthropic-ai/claude-code", version: "0.7.0", bin: { claude: "cli.js" } };
        writeFileSync(join(input, "package.json"), JSON.stringify(manifest));
      }
      // Whole seconds, so that the same time can be set again to the nanosecond.
      const when = new Date("2026-01-01T00:00:00Z");
      const place = (content: string) => {
        writeFileSync(program, content);
        utimesSync(program, when, when);
      };
      const args = ["check", "--tools", acmeTools(), "--server-name", "acme", "--query", "report", "--releases", input];
      const modules = (r: ReturnType<typeof run>) => (JSON.parse(r.stdout) as CheckJson).releases.map((x) => x.module);
      place(text);
      const first = run([...args, "--lift-cache", liftCache, "--json"]);
      expect(first.code, first.stderr).toBe(0);
      place(edited);
      const second = run([...args, "--lift-cache", liftCache, "--json"], AS_USER);
      expect(second.code, second.stderr).toBe(0);
      expect(second.stderr).toMatch(/^searchlift: lift: .*: lifting \(once; kept in /m);
      expect(modules(second)).not.toEqual(modules(first));
      // Lifted from the program as it is now: its provenance names the edited program's sha256.
      const sha = createHash("sha256").update(edited).digest("hex");
      expect(readFileSync(modules(second)[0]!, "utf8")).toContain(`"sha256": "${sha}"`);
      const third = run([...args, "--lift-cache", liftCache, "--json"]);
      expect(third.stderr).toBe("");
      expect(third.stdout).toBe(second.stdout);
    },
  );

  it.skipIf(SKIP_REAL)("ranks with a real release given as a version (fetched, lifted, verified, cached)", () => {
    const liftCache = join(dir, "real-lift-cache");
    const r = run(["check", "--server", SERVER, "--releases", "2.1.112", "--lift-cache", liftCache, "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout) as CheckJson;
    expect(j.releases.map((x) => x.version)).toEqual(["2.1.112"]);
    expect(existsSync(j.releases[0]!.module)).toBe(true);
    for (const t of ["mcp__weather_demo__get_forecast", "mcp__weather_demo__list_alerts"])
      expect(ranksOf(j, `select:${t}`, t)).toEqual({ "2.1.112": 1 });
  });
});
