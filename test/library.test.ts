/**
 * The library as a user gets it: the built package entry (dist/index.js, through package.json's `exports`)
 * runs every stage on the sample releases, each reporting progress through `onProgress`; and its types
 * check a consumer that uses every stage (tsc on a small file), and catch one that misuses one.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
// Typed by the sources; what runs is the built entry (the declarations are checked on their own below).
import type * as Searchlift from "../src/index.js";

const ROOT = join(import.meta.dirname, "..");
const RELEASES = join(ROOT, "samples", "releases");
const FAKE_NPM = join(import.meta.dirname, "helpers", "fake-npm.mjs");
const tmp = (name: string) => mkdtempSync(join(tmpdir(), `searchlift-library-${name}-`));

/** The package's own entry, as `import "searchlift"` resolves it (package.json exports ".": dist/index.js). */
async function entry(): Promise<typeof Searchlift> {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  return (await import(join(ROOT, pkg.exports["."].default))) as typeof Searchlift;
}

/** An onProgress that keeps its events. */
function recorder() {
  const events: Searchlift.ProgressEvent[] = [];
  return { events, onProgress: (e: Searchlift.ProgressEvent) => void events.push(e), stages: () => new Set(events.map((e) => e.stage)) };
}

describe("the library (dist/index.js)", () => {
  it("runs every stage on the sample releases, with progress events", async () => {
    const s = await entry();
    const sample = (v: string) => join(RELEASES, v);

    const c = s.openContainer(sample("0.7.0"));
    expect(c.modules.length).toBeGreaterThan(0);
    c.close();

    const loc = recorder();
    const found = await s.locate(sample("0.7.0"), { routines: ["tool-search/scorer"], onProgress: loc.onProgress });
    expect(found).toMatchObject([{ id: "tool-search/scorer", status: "found" }]);
    expect(loc.events.at(-1)).toMatchObject({ stage: "locate", message: "tool-search/scorer: found" });
    await expect(s.locate(sample("0.7.0"), { routines: ["no/such"] })).rejects.toMatchObject({ exitCode: s.ExitCode.usage });

    // Verified on a small corpus: the verification's events come through too, with its count of cases run as the
    // verifier (a process of its own) tells it, each hundred.
    const out = tmp("lift");
    const lf = recorder();
    const lifted = await s.lift(sample("0.7.0"), { out, cases: 300, onProgress: lf.onProgress });
    expect(lifted).toMatchObject({ version: "0.7.0", platform: "npm", verified: { cases: 300, agreed: 300 } });
    expect(existsSync(lifted.module)).toBe(true);
    expect([...lf.stages()]).toEqual(["lift", "verify"]);
    expect(lf.events.filter((e) => e.stage === "verify").map((e) => `${e.done}/${e.total}: ${e.message}`)).toEqual([
      "0/300: verifying on 300 cases",
      "100/300: verifying on 300 cases",
      "200/300: verifying on 300 cases",
      "300/300: 300/300 cases agree",
    ]);
    await expect(s.lift(join(ROOT, "samples", "refused", "0.8.0"), { out, verify: false })).rejects.toBeInstanceOf(s.SearchliftError);

    const df = recorder();
    const d = await s.diff(sample("0.4.0"), sample("0.5.0"), { onProgress: df.onProgress });
    expect(d.code.changed).toBe(true);
    expect(d.semantics.find((r) => r.feature === "select: comma list")).toMatchObject({ before: "no", after: "yes" });
    expect(df.events.map((e) => e.done)).toEqual([0, 1, 2]);

    const tr = recorder();
    const timeline = tmp("timeline");
    const t = await s.track([sample("0.3.0"), sample("0.3.1"), sample("0.4.0")], {
      out: timeline,
      cache: tmp("cache"),
      verify: false,
      jobs: 1,
      onProgress: tr.onProgress,
    });
    expect(t.timeline.groups.map((g) => `${g.first}-${g.last}`)).toEqual(["0.3.0-0.3.1", "0.4.0-0.4.0"]);
    expect(tr.events.filter((e) => e.stage === "track").map((e) => `${e.done}/${e.total}`)).toEqual(["1/3", "2/3", "3/3"]);
    // The change points: how many, then each as it is compared (k of n).
    expect(tr.events.filter((e) => e.stage === "diff")).toEqual([
      { stage: "diff", message: "comparing 1 change point", done: 0, total: 1 },
      { stage: "diff", message: "compared 0.3.1 → 0.4.0", done: 1, total: 1 },
    ]);

    const ck = recorder();
    const tools = [s.clientTool("weather", { name: "get_forecast", description: "Weather forecast for a city" })];
    const r = await s.check(
      { server: "weather", tools, competitors: [], queries: s.defaultQueries(tools), modules: [lifted.module] },
      { onProgress: ck.onProgress },
    );
    expect(r.results.length).toBeGreaterThan(0);
    expect(ck.events.map((e) => `${e.done}/${e.total}: ${e.message}`)).toEqual([
      `0/1: ranking 1 tool on ${s.defaultQueries(tools).length} queries with 1 release`,
      "1/1: ranked with 0.7.0 (npm)",
      "1/1: 0 tools unfound",
    ]);
  });

  it("two lifts of one program in one process share its verification; another program gets its own", async () => {
    const s = await entry();
    const out = tmp("shared");
    // 0.3.0 and 0.3.1 are one sample built twice, the second with mangled names; 0.4.0 is another scorer.
    const runs = ["0.3.0", "0.3.1", "0.4.0"].map((v) => {
      const r = recorder();
      return { r, lift: s.lift(join(RELEASES, v), { out, cases: 80, onProgress: r.onProgress }) };
    });
    const lifted = await Promise.all(runs.map((x) => x.lift));
    for (const l of lifted) expect(l.verified).toEqual({ cases: 80, agreed: 80, bothReturned: 80, bothThrew: 0 });
    const started = runs.map(({ r }) => r.events.find((e) => e.stage === "verify")!.message);
    const own = "verifying on 80 cases";
    const shared = "the same program as another release lifted in this run: its verification on 80 cases";
    // Whichever of 0.3.0 and 0.3.1 reaches verification first runs it; the other waits for its outcome.
    expect([started[0], started[1]].sort()).toEqual([shared, own].sort());
    expect(started[2]).toBe(own);
    for (const { r } of runs) expect(r.events.map((e) => e.message)).toContain("80/80 cases agree");
  });

  it("fetch reports each release through onProgress (a stand-in npm over a sample tarball)", async () => {
    const s = await entry();
    const registry = tmp("registry");
    const work = tmp("package");
    mkdirSync(join(work, "package"));
    writeFileSync(join(work, "package", "cli.js"), readFileSync(join(RELEASES, "0.5.0")));
    writeFileSync(join(work, "package", "package.json"), JSON.stringify({ name: "@anthropic-ai/claude-code", version: "0.5.0" }));
    mkdirSync(join(registry, "anthropic-ai-claude-code"));
    expect(spawnSync("tar", ["-czf", join(registry, "anthropic-ai-claude-code", "0.5.0.tgz"), "-C", work, "package"]).status).toBe(0);
    chmodSync(FAKE_NPM, 0o755);
    const saved = { npm: process.env.SEARCHLIFT_NPM, registry: process.env.FAKE_NPM_REGISTRY };
    process.env.SEARCHLIFT_NPM = FAKE_NPM;
    process.env.FAKE_NPM_REGISTRY = registry;
    try {
      const f = recorder();
      const r = await s.fetch("0.5.0", { cache: tmp("releases"), platform: "npm", onProgress: f.onProgress });
      expect(r.releases).toMatchObject([{ version: "0.5.0", platform: "npm", cached: false }]);
      expect(f.events.length).toBeGreaterThan(0);
      expect(f.events.every((e) => e.stage === "fetch" && /0\.5\.0/.test(e.message))).toBe(true);
    } finally {
      for (const [k, v] of [
        ["SEARCHLIFT_NPM", saved.npm],
        ["FAKE_NPM_REGISTRY", saved.registry],
      ] as const) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });

  it("its declarations type a consumer of every stage, and reject a misuse", () => {
    const dir = tmp("consumer");
    mkdirSync(join(dir, "node_modules"));
    symlinkSync(ROOT, join(dir, "node_modules", "searchlift"), "dir");
    const good = `import { openContainer, locate, lift, diff, track, fetch, check, clientTool, defaultQueries, type ProgressEvent, type LiftResult, type Timeline } from "searchlift";
const onProgress = (e: ProgressEvent): void => console.log(e.stage, e.message, e.done ?? 0, e.total ?? 0);
export async function all(input: string): Promise<number> {
  const c = openContainer(input);
  const n: number = c.modules.length;
  c.close();
  const found = await locate(input, { routines: ["tool-search/scorer"], onProgress });
  const r: LiftResult = await lift(input, { out: "lifted", verify: false, onProgress });
  const d = await diff(input, r.module, { onProgress });
  const t: Timeline = (await track([input], { out: "timeline", verify: false, onProgress })).timeline;
  const f = await fetch("latest", { dryRun: true, onProgress });
  const tools = [clientTool("s", { name: "t" })];
  const k = await check({ server: "s", tools, competitors: [], queries: defaultQueries(tools), modules: [r.module] }, { onProgress });
  return n + found.length + d.semantics.length + t.groups.length + f.releases.length + k.unfound.length;
}
`;
    const bad = `import { lift } from "searchlift";\nexport const p = lift("x", { verify: false });\n`;
    const tsc = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      writeFileSync(
        join(dir, "tsconfig.json"),
        JSON.stringify({
          compilerOptions: {
            strict: true,
            module: "nodenext",
            moduleResolution: "nodenext",
            target: "es2022",
            noEmit: true,
            skipLibCheck: false,
            typeRoots: [join(ROOT, "node_modules", "@types")],
            types: ["node"],
          },
          files: [name],
        }),
      );
      return spawnSync(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", dir], {
        encoding: "utf8",
        timeout: 300_000,
      });
    };
    const ok = tsc("consumer.ts", good);
    expect(ok.status, ok.stdout + ok.stderr).toBe(0);
    // lift without `out`: the declarations say it is required.
    const wrong = tsc("misuse.ts", bad);
    expect(wrong.status).not.toBe(0);
    expect(wrong.stdout).toMatch(/misuse\.ts[\s\S]*Property 'out' is missing/);
  });
});
