import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ExitCode, SearchliftError } from "./errors.js";
import { checkOutput, liftedInTimeline } from "./output-folder.js";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A fresh folder holding `files` (name → text). */
function folder(files: Record<string, string>): string {
  const d = mkdtempSync(join(tmpdir(), "out-"));
  dirs.push(d);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(d, name, ".."), { recursive: true });
    writeFileSync(join(d, name), text);
  }
  return d;
}

function refusal(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(SearchliftError);
    expect((e as SearchliftError).exitCode).toBe(ExitCode.output);
    return (e as SearchliftError).message;
  }
  throw new Error("not refused");
}

const timeline = JSON.stringify({ releases: [{ routineHash: "ab" }, { error: "x" }, null], groups: [] });

describe("--out folders read back", () => {
  it("a timeline.json of track's shape is track's own, and its lifted releases are counted", () => {
    const d = folder({ "timeline.json": timeline });
    expect(checkOutput(d, "track")).toBe("own");
    expect(liftedInTimeline(d)).toBe(1);
  });

  it("a timeline.json that does not parse or is of another shape is refused as not searchlift's, in one line", () => {
    for (const bad of [timeline.slice(0, -1), "null", JSON.stringify({ releases: {}, groups: [] }), JSON.stringify({ releases: [] })]) {
      const d = folder({ "timeline.json": bad });
      expect(refusal(() => checkOutput(d, "track"))).toMatch(/^--out is a folder searchlift did not write \(it holds .*timeline\.json/);
      expect(liftedInTimeline(d)).toBe(bad.includes('releases":[]') ? 0 : null);
    }
  });

  it("extract's manifest names its files; one of another shape is said to be the stray entry", () => {
    const manifest = JSON.stringify({ modules: [{ file: "m/a.mjs" }] });
    expect(checkOutput(folder({ "manifest.json": manifest, "m/a.mjs": "" }), "extract", true)).toBe("own");
    for (const bad of [{ modules: {} }, { modules: [{ file: 3 }] }]) {
      const d = folder({ "manifest.json": JSON.stringify(bad), "m/a.mjs": "" });
      expect(refusal(() => checkOutput(d, "extract", true))).toMatch(/it holds .*manifest\.json/);
    }
  });
});
