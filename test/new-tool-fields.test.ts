/**
 * A release whose scorer reads a tool field the contract does not name (issue 39, "new inputs are noticed"):
 * the sample release 0.3.0 with one more scoring clause on `tool.title`, through the CLI (dist/). lift says
 * so, lists the field in provenance, passes it through and verifies on cases that give it values; diff names
 * the field and finds the behaviour it changes. Hostile field names are refused, never written.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { toolSearchPack } from "../src/routines/tool-search/index.js";
import { defaultCorpus } from "../src/routines/tool-search/corpus.js";
import { ExitCode } from "../src/errors.js";
import { runCli } from "./helpers/cli.js";

const ROOT = join(import.meta.dirname, "..");
const BASE = join(ROOT, "samples", "releases", "0.3.0");
const ANCHOR = "        if (patterns.get(term).test(description)) score += 2;\n";

const run = (...args: string[]) => runCli(args, { timeout: 300_000 });

/** 0.3.0 with `line` added to the scorer's loop, in a folder of its own. */
function mutated(line: string, name = "x.js"): string {
  const text = readFileSync(BASE, "utf8");
  if (!text.includes(ANCHOR)) throw new Error("the sample's scorer changed");
  const file = join(mkdtempSync(join(tmpdir(), "searchlift-fields-")), name);
  writeFileSync(file, text.replace(ANCHOR, ANCHOR + line + "\n"));
  return file;
}

const TITLE = "        if (tool.title && tool.title.toLowerCase().includes(term)) score += 4;";

describe("a tool field the contract does not name", () => {
  let input: string;
  beforeAll(() => {
    input = mutated(TITLE);
  });

  it("lift reports it, passes it through, lists it in provenance and verifies on cases that give it values", async () => {
    const out = mkdtempSync(join(tmpdir(), "searchlift-fields-out-"));
    const r = run("lift", input, "--out", out, "--json");
    expect(r.code, r.stderr).toBe(0);
    const [res] = JSON.parse(r.stdout).results;
    expect(res.toolFields).toEqual(["title"]);
    expect(res.toolFieldsRefused).toBeUndefined();
    // Every case agrees; some threw on both sides, which only title values of other types make this clause do
    // (the unedited release returns normally on all 2000).
    expect(res.verified).toMatchObject({ cases: 2000, agreed: 2000 });
    expect(res.verified.bothThrew).toBeGreaterThan(0);
    expect(res.verified.bothReturned).toBeGreaterThanOrEqual(1500);

    const text = readFileSync(res.module, "utf8");
    expect(text).toContain("  if (tool.title !== undefined) seen.title = tool.title;\n");
    expect(text).toMatch(/^\/\/ Reads tool fields the contract does not name, passed through as given: title\.$/m);
    const m = await import(pathToFileURL(res.module).href);
    expect(m.provenance.toolFields).toEqual(["title"]);
    // Passed as given: the field decides a score only when the tool has it.
    const tool = { name: "mcp__probe__tool_x", description: "Does a thing" };
    expect(await m.scoreTools("zephyr", [tool])).toEqual([{ name: tool.name, score: 0 }]);
    expect(await m.scoreTools("zephyr", [{ ...tool, title: "Zephyr widget" }])).toEqual([{ name: tool.name, score: 4 }]);

    // Without --json, a note on stderr.
    const plain = run("lift", input, "--out", mkdtempSync(join(tmpdir(), "searchlift-fields-out-")), "--no-verify");
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stderr).toMatch(/reads tool fields the contract does not name.*: title\n/);
  });

  it("the corpus gives it values on some cases, the same on every run, and is unchanged without it", () => {
    const plain = toolSearchPack.corpus(2000);
    expect(plain).toEqual(defaultCorpus(1, 2000));
    const cases = toolSearchPack.corpus(2000, ["title"]);
    expect(cases).toHaveLength(2000);
    expect(cases).toEqual(toolSearchPack.corpus(2000, ["title"]));
    const titled = cases.filter((c) => [...c.deferred, ...(c.loaded ?? [])].some((t) => "title" in t));
    expect(titled.length).toBeGreaterThan(1500);
    const strings = cases.flatMap((c) => c.deferred.map((t) => t.title)).filter((v) => typeof v === "string");
    expect(strings.length).toBeGreaterThan(5000);
    // Some values hold the query's own words, so that a rule matching them fires.
    expect(
      cases.filter((c) => c.query.length > 2 && c.deferred.some((t) => typeof t.title === "string" && t.title.includes(c.query))).length,
    ).toBeGreaterThan(100);
    expect(cases.some((c) => c.deferred.some((t) => "title" in t && typeof t.title !== "string"))).toBe(true);
    // The cases are those of the plain corpus, with only the field added.
    cases.forEach((c, i) => {
      expect(c.query).toBe(plain[i]!.query);
      expect(c.deferred.map(({ title: _t, ...rest }) => rest)).toEqual(plain[i]!.deferred);
    });
  });

  it("diff names the field and finds the behaviour it changes", () => {
    const r = run("diff", BASE, input, "--json");
    expect(r.code, r.stderr).toBe(0);
    const d = JSON.parse(r.stdout);
    expect(d.semantics).toContainEqual({ feature: "tool fields read beyond the contract", before: "none", after: "title", changed: true });
    expect(d.behaviour.sentences).toContain("now reads the tool field `title`, which the contract does not name (passed through as given)");
    expect(d.behaviour.changed.length).toBeGreaterThan(0);
    expect(d.behaviour.changed.some((w: { deferred: Array<Record<string, unknown>> }) => w.deferred.some((t) => "title" in t))).toBe(true);
    // And back: the field is no longer read.
    const rb = run("diff", input, BASE, "--json");
    expect(rb.code, rb.stderr).toBe(0);
    const back = JSON.parse(rb.stdout);
    expect(back.behaviour.sentences).toContain("no longer reads the tool field `title`");
  });
});

describe("hostile field names", () => {
  it("are reported and not passed: a name of Object.prototype and one of 10,000 characters", () => {
    const long = "a".repeat(10_000);
    const input = mutated(`        if (tool.${long} && tool.hasOwnProperty("name")) score += 1;`);
    const out = mkdtempSync(join(tmpdir(), "searchlift-fields-out-"));
    const r = run("lift", input, "--out", out, "--json");
    expect(r.code, r.stderr).toBe(0);
    const [res] = JSON.parse(r.stdout).results;
    expect(res.toolFields).toBeUndefined();
    expect(res.toolFieldsRefused).toEqual([
      { name: `${"a".repeat(40)}… (10000 characters)`, why: expect.stringMatching(/not a plain name/) },
      { name: "hasOwnProperty", why: "a member of Object.prototype" },
    ]);
    expect(res.verified).toMatchObject({ cases: 2000, agreed: 2000 });
    const text = readFileSync(res.module, "utf8");
    expect(text).not.toContain("seen.hasOwnProperty");
    expect(text).not.toContain(`seen.${long}`);
    expect(text).not.toContain("toolFields");
    const plain = run("lift", input, "--out", mkdtempSync(join(tmpdir(), "searchlift-fields-out-")), "--no-verify");
    expect(plain.stderr).toContain(`the tool field "${"a".repeat(40)}… (10000 characters)", not passed`);
    expect(plain.stderr.length).toBeLessThan(2000);
  });

  it("a release reading a forbidden name is refused by the safety check, and nothing is written", () => {
    for (const line of [
      "        if (tool.constructor && tool.constructor.name === term) score += 1;",
      '        if (tool["__proto__"] && term === "x") score += 1;',
    ]) {
      const out = mkdtempSync(join(tmpdir(), "searchlift-fields-out-"));
      const r = run("lift", mutated(line), "--out", out, "--no-verify");
      expect(r.code, r.stderr).toBe(ExitCode.notLiftable);
      expect(r.stderr).toMatch(/property (constructor|__proto__)/);
    }
  });
});

describe("a property read inside a contract field that the contract does not name there", () => {
  const LABEL =
    '        if (tool.mcpInfo && typeof tool.mcpInfo.label === "string" && tool.mcpInfo.label.toLowerCase().includes(term)) score += 3;';
  let input: string;
  beforeAll(() => {
    input = mutated(LABEL);
  });

  it("lift reports it as mcpInfo.label, lists it in provenance and verifies on cases that give it values", async () => {
    const out = mkdtempSync(join(tmpdir(), "searchlift-fields-out-"));
    const r = run("lift", input, "--out", out, "--json");
    expect(r.code, r.stderr).toBe(0);
    const [res] = JSON.parse(r.stdout).results;
    expect(res.toolFields).toEqual(["mcpInfo.label"]);
    expect(res.verified).toMatchObject({ cases: 2000, agreed: 2000 });
    const text = readFileSync(res.module, "utf8");
    expect(text).toMatch(/^\/\/ Reads tool fields the contract does not name, passed through as given: mcpInfo\.label\.$/m);
    // mcpInfo is passed as given already: no adapter line of its own.
    expect(text).not.toContain("seen.label");
    const m = await import(pathToFileURL(res.module).href);
    expect(m.provenance.toolFields).toEqual(["mcpInfo.label"]);
    const tool = { name: "mcp__probe__tool_x", description: "Does a thing", mcpInfo: { serverName: "probe", toolName: "tool_x" } };
    expect(await m.scoreTools("zephyr", [tool])).toEqual([{ name: tool.name, score: 0 }]);
    const labelled = { ...tool, mcpInfo: { ...tool.mcpInfo, label: "Zephyr widget" } };
    expect(await m.scoreTools("zephyr", [labelled])).toEqual([{ name: tool.name, score: 3 }]);
  });

  it("the corpus sets it inside the tools' own mcpInfo, on some cases, and gives no tool an mcpInfo it lacked", () => {
    const plain = toolSearchPack.corpus(2000);
    const cases = toolSearchPack.corpus(2000, ["mcpInfo.label"]);
    expect(cases).toEqual(toolSearchPack.corpus(2000, ["mcpInfo.label"]));
    let labelled = 0;
    cases.forEach((c, i) => {
      expect(c.query).toBe(plain[i]!.query);
      c.deferred.forEach((t, j) => {
        const before = plain[i]!.deferred[j]!;
        const { label, ...info } = (t.mcpInfo ?? {}) as Record<string, unknown>;
        if (label !== undefined) labelled++;
        expect({ ...t, ...(t.mcpInfo ? { mcpInfo: info } : {}) }).toEqual(before);
      });
    });
    expect(labelled).toBeGreaterThan(1000);
  });

  it("diff names it and finds the behaviour it changes", () => {
    const r = run("diff", BASE, input, "--json");
    expect(r.code, r.stderr).toBe(0);
    const d = JSON.parse(r.stdout);
    expect(d.semantics).toContainEqual({
      feature: "tool fields read beyond the contract",
      before: "none",
      after: "mcpInfo.label",
      changed: true,
    });
    expect(d.behaviour.sentences).toContain(
      "now reads the tool field `mcpInfo.label`, which the contract does not name (passed through as given)",
    );
    expect(
      d.behaviour.changed.some((w: { deferred: Array<{ mcpInfo?: Record<string, unknown> }> }) =>
        w.deferred.some((t) => t.mcpInfo?.label !== undefined),
      ),
    ).toBe(true);
  });
});
