import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { recordAgreement, recordedAgreement } from "./shared-verification.js";

const dir = mkdtempSync(join(tmpdir(), "agreements-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const agreement = { cases: 2000, agreed: 2000, bothReturned: 1990, bothThrew: 10 };

describe("recorded agreements", () => {
  it("one recordAgreement wrote is read back", () => {
    recordAgreement(dir, "k", agreement);
    expect(recordedAgreement(dir, "k")).toEqual(agreement);
  });

  it("one that is missing, does not parse, is under another key or of another shape is ignored (verified again)", () => {
    expect(recordedAgreement(dir, "none")).toBeNull();
    const record = { key: "k", ...agreement };
    for (const bad of [
      JSON.stringify(record).slice(0, -2),
      "null",
      JSON.stringify({ ...record, key: "other" }),
      JSON.stringify({ ...record, cases: "2000" }),
      JSON.stringify({ ...record, bothThrew: -1, bothReturned: 2001 }),
      JSON.stringify({ ...record, bothReturned: 1990.5 }),
      JSON.stringify({ key: "k", cases: 2000, agreed: 2000 }),
      JSON.stringify({ ...record, agreed: 1999 }),
    ]) {
      writeFileSync(join(dir, "k.json"), bad);
      expect(recordedAgreement(dir, "k")).toBeNull();
    }
  });
});
