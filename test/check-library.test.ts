/**
 * The library's check takes its releases as every command takes inputs: versions, ranges and folders of releases
 * (through src/api/inputs.ts, as `track`), release files, lifted modules. Offline: a stand-in npm
 * (test/helpers/fake-npm.mjs) serves sample releases 0.4.0 and 0.5.0 as @anthropic-ai/claude-code versions. The
 * expected ranks follow from the samples' history (samples/tool-search): search hints are read from 0.5.0
 * (search-hint.js) and not by 0.4.0 (required-terms.js), so "storm warning", list_alerts's hint and none of its other
 * words, returns it first on 0.5.0 and not at all on 0.4.0.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as Searchlift from "../src/index.js";
import { useSampleRegistry } from "./helpers/sample-registry.js";

const ROOT = join(import.meta.dirname, "..");
const RELEASES = join(ROOT, "samples", "releases");
const work = mkdtempSync(join(tmpdir(), "searchlift-check-library-"));
const releaseCache = join(work, "releases");
const liftCache = join(work, "lifts");

async function entry(): Promise<typeof Searchlift> {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  return (await import(join(ROOT, pkg.exports["."].default))) as typeof Searchlift;
}

let restoreEnv = () => {};

beforeAll(() => {
  restoreEnv = useSampleRegistry(work, ["0.4.0", "0.5.0"]);
});

afterAll(() => {
  restoreEnv();
  rmSync(work, { recursive: true, force: true });
});

describe("the library's check takes the CLI's inputs as releases", () => {
  /** The sample server's weather tools, and "storm warning" as list_alerts's query. */
  async function catalog() {
    const s = await entry();
    const tools = [
      { name: "get_forecast", description: "Get the weather forecast for a city for the next days" },
      {
        name: "list_alerts",
        description: "List active severe weather alerts for a region",
        _meta: { "anthropic/searchHint": "storm warning" },
      },
      { name: "geocode.lookup", description: "Find the coordinates of a place name" },
    ].map((t) => s.clientTool("weather demo", t));
    return {
      s,
      input: {
        server: "weather demo",
        tools,
        competitors: [],
        queries: [{ text: "storm warning", owners: ["mcp__weather_demo__list_alerts"] }],
      },
    };
  }
  const ranks = (r: Searchlift.CheckResult) => r.results.find((x) => x.tool === "mcp__weather_demo__list_alerts")!.ranks;

  it("a range, a folder of releases, versions and release files: each release ranked on its own, alike", async () => {
    const { s, input } = await catalog();
    const events: Searchlift.ProgressEvent[] = [];
    const range = await s.check({ ...input, releases: ["0.4.0-0.5.0"] }, { releaseCache, liftCache, onProgress: (e) => events.push(e) });
    expect(range.releases.map((r) => r.version)).toEqual(["0.4.0", "0.5.0"]);
    expect(ranks(range)).toEqual({ "0.4.0": null, "0.5.0": 1 });
    // Which file each version became is said, as for the other commands (stage "fetch"); each release's lift (k of n)
    // and its verification's count of cases; then the ranking, release by release.
    expect(events.some((e) => e.stage === "fetch" && /0\.4\.0 \(npm\) → .*\.tgz/.test(e.message))).toBe(true);
    for (const k of [1, 2]) {
      expect(
        events.some(
          (e) => e.stage === "lift" && e.message.startsWith(`release ${k} of 2, `) && /: lifting \(once; kept in /.test(e.message),
        ),
      ).toBe(true);
      const counts = events.filter((e) => e.stage === "verify" && e.message.startsWith(`release ${k} of 2, `)).map((e) => e.done);
      expect(counts).toEqual([
        0, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1100, 1200, 1300, 1400, 1500, 1600, 1700, 1800, 1900, 2000,
      ]);
    }
    expect(events.filter((e) => e.stage === "check").map((e) => `${e.done}/${e.total}`)).toEqual(["0/2", "1/2", "2/2", "2/2"]);

    // fetch's release cache, which the range filled, as a folder of releases.
    const folder = await s.check({ ...input, releases: [releaseCache] }, { liftCache });
    expect(folder.releases.map((r) => r.version)).toEqual(["0.4.0", "0.5.0"]);
    expect(ranks(folder)).toEqual(ranks(range));
    const versions = await s.check({ ...input, releases: ["0.4.0", "0.5.0"] }, { releaseCache, liftCache });
    expect(ranks(versions)).toEqual(ranks(range));
    // The release files themselves, and the modules lifted from them given as modules: the same ranks.
    const files = await s.check({ ...input, releases: ["0.4.0", "0.5.0"].map((v) => join(RELEASES, v)) }, { liftCache });
    expect(Object.values(ranks(files))).toEqual([null, 1]);
    const modules = await s.check({ ...input, modules: files.releases.map((r) => r.module) });
    expect(ranks(modules)).toEqual(ranks(files));
  });

  it("refuses a folder that holds no release, and a range that holds no published version", async () => {
    const { s, input } = await catalog();
    const empty = join(work, "empty");
    mkdirSync(empty, { recursive: true });
    await expect(s.check({ ...input, releases: [empty] }, { liftCache })).rejects.toMatchObject({ exitCode: s.ExitCode.usage });
    await expect(s.check({ ...input, releases: ["0.9.0-0.9.5"] }, { releaseCache, liftCache })).rejects.toMatchObject({
      exitCode: s.ExitCode.notPublished,
    });
  });
});
