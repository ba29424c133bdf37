import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { VERSION } from "../version.js";
import { readCached } from "./track.js";

const cache = mkdtempSync(join(tmpdir(), "track-cache-"));
afterAll(() => rmSync(cache, { recursive: true, force: true }));

const entry = {
  input: "2.1.112.tgz",
  version: "2.1.112",
  platform: "npm",
  routineHash: "ab".repeat(32),
  signature: "tool-search/scorer",
  verified: { cases: 40, agreed: 40, bothReturned: 40, bothThrew: 0 },
  module: join(cache, "k", "lifted", "tool-search.mjs"),
  verifiedRun: true,
  searchlift: VERSION,
};

function cached(text: string, verify = true) {
  mkdirSync(join(cache, "k"), { recursive: true });
  writeFileSync(join(cache, "k", "release.json"), text);
  return readCached(cache, "k", verify);
}

describe("track's cached lifts", () => {
  it("an entry liftOne wrote is read back without its bookkeeping", () => {
    const { verifiedRun: _, searchlift: __, ...release } = entry;
    expect(cached(JSON.stringify(entry))).toEqual(release);
  });

  it("an entry that does not parse, or has a field of another shape, is lifted again (null), silently", () => {
    for (const bad of [
      JSON.stringify(entry).slice(0, -2),
      JSON.stringify({ ...entry, version: "../2.1.112" }),
      JSON.stringify({ ...entry, platform: 7 }),
      JSON.stringify({ ...entry, verified: { cases: 40, agreed: 40 } }),
      JSON.stringify({ ...entry, module: "/elsewhere/tool-search.mjs" }),
      JSON.stringify({ ...entry, verifiedRun: "yes" }),
      JSON.stringify({ ...entry, searchlift: "0.0.0" }),
      "null",
    ])
      expect(cached(bad)).toBeNull();
    expect(cached(JSON.stringify({ ...entry, verifiedRun: false }), true)).toBeNull();
    expect(cached(JSON.stringify({ ...entry, verifiedRun: false }), false)).not.toBeNull();
  });
});
