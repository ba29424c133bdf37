/**
 * Witnesses by search on the sample releases (each pair a known change; 0.3.0 and 0.3.1 are the same code)
 * and on real releases (lifted by the command line into a cache outside the checkout; skipped under
 * SEARCHLIFT_SKIP_REAL=1). Every witness reported is replayed here on both modules and must answer differently.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { liftInput } from "../lift/lift.js";
import { impurities } from "../lift/purity.js";
import { resultsAgree } from "../verify/verify.js";
import { diffInputs, type DiffResult } from "./diff.js";
import { sandboxScript, type WitnessReport } from "./behaviour.js";
import { runCalls } from "./witness-run.js";
import { ROOT, runCli } from "../../test/helpers/cli.js";
import { toolSearchPack } from "../routines/tool-search/index.js";

const skipReal = process.env.SEARCHLIFT_SKIP_REAL === "1";

/** Each witness replayed alone on fresh children of both modules: the answers must differ, as reported. */
async function expectReplays(r: DiffResult, moduleA: string, moduleB: string): Promise<void> {
  const side = (p: string) => ({ script: sandboxScript(readFileSync(p, "utf8"), p), label: p });
  const calls = r.behaviour.changed.map((w) => ({
    fn: w.function,
    query: w.query,
    deferred: w.deferred,
    loaded: w.loaded,
    ...(w.maxResults !== undefined ? { maxResults: w.maxResults } : {}),
  }));
  if (calls.length === 0) return;
  const [ra, rb] = await Promise.all([runCalls(side(moduleA), calls), runCalls(side(moduleB), calls)]);
  calls.forEach((_, i) => expect(resultsAgree(ra[i]!, rb[i]!), JSON.stringify(calls[i]).slice(0, 300)).toBe(false));
}

describe("witnesses on the sample releases", () => {
  const lifted = new Map<string, string>();
  const lift = async (v: string) => {
    if (!lifted.has(v))
      lifted.set(
        v,
        (
          await liftInput(join(ROOT, "samples", "releases", v), {
            out: mkdtempSync(join(tmpdir(), "searchlift-w-")),
            verify: false,
            pack: toolSearchPack,
          })
        ).module,
      );
    return lifted.get(v)!;
  };
  const pairs = [
    ["0.1.0", "0.2.0"],
    ["0.2.0", "0.3.0"],
    ["0.3.1", "0.4.0"],
    ["0.4.0", "0.5.0"],
    ["0.5.0", "0.6.0"],
    ["0.6.0", "0.7.0"],
  ];
  for (const [x, y] of pairs) {
    it(`${x} → ${y}: at least one witness, each replaying differently, each with a sentence`, async () => {
      const [a, b] = [await lift(x!), await lift(y!)];
      const r = await diffInputs(a, b, { pack: toolSearchPack });
      expect(r.behaviour.changed.length).toBeGreaterThan(0);
      expect(r.behaviour.changed.length).toBeLessThanOrEqual(10);
      expect(r.behaviour.searched).toBeGreaterThan(0);
      // Every witness is said: alone, with its twin of the other list function (same input, same answers), or by
      // the rule found behind it or behind a witness on the same input.
      const both = (summary: string) => summary.replace(/^(toolSearch|searchTools) /, "toolSearch and searchTools ");
      const input = (w: WitnessReport) => JSON.stringify([w.query, w.deferred, w.loaded, w.maxResults]);
      const head = (line: string) => line.split(": ")[0];
      const ruled = (w: WitnessReport) =>
        r.behaviour.changed.some(
          (x) => x.rule !== undefined && input(x) === input(w) && r.behaviour.sentences.some((l) => head(l) === head(x.rule!)),
        );
      for (const w of r.behaviour.changed)
        expect(r.behaviour.sentences.includes(w.summary) || r.behaviour.sentences.includes(both(w.summary)) || ruled(w), w.summary).toBe(
          true,
        );
      for (const w of r.behaviour.changed) expect(w.summary).toContain(w.function);
      await expectReplays(r, a, b);
    }, 120_000);
  }

  it("0.3.0 → 0.3.1 (the same code): no witness, and the text says how far it searched", async () => {
    const r = await diffInputs(await lift("0.3.0"), await lift("0.3.1"), { pack: toolSearchPack });
    expect(r.behaviour.changed).toEqual([]);
    expect(r.semantics.filter((s) => s.changed)).toEqual([]);
    const { formatDiff } = await import("./diff.js");
    expect(formatDiff(r)).toMatch(new RegExp(`^no behaviour difference found in ${r.behaviour.searched} cases`, "m"));
  }, 120_000);
});

/** A release lifted by the command line (fetched into /tmp/rel), its module's path. */
function liftedRelease(v: string, platform: "linux-x64" | "npm"): string {
  const out = join(homedir(), ".cache", "searchlift", "witness-lifts");
  const module = join(out, "claude-code", v, platform, "tool-search.mjs");
  // A lift kept from an earlier build is used only if this build's static check still accepts it.
  if (existsSync(module) && impurities(readFileSync(module, "utf8")).length === 0) return module;
  const fetchArgs = platform === "npm" ? ["fetch", v, "--cache", "/tmp/rel"] : ["fetch", v, "--platform", platform, "--cache", "/tmp/rel"];
  const f = runCli(fetchArgs);
  if (f.code !== 0) throw new Error(`fetch ${v}: ${f.stderr}`);
  const dir = join("/tmp/rel", v, platform);
  const tgz = readdir(dir).find((n) => n.endsWith(".tgz"))!;
  const l = runCli(["lift", join(dir, tgz), "--out", out, "--no-verify"]);
  if (l.code !== 0) throw new Error(`lift ${v}: ${l.stderr}`);
  return module;
}

function readdir(d: string): string[] {
  return spawnSync("ls", [d], { encoding: "utf8" }).stdout.split("\n").filter(Boolean);
}

describe.skipIf(skipReal)("witnesses on real releases", () => {
  const row = (r: DiffResult, f: string) => r.semantics.find((s) => s.feature === f);

  it("2.1.270 → 2.1.271: select: by a bare MCP tool name", async () => {
    const [a, b] = [liftedRelease("2.1.270", "linux-x64"), liftedRelease("2.1.271", "linux-x64")];
    const r = await diffInputs(a, b, { pack: toolSearchPack });
    expect(row(r, "select: bare MCP tool name")).toMatchObject({ before: "no", after: "yes", changed: true });
    const w = r.behaviour.changed.find((x) => x.function === "toolSearch" && /^select:create_issue$/i.test(x.query.trim()));
    expect(w?.before).toEqual([]);
    expect(w?.after).toEqual(["mcp__github__create_issue"]);
    expect(r.behaviour.sentences[0]).toMatch(/^`select:` now also finds an MCP tool by its bare tool name/);
    await expectReplays(r, a, b);
  }, 300_000);

  // More change points where the probe rows change (so the modules behave differently): each must give a
  // witness that replays differently.
  for (const [x, y, platform] of [
    ["2.1.14", "2.1.19", "npm"],
    ["2.1.112", "2.1.124", "linux-x64"],
    ["2.1.295", "2.1.300", "linux-x64"],
  ] as const) {
    it(`${x} → ${y}: behaviour differs, so at least one witness, each replaying differently`, async () => {
      const [a, b] = [liftedRelease(x, x === "2.1.112" ? "npm" : platform), liftedRelease(y, platform)];
      const r = await diffInputs(a, b, { pack: toolSearchPack });
      expect(r.semantics.some((s) => s.changed)).toBe(true);
      expect(r.behaviour.changed.length).toBeGreaterThan(0);
      await expectReplays(r, a, b);
    }, 300_000);
  }

  it("2.1.306 → 2.1.316: code changes that do not change behaviour give no witness", async () => {
    const r = await diffInputs(liftedRelease("2.1.306", "linux-x64"), liftedRelease("2.1.316", "linux-x64"), { pack: toolSearchPack });
    expect(r.code.changed).toBe(true);
    expect(r.behaviour.changed).toEqual([]);
    expect(r.semantics.filter((s) => s.changed)).toEqual([]);
  }, 300_000);

  it("2.1.300 → 2.1.332: no false 'no' rows; the caps are measured", async () => {
    const [a, b] = [liftedRelease("2.1.300", "linux-x64"), liftedRelease("2.1.332", "linux-x64")];
    const r = await diffInputs(a, b, { pack: toolSearchPack });
    for (const f of ["exact name in another case", "exact name: loaded tool", "select: loaded tools too", "description: whole word"])
      expect(row(r, f)).toMatchObject({ before: "yes", after: "yes" });
    expect(row(r, "query cap (characters)")?.after).toBe("16384");
    expect(row(r, "searchHint cap (characters)")?.after).toBe("4096");
    await expectReplays(r, a, b);
  }, 300_000);

  it("2.0.70 → 2.1.112 and 2.1.294 → 2.1.295: witnesses that replay; the caps appear in 2.1.295", async () => {
    const [a, b] = [liftedRelease("2.0.70", "npm"), liftedRelease("2.1.112", "npm")];
    const r = await diffInputs(a, b, { pack: toolSearchPack });
    expect(r.behaviour.changed.length).toBeGreaterThan(0);
    expect(row(r, "+required terms")).toMatchObject({ before: "no", after: "yes" });
    await expectReplays(r, a, b);
    const [c, d] = [liftedRelease("2.1.294", "linux-x64"), liftedRelease("2.1.295", "linux-x64")];
    const s = await diffInputs(c, d, { pack: toolSearchPack });
    expect(row(s, "query cap (characters)")?.after).toBe("16384");
    expect(row(s, "query cap (characters)")?.changed).toBe(true);
    await expectReplays(s, c, d);
  }, 600_000);
});
