/**
 * searchlift lift end to end on samples of ours: the module lands where the contract says, is
 * importable and pure, answers like the sample's own code, and the refusal samples exit 9.
 */
import { spawnSync } from "node:child_process";
import { buildSync } from "esbuild";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { ExitCode } from "../src/errors.js";
import { runCli } from "./helpers/cli.js";

const ROOT = join(import.meta.dirname, "..");

const run = (...args: string[]) => runCli(args, { timeout: 300_000 });

/** The sample bundled and minified, saved as a versions-folder entry named by its version. */
function release(sample: string, version: string): string {
  const dir = join(mkdtempSync(join(tmpdir(), "searchlift-lift-cli-")), "versions");
  mkdirSync(dir);
  const out = buildSync({
    entryPoints: [join(ROOT, "samples", "tool-search", `${sample}.js`)],
    bundle: true,
    format: "esm",
    minifyIdentifiers: true,
    minifyWhitespace: true,
    write: false,
    logLevel: "silent",
  });
  const file = join(dir, version);
  writeFileSync(file, out.outputFiles[0]!.text);
  return file;
}

const tools = [
  { name: "mcp__github__create_issue", description: "Create an issue in a GitHub repository" },
  { name: "mcp__github__list_pull_requests", description: "List pull requests" },
  { name: "mcp__slack__send_message", description: "Send a message to a Slack channel" },
  { name: "NotebookEdit", description: "Edit a cell of a Jupyter notebook" },
];

describe("searchlift lift", () => {
  it("writes a verified, importable module and its types under <out>/<client>/<version>/<platform>", async () => {
    const input = release("search-hint", "0.3.0");
    const out = mkdtempSync(join(tmpdir(), "searchlift-lifted-"));
    const r = run("lift", input, "--out", out, "--json", "--cases", "300");
    expect(r.code, r.stderr).toBe(0);
    const [res] = JSON.parse(r.stdout).results;
    expect(res).toMatchObject({ input, version: "0.3.0", platform: "npm", verified: { cases: 300, agreed: 300 } });
    expect(res.module).toBe(join(out, "unknown", "0.3.0", "npm", "tool-search.mjs"));
    expect(existsSync(res.module.replace(/\.mjs$/, ".d.ts"))).toBe(true);
    // The table measured by probes, as the sample's code has it: an exact name part +12 (built-in +10), a partial
    // one +6 (+5), a searchHint word +4, a description word +2; no whole-name rule.
    expect(res.table).toEqual(
      expect.arrayContaining([
        { feature: "adds: name part, exact / partial", value: "12 / 6 (built-in 10 / 5)" },
        { feature: "adds: whole server or tool name, exact / partial", value: "0 / 0 (built-in 0 / 0)" },
        { feature: "adds: searchHint word, whole / part", value: "4 / 0" },
        { feature: "adds: description word, whole / part", value: "2 / 0" },
        { feature: "select: comma list", value: "yes" },
      ]),
    );

    const m = await import(pathToFileURL(res.module).href);
    expect(m.defaults).toEqual({ maxResults: 5 });
    expect(m.provenance).toMatchObject({
      version: "0.3.0",
      platform: "npm",
      routine: "tool-search",
      verified: { cases: 300, agreed: 300 },
    });
    // What the sample's behaviour says: exact part matches rank first, select: picks by name.
    expect(await m.searchTools("github issue", tools)).toEqual(["mcp__github__create_issue", "mcp__github__list_pull_requests"]);
    expect(await m.toolSearch("select:NotebookEdit,mcp__slack__send_message", tools)).toEqual(["NotebookEdit", "mcp__slack__send_message"]);
    const scores = await m.scoreTools("slack", tools);
    expect(scores.map((s: { name: string }) => s.name)).toEqual(tools.map((t) => t.name));
    expect(scores[2].score).toBeGreaterThan(0);
    expect(scores[0].score).toBe(0);
    // No temporary files beside the module.
    expect(readFileSync(res.module, "utf8")).toContain("export { searchTools, scoreTools, toolSearch, defaults, provenance }");
  });

  it("--no-verify says so in the provenance", async () => {
    const input = release("name-parts", "0.2.0");
    const out = mkdtempSync(join(tmpdir(), "searchlift-lifted-"));
    const r = run("lift", input, "--out", out, "--no-verify", "--json");
    expect(r.code, r.stderr).toBe(0);
    const [res] = JSON.parse(r.stdout).results;
    expect(res.verified).toBe("skipped");
    const m = await import(pathToFileURL(res.module).href);
    expect(m.provenance.verified).toBe("skipped (--no-verify)");
  });

  it("--verifications: a release of a program verified before reuses that verification; nothing else does", () => {
    const records = mkdtempSync(join(tmpdir(), "searchlift-verifications-"));
    const sample = (v: string) => join(ROOT, "samples", "releases", v);
    const lift = (v: string, ...more: string[]) =>
      run("lift", sample(v), "--out", mkdtempSync(join(tmpdir(), "searchlift-lifted-")), "--cases", "200", "--json", ...more);
    // No verification of 12,000 calls finishes in a millisecond: a lift that passes within one ran none.
    const instant = ["--verify-timeout", "0.001"];

    const first = lift("0.3.0", "--verifications", records);
    expect(first.code, first.stderr).toBe(0);
    // 0.3.0 reads no field the corpus leaves out: every case returns normally on both sides.
    expect(JSON.parse(first.stdout).results[0].verified).toEqual({ cases: 200, agreed: 200, bothReturned: 200, bothThrew: 0 });
    const [record] = readdirSync(records);
    expect(record).toMatch(/^[0-9a-f]{64}\.json$/);

    // 0.3.1 is 0.3.0's code with mangled names: its verification is the one recorded.
    const same = lift("0.3.1", "--verifications", records, ...instant);
    expect(same.code, same.stderr).toBe(0);
    expect(JSON.parse(same.stdout).results[0].verified).toEqual({ cases: 200, agreed: 200, bothReturned: 200, bothThrew: 0 });
    // Without the records, or for another program, or another corpus size, the verification runs (and here times out).
    expect(lift("0.3.1", ...instant).code).toBe(ExitCode.verifyTimeout);
    expect(lift("0.4.0", "--verifications", records, ...instant).code).toBe(ExitCode.verifyTimeout);
    expect(
      run("lift", sample("0.3.1"), "--out", mkdtempSync(join(tmpdir(), "l-")), "--cases", "201", "--verifications", records, ...instant)
        .code,
    ).toBe(ExitCode.verifyTimeout);
    // A file is not a folder of records: a usage error, on one line.
    const notFolder = lift("0.3.1", "--verifications", join(records, record!));
    expect(notFolder.code).toBe(ExitCode.usage);
    expect(notFolder.stderr.trim().split("\n")).toEqual([expect.stringMatching(/--verifications: .* is not a folder$/)]);
    // A record that does not say every case agreed is not one.
    const file = join(records, record!);
    writeFileSync(file, readFileSync(file, "utf8").replace('"agreed":200', '"agreed":199'));
    expect(lift("0.3.1", "--verifications", records, ...instant).code).toBe(ExitCode.verifyTimeout);
  });

  it("the lift cache: the same input lifted again by the same searchlift is copied, said (cached); anything else is lifted", () => {
    const cache = mkdtempSync(join(tmpdir(), "searchlift-lift-cache-"));
    // As a user runs it: the suite turns the lift cache off (vitest.config.ts).
    const env = { SEARCHLIFT_LIFT_CACHE: undefined, SEARCHLIFT_QUIET: "" };
    const liftOnce = (input: string, ...more: string[]) => {
      const out = mkdtempSync(join(tmpdir(), "searchlift-lifted-"));
      // A small corpus: what is at stake is whether verification runs, not what it finds.
      const r = runCli(["lift", input, "--out", out, "--cases", "40", "--lift-cache", cache, ...more], { timeout: 300_000, env });
      expect(r.code, r.stderr).toBe(0);
      const module = join(out, "searchlift-sample", "0.3.0", "npm", "tool-search.mjs");
      // Verification runs only in a lift that is not copied: its start is a progress line.
      return { stdout: r.stdout, module: readFileSync(module, "utf8"), verified: r.stderr.includes("verifying on 40 cases") };
    };
    const input = join(ROOT, "samples", "releases", "0.3.0");
    const first = liftOnce(input);
    expect(first).toMatchObject({ verified: true });
    expect(first.stdout).not.toContain("(cached)");
    const [entry] = readdirSync(cache).filter((f) => /^[0-9a-f]{64}$/.test(f));
    expect(entry).toBeDefined();

    const again = liftOnce(input);
    expect(again.verified).toBe(false);
    expect(again.stdout).toMatch(/verified: 40\/40 cases agree.*\) \(cached\)\n$/);
    expect(again.module).toBe(first.module);

    // Another input of the same name: one byte more in its file.
    const edited = join(mkdtempSync(join(tmpdir(), "searchlift-edited-")), "0.3.0");
    writeFileSync(edited, readFileSync(input, "utf8") + "\n");
    expect(liftOnce(edited)).toMatchObject({ verified: true });
    // The lift cache turned off.
    expect(liftOnce(input, "--no-lift-cache")).toMatchObject({ verified: true });
    // A lift kept by another searchlift version.
    const kept = join(cache, entry!, "lift.json");
    writeFileSync(kept, readFileSync(kept, "utf8").replace(/"searchlift": "[^"]*"/, '"searchlift": "0.0.0"'));
    const other = liftOnce(input);
    expect(other.verified).toBe(true);
    expect(other.stdout).not.toContain("(cached)");
    // Kept again by this one, and reused.
    expect(liftOnce(input).verified).toBe(false);
  });

  it("refuses a routine that reaches the host, naming it, with exit 9 and nothing written", () => {
    const out = mkdtempSync(join(tmpdir(), "searchlift-lifted-"));
    const r = run("lift", join(ROOT, "samples", "lift", "env-weight.js"), "--out", out);
    expect(r.code).toBe(ExitCode.notLiftable);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/process/);
    expect(spawnSync("find", [out, "-type", "f"], { encoding: "utf8" }).stdout).toBe("");
  });
});
