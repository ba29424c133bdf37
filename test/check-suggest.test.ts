/**
 * `check --explain` on missed tools and `check --suggest`, as a process (`node bin/searchlift.js` after the
 * build): on the sample releases 0.4.0 (reads no hints), 0.5.0 and 0.7.0 (see test/check.test.ts's header for
 * their rules), offline; then every suggestion's claimed ranks re-checked — on the samples by a second check
 * of the edited catalog, and on real releases (2.1.112, 2.1.332) by the independent reference (test/reference/),
 * skipped under SEARCHLIFT_SKIP_REAL=1.
 */
import { mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ExitCode } from "../src/errors.js";
import { clientTool, type ListedTool } from "../src/check/naming.js";
import { ROOT, runCli } from "./helpers/cli.js";
import { Rng } from "./helpers/random.js";
import { rulesFor } from "./reference/generations.js";
import { liftedModule, lifterKey } from "./reference/lifted-modules.js";
import { toolSearch } from "./reference/tool-search-reference.js";
import type { MissedTerm } from "../src/check/explain-missed.js";

const SKIP_REAL = process.env.SEARCHLIFT_SKIP_REAL === "1";

function run(args: string[]) {
  return runCli(args, { timeout: 300_000, cwd: ROOT });
}

interface Suggestion {
  kind: string;
  text: string;
  toolName?: string;
  description?: string;
  searchHint?: string;
  chars: number;
  ranks: Record<string, { before: number | null; after: number | null }>;
  improves: string[];
  met: boolean;
}

interface SuggestJson {
  releases: Array<{ version: string }>;
  expectations: Array<{ query: string; tool: string; rank: number | null; results: Record<string, { rank: number | null; met: boolean }> }>;
  missed?: Array<{
    query: string;
    tool: string;
    explain: Record<
      string,
      {
        score: number;
        terms: MissedTerm[];
      }
    >;
  }>;
  suggestions?: Array<{ query: string; tool: string; rank: number | null; edits: Suggestion[] }>;
}

let dir = "";
let releases = "";

const MAIL: ListedTool[] = [
  { name: "send_mail", description: "Send an email with an attachment" },
  { name: "upload_file", description: "Upload a file to storage", _meta: { "anthropic/searchHint": "attach" } },
  { name: "read_file", description: "Read a file from storage" },
  { name: "list_files", description: "List the files in a folder" },
];

function toolsFile(name: string, tools: ListedTool[]): string {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify({ tools }));
  return file;
}

function findModule(d: string): string {
  for (const e of readdirSync(d, { withFileTypes: true, recursive: true }))
    if (e.isFile() && e.name === "tool-search.mjs") return join(e.parentPath, e.name);
  throw new Error(`no tool-search.mjs under ${d}`);
}

beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), `searchlift-check-suggest-${process.pid}-`)));
  releases = ["0.4.0", "0.5.0", "0.7.0"]
    .map((v) => {
      const out = join(dir, v);
      const r = run(["lift", join(ROOT, "samples", "releases", v), "--out", out]);
      expect(r.code, r.stderr).toBe(0);
      return findModule(out);
    })
    .join(",");
}, 300_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The listed tools with one suggestion applied to the tool the client names `tool`. */
function applied(server: string, tools: ListedTool[], tool: string, s: Suggestion): ListedTool[] {
  return tools.map((t) => {
    if (clientTool(server, t).name !== tool) return t;
    const hint = s.searchHint !== undefined ? { _meta: { ...t._meta, "anthropic/searchHint": s.searchHint } } : {};
    return { ...t, name: s.toolName ?? t.name, description: s.description ?? t.description, ...hint };
  });
}

const EXPECTS = ["--expect", "attach=>send_mail@1", "--expect", "attach=>upload_file@1", "--expect", "storage=>list_files"];

describe("check --explain on missed tools", () => {
  it("says per query word which part matched and which matched nothing, with the near misses, per release", () => {
    const args = ["check", "--tools", toolsFile("mail", MAIL), "--server-name", "mail", "--releases", releases, ...EXPECTS, "--explain"];
    const text = run(args);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain("missed, per query word (measured with the tool alone; --explain)");
    expect(text.stdout).toContain(
      '  "attach" missed mcp__mail__send_mail: on 0.4.0, 0.5.0, 0.7.0: score 0; "attach" matched nothing ("attach" is not the word "attachment" (in its description): this release scores whole words only)',
    );
    // 0.4.0 reads no hints: the hint's word is there and scores nothing.
    expect(text.stdout).toContain(
      '  "attach" missed mcp__mail__upload_file: on 0.4.0: score 0; "attach" matched nothing ("attach" is in its searchHint, and this release scores no searchHint words)',
    );
    const j = JSON.parse(run([...args, "--json"]).stdout) as SuggestJson;
    expect(j.missed?.find((m) => m.tool === "mcp__mail__upload_file")?.explain).toEqual({
      "0.4.0": {
        score: 0,
        terms: [
          {
            term: "attach",
            score: 0,
            name: 0,
            hint: 0,
            description: 0,
            matched: [],
            nearMisses: ['"attach" is in its searchHint, and this release scores no searchHint words'],
          },
        ],
      },
    });
  });

  it("breaks down a tool its own default queries miss, and a word that scores in a name part", () => {
    const tools = toolsFile("mixed", [
      { name: "report", description: "Summary of sales" },
      ...Array.from({ length: 6 }, (_, i) => ({ name: `sales_report_${i}`, description: "sales report" })),
    ]);
    const j = JSON.parse(
      run(["check", "--tools", tools, "--server-name", "acme", "--releases", releases, "--query", "sales report", "--explain", "--json"])
        .stdout,
    ) as SuggestJson;
    const m = j.missed?.find((x) => x.tool === "mcp__acme__report");
    expect(m?.query).toBe("sales report");
    const terms = m!.explain["0.7.0"]!.terms;
    expect(terms.find((t) => t.term === "report")?.matched).toEqual(["the whole tool name"]);
    expect(terms.find((t) => t.term === "sales")?.matched).toEqual(["description word"]);
  });
});

describe("check --suggest", () => {
  it("proposes edits measured on every release, best first, and a second check of each edited catalog agrees", () => {
    const base = ["check", "--tools", toolsFile("mail", MAIL), "--server-name", "mail", "--releases", releases, ...EXPECTS, "--suggest"];
    const text = run([...base, "--fail-on-expect"]);
    expect(text.code).toBe(ExitCode.unfound);
    expect(text.stdout).toContain(
      "suggestions (edits measured on every release the expectation is judged on: rank before → after; best first)",
    );
    expect(text.stdout).toContain(
      '    rename to "send_mail_attach" (7 characters): 0.4.0 — → 1, 0.5.0 — → 1, 0.7.0 — → 1; meets it on every release',
    );
    // A hint helps only where hints are read: it claims 0.5.0 and 0.7.0, and 0.4.0 shows it unmoved.
    expect(text.stdout).toContain('    add the searchHint "attach" (6 characters): 0.4.0 — → —, 0.5.0 — → 1, 0.7.0 — → 1');
    const md = run([...base, "--markdown"]);
    expect(md.code).toBe(0);
    expect(md.stdout).toContain("**Suggested edits** (each measured on every release the expectation is judged on; best first):");
    expect(md.stdout).toContain('  - ✅ rename to "send_mail_attach" (7 characters)');
    const j = JSON.parse(run([...base, "--json"]).stdout) as SuggestJson;
    expect(j.suggestions?.map((s) => [s.query, s.tool, s.edits.length > 0])).toEqual([
      ["attach", "mcp__mail__send_mail", true],
      ["attach", "mcp__mail__upload_file", true],
      ["storage", "mcp__mail__list_files", true],
    ]);
    const send = j.suggestions![0]!.edits;
    expect(send[0]).toMatchObject({ kind: "rename", toolName: "send_mail_attach", improves: ["0.4.0", "0.5.0", "0.7.0"], met: true });
    let checked = 0;
    for (const s of j.suggestions!)
      for (const e of s.edits) {
        const cells = Object.entries(e.ranks);
        // Better where it claims, worse nowhere.
        expect(e.improves.length).toBeGreaterThan(0);
        for (const [v, c] of cells) {
          const better = c.after !== null && (c.before === null || c.after < c.before);
          expect(e.improves.includes(v), `${s.query} ${e.text} ${v}`).toBe(better);
          if (!better) expect(c.after === c.before, `${s.query} ${e.text} ${v}`).toBe(true);
        }
        // The edited catalog, checked again: the expected tool under its new name ranks as claimed.
        const name = e.toolName ?? MAIL.find((t) => clientTool("mail", t).name === s.tool)!.name;
        const again = run([
          "check",
          "--tools",
          toolsFile(`edited-${checked}`, applied("mail", MAIL, s.tool, e)),
          "--server-name",
          "mail",
          "--releases",
          releases,
          "--expect",
          `${s.query}=>${name}`,
          "--json",
        ]);
        expect(again.code, again.stderr).toBe(0);
        const got = (JSON.parse(again.stdout) as SuggestJson).expectations[0]!.results;
        for (const [v, c] of cells) expect(got[v]!.rank, `${s.query} ${e.text} ${v}`).toBe(c.after);
        checked++;
      }
    expect(checked).toBeGreaterThan(8);
  }, 300_000);

  it("on a release that reads a prefix, moves the word to the start and never shows an edit past it", () => {
    // samples/check-modules/capped.mjs reads the description's first 40 characters.
    const capped = join(ROOT, "samples", "check-modules", "capped.mjs");
    const tools = toolsFile("capped", [
      { name: "archive", description: "Moves old records to cold storage for the long term and also invoices" },
      { name: "billing", description: "Create an invoice" },
    ]);
    const args = ["check", "--tools", tools, "--server-name", "acme", "--releases", capped, "--expect", "invoice=>archive@1"];
    const j = JSON.parse(run([...args, "--expect", "long term=>archive@1", "--explain", "--suggest", "--json"]).stdout) as SuggestJson;
    const [invoice, longTerm] = j.suggestions!;
    // Added at the end, "invoice" would be past what the release reads: not shown.
    expect(invoice!.edits.map((e) => e.kind)).not.toContain("description");
    expect(invoice!.edits.find((e) => e.kind === "move")).toMatchObject({
      description: "invoice — Moves old records to cold storage for the long term and also invoices",
      ranks: { "0.9.0": { before: null, after: 1 } },
    });
    expect(longTerm!.edits.length).toBeGreaterThan(0);
    const late = j.missed!.find((m) => m.query === "long term")!.explain["0.9.0"]!.terms[0]!;
    expect(late.nearMisses[0]).toMatch(/^"long" is in its description at character 42, past the first \d+ characters this release reads$/);
  });

  it("offers no rename onto a name the catalog already has", () => {
    const capped = join(ROOT, "samples", "check-modules", "capped.mjs");
    const tools = toolsFile("taken", [
      { name: "send_mail", description: "Send an email" },
      { name: "send_mail_attach", description: "Something else entirely" },
    ]);
    const r = run([
      "check",
      "--tools",
      tools,
      "--server-name",
      "mail",
      "--releases",
      capped,
      "--expect",
      "attach=>send_mail@1",
      "--suggest",
      "--json",
    ]);
    expect(r.code, r.stderr).toBe(0);
    const edits = (JSON.parse(r.stdout) as SuggestJson).suggestions![0]!.edits;
    expect(edits.map((e) => e.kind)).toEqual(["searchHint", "description"]);
    expect(edits[0]!.ranks).toEqual({ "0.9.0": { before: null, after: 2 } });
  });

  it("needs expectations, and says when no edit tried helps", () => {
    const none = run(["check", "--tools", toolsFile("mail", MAIL), "--server-name", "mail", "--releases", releases, "--suggest"]);
    expect(none.code).toBe(ExitCode.usage);
    expect(none.stderr).toContain("--suggest needs expectations");
    // select: is not scored: no edit is tried.
    const sel = run([
      "check",
      "--tools",
      toolsFile("mail", MAIL),
      "--server-name",
      "mail",
      "--releases",
      releases,
      "--expect",
      "select:nothing=>send_mail",
      "--suggest",
    ]);
    expect(sel.code).toBe(0);
    expect(sel.stdout).toContain("  no edit tried places it higher on any release");
  });
});

const REAL = [
  { version: "2.1.112", spec: "@anthropic-ai/claude-code@2.1.112", member: "package/cli.js" },
  { version: "2.1.332", spec: "@anthropic-ai/claude-code-linux-x64@2.1.332", member: "package/claude" },
];
const VERBS = ["get", "list", "create", "update", "delete", "search", "sync", "export", "archive"];
const NOUNS = ["issue", "repo", "page", "file", "comment", "project", "user", "label", "branch", "attachment"];
const FILLER = ["the", "a", "returns", "json", "with", "its", "id", "and", "state", "for", "team"];

describe.skipIf(SKIP_REAL)("check --suggest against the independent reference", () => {
  it("every suggestion's ranks, before and after, are the reference's on real releases", async () => {
    const key = lifterKey();
    const modules: string[] = [];
    for (const r of REAL) modules.push(await liftedModule(r.spec, r.member, key));
    const rng = new Rng(0x5a6);
    let edits = 0;
    const kinds = new Set<string>();
    for (let round = 0; round < 4; round++) {
      const server = "github";
      const names = new Set<string>();
      while (names.size < 8) names.add(`${rng.pick(VERBS)}_${rng.pick(NOUNS)}`);
      const tools: ListedTool[] = [...names].map((name) => ({
        name,
        description: Array.from({ length: 4 + rng.int(8) }, () => rng.pick(rng.chance(0.4) ? [...VERBS, ...NOUNS] : FILLER)).join(" "),
        ...(rng.chance(0.3) ? { _meta: { "anthropic/searchHint": `${rng.pick(NOUNS)} ${rng.pick(VERBS)}` } } : {}),
      }));
      const expects = Array.from({ length: 4 }, () => [
        "--expect",
        `${rng.pick(["attach", "move", "download", "close", "merge"])} ${rng.pick(NOUNS)}=>${rng.pick(tools).name}@${1 + rng.int(2)}`,
      ]).flat();
      const r = run([
        "check",
        "--tools",
        toolsFile(`real-${round}`, tools),
        "--server-name",
        server,
        "--releases",
        modules.join(","),
        ...expects,
        "--suggest",
        "--json",
      ]);
      expect(r.code, r.stderr).toBe(0);
      const j = JSON.parse(r.stdout) as SuggestJson;
      const deferred = (ts: ListedTool[]) =>
        ts.map((t) => {
          const { alwaysLoad: _alwaysLoad, ...tool } = clientTool(server, t);
          return tool;
        });
      const reference = (version: string, query: string, ts: ListedTool[], tool: string) =>
        toolSearch(rulesFor(version), query, deferred(ts), { loaded: [] }).indexOf(tool) + 1 || null;
      for (const s of j.suggestions ?? [])
        for (const e of s.edits) {
          const after = applied(server, tools, s.tool, e);
          const name = e.toolName === undefined ? s.tool : clientTool(server, { name: e.toolName }).name;
          for (const [v, c] of Object.entries(e.ranks)) {
            const where = `${v} ${s.query} => ${s.tool}: ${e.text} (round ${round})`;
            expect(c.before, where).toBe(reference(v, s.query, tools, s.tool));
            expect(c.after, where).toBe(reference(v, s.query, after, name));
            if (e.improves.includes(v)) expect(c.after !== null && (c.before === null || c.after < c.before), where).toBe(true);
          }
          edits++;
          kinds.add(e.kind);
        }
    }
    // 47 edits with seed 0x5a6: renames, hints, description words and both.
    expect(edits).toBeGreaterThan(10);
    expect([...kinds]).toEqual(expect.arrayContaining(["rename", "searchHint", "description"]));
  }, 900_000);
});
