import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readRecord } from "./history.js";

const dir = mkdtempSync(join(tmpdir(), "history-records-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const record = {
  version: "2.1.112",
  platform: "npm",
  package: "@anthropic-ai/claude-code",
  sha256: "ab".repeat(32),
  tarball: "/cache/claude-code-2.1.112.tgz",
  searchlift: "0.1.0",
};

describe("history's records", () => {
  it("one history wrote is read back; one that does not parse or is of another shape is done again (null)", () => {
    const file = join(dir, "2.1.112.json");
    writeFileSync(file, JSON.stringify(record));
    expect(readRecord(file)).toEqual(record);
    for (const bad of [
      JSON.stringify(record).slice(0, -1),
      JSON.stringify({ ...record, sha256: "../x" }),
      JSON.stringify({ ...record, tarball: 3 }),
      JSON.stringify({ ...record, searchlift: undefined }),
      "[]",
    ]) {
      writeFileSync(file, bad);
      expect(readRecord(file)).toBeNull();
    }
    expect(readRecord(join(dir, "absent.json"))).toBeNull();
  });
});
